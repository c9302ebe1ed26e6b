/* printf.c - the launch's printf buffer.  A printf instruction copies each
 * active work-item's argument record (private memory, laid out by
 * isa/printf.c) and the strings its %s arguments point to into the buffer;
 * when the launch ends the records are sorted by work-group (linear id),
 * sub-group, lane and program order and formatted with the C library's
 * snprintf, one conversion at a time, by the OpenCL C rules (vectors:
 * components joined by ','; hh / h: the value converted to char / short).
 * The functional engine runs printf kernels on one host thread, so the
 * buffer fills in one deterministic order. */
#include "emu_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct pf_entry {
    uint64_t wg, seq;
    uint32_t sg, lane;
    uint32_t fmt;
    uint32_t bytes;            /* record + strings */
    uint64_t data;             /* offset into the arena */
} pf_entry;

struct emu_printf {
    isa_printf_conv **cv;      /* per format: its pieces, parsed once */
    int *ncv;
    uint64_t cap, used;        /* buffer bytes: size, taken */
    uint64_t dropped;
    bool full;
    pf_entry *e;
    size_t n, ecap;
    uint8_t *arena;
    size_t alen, acap;
    struct pf_str { const char *s; size_t n; } *str;   /* one call's %s strings */
    size_t strcap;
};

int emu_printf_init(emu_run *run)
{
    if (!run->k->nprintf)
        return 0;
    run->pf = calloc(1, sizeof *run->pf);
    if (!run->pf)
        return -1;
    emu_printf *pf = run->pf;
    pf->cap = run->cfg->printf_buffer_size;
    const uint32_t nf = run->k->nprintf;
    /* NOLINTNEXTLINE(bugprone-sizeof-expression): one piece array per format */
    pf->cv = calloc(nf, sizeof(isa_printf_conv *));
    pf->ncv = calloc(nf, sizeof *pf->ncv);
    if (!pf->cv || !pf->ncv)
        return -1;
    for (uint32_t i = 0; i < nf; i++) {
        const isa_printf_fmt *f = &run->k->printf_fmts[i];
        char why[160];
        uint32_t rec;
        int n = isa_printf_parse(f->text, f->len, NULL, 0, &rec, why, sizeof why);
        if (n < 0 || rec != f->rec_bytes)
            return -1;    /* the validator saw every format parse */
        pf->cv[i] = calloc((size_t)n + 1, sizeof **pf->cv);
        if (!pf->cv[i])
            return -1;
        pf->ncv[i] = isa_printf_parse(f->text, f->len, pf->cv[i], (unsigned)n, &rec, why,
                                      sizeof why);
    }
    return 0;
}

static void pf_free(emu_printf *pf, uint32_t nf)
{
    if (!pf)
        return;
    for (uint32_t i = 0; pf->cv && i < nf; i++)
        free(pf->cv[i]);
    free(pf->cv);
    free(pf->ncv);
    free(pf->e);
    free(pf->arena);
    free(pf->str);
    free(pf);
}

static int grow(void **p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return 0;
    size_t nc = *cap ? *cap * 2 : 256;
    while (nc < need)
        nc *= 2;
    void *np = realloc(*p, nc * elem);
    if (!np)
        return -1;
    *p = np;
    *cap = nc;
    return 0;
}

/* The bytes of the NUL-terminated string at constant address a (the %s
 * argument), at most max; -1 when it leaves its buffer. */
static int64_t string_at(emu_run *run, uint64_t a, const char **s)
{
    const char *why;
    const uint8_t *p = emu_mem_ptr(run, ISA_SPACE_CONSTANT, a, 1, false, 0, &why);
    if (!p)
        return -1;
    for (uint64_t i = 0;; i++) {
        const uint8_t *q = emu_mem_ptr(run, ISA_SPACE_CONSTANT, a + i, 1, false, 0, &why);
        if (!q)
            return -1;
        if (!*q) {
            *s = (const char *)p;
            return (int64_t)i;
        }
    }
}

int emu_printf_exec(emu_run *run, emu_sg *sg, const isa_inst *in, lanes_mask mask,
                    uint32_t pc)
{
    emu_printf *pf = run->pf;
    const uint32_t fi = (uint32_t)in->o[1].imm, off = (uint32_t)in->o[2].imm;
    const isa_printf_fmt *f = &run->k->printf_fmts[fi];
    const isa_printf_conv *cv = pf->cv[fi];
    const int np = pf->ncv[fi];
    const uint32_t w = sg->l.width;
    const uint64_t *ng = run->num_groups;
    const uint64_t *g = run->wg->group_id;
    const uint64_t wg = g[0] + ng[0] * (g[1] + ng[1] * g[2]);
    uint64_t *dst = lanes_reg(&sg->l, in->o[0].reg);
    for (uint32_t l = 0; l < w; l++) {
        if (!(mask >> l & 1))
            continue;
        const char *why;
        const uint8_t *r = emu_mem_ptr(run, ISA_SPACE_PRIVATE, off, f->rec_bytes, false,
                                       sg->id * w + l, &why);
        if (!r)
            return emu_fault(run, SGEMU_EXIT_INTERNAL, sg, l, pc,
                             "printf record outside private memory");
        /* the strings of its %s arguments go after the record */
        if (grow((void **)&pf->str, &pf->strcap, (size_t)np, sizeof *pf->str))
            return emu_fault(run, SGEMU_EXIT_INTERNAL, sg, l, pc, "out of host memory");
        uint64_t strbytes = 0;
        int ns = 0;
        for (int i = 0; i < np; i++) {
            if (cv[i].conv != 's')
                continue;
            uint64_t a;
            const char *s;
            memcpy(&a, r + cv[i].off, 8);
            int64_t n = string_at(run, a, &s);
            if (n < 0) {
                emu_fault_at(run, a);
                return emu_fault(run, SGEMU_EXIT_FAULT, sg, l, pc,
                                 "printf: the %%s argument at address 0x%llx is not a string "
                                 "in constant memory", (unsigned long long)a);
            }
            pf->str[ns++] = (struct pf_str){ s, (size_t)n };
            strbytes += (uint64_t)n + 1;
        }
        const uint64_t take = 4 + (uint64_t)f->rec_bytes;
        if (pf->full || pf->used + take > pf->cap) {
            pf->full = true;            /* later calls find it full as well */
            pf->dropped++;
            dst[l] = 0xffffffffu;       /* -1 as an int, zero-extended */
            continue;
        }
        pf->used += take;
        const size_t bytes = f->rec_bytes + strbytes;
        if (grow((void **)&pf->e, &pf->ecap, pf->n + 1, sizeof *pf->e) ||
            grow((void **)&pf->arena, &pf->acap, pf->alen + bytes, 1))
            return emu_fault(run, SGEMU_EXIT_INTERNAL, sg, l, pc, "out of host memory");
        uint8_t *d = pf->arena + pf->alen;
        if (f->rec_bytes)          /* a format with no conversions has no record */
            memcpy(d, r, f->rec_bytes);
        d += f->rec_bytes;
        for (int i = 0; i < ns; i++) {
            memcpy(d, pf->str[i].s, pf->str[i].n + 1);
            d += pf->str[i].n + 1;
        }
        pf->e[pf->n] = (pf_entry){ .wg = wg, .seq = pf->n, .sg = sg->id, .lane = l,
                                   .fmt = fi, .bytes = (uint32_t)bytes, .data = pf->alen };
        pf->n++;
        pf->alen += bytes;
        dst[l] = 0;
    }
    return 0;
}

static int entry_cmp(const void *a, const void *b)
{
    const pf_entry *x = a, *y = b;
    if (x->wg != y->wg)
        return x->wg < y->wg ? -1 : 1;
    if (x->sg != y->sg)
        return x->sg < y->sg ? -1 : 1;
    if (x->lane != y->lane)
        return x->lane < y->lane ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

typedef struct text {
    char *p;
    size_t n, cap;
    bool oom;
} text;

static void add(text *t, const char *s, size_t n)
{
    if (t->oom || grow((void **)&t->p, &t->cap, t->n + n + 1, 1)) {
        t->oom = true;
        return;
    }
    memcpy(t->p + t->n, s, n);
    t->n += n;
    t->p[t->n] = 0;
}

static int32_t star(const uint8_t *rec, uint32_t off)
{
    int32_t v;
    memcpy(&v, rec + off, 4);
    return v;
}

/* One value of conversion c at p (one component of a vector) of record
 * rec.  A '*' width below 0 is the '-' flag and its magnitude, a '*'
 * precision below 0 none (C99 7.19.6.1). */
static void one(text *t, const isa_printf_conv *c, const uint8_t *rec, const uint8_t *p,
                const char *str)
{
    char spec[48], out[512];
    int k = 0;
    int64_t width = c->width == -2 ? star(rec, c->width_off) : c->width;
    const int32_t prec = c->prec == -2 ? star(rec, c->prec_off) : c->prec;
    unsigned flags = c->flags;
    if (width < -1 || (c->width == -2 && width == -1)) {
        flags |= ISA_PF_MINUS;
        width = -width;
    }
    if (width > 100000)
        width = 100000;
    spec[k++] = '%';
    static const char fl[] = "-+ #0";
    for (int b = 0; b < 5; b++)
        if (flags & (1u << b))
            spec[k++] = fl[b];
    if (width >= 0)
        k += snprintf(spec + k, sizeof spec - (size_t)k, "%lld", (long long)width);
    if (prec >= 0)
        k += snprintf(spec + k, sizeof spec - (size_t)k, ".%d", prec > 100000 ? 100000 : prec);
    uint64_t u = 0;
    memcpy(&u, p, c->elem_bytes);
    const bool is_int = strchr("diouxX", c->conv) != NULL;
    if (is_int)
        spec[k++] = 'l', spec[k++] = 'l';
    spec[k++] = c->conv;
    spec[k] = 0;
    /* into out, or a buffer of the right size when it is longer */
#define FMT(...)                                                        \
    do {                                                                \
        n = snprintf(out, sizeof out, spec, __VA_ARGS__);               \
        if (n >= (int)sizeof out && (big = malloc((size_t)n + 1)))      \
            snprintf(big, (size_t)n + 1, spec, __VA_ARGS__);            \
    } while (0)
    int n;
    char *big = NULL;
    if (is_int) {
        const bool sgn = c->conv == 'd' || c->conv == 'i';
        /* the value converted to the length modifier's type first */
        unsigned bits = c->vec > 1 ? c->elem_bytes * 8u :
                        c->lenmod == ISA_PF_LEN_HH ? 8 : c->lenmod == ISA_PF_LEN_H ? 16 :
                        c->lenmod == ISA_PF_LEN_L ? 64 : 32;
        uint64_t m = bits == 64 ? ~UINT64_C(0) : (UINT64_C(1) << bits) - 1;
        u &= m;
        long long sv = (long long)u;
        if (sgn && bits < 64 && (u >> (bits - 1) & 1))
            sv = (long long)(u | ~m);
        if (sgn)
            FMT(sv);
        else
            FMT((unsigned long long)u);
    } else if (c->elem_float) {
        double d;
        if (c->elem_bytes == 8) {
            memcpy(&d, &u, 8);
        } else if (c->elem_bytes == 4) {
            float fl32;
            uint32_t b = (uint32_t)u;
            memcpy(&fl32, &b, 4);
            d = fl32;
        } else {
            d = isa_f16_to_f64((uint16_t)u);
        }
        FMT(d);
    } else if (c->conv == 'c') {
        FMT((int)(unsigned char)u);
    } else if (c->conv == 's') {
        FMT(str);
    } else {   /* p */
        FMT((void *)(uintptr_t)u);
    }
#undef FMT
    if (n < 0)
        return;
    if (n >= (int)sizeof out && !big) {
        t->oom = true;
        return;
    }
    add(t, big ? big : out, (size_t)n);
    free(big);
}

static void format_entry(text *t, const isa_printf_fmt *f, const isa_printf_conv *cv,
                         int np, const uint8_t *rec)
{
    const char *str = (const char *)rec + f->rec_bytes;
    for (int i = 0; i < np; i++) {
        const isa_printf_conv *c = &cv[i];
        if (!c->conv) {
            add(t, f->text + c->pos, c->len);
        } else if (c->conv == '%') {
            add(t, "%", 1);
        } else {
            for (unsigned j = 0; j < c->vec; j++) {
                if (j)
                    add(t, ",", 1);
                one(t, c, rec, rec + c->off + j * c->elem_bytes, str);
            }
            if (c->conv == 's')
                str += strlen(str) + 1;
        }
    }
}

/* IGC's printf records (its OpenCLPrintfResolution pass; the compute
 * runtime's PrintFormatter reads them the same way).  The buffer's first
 * word counts the bytes taken, itself included; then, per call, the
 * 8-byte address of the format string in the program's constant data and
 * per argument a 4-byte type id, for a vector a 4-byte component count,
 * and the value: 4 bytes (8 for long, double, pointers and strings; a
 * vector's components packed, in 4 bytes each, or 8 for long and double).
 * A call that found the buffer full wrote the word -1 instead. */
enum {
    IGC_PF_BYTE = 1, IGC_PF_SHORT, IGC_PF_INT, IGC_PF_FLOAT, IGC_PF_STRING, IGC_PF_LONG,
    IGC_PF_POINTER, IGC_PF_DOUBLE, IGC_PF_VBYTE, IGC_PF_VSHORT, IGC_PF_VINT, IGC_PF_VLONG,
    IGC_PF_VFLOAT, IGC_PF_VDOUBLE
};

typedef struct igc_rd {
    const uint8_t *b;
    uint64_t at, end;
} igc_rd;

static bool rd(igc_rd *r, void *v, uint64_t n)
{
    if (r->at + n > r->end)
        return false;
    memcpy(v, r->b + r->at, n);
    r->at += n;
    return true;
}

/* One argument of a record into the value of conversion c in rec (one
 * component per vector element, in c's element type); a %s string is
 * appended to *t.  False when the record ends early. */
static bool igc_arg(emu_run *run, igc_rd *r, const isa_printf_conv *c, uint8_t *rec,
                    uint32_t rec_off, bool value, text *strs)
{
    uint32_t type = 0, n = 1;
    if (!rd(r, &type, 4))
        return false;
    const bool vec = type >= IGC_PF_VBYTE && type <= IGC_PF_VDOUBLE;
    if (vec && !rd(r, &n, 4))
        return false;
    static const uint8_t esz[] = { 0, 1, 2, 4, 4, 8, 8, 8, 8, 1, 2, 4, 8, 4, 8 };
    const uint32_t es = type < sizeof esz ? esz[type] : 4;
    const uint64_t slot = vec ? (uint64_t)n * (es < 4 ? 4 : es) : es < 4 ? 4 : es;
    if (n > 16 || r->at + slot > r->end)
        return false;
    const uint8_t *src = r->b + r->at;
    r->at += slot;
    if (!value) {                      /* a '*' width or precision: an int */
        memcpy(rec + rec_off, src, 4);
        return true;
    }
    if (c->conv == 's') {
        uint64_t a = 0;
        const char *s = "";
        memcpy(&a, src, 8);
        int64_t len = string_at(run, a, &s);
        if (len < 0)
            return false;
        add(strs, s, (size_t)len + 1);
        return true;
    }
    const bool fsrc = type == IGC_PF_FLOAT || type == IGC_PF_DOUBLE || type == IGC_PF_VFLOAT ||
                      type == IGC_PF_VDOUBLE;
    for (uint32_t j = 0; j < c->vec && j < n; j++) {
        uint8_t *d = rec + c->off + j * c->elem_bytes;
        const uint8_t *e = src + j * es;
        if (c->elem_float && fsrc) {
            double v;
            float f;
            if (es == 8) {
                memcpy(&v, e, 8);
            } else {
                memcpy(&f, e, 4);
                v = f;
            }
            if (c->elem_bytes == 8) {
                memcpy(d, &v, 8);
            } else if (c->elem_bytes == 4) {
                f = (float)v;
                memcpy(d, &f, 4);
            } else {
                uint16_t h = isa_f64_to_f16(v);
                memcpy(d, &h, 2);
            }
        } else {
            memcpy(d, e, es < c->elem_bytes ? es : c->elem_bytes);
        }
    }
    return true;
}

/* The records of IGC's printf buffer, in the order its code wrote them. */
static int igc_finish(emu_run *run, sgemu_stats *stats)
{
    const sgemu_argval *bv = &run->args[emu_gen_printf_arg(run->k) - 1];
    uint32_t used = 0;
    memcpy(&used, bv->data, 4);
    igc_rd r = { bv->data, 4, used < bv->bytes ? used : bv->bytes };
    text t = { 0 }, strs = { 0 };
    isa_printf_conv *cv = NULL;
    size_t cvcap = 0;
    uint8_t *rec = NULL;
    size_t reccap = 0;
    int rc = 0;
    while (!rc && r.at + 8 <= r.end) {
        uint64_t fa = 0;
        rd(&r, &fa, 8);
        if (fa == 0xffffffffu) {        /* the calls from here on found it full */
            stats->printf_dropped++;
            break;
        }
        const char *fs;
        int64_t fl = string_at(run, fa, &fs);
        char why[160];
        uint32_t rb = 0;
        int np = fl < 0 ? -1 : isa_printf_parse(fs, (size_t)fl, NULL, 0, &rb, why, sizeof why);
        if (np < 0)
            break;                      /* not a record IGC wrote: stop */
        if (grow((void **)&cv, &cvcap, (size_t)np + 1, sizeof *cv) ||
            grow((void **)&rec, &reccap, (size_t)rb + 8, 1)) {
            rc = -1;
            break;
        }
        isa_printf_parse(fs, (size_t)fl, cv, (unsigned)np, &rb, why, sizeof why);
        memset(rec, 0, (size_t)rb + 8);
        strs.n = 0;
        bool ok = true;
        for (int i = 0; ok && i < np; i++) {
            const isa_printf_conv *c = &cv[i];
            if (c->width == -2)
                ok = igc_arg(run, &r, c, rec, c->width_off, false, &strs);
            if (ok && c->prec == -2)
                ok = igc_arg(run, &r, c, rec, c->prec_off, false, &strs);
            if (ok && c->elem_bytes)
                ok = igc_arg(run, &r, c, rec, 0, true, &strs);
        }
        if (!ok)
            break;
        /* the record, then its strings (format_entry reads them there) */
        if (grow((void **)&rec, &reccap, (size_t)rb + strs.n + 1, 1)) {
            rc = -1;
            break;
        }
        if (strs.n)
            memcpy(rec + rb, strs.p, strs.n);
        const isa_printf_fmt f = { .text = (char *)fs, .len = (uint32_t)fl, .rec_bytes = rb };
        format_entry(&t, &f, cv, np, rec);
        stats->printf_calls++;
    }
    free(cv);
    free(rec);
    free(strs.p);
    if (rc || t.oom || strs.oom) {
        free(t.p);
        return -1;
    }
    stats->printf_text = t.p;
    stats->printf_len = t.n;
    return 0;
}

int emu_printf_finish(emu_run *run, sgemu_stats *stats)
{
    emu_printf *pf = run->pf;
    run->pf = NULL;
    stats->printf_buffer = run->cfg->printf_buffer_size;
    const uint32_t parg = emu_gen_printf_arg(run->k);
    if (parg && parg <= run->k->narg) {
        stats->printf_buffer = EMU_IGC_PRINTF_BYTES;
        stats->printf_igc = true;
        return igc_finish(run, stats);
    }
    if (!pf)
        return 0;
    qsort(pf->e, pf->n, sizeof *pf->e, entry_cmp);
    text t = { 0 };
    for (size_t i = 0; i < pf->n; i++)
        format_entry(&t, &run->k->printf_fmts[pf->e[i].fmt], pf->cv[pf->e[i].fmt],
                     pf->ncv[pf->e[i].fmt], pf->arena + pf->e[i].data);
    stats->printf_calls = pf->n;
    stats->printf_dropped = pf->dropped;
    pf_free(pf, run->k->nprintf);
    if (t.oom) {
        free(t.p);
        return -1;
    }
    stats->printf_text = t.p;
    stats->printf_len = t.n;
    return 0;
}

void emu_printf_free(emu_run *run)
{
    pf_free(run->pf, run->k->nprintf);
    run->pf = NULL;
}

size_t sgemu_printf_flush(const sgemu_stats *stats, const char *kernel, void *out, void *err)
{
    size_t n = 0;
    if (stats->printf_text && stats->printf_len && out) {
        n = fwrite(stats->printf_text, 1, stats->printf_len, (FILE *)out);
        fflush((FILE *)out);
    }
    if (stats->printf_dropped && err && stats->printf_igc)
        fprintf((FILE *)err, "sgemu: warning: kernel '%s': IGC's printf buffer (%llu bytes, "
                "the size its code was built for) is full: the printf calls from the "
                "first that found it full on printed nothing and returned -1\n",
                kernel ? kernel : "?", (unsigned long long)stats->printf_buffer);
    else if (stats->printf_dropped && err)
        fprintf((FILE *)err, "sgemu: warning: kernel '%s': the printf buffer "
                "(device.printf_buffer_size = %llu bytes) is full: %llu printf call%s "
                "printed nothing and returned -1\n", kernel ? kernel : "?",
                (unsigned long long)stats->printf_buffer,
                (unsigned long long)stats->printf_dropped,
                stats->printf_dropped == 1 ? "" : "s");
    return n;
}
