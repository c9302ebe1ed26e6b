/* Tests of lanes_exec_alu (lanes/alu.c, lanes/cvt.c) and the scalar
 * operators of lanes/regs.c.  References use C typed arithmetic per type
 * (int8_t ... double), binary16 through ref_half.h, and directed rounding
 * through the FPU rounding mode, none of which the code under test uses. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <fenv.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lanes.h"
#include "ref_half.h"

__extension__ typedef __int128 i128;
__extension__ typedef unsigned __int128 u128;

static const uint32_t widths[] = { 1, 8, 16, 32, 64 };
#define NW 5

/* ------------------------------------------------------------ randomness */

static uint64_t rng_state;
static uint64_t rnd64(void)
{
    /* xorshift64*: fixed seeds make failures reproducible */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * UINT64_C(2685821657736338717);
}

static float bf32(uint64_t v) { uint32_t u = (uint32_t)v; float f; memcpy(&f, &u, 4); return f; }
static uint64_t f32b(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static double bf64(uint64_t v) { double d; memcpy(&d, &v, 8); return d; }
static uint64_t f64b(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }

static unsigned tbits(isa_type t) { return isa_types[t].bytes * 8u; }
static uint64_t tmask(isa_type t)
{
    return tbits(t) == 64 ? ~UINT64_C(0) : (UINT64_C(1) << tbits(t)) - 1;
}

/* edge values of a type, as slot bits */
static int edges(isa_type t, uint64_t *out)
{
    int n = 0;
    uint64_t m = tmask(t);
    switch (t) {
    case ISA_T_F16: {
        static const uint16_t e[] = { 0, 0x8000, 0x3c00, 0xbc00, 0x7bff,
            0xfbff, 0x7c00, 0xfc00, 0x7e00, 0x7c01, 0x0001, 0x8001, 0x03ff,
            0x0400, 0x3555, 0x4248, 0xc100, 0x5bf8 };
        for (size_t i = 0; i < sizeof e / sizeof e[0]; i++)
            out[n++] = e[i];
        return n;
    }
    case ISA_T_F32: {
        static const float e[] = { 0.0f, -0.0f, 1.0f, -1.0f, FLT_MAX,
            -FLT_MAX, INFINITY, -INFINITY, NAN, 0x1p-149f, -0x1p-149f,
            FLT_MIN, 0.5f, 2.5f, -3.5f, 1e10f, 3e9f, -3e9f, 0.1f, 65520.0f };
        for (size_t i = 0; i < sizeof e / sizeof e[0]; i++)
            out[n++] = f32b(e[i]);
        out[n++] = 0x7f800001u;     /* signalling NaN */
        return n;
    }
    case ISA_T_F64: {
        static const double e[] = { 0.0, -0.0, 1.0, -1.0, DBL_MAX,
            -DBL_MAX, INFINITY, -INFINITY, NAN, 0x1p-1074, -0x1p-1074,
            DBL_MIN, 0.5, 2.5, -3.5, 1e20, 9.3e18, -9.3e18, 0.1,
            0x1.fffffffffffffp52, 4294967296.5 };
        for (size_t i = 0; i < sizeof e / sizeof e[0]; i++)
            out[n++] = f64b(e[i]);
        return n;
    }
    default: {
        uint64_t sb = UINT64_C(1) << (tbits(t) - 1);
        uint64_t e[] = { 0, 1, 2, m, m - 1, sb, sb - 1, sb + 1, 3, 7,
                         (uint64_t)tbits(t), (uint64_t)tbits(t) + 1, 0x55 };
        for (size_t i = 0; i < sizeof e / sizeof e[0]; i++)
            out[n++] = e[i] & m;
        return n;
    }
    }
}

static uint64_t rand_val(isa_type t)
{
    uint64_t r = rnd64();
    switch (rnd64() % 4) {
    case 0:
        if (t == ISA_T_F32)
            return f32b((float)((int64_t)(r % 2001) - 1000) / 8.0f);
        if (t == ISA_T_F64)
            return f64b((double)((int64_t)(r % 2001) - 1000) / 8.0);
        if (t == ISA_T_F16)
            return ref_round16((long double)((int64_t)(r % 2001) - 1000) / 8, RM_NEAR);
        return (r % 17) - 8 ? ((r % 17) - 8) & tmask(t) : 0;
    default:
        return r & tmask(t);
    }
}

/* ------------------------------------------------------------ references */

#define INT_REF(NAME, T, UT, N, MINV) \
static uint64_t NAME(isa_family f, uint64_t a, uint64_t b, uint64_t c) \
{ \
    const T x = (T)a, y = (T)b, z = (T)c; \
    const UT ux = (UT)a, uy = (UT)b, uz = (UT)c; \
    const unsigned s = (unsigned)(uy % (N)); \
    UT r = 0; \
    (void)z; \
    switch (f) { \
    case ISA_FAM_ADD: r = (UT)(ux + uy); break; \
    case ISA_FAM_SUB: r = (UT)(ux - uy); break; \
    case ISA_FAM_MUL: r = (UT)((u128)ux * uy); break; \
    case ISA_FAM_MAD: r = (UT)((UT)((u128)ux * uy) + uz); break; \
    case ISA_FAM_AND: r = ux & uy; break; \
    case ISA_FAM_OR: r = ux | uy; break; \
    case ISA_FAM_XOR: r = ux ^ uy; break; \
    case ISA_FAM_NOT: r = (UT)~ux; break; \
    case ISA_FAM_NEG: r = (UT)(0 - ux); break; \
    case ISA_FAM_SHL: r = (UT)((u128)ux << s); break; \
    case ISA_FAM_SHR: r = (UT)(x >> s); break; \
    case ISA_FAM_MIN: r = (UT)(x < y ? x : y); break; \
    case ISA_FAM_MAX: r = (UT)(x > y ? x : y); break; \
    case ISA_FAM_ABS: \
        r = (UT)((MINV) != 0 && ((ux >> ((N) - 1)) & 1) ? (UT)0 - ux : ux); \
        break; \
    case ISA_FAM_MUL_HI: \
        r = (MINV) != 0 ? (UT)(((i128)x * (i128)y) >> (N)) \
                        : (UT)(((u128)ux * uy) >> (N)); \
        break; \
    case ISA_FAM_CLZ: { \
        unsigned k = 0; \
        while (k < (N) && !((ux >> ((N) - 1 - k)) & 1)) \
            k++; \
        r = (UT)k; \
        break; \
    } \
    case ISA_FAM_POPCOUNT: { \
        unsigned k = 0; \
        for (unsigned i = 0; i < (N); i++) \
            k += (ux >> i) & 1; \
        r = (UT)k; \
        break; \
    } \
    case ISA_FAM_DIV: \
        if (y == 0) r = (UT)~(UT)0; \
        else if ((MINV) != 0 && x == (T)(MINV) && y == (T)-1) r = ux; \
        else r = (UT)(x / y); \
        break; \
    case ISA_FAM_REM: \
        if (y == 0) r = ux; \
        else if ((MINV) != 0 && y == (T)-1) r = 0; \
        else r = (UT)(x % y); \
        break; \
    default: fail_msg("no int reference for family %d", (int)f); \
    } \
    return (uint64_t)r; \
}

INT_REF(ref_i8, int8_t, uint8_t, 8, INT8_MIN)
INT_REF(ref_u8, uint8_t, uint8_t, 8, 0)
INT_REF(ref_i16, int16_t, uint16_t, 16, INT16_MIN)
INT_REF(ref_u16, uint16_t, uint16_t, 16, 0)
INT_REF(ref_i32, int32_t, uint32_t, 32, INT32_MIN)
INT_REF(ref_u32, uint32_t, uint32_t, 32, 0)
INT_REF(ref_i64, int64_t, uint64_t, 64, INT64_MIN)
INT_REF(ref_u64, uint64_t, uint64_t, 64, 0)

/* fmin/fmax as the ISA defines them (NaN ignored, -0 < +0) */
static double ref_min(double x, double y, int is_max)
{
    if (isnan(x)) return y;
    if (isnan(y)) return x;
    if (x == y) {
        if (x != 0) return x;
        int neg = signbit(x) || signbit(y);
        int pos = !signbit(x) || !signbit(y);
        return is_max ? (pos ? 0.0 : -0.0) : (neg ? -0.0 : 0.0);
    }
    return (is_max ? x > y : x < y) ? x : y;
}

static uint64_t ref_f32(isa_family f, uint64_t a, uint64_t b, uint64_t c)
{
    const float x = bf32(a), y = bf32(b), z = bf32(c);
    volatile float p;
    switch (f) {
    case ISA_FAM_ADD: return f32b(x + y);
    case ISA_FAM_SUB: return f32b(x - y);
    case ISA_FAM_MUL: return f32b(x * y);
    case ISA_FAM_DIV: return f32b(x / y);
    case ISA_FAM_REM: return f32b(fmodf(x, y));
    case ISA_FAM_MAD: p = x * y; return f32b(p + z);
    case ISA_FAM_FMA: return f32b(fmaf(x, y, z));
    case ISA_FAM_MIN: return f32b((float)ref_min(x, y, 0));
    case ISA_FAM_MAX: return f32b((float)ref_min(x, y, 1));
    case ISA_FAM_ABS: return a & 0x7fffffffu;
    case ISA_FAM_NEG: return (a & 0xffffffffu) ^ 0x80000000u;
    case ISA_FAM_SQRT: return f32b(sqrtf(x));
    case ISA_FAM_RCP: return f32b(1.0f / x);
    case ISA_FAM_RSQRT: return f32b((float)(1.0 / sqrt(x)));
    case ISA_FAM_EXP2: return f32b((float)exp2(x));
    case ISA_FAM_LOG2: return f32b((float)log2(x));
    case ISA_FAM_SIN: return f32b((float)sin(x));
    case ISA_FAM_COS: return f32b((float)cos(x));
    default: fail_msg("no f32 reference for %d", (int)f);
    }
    return 0;
}

static uint64_t ref_f64(isa_family f, uint64_t a, uint64_t b, uint64_t c)
{
    const double x = bf64(a), y = bf64(b), z = bf64(c);
    volatile double p;
    switch (f) {
    case ISA_FAM_ADD: return f64b(x + y);
    case ISA_FAM_SUB: return f64b(x - y);
    case ISA_FAM_MUL: return f64b(x * y);
    case ISA_FAM_DIV: return f64b(x / y);
    case ISA_FAM_REM: return f64b(fmod(x, y));
    case ISA_FAM_MAD: p = x * y; return f64b(p + z);
    case ISA_FAM_FMA: return f64b(fma(x, y, z));
    case ISA_FAM_MIN: return f64b(ref_min(x, y, 0));
    case ISA_FAM_MAX: return f64b(ref_min(x, y, 1));
    case ISA_FAM_ABS: return a & ~(UINT64_C(1) << 63);
    case ISA_FAM_NEG: return a ^ (UINT64_C(1) << 63);
    case ISA_FAM_SQRT: return f64b(sqrt(x));
    case ISA_FAM_RCP: return f64b(1.0 / x);
    case ISA_FAM_RSQRT: return f64b(1.0 / sqrt(x));
    case ISA_FAM_EXP2: return f64b(exp2(x));
    case ISA_FAM_LOG2: return f64b(log2(x));
    case ISA_FAM_SIN: return f64b(sin(x));
    case ISA_FAM_COS: return f64b(cos(x));
    default: fail_msg("no f64 reference for %d", (int)f);
    }
    return 0;
}

/* exact a*b+c of three halves, by integers: each half is M * 2^-24 */
static uint16_t ref_fma16(uint16_t a, uint16_t b, uint16_t c)
{
    double x = ref_half(a), y = ref_half(b), z = ref_half(c);
    if (isnan(x) || isnan(y) || isnan(z) || isinf(x) || isinf(y) || isinf(z))
        return ref_round16((long double)x * y + z, RM_NEAR);
    i128 ma = (i128)ldexp(x, 24), mb = (i128)ldexp(y, 24), mc = (i128)ldexp(z, 24);
    i128 S = ma * mb + mc * ((i128)1 << 24);   /* value = S * 2^-48 */
    if (S == 0) {
        /* exact zero: sign by IEEE rules for x*y + z */
        int pneg = signbit(x) != signbit(y);
        int zneg = signbit(z) != 0;
        return (pneg && zneg) ? 0x8000 : 0;
    }
    uint16_t sgn = S < 0 ? 0x8000 : 0;
    i128 A = S < 0 ? -S : S;
    /* halves scaled to 2^-48 units: ref_half(h) * 2^48 is an integer */
    #define SC(h) ((i128)ldexp(ref_half(h), 48))
    if (A >= (i128)65520 << 48)
        return sgn | 0x7c00;
    uint16_t lo = 0, hi = 0x7bff;
    if (A >= SC(hi))
        return sgn | hi;
    while (hi - lo > 1) {
        uint16_t mid = (uint16_t)((lo + hi) / 2);
        if (SC(mid) <= A) lo = mid; else hi = mid;
    }
    i128 dl = A - SC(lo), dh = SC(hi) - A;
    #undef SC
    if (dl < dh) return sgn | lo;
    if (dh < dl) return sgn | hi;
    return sgn | ((lo & 1) ? hi : lo);
}

static uint64_t ref_f16(isa_family f, uint64_t a, uint64_t b, uint64_t c)
{
    const double x = ref_half((uint16_t)a), y = ref_half((uint16_t)b),
                 z = ref_half((uint16_t)c);
#define R16(v) ((uint64_t)ref_round16((long double)(v), RM_NEAR))
    switch (f) {
    case ISA_FAM_ADD: return R16(x + y);
    case ISA_FAM_SUB: return R16(x - y);
    case ISA_FAM_MUL: return R16(x * y);
    case ISA_FAM_DIV: return R16((long double)x / y);
    case ISA_FAM_REM: return R16(fmod(x, y));
    case ISA_FAM_MAD: return R16(ref_half((uint16_t)R16(x * y)) + z);
    case ISA_FAM_FMA: return ref_fma16((uint16_t)a, (uint16_t)b, (uint16_t)c);
    case ISA_FAM_MIN: return R16(ref_min(x, y, 0));
    case ISA_FAM_MAX: return R16(ref_min(x, y, 1));
    case ISA_FAM_ABS: return a & 0x7fff;
    case ISA_FAM_NEG: return (a ^ 0x8000) & 0xffff;
    case ISA_FAM_SQRT: return R16(sqrtl(x));
    case ISA_FAM_RCP: return R16(1.0L / x);
    case ISA_FAM_RSQRT: return R16(1.0 / sqrt(x));
    case ISA_FAM_EXP2: return R16(exp2(x));
    case ISA_FAM_LOG2: return R16(log2(x));
    case ISA_FAM_SIN: return R16(sin(x));
    case ISA_FAM_COS: return R16(cos(x));
    default: fail_msg("no f16 reference for %d", (int)f);
    }
#undef R16
    return 0;
}

static uint64_t ref_alu(isa_family f, isa_type t, uint64_t a, uint64_t b,
                        uint64_t c)
{
    switch (t) {
    case ISA_T_I8: return ref_i8(f, a, b, c);
    case ISA_T_U8: return ref_u8(f, a, b, c);
    case ISA_T_I16: return ref_i16(f, a, b, c);
    case ISA_T_U16: return ref_u16(f, a, b, c);
    case ISA_T_I32: return ref_i32(f, a, b, c);
    case ISA_T_U32: return ref_u32(f, a, b, c);
    case ISA_T_I64: return ref_i64(f, a, b, c);
    case ISA_T_U64: return ref_u64(f, a, b, c);
    case ISA_T_F16: return ref_f16(f, a, b, c);
    case ISA_T_F32: return ref_f32(f, a, b, c);
    default: return ref_f64(f, a, b, c);
    }
}

static int is_nan_bits(isa_type t, uint64_t v)
{
    if (t == ISA_T_F16) return ref_half_isnan(v);
    if (t == ISA_T_F32) return isnan(bf32(v));
    if (t == ISA_T_F64) return isnan(bf64(v));
    return 0;
}

/* ----------------------------------------------------------- harnesses */

#define NREG 48

static isa_operand reg(uint16_t r)
{
    isa_operand o;
    memset(&o, 0, sizeof o);
    o.kind = ISA_OPND_REG;
    o.reg = r;
    return o;
}

static isa_operand pred(uint16_t p, int neg)
{
    isa_operand o = reg(p);
    o.kind = ISA_OPND_PRED;
    o.negate = (uint8_t)neg;
    return o;
}

static isa_inst mkinst(isa_opcode op, isa_type t)
{
    isa_inst in;
    memset(&in, 0, sizeof in);
    in.op = (uint16_t)op;
    in.type = (uint8_t)t;
    in.src_type = (uint8_t)t;
    in.vec = 1;
    return in;
}

static lanes_mask rand_mask(uint32_t w, int i)
{
    lanes_mask full = lanes_mask_first(w);
    if (i % 3 == 0)
        return full;
    return rnd64() & full;
}

static int nsrc(isa_shape s)
{
    return s == ISA_SHAPE_D_S ? 1 : s == ISA_SHAPE_D_S_S ? 2 : 3;
}

static int arith_family(isa_family f)
{
    switch (f) {
    case ISA_FAM_ADD: case ISA_FAM_SUB: case ISA_FAM_MUL: case ISA_FAM_MUL_HI:
    case ISA_FAM_MAD: case ISA_FAM_FMA: case ISA_FAM_DIV: case ISA_FAM_REM:
    case ISA_FAM_MIN: case ISA_FAM_MAX: case ISA_FAM_ABS: case ISA_FAM_NEG:
    case ISA_FAM_AND: case ISA_FAM_OR: case ISA_FAM_XOR: case ISA_FAM_NOT:
    case ISA_FAM_SHL: case ISA_FAM_SHR: case ISA_FAM_CLZ: case ISA_FAM_POPCOUNT:
    case ISA_FAM_SQRT: case ISA_FAM_RSQRT: case ISA_FAM_RCP: case ISA_FAM_EXP2:
    case ISA_FAM_LOG2: case ISA_FAM_SIN: case ISA_FAM_COS:
        return 1;
    default:
        return 0;
    }
}

static void check_lane(const char *what, isa_type t, uint32_t l, uint64_t got,
                       uint64_t want, uint64_t a, uint64_t b, uint64_t c)
{
    if (got == want)
        return;
    if (is_nan_bits(t, want) && is_nan_bits(t, got))
        return;
    fail_msg("%s.%s lane %u: a=%#" PRIx64 " b=%#" PRIx64 " c=%#" PRIx64
             " got %#" PRIx64 " want %#" PRIx64, what, isa_types[t].asm_name,
             l, a, b, c, got, want);
}

static void test_arith(void **st)
{
    (void)st;
    int ops_tested = 0;
    for (unsigned op = 0; op < ISA_OP_COUNT; op++) {
        const isa_op_info *oi = &isa_ops[op];
        if (!arith_family(oi->family))
            continue;
        ops_tested++;
        for (unsigned t = 0; t < ISA_T_COUNT; t++) {
            if (!(oi->types & (1u << t)))
                continue;
            rng_state = 0x9e3779b97f4a7c15ull ^ (op * 131 + t);
            uint64_t ev[32];
            int ne = edges((isa_type)t, ev);
            const int ns = nsrc(oi->shape);
            const int divi = (oi->family == ISA_FAM_DIV ||
                              oi->family == ISA_FAM_REM) && !isa_types[t].is_float;
            for (int wi = 0; wi < NW; wi++) {
                const uint32_t w = widths[wi];
                lanes_sg sg;
                assert_int_equal(lanes_sg_init(&sg, w, w, NREG, 4), 0);
                /* enough rounds that every pair of edge values meets */
                int rounds = (ne * ne) / (int)w + 6;
                for (int it = 0; it < rounds; it++) {
                    lanes_mask mask = rand_mask(w, it);
                    for (uint32_t l = 0; l < w; l++) {
                        int k = it * (int)w + (int)l;
                        for (int s = 0; s < 3; s++) {
                            uint64_t v;
                            if (k < ne * ne && s < 2)
                                v = ev[s == 0 ? k % ne : k / ne];
                            else if (rnd64() % 3 == 0)
                                v = ev[rnd64() % (uint64_t)ne];
                            else
                                v = rand_val((isa_type)t);
                            lanes_reg(&sg, 1 + s)[l] = v;
                        }
                        if (divi && lanes_reg(&sg, 2)[l] == 0 &&
                            ((mask >> l) & 1))
                            lanes_reg(&sg, 2)[l] = 3;
                        lanes_reg(&sg, 0)[l] = rnd64();
                    }
                    uint64_t old[LANES_MAX];
                    memcpy(old, lanes_reg(&sg, 0), w * 8);
                    isa_inst in = mkinst((isa_opcode)op, (isa_type)t);
                    in.o[0] = reg(0);
                    for (int s = 0; s < ns; s++)
                        in.o[1 + s] = reg((uint16_t)(1 + s));
                    assert_int_equal(lanes_exec_alu(NULL, &sg, &in, mask), 0);
                    for (uint32_t l = 0; l < w; l++) {
                        uint64_t a = lanes_reg(&sg, 1)[l],
                                 b = lanes_reg(&sg, 2)[l],
                                 c = lanes_reg(&sg, 3)[l];
                        uint64_t got = lanes_reg(&sg, 0)[l];
                        if (!((mask >> l) & 1)) {
                            assert_int_equal(got, old[l]);
                            continue;
                        }
                        check_lane(oi->mnemonic, (isa_type)t, l, got,
                                   ref_alu(oi->family, (isa_type)t, a, b, c),
                                   a, b, c);
                    }
                }
                lanes_sg_free(&sg);
            }
        }
    }
    assert_int_equal(ops_tested, 27);
}

static void test_div_zero_fault(void **st)
{
    (void)st;
    static const isa_type ts[] = { ISA_T_I8, ISA_T_U32, ISA_T_I64 };
    for (int ti = 0; ti < 3; ti++) {
        for (int fam = 0; fam < 2; fam++) {
            lanes_sg sg;
            assert_int_equal(lanes_sg_init(&sg, 16, 16, 4, 1), 0);
            for (uint32_t l = 0; l < 16; l++) {
                lanes_reg(&sg, 1)[l] = 100 + l;
                lanes_reg(&sg, 2)[l] = (l == 3 || l == 9) ? 0 : 7;
            }
            isa_inst in = mkinst(fam ? ISA_OP_REM : ISA_OP_DIV, ts[ti]);
            in.o[0] = reg(0); in.o[1] = reg(1); in.o[2] = reg(2);
            /* lane 3 inactive: no fault */
            assert_int_equal(lanes_exec_alu(NULL, &sg, &in, 0xfff7 & ~0x200u), 0);
            assert_int_equal(lanes_exec_alu(NULL, &sg, &in, 0xfff7),
                             LANES_FAULT_DIV_ZERO);
            assert_int_equal(sg.fault_lane, 9);
            assert_int_equal(lanes_exec_alu(NULL, &sg, &in, 0xffff),
                             LANES_FAULT_DIV_ZERO);
            assert_int_equal(sg.fault_lane, 3);
            /* documented results: x/0 = all ones, x%0 = x */
            assert_int_equal(lanes_reg(&sg, 0)[3],
                             fam ? 103 : tmask(ts[ti]));
            assert_int_equal(lanes_reg(&sg, 0)[4], fam ? 104 % 7 : 104 / 7);
            lanes_sg_free(&sg);
        }
    }
}

/* ---------------------------------------------------------- cmp and sel */

static int ref_cmp(isa_binop c, isa_type t, uint64_t a, uint64_t b)
{
    if (isa_types[t].is_float) {
        long double x = t == ISA_T_F16 ? ref_half((uint16_t)a)
                      : t == ISA_T_F32 ? bf32(a) : bf64(a);
        long double y = t == ISA_T_F16 ? ref_half((uint16_t)b)
                      : t == ISA_T_F32 ? bf32(b) : bf64(b);
        if (isnan(x) || isnan(y))
            return c == ISA_BINOP_NE;
        return c == ISA_BINOP_EQ ? x == y : c == ISA_BINOP_NE ? x != y
             : c == ISA_BINOP_LT ? x < y : c == ISA_BINOP_LE ? x <= y
             : c == ISA_BINOP_GT ? x > y : x >= y;
    }
    i128 x, y;
    if (isa_types[t].is_signed) {
        unsigned sh = 64 - tbits(t);
        x = (int64_t)(a << sh) >> sh;
        y = (int64_t)(b << sh) >> sh;
    } else {
        x = a; y = b;
    }
    return c == ISA_BINOP_EQ ? x == y : c == ISA_BINOP_NE ? x != y
         : c == ISA_BINOP_LT ? x < y : c == ISA_BINOP_LE ? x <= y
         : c == ISA_BINOP_GT ? x > y : x >= y;
}

static void test_cmp(void **st)
{
    (void)st;
    for (unsigned t = 0; t < ISA_T_COUNT; t++) {
        rng_state = 77 + t;
        uint64_t ev[32];
        int ne = edges((isa_type)t, ev);
        for (int wi = 0; wi < NW; wi++) {
            uint32_t w = widths[wi];
            lanes_sg sg;
            assert_int_equal(lanes_sg_init(&sg, w, w, 3, 2), 0);
            for (int it = 0; it < (ne * ne) / (int)w + 4; it++) {
                for (uint32_t l = 0; l < w; l++) {
                    int k = it * (int)w + (int)l;
                    lanes_reg(&sg, 1)[l] = k < ne * ne ? ev[k % ne] : rand_val((isa_type)t);
                    lanes_reg(&sg, 2)[l] = k < ne * ne ? ev[k / ne]
                                         : (rnd64() & 1) ? lanes_reg(&sg, 1)[l]
                                         : rand_val((isa_type)t);
                }
                for (int c = ISA_BINOP_EQ; c <= ISA_BINOP_GE; c++) {
                    lanes_mask mask = rand_mask(w, it + c);
                    lanes_mask before = rnd64();
                    sg.preds[1] = before;
                    isa_inst in = mkinst(ISA_OP_CMP, (isa_type)t);
                    in.cond = (uint8_t)c;
                    in.o[0] = pred(1, 0); in.o[1] = reg(1); in.o[2] = reg(2);
                    assert_int_equal(lanes_exec_alu(NULL, &sg, &in, mask), 0);
                    for (uint32_t l = 0; l < w; l++) {
                        int got = (int)((sg.preds[1] >> l) & 1);
                        int want = ((mask >> l) & 1)
                            ? ref_cmp((isa_binop)c, (isa_type)t, lanes_reg(&sg, 1)[l],
                                      lanes_reg(&sg, 2)[l])
                            : (int)((before >> l) & 1);
                        if (got != want)
                            fail_msg("cmp.%s.%s lane %u a=%#" PRIx64 " b=%#" PRIx64,
                                     isa_binop_names[c], isa_types[t].asm_name, l,
                                     lanes_reg(&sg, 1)[l], lanes_reg(&sg, 2)[l]);
                    }
                    /* bits above the width are untouched */
                    if (w < 64)
                        assert_int_equal(sg.preds[1] & ~lanes_mask_first(w),
                                         before & ~lanes_mask_first(w));
                }
            }
            lanes_sg_free(&sg);
        }
    }
}

static void test_sel_mov_vec(void **st)
{
    (void)st;
    rng_state = 4242;
    for (int wi = 0; wi < NW; wi++) {
        uint32_t w = widths[wi];
        lanes_sg sg;
        assert_int_equal(lanes_sg_init(&sg, w, w, 16, 2), 0);
        for (uint32_t r = 0; r < 16; r++)
            for (uint32_t l = 0; l < w; l++)
                lanes_reg(&sg, r)[l] = rnd64() & 0xffffffffu;
        uint64_t snap[16][LANES_MAX];
        for (int neg = 0; neg < 2; neg++) {
            lanes_mask mask = rand_mask(w, neg + 1);
            sg.preds[0] = rnd64();
            for (uint32_t r = 0; r < 16; r++)
                memcpy(snap[r], lanes_reg(&sg, r), w * 8);
            /* sel.v2.u32 r8, !p0, r2, r4 */
            isa_inst in = mkinst(ISA_OP_SEL, ISA_T_U32);
            in.vec = 2;
            in.o[0] = reg(8); in.o[1] = pred(0, neg);
            in.o[2] = reg(2); in.o[3] = reg(4);
            assert_int_equal(lanes_exec_alu(NULL, &sg, &in, mask), 0);
            for (uint32_t c = 0; c < 2; c++)
                for (uint32_t l = 0; l < w; l++) {
                    int p = (int)((sg.preds[0] >> l) & 1) ^ neg;
                    uint64_t want = !((mask >> l) & 1) ? snap[8 + c][l]
                                  : p ? snap[2 + c][l] : snap[4 + c][l];
                    assert_int_equal(lanes_reg(&sg, 8 + c)[l], want);
                }
        }
        /* mov.v4.u32 r1, r0: destination overlaps the source */
        for (uint32_t r = 0; r < 16; r++)
            memcpy(snap[r], lanes_reg(&sg, r), w * 8);
        lanes_mask mask = rand_mask(w, 1);
        isa_inst mv = mkinst(ISA_OP_MOV, ISA_T_U32);
        mv.vec = 4;
        mv.o[0] = reg(1); mv.o[1] = reg(0);
        assert_int_equal(lanes_exec_alu(NULL, &sg, &mv, mask), 0);
        for (uint32_t c = 0; c < 4; c++)
            for (uint32_t l = 0; l < w; l++)
                assert_int_equal(lanes_reg(&sg, 1 + c)[l],
                                 ((mask >> l) & 1) ? snap[c][l] : snap[1 + c][l]);
        /* mov.v3.u8 of an immediate broadcasts to all components */
        isa_inst mi = mkinst(ISA_OP_MOV, ISA_T_U8);
        mi.vec = 3;
        mi.o[0] = reg(10); mi.o[1].kind = ISA_OPND_IMM; mi.o[1].imm = 0x1ab;
        assert_int_equal(lanes_exec_alu(NULL, &sg, &mi, lanes_mask_first(w)), 0);
        for (uint32_t c = 0; c < 3; c++)
            for (uint32_t l = 0; l < w; l++)
                assert_int_equal(lanes_reg(&sg, 10 + c)[l], 0xab);
        /* add.v2.i16 r12, r12, imm: per component, normalised */
        for (uint32_t l = 0; l < w; l++) {
            lanes_reg(&sg, 12)[l] = 0x7fff;
            lanes_reg(&sg, 13)[l] = 0xfffe;
        }
        isa_inst ad = mkinst(ISA_OP_ADD, ISA_T_I16);
        ad.vec = 2;
        ad.o[0] = reg(12); ad.o[1] = reg(12);
        ad.o[2].kind = ISA_OPND_IMM; ad.o[2].imm = 3;
        assert_int_equal(lanes_exec_alu(NULL, &sg, &ad, lanes_mask_first(w)), 0);
        for (uint32_t l = 0; l < w; l++) {
            assert_int_equal(lanes_reg(&sg, 12)[l], 0x8002);
            assert_int_equal(lanes_reg(&sg, 13)[l], 0x0001);
        }
        lanes_sg_free(&sg);
    }
}

static void test_pred_ops(void **st)
{
    (void)st;
    rng_state = 99;
    lanes_sg sg;
    assert_int_equal(lanes_sg_init(&sg, 32, 32, 1, 4), 0);
    static const isa_opcode ops[] = { ISA_OP_PAND, ISA_OP_POR, ISA_OP_PXOR, ISA_OP_PNOT };
    for (int k = 0; k < 4; k++)
        for (int na = 0; na < 2; na++)
            for (int nb = 0; nb < 2; nb++) {
                lanes_mask a = rnd64(), b = rnd64(), d = rnd64();
                lanes_mask mask = rnd64() & 0xffffffffu;
                sg.preds[1] = a; sg.preds[2] = b; sg.preds[3] = d;
                isa_inst in = mkinst(ops[k], ISA_T_NONE);
                in.o[0] = pred(3, 0); in.o[1] = pred(1, na); in.o[2] = pred(2, nb);
                assert_int_equal(lanes_exec_alu(NULL, &sg, &in, mask), 0);
                for (int l = 0; l < 32; l++) {
                    int x = (int)((a >> l) & 1) ^ na, y = (int)((b >> l) & 1) ^ nb;
                    int want = k == 0 ? (x && y) : k == 1 ? (x || y)
                             : k == 2 ? (x != y) : !x;
                    if (!((mask >> l) & 1))
                        want = (int)((d >> l) & 1);
                    assert_int_equal((sg.preds[3] >> l) & 1, want);
                }
            }
    /* nop changes nothing */
    isa_inst nop = mkinst(ISA_OP_NOP, ISA_T_NONE);
    lanes_mask keep = sg.preds[3];
    assert_int_equal(lanes_exec_alu(NULL, &sg, &nop, ~0ull), 0);
    assert_int_equal(sg.preds[3], keep);
    lanes_sg_free(&sg);
}

/* ------------------------------------------------------------------ cvt */

/* exact value of a slot as long double (every type fits) */
static long double exact(isa_type t, uint64_t v)
{
    switch (t) {
    case ISA_T_F16: return ref_half((uint16_t)v);
    case ISA_T_F32: return bf32(v);
    case ISA_T_F64: return bf64(v);
    default:
        if (isa_types[t].is_signed) {
            unsigned sh = 64 - tbits(t);
            return (long double)((int64_t)(v << sh) >> sh);
        }
        return (long double)v;
    }
}

static const int fe_modes[] = { FE_TONEAREST, FE_TOWARDZERO, FE_UPWARD, FE_DOWNWARD };

static uint64_t ref_to_float(isa_type d, long double X, int rm)
{
    if (d == ISA_T_F16)
        return ref_round16(X, rm);
    volatile long double vx = X;
    uint64_t r;
    fesetround(fe_modes[rm]);
    if (d == ISA_T_F32) {
        volatile float f = (float)vx;
        r = f32b(f);
    } else {
        volatile double g = (double)vx;
        r = f64b(g);
    }
    fesetround(FE_TONEAREST);
    return r;
}

static uint64_t ref_cvt(isa_type d, isa_type s, int rnd, int sat, uint64_t v)
{
    const int df = isa_types[d].is_float, sf = isa_types[s].is_float;
    const long double X = exact(s, v);
    /* isa_round: DEFAULT RTE RTZ RTP RTN -> test modes */
    if (df) {
        int rm = rnd == ISA_RND_RTZ ? RM_ZERO : rnd == ISA_RND_RTP ? RM_UP
               : rnd == ISA_RND_RTN ? RM_DOWN : RM_NEAR;
        if (sf && isnan(X))
            return d == ISA_T_F16 ? 0x7e00 : d == ISA_T_F32 ? f32b(NAN) : f64b(NAN);
        return ref_to_float(d, X, rm);
    }
    const unsigned n = tbits(d);
    const int ds = isa_types[d].is_signed;
    const long double lo = ds ? -ldexpl(1, (int)n - 1) : 0;
    const long double hi = ds ? ldexpl(1, (int)n - 1) - 1 : ldexpl(1, (int)n) - 1;
    long double y;
    if (sf) {
        if (isnan(X))
            return 0;
        switch (rnd) {
        case ISA_RND_RTE: y = nearbyintl(X); break;     /* FPU is at nearest */
        case ISA_RND_RTP: y = ceill(X); break;
        case ISA_RND_RTN: y = floorl(X); break;
        default: y = truncl(X); break;
        }
        if (y < lo) y = lo;
        if (y > hi) y = hi;
    } else {
        y = X;
        if (sat) {
            if (y < lo) y = lo;
            if (y > hi) y = hi;
        } else {
            /* wrap modulo 2^n */
            i128 iv = (i128)X;
            return (uint64_t)iv & tmask(d);
        }
    }
    i128 iv = (i128)y;
    return (uint64_t)iv & tmask(d);
}

static void test_cvt(void **st)
{
    (void)st;
    const uint32_t w = 16;
    lanes_sg sg;
    assert_int_equal(lanes_sg_init(&sg, w, w, 3, 1), 0);
    int checked = 0;
    for (unsigned d = 0; d < ISA_T_COUNT; d++)
        for (unsigned s = 0; s < ISA_T_COUNT; s++)
            for (int rnd = 0; rnd < ISA_RND_COUNT; rnd++)
                for (int sat = 0; sat < 2; sat++) {
                    rng_state = 1000 + d * 97 + s * 13 + (unsigned)rnd * 3 + (unsigned)sat;
                    uint64_t ev[32];
                    int ne = edges((isa_type)s, ev);
                    for (int it = 0; it < ne / (int)w + 8; it++) {
                        lanes_mask mask = rand_mask(w, it);
                        for (uint32_t l = 0; l < w; l++) {
                            int k = it * (int)w + (int)l;
                            uint64_t v = k < ne ? ev[k] : rand_val((isa_type)s);
                            if (k >= ne && isa_types[s].is_float && (rnd64() & 1)) {
                                /* values near integers, halfway points, big */
                                long double base = (long double)((int64_t)rnd64() >> (rnd64() % 64));
                                long double frac = (rnd64() % 4) * 0.25L;
                                long double x = base + frac;
                                v = s == ISA_T_F16 ? ref_round16(x, RM_NEAR)
                                  : s == ISA_T_F32 ? f32b((float)x) : f64b((double)x);
                            }
                            lanes_reg(&sg, 1)[l] = v;
                            lanes_reg(&sg, 0)[l] = rnd64();
                        }
                        uint64_t old[LANES_MAX];
                        memcpy(old, lanes_reg(&sg, 0), w * 8);
                        isa_inst in = mkinst(ISA_OP_CVT, (isa_type)d);
                        in.src_type = (uint8_t)s;
                        in.flags = (uint16_t)((unsigned)sat * ISA_F_SAT |
                                              (unsigned)rnd << ISA_F_RND_SHIFT);
                        in.o[0] = reg(0); in.o[1] = reg(1);
                        assert_int_equal(lanes_exec_alu(NULL, &sg, &in, mask), 0);
                        for (uint32_t l = 0; l < w; l++) {
                            uint64_t got = lanes_reg(&sg, 0)[l];
                            if (!((mask >> l) & 1)) {
                                assert_int_equal(got, old[l]);
                                continue;
                            }
                            uint64_t v = lanes_reg(&sg, 1)[l];
                            uint64_t want = ref_cvt((isa_type)d, (isa_type)s, rnd, sat, v);
                            checked++;
                            if (got != want && !(is_nan_bits((isa_type)d, got) &&
                                                 is_nan_bits((isa_type)d, want)))
                                fail_msg("cvt.%s.%s rnd %d sat %d: %#" PRIx64
                                         " -> got %#" PRIx64 " want %#" PRIx64,
                                         isa_types[d].asm_name, isa_types[s].asm_name,
                                         rnd, sat, v, got, want);
                        }
                    }
                }
    assert_true(checked > 10000);
    lanes_sg_free(&sg);
}

static void test_cvt_known(void **st)
{
    (void)st;
    lanes_sg sg;
    assert_int_equal(lanes_sg_init(&sg, 1, 1, 2, 1), 0);
    struct { isa_type d, s; int rnd, sat; uint64_t in, out; } k[] = {
        { ISA_T_I32, ISA_T_F32, 0, 0, f32b(-2.7f), (uint32_t)-2 },
        { ISA_T_I32, ISA_T_F32, ISA_RND_RTE, 0, f32b(2.5f), 2 },
        { ISA_T_I32, ISA_T_F32, ISA_RND_RTE, 0, f32b(3.5f), 4 },
        { ISA_T_I32, ISA_T_F32, ISA_RND_RTN, 0, f32b(-2.5f), (uint32_t)-3 },
        { ISA_T_I32, ISA_T_F32, 0, 0, f32b(3e9f), 0x7fffffff },
        { ISA_T_U8, ISA_T_F32, 0, 0, f32b(-5.0f), 0 },
        { ISA_T_U8, ISA_T_F32, 0, 0, f32b(NAN), 0 },
        { ISA_T_U8, ISA_T_I32, 0, 1, 300, 255 },
        { ISA_T_U8, ISA_T_I32, 0, 0, 300, 44 },
        { ISA_T_I8, ISA_T_U32, 0, 1, 0xffffffff, 0x7f },
        { ISA_T_I64, ISA_T_I8, 0, 0, 0x80, 0xffffffffffffff80ull },
        { ISA_T_F16, ISA_T_F32, 0, 0, f32b(1.0f), 0x3c00 },
        { ISA_T_F16, ISA_T_F32, ISA_RND_RTZ, 0, f32b(70000.0f), 0x7bff },
        { ISA_T_F16, ISA_T_I32, ISA_RND_RTP, 0, 2049, 0x6801 },
        { ISA_T_F16, ISA_T_I32, ISA_RND_RTE, 0, 2051, 0x6802 },
        { ISA_T_F32, ISA_T_I32, ISA_RND_RTZ, 0, 16777217, f32b(16777216.0f) },
        { ISA_T_F32, ISA_T_I32, ISA_RND_RTP, 0, 16777217, f32b(16777218.0f) },
        { ISA_T_F32, ISA_T_U64, 0, 0, ~0ull, f32b(18446744073709551616.0f) },
        { ISA_T_F32, ISA_T_F64, ISA_RND_RTN, 0, f64b(-0.1), 0xbdcccccd },
        { ISA_T_F32, ISA_T_F64, ISA_RND_RTP, 0, f64b(-0.1), 0xbdcccccc },
        { ISA_T_F32, ISA_T_F64, ISA_RND_RTZ, 0, f64b(1e300), 0x7f7fffff },
        { ISA_T_F32, ISA_T_F64, ISA_RND_RTP, 0, f64b(1e-300), 1 },
    };
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
        isa_inst in = mkinst(ISA_OP_CVT, k[i].d);
        in.src_type = (uint8_t)k[i].s;
        in.flags = (uint16_t)((unsigned)k[i].sat * ISA_F_SAT |
                              (unsigned)k[i].rnd << ISA_F_RND_SHIFT);
        in.o[0] = reg(0); in.o[1] = reg(1);
        lanes_reg(&sg, 1)[0] = k[i].in;
        assert_int_equal(lanes_exec_alu(NULL, &sg, &in, 1), 0);
        if (lanes_reg(&sg, 0)[0] != k[i].out)
            fail_msg("case %zu: got %#" PRIx64 " want %#" PRIx64, i,
                     lanes_reg(&sg, 0)[0], k[i].out);
    }
    lanes_sg_free(&sg);
}

/* ------------------------------------------------- binop and identity */

static void test_binop_identity(void **st)
{
    (void)st;
    static const isa_binop ops[] = { ISA_BINOP_ADD, ISA_BINOP_MUL, ISA_BINOP_MIN,
        ISA_BINOP_MAX, ISA_BINOP_AND, ISA_BINOP_OR, ISA_BINOP_XOR };
    static const isa_family fams[] = { ISA_FAM_ADD, ISA_FAM_MUL, ISA_FAM_MIN,
        ISA_FAM_MAX, ISA_FAM_AND, ISA_FAM_OR, ISA_FAM_XOR };
    for (unsigned t = 0; t < ISA_T_COUNT; t++) {
        rng_state = 5 + t;
        uint64_t ev[32];
        int ne = edges((isa_type)t, ev);
        for (int k = 0; k < 7; k++) {
            if (isa_types[t].is_float && k >= 4)
                continue;
            uint64_t id = lanes_identity(ops[k], (isa_type)t);
            for (int i = 0; i < ne + 200; i++) {
                uint64_t a = i < ne ? ev[i] : rand_val((isa_type)t);
                uint64_t b = rand_val((isa_type)t);
                uint64_t got = lanes_binop(ops[k], (isa_type)t, a, b);
                check_lane("binop", (isa_type)t, 0, got,
                           ref_alu(fams[k], (isa_type)t, a, b, 0), a, b, 0);
                /* identity: op(id, a) == a (except -0 + +0 for float add) */
                uint64_t ia = lanes_binop(ops[k], (isa_type)t, id, a);
                if (is_nan_bits((isa_type)t, a))
                    continue;
                if (isa_types[t].is_float && ops[k] == ISA_BINOP_ADD &&
                    exact((isa_type)t, a) == 0)
                    continue;
                assert_int_equal(ia, a);
            }
        }
        /* logical ops: non-zero is true, result 1/0 */
        if (!isa_types[t].is_float) {
            assert_int_equal(lanes_binop(ISA_BINOP_LAND, (isa_type)t, 2, 4), 1);
            assert_int_equal(lanes_binop(ISA_BINOP_LAND, (isa_type)t, 2, 0), 0);
            assert_int_equal(lanes_binop(ISA_BINOP_LOR, (isa_type)t, 0, 0), 0);
            assert_int_equal(lanes_binop(ISA_BINOP_LOR, (isa_type)t, 0, 9), 1);
            assert_int_equal(lanes_binop(ISA_BINOP_LXOR, (isa_type)t, 5, 9), 0);
            assert_int_equal(lanes_binop(ISA_BINOP_LXOR, (isa_type)t, 5, 0), 1);
            assert_int_equal(lanes_identity(ISA_BINOP_LAND, (isa_type)t), 1);
            assert_int_equal(lanes_identity(ISA_BINOP_LOR, (isa_type)t), 0);
            assert_int_equal(lanes_identity(ISA_BINOP_AND, (isa_type)t), tmask((isa_type)t));
        }
    }
    assert_int_equal(lanes_identity(ISA_BINOP_MIN, ISA_T_I16), 0x7fff);
    assert_int_equal(lanes_identity(ISA_BINOP_MAX, ISA_T_I16), 0x8000);
    assert_int_equal(lanes_identity(ISA_BINOP_MIN, ISA_T_U32), 0xffffffffu);
    assert_int_equal(lanes_identity(ISA_BINOP_MAX, ISA_T_U32), 0);
    assert_int_equal(lanes_identity(ISA_BINOP_MIN, ISA_T_F16), 0x7c00);
    assert_int_equal(lanes_identity(ISA_BINOP_MAX, ISA_T_F32), 0xff800000u);
    assert_int_equal(lanes_identity(ISA_BINOP_MUL, ISA_T_F64), f64b(1.0));
    /* a short add that overflows wraps modulo 2^16 */
    assert_int_equal(lanes_binop(ISA_BINOP_ADD, ISA_T_I16, 0x7fff, 1), 0x8000);
    assert_int_equal(lanes_binop(ISA_BINOP_MIN, ISA_T_F32, f32b(NAN), f32b(2.0f)), f32b(2.0f));
    assert_int_equal(lanes_trunc(ISA_T_I8, (uint64_t)-1), 0xff);
    assert_int_equal(lanes_sext(ISA_T_I8, 0xff), -1);
    assert_int_equal(lanes_sext(ISA_T_U8, 0xff), 255);
}

static void sp_lane_id(void *user, const lanes_sg *sg, isa_special sp,
                       uint32_t dim, uint64_t *out)
{
    (void)user; (void)sp;
    for (uint32_t l = 0; l < sg->width; l++)
        out[l] = 0x100000000ull * dim + l + 1000;
}

/* lanes_binop_row: the wrapping and bitwise integer ops by their
 * definition on the type's bits (two's complement, mod 2^bits), the rest
 * as lanes_binop lane by lane; r may be a source row. */
static void test_binop_row(void **st)
{
    (void)st;
    static const isa_binop ops[] = { ISA_BINOP_ADD, ISA_BINOP_SUB, ISA_BINOP_MUL,
        ISA_BINOP_AND, ISA_BINOP_OR, ISA_BINOP_XOR, ISA_BINOP_MIN, ISA_BINOP_MAX };
    for (unsigned t = 0; t < ISA_T_COUNT; t++) {
        if (isa_types[t].bytes == 0)
            continue;
        rng_state = 11 + t;
        unsigned bits = 8 * isa_types[t].bytes;
        uint64_t m = bits >= 64 ? ~0ull : (1ull << bits) - 1;
        for (unsigned k = 0; k < sizeof ops / sizeof ops[0]; k++) {
            uint64_t a[37], a0[37], b[37], r[37], want[37];
            for (unsigned i = 0; i < 37; i++) {
                a[i] = a0[i] = rand_val((isa_type)t);
                b[i] = rand_val((isa_type)t);
                uint64_t x = a[i] & m, y = b[i] & m;
                if (isa_types[t].is_float || k >= 6)
                    want[i] = lanes_binop(ops[k], (isa_type)t, a[i], b[i]);
                else
                    want[i] = (k == 0 ? x + y : k == 1 ? x - y : k == 2 ? x * y :
                               k == 3 ? (x & y) : k == 4 ? (x | y) : (x ^ y)) & m;
            }
            lanes_binop_row(ops[k], (isa_type)t, r, a, b, 37);
            for (unsigned i = 0; i < 37; i++)
                check_lane("binop_row", (isa_type)t, i, r[i], want[i], a0[i], b[i], 0);
            lanes_binop_row(ops[k], (isa_type)t, a, a, b, 37);     /* in place */
            for (unsigned i = 0; i < 37; i++)
                check_lane("binop_row in place", (isa_type)t, i, a[i], want[i], a0[i], b[i], 0);
        }
    }
}

/* lanes_fold_row: lanes_binop applied lane by lane from lane 0 (one lane
 * alone: itself, unmasked), for every length up to 37; and the same as
 * the last lane of lanes_scan_row. */
static void test_fold_row(void **st)
{
    (void)st;
    static const isa_binop ops[] = { ISA_BINOP_ADD, ISA_BINOP_SUB, ISA_BINOP_MUL,
        ISA_BINOP_AND, ISA_BINOP_OR, ISA_BINOP_XOR, ISA_BINOP_MIN, ISA_BINOP_MAX };
    for (unsigned t = 0; t < ISA_T_COUNT; t++) {
        if (isa_types[t].bytes == 0)
            continue;
        rng_state = 23 + t;
        for (unsigned k = 0; k < sizeof ops / sizeof ops[0]; k++) {
            uint64_t a[37], s[37];
            for (unsigned i = 0; i < 37; i++)
                a[i] = rand_val((isa_type)t) | (isa_types[t].bytes < 8 ? 1ull << 63 : 0);
            for (unsigned n = 1; n <= 37; n++) {
                uint64_t want = a[0];
                for (unsigned i = 1; i < n; i++)
                    want = lanes_binop(ops[k], (isa_type)t, want, a[i]);
                check_lane("fold_row", (isa_type)t, n, lanes_fold_row(ops[k], (isa_type)t, a, n),
                           want, a[0], a[n - 1], 0);
                memcpy(s, a, n * sizeof *s);
                lanes_scan_row(ops[k], (isa_type)t, s, n);
                check_lane("fold_row vs scan", (isa_type)t, n, s[n - 1], want, a[0], a[n - 1], 0);
            }
        }
    }
}

static void test_src_kinds(void **st)
{
    (void)st;
    lanes_sg sg;
    assert_int_equal(lanes_sg_init(&sg, 8, 8, 2, 1), 0);
    uint64_t args[2] = { 0x123456789ull, 7 };
    lanes_env env = { NULL, args, sp_lane_id };
    uint64_t scratch[LANES_MAX];
    isa_operand o;
    memset(&o, 0, sizeof o);
    o.kind = ISA_OPND_ARG; o.reg = 0;
    const uint64_t *v = lanes_src(&env, &sg, &o, 0, ISA_T_U32, scratch);
    for (int l = 0; l < 8; l++)
        assert_int_equal(v[l], 0x23456789u);
    o.kind = ISA_OPND_SPECIAL; o.reg = 0; o.dim = 1;
    v = lanes_src(&env, &sg, &o, 0, ISA_T_U64, scratch);
    for (int l = 0; l < 8; l++)
        assert_int_equal(v[l], 0x100000000ull + (uint64_t)l + 1000);
    o.kind = ISA_OPND_REG; o.reg = 1;
    v = lanes_src(&env, &sg, &o, 0, ISA_T_U64, scratch);
    assert_ptr_equal(v, lanes_reg(&sg, 1));
    /* add.u32 r0, %arg1, %special: operands that are not registers */
    isa_inst in = mkinst(ISA_OP_ADD, ISA_T_U32);
    in.o[0] = reg(0);
    in.o[1].kind = ISA_OPND_ARG; in.o[1].reg = 1;
    in.o[2].kind = ISA_OPND_SPECIAL; in.o[2].dim = 0;
    assert_int_equal(lanes_exec_alu(&env, &sg, &in, 0xff), 0);
    for (int l = 0; l < 8; l++)
        assert_int_equal(lanes_reg(&sg, 0)[l], 1007u + (unsigned)l);
    lanes_sg_free(&sg);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_arith),
        cmocka_unit_test(test_div_zero_fault),
        cmocka_unit_test(test_cmp),
        cmocka_unit_test(test_sel_mov_vec),
        cmocka_unit_test(test_pred_ops),
        cmocka_unit_test(test_cvt_known),
        cmocka_unit_test(test_cvt),
        cmocka_unit_test(test_binop_identity),
        cmocka_unit_test(test_binop_row),
        cmocka_unit_test(test_fold_row),
        cmocka_unit_test(test_src_kinds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
