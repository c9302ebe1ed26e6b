/* values.c - kernel argument values from --arg NAME=VALUE text.
 *   scalar:  7  -3  0x10  1.5
 *   buffer:  TYPE:[v0,v1,...]  TYPE:zeros:N  TYPE:iota:N  TYPE:random:N:SEED
 *            TYPE:@FILE (raw little-endian bytes)
 *   local:   local:BYTES
 *   by-value vector/struct: its bytes as a buffer (float:[1,2,3,4], u8:@FILE)
 */
#include "cli.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Where this thread's messages go (cli_value_errors_to) and whether it only
 * checks (cli_check_value). */
static _Thread_local struct {
    char *buf;
    size_t n;
    bool check_only;
} value_ctx;

void cli_value_errors_to(char *buf, size_t n)
{
    value_ctx.buf = buf;
    value_ctx.n = n;
    if (buf && n)
        buf[0] = 0;
}

int cli_value_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (value_ctx.buf && value_ctx.n) {
        if (!value_ctx.buf[0])          /* the first message says what is wrong */
            vsnprintf(value_ctx.buf, value_ctx.n, fmt, ap);   // NOLINT(clang-analyzer-valist.Uninitialized): va_start is above
    } else {
        fputs("sgemu: error: ", stderr);
        vfprintf(stderr, fmt, ap);   // NOLINT(clang-analyzer-valist.Uninitialized): va_start is above
        fputc('\n', stderr);
    }
    va_end(ap);
    return SGEMU_EXIT_USER;
}

char *cli_value_read_file(const char *path, size_t *len)
{
    sgemu_fault err;
    char *text = sgemu_read_file(path, len, &err);
    if (!text)
        cli_value_error("%s", err.msg);
    return text;
}

/* Parse one number of type t from [s, s+len) into bits. */
static int parse_number(isa_type t, const char *s, size_t len, uint64_t *bits)
{
    char tmp[128];
    while (len && (*s == ' ' || *s == '\t')) { s++; len--; }
    while (len && (s[len - 1] == ' ' || s[len - 1] == '\t')) len--;
    if (len == 0 || len >= sizeof tmp)
        return -1;
    memcpy(tmp, s, len);
    tmp[len] = 0;
    char *end;
    errno = 0;
    const isa_type_info *ti = &isa_types[t];
    if (ti->is_float) {
        double d = strtod(tmp, &end);
        if (*end || end == tmp)
            return -1;
        if (t == ISA_T_F64) {
            memcpy(bits, &d, 8);
        } else if (t == ISA_T_F32) {
            float f = (float)d;
            uint32_t u;
            memcpy(&u, &f, 4);
            *bits = u;
        } else {
            *bits = sgemu_double_to_half(d);
        }
        return 0;
    }
    unsigned nb = ti->bytes * 8u;
    if (ti->is_signed || tmp[0] == '-') {
        long long v = strtoll(tmp, &end, 0);
        if (*end || end == tmp || errno)
            return -1;
        if (nb < 64) {
            /* unsigned types also accept negative literals (two's complement) */
            long long lo = -(1LL << (nb - 1));
            long long hi = ti->is_signed ? (1LL << (nb - 1)) - 1 : (long long)((1ULL << nb) - 1);
            if (v < lo || v > hi)
                return -1;
        }
        *bits = nb < 64 ? (uint64_t)v & ((1ULL << nb) - 1) : (uint64_t)v;
        return 0;
    }
    unsigned long long v = strtoull(tmp, &end, 0);
    if (*end || end == tmp || errno)
        return -1;
    if (nb < 64 && v >> nb)
        return -1;
    *bits = v;
    return 0;
}

/* splitmix64: a small deterministic generator for random:N:SEED */
static uint64_t mix(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static uint64_t value_bits(isa_type t, double d)
{
    uint64_t bits = 0;
    if (t == ISA_T_F64) {
        memcpy(&bits, &d, 8);
    } else if (t == ISA_T_F32) {
        float f = (float)d;
        uint32_t u;
        memcpy(&u, &f, 4);
        bits = u;
    } else if (t == ISA_T_F16) {
        bits = sgemu_double_to_half(d);
    } else {
        bits = (uint64_t)(int64_t)d;
    }
    return bits;
}

static int parse_count(const char *s, size_t *n)
{
    char *end;
    errno = 0;
    if (*s < '0' || *s > '9')
        return -1;
    unsigned long long v = strtoull(s, &end, 0);
    if (errno || (*end && *end != ':'))
        return -1;
    *n = (size_t)v;
    return 0;
}

#define MAX_BUFFER_BYTES ((size_t)1 << 34)

static int make_buffer(const isa_arg *a, const char *spec, sgemu_argval *v)
{
    const char *colon = strchr(spec, ':');
    if (!colon)
        return cli_value_error("argument '%s': expected TYPE:... for a buffer, got '%s'", a->name, spec);
    isa_type t = isa_type_from_name(spec, (size_t)(colon - spec));
    if (t == ISA_T_NONE)
        return cli_value_error("argument '%s': unknown type '%.*s'", a->name, (int)(colon - spec), spec);
    size_t es = isa_types[t].bytes;
    const char *rest = colon + 1;
    v->kind = SGEMU_VAL_BUFFER;

    if (rest[0] == '@' && value_ctx.check_only) {
        FILE *f = fopen(rest + 1, "rb");
        if (!f)
            return cli_value_error("cannot open '%s': %s", rest + 1, strerror(errno));
        fclose(f);
        return 0;
    }
    if (rest[0] == '@') {
        size_t len;
        char *data = cli_value_read_file(rest + 1, &len);
        if (!data)
            return SGEMU_EXIT_USER;
        v->data = (uint8_t *)data;
        v->bytes = len;
        return 0;
    }
    if (rest[0] == '[') {
        const char *end = strchr(rest, ']');
        if (!end || end[1])
            return cli_value_error("argument '%s': unterminated list '%s'", a->name, rest);
        size_t count = 0;
        for (const char *p = rest + 1; p < end; p++)
            count += *p == ',';
        count += end > rest + 1;
        v->data = calloc(count ? count : 1, es);
        v->bytes = count * es;
        if (!v->data)
            return cli_value_error("out of memory");
        const char *p = rest + 1;
        for (size_t i = 0; i < count; i++) {
            const char *q = p;
            while (q < end && *q != ',')
                q++;
            uint64_t bits;
            if (parse_number(t, p, (size_t)(q - p), &bits))
                return cli_value_error("argument '%s': element %zu '%.*s' is not a valid %s",
                                 a->name, i, (int)(q - p), p, isa_types[t].cl_name);
            memcpy(v->data + i * es, &bits, es);
            p = q + 1;
        }
        return 0;
    }
    const char *kinds[] = { "zeros:", "iota:", "random:" };
    for (int kind = 0; kind < 3; kind++) {
        size_t kl = strlen(kinds[kind]);
        if (strncmp(rest, kinds[kind], kl))
            continue;
        size_t n;
        if (parse_count(rest + kl, &n))
            return cli_value_error("argument '%s': bad element count in '%s'", a->name, spec);
        if (n > MAX_BUFFER_BYTES / es)
            return cli_value_error("argument '%s': %zu elements is more than sgemu allows (%zu bytes)",
                             a->name, n, MAX_BUFFER_BYTES);
        uint64_t seed = 0;
        const char *after = strchr(rest + kl, ':');
        if (kind == 2) {
            char *e;
            errno = 0;
            if (!after)
                return cli_value_error("argument '%s': random needs N:SEED", a->name);
            seed = strtoull(after + 1, &e, 0);
            if (errno || *e || e == after + 1)
                return cli_value_error("argument '%s': bad seed in '%s'", a->name, spec);
        } else if (after) {
            return cli_value_error("argument '%s': unexpected text after the count in '%s'", a->name, spec);
        }
        v->bytes = n * es;
        if (value_ctx.check_only)
            return 0;
        v->data = calloc(n ? n : 1, es);
        if (!v->data)
            return cli_value_error("out of memory allocating %zu bytes", n * es);
        for (size_t i = 0; kind > 0 && i < n; i++) {
            uint64_t bits;
            if (kind == 1) {
                bits = isa_types[t].is_float ? value_bits(t, (double)i) : (uint64_t)i;
            } else {
                uint64_t r = mix(&seed);
                bits = isa_types[t].is_float
                    ? value_bits(t, (double)(r >> 11) * 0x1.0p-52 - 1.0)   /* [-1, 1) */
                    : r;
            }
            memcpy(v->data + i * es, &bits, es);
        }
        return 0;
    }
    return cli_value_error("argument '%s': expected TYPE:[...], TYPE:zeros:N, TYPE:iota:N, "
                     "TYPE:random:N:SEED or TYPE:@FILE, got '%s'", a->name, spec);
}

static int make_value(const isa_arg *a, const char *spec, sgemu_argval *v);

/* On failure nothing stays allocated. */
int cli_make_value(const isa_arg *a, const char *spec, sgemu_argval *v)
{
    int rc = make_value(a, spec, v);
    if (rc)
        cli_free_value(v);
    return rc;
}

static int make_value(const isa_arg *a, const char *spec, sgemu_argval *v)
{
    memset(v, 0, sizeof *v);
    if (!spec)
        return 0;
    switch (a->kind) {
    case ISA_ARG_SCALAR:
        v->kind = SGEMU_VAL_SCALAR;
        if (parse_number((isa_type)a->type, spec, strlen(spec), &v->scalar))
            return cli_value_error("argument '%s': '%s' is not a valid %s value", a->name, spec,
                             isa_types[a->type].cl_name);
        return 0;
    case ISA_ARG_GLOBAL:
    case ISA_ARG_CONSTANT:
        if (a->byval && !strchr(spec, ':')) {
            /* a scalar for a by-value vector/struct: sgemu_run's message
             * says which bytes to give */
            v->kind = SGEMU_VAL_SCALAR;
            return 0;
        }
        return make_buffer(a, spec, v);
    case ISA_ARG_LOCAL: {
        size_t n;
        if (strncmp(spec, "local:", 6) || parse_count(spec + 6, &n) || strchr(spec + 6, ':'))
            return cli_value_error("argument '%s': expected local:BYTES, got '%s'", a->name, spec);
        v->kind = SGEMU_VAL_LOCAL;
        v->bytes = n;
        return 0;
    }
    case ISA_ARG_IMAGE2D:
        return cli_make_image(a, spec, v);
    }
    return cli_value_error("argument '%s': unsupported kind", a->name);
}

bool cli_value_type_mismatch(const isa_arg *a, const char *spec, char *msg, size_t n)
{
    const char *colon = spec ? strchr(spec, ':') : NULL;
    if (!colon || a->byval || (a->kind != ISA_ARG_GLOBAL && a->kind != ISA_ARG_CONSTANT))
        return false;
    const isa_type v = isa_type_from_name(spec, (size_t)(colon - spec));
    const isa_type_info *want = &isa_types[a->type];
    if (v == ISA_T_NONE || want->bytes <= 1)     /* char/uchar buffers take any bytes */
        return false;
    const isa_type_info *got = &isa_types[v];
    if (got->is_float == want->is_float && got->bytes == want->bytes)
        return false;                            /* int data for a uint buffer: same bits */
    snprintf(msg, n, "argument '%s' is a %s buffer but the value is %s data (%u-byte "
             "elements); its bytes are used as they are (give %s:... to convert)",
             a->name, want->cl_name, got->cl_name, got->bytes, want->cl_name);
    return true;
}

int cli_check_value(const isa_arg *a, const char *spec, char *err, size_t n)
{
    sgemu_argval v;
    char *const old_buf = value_ctx.buf;
    const size_t old_n = value_ctx.n;
    cli_value_errors_to(err, n);
    value_ctx.check_only = true;
    int rc = make_value(a, spec, &v);
    value_ctx.check_only = false;
    value_ctx.buf = old_buf;
    value_ctx.n = old_n;
    cli_free_value(&v);
    return rc ? 1 : 0;
}

void cli_free_value(sgemu_argval *v)
{
    if (v->kind == SGEMU_VAL_BUFFER)
        free(v->data);
    if (v->kind == SGEMU_VAL_IMAGE)
        free(v->image.data);
    memset(v, 0, sizeof *v);
}
