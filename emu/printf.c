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

int emu_printf_finish(emu_run *run, sgemu_stats *stats)
{
    emu_printf *pf = run->pf;
    run->pf = NULL;
    stats->printf_buffer = run->cfg->printf_buffer_size;
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
    if (stats->printf_dropped && err)
        fprintf((FILE *)err, "sgemu: warning: kernel '%s': the printf buffer "
                "(device.printf_buffer_size = %llu bytes) is full: %llu printf call%s "
                "printed nothing and returned -1\n", kernel ? kernel : "?",
                (unsigned long long)stats->printf_buffer,
                (unsigned long long)stats->printf_dropped,
                stats->printf_dropped == 1 ? "" : "s");
    return n;
}
