/*
 * asm.c - the .sgasm assembler.  Two passes over the lines: the first reads
 * directives and labels and numbers the instructions, the second decodes the
 * instructions (labels may be used before they are defined).  Every error is
 * recorded and the line is skipped; nothing stops at the first problem.
 * The source is addressed by pointer and length only: it may hold NULs and
 * lines of any length.
 * One file of about 1.4k lines on purpose: the lexer, the directives, the
 * modifiers and the operands all work on one private context (asm_ctx,
 * span) and one error list, and each section below is short; splitting
 * them would only move that context into a header of its own.
 */
#include "isa_priv.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_INSTS (1u << 22)

typedef struct span {
    const char *p;
    size_t n;
    uint32_t line, col;
} span;

typedef struct label {
    const char *name;
    size_t n;
    uint32_t index, line, col;
} label;

typedef struct asm_ctx {
    isa_kernel *k;
    isa_diags *d;
    int errors;
    label *labels;
    size_t nlabel, caplabel;
    span *insts;           /* text of each instruction line (after labels) */
    size_t ninst, capinst;
    bool have_kernel, have_sg, have_lm, have_pm, have_live;
    uint32_t live_bytes;       /* .live_bytes: the allocator's demand */
} asm_ctx;

static void err(asm_ctx *c, uint32_t line, uint32_t col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void err(asm_ctx *c, uint32_t line, uint32_t col, const char *fmt, ...)
{
    char msg[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);   // NOLINT(clang-analyzer-valist.Uninitialized): va_start is the line above
    va_end(ap);
    isa_diags_add(c->d, line, col, "%s", msg);
    c->errors++;
}

/* Quote at most 40 bytes of user text, replacing unprintable bytes. */
static const char *q(const char *p, size_t n, char *buf)
{
    size_t m = n > 40 ? 40 : n, j = 0;
    for (size_t i = 0; i < m; i++)
        buf[j++] = (p[i] >= 0x20 && p[i] < 0x7f) ? p[i] : '?';
    if (m < n) {
        memcpy(buf + j, "...", 3);
        j += 3;
    }
    buf[j] = 0;
    return buf;
}
#define QBUF char qb[48]

static bool is_space(char ch) { return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\v' || ch == '\f'; }
static bool is_id0(char ch) { return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_'; }
static bool is_id(char ch) { return is_id0(ch) || (ch >= '0' && ch <= '9'); }
static bool is_digit(char ch) { return ch >= '0' && ch <= '9'; }

static bool span_eq(span s, const char *lit)
{
    size_t n = strlen(lit);
    return s.n == n && memcmp(s.p, lit, n) == 0;
}

static void skip_ws(span *s)
{
    while (s->n && is_space(s->p[0])) {
        s->p++;
        s->n--;
        s->col++;
    }
}

static void trim(span *s)
{
    skip_ws(s);
    while (s->n && is_space(s->p[s->n - 1]))
        s->n--;
}

/* The longest prefix of *s whose characters satisfy pred (advances *s). */
static span take_while(span *s, bool (*pred)(char))
{
    span t = *s;
    size_t i = 0;
    while (i < s->n && pred(s->p[i]))
        i++;
    t.n = i;
    s->p += i;
    s->n -= i;
    s->col += (uint32_t)i;
    return t;
}

static bool not_space(char ch) { return !is_space(ch); }

/* Next whitespace-separated token of *s (advances *s). */
static span next_tok(span *s)
{
    trim(s);
    return take_while(s, not_space);
}

/* Parse a decimal or hex unsigned number that must fill the span. */
static bool parse_u64(span s, uint64_t *v)
{
    uint64_t x;
    if (isa_parse_imm(s.p, s.n, ISA_T_U64, &x) || s.n == 0 || s.p[0] == '-' || s.p[0] == '+')
        return false;
    *v = x;
    return true;
}

/* --------------------------------------------------------------- pass 1 */

/* arr (of *cap elements of esz bytes) grown to twice its size, or `first`
 * elements; NULL (reported at `at` as out of memory for `what`, arr kept)
 * if that fails. */
static void *grow(asm_ctx *c, void *arr, size_t *cap, size_t esz, size_t first, span at,
                  const char *what)
{
    size_t n = *cap ? *cap * 2 : first;
    void *p = realloc(arr, n * esz);
    if (!p) {
        err(c, at.line, at.col, "out of memory for %s", what);
        return NULL;
    }
    *cap = n;
    return p;
}

static void add_label(asm_ctx *c, span name)
{
    if (c->nlabel == c->caplabel) {
        label *n = grow(c, c->labels, &c->caplabel, sizeof *n, 32, name, "labels");
        if (!n)
            return;
        c->labels = n;
    }
    c->labels[c->nlabel++] = (label){ name.p, name.n, (uint32_t)c->ninst, name.line, name.col };
}

static void add_inst_line(asm_ctx *c, span s)
{
    if (c->ninst >= MAX_INSTS) {
        if (c->ninst == MAX_INSTS)
            err(c, s.line, s.col, "too many instructions (limit %u)", MAX_INSTS);
        c->ninst++;
        return;
    }
    if (c->ninst == c->capinst) {
        span *n = grow(c, c->insts, &c->capinst, sizeof *n, 64, s, "instructions");
        if (!n)
            return;
        c->insts = n;
    }
    c->insts[c->ninst++] = s;
}

static bool parse_name(asm_ctx *c, span t, char *out, size_t cap, const char *what)
{
    QBUF;
    if (t.n == 0) {
        err(c, t.line, t.col, "missing %s name", what);
        return false;
    }
    for (size_t i = 0; i < t.n; i++)
        if (!(i ? is_id(t.p[i]) : is_id0(t.p[i]))) {
            err(c, t.line, t.col, "invalid %s name '%s'", what, q(t.p, t.n, qb));
            return false;
        }
    if (t.n >= cap) {
        err(c, t.line, t.col, "%s name too long (at most %zu characters)", what, cap - 1);
        return false;
    }
    memcpy(out, t.p, t.n);
    out[t.n] = 0;
    return true;
}

static void expect_end(asm_ctx *c, span rest)
{
    QBUF;
    span t = next_tok(&rest);
    if (t.n)
        err(c, t.line, t.col, "unexpected '%s'", q(t.p, t.n, qb));
}

static void dir_u32(asm_ctx *c, span name, span rest, bool *seen, uint32_t *dst,
                    uint32_t lo, uint32_t hi)
{
    QBUF;
    span t = next_tok(&rest);
    uint64_t v;
    if (*seen)
        err(c, name.line, name.col, "duplicate %s directive", q(name.p, name.n, qb));
    *seen = true;
    if (!t.n) {
        err(c, rest.line, rest.col, "missing value");
        return;
    }
    if (!parse_u64(t, &v) || v < lo || v > hi) {
        err(c, t.line, t.col, "value '%s' must be an integer in %u..%u", q(t.p, t.n, qb), lo, hi);
        return;
    }
    *dst = (uint32_t)v;
    expect_end(c, rest);
}

/* `byval TYPE N [CLTYPE]` (a vector of N = 2, 3, 4, 8 or 16 components;
 * a 3-vector takes 4 components' bytes) or `byval struct BYTES [CLTYPE]`:
 * a by-value argument, read from a `constant` buffer of that many bytes.
 * CLTYPE, the rest of the line, is the OpenCL spelling that launch errors
 * name ("float4", "struct S"). */
static bool byval_arg(asm_ctx *c, isa_arg *a, span *rest)
{
    QBUF;
    span t = next_tok(rest), n = next_tok(rest);
    uint64_t v;
    a->kind = ISA_ARG_CONSTANT;
    if (!t.n || !n.n) {
        err(c, rest->line, rest->col, "expected byval TYPE COMPONENTS or byval struct BYTES");
        return false;
    }
    if (!parse_u64(n, &v)) {
        err(c, n.line, n.col, "'%s' is not a number", q(n.p, n.n, qb));
        return false;
    }
    if (span_eq(t, "struct")) {
        if (v < 1 || v > 65536) {
            err(c, n.line, n.col, "a by-value struct has 1..65536 bytes, not %llu",
                (unsigned long long)v);
            return false;
        }
        a->type = ISA_T_U8;
        a->byval = (uint32_t)v;
    } else {
        isa_type ty = isa_type_from_name(t.p, t.n);
        if (ty == ISA_T_NONE) {
            err(c, t.line, t.col, "unknown type '%s'", q(t.p, t.n, qb));
            return false;
        }
        if (v != 2 && v != 3 && v != 4 && v != 8 && v != 16) {
            err(c, n.line, n.col, "a by-value vector has 2, 3, 4, 8 or 16 components, not %llu",
                (unsigned long long)v);
            return false;
        }
        a->type = (uint8_t)ty;
        a->byval_vec = (uint8_t)v;
        a->byval = isa_types[ty].bytes * (v == 3 ? 4u : (uint32_t)v);
    }
    trim(rest);
    if (rest->n >= sizeof a->cl_type) {
        err(c, rest->line, rest->col, "OpenCL type name too long (at most %zu characters)",
            sizeof a->cl_type - 1);
        return false;
    }
    memcpy(a->cl_type, rest->p, rest->n);
    a->cl_type[rest->n] = 0;
    return true;
}


/* An image type's .arg spelling (ISA_IMAGE_TYPES) into a's dims, arrayed
 * and img_buffer; false if t is none. */
static bool image_type(span t, isa_arg *a)
{
    for (unsigned d = 1; d <= 3; d++)
        for (unsigned k = 0; k < 4; k++) {
            const char *name = isa_image_type_name(d, k & 1, k >> 1);
            if (name && span_eq(t, name)) {
                a->dims = (uint8_t)d;
                a->arrayed = (uint8_t)(k & 1);
                a->img_buffer = (uint8_t)(k >> 1);
                return true;
            }
        }
    return false;
}

static void dir_arg(asm_ctx *c, span dname, span rest)
{
    QBUF;
    isa_kernel *k = c->k;
    span nt = next_tok(&rest);
    isa_arg a;
    memset(&a, 0, sizeof a);
    a.line = dname.line;
    if (!parse_name(c, nt, a.name, sizeof a.name, "argument"))
        return;
    for (int s = 0; s < ISA_SP_COUNT; s++)
        if (span_eq(nt, isa_specials[s].name)) {
            err(c, nt.line, nt.col, "argument name '%s' is a reserved special name", a.name);
            return;
        }
    for (uint32_t i = 0; i < k->narg; i++)
        if (strcmp(k->args[i].name, a.name) == 0) {
            err(c, nt.line, nt.col, "duplicate argument '%s'", a.name);
            return;
        }
    span t = next_tok(&rest);
    if (!t.n) {
        err(c, rest.line, rest.col, "missing argument type");
        return;
    }
    a.type = ISA_T_NONE;
    if (span_eq(t, "byval")) {
        if (!byval_arg(c, &a, &rest))
            return;
        rest.n = 0;     /* the OpenCL spelling took the rest of the line */
    } else if (image_type(t, &a)) {
        a.kind = ISA_ARG_IMAGE2D;
        a.access = 1;   /* OpenCL's default for images */
        span ac = next_tok(&rest);
        if (ac.n) {
            if (span_eq(ac, "read_only")) a.access = 1;
            else if (span_eq(ac, "write_only")) a.access = 2;
            else if (span_eq(ac, "read_write")) a.access = 0;
            else {
                err(c, ac.line, ac.col, "unknown image access '%s'", q(ac.p, ac.n, qb));
                return;
            }
        }
    } else {
        a.kind = ISA_ARG_SCALAR;
        if (span_eq(t, "global")) a.kind = ISA_ARG_GLOBAL;
        else if (span_eq(t, "constant")) a.kind = ISA_ARG_CONSTANT;
        else if (span_eq(t, "local")) a.kind = ISA_ARG_LOCAL;
        if (a.kind != ISA_ARG_SCALAR) {
            t = next_tok(&rest);
            if (!t.n) {
                err(c, rest.line, rest.col, "missing pointee type");
                return;
            }
        }
        isa_type ty = isa_type_from_name(t.p, t.n);
        if (ty == ISA_T_NONE) {
            err(c, t.line, t.col, "unknown type '%s'", q(t.p, t.n, qb));
            return;
        }
        a.type = (uint8_t)ty;
    }
    expect_end(c, rest);
    if (k->narg >= ISA_MAX_ARGS) {
        err(c, nt.line, nt.col, "too many arguments (limit %d)", ISA_MAX_ARGS);
        return;
    }
    k->args[k->narg++] = a;
}

/* .const_data NAME HEX... / .global_data NAME HEX...: a hidden argument NAME
 * (`constant u8`, read-only / `global u8`, a fresh writable copy per launch)
 * carrying the given bytes (two hex digits each; tokens may hold any even
 * number of digits).  Further lines with the same name append bytes. */
static void dir_data(asm_ctx *c, span dname, span rest, bool global)
{
    QBUF;
    isa_kernel *k = c->k;
    uint32_t *argp = global ? &k->global_arg : &k->const_arg;
    uint32_t *bytes = global ? &k->global_bytes : &k->const_bytes;
    uint8_t **data = global ? &k->global_data : &k->const_data;
    const char *dir = global ? ".global_data" : ".const_data";
    span nt = next_tok(&rest);
    char name[64];
    if (!parse_name(c, nt, name, sizeof name, global ? "global data" : "constant data"))
        return;
    if (!*argp) {
        for (uint32_t i = 0; i < k->narg; i++)
            if (strcmp(k->args[i].name, name) == 0) {
                err(c, nt.line, nt.col, "duplicate argument '%s'", name);
                return;
            }
        for (int sp = 0; sp < ISA_SP_COUNT; sp++)
            if (span_eq(nt, isa_specials[sp].name)) {
                err(c, nt.line, nt.col, "argument name '%s' is a reserved special name", name);
                return;
            }
        if (k->narg >= ISA_MAX_ARGS) {
            err(c, nt.line, nt.col, "too many arguments (limit %d)", ISA_MAX_ARGS);
            return;
        }
        isa_arg *a = &k->args[k->narg++];
        memset(a, 0, sizeof *a);
        memcpy(a->name, name, sizeof a->name);
        a->kind = global ? ISA_ARG_GLOBAL : ISA_ARG_CONSTANT;
        a->type = ISA_T_U8;
        a->line = dname.line;
        *argp = k->narg;
    } else if (strcmp(k->args[*argp - 1].name, name) != 0) {
        err(c, nt.line, nt.col, "a kernel has one %s block ('%s' already)", dir,
            k->args[*argp - 1].name);
        return;
    }
    for (span t = next_tok(&rest); t.n; t = next_tok(&rest)) {
        if (t.n % 2) {
            err(c, t.line, t.col, "'%s': hex bytes need two digits each", q(t.p, t.n, qb));
            return;
        }
        if (*bytes + t.n / 2 > (1u << 26)) {
            err(c, t.line, t.col, "more than 64 MiB of %s data", global ? "global" : "constant");
            return;
        }
        uint8_t *nd = realloc(*data, *bytes + t.n / 2);
        if (!nd) {
            err(c, t.line, t.col, "out of memory");
            return;
        }
        *data = nd;
        for (size_t i = 0; i < t.n; i += 2) {
            int v = 0;
            for (size_t j = i; j < i + 2; j++) {
                char ch = t.p[j];
                int d = ch >= '0' && ch <= '9' ? ch - '0' : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10
                      : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10 : -1;
                if (d < 0) {
                    err(c, t.line, t.col, "'%s' is not hex bytes", q(t.p, t.n, qb));
                    return;
                }
                v = v * 16 + d;
            }
            (*data)[(*bytes)++] = (uint8_t)v;
        }
    }
}

/* The index of the data block (.const_data or .global_data argument) named
 * by t, or -1 after an error. */
static int data_block(asm_ctx *c, span t)
{
    QBUF;
    const isa_kernel *k = c->k;
    if (!t.n) {
        err(c, t.line, t.col, "missing data block name");
        return -1;
    }
    for (int w = 0; w < 2; w++) {
        uint32_t a = w ? k->global_arg : k->const_arg;
        if (a && span_eq(t, k->args[a - 1].name))
            return (int)a - 1;
    }
    err(c, t.line, t.col, "'%s' is not a .const_data or .global_data block declared above",
        q(t.p, t.n, qb));
    return -1;
}

/* A decimal or hex count < 2^32 that must fill the token. */
static bool parse_u32_tok(asm_ctx *c, span t, const char *what, uint32_t *v)
{
    QBUF;
    uint64_t x;
    if (!t.n) {
        err(c, t.line, t.col, "missing %s", what);
        return false;
    }
    if (!parse_u64(t, &x) || x > UINT32_MAX) {
        err(c, t.line, t.col, "bad %s '%s' (expected a number below 2^32)", what,
            q(t.p, t.n, qb));
        return false;
    }
    *v = (uint32_t)x;
    return true;
}

/* .data_reloc BLOCK OFFSET TARGET ADDEND: the 8 bytes at OFFSET of data
 * block BLOCK hold, at launch, the address of data block TARGET plus ADDEND
 * (a pointer initialiser that takes the address of a program-scope
 * variable).  Both blocks must be declared above; ranges are checked by the
 * validator. */
static void dir_data_reloc(asm_ctx *c, span rest)
{
    QBUF;
    isa_kernel *k = c->k;
    isa_reloc r;
    memset(&r, 0, sizeof r);
    int b = data_block(c, next_tok(&rest));
    if (b < 0)
        return;
    span ot = next_tok(&rest);
    if (!parse_u32_tok(c, ot, "offset", &r.offset))
        return;
    int t = data_block(c, next_tok(&rest));
    if (t < 0)
        return;
    span at = next_tok(&rest);
    uint64_t bits;
    if (!at.n) {
        err(c, at.line, at.col, "missing addend");
        return;
    }
    if (isa_parse_imm(at.p, at.n, ISA_T_I64, &bits)) {
        err(c, at.line, at.col, "bad addend '%s' (expected a byte offset)", q(at.p, at.n, qb));
        return;
    }
    expect_end(c, rest);
    r.arg = (uint32_t)b;
    r.target = (uint32_t)t;
    r.addend = (int64_t)bits;
    isa_reloc *n = realloc(k->relocs, (k->nreloc + 1) * sizeof *n);
    if (!n) {
        err(c, ot.line, ot.col, "out of memory");
        return;
    }
    k->relocs = n;
    k->relocs[k->nreloc++] = r;
}

/* .global_var NAME OFFSET BYTES TYPE: program-scope variable NAME (an
 * OpenCL C name; '.' allowed, as in the `kernel.var` of a static local) is
 * BYTES bytes at OFFSET of the .global_data block, printed as TYPE. */
static void dir_global_var(asm_ctx *c, span rest)
{
    QBUF;
    isa_kernel *k = c->k;
    isa_gvar g;
    memset(&g, 0, sizeof g);
    span nt = next_tok(&rest);
    bool ok = nt.n > 0 && nt.n < sizeof g.name && is_id0(nt.p[0]);
    for (size_t i = 0; ok && i < nt.n; i++)
        ok = is_id(nt.p[i]) || nt.p[i] == '.';
    if (!ok) {
        err(c, nt.line, nt.col, nt.n ? "invalid variable name '%s'" : "missing variable name%s",
            nt.n ? q(nt.p, nt.n, qb) : "");
        return;
    }
    memcpy(g.name, nt.p, nt.n);
    for (uint32_t i = 0; i < k->ngvar; i++)
        if (!strcmp(k->gvars[i].name, g.name)) {
            err(c, nt.line, nt.col, "duplicate variable '%s'", g.name);
            return;
        }
    if (!k->global_arg) {
        err(c, nt.line, nt.col, ".global_var needs a .global_data block declared above");
        return;
    }
    if (!parse_u32_tok(c, next_tok(&rest), "offset", &g.offset) ||
        !parse_u32_tok(c, next_tok(&rest), "size", &g.bytes))
        return;
    span tt = next_tok(&rest);
    isa_type ty = isa_type_from_name(tt.p, tt.n);
    if (ty == ISA_T_NONE) {
        err(c, tt.line, tt.col, tt.n ? "unknown type '%s'" : "missing type%s",
            tt.n ? q(tt.p, tt.n, qb) : "");
        return;
    }
    g.type = (uint8_t)ty;
    expect_end(c, rest);
    isa_gvar *n = realloc(k->gvars, (k->ngvar + 1) * sizeof *n);
    if (!n) {
        err(c, nt.line, nt.col, "out of memory");
        return;
    }
    k->gvars = n;
    k->gvars[k->ngvar++] = g;
}

/* .printf "FORMAT": the next printf format (index 0, 1, ... in order);
 * escapes \n \t \r \" \\ and \xHH. */
static void dir_printf(asm_ctx *c, span name, span rest)
{
    trim(&rest);
    if (!rest.n || rest.p[0] != '"') {
        err(c, rest.line, rest.col, ".printf needs a format in double quotes");
        return;
    }
    char *buf = malloc(rest.n + 1);
    if (!buf) {
        err(c, name.line, name.col, "out of memory");
        return;
    }
    size_t n = 0, i = 1;
    bool closed = false;
    while (i < rest.n) {
        char ch = rest.p[i++];
        if (ch == '"') {
            closed = true;
            break;
        }
        if (ch == '\\' && i < rest.n) {
            char e = rest.p[i++];
            unsigned hv = 0;
            switch (e) {
            case 'n': ch = '\n'; break;
            case 't': ch = '\t'; break;
            case 'r': ch = '\r'; break;
            case '"': case '\\': ch = e; break;
            case 'x':
                for (int d = 0; d < 2; d++, i++) {
                    char h = i < rest.n ? rest.p[i] : 0;
                    int v = is_digit(h) ? h - '0' : (h >= 'a' && h <= 'f') ? h - 'a' + 10 :
                            (h >= 'A' && h <= 'F') ? h - 'A' + 10 : -1;
                    if (v < 0) {
                        err(c, rest.line, rest.col + (uint32_t)i, "\\x needs two hex digits");
                        free(buf);
                        return;
                    }
                    hv = hv * 16 + (unsigned)v;
                }
                ch = (char)hv;
                break;
            default:
                err(c, rest.line, rest.col + (uint32_t)i - 2, "unknown escape '\\%c'",
                    e >= 0x20 && e < 0x7f ? e : '?');
                free(buf);
                return;
            }
        }
        buf[n++] = ch;
    }
    if (!closed) {
        err(c, rest.line, rest.col, "unterminated .printf format");
        free(buf);
        return;
    }
    rest.p += i;
    rest.n -= i;
    rest.col += (uint32_t)i;
    expect_end(c, rest);
    char why[160];
    int r = isa_printf_add(c->k, buf, n, why, sizeof why);
    if (r == -2)
        err(c, name.line, name.col, "out of memory");
    else if (r < 0)
        err(c, name.line, name.col, "printf format: %s", why);
    else if ((uint32_t)r + 1 != c->k->nprintf)
        err(c, name.line, name.col, "duplicate .printf format (the same as format %d)", r);
    free(buf);
}

static void directive(asm_ctx *c, span s)
{
    QBUF;
    span name = next_tok(&s);
    isa_kernel *k = c->k;
    if (span_eq(name, ".kernel")) {
        span t = next_tok(&s);
        if (c->have_kernel) {
            err(c, name.line, name.col, "duplicate .kernel directive (one kernel per file)");
            return;
        }
        c->have_kernel = true;
        if (parse_name(c, t, k->name, sizeof k->name, "kernel"))
            expect_end(c, s);
    } else if (span_eq(name, ".arg")) {
        dir_arg(c, name, s);
    } else if (span_eq(name, ".const_data")) {
        dir_data(c, name, s, false);
    } else if (span_eq(name, ".global_data")) {
        dir_data(c, name, s, true);
    } else if (span_eq(name, ".data_reloc")) {
        dir_data_reloc(c, s);
    } else if (span_eq(name, ".global_var")) {
        dir_global_var(c, s);
    } else if (span_eq(name, ".printf")) {
        dir_printf(c, name, s);
    } else if (span_eq(name, ".reqd_sub_group_size")) {
        dir_u32(c, name, s, &c->have_sg, &k->reqd_sg_size, 1, 64);
    } else if (span_eq(name, ".local_mem")) {
        dir_u32(c, name, s, &c->have_lm, &k->local_mem, 0, UINT32_MAX);
    } else if (span_eq(name, ".private_mem")) {
        dir_u32(c, name, s, &c->have_pm, &k->private_mem, 0, UINT32_MAX);
    } else if (span_eq(name, ".live_bytes")) {
        /* registers already allocated: the demand is the largest live set,
         * not every register's widest use (docs/regalloc.md) */
        dir_u32(c, name, s, &c->have_live, &c->live_bytes, 1, UINT32_MAX);
        k->regalloc = ISA_RA_DONE;
    } else if (span_eq(name, ".regalloc")) {
        /* the registers are values: sgemu_run allocates them (docs/regalloc.md) */
        k->regalloc = ISA_RA_VALUES;
        expect_end(c, s);
    } else {
        err(c, name.line, name.col, "unknown directive '%s'", q(name.p, name.n, qb));
    }
}

/* Split the source into lines; strip comments; take labels and directives;
 * remember the instruction lines for pass 2. */
static void pass1(asm_ctx *c, const char *src, size_t len)
{
    QBUF;
    size_t pos = 0;
    uint32_t line = 0;
    while (pos < len && line < UINT32_MAX) {
        line++;
        const char *lp = src + pos;
        const char *nl = memchr(lp, '\n', len - pos);
        size_t n = nl ? (size_t)(nl - lp) : len - pos;
        pos += n + 1;
        /* a comment starts outside double quotes (.printf formats) */
        bool quoted = false;
        for (size_t i = 0; i < n; i++) {
            if (lp[i] == '"')
                quoted = !quoted;
            else if (quoted && lp[i] == '\\')
                i++;
            else if (!quoted &&
                     (lp[i] == ';' || (lp[i] == '/' && i + 1 < n && lp[i + 1] == '/'))) {
                n = i;
                break;
            }
        }
        span s = { lp, n, line, 1 };
        trim(&s);
        /* labels: identifier ':' (possibly several) */
        for (;;) {
            size_t i = 0;
            if (!s.n || !is_id0(s.p[0]))
                break;
            while (i < s.n && is_id(s.p[i]))
                i++;
            size_t j = i;
            while (j < s.n && is_space(s.p[j]))
                j++;
            if (j >= s.n || s.p[j] != ':')
                break;
            add_label(c, (span){ s.p, i, line, s.col });
            s.p += j + 1;
            s.n -= j + 1;
            s.col += (uint32_t)(j + 1);
            trim(&s);
        }
        if (!s.n)
            continue;
        if (s.p[0] == '.')
            directive(c, s);
        else if (is_id0(s.p[0]))
            add_inst_line(c, s);
        else {
            err(c, s.line, s.col, "unexpected '%s'", q(s.p, s.n > 8 ? 8 : s.n, qb));
        }
    }
}

static int label_cmp(const void *a, const void *b)
{
    const label *x = a, *y = b;
    size_t n = x->n < y->n ? x->n : y->n;
    int r = memcmp(x->name, y->name, n);
    if (r)
        return r;
    if (x->n != y->n)
        return x->n < y->n ? -1 : 1;
    if (x->line != y->line)
        return x->line < y->line ? -1 : 1;
    return x->col < y->col ? -1 : x->col > y->col;
}

static void sort_labels(asm_ctx *c)
{
    QBUF;
    if (c->nlabel)
        qsort(c->labels, c->nlabel, sizeof *c->labels, label_cmp);
    for (size_t i = 1; i < c->nlabel; i++) {
        label *a = &c->labels[i - 1], *b = &c->labels[i];
        if (a->n == b->n && memcmp(a->name, b->name, a->n) == 0)
            err(c, b->line, b->col, "duplicate label '%s' (first defined on line %u)",
                q(b->name, b->n, qb), a->line);
    }
}

static const label *find_label(const asm_ctx *c, span s)
{
    size_t lo = 0, hi = c->nlabel;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        const label *l = &c->labels[mid];
        size_t n = l->n < s.n ? l->n : s.n;
        int r = memcmp(l->name, s.p, n);
        if (!r)
            r = l->n < s.n ? -1 : l->n > s.n ? 1 : 0;
        if (!r) {
            while (mid > lo && c->labels[mid - 1].n == s.n &&
                   memcmp(c->labels[mid - 1].name, s.p, s.n) == 0)
                mid--;
            return &c->labels[mid];
        }
        if (r < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

/* ------------------------------------------------------------- modifiers */

/* Parse "f32", "f32x4", "float" into type and vector count. */
static isa_type parse_type_mod(span m, unsigned *vec)
{
    *vec = 1;
    isa_type t = isa_type_from_name(m.p, m.n);
    if (t != ISA_T_NONE)
        return t;
    size_t x = m.n;
    while (x > 0 && is_digit(m.p[x - 1]))
        x--;
    if (x == m.n || x < 2 || m.p[x - 1] != 'x' || m.n - x > 2)
        return ISA_T_NONE;
    t = isa_type_from_name(m.p, x - 1);
    if (t == ISA_T_NONE)
        return ISA_T_NONE;
    unsigned v = 0;
    for (size_t i = x; i < m.n; i++)
        v = v * 10 + (unsigned)(m.p[i] - '0');
    if (v != 2 && v != 3 && v != 4 && v != 8 && v != 16)
        return ISA_T_NONE;
    *vec = v;
    return t;
}

static const char *type_str(isa_type t, unsigned vec, char *buf)
{
    if ((unsigned)t >= ISA_T_COUNT)
        return "?";
    if (vec > 1)
        snprintf(buf, 16, "%sx%u", isa_types[t].asm_name, vec);
    else
        snprintf(buf, 16, "%s", isa_types[t].asm_name);
    return buf;
}

/* The index in lo..hi-1 of the entry of `names` that m spells, or -1. */
static int name_index(span m, const char *const *names, int lo, int hi)
{
    for (int i = lo; i < hi; i++)
        if (span_eq(m, names[i]))
            return i;
    return -1;
}

/* Modifier m (shown as `name`) of `mnem`: reports "<what> 'name' is not
 * allowed for 'mnem'" unless `allowed`, else "duplicate <dup> 'name'" if
 * `seen` before; true if neither. */
static bool modifier_ok(asm_ctx *c, span m, const char *name, const char *mnem, bool allowed,
                        bool seen, const char *what, const char *dup)
{
    if (!allowed)
        err(c, m.line, m.col, "%s '%s' is not allowed for '%s'", what, name, mnem);
    else if (seen)
        err(c, m.line, m.col, "duplicate %s '%s'", dup, name);
    return allowed && !seen;
}

/* Decode the dot-separated modifiers of `mn` into *in.  Returns false if an
 * error was reported. */
static bool parse_mods(asm_ctx *c, span mods, isa_inst *in)
{
    QBUF;
    char tb[16];
    const isa_op_info *oi = &isa_ops[in->op];
    const char *mnem = oi->mnemonic;
    bool ok = true, is_cvt = oi->family == ISA_FAM_CVT, is_bar = oi->family == ISA_FAM_BARRIER;
    /* memory order and scope: atomics and fences (a nop with fence flags) */
    const bool sync_ok = oi->family == ISA_FAM_LD || oi->family == ISA_FAM_ST ||
                         oi->family == ISA_FAM_ATOM || oi->family == ISA_FAM_NOP;
    int ntypes = 0;
    bool have_space = false, have_rnd = false, have_cond = false;
    uint32_t tcol = mods.col;
    isa_type types[2] = { ISA_T_NONE, ISA_T_NONE };
    unsigned vec = 1;
    while (mods.n) {
        /* mods starts at a '.' */
        span m = { mods.p + 1, 0, mods.line, mods.col + 1 };
        while (m.n + 1 < mods.n && mods.p[1 + m.n] != '.')
            m.n++;
        mods.p += m.n + 1;
        mods.n -= m.n + 1;
        mods.col += (uint32_t)(m.n + 1);
        if (!m.n) {
            err(c, m.line, m.col, "empty modifier");
            ok = false;
            continue;
        }
        unsigned v;
        isa_type t = parse_type_mod(m, &v);
        if (t != ISA_T_NONE) {
            if (ntypes >= (is_cvt ? 2 : 1)) {
                err(c, m.line, m.col, "duplicate type modifier '%s'", q(m.p, m.n, qb));
                ok = false;
                continue;
            }
            if (oi->types == ISA_TM_NONE) {
                err(c, m.line, m.col, "type %s is not allowed for '%s'", type_str(t, v, tb), mnem);
                ok = false;
                continue;
            }
            if (!(oi->types & (1u << t)) || (v > 1 && !(oi->types & ISA_TM_VEC)) ||
                (v > 1 && is_cvt)) {
                err(c, m.line, m.col, "type %s is not allowed for '%s'", type_str(t, v, tb), mnem);
                ok = false;
            }
            if (ntypes == 0) {
                vec = v;
                tcol = m.col;
            }
            types[ntypes++] = t;
            continue;
        }
        if ((is_bar || oi->family == ISA_FAM_NOP) && (span_eq(m, "local") || span_eq(m, "global") || span_eq(m, "image"))) {
            unsigned f = span_eq(m, "local") ? ISA_F_FENCE_LOCAL
                       : span_eq(m, "global") ? ISA_F_FENCE_GLOBAL : ISA_F_FENCE_IMAGE;
            ok = modifier_ok(c, m, q(m.p, m.n, qb), mnem, true, in->flags & f, "modifier",
                             "modifier") && ok;
            in->flags |= (uint16_t)f;
            continue;
        }
        int sp = name_index(m, isa_space_names, 0, ISA_SPACE_IMAGE);
        if (sp >= 0) {
            ok = modifier_ok(c, m, isa_space_names[sp], mnem, isa_op_takes_space(oi), have_space,
                             "address space", "address space modifier") && ok;
            have_space = true;
            in->space = (uint8_t)sp;
            continue;
        }
        int cond = -1;
        for (int b = ISA_BINOP_EQ; b <= ISA_BINOP_GE; b++) {
            char lc[4];
            const char *bn = isa_binop_names[b];
            lc[0] = (char)(bn[0] | 0x20);
            lc[1] = (char)(bn[1] | 0x20);
            lc[2] = 0;
            if (span_eq(m, lc))
                cond = b;
        }
        if (cond >= 0) {
            ok = modifier_ok(c, m, q(m.p, m.n, qb), mnem, oi->family == ISA_FAM_CMP, have_cond,
                             "condition", "condition modifier") && ok;
            have_cond = true;
            in->cond = (uint8_t)cond;
            continue;
        }
        int rnd = name_index(m, isa_round_names, 1, ISA_RND_COUNT);
        if (rnd >= 0) {
            ok = modifier_ok(c, m, q(m.p, m.n, qb), mnem, is_cvt || isa_op_arith(in->op),
                             have_rnd, "rounding mode", "rounding modifier") && ok;
            have_rnd = true;
            in->flags = (uint16_t)((in->flags & ~ISA_F_RND_MASK) | ((unsigned)rnd << ISA_F_RND_SHIFT));
            continue;
        }
        struct { const char *name; unsigned flag; bool allowed; } fl[] = {
            { "sat", ISA_F_SAT, is_cvt },
            { "uni", ISA_F_UNIFORM, oi->family == ISA_FAM_BRA },
            { "clamp", ISA_F_CLAMP, oi->family == ISA_FAM_IMG_READ },
            { "anysign", ISA_F_ANYSIGN, (oi->family == ISA_FAM_IMG_READ ||
                                         oi->family == ISA_FAM_IMG_WRITE) &&
                                        !isa_op_block_io(in->op) },
            { "atomic", ISA_F_ATOMIC, oi->family == ISA_FAM_LD || oi->family == ISA_FAM_ST },
            { "acquire", ISA_F_ACQUIRE, sync_ok },
            { "release", ISA_F_RELEASE, sync_ok },
            { "wgscope", ISA_F_SCOPE_WG, sync_ok },
            { "sgscope", ISA_F_SCOPE_SG, sync_ok },
        };
        bool found = false;
        for (size_t i = 0; i < sizeof fl / sizeof fl[0]; i++) {
            if (!span_eq(m, fl[i].name))
                continue;
            found = true;
            ok = modifier_ok(c, m, fl[i].name, mnem, fl[i].allowed, in->flags & fl[i].flag,
                             "modifier", "modifier") && ok;
            in->flags |= (uint16_t)fl[i].flag;
        }
        if (!found) {
            err(c, m.line, m.col, "unknown modifier '%s'", q(m.p, m.n, qb));
            ok = false;
        }
    }
    if (oi->types != ISA_TM_NONE && ntypes == 0) {
        err(c, in->line, in->col, "'%s' needs a type modifier", mnem);
        return false;
    }
    if (is_cvt && ntypes == 1) {
        err(c, in->line, in->col, "'cvt' needs two types: cvt.DST.SRC");
        return false;
    }
    if ((oi->family == ISA_FAM_LD || oi->family == ISA_FAM_ST) &&
        (in->flags & (ISA_F_ACQUIRE | ISA_F_RELEASE)) && !(in->flags & ISA_F_ATOMIC)) {
        err(c, in->line, in->col, "'%s': .acquire and .release need .atomic", mnem);
        ok = false;
    }
    if (oi->family == ISA_FAM_CMP && !have_cond) {
        err(c, in->line, in->col, "'cmp' needs a condition (eq ne lt le gt ge)");
        ok = false;
    }
    if ((oi->family == ISA_FAM_LD || oi->family == ISA_FAM_ST || oi->family == ISA_FAM_ATOM) &&
        !have_space) {
        err(c, in->line, in->col, "'%s' needs an address space (global constant local private)", mnem);
        ok = false;
    }
    if (have_space && oi->family == ISA_FAM_ATOM &&
        in->space != ISA_SPACE_GLOBAL && in->space != ISA_SPACE_LOCAL) {
        err(c, in->line, in->col, "atomics work on global or local memory only");
        ok = false;
    }
    if (have_space && (oi->family == ISA_FAM_ST || oi->family == ISA_FAM_BLOCK_WRITE) &&
        in->space == ISA_SPACE_CONSTANT) {
        err(c, in->line, in->col, "cannot store to constant memory");
        ok = false;
    }
    if (oi->family == ISA_FAM_IMG_READ || oi->family == ISA_FAM_IMG_WRITE ||
        oi->family == ISA_FAM_IMG_QUERY)
        in->space = ISA_SPACE_IMAGE;
    if (have_rnd && !is_cvt && ntypes && !isa_types[types[0]].is_float) {
        err(c, in->line, in->col, "rounding modifiers need a floating-point type");
        ok = false;
    }
    (void)tcol;
    if (ntypes) {
        in->type = (uint8_t)types[0];
        in->vec = (uint8_t)vec;
        in->src_type = (uint8_t)(ntypes == 2 ? types[1] : types[0]);
    }
    return ok;
}

/* -------------------------------------------------------------- operands */

static bool parse_reg_num(span s, char prefix, unsigned max, unsigned *out, bool *range)
{
    *range = false;
    if (s.n < 2 || s.p[0] != prefix)
        return false;
    unsigned v = 0;
    for (size_t i = 1; i < s.n; i++) {
        if (!is_digit(s.p[i]))
            return false;
        if (v < 100000)
            v = v * 10 + (unsigned)(s.p[i] - '0');
    }
    if (v >= max) {
        *range = true;
        return false;
    }
    *out = v;
    return true;
}

static bool op_reg(asm_ctx *c, span s, isa_operand *o, unsigned vec)
{
    QBUF;
    unsigned r;
    bool range;
    /* value registers (.regalloc) are allocated before the kernel runs */
    unsigned lim = c->k->regalloc == ISA_RA_VALUES ? ISA_MAX_VALUES : ISA_MAX_REGS;
    if (!parse_reg_num(s, 'r', lim, &r, &range)) {
        if (range)
            err(c, s.line, s.col, "register '%s' out of range (r0..r%u)", q(s.p, s.n, qb), lim - 1);
        else
            err(c, s.line, s.col, "expected a register, got '%s'", q(s.p, s.n, qb));
        return false;
    }
    if (r + vec > ISA_MAX_REGS) {
        err(c, s.line, s.col, "vector of %u registers from r%u goes past r%d", vec, r, ISA_MAX_REGS - 1);
        return false;
    }
    o->kind = ISA_OPND_REG;
    o->reg = (uint16_t)r;
    return true;
}

static bool op_pred(asm_ctx *c, span s, isa_operand *o, bool allow_neg)
{
    QBUF;
    unsigned r;
    bool range, neg = false;
    span t = s;
    if (t.n && t.p[0] == '!') {
        neg = true;
        t.p++;
        t.n--;
        t.col++;
        trim(&t);
    }
    if (!parse_reg_num(t, 'p', ISA_MAX_PREDS, &r, &range)) {
        if (range)
            err(c, t.line, t.col, "predicate '%s' out of range (p0..p%d)", q(t.p, t.n, qb), ISA_MAX_PREDS - 1);
        else
            err(c, s.line, s.col, "expected a predicate, got '%s'", q(s.p, s.n, qb));
        return false;
    }
    if (neg && !allow_neg) {
        err(c, s.line, s.col, "a destination predicate cannot be negated");
        return false;
    }
    o->kind = ISA_OPND_PRED;
    o->reg = (uint16_t)r;
    o->negate = neg;
    return true;
}

/* %name or %special[.x|.y|.z|.0|.1|.2] */
static bool op_percent(asm_ctx *c, span s, isa_operand *o)
{
    QBUF;
    size_t i = 1;
    while (i < s.n && is_id(s.p[i]))
        i++;
    span name = { s.p + 1, i - 1, s.line, s.col + 1 };
    span dim = { s.p + i, s.n - i, s.line, s.col + (uint32_t)i };
    if (!name.n) {
        err(c, s.line, s.col, "expected a name after '%%'");
        return false;
    }
    int d = -1;
    if (dim.n) {
        if (dim.n == 2 && dim.p[0] == '.') {
            const char *dn = "xyz012";
            const char *f = memchr(dn, dim.p[1], 6);   // NOLINT(bugprone-not-null-terminated-result): searches the 6 letters, not a string
            if (f && dim.p[1])
                d = (int)((f - dn) % 3);
        }
        if (d < 0) {
            err(c, dim.line, dim.col, "bad dimension '%s' (use .x .y .z)", q(dim.p, dim.n, qb));
            return false;
        }
    }
    for (int sp = 0; sp < ISA_SP_COUNT; sp++) {
        if (!span_eq(name, isa_specials[sp].name))
            continue;
        if (isa_specials[sp].takes_dim && d < 0) {
            err(c, s.line, s.col, "%%%s needs a dimension (.x .y .z)", isa_specials[sp].name);
            return false;
        }
        if (!isa_specials[sp].takes_dim && d >= 0) {
            err(c, dim.line, dim.col, "%%%s takes no dimension", isa_specials[sp].name);
            return false;
        }
        o->kind = ISA_OPND_SPECIAL;
        o->reg = (uint16_t)sp;
        o->dim = (uint8_t)(d < 0 ? 0 : d);
        return true;
    }
    for (uint32_t a = 0; a < c->k->narg; a++) {
        if (!span_eq(name, c->k->args[a].name))
            continue;
        if (d >= 0) {
            err(c, dim.line, dim.col, "argument %%%s takes no dimension", c->k->args[a].name);
            return false;
        }
        o->kind = ISA_OPND_ARG;
        o->reg = (uint16_t)a;
        return true;
    }
    err(c, s.line, s.col, "unknown argument or special '%s'", q(s.p, s.n, qb));
    return false;
}

static bool op_src(asm_ctx *c, span s, isa_operand *o, isa_type t, unsigned vec, const char *mnem)
{
    QBUF;
    char tb[16];
    if (s.p[0] == 'r' && s.n > 1 && is_digit(s.p[1]))
        return op_reg(c, s, o, vec);
    if (s.p[0] == '%') {
        if (!op_percent(c, s, o))
            return false;
        if (o->kind == ISA_OPND_ARG && c->k->args[o->reg].kind == ISA_ARG_IMAGE2D) {
            err(c, s.line, s.col, "image argument %%%s is only an operand of image instructions",
                c->k->args[o->reg].name);
            return false;
        }
        return true;
    }
    if ((s.p[0] == 'p' || s.p[0] == '!') && s.n > 1) {
        err(c, s.line, s.col, "a predicate is not allowed here");
        return false;
    }
    if (is_digit(s.p[0]) || s.p[0] == '-' || s.p[0] == '+' || s.p[0] == '.' ||
        span_eq(s, "inf") || span_eq(s, "nan")) {
        if ((unsigned)t >= ISA_T_COUNT) {
            err(c, s.line, s.col, "'%s' has no type for an immediate", mnem);
            return false;
        }
        uint64_t bits;
        const char *e = isa_parse_imm(s.p, s.n, t, &bits);
        if (e) {
            err(c, s.line, s.col, "%s: '%s' (type %s)", e, q(s.p, s.n, qb), type_str(t, 1, tb));
            return false;
        }
        o->kind = ISA_OPND_IMM;
        o->imm = bits;
        return true;
    }
    err(c, s.line, s.col, "expected a source operand, got '%s'", q(s.p, s.n, qb));
    return false;
}

/* The inside of [..]: a span cursor with whitespace skipping (skip_ws). */
static bool is_word(char ch) { return is_id(ch) || ch == '%'; }

static bool op_addr(asm_ctx *c, span s, isa_operand *o, const isa_inst *in)
{
    QBUF;
    if (s.p[0] != '[' || s.p[s.n - 1] != ']') {
        err(c, s.line, s.col, "expected an address [base + index*scale + offset], got '%s'", q(s.p, s.n, qb));
        return false;
    }
    span b = { s.p + 1, s.n - 2, s.line, s.col + 1 };
    isa_addr a;
    memset(&a, 0, sizeof a);
    a.scale = 1;
    a.index_type = ISA_T_I32;
    skip_ws(&b);
    span base = take_while(&b, is_word);
    if (base.n && base.p[0] >= '0' && base.p[0] <= '9') {
        /* [offset]: an absolute offset into the work-item's private area */
        uint64_t v;
        skip_ws(&b);
        if (b.n || !parse_u64(base, &v) || v > INT64_MAX ||
            in->space != ISA_SPACE_PRIVATE) {
            err(c, base.line, base.col, "an address without a base must be [offset] in "
                "private memory");
            return false;
        }
        a.disp = (int64_t)v;
        o->kind = ISA_OPND_ADDR;
        o->addr = a;
        return true;
    }
    if (!base.n) {
        err(c, b.line, b.col, "missing address base");
        return false;
    }
    isa_operand bo;
    memset(&bo, 0, sizeof bo);
    if (base.p[0] == '%') {
        if (!op_percent(c, base, &bo))
            return false;
        if (bo.kind != ISA_OPND_ARG) {
            err(c, base.line, base.col, "address base must be a register or a pointer argument");
            return false;
        }
        const isa_arg *arg = &c->k->args[bo.reg];
        if (arg->kind == ISA_ARG_SCALAR || arg->kind == ISA_ARG_IMAGE2D) {
            err(c, base.line, base.col, "argument %%%s is not a pointer", arg->name);
            return false;
        }
        bool match = arg->kind == ISA_ARG_LOCAL ? in->space == ISA_SPACE_LOCAL
                   : (in->space == ISA_SPACE_GLOBAL || in->space == ISA_SPACE_CONSTANT);
        if (!match) {
            err(c, base.line, base.col, "argument %%%s does not point to %s memory",
                arg->name, isa_space_names[in->space < ISA_SPACE_COUNT ? in->space : 0]);
            return false;
        }
        if (arg->kind == ISA_ARG_CONSTANT && (isa_ops[in->op].family == ISA_FAM_ST ||
                                              isa_ops[in->op].family == ISA_FAM_ATOM ||
                                              isa_ops[in->op].family == ISA_FAM_BLOCK_WRITE)) {
            err(c, base.line, base.col, "argument %%%s points to constant memory", arg->name);
            return false;
        }
        a.base_kind = ISA_OPND_ARG;
        a.base = bo.reg;
    } else {
        if (!op_reg(c, base, &bo, 1))
            return false;
        a.base_kind = ISA_OPND_REG;
        a.base = bo.reg;
    }
    bool have_disp = false;
    for (;;) {
        skip_ws(&b);
        if (!b.n)
            break;
        char sign = b.p[0];
        uint32_t scol = b.col;
        if (sign != '+' && sign != '-') {
            err(c, b.line, b.col, "expected '+' or '-' in address, got '%s'", q(b.p, b.n, qb));
            return false;
        }
        b.p++, b.n--, b.col++;
        skip_ws(&b);
        if (sign == '+' && b.n && b.p[0] == 'r' && !a.has_index && !have_disp) {
            span r = take_while(&b, is_id);
            isa_operand io;
            if (!op_reg(c, r, &io, 1))
                return false;
            a.has_index = 1;
            a.index = io.reg;
            skip_ws(&b);
            if (b.n && b.p[0] == ':') {
                b.p++, b.n--, b.col++;
                span t = take_while(&b, is_id);
                isa_type it = isa_type_from_name(t.p, t.n);
                if (it != ISA_T_I32 && it != ISA_T_U32 && it != ISA_T_I64 && it != ISA_T_U64) {
                    err(c, t.line, t.col, "index type must be i32, u32, i64 or u64");
                    return false;
                }
                a.index_type = it;
                skip_ws(&b);
            }
            if (b.n && b.p[0] == '*') {
                b.p++, b.n--, b.col++;
                skip_ws(&b);
                span t = b;
                t.n = 0;
                if (t.n < b.n && (b.p[0] == '-' || b.p[0] == '+'))
                    t.n++;
                while (t.n < b.n && is_id(b.p[t.n]))
                    t.n++;
                uint64_t v;
                const char *e = isa_parse_imm(t.p, t.n, ISA_T_I32, &v);
                if (e || !t.n) {
                    err(c, t.line, t.col, "bad scale '%s'", q(t.p, t.n, qb));
                    return false;
                }
                a.scale = (int32_t)(uint32_t)v;
                b.p += t.n, b.n -= t.n, b.col += (uint32_t)t.n;
            }
            continue;
        }
        if (have_disp) {
            err(c, b.line, scol, "address has more than one offset");
            return false;
        }
        span t = take_while(&b, is_id);
        uint64_t v;
        if (!t.n || !parse_u64(t, &v) || v > (sign == '-' ? (1ull << 63) : (uint64_t)INT64_MAX)) {
            err(c, t.line, t.col, "bad address offset '%s'", q(t.p, t.n ? t.n : b.n, qb));
            return false;
        }
        a.disp = sign == '-' ? (int64_t)(0 - v) : (int64_t)v;
        have_disp = true;
    }
    o->kind = ISA_OPND_ADDR;
    o->addr = a;
    return true;
}

static bool op_image(asm_ctx *c, span s, isa_operand *o)
{
    QBUF;
    if (s.p[0] != '%') {
        err(c, s.line, s.col, "expected an image argument, got '%s'", q(s.p, s.n, qb));
        return false;
    }
    if (!op_percent(c, s, o))
        return false;
    if (o->kind != ISA_OPND_ARG || c->k->args[o->reg].kind != ISA_ARG_IMAGE2D) {
        err(c, s.line, s.col, "'%s' is not an image argument", q(s.p, s.n, qb));
        o->kind = ISA_OPND_NONE;
        return false;
    }
    return true;
}

/* Split operands at top-level commas. */
static size_t split_operands(span s, span *out, size_t max)
{
    size_t n = 0;
    int depth = 0;
    span cur = s;
    cur.n = 0;
    for (size_t i = 0; i <= s.n; i++) {
        if (i < s.n && s.p[i] == '[') depth++;
        if (i < s.n && s.p[i] == ']') depth--;
        if (i == s.n || (s.p[i] == ',' && depth <= 0)) {
            cur.n = (size_t)(s.p + i - cur.p);
            if (n < max) {
                out[n] = cur;
                trim(&out[n]);
            }
            n++;
            if (i < s.n) {
                cur.p = s.p + i + 1;
                cur.col = s.col + (uint32_t)i + 1;
            }
        }
    }
    return n;
}

static void instruction(asm_ctx *c, span s, isa_inst *in)
{
    QBUF;
    span mn = next_tok(&s);
    memset(in, 0, sizeof *in);
    in->line = mn.line;
    in->col = mn.col;
    in->type = ISA_T_NONE;
    in->src_type = ISA_T_NONE;
    in->vec = 1;
    in->reconv = ISA_PC_EXIT;
    size_t dot = 0;
    while (dot < mn.n && mn.p[dot] != '.')
        dot++;
    isa_opcode op = isa_opcode_from_name(mn.p, dot);
    if (op == ISA_OP_COUNT) {
        err(c, mn.line, mn.col, "unknown instruction '%s'", q(mn.p, dot, qb));
        return;
    }
    in->op = (uint16_t)op;
    const isa_op_info *oi = &isa_ops[op];
    span mods = { mn.p + dot, mn.n - dot, mn.line, mn.col + (uint32_t)dot };
    if (!parse_mods(c, mods, in))
        return;

    span ops[ISA_MAX_OPNDS + 1];
    trim(&s);
    size_t n = s.n ? split_operands(s, ops, ISA_MAX_OPNDS + 1) : 0;
    const isa_shape_pat *pat = &isa_shape_pats[oi->shape];
    size_t maxn = strlen(pat->pat);
    if (n < pat->min || n > maxn) {
        if (pat->min == maxn)
            err(c, mn.line, mn.col, "'%s' takes %zu operand%s, got %zu", oi->mnemonic, maxn,
                maxn == 1 ? "" : "s", n);
        else
            err(c, mn.line, mn.col, "'%s' takes %u to %zu operands, got %zu", oi->mnemonic,
                pat->min, maxn, n);
        return;
    }
    in->nopnd = (uint8_t)n;
    for (size_t i = 0; i < n; i++) {
        span o = ops[i];
        isa_operand *od = &in->o[i];
        if (!o.n) {
            err(c, o.line, o.col, "missing operand %zu", i + 1);
            continue;
        }
        unsigned vec;
        isa_type t = isa_opnd_type(in, (unsigned)i, &vec);
        switch (isa_shape_letter(oi->shape, (unsigned)n, (unsigned)i)) {
        case 'd': op_reg(c, o, od, vec); break;
        case 'P': op_pred(c, o, od, false); break;
        case 'q': op_pred(c, o, od, true); break;
        case 's': op_src(c, o, od, t, vec, oi->mnemonic); break;
        case 'a': op_addr(c, o, od, in); break;
        case 'i': op_image(c, o, od); break;
        case 'l': {
            const label *l = NULL;
            bool ok = is_id0(o.p[0]);
            for (size_t j = 1; ok && j < o.n; j++)
                ok = is_id(o.p[j]);
            if (!ok)
                err(c, o.line, o.col, "expected a label, got '%s'", q(o.p, o.n, qb));
            else if (!(l = find_label(c, o)))
                err(c, o.line, o.col, "undefined label '%s'", q(o.p, o.n, qb));
            else {
                od->kind = ISA_OPND_LABEL;
                in->target = l->index;
            }
            break;
        }
        default: break;
        }
    }
}

int isa_assemble(const char *file, const char *src, size_t len,
                 isa_kernel *k, isa_diags *diags)
{
    isa_diags local;
    memset(&local, 0, sizeof local);
    isa_diags *d = diags ? diags : &local;
    if (!file)
        file = "<input>";
    snprintf(d->file, sizeof d->file, "%s", file);
    memset(k, 0, sizeof *k);
    snprintf(k->file, sizeof k->file, "%s", file);
    if (!src)
        len = 0;

    asm_ctx c;
    memset(&c, 0, sizeof c);
    c.k = k;
    c.d = d;
    pass1(&c, src ? src : "", len);
    if (!c.have_kernel)
        err(&c, 1, 1, "missing .kernel directive");
    sort_labels(&c);
    if (c.ninst > MAX_INSTS)
        c.ninst = MAX_INSTS;
    if (c.ninst) {
        k->inst = calloc(c.ninst, sizeof *k->inst);
        if (!k->inst)
            err(&c, 1, 1, "out of memory for %zu instructions", c.ninst);
    }
    if (k->inst) {
        for (size_t i = 0; i < c.ninst; i++)
            instruction(&c, c.insts[i], &k->inst[i]);
        k->ninst = (uint32_t)c.ninst;
    }
    free(c.labels);
    free(c.insts);
    if (!c.errors)
        c.errors = isa_validate(k, d);
    if (!c.errors && c.have_live && k->regalloc == ISA_RA_VALUES)
        err(&c, 1, 1, ".live_bytes and .regalloc contradict each other");
    else if (!c.errors && c.have_live)
        k->grf_bytes_per_lane = c.live_bytes;
    if (c.errors)
        isa_kernel_free(k);
    if (!diags)
        isa_diags_free(&local);
    return c.errors;
}
