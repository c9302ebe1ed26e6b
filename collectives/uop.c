/* uop.c - the micro-op executor: each function computes one micro-op on
 * real lane values and reports it to the sink. */
#include "coll_private.h"

#include <string.h>

static lanes_mask region_mask(coll_rgn r, uint32_t n)
{
    lanes_mask m = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t l = coll_rgn_at(r, i);
        if (l < 64)
            m |= (lanes_mask)1 << l;
    }
    return m;
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
    lanes_binop_row(op, x->type, r, coll_rgn_row(a, ra, n, ta), coll_rgn_row(b, rb, n, tb), n);
    for (uint32_t i = 0; i < n; i++)
        d[coll_rgn_at(rd, i)] = r[i];
    fault(COLL_UOP_ALU, d, coll_rgn_at(rd, 0));
    emit(x, COLL_UOP_ALU, x->type, op, n, region_mask(rd, n), 0, 0);
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
    for (uint32_t i = 0; i < n; i++)
        r[i] = s[coll_rgn_at(rs, i)];
    for (uint32_t i = 0; i < n; i++) {
        if (i < 64 && !(en >> i & 1))
            continue;
        uint32_t l = coll_rgn_at(rd, i);
        d[l] = r[i];
        if (l < 64)
            m |= (lanes_mask)1 << l;
    }
    fault(COLL_UOP_MOV, d, coll_rgn_at(rd, 0));
    emit(x, COLL_UOP_MOV, x->type, ISA_BINOP_NONE, n, m, 0, 0);
}

void coll_u_fill(coll_x *x, uint64_t *d, coll_rgn rd, uint64_t v, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        d[coll_rgn_at(rd, i)] = v;
    fault(COLL_UOP_MOV, d, coll_rgn_at(rd, 0));
    emit(x, COLL_UOP_MOV, x->type, ISA_BINOP_NONE, n, region_mask(rd, n), 0, 0);
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
    uint64_t keep = part < 0 ? 0 : part == 0 ? 0xffffffff00000000ull : 0xffffffffull;
    lanes_mask m = 0;
    for (uint32_t l = first; l < first + n; l++) {
        if (!(en >> l & 1))
            continue;
        uint64_t j = idx[l], v = 0;
        if (j < slen && (sexist[j / 64] >> (j % 64) & 1))
            v = s[j];
        d[l] = (d[l] & keep) | (v & ~keep);
        m |= (lanes_mask)1 << l;
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
    for (uint32_t i = 0; i < n; i++) {
        uint64_t p = (uint32_t)a[i], q = (uint32_t)b[i], r = 0;
        switch (op) {
        case COLL_IX_COPY: r = p; break;
        case COLL_IX_ADD: r = p + q; break;
        case COLL_IX_SUB: r = p >= q ? p - q : ~0ull; break;
        case COLL_IX_XOR: r = p ^ q; break;
        case COLL_IX_AND: r = p & q; break;
        case COLL_IX_REM:
            if (q) {
                int64_t m = (int64_t)a[i] % (int64_t)q;
                r = (uint64_t)(m < 0 ? m + (int64_t)q : m);
            }
            break;
        case COLL_IX_ADDS: r = (uint64_t)((int64_t)p + (int32_t)(uint32_t)b[i]); break;
        }
        d[i] = r;
    }
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
