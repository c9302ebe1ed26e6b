/* test_coll_matrix.c - every collective row of opcodes.def x every
 * type it allows (vector forms included) x widths 1..64 x work-group
 * sizes, on random and edge inputs, against references written here from
 * the spec texts (sequential loops over work-items, nothing shared with
 * collectives/).  Every run also has check mode on, so collectives/ref.c
 * is exercised on the same data; a fault-injection test shows check mode
 * catching a corrupted micro-op result. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "coll.h"
#include "test_values.h"
#include "test_wg.h"
#include "coll_private.h"   /* coll_fault_hook only */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* registers: dst r0.., o[1] r16.., o[2] r32.., o[3] r48, o[4] r49 */
#define NREG 50
#define R_DST 0
#define R_A 16
#define R_B 32
#define R_C 48
#define R_D 49

static const uint32_t widths[] = { 1, 4, 8, 16, 32, 64 };
static const uint32_t wg_sizes[] = { 1, 7, 8, 24, 33, 100, 256 };
static const uint32_t vecs[] = { 2, 3, 4, 8, 16 };

/* ------------------------------------------------------------ fixture */

static coll_options opt;
static const lanes_env lenv = { NULL, NULL, NULL };
static uint8_t slm[65536];
static coll_report notes[8];
static uint32_t nnotes;
static void take_note(void *u, const coll_report *r)
{
    (void)u;
    if (nnotes < 8)
        notes[nnotes] = *r;
    nnotes++;
}
/* scans and reductions through the shape cache (collectives/shape.c),
 * emptied whenever the options change: a cache serves one run's options */
static coll_shapes uop_shapes;
static coll_env env = { &lenv, &opt, NULL, NULL, slm, sizeof slm, take_note, NULL, &uop_shapes };

static test_wg X;
static uint64_t before[TEST_WG_MAXSG][16][64];  /* destination before the run */

static uint64_t rng = 0x2545f4914f6cdd1dull;
static uint64_t rnd(void)
{
    return test_xorshift64(&rng);
}
static double unit(void) { return (double)(rnd() >> 11) / 9007199254740992.0; }

static double fmax_of(isa_type t)
{
    return t == ISA_T_F16 ? 65504.0 : t == ISA_T_F32 ? (double)3.4028234663852886e38 : 1.7976931348623157e308;
}

/* one input value; `edge` picks type extremes, -0.0, NaN, +-INF */
static uint64_t gen(isa_type t, isa_binop op, bool edge)
{
    uint64_t m = mask_of(t);
    if (!isa_types[t].is_float) {
        if (op == ISA_BINOP_LAND || op == ISA_BINOP_LOR || op == ISA_BINOP_LXOR) {
            static const int64_t pv[] = { 0, 1, 2, -1, 0, 0x100 };
            return (uint64_t)pv[rnd() % 6] & m;
        }
        if (!edge)
            return rnd() & m;
        bool s = isa_types[t].is_signed;
        uint64_t smax = m >> 1;
        uint64_t ev[] = { 0, 1, m, s ? smax : m, s ? smax + 1 : 0, s ? smax - 1 : m - 1,
                          s ? smax + 2 : 2 };
        return ev[rnd() % 7];
    }
    if (!edge) {
        if (op == ISA_BINOP_MUL)
            return from_d(t, (rnd() & 1 ? -1 : 1) * (1.0 + unit() * 0.1));
        if (op == ISA_BINOP_ADD)
            return from_d(t, unit() * 200.0 - 100.0);
        return from_d(t, (unit() - 0.5) * ldexp(1.0, (int)(rnd() % 21) - 10));
    }
    /* no finite overflow in add/mul (its place depends on the order) and
     * no underflow in mul; NaN / INF results do not depend on it */
    double ev[] = { NAN, INFINITY, -INFINITY, -0.0, 0.0, 1.0, -1.0,
                    op == ISA_BINOP_ADD || op == ISA_BINOP_MUL ? 2.0 : fmax_of(t),
                    op == ISA_BINOP_MUL ? -2.0 : ldexp(1.0, t == ISA_T_F16 ? -24 : t == ISA_T_F32 ? -149 : -1074) };
    return from_d(t, ev[rnd() % 9]);
}

/* shape NULL: a 1-D work-group */
static void wg_init(uint32_t w, uint32_t n, const uint32_t shape[3])
{
    const uint32_t one_d[3] = { n, 1, 1 };
    test_wg_init(&X, w, n, NREG, shape ? shape : one_d);
}

static uint64_t *R(uint32_t j, uint32_t r) { return lanes_reg(&X.sg[j], r); }

/* ------------------------------------------------ reference from the spec */

static uint64_t int_identity(isa_binop op, isa_type t)
{
    uint64_t m = mask_of(t);
    bool s = isa_types[t].is_signed;
    switch (op) {
    case ISA_BINOP_MUL: case ISA_BINOP_LAND: return 1;
    case ISA_BINOP_AND: return m;
    case ISA_BINOP_MIN: return s ? m >> 1 : m;
    case ISA_BINOP_MAX: return s ? (m >> 1) + 1 : 0;
    default: return 0;
    }
}

static double flt_identity(isa_binop op)
{
    return op == ISA_BINOP_MUL ? 1.0 : op == ISA_BINOP_MIN ? INFINITY :
           op == ISA_BINOP_MAX ? -INFINITY : 0.0;
}

/* a fold: integer bits, or a double with the magnitude for the tolerance */
typedef struct fold { uint64_t i; double f, mag; uint32_t n; } fold;

static void fold_start(fold *a, isa_binop op, isa_type t)
{
    a->i = int_identity(op, t);
    a->f = flt_identity(op);
    a->mag = op == ISA_BINOP_MUL ? 1.0 : 0.0;
    a->n = 0;
}

static void fold_step(fold *a, isa_binop op, isa_type t, uint64_t v)
{
    if (a->n++ == 0) {
        /* x0 op x1 op ...: the identity is only the value of an empty fold */
        if (isa_types[t].is_float) {
            a->f = as_d(t, v);
            a->mag = fabs(a->f);
        } else {
            bool lg = op == ISA_BINOP_LAND || op == ISA_BINOP_LOR || op == ISA_BINOP_LXOR;
            a->i = lg ? v != 0 : v;
        }
        return;
    }
    if (isa_types[t].is_float) {
        double d = as_d(t, v);
        switch (op) {
        case ISA_BINOP_ADD: a->f += d; a->mag += fabs(d); break;
        case ISA_BINOP_MUL: a->f *= d; a->mag *= fabs(d); break;
        case ISA_BINOP_MIN: a->f = fmin(a->f, d); break;
        case ISA_BINOP_MAX: a->f = fmax(a->f, d); break;
        default: fail();
        }
        return;
    }
    uint64_t m = mask_of(t), x = a->i;
    bool s = isa_types[t].is_signed;
    switch (op) {
    case ISA_BINOP_ADD: x = (x + v) & m; break;
    case ISA_BINOP_MUL: x = (x * v) & m; break;
    case ISA_BINOP_MIN: x = s ? (sx(t, v) < sx(t, x) ? v : x) : (v < x ? v : x); break;
    case ISA_BINOP_MAX: x = s ? (sx(t, v) > sx(t, x) ? v : x) : (v > x ? v : x); break;
    case ISA_BINOP_AND: x &= v; break;
    case ISA_BINOP_OR: x |= v; break;
    case ISA_BINOP_XOR: x ^= v; break;
    case ISA_BINOP_LAND: x = x && v; break;
    case ISA_BINOP_LOR: x = x || v; break;
    case ISA_BINOP_LXOR: x = (x != 0) ^ (v != 0); break;
    default: fail();
    }
    a->i = x;
}

static bool fold_match(const fold *a, isa_binop op, isa_type t, uint64_t got)
{
    if (!isa_types[t].is_float)
        return got == a->i;
    double g = as_d(t, got), e = a->f;
    if (isnan(e) || isnan(g))
        return isnan(e) && isnan(g);
    if (isinf(e) || isinf(g) || (op != ISA_BINOP_ADD && op != ISA_BINOP_MUL))
        return g == e;
    double eps = t == ISA_T_F16 ? 0x1p-10 : t == ISA_T_F32 ? 0x1p-23 : 0x1p-52;
    /* conformance-style bound: (n-1) eps sum|x|, plus the final rounding
     * and, for half, the smallest subnormal step */
    double tol = (a->n > 1 ? a->n - 1 : 1) * eps * a->mag + eps * fabs(e) +
                 (t == ISA_T_F16 ? 0x1p-24 : 0.0);
    return fabs(g - e) <= tol;
}

/* ------------------------------------------------------------ one run */

typedef struct run_cfg {
    isa_opcode op;
    isa_type t;
    uint32_t vec, w, n, cluster;
    uint32_t shape[3], ndim;   /* WG broadcast */
    bool edge;
} run_cfg;

static bool is_ballot_query(isa_family f)
{
    return f == ISA_FAM_INVERSE_BALLOT || f == ISA_FAM_BALLOT_BIT_EXTRACT ||
           f == ISA_FAM_BALLOT_BIT_COUNT || f == ISA_FAM_BALLOT_INC_SCAN ||
           f == ISA_FAM_BALLOT_EXC_SCAN || f == ISA_FAM_BALLOT_FIND_LSB ||
           f == ISA_FAM_BALLOT_FIND_MSB;
}

static uint32_t popc(uint64_t v) { return (uint32_t)__builtin_popcountll(v); }

/* must every existing work-item execute it (spec: "must be encountered
 * by all work-items")? */
static bool uniform_scope(const isa_op_info *oi)
{
    if (oi->scope == ISA_SCOPE_WG)
        return true;
    if (oi->scope != ISA_SCOPE_SG)
        return false;
    /* Intel shuffles and sub_group_rotate need not be encountered by all */
    return oi->family != ISA_FAM_SHUFFLE && oi->family != ISA_FAM_SHUFFLE_XOR &&
           oi->family != ISA_FAM_SHUFFLE_UP2 && oi->family != ISA_FAM_SHUFFLE_DOWN2 &&
           oi->family != ISA_FAM_ROTATE;
}

static isa_inst make_inst(const run_cfg *c)
{
    const isa_op_info *oi = &isa_ops[c->op];
    isa_inst in;
    memset(&in, 0, sizeof in);
    in.op = (uint16_t)c->op;
    in.type = (uint8_t)c->t;
    in.src_type = (uint8_t)c->t;
    in.vec = (uint8_t)c->vec;
    uint32_t nsrc;
    switch (oi->shape) {
    case ISA_SHAPE_D: nsrc = 0; break;
    case ISA_SHAPE_D_S: nsrc = 1; break;
    case ISA_SHAPE_D_S_S: nsrc = 2; break;
    case ISA_SHAPE_D_S_S_S: nsrc = 3; break;
    case ISA_SHAPE_D_S_ID: nsrc = 1 + c->ndim; break;
    default: nsrc = 0; fail();
    }
    in.nopnd = (uint8_t)(1 + nsrc);
    static const uint16_t regs[] = { R_DST, R_A, R_B, R_C, R_D };
    for (uint32_t k = 0; k <= nsrc; k++) {
        in.o[k].kind = ISA_OPND_REG;
        in.o[k].reg = regs[k];
    }
    if (oi->scope == ISA_SCOPE_CL) {   /* cluster size: an immediate */
        uint32_t k = oi->family == ISA_FAM_ROTATE ? 3 : 2;
        in.o[k].kind = ISA_OPND_IMM;
        in.o[k].imm = c->cluster;
    }
    return in;
}

/* fill sources, destinations (sentinels) and active masks */
static void setup(const run_cfg *c)
{
    const isa_op_info *oi = &isa_ops[c->op];
    isa_family fam = oi->family;
    isa_binop op = fam == ISA_FAM_ALL ? ISA_BINOP_LAND : fam == ISA_FAM_ANY ? ISA_BINOP_LOR : oi->binop;
    uint32_t w = c->w;
    /* per-run flavour: all-equal / all-zero / all-nonzero vote inputs */
    uint32_t flavour = (uint32_t)(rnd() % 4);
    uint64_t same = gen(c->t, op, c->edge);
    uint64_t bwords[4];
    for (int k = 0; k < 4; k++)
        bwords[k] = rnd() & 0xffffffffu;
    uint64_t uid = rnd();
    for (uint32_t j = 0; j < X.nsg; j++) {
        lanes_sg *sg = &X.sg[j];
        X.act[j] = sg->exists;
        if (!uniform_scope(oi)) {
            lanes_mask m = 0;
            for (uint32_t l = 0; l < w; l++)
                if (rnd() % 10 < 7)
                    m |= 1ull << l;
            if (rnd() % 8 == 0)
                m = ~0ull;
            X.act[j] = m & sg->exists;
            if (!X.act[j])
                X.act[j] = 1;
        }
        for (uint32_t comp = 0; comp < 16; comp++)
            for (uint32_t l = 0; l < w; l++) {
                uint64_t v = gen(c->t, op, c->edge);
                if (fam == ISA_FAM_ALL_EQUAL && flavour < 2)
                    v = same;
                if ((fam == ISA_FAM_ALL || fam == ISA_FAM_ANY) && flavour < 2)
                    v = flavour ? (rnd() % 3 + 1) : 0;
                if (fam == ISA_FAM_BALLOT)
                    v = rnd() % 3 == 0 ? 0 : rnd() & 0xffffffffu;
                if (is_ballot_query(fam))
                    v = comp < 4 ? bwords[comp] : 0;   /* a uniform uint4 */
                R(j, R_A + comp)[l] = v;
                R(j, R_B + comp)[l] = gen(c->t, op, c->edge);
                R(j, R_DST + comp)[l] = before[j][comp][l] = rnd() & mask_of(c->t);
            }
        /* index / delta / id operands */
        for (uint32_t l = 0; l < w; l++) {
            uint64_t ix = 0;
            switch (fam) {
            case ISA_FAM_BCAST:
                if (oi->scope == ISA_SCOPE_WG)
                    ix = uid % c->shape[0];
                else if (oi->scope == ISA_SCOPE_NU)
                    ix = uid % 64;      /* fixed below to an active lane */
                else
                    ix = uid % sg->size;
                break;
            case ISA_FAM_SHUFFLE: case ISA_FAM_SHUFFLE_XOR:
                ix = rnd() % (w + 2); break;
            case ISA_FAM_SHUFFLE_UP: case ISA_FAM_SHUFFLE_DOWN:
                ix = rnd() % (w + 1); break;
            case ISA_FAM_SHUFFLE_UP2: case ISA_FAM_SHUFFLE_DOWN2:
                ix = rnd() % (w + 2); break;
            case ISA_FAM_ROTATE:   /* an int delta, uniform (spec) */
                ix = (uid >> 8) % 4 == 0 ? 0xffffff00u + uid % 256 : uid % (3 * w + 1); break;
            case ISA_FAM_BALLOT_BIT_EXTRACT:
                ix = rnd() % 140; break;
            default:
                ix = rnd() & 0xffffffffu;
            }
            if (fam == ISA_FAM_SHUFFLE_UP2 || fam == ISA_FAM_SHUFFLE_DOWN2)
                R(j, R_C)[l] = ix;
            else
                R(j, R_B)[l] = ix;
            if (fam == ISA_FAM_BCAST && oi->scope == ISA_SCOPE_WG) {
                R(j, R_C)[l] = (uid >> 20) % c->shape[1];
                R(j, R_D)[l] = (uid >> 40) % c->shape[2];
            }
        }
        if (fam == ISA_FAM_BCAST && oi->scope == ISA_SCOPE_NU) {
            /* a uniform id naming an active lane */
            uint32_t na = popc(X.act[j]), k = (uint32_t)(uid % na), id = 0;
            for (uint32_t l = 0; l < w; l++)
                if (X.act[j] >> l & 1 && k-- == 0)
                    id = l;
            for (uint32_t l = 0; l < w; l++)
                R(j, R_B)[l] = id;
        }
    }
}

/* value of source operand k component comp at work-item (j, l) */
static uint64_t src(uint32_t j, uint32_t k, uint32_t comp, uint32_t l)
{
    static const uint16_t regs[] = { R_A, R_B, R_C, R_D };
    return R(j, regs[k] + comp)[l];
}

static bool active(uint32_t j, uint32_t l)
{
    return l < X.sg[j].size && (X.act[j] >> l & 1);
}

static void check_fold(const run_cfg *c, const isa_op_info *oi)
{
    isa_family fam = oi->family;
    bool vote = fam == ISA_FAM_ALL || fam == ISA_FAM_ANY;
    isa_binop op = fam == ISA_FAM_ALL ? ISA_BINOP_LAND : fam == ISA_FAM_ANY ? ISA_BINOP_LOR : oi->binop;
    isa_type t = vote ? ISA_T_I32 : c->t;
    uint32_t nc = vote ? 1 : c->vec;
    for (uint32_t comp = 0; comp < nc; comp++)
        for (uint32_t j = 0; j < X.nsg; j++)
            for (uint32_t l = 0; l < X.sg[j].size; l++) {
                if (!active(j, l))
                    continue;
                /* the work-items of the scope, in increasing linear id */
                fold a;
                fold_start(&a, op, t);
                uint32_t me = j * c->w + l;
                for (uint32_t k = 0; k < X.n; k++) {
                    uint32_t jj = k / c->w, ll = k % c->w;
                    if (oi->scope != ISA_SCOPE_WG && jj != j)
                        continue;
                    if (!active(jj, ll))
                        continue;
                    if (c->cluster && ll / c->cluster != l / c->cluster)
                        continue;
                    if (fam == ISA_FAM_SCAN_INC && k > me)
                        continue;
                    if (fam == ISA_FAM_SCAN_EXC && k >= me)
                        continue;
                    uint64_t v = src(jj, 0, comp, ll);
                    if (vote)
                        v = v != 0;
                    fold_step(&a, op, t, v);
                }
                uint64_t got = R(j, R_DST + comp)[l];
                if (!fold_match(&a, op, t, got)) {
                    print_error("%s.%s x%u W=%u n=%u sg %u lane %u comp %u: got %#llx want %#llx / %g (%g)\n",
                                oi->mnemonic, isa_types[c->t].asm_name, c->vec, c->w, c->n, j, l,
                                comp, (unsigned long long)got, (unsigned long long)a.i, a.f,
                                as_d(t, got));
                    fail();
                }
            }
}

/* expected value of a data-moving function at (j, l), component comp;
 * sets *ok false where the spec leaves the result undefined and sgemu's
 * documented value is not asserted */
static uint64_t move_expect(const run_cfg *c, const isa_op_info *oi, uint32_t j,
                            uint32_t l, uint32_t comp)
{
    uint32_t w = c->w, n = X.sg[j].size;
    bool intel = oi->scope == ISA_SCOPE_SG && oi->family != ISA_FAM_ROTATE;
    uint32_t bound = intel ? w : n;   /* Intel: max sub-group size */
    uint64_t a = src(j, 1, 0, l);
    int64_t s = -1;
    uint32_t sj = j, op = 0;
    switch (oi->family) {
    case ISA_FAM_BCAST:
        if (oi->scope == ISA_SCOPE_WG) {
            uint64_t lin = a + src(j, 2, 0, l) * c->shape[0] +
                           src(j, 3, 0, l) * c->shape[0] * c->shape[1];
            if (c->ndim < 3)
                lin = a + (c->ndim > 1 ? src(j, 2, 0, l) * c->shape[0] : 0);
            sj = (uint32_t)(lin / w);
            s = (int64_t)(lin % w);
        } else {
            s = (int64_t)a;
        }
        break;
    case ISA_FAM_BCAST_FIRST:
        s = __builtin_ctzll(X.act[j]);
        break;
    case ISA_FAM_SHUFFLE:
        s = a < bound ? (int64_t)a : -1;
        break;
    case ISA_FAM_SHUFFLE_XOR:
        s = (l ^ a) < bound ? (int64_t)(l ^ a) : -1;
        break;
    case ISA_FAM_SHUFFLE_UP:
        s = (int64_t)l - (int64_t)a;
        break;
    case ISA_FAM_SHUFFLE_DOWN:
        s = (uint64_t)l + a < n ? (int64_t)(l + a) : -1;
        break;
    case ISA_FAM_SHUFFLE_DOWN2: {
        /* intel_sub_group_shuffle_down(current, next, delta) */
        uint64_t d = l + src(j, 2, 0, l);
        if (d < w) {
            s = (int64_t)d;
        } else if (d < 2 * (uint64_t)w) {
            s = (int64_t)(d - w);
            op = 1;
        }
        break;
    }
    case ISA_FAM_SHUFFLE_UP2: {
        /* intel_sub_group_shuffle_up(previous, current, delta) */
        int64_t d = (int64_t)l - (int64_t)src(j, 2, 0, l);
        if (d >= 0) {
            s = d;
            op = 1;
        } else if (d + (int64_t)w >= 0) {
            s = d + w;
        }
        break;
    }
    case ISA_FAM_ROTATE:
        if (oi->scope == ISA_SCOPE_CL) {
            uint32_t cs = c->cluster;
            int64_t in_cl = ((int64_t)(l % cs) + (int32_t)(uint32_t)a) % (int64_t)cs;
            s = (int64_t)(l - l % cs) + (in_cl < 0 ? in_cl + cs : in_cl);
        } else {
            /* remainder of (id + delta) by the max sub-group size */
            int64_t sum = (int64_t)l + (int32_t)(uint32_t)a;
            s = ((sum % (int64_t)w) + (int64_t)w) % (int64_t)w;
        }
        break;
    default:
        fail();
    }
    /* documented values: out of range or a missing lane reads 0; an
     * existing inactive lane reads its register's current content */
    if (s < 0 || s >= (int64_t)w || sj >= X.nsg || (uint32_t)s >= X.sg[sj].size)
        return 0;
    return src(sj, op, comp, (uint32_t)s);
}

static void check_move(const run_cfg *c, const isa_op_info *oi)
{
    for (uint32_t comp = 0; comp < c->vec; comp++)
        for (uint32_t j = 0; j < X.nsg; j++)
            for (uint32_t l = 0; l < X.sg[j].size; l++) {
                if (!active(j, l))
                    continue;
                uint64_t e = move_expect(c, oi, j, l, comp), got = R(j, R_DST + comp)[l];
                if (got != e) {
                    print_error("%s.%s x%u W=%u n=%u sg %u lane %u comp %u: got %#llx want %#llx\n",
                                oi->mnemonic, isa_types[c->t].asm_name, c->vec, c->w, c->n, j,
                                l, comp, (unsigned long long)got, (unsigned long long)e);
                    fail();
                }
            }
}

/* bit b of the uint4 held by (0, l) */
static uint32_t ubit(uint32_t l, uint32_t b)
{
    return b < 128 ? (uint32_t)(src(0, 0, b / 32, l) >> (b % 32)) & 1u : 0u;
}

static void check_ballot_vote(const run_cfg *c, const isa_op_info *oi)
{
    isa_family fam = oi->family;
    uint32_t w = c->w, n = X.sg[0].size;
    lanes_mask act = X.act[0] & X.sg[0].exists;
    for (uint32_t l = 0; l < n; l++) {
        if (!active(0, l))
            continue;
        uint64_t e[4] = { 0, 0, 0, 0 };
        uint32_t ncomp = 1;
        switch (fam) {
        case ISA_FAM_ELECT:
            e[0] = l == (uint32_t)__builtin_ctzll(act);
            break;
        case ISA_FAM_ALL_EQUAL: {
            e[0] = 1;
            double f0 = as_d(c->t, src(0, 0, 0, __builtin_ctzll(act)));
            for (uint32_t k = 0; k < n; k++) {
                if (!active(0, k))
                    continue;
                uint64_t v = src(0, 0, 0, k);
                if (isa_types[c->t].is_float ? !(as_d(c->t, v) == f0)
                                             : v != src(0, 0, 0, __builtin_ctzll(act)))
                    e[0] = 0;
            }
            break;
        }
        case ISA_FAM_BALLOT:
            ncomp = c->vec;
            for (uint32_t k = 0; k < n; k++)
                if (active(0, k) && (uint32_t)src(0, 0, 0, k) != 0)
                    e[k / 32] |= 1ull << (k % 32);
            break;
        case ISA_FAM_LANE_MASK:
            ncomp = c->vec;
            for (uint32_t b = 0; b < w; b++) {
                bool set = oi->binop == ISA_BINOP_EQ ? b == l : oi->binop == ISA_BINOP_GE ? b >= l :
                           oi->binop == ISA_BINOP_GT ? b > l : oi->binop == ISA_BINOP_LE ? b <= l : b < l;
                if (set)
                    e[b / 32] |= 1ull << (b % 32);
            }
            break;
        case ISA_FAM_INVERSE_BALLOT: e[0] = ubit(l, l); break;
        case ISA_FAM_BALLOT_BIT_EXTRACT: e[0] = ubit(l, (uint32_t)src(0, 1, 0, l)); break;
        case ISA_FAM_BALLOT_BIT_COUNT:
        case ISA_FAM_BALLOT_INC_SCAN:
        case ISA_FAM_BALLOT_EXC_SCAN: {
            uint32_t hi = fam == ISA_FAM_BALLOT_BIT_COUNT ? w : fam == ISA_FAM_BALLOT_INC_SCAN ? l + 1 : l;
            for (uint32_t b = 0; b < hi; b++)
                e[0] += ubit(l, b);
            break;
        }
        case ISA_FAM_BALLOT_FIND_LSB:
            e[0] = 0xffffffffu;
            for (uint32_t b = w; b-- > 0;)
                if (ubit(l, b))
                    e[0] = b;
            break;
        case ISA_FAM_BALLOT_FIND_MSB:
            e[0] = 0xffffffffu;
            for (uint32_t b = 0; b < w; b++)
                if (ubit(l, b))
                    e[0] = b;
            break;
        default:
            fail();
        }
        for (uint32_t k = 0; k < ncomp; k++) {
            uint64_t got = R(0, R_DST + k)[l];
            if (got != e[k]) {
                print_error("%s x%u W=%u n=%u lane %u word %u: got %#llx want %#llx\n",
                            oi->mnemonic, c->vec, w, c->n, l, k, (unsigned long long)got,
                            (unsigned long long)e[k]);
                fail();
            }
        }
    }
}

static uint32_t runs_done;
static uint32_t covered[ISA_OP_COUNT][ISA_T_COUNT][6];

static void run_one(const run_cfg *c)
{
    const isa_op_info *oi = &isa_ops[c->op];
    wg_init(c->w, c->n, c->shape);
    setup(c);
    isa_inst in = make_inst(c);
    nnotes = 0;
    if (oi->scope == ISA_SCOPE_WG) {
        coll_report rep;
        coll_status st = coll_execute(&env, &in, &X.g, &rep);
        if (st != COLL_OK)
            print_error("%s.%s W=%u n=%u: %s\n", oi->mnemonic, isa_types[c->t].asm_name,
                        c->w, c->n, coll_status_text[st]);
        assert_int_equal(st, COLL_OK);
    } else {
        for (uint32_t j = 0; j < X.nsg; j++) {
            coll_group g = X.g;
            g.nsg = 1;
            g.sg = &X.p[j];
            g.active = &X.act[j];
            g.first_sg = j;
            coll_report rep;
            coll_status st = coll_execute(&env, &in, &g, &rep);
            if (st != COLL_OK)
                print_error("%s.%s x%u W=%u n=%u sg %u: %s lane %u value %lld\n", oi->mnemonic,
                            isa_types[c->t].asm_name, c->vec, c->w, c->n, j,
                            coll_status_text[st], rep.lane, (long long)rep.value);
            assert_int_equal(st, COLL_OK);
        }
    }
    /* the references look at one subgroup at a time for SG scope */
    isa_family fam = oi->family;
    if (oi->scope == ISA_SCOPE_WG || fam == ISA_FAM_REDUCE || fam == ISA_FAM_SCAN_INC ||
        fam == ISA_FAM_SCAN_EXC || fam == ISA_FAM_ALL || fam == ISA_FAM_ANY) {
        if (fam == ISA_FAM_BCAST)
            check_move(c, oi);
        else
            check_fold(c, oi);
    } else if (fam == ISA_FAM_ELECT || fam == ISA_FAM_ALL_EQUAL || fam == ISA_FAM_BALLOT ||
               fam == ISA_FAM_LANE_MASK || is_ballot_query(fam)) {
        /* one subgroup at a time: the reference reads subgroup 0 */
        for (uint32_t j = 0; j < X.nsg; j++) {
            if (j) {  /* move subgroup j's registers into slot 0's view */
                lanes_sg tmp = X.sg[0];
                lanes_mask ta = X.act[0];
                X.sg[0] = X.sg[j];
                X.act[0] = X.act[j];
                check_ballot_vote(c, oi);
                X.sg[j] = X.sg[0];
                X.act[j] = X.act[0];
                X.sg[0] = tmp;
                X.act[0] = ta;
            } else {
                check_ballot_vote(c, oi);
            }
        }
    } else {
        check_move(c, oi);
    }
    /* inactive and missing lanes keep their destination */
    uint32_t nd = fam == ISA_FAM_BALLOT || fam == ISA_FAM_LANE_MASK ? c->vec :
                  is_ballot_query(fam) ? 1 : c->vec;
    for (uint32_t j = 0; j < X.nsg; j++)
        for (uint32_t comp = 0; comp < nd; comp++)
            for (uint32_t l = 0; l < c->w; l++)
                if (!active(j, l))
                    assert_true(R(j, R_DST + comp)[l] == before[j][comp][l]);
    test_wg_free(&X);
    runs_done++;
    for (uint32_t wi = 0; wi < 6; wi++)
        if (widths[wi] == c->w)
            covered[c->op][c->t][wi]++;
}

static bool is_coll_row(uint32_t op)
{
    return isa_op_cross_lane(op) && !isa_op_block_io(op);
}

/* 3-D shapes for the work-group sizes */
static void shape_for(uint32_t n, uint32_t pick, uint32_t s[3])
{
    static const uint32_t shapes[][4] = {
        { 1, 1, 1, 1 }, { 7, 7, 1, 1 }, { 7, 1, 7, 1 }, { 7, 1, 1, 7 },
        { 8, 2, 2, 2 }, { 8, 4, 2, 1 }, { 8, 1, 8, 1 },
        { 24, 2, 3, 4 }, { 24, 4, 3, 2 }, { 24, 6, 4, 1 },
        { 33, 3, 11, 1 }, { 33, 11, 1, 3 }, { 33, 33, 1, 1 },
        { 100, 5, 5, 4 }, { 100, 10, 10, 1 }, { 100, 4, 25, 1 },
        { 256, 8, 8, 4 }, { 256, 16, 4, 4 }, { 256, 4, 4, 16 },
    };
    uint32_t found = 0;
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
        if (shapes[i][0] == n && found++ == pick % 3) {
            s[0] = shapes[i][1];
            s[1] = shapes[i][2];
            s[2] = shapes[i][3];
            return;
        }
    s[0] = n;
    s[1] = s[2] = 1;
}

/* every collective row x type x width, sampled work-group sizes, vector
 * widths and input kinds (a fixed seed: the runs are reproducible) */
static void test_matrix(void **state)
{
    (void)state;
    coll_options_default(&opt);
    memset(&uop_shapes, 0, sizeof uop_shapes);
    opt.check = true;
    uint32_t turn = 0;
    for (uint32_t op = 0; op < ISA_OP_COUNT; op++) {
        if (!is_coll_row(op))
            continue;
        const isa_op_info *oi = &isa_ops[op];
        isa_family fam = oi->family;
        bool ballot_like = fam == ISA_FAM_BALLOT || fam == ISA_FAM_LANE_MASK || is_ballot_query(fam);
        for (uint32_t t = 0; t < ISA_T_COUNT; t++) {
            if (!(oi->types >> t & 1))
                continue;
            for (uint32_t wi = 0; wi < 6; wi++) {
                uint32_t w = widths[wi];
                /* every work-group size; vector widths and input kinds
                 * cycle */
                for (uint32_t rep = 0; rep < 7; rep++, turn++) {
                    run_cfg c;
                    memset(&c, 0, sizeof c);
                    c.op = (isa_opcode)op;
                    c.t = (isa_type)t;
                    c.w = w;
                    c.n = wg_sizes[rep];
                    c.edge = (turn & 1) != 0;
                    c.vec = 1;
                    if (ballot_like)
                        c.vec = 4;
                    else if ((oi->types & ISA_TM_VEC) && rep % 2 == 1)
                        c.vec = vecs[turn / 2 % 5];
                    if (oi->scope == ISA_SCOPE_CL)
                        c.cluster = 1u << (rnd() % (coll_log2(w) + 1));
                    c.ndim = 1 + turn % 3;
                    shape_for(c.n, turn / 3, c.shape);
                    if (c.ndim == 1) {
                        c.shape[0] = c.n;
                        c.shape[1] = c.shape[2] = 1;
                    } else if (c.ndim == 2) {
                        c.shape[0] = c.shape[0];
                        c.shape[1] = c.n / c.shape[0];
                        c.shape[2] = 1;
                    }
                    run_one(&c);
                }
            }
        }
    }
    /* every function, type and width appeared */
    for (uint32_t op = 0; op < ISA_OP_COUNT; op++)
        for (uint32_t t = 0; is_coll_row(op) && t < ISA_T_COUNT; t++)
            for (uint32_t wi = 0; wi < 6; wi++)
                if (isa_ops[op].types >> t & 1)
                    assert_true(covered[op][t][wi] > 0);
    opt.check = false;
}

/* work-group functions on every work-group size (and 3-D broadcast
 * shapes) for every width, int and float */
static void test_wg_sizes(void **state)
{
    (void)state;
    coll_options_default(&opt);
    memset(&uop_shapes, 0, sizeof uop_shapes);
    opt.check = true;
    static const isa_opcode ops[] = {
        ISA_OP_WG_ALL, ISA_OP_WG_ANY, ISA_OP_WG_BROADCAST, ISA_OP_WG_REDUCE_ADD,
        ISA_OP_WG_REDUCE_MIN, ISA_OP_WG_REDUCE_MAX, ISA_OP_WG_SCAN_INC_ADD,
        ISA_OP_WG_SCAN_INC_MIN, ISA_OP_WG_SCAN_INC_MAX, ISA_OP_WG_SCAN_EXC_ADD,
        ISA_OP_WG_SCAN_EXC_MIN, ISA_OP_WG_SCAN_EXC_MAX,
    };
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        for (uint32_t wi = 0; wi < 6; wi++)
            for (uint32_t si = 0; si < 7; si++) {
                run_cfg c;
                memset(&c, 0, sizeof c);
                c.op = ops[i];
                c.t = isa_ops[ops[i]].types >> ISA_T_F32 & 1 ? (si & 1 ? ISA_T_F32 : ISA_T_I64) : ISA_T_I32;
                c.w = widths[wi];
                c.n = wg_sizes[si];
                c.vec = 1;
                c.edge = (si + wi) % 3 == 0;
                c.ndim = ops[i] == ISA_OP_WG_BROADCAST ? 1 + (si + wi) % 3 : 1;
                shape_for(c.n, wi, c.shape);
                if (c.ndim == 1) {
                    c.shape[0] = c.n;
                    c.shape[1] = c.shape[2] = 1;
                } else if (c.ndim == 2) {
                    c.shape[1] = c.n / c.shape[0];
                    c.shape[2] = 1;
                }
                run_one(&c);
            }
    opt.check = false;
}

/* the same sampled matrix of sub-group functions under the other
 * algorithms (serial / logstep / hw reduce, crossbar shuffles) and the
 * shuffle lowering */
static void test_other_algorithms(void **state)
{
    (void)state;
    for (int a = 0; a < 5; a++) {
        coll_options_default(&opt);
        memset(&uop_shapes, 0, sizeof uop_shapes);
        opt.check = true;
        /* a = 3, 4: the shuffle lowering with the tree and the hw reduce */
        opt.reduce_algo = (uint8_t)(a == 0 ? COLL_RED_SERIAL : a == 1 || a == 4 ? COLL_RED_HW
                                                                               : COLL_RED_TREE);
        opt.scan_algo = (uint8_t)(a == 0 ? COLL_SCAN_SERIAL : a == 2 ? COLL_SCAN_BLOCKED
                                                                     : COLL_SCAN_LOGSTEP);
        opt.shuffle_algo = (uint8_t)(a == 1 || a >= 3 ? COLL_SHUF_CROSSBAR : COLL_SHUF_INDIRECT);
        opt.lowering = (uint8_t)(a >= 3 ? COLL_LOWER_SHUFFLE : COLL_LOWER_REGION);
        opt.indirect_lanes = (uint16_t)(a == 2 ? 8 : 16);
        for (uint32_t op = 0; op < ISA_OP_COUNT; op++) {
            if (!is_coll_row(op))
                continue;
            const isa_op_info *oi = &isa_ops[op];
            static const isa_type ts[] = { ISA_T_I32, ISA_T_U8, ISA_T_F64, ISA_T_F16 };
            for (uint32_t k = 0; k < 4; k++) {
                if (!(oi->types >> ts[k] & 1))
                    continue;
                run_cfg c;
                memset(&c, 0, sizeof c);
                c.op = (isa_opcode)op;
                c.t = ts[k];
                c.w = widths[(op + k + (uint32_t)a) % 6];
                c.n = wg_sizes[(op + k) % 7];
                c.vec = oi->family == ISA_FAM_BALLOT || oi->family == ISA_FAM_LANE_MASK ||
                        is_ballot_query(oi->family) ? 4 : 1;
                c.edge = k & 1;
                if (oi->scope == ISA_SCOPE_CL)
                    c.cluster = 1u << (rnd() % (coll_log2(c.w) + 1));
                c.ndim = 1;
                c.shape[0] = c.n;
                c.shape[1] = c.shape[2] = 1;
                run_one(&c);
            }
        }
    }
    coll_options_default(&opt);
    memset(&uop_shapes, 0, sizeof uop_shapes);
}

/* ---------------------------------------------------- fault injection */

static coll_uop_kind fault_kind;
static uint32_t fault_left;
static void corrupt(coll_uop_kind k, uint64_t *d, uint32_t slot)
{
    if (k != fault_kind || fault_left == 0)
        return;
    if (--fault_left == 0)
        d[slot] ^= 0x2;   /* flip one bit of one lane */
}

/* a corrupted micro-op result is caught by check mode (and is invisible
 * without it), for folds, moves, ballots, votes and work-group exchanges */
static void test_check_catches_fault(void **state)
{
    (void)state;
    static const struct { isa_opcode op; isa_type t; uint32_t vec; coll_uop_kind k; uint32_t nth; } cases[] = {
        { ISA_OP_SG_REDUCE_ADD, ISA_T_I32, 1, COLL_UOP_BCAST, 1 },
        { ISA_OP_SG_SCAN_INC_MAX, ISA_T_U16, 1, COLL_UOP_ALU, 1 },
        { ISA_OP_SG_NU_REDUCE_MUL, ISA_T_I64, 1, COLL_UOP_ALU, 2 },
        { ISA_OP_SG_CL_REDUCE_XOR, ISA_T_U8, 1, COLL_UOP_MOV, 3 },
        { ISA_OP_INTEL_SHUFFLE, ISA_T_I32, 4, COLL_UOP_MOV_INDIRECT, 3 },
        { ISA_OP_INTEL_SHUFFLE_DOWN, ISA_T_U64, 2, COLL_UOP_MOV_INDIRECT, 2 },
        { ISA_OP_SG_BROADCAST, ISA_T_I16, 3, COLL_UOP_BCAST, 3 },
        { ISA_OP_SG_BALLOT, ISA_T_U32, 4, COLL_UOP_BALLOT, 1 },
        { ISA_OP_SG_BALLOT_BIT_COUNT, ISA_T_U32, 4, COLL_UOP_BALLOT, 1 },
        { ISA_OP_SG_GT_MASK, ISA_T_U32, 4, COLL_UOP_BALLOT, 1 },
        { ISA_OP_SG_ELECT, ISA_T_I32, 1, COLL_UOP_ALU, 1 },
        { ISA_OP_SG_NU_ALL_EQUAL, ISA_T_I32, 1, COLL_UOP_BCAST, 2 },
        { ISA_OP_WG_SCAN_EXC_ADD, ISA_T_I32, 1, COLL_UOP_SLM_LOAD, 2 },
        { ISA_OP_WG_BROADCAST, ISA_T_U32, 1, COLL_UOP_SLM_LOAD, 1 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        for (int check = 0; check < 2; check++) {
            coll_options_default(&opt);
            memset(&uop_shapes, 0, sizeof uop_shapes);
            opt.check = check;
            run_cfg c;
            memset(&c, 0, sizeof c);
            c.op = cases[i].op;
            c.t = cases[i].t;
            c.vec = cases[i].vec;
            c.w = 16;
            c.n = isa_ops[c.op].scope == ISA_SCOPE_WG ? 48 : 16;
            c.ndim = 1;
            c.shape[0] = c.n;
            c.shape[1] = c.shape[2] = 1;
            if (isa_ops[c.op].scope == ISA_SCOPE_CL)
                c.cluster = 4;
            wg_init(c.w, c.n, c.shape);
            setup(&c);
            for (uint32_t j = 0; j < X.nsg; j++)
                X.act[j] = X.sg[j].exists;   /* lane 0 takes part */
            for (uint32_t j = 0; j < X.nsg; j++)
                for (uint32_t l = 0; l < 16; l++) {   /* defined indices */
                    if (isa_ops[c.op].family != ISA_FAM_BCAST)
                        R(j, R_B)[l] = (l * 5 + 1) % 16;
                    R(j, R_C)[l] = 1;
                }
            if (c.op == ISA_OP_SG_NU_ALL_EQUAL)
                for (uint32_t l = 0; l < 16; l++)
                    R(0, R_A)[l] = 5;
            isa_inst in = make_inst(&c);
            fault_kind = cases[i].k;
            fault_left = cases[i].nth;
            coll_fault_hook = corrupt;
            coll_report rep;
            coll_status st = coll_execute(&env, &in, &X.g, &rep);
            coll_fault_hook = NULL;
            assert_int_equal(fault_left, 0);   /* the fault was injected */
            if (check) {
                if (st != COLL_CHECK_MISMATCH)
                    print_error("case %zu (%s) not caught\n", i, isa_ops[c.op].mnemonic);
                assert_int_equal(st, COLL_CHECK_MISMATCH);
                assert_true(rep.fatal);
            } else {
                assert_int_equal(st, COLL_OK);
            }
            test_wg_free(&X);
        }
    }
    coll_options_default(&opt);
    memset(&uop_shapes, 0, sizeof uop_shapes);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_matrix),
        cmocka_unit_test(test_wg_sizes),
        cmocka_unit_test(test_other_algorithms),
        cmocka_unit_test(test_check_catches_fault),
    };
    int r = cmocka_run_group_tests(tests, NULL, NULL);
    printf("%u runs\n", runs_done);
    return r;
}
