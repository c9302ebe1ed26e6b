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
    uint32_t n;
} ref_acc;

static void acc_add(ref_acc *a, isa_binop op, isa_type t, uint64_t v)
{
    if (isa_types[t].is_float) {
        double d = to_d(t, v);
        a->fv = a->any ? flt_op(op, a->fv, d) : d;
        a->mag = op == ISA_BINOP_MUL ? (a->any ? a->mag * fabs(d) : fabs(d))
                                     : a->mag + fabs(d);
    } else {
        a->iv = a->any ? int_op(op, t, a->iv, v) : lanes_trunc(t, v);
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
    return fabs(g - e) <= tol;
}

static coll_status mismatch(coll_report *rep, uint32_t j, uint32_t l, uint64_t got)
{
    return coll_fail(rep, COLL_CHECK_MISMATCH, j, l, (int64_t)got);
}

/* reduce / scans / all / any at every scope */
static coll_status check_fold(const isa_inst *in, const coll_ref_in *r,
                              coll_group *g, coll_report *rep)
{
    const isa_op_info *oi = &isa_ops[in->op];
    isa_family fam = oi->family;
    bool vote = fam == ISA_FAM_ALL || fam == ISA_FAM_ANY;
    isa_binop op = fam == ISA_FAM_ALL ? ISA_BINOP_LAND :
                   fam == ISA_FAM_ANY ? ISA_BINOP_LOR : oi->binop;
    isa_type t = vote ? ISA_T_I32 : (isa_type)in->type;
    uint32_t w = r->width, cl = 0;
    if (oi->scope == ISA_SCOPE_CL)
        cl = (uint32_t)in->o[2].imm;
    for (uint32_t j = 0; j < r->nsg; j++) {
        const uint64_t *dst = lanes_reg(g->sg[j], in->o[0].reg);
        for (uint32_t l = 0; l < r->size[j]; l++) {
            if (!(r->active[j] >> l & 1))
                continue;
            ref_acc a = { 0 };
            /* every contributing work-item in linear order */
            for (uint32_t jj = 0; jj < r->nsg; jj++) {
                if (oi->scope != ISA_SCOPE_WG && jj != j)
                    continue;
                for (uint32_t ll = 0; ll < r->size[jj]; ll++) {
                    if (!(r->active[jj] >> ll & 1))
                        continue;
                    uint64_t key = (uint64_t)jj * w + ll, me = (uint64_t)j * w + l;
                    if (fam == ISA_FAM_SCAN_INC && key > me)
                        continue;
                    if (fam == ISA_FAM_SCAN_EXC && key >= me)
                        continue;
                    if (cl && ll / cl != l / cl)
                        continue;
                    uint64_t v = r->src0[jj][ll];
                    acc_add(&a, op, t, vote ? (v != 0) : v);
                }
            }
            if (!same(op, t, &a, dst[l]))
                return mismatch(rep, j, l, dst[l]);
        }
    }
    return COLL_OK;
}

static coll_status check_move(const isa_inst *in, const coll_ref_in *r,
                              coll_group *g, coll_report *rep)
{
    const isa_op_info *oi = &isa_ops[in->op];
    isa_family fam = oi->family;
    uint32_t w = r->width;
    lanes_mask act0 = r->active[0];
    for (uint32_t j = 0; j < r->nsg; j++) {
        const uint64_t *dst = lanes_reg(g->sg[j], in->o[0].reg);
        uint32_t n = r->size[j];
        for (uint32_t l = 0; l < n; l++) {
            if (!(r->active[j] >> l & 1))
                continue;
            /* source work-item (sj, sl) and value, or skip if undefined */
            uint32_t sj = j;
            int64_t sl = -1;
            const uint64_t *vals = r->src0[j];
            uint64_t a = r->src1[j][l], d;
            switch (fam) {
            case ISA_FAM_BCAST:
                if (oi->scope == ISA_SCOPE_WG) {
                    uint64_t lx = g->local_size[0] ? g->local_size[0] : 1;
                    uint64_t ly = g->local_size[1] ? g->local_size[1] : 1;
                    uint64_t lin = a;
                    if (in->nopnd > 3)
                        lin += r->src2[j][l] * lx;
                    if (in->nopnd > 4)
                        lin += r->src3[j][l] * lx * ly;
                    sj = (uint32_t)(lin / w);
                    sl = (int64_t)(lin % w);
                    vals = r->src0[sj];
                } else {
                    sl = (int64_t)a;
                }
                break;
            case ISA_FAM_BCAST_FIRST:
                sl = act0 ? __builtin_ctzll(act0) : -1;
                break;
            case ISA_FAM_SHUFFLE:      sl = (int64_t)(uint32_t)a; break;
            case ISA_FAM_SHUFFLE_XOR:  sl = (int64_t)(l ^ (uint32_t)a); break;
            case ISA_FAM_SHUFFLE_UP:   sl = (int64_t)l - (int64_t)(uint32_t)a; break;
            case ISA_FAM_SHUFFLE_DOWN: sl = (int64_t)l + (int64_t)(uint32_t)a; break;
            case ISA_FAM_SHUFFLE_DOWN2:
                d = (uint64_t)l + (uint32_t)r->src2[j][l];
                if (d >= w) {
                    vals = r->src1[j];
                    d -= w;
                }
                sl = d < w ? (int64_t)d : -1;
                break;
            case ISA_FAM_SHUFFLE_UP2:
                sl = (int64_t)l - (int64_t)(uint32_t)r->src2[j][l];
                if (sl < 0) {
                    sl += w;
                    vals = r->src0[j];
                } else {
                    vals = r->src1[j];
                }
                break;
            case ISA_FAM_ROTATE:
                if (oi->scope == ISA_SCOPE_CL) {
                    uint32_t c = (uint32_t)in->o[3].imm;
                    sl = (int64_t)((l & ~(c - 1)) + ((l + (uint32_t)a) % c));
                } else {
                    sl = (int64_t)(((uint64_t)l + (uint32_t)a) % n);
                }
                break;
            default:
                return COLL_OK;
            }
            if (sl < 0 || sj >= r->nsg || (uint64_t)sl >= r->size[sj] ||
                !(r->active[sj] >> sl & 1))
                continue;  /* undefined result: not checked */
            if (dst[l] != lanes_trunc((isa_type)in->type, vals[sl]))
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
    default:
        return check_move(in, r, g, rep);
    }
}
