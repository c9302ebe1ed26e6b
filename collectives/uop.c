/* uop.c - the micro-op executor: each function computes one micro-op on
 * real lane values and reports it to the sink. */
#include "coll_private.h"

#include <string.h>

/* Bits of slots first..first+n-1 below 64 (a register's lanes; slots of
 * a temporary's second half have no bit). */
static inline lanes_mask span_mask(uint32_t first, uint32_t n)
{
    return first >= 64 ? 0 : lanes_mask_first(n) << first;
}

/* Whether the n elements of r are the slots first..first+n-1. */
static inline bool rgn_contiguous(coll_rgn r, uint32_t n)
{
    if (r.width == 1)
        return r.vstride == 1 || n <= 1;
    return r.hstride == 1 && (n <= r.width || r.vstride == r.width);
}

/* A walk over a region's slots in element order, row by row: the slots
 * of the region's formula without a division per element. */
typedef struct rgn_walk {
    uint32_t row, at, c;
} rgn_walk;

static inline rgn_walk rgn_begin(coll_rgn r)
{
    return (rgn_walk){ r.first, r.first, 0 };
}

static inline void rgn_next(rgn_walk *k, coll_rgn r)
{
    k->at += r.hstride;
    if (++k->c == r.width) {
        k->c = 0;
        k->row += r.vstride;
        k->at = k->row;
    }
}

/* at[i] = the slot of element i of r for i < n. */
static void rgn_slots(coll_rgn r, uint32_t n, uint32_t *at)
{
    rgn_walk k = rgn_begin(r);
    for (uint32_t i = 0; i < n; i++, rgn_next(&k, r))
        at[i] = k.at;
}

/* The n elements of region r of s as one row: s itself where r is
 * contiguous, else gathered into tmp in element order (one flat loop: a
 * scan's rows are 2-16 elements, too short for a vectorised inner loop). */
static const uint64_t *rgn_row(const uint64_t *s, coll_rgn r, uint32_t n, uint64_t *tmp)
{
    if (rgn_contiguous(r, n))
        return s + r.first;
    if (r.width == 1) {
        for (uint32_t i = 0; i < n; i++)
            tmp[i] = s[r.first + i * r.vstride];
        return tmp;
    }
    rgn_walk k = rgn_begin(r);
    for (uint32_t i = 0; i < n; i++, rgn_next(&k, r))
        tmp[i] = s[k.at];
    return tmp;
}

/* Store row v[0..n) into region r of d (v not inside d); returns the
 * written lanes' mask. */
static lanes_mask rgn_store(uint64_t *d, coll_rgn r, const uint64_t *v, uint32_t n)
{
    if (rgn_contiguous(r, n)) {
        memmove(d + r.first, v, n * sizeof *d);
        return span_mask(r.first, n);
    }
    lanes_mask m = 0;
    rgn_walk k = rgn_begin(r);
    for (uint32_t i = 0; i < n; i++, rgn_next(&k, r)) {
        d[k.at] = v[i];
        if (k.at < 64)
            m |= (lanes_mask)1 << k.at;
    }
    return m;
}

/* Whether row p[0..n) can be an operand of a row written to q[0..n) in
 * one pass: the same row (in place) or no overlap. */
static inline bool row_safe(const uint64_t *p, const uint64_t *q, uint32_t n)
{
    const uintptr_t a = (uintptr_t)p, b = (uintptr_t)q, len = n * sizeof *p;
    return a == b || a + len <= b || b + len <= a;
}

void (*coll_fault_hook)(coll_uop_kind kind, uint64_t *dst, uint32_t slot) = NULL;

/* test-only fault injection (coll_private.h); a no-op in real runs */
static void fault(coll_uop_kind k, uint64_t *d, uint32_t slot)
{
    if (coll_fault_hook)
        coll_fault_hook(k, d, slot);
}

static void emit(coll_x *x, coll_uop_kind k, isa_type t, isa_binop b,
                 uint32_t lanes, lanes_mask mask, uint32_t bytes, uint64_t addr)
{
    const coll_sink *s = x->env->sink;
    if (!s || !s->emit)
        return;
    coll_uop u;
    memset(&u, 0, sizeof u);
    u.kind = (uint8_t)k;
    u.type = (uint8_t)t;
    u.binop = (uint8_t)b;
    u.space = ISA_SPACE_LOCAL;
    u.lanes = (uint16_t)lanes;
    u.sg = x->sg;
    u.bytes = bytes;
    u.rows = 1;
    u.addr = addr;
    u.mask = mask;
    s->emit(s->user, &u);
}

void coll_u_alu(coll_x *x, isa_binop op, uint64_t *d, coll_rgn rd,
                const uint64_t *a, coll_rgn ra, const uint64_t *b, coll_rgn rb,
                uint32_t n)
{
    uint64_t r[COLL_TMP_LANES], ta[COLL_TMP_LANES], tb[COLL_TMP_LANES];
    ta[0] = tb[0] = 0;      /* (n may be 0: the row is then never read) */
    const uint64_t *pa = rgn_row(a, ra, n, ta), *pb = rgn_row(b, rb, n, tb);
    lanes_mask m;
    if (rgn_contiguous(rd, n) && row_safe(pa, d + rd.first, n) && row_safe(pb, d + rd.first, n)) {
        /* every source element is read before its slot is written */
        lanes_binop_row(op, x->type, d + rd.first, pa, pb, n);
        m = span_mask(rd.first, n);
    } else {
        lanes_binop_row(op, x->type, r, pa, pb, n);
        m = rgn_store(d, rd, r, n);
    }
    fault(COLL_UOP_ALU, d, rd.first);
    emit(x, COLL_UOP_ALU, x->type, op, n, m, 0, 0);
}

void coll_u_alu_rows(coll_x *x, isa_binop op, uint64_t *t, coll_rgn rows, coll_rgn ra,
                     uint32_t n)
{
    /* a's values first (one per row), then each row in place */
    uint64_t av[COLL_TMP_LANES], row[COLL_TMP_LANES];
    const uint32_t nrow = (n + rows.width - 1) / rows.width;
    for (uint32_t k = 0; k < nrow; k++)
        av[k] = t[ra.first + k * ra.vstride];
    lanes_mask m = 0;
    for (uint32_t k = 0, i = 0; k < nrow; k++, i += rows.width) {
        const uint32_t cnt = n - i < rows.width ? n - i : rows.width;
        const uint32_t at = rows.first + k * rows.vstride;
        for (uint32_t c = 0; c < cnt; c++)
            row[c] = av[k];
        lanes_binop_row(op, x->type, t + at, row, t + at, cnt);
        m |= span_mask(at, cnt);
    }
    fault(COLL_UOP_ALU, t, rows.first);
    emit(x, COLL_UOP_ALU, x->type, op, n, m, 0, 0);
}

static double as_double(isa_type t, uint64_t v)
{
    float f;
    double dd;
    uint32_t u;
    switch (t) {
    case ISA_T_F16:
        return lanes_f16_to_f32((uint16_t)v);
    case ISA_T_F32:
        u = (uint32_t)v;
        memcpy(&f, &u, 4);
        return f;
    case ISA_T_F64:
        memcpy(&dd, &v, 8);
        return dd;
    default:
        return 0;
    }
}

void coll_u_cmp(coll_x *x, isa_binop cond, uint64_t *d, const uint64_t *a,
                const uint64_t *b, uint32_t n, lanes_mask en)
{
    bool fl = isa_types[x->type].is_float;
    for (uint32_t i = 0; i < n; i++) {
        if (!(en >> i & 1)) {
            d[i] = 0;
            continue;
        }
        bool eq = fl ? as_double(x->type, a[i]) == as_double(x->type, b[i])
                     : a[i] == b[i];
        d[i] = cond == ISA_BINOP_EQ ? eq : !eq;
    }
    fault(COLL_UOP_ALU, d, 0);
    emit(x, COLL_UOP_ALU, x->type, cond, n, en & lanes_mask_first(n), 0, 0);
}

void coll_u_mov(coll_x *x, uint64_t *d, coll_rgn rd, const uint64_t *s,
                coll_rgn rs, uint32_t n, lanes_mask en)
{
    uint64_t r[COLL_TMP_LANES];
    lanes_mask m = 0;
    /* elements from 64 on have no enable bit: they are always moved */
    lanes_mask need = lanes_mask_first(n);
    if ((en & need) == need) {
        const uint64_t *v = rgn_row(s, rs, n, r);
        if (!rgn_contiguous(rd, n) && v != r) {   /* d may alias s: read all first */
            memcpy(r, v, n * sizeof *r);
            v = r;
        }
        m = rgn_store(d, rd, v, n);
    } else {
        uint32_t at[COLL_TMP_LANES];
        const uint64_t *v = rgn_row(s, rs, n, r);
        if (v != r) {
            memcpy(r, v, n * sizeof *r);
            v = r;
        }
        rgn_slots(rd, n, at);
        for (uint32_t i = 0; i < n; i++) {
            if (i < 64 && !(en >> i & 1))
                continue;
            d[at[i]] = v[i];
            if (at[i] < 64)
                m |= (lanes_mask)1 << at[i];
        }
    }
    fault(COLL_UOP_MOV, d, rd.first);
    emit(x, COLL_UOP_MOV, x->type, ISA_BINOP_NONE, n, m, 0, 0);
}

void coll_u_fill(coll_x *x, uint64_t *d, coll_rgn rd, uint64_t v, uint32_t n)
{
    lanes_mask m;
    if (rgn_contiguous(rd, n)) {
        for (uint32_t i = 0; i < n; i++)
            d[rd.first + i] = v;
        m = span_mask(rd.first, n);
    } else {
        uint64_t row[COLL_TMP_LANES];
        for (uint32_t i = 0; i < n; i++)
            row[i] = v;
        m = rgn_store(d, rd, row, n);
    }
    fault(COLL_UOP_MOV, d, rd.first);
    emit(x, COLL_UOP_MOV, x->type, ISA_BINOP_NONE, n, m, 0, 0);
}

void coll_u_bcast(coll_x *x, uint64_t *d, const uint64_t *s, uint32_t lane,
                  uint32_t n)
{
    uint64_t v = s[lane];
    for (uint32_t i = 0; i < n; i++)
        d[i] = v;
    fault(COLL_UOP_BCAST, d, 0);
    emit(x, COLL_UOP_BCAST, x->type, ISA_BINOP_NONE, n, lanes_mask_first(n), 0, 0);
}

void coll_u_mov_indirect(coll_x *x, uint64_t *d, const uint64_t *s,
                         uint32_t slen, const uint64_t *sexist,
                         const uint64_t *idx, uint32_t first, uint32_t n,
                         lanes_mask en, int part)
{
    lanes_mask m = en & span_mask(first, n);
    bool all_exist = slen <= 128 && (slen <= 64 ? (sexist[0] & lanes_mask_first(slen)) ==
                                                      lanes_mask_first(slen)
                                                : sexist[0] == ~0ull &&
                                                      (sexist[1] & lanes_mask_first(slen - 64)) ==
                                                      lanes_mask_first(slen - 64));
    if (part < 0 && all_exist && m == span_mask(first, n)) {
        /* every lane of the chunk moves a whole element from an existing
         * slot, or 0 past the end */
        for (uint32_t l = first; l < first + n; l++) {
            uint64_t j = idx[l];
            d[l] = j < slen ? s[j] : 0;
        }
    } else {
        uint64_t keep = part < 0 ? 0 : part == 0 ? 0xffffffff00000000ull : 0xffffffffull;
        for (lanes_mask left = m; left; left &= left - 1) {
            uint32_t l = (uint32_t)__builtin_ctzll(left);
            uint64_t j = idx[l], v = 0;
            if (j < slen && (sexist[j / 64] >> (j % 64) & 1))
                v = s[j];
            d[l] = (d[l] & keep) | (v & ~keep);
        }
    }
    fault(COLL_UOP_MOV_INDIRECT, d, first);
    emit(x, COLL_UOP_MOV_INDIRECT, x->type, ISA_BINOP_NONE, n, m, 0, 0);
}

void coll_u_index(coll_x *x, coll_ix op, uint64_t *d, const uint64_t *a,
                  const uint64_t *b, uint32_t n)
{
    static const isa_binop shown[] = {
        [COLL_IX_COPY] = ISA_BINOP_NONE, [COLL_IX_ADD] = ISA_BINOP_ADD, [COLL_IX_SUB] = ISA_BINOP_SUB,
        [COLL_IX_XOR] = ISA_BINOP_XOR, [COLL_IX_AND] = ISA_BINOP_AND,
        [COLL_IX_REM] = ISA_BINOP_NONE, [COLL_IX_ADDS] = ISA_BINOP_ADD,
    };
    /* one loop per operation (d may be a or b: element i reads only i) */
#define IX_ROW(EXPR)                                                   \
    for (uint32_t i = 0; i < n; i++) {                                 \
        const uint64_t p = (uint32_t)a[i], q = (uint32_t)b[i];         \
        (void)q;                                                       \
        d[i] = (EXPR);                                                 \
    }                                                                  \
    break
    switch (op) {
    case COLL_IX_COPY: IX_ROW(p);
    case COLL_IX_ADD: IX_ROW(p + q);
    case COLL_IX_SUB: IX_ROW(p >= q ? p - q : ~0ull);
    case COLL_IX_XOR: IX_ROW(p ^ q);
    case COLL_IX_AND: IX_ROW(p & q);
    case COLL_IX_ADDS: IX_ROW((uint64_t)((int64_t)p + (int32_t)(uint32_t)q));
    case COLL_IX_REM:
        for (uint32_t i = 0; i < n; i++) {
            const uint64_t q = (uint32_t)b[i];
            uint64_t r = 0;
            if (q) {
                int64_t m = (int64_t)a[i] % (int64_t)q;
                r = (uint64_t)(m < 0 ? m + (int64_t)q : m);
            }
            d[i] = r;
        }
        break;
    }
#undef IX_ROW
    emit(x, COLL_UOP_ALU, ISA_T_U32, shown[op], n, lanes_mask_first(n), 0, 0);
}

void coll_u_hw_reduce(coll_x *x, isa_binop op, uint64_t *d, const uint64_t *s,
                      uint32_t n, lanes_mask en)
{
    uint64_t acc = lanes_identity(op, x->type);
    for (uint32_t l = 0; l < n; l++)
        if (en >> l & 1)
            acc = lanes_binop(op, x->type, acc, s[l]);
    for (uint32_t l = 0; l < n; l++)
        d[l] = acc;
    fault(COLL_UOP_HW_REDUCE, d, 0);
    emit(x, COLL_UOP_HW_REDUCE, x->type, op, n, en & lanes_mask_first(n), 0, 0);
}

void coll_u_ballot(coll_x *x, uint64_t *const *d, uint32_t ncomp,
                   const uint64_t *s, uint32_t n, lanes_mask en)
{
    uint32_t w[4] = { 0, 0, 0, 0 };
    for (uint32_t l = 0; l < n; l++)
        if ((en >> l & 1) && s[l] != 0)
            w[l / 32] |= 1u << (l % 32);
    for (uint32_t c = 0; c < ncomp && c < 4; c++)
        for (uint32_t l = 0; l < n; l++)
            d[c][l] = w[c];
    if (ncomp)
        fault(COLL_UOP_BALLOT, d[0], 0);
    emit(x, COLL_UOP_BALLOT, ISA_T_U32, ISA_BINOP_NONE, n, en & lanes_mask_first(n), 0, 0);
}

static uint32_t bit_of(const uint64_t *const *v, uint32_t l, uint32_t b)
{
    return b < 128 ? ((uint32_t)v[b / 32][l] >> (b % 32)) & 1 : 0;
}

void coll_u_ballot_bits(coll_x *x, coll_bform form, uint64_t *d,
                        const uint64_t *const *v, const uint64_t *idx,
                        uint32_t limit, uint32_t n, lanes_mask en)
{
    for (uint32_t l = 0; l < n; l++) {
        if (!(en >> l & 1))
            continue;
        uint32_t r = 0, hi;
        switch (form) {
        case COLL_B_BIT:
            r = idx[l] < 128 ? bit_of(v, l, (uint32_t)idx[l]) : 0;
            break;
        case COLL_B_COUNT_LE:
        case COLL_B_COUNT_LT:
        case COLL_B_COUNT:
            hi = form == COLL_B_COUNT ? limit : form == COLL_B_COUNT_LE ? l + 1 : l;
            if (hi > limit)
                hi = limit;
            for (uint32_t b = 0; b < hi; b++)
                r += bit_of(v, l, b);
            break;
        case COLL_B_LSB:
            r = ~0u;
            for (uint32_t b = 0; b < limit; b++)
                if (bit_of(v, l, b)) {
                    r = b;
                    break;
                }
            break;
        case COLL_B_MSB:
            r = ~0u;
            for (uint32_t b = limit; b-- > 0;)
                if (bit_of(v, l, b)) {
                    r = b;
                    break;
                }
            break;
        }
        d[l] = r;
    }
    fault(COLL_UOP_BALLOT, d, en ? (uint32_t)__builtin_ctzll(en) : 0);
    emit(x, COLL_UOP_BALLOT, ISA_T_U32, ISA_BINOP_NONE, n, en & lanes_mask_first(n), 0, 0);
}

void coll_u_lane_mask(coll_x *x, isa_binop cond, uint64_t *const *d,
                      uint32_t ncomp, uint32_t limit, uint32_t n, lanes_mask en)
{
    for (uint32_t l = 0; l < n; l++) {
        if (!(en >> l & 1))
            continue;
        uint32_t w[4] = { 0, 0, 0, 0 };
        for (uint32_t b = 0; b < limit && b < 128; b++) {
            bool set = cond == ISA_BINOP_EQ ? b == l : cond == ISA_BINOP_GE ? b >= l :
                       cond == ISA_BINOP_GT ? b > l : cond == ISA_BINOP_LE ? b <= l : b < l;
            if (set)
                w[b / 32] |= 1u << (b % 32);
        }
        for (uint32_t c = 0; c < ncomp && c < 4; c++)
            d[c][l] = w[c];
    }
    if (ncomp)
        fault(COLL_UOP_BALLOT, d[0], en ? (uint32_t)__builtin_ctzll(en) : 0);
    emit(x, COLL_UOP_BALLOT, ISA_T_U32, cond, n, en & lanes_mask_first(n), 0, 0);
}

coll_status coll_u_slm_store(coll_x *x, uint32_t addr, const uint64_t *s,
                             uint32_t lane)
{
    uint32_t nb = isa_types[x->type].bytes;
    if (!x->env->scratch_slm || (uint64_t)addr + nb > x->env->scratch_slm_bytes)
        return COLL_NO_MEMORY;
    uint64_t v = s[lane];
    /* little-endian element bytes, as the device stores them */
    for (uint32_t k = 0; k < nb; k++)
        x->env->scratch_slm[addr + k] = (uint8_t)(v >> (8 * k));
    emit(x, COLL_UOP_SLM_STORE, x->type, ISA_BINOP_NONE, 1, 1, nb, addr);
    return COLL_OK;
}

coll_status coll_u_slm_load(coll_x *x, uint64_t *d, uint32_t addr, uint32_t n)
{
    uint32_t nb = isa_types[x->type].bytes;
    if (!x->env->scratch_slm || (uint64_t)addr + (uint64_t)n * nb > x->env->scratch_slm_bytes)
        return COLL_NO_MEMORY;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t v = 0;
        for (uint32_t k = 0; k < nb; k++)
            v |= (uint64_t)x->env->scratch_slm[addr + i * nb + k] << (8 * k);
        d[i] = v;
    }
    fault(COLL_UOP_SLM_LOAD, d, 0);
    emit(x, COLL_UOP_SLM_LOAD, x->type, ISA_BINOP_NONE, n, lanes_mask_first(n),
         n * nb, addr);
    return COLL_OK;
}

void coll_u_barrier(coll_x *x)
{
    emit(x, COLL_UOP_BARRIER, ISA_T_NONE, ISA_BINOP_NONE, 1, 0, 0, 0);
}

void coll_u_shfl(coll_x *x, coll_shfl mode, uint32_t k, uint64_t *d, const uint64_t *s,
                 uint32_t n, int part)
{
    uint64_t r[COLL_TMP_LANES];
    for (uint32_t i = 0; i < n; i++) {
        const uint32_t j = mode == COLL_SHFL_UP ? (i >= k ? i - k : i)
                           : mode == COLL_SHFL_XOR ? i ^ k : k;
        r[i] = j < n ? s[j] : 0;
    }
    const uint64_t keep = part < 0 ? 0 : part == 0 ? 0xffffffff00000000ull : 0xffffffffull;
    for (uint32_t i = 0; i < n; i++)
        d[i] = (d[i] & keep) | (r[i] & ~keep);
    fault(COLL_UOP_MOV_INDIRECT, d, 0);
    emit(x, COLL_UOP_MOV_INDIRECT, x->type, ISA_BINOP_NONE, n, lanes_mask_first(n), 0, 0);
}

void coll_u_select(coll_x *x, uint64_t *d, const uint64_t *s, uint64_t v,
                   lanes_mask keep, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        d[i] = (i < 64 && (keep >> i & 1)) ? s[i] : v;
    fault(COLL_UOP_PRED, d, 0);
    emit(x, COLL_UOP_PRED, x->type, ISA_BINOP_NONE, n, lanes_mask_first(n), 0, 0);
}

void coll_u_compare(coll_x *x, isa_binop cond, uint64_t *d, const uint64_t *a,
                    const uint64_t *b, uint32_t n, lanes_mask en)
{
    const bool fl = isa_types[x->type].is_float, sg = isa_types[x->type].is_signed;
    const uint32_t bits = 8 * isa_types[x->type].bytes;
    for (uint32_t i = 0; i < n; i++) {
        bool lt, gt;
        if (fl) {
            double p = as_double(x->type, a[i]), q = as_double(x->type, b[i]);
            lt = p < q;
            gt = p > q;
        } else if (sg) {
            /* sign-extend from the type's width */
            int64_t p = (int64_t)(a[i] << (64 - bits)) >> (64 - bits);
            int64_t q = (int64_t)(b[i] << (64 - bits)) >> (64 - bits);
            lt = p < q;
            gt = p > q;
        } else {
            uint64_t m = bits == 64 ? ~0ull : (1ull << bits) - 1;
            lt = (a[i] & m) < (b[i] & m);
            gt = (a[i] & m) > (b[i] & m);
        }
        d[i] = (i < 64 && (en >> i & 1)) ? (cond == ISA_BINOP_LT ? lt : gt) : 0;
    }
    fault(COLL_UOP_PRED, d, 0);
    emit(x, COLL_UOP_PRED, x->type, cond, n, en & lanes_mask_first(n), 0, 0);
}

void coll_u_combine(coll_x *x, coll_uop_kind kind, isa_binop op, uint64_t *t,
                    const uint64_t *u, lanes_mask en, lanes_mask first_own, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        if (i >= 64 || !(en >> i & 1))
            continue;
        t[i] = (first_own >> i & 1) ? lanes_binop(op, x->type, t[i], u[i])
                                    : lanes_binop(op, x->type, u[i], t[i]);
    }
    fault(kind, t, 0);
    emit(x, kind, x->type, op, n, en & lanes_mask_first(n), 0, 0);
}
