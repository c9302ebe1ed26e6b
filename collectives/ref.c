/* ref.c - check mode: the result of a collective recomputed directly from
 * the spec's definition (sequential loops over work-items, no micro-ops)
 * and compared with what the micro-ops wrote. */
#include "coll_private.h"

#include <math.h>
#include <string.h>

static double to_d(isa_type t, uint64_t v)
{
    float f;
    double d;
    uint32_t u = (uint32_t)v;
    if (t == ISA_T_F16)
        return lanes_f16_to_f32((uint16_t)v);
    if (t == ISA_T_F32) {
        memcpy(&f, &u, 4);
        return f;
    }
    memcpy(&d, &v, 8);
    return d;
}

/* One combining step as the spec defines it; integers wrap (decision 4),
 * floats are combined in double here and compared with a tolerance. */
static uint64_t int_op(isa_binop op, isa_type t, uint64_t a, uint64_t b)
{
    bool sgn = isa_types[t].is_signed;
    int64_t sa = lanes_sext(t, a), sb = lanes_sext(t, b);
    uint64_t r = 0;
    switch (op) {
    case ISA_BINOP_ADD: r = a + b; break;
    case ISA_BINOP_MUL: r = a * b; break;
    case ISA_BINOP_MIN: r = sgn ? (sa < sb ? a : b) : (a < b ? a : b); break;
    case ISA_BINOP_MAX: r = sgn ? (sa > sb ? a : b) : (a > b ? a : b); break;
    case ISA_BINOP_AND: r = a & b; break;
    case ISA_BINOP_OR:  r = a | b; break;
    case ISA_BINOP_XOR: r = a ^ b; break;
    case ISA_BINOP_LAND: r = (a != 0) && (b != 0); break;
    case ISA_BINOP_LOR:  r = (a != 0) || (b != 0); break;
    case ISA_BINOP_LXOR: r = (a != 0) != (b != 0); break;
    default: break;
    }
    return lanes_trunc(t, r);
}

static double flt_op(isa_binop op, double a, double b)
{
    switch (op) {
    case ISA_BINOP_ADD: return a + b;
    case ISA_BINOP_MUL: return a * b;
    case ISA_BINOP_MIN: return fmin(a, b);
    case ISA_BINOP_MAX: return fmax(a, b);
    default: return 0;
    }
}

/* Expected value of one work-item as a fold over `n` contributing values. */
typedef struct ref_acc {
    bool any;
    uint64_t iv;
    double fv, mag;
    double hi;   /* bound on every partial result's magnitude, finite values */
    uint32_t n;
} ref_acc;

static void acc_add(ref_acc *a, isa_binop op, isa_type t, uint64_t v)
{
    if (isa_types[t].is_float) {
        double d = to_d(t, v);
        a->fv = a->any ? flt_op(op, a->fv, d) : d;
        a->mag = op == ISA_BINOP_MUL ? (a->any ? a->mag * fabs(d) : fabs(d))
                                     : a->mag + fabs(d);
        /* any partial sum is at most sum|x|, any partial product at most
         * prod max(1, |x|), whatever the order (infinities left out: they
         * give inf or NaN in every order) */
        double f = isinf(d) ? 0 : fabs(d);
        if (op == ISA_BINOP_MUL)
            f = f > 1 ? f : 1;
        a->hi = !a->any ? f : op == ISA_BINOP_MUL ? a->hi * f : a->hi + f;
    } else {
        bool lg = op == ISA_BINOP_LAND || op == ISA_BINOP_LOR || op == ISA_BINOP_LXOR;
        /* a single value is itself (logical operators: 0 or 1) */
        a->iv = a->any ? int_op(op, t, a->iv, v) : lg ? (lanes_trunc(t, v) != 0)
                                                       : lanes_trunc(t, v);
    }
    a->any = true;
    a->n++;
}

static bool same(isa_binop op, isa_type t, const ref_acc *a, uint64_t got)
{
    if (!a->any) {
        /* empty fold: the identity */
        if (!isa_types[t].is_float)
            return got == lanes_identity(op, t);
        double g = to_d(t, got), id = to_d(t, lanes_identity(op, t));
        return g == id;
    }
    if (!isa_types[t].is_float)
        return got == a->iv;
    double g = to_d(t, got), e = a->fv;
    /* The spec leaves the order of a float add/mul open: when some order
     * could overflow a partial result (inf, or NaN from inf - inf / 0 * inf)
     * where another does not, every result is one of the spec's, so the
     * value is not checked. */
    double big = t == ISA_T_F16 ? 65504.0 : t == ISA_T_F32 ? 0x1.fffffep127 : 0x1.fffffffffffffp1023;
    if ((op == ISA_BINOP_ADD || op == ISA_BINOP_MUL) && a->hi > big)
        return true;
    if (isnan(e) || isnan(g))
        return isnan(e) && isnan(g);
    if (isinf(e) || isinf(g))
        return e == g;
    if (op != ISA_BINOP_ADD && op != ISA_BINOP_MUL)
        return g == e;
    double eps = t == ISA_T_F16 ? 0x1p-10 : t == ISA_T_F32 ? 0x1p-23 : 0x1p-52;
    /* (n-1) * eps * sum|x| (products: * |product|), plus half a unit for
     * the final rounding of the stored result */
    double tol = (a->n > 1 ? a->n - 1 : 1) * eps * a->mag + eps * fabs(e);
    /* products: a partial result that underflows is off by up to half the
     * smallest subnormal, which the later factors (at most hi) scale */
    if (op == ISA_BINOP_MUL) {
        double eta = t == ISA_T_F16 ? 0x1p-25 : t == ISA_T_F32 ? 0x1p-150 : 0x1p-1074;
        tol += a->n * eta * a->hi;
    }
    return fabs(g - e) <= tol;
}

static coll_status mismatch(coll_report *rep, uint32_t j, uint32_t l, uint64_t got)
{
    return coll_fail(rep, COLL_CHECK_MISMATCH, j, l, (int64_t)got);
}

static bool is_active(const coll_ref_in *r, uint32_t j, uint32_t l)
{
    return l < r->size[j] && (r->active[j] >> l & 1);
}

uint32_t coll_ref_data_comps(const isa_inst *in, uint32_t k)
{
    uint32_t vec = in->vec ? in->vec : 1u;
    switch (isa_ops[in->op].family) {
    case ISA_FAM_ELECT: case ISA_FAM_LANE_MASK:
        return 0;
    case ISA_FAM_BALLOT:
        return k == 0 ? 1 : 0;
    case ISA_FAM_INVERSE_BALLOT: case ISA_FAM_BALLOT_BIT_EXTRACT:
    case ISA_FAM_BALLOT_BIT_COUNT: case ISA_FAM_BALLOT_INC_SCAN:
    case ISA_FAM_BALLOT_EXC_SCAN: case ISA_FAM_BALLOT_FIND_LSB:
    case ISA_FAM_BALLOT_FIND_MSB:
        /* a uint4 register, or one immediate word (the others read 0) */
        if (k != 0)
            return 0;
        return in->o[1].kind == ISA_OPND_REG ? (vec < 4 ? vec : 4) : 1;
    case ISA_FAM_SHUFFLE_DOWN2: case ISA_FAM_SHUFFLE_UP2:
        return k <= 1 ? vec : 0;
    default:
        return k == 0 ? vec : 0;
    }
}

/* reduce / scans / all / any at every scope, every component */
static coll_status check_fold(const isa_inst *in, const coll_ref_in *r,
                              coll_group *g, coll_report *rep)
{
    const isa_op_info *oi = &isa_ops[in->op];
    isa_family fam = oi->family;
    bool vote = fam == ISA_FAM_ALL || fam == ISA_FAM_ANY;
    isa_binop op = fam == ISA_FAM_ALL ? ISA_BINOP_LAND :
                   fam == ISA_FAM_ANY ? ISA_BINOP_LOR : oi->binop;
    isa_type t = vote ? ISA_T_I32 : (isa_type)in->type;
    uint32_t w = r->width, cl = 0, nc = vote ? 1 : r->ncomp;
    if (oi->scope == ISA_SCOPE_CL)
        cl = (uint32_t)in->o[2].imm;
    for (uint32_t c = 0; c < nc; c++)
    for (uint32_t j = 0; j < r->nsg; j++) {
        const uint64_t *dst = lanes_reg(g->sg[j], in->o[0].reg + c);
        for (uint32_t l = 0; l < r->size[j]; l++) {
            if (!is_active(r, j, l))
                continue;
            ref_acc a = { 0 };
            /* every contributing work-item in linear order */
            for (uint32_t jj = 0; jj < r->nsg; jj++) {
                if (oi->scope != ISA_SCOPE_WG && jj != j)
                    continue;
                const uint64_t *src = coll_ref_src(r, jj, 0, c);
                for (uint32_t ll = 0; ll < r->size[jj]; ll++) {
                    if (!is_active(r, jj, ll))
                        continue;
                    uint64_t key = (uint64_t)jj * w + ll, me = (uint64_t)j * w + l;
                    if (fam == ISA_FAM_SCAN_INC && key > me)
                        continue;
                    if (fam == ISA_FAM_SCAN_EXC && key >= me)
                        continue;
                    if (cl && ll / cl != l / cl)
                        continue;
                    acc_add(&a, op, t, vote ? (src[ll] != 0) : src[ll]);
                }
            }
            if (!same(op, t, &a, dst[l]))
                return mismatch(rep, j, l, dst[l]);
        }
    }
    return COLL_OK;
}

/* all_equal: 1 when every pair of active values is equal (floats as
 * numbers: NaN equals nothing, +0 equals -0); elect: 1 in the lowest
 * active lane only. */
static coll_status check_vote_misc(const isa_inst *in, const coll_ref_in *r,
                                   coll_group *g, coll_report *rep)
{
    isa_family fam = isa_ops[in->op].family;
    isa_type t = (isa_type)in->type;
    const uint64_t *dst = lanes_reg(g->sg[0], in->o[0].reg);
    const uint64_t *v = fam == ISA_FAM_ALL_EQUAL ? coll_ref_src(r, 0, 0, 0) : NULL;
    uint32_t n = r->size[0];
    uint64_t want = 1;
    int64_t lowest = -1;
    for (uint32_t a = 0; a < n; a++) {
        if (!is_active(r, 0, a))
            continue;
        if (lowest < 0)
            lowest = a;
        for (uint32_t b = 0; v && b < n; b++) {
            if (!is_active(r, 0, b))
                continue;
            bool eq = isa_types[t].is_float ? to_d(t, v[a]) == to_d(t, v[b])
                                            : lanes_trunc(t, v[a]) == lanes_trunc(t, v[b]);
            if (!eq)
                want = 0;
        }
    }
    for (uint32_t l = 0; l < n; l++) {
        if (!is_active(r, 0, l))
            continue;
        uint64_t e = fam == ISA_FAM_ELECT ? (uint64_t)((int64_t)l == lowest) : want;
        if (dst[l] != e)
            return mismatch(rep, 0, l, dst[l]);
    }
    return COLL_OK;
}

/* bit b (0..127) of lane l's uint4 value */
static uint32_t word_bit(const coll_ref_in *r, const isa_inst *in, uint32_t l,
                         uint32_t b)
{
    uint32_t c = b / 32, nw = coll_ref_data_comps(in, 0);
    if (c >= nw)
        return 0;
    return (uint32_t)(coll_ref_src(r, 0, 0, c)[l] >> (b % 32)) & 1u;
}

/* ballot, inverse ballot, the bit queries and the lane masks, from the
 * definitions in cl_khr_subgroup_ballot (bit k of the uint4 is word k/32,
 * bit k%32; queries consider bits below the max sub-group size W). */
static coll_status check_ballot(const isa_inst *in, const coll_ref_in *r,
                                coll_group *g, coll_report *rep)
{
    const isa_op_info *oi = &isa_ops[in->op];
    isa_family fam = oi->family;
    uint32_t w = r->width, n = r->size[0], vec = in->vec ? in->vec : 1u;
    if (vec > 4)
        vec = 4;
    for (uint32_t l = 0; l < n; l++) {
        if (!is_active(r, 0, l))
            continue;
        if (fam == ISA_FAM_BALLOT || fam == ISA_FAM_LANE_MASK) {
            uint32_t word[4] = { 0, 0, 0, 0 };
            for (uint32_t b = 0; b < 128; b++) {
                bool set = false;
                if (fam == ISA_FAM_BALLOT)
                    set = b < n && is_active(r, 0, b) && coll_ref_src(r, 0, 0, 0)[b] != 0;
                else if (b < w)
                    switch (oi->binop) {
                    case ISA_BINOP_EQ: set = b == l; break;
                    case ISA_BINOP_GE: set = b >= l; break;
                    case ISA_BINOP_GT: set = b > l; break;
                    case ISA_BINOP_LE: set = b <= l; break;
                    case ISA_BINOP_LT: set = b < l; break;
                    default: break;
                    }
                if (set)
                    word[b / 32] |= 1u << (b % 32);
            }
            for (uint32_t c = 0; c < vec; c++) {
                uint64_t got = lanes_reg(g->sg[0], in->o[0].reg + c)[l];
                if (got != word[c])
                    return mismatch(rep, 0, l, (int64_t)got);
            }
            continue;
        }
        uint64_t e = 0;
        uint32_t cnt = 0;
        int64_t lsb = -1, msb = -1;
        for (uint32_t b = 0; b < w; b++) {
            if (!word_bit(r, in, l, b))
                continue;
            if (lsb < 0)
                lsb = b;
            msb = b;
            cnt++;
            if (fam == ISA_FAM_BALLOT_INC_SCAN && b <= l)
                e++;
            if (fam == ISA_FAM_BALLOT_EXC_SCAN && b < l)
                e++;
        }
        uint64_t idx;
        switch (fam) {
        case ISA_FAM_INVERSE_BALLOT: e = word_bit(r, in, l, l); break;
        case ISA_FAM_BALLOT_BIT_EXTRACT:
            idx = (uint32_t)coll_ref_src(r, 0, 1, 0)[l];
            e = idx < 128 ? word_bit(r, in, l, (uint32_t)idx) : 0;
            break;
        case ISA_FAM_BALLOT_BIT_COUNT: e = cnt; break;
        case ISA_FAM_BALLOT_FIND_LSB: e = lsb < 0 ? 0xffffffffu : (uint64_t)lsb; break;
        case ISA_FAM_BALLOT_FIND_MSB: e = msb < 0 ? 0xffffffffu : (uint64_t)msb; break;
        default: break;
        }
        uint64_t got = lanes_reg(g->sg[0], in->o[0].reg)[l];
        if (got != e)
            return mismatch(rep, 0, l, got);
    }
    return COLL_OK;
}

/* broadcasts, shuffles, rotates: the spec's index equations; results the
 * specs leave undefined are not checked */
static coll_status check_move(const isa_inst *in, const coll_ref_in *r,
                              coll_group *g, coll_report *rep)
{
    const isa_op_info *oi = &isa_ops[in->op];
    isa_family fam = oi->family;
    uint32_t w = r->width, nc = r->ncomp;
    int64_t first = -1;
    for (uint32_t l = 0; l < r->size[0] && first < 0; l++)
        if (is_active(r, 0, l))
            first = l;
    /* a sub-group broadcast id that differs between work-items leaves
     * the result undefined (uniform scope: a fatal error before this) */
    if (fam == ISA_FAM_BCAST && oi->scope != ISA_SCOPE_WG && first >= 0)
        for (uint32_t l = 0; l < r->size[0]; l++)
            if (is_active(r, 0, l) &&
                coll_ref_src(r, 0, 1, 0)[l] != coll_ref_src(r, 0, 1, 0)[first])
                return COLL_OK;
    for (uint32_t c = 0; c < nc; c++)
    for (uint32_t j = 0; j < r->nsg; j++) {
        const uint64_t *dst = lanes_reg(g->sg[j], in->o[0].reg + c);
        uint32_t n = r->size[j];
        for (uint32_t l = 0; l < n; l++) {
            if (!is_active(r, j, l))
                continue;
            /* source work-item (sj, sl) and its operand kk, or skip */
            uint32_t sj = j, kk = 0;
            int64_t sl = -1;
            uint64_t a = coll_ref_src(r, j, 1, 0)[l], d;
            switch (fam) {
            case ISA_FAM_BCAST:
                if (oi->scope == ISA_SCOPE_WG) {
                    uint64_t lx = g->local_size[0] ? g->local_size[0] : 1;
                    uint64_t ly = g->local_size[1] ? g->local_size[1] : 1;
                    uint64_t lin = a;
                    if (in->nopnd > 3)
                        lin += coll_ref_src(r, j, 2, 0)[l] * lx;
                    if (in->nopnd > 4)
                        lin += coll_ref_src(r, j, 3, 0)[l] * lx * ly;
                    sj = (uint32_t)(lin / w);
                    sl = (int64_t)(lin % w);
                } else {
                    sl = (int64_t)a;
                }
                break;
            case ISA_FAM_BCAST_FIRST:  sl = first; break;
            case ISA_FAM_SHUFFLE:      sl = (int64_t)(uint32_t)a; break;
            case ISA_FAM_SHUFFLE_XOR:  sl = (int64_t)(l ^ (uint32_t)a); break;
            case ISA_FAM_SHUFFLE_UP:   sl = (int64_t)l - (int64_t)(uint32_t)a; break;
            case ISA_FAM_SHUFFLE_DOWN: sl = (int64_t)l + (int64_t)(uint32_t)a; break;
            case ISA_FAM_SHUFFLE_DOWN2:
                /* current[id + delta] while < W, then next[id + delta - W] */
                d = (uint64_t)l + (uint32_t)coll_ref_src(r, j, 2, 0)[l];
                if (d >= w) {
                    kk = 1;
                    d -= w;
                }
                sl = d < w ? (int64_t)d : -1;
                break;
            case ISA_FAM_SHUFFLE_UP2:
                /* current[id - delta] when >= 0, else previous[W + id - delta] */
                sl = (int64_t)l - (int64_t)(uint32_t)coll_ref_src(r, j, 2, 0)[l];
                kk = 1;
                if (sl < 0) {
                    sl += w;
                    kk = 0;
                }
                break;
            case ISA_FAM_ROTATE:
                if (oi->scope == ISA_SCOPE_CL) {
                    uint32_t cs = (uint32_t)in->o[3].imm;
                    uint32_t rl = (l / cs) * cs + ((l % cs) + (uint32_t)a) % cs;   /* < w */
                    sl = rl;
                } else {
                    /* (id + delta) mod the max sub-group size, int delta */
                    int64_t m = ((int64_t)l + (int32_t)(uint32_t)a) % (int64_t)w;
                    sl = m < 0 ? m + w : m;
                }
                break;
            default:
                return COLL_OK;
            }
            if (sl < 0 || sj >= r->nsg || sl >= (int64_t)w || !is_active(r, sj, (uint32_t)sl))
                continue;  /* undefined result: not checked */
            uint64_t e = lanes_trunc((isa_type)in->type, coll_ref_src(r, sj, kk, c)[sl]);
            if (dst[l] != e)
                return mismatch(rep, j, l, dst[l]);
        }
    }
    return COLL_OK;
}

coll_status coll_ref_check(const coll_env *env, const isa_inst *in,
                           const coll_ref_in *r, coll_group *g, coll_report *rep)
{
    (void)env;
    switch (isa_ops[in->op].family) {
    case ISA_FAM_REDUCE: case ISA_FAM_SCAN_INC: case ISA_FAM_SCAN_EXC:
    case ISA_FAM_ALL: case ISA_FAM_ANY:
        return check_fold(in, r, g, rep);
    case ISA_FAM_ALL_EQUAL: case ISA_FAM_ELECT:
        return check_vote_misc(in, r, g, rep);
    case ISA_FAM_BALLOT: case ISA_FAM_INVERSE_BALLOT: case ISA_FAM_BALLOT_BIT_EXTRACT:
    case ISA_FAM_BALLOT_BIT_COUNT: case ISA_FAM_BALLOT_INC_SCAN:
    case ISA_FAM_BALLOT_EXC_SCAN: case ISA_FAM_BALLOT_FIND_LSB:
    case ISA_FAM_BALLOT_FIND_MSB: case ISA_FAM_LANE_MASK:
        return check_ballot(in, r, g, rep);
    default:
        return check_move(in, r, g, rep);
    }
}
