/*
 * fast.c - the specialised lane kernels of lanes_fast.h.
 *
 * The expressions are those of alu.c's rows (same masking and sign
 * extension, so results match bit for bit); here they are stamped out once
 * per (family, type, width) by X-macros.  Width 0 is the any-width kernel.
 */
#include "lanes_priv.h"
#include "lanes_fast.h"
#include "half4.h"
#include "fast_f16c.h"

#include <string.h>

/* A kernel's rows are whole register or constant rows: a destination is
 * another row or exactly a source's row, never a part of one, so no lane
 * depends on another lane's result.  Saying so spares GCC's vectoriser
 * the run-time overlap test it otherwise puts in front of every kernel. */
#if defined(__GNUC__) && !defined(__clang__)
#define LANE_LOOP _Pragma("GCC ivdep")
#else
#define LANE_LOOP
#endif

/* widths with a constant trip count; index 3 is the any-width kernel */
static int width_index(uint32_t w)
{
    return w == 8 ? 0 : w == 16 ? 1 : w == 32 ? 2 : 3;
}

/* ------------------------------------------------------------ integers */

#define INT_FAMS(X) X(ADD) X(SUB) X(MUL) X(MAD) X(AND) X(OR) X(XOR) X(NOT) \
    X(NEG) X(SHL) X(SHR) X(MIN) X(MAX) X(ABS)

#define SXV(v) ((int64_t)((v) << SH) >> SH)
#define SHC(v) ((v) & (BITS - 1))
#define IE_ADD (a[l] + b[l]) & M
#define IE_SUB (a[l] - b[l]) & M
#define IE_MUL (a[l] * b[l]) & M
#define IE_MAD (a[l] * b[l] + c[l]) & M
#define IE_AND (a[l] & b[l]) & M
#define IE_OR  (a[l] | b[l]) & M
#define IE_XOR (a[l] ^ b[l]) & M
#define IE_NOT ~a[l] & M
#define IE_NEG (0 - a[l]) & M
#define IE_SHL (a[l] << SHC(b[l])) & M
#define IE_SHR SGN ? (uint64_t)(SXV(a[l]) >> SHC(b[l])) & M \
                   : (a[l] & M) >> SHC(b[l])
#define IE_MIN SGN ? (SXV(a[l]) < SXV(b[l]) ? a[l] : b[l]) & M \
                   : (a[l] & M) < (b[l] & M) ? a[l] & M : b[l] & M
#define IE_MAX SGN ? (SXV(a[l]) > SXV(b[l]) ? a[l] : b[l]) & M \
                   : (a[l] & M) > (b[l] & M) ? a[l] & M : b[l] & M
#define IE_ABS SGN ? (SXV(a[l]) < 0 ? 0 - a[l] : a[l]) & M : a[l] & M

#define GEN_INT(F, TY, BITS_, SGN_, W) \
static void fast_##F##_##TY##_##W(uint64_t *r, const uint64_t *a, \
                                  const uint64_t *b, const uint64_t *c, \
                                  uint32_t w) \
{ \
    enum { BITS = BITS_, SH = 64 - BITS_, SGN = SGN_ }; \
    const uint64_t M = BITS_ == 64 ? ~UINT64_C(0) \
                                   : (UINT64_C(1) << (BITS_ % 64)) - 1; \
    const uint32_t n = (W) ? (W) : w; \
    (void)a; (void)b; (void)c; (void)M; \
    LANE_LOOP \
    for (uint32_t l = 0; l < n; l++) \
        r[l] = IE_##F; \
}
#define GEN_INT_T(F, TY, BITS, SGN) GEN_INT(F, TY, BITS, SGN, 8) \
    GEN_INT(F, TY, BITS, SGN, 16) GEN_INT(F, TY, BITS, SGN, 32) \
    GEN_INT(F, TY, BITS, SGN, 0)
#define GEN_INT_F(F) GEN_INT_T(F, u32, 32, 0) GEN_INT_T(F, i32, 32, 1) \
    GEN_INT_T(F, u64, 64, 0) GEN_INT_T(F, i64, 64, 1)
INT_FAMS(GEN_INT_F)

/* 32-bit mul and mad: the low 32 bits of a product depend on the low 32
 * bits of its factors only, which is what SSE2's pmuludq multiplies (two
 * lanes an instruction; the compiler emulates a full 64-bit product with
 * three).  Same bits as the rows above; they replace them in the table. */
#if defined(__SSE2__)
#include <emmintrin.h>
#define HAVE_MUL32_SSE2 1
static inline void mul32_rows(uint64_t *r, const uint64_t *a, const uint64_t *b,
                              const uint64_t *c, uint32_t n, bool mad)
{
    const __m128i m = _mm_set1_epi64x(0xffffffff);
    uint32_t l = 0;
    for (; l + 2 <= n; l += 2) {
        __m128i p = _mm_mul_epu32(_mm_loadu_si128((const __m128i *)(const void *)(a + l)),
                                  _mm_loadu_si128((const __m128i *)(const void *)(b + l)));
        if (mad)
            p = _mm_add_epi64(p, _mm_loadu_si128((const __m128i *)(const void *)(c + l)));
        _mm_storeu_si128((__m128i *)(void *)(r + l), _mm_and_si128(p, m));
    }
    for (; l < n; l++)
        r[l] = ((a[l] & 0xffffffffu) * (b[l] & 0xffffffffu) + (mad ? c[l] : 0)) & 0xffffffffu;
}
#define GEN_MUL32(F, MAD, W) \
static void fast32_##F##_##W(uint64_t *r, const uint64_t *a, const uint64_t *b, \
                             const uint64_t *c, uint32_t w) \
{ \
    mul32_rows(r, a, b, c, (W) ? (W) : w, MAD); \
}
#define GEN_MUL32_F(F, MAD) GEN_MUL32(F, MAD, 8) GEN_MUL32(F, MAD, 16) \
    GEN_MUL32(F, MAD, 32) GEN_MUL32(F, MAD, 0)
GEN_MUL32_F(MUL, false)
GEN_MUL32_F(MAD, true)
#endif

/* Shifts by a count that is the same in every lane (an immediate: the
 * decoder's constant row): the count is read once, so the loop is a
 * vector shift by a scalar instead of one lane at a time. */
#define KE_SHL (a[l] << k) & M
#define KE_SHR SGN ? (uint64_t)(SXV(a[l]) >> k) & M : (a[l] & M) >> k

#define GEN_SHK(F, TY, BITS_, SGN_, W) \
static void fastk_##F##_##TY##_##W(uint64_t *r, const uint64_t *a, \
                                   const uint64_t *b, const uint64_t *c, \
                                   uint32_t w) \
{ \
    enum { BITS = BITS_, SH = 64 - BITS_, SGN = SGN_ }; \
    const uint64_t M = BITS_ == 64 ? ~UINT64_C(0) \
                                   : (UINT64_C(1) << (BITS_ % 64)) - 1; \
    const uint32_t n = (W) ? (W) : w; \
    const unsigned k = (unsigned)SHC(b[0]); \
    (void)c; \
    LANE_LOOP \
    for (uint32_t l = 0; l < n; l++) \
        r[l] = KE_##F; \
}
#define GEN_SHK_T(F, TY, BITS, SGN) GEN_SHK(F, TY, BITS, SGN, 8) \
    GEN_SHK(F, TY, BITS, SGN, 16) GEN_SHK(F, TY, BITS, SGN, 32) \
    GEN_SHK(F, TY, BITS, SGN, 0)
#define GEN_SHK_F(F) GEN_SHK_T(F, u32, 32, 0) GEN_SHK_T(F, i32, 32, 1) \
    GEN_SHK_T(F, u64, 64, 0) GEN_SHK_T(F, i64, 64, 1)
#define SHK_FAMS(X) X(SHL) X(SHR)
SHK_FAMS(GEN_SHK_F)

/* ------------------------------------------------------------- floats */

#define FLT_FAMS(X) X(ADD) X(SUB) X(MUL) X(DIV) X(MAD) X(FMA) X(MIN) X(MAX) \
    X(ABS) X(NEG)

#define FE_ADD(LD, ST, FMAF, FMIN, FMAX, SIGNBIT) ST(LD(a[l]) + LD(b[l]))
#define FE_SUB(LD, ST, FMAF, FMIN, FMAX, SIGNBIT) ST(LD(a[l]) - LD(b[l]))
#define FE_MUL(LD, ST, FMAF, FMIN, FMAX, SIGNBIT) ST(LD(a[l]) * LD(b[l]))
#define FE_DIV(LD, ST, FMAF, FMIN, FMAX, SIGNBIT) ST(LD(a[l]) / LD(b[l]))
#define FE_MAD(LD, ST, FMAF, FMIN, FMAX, SIGNBIT) ST(LD(ST(LD(a[l]) * LD(b[l]))) + LD(c[l]))
#define FE_FMA(LD, ST, FMAF, FMIN, FMAX, SIGNBIT) ST(FMAF(LD(a[l]), LD(b[l]), LD(c[l])))
#define FE_MIN(LD, ST, FMAF, FMIN, FMAX, SIGNBIT) ST(FMIN(LD(a[l]), LD(b[l])))
#define FE_MAX(LD, ST, FMAF, FMIN, FMAX, SIGNBIT) ST(FMAX(LD(a[l]), LD(b[l])))
#define FE_ABS(LD, ST, FMAF, FMIN, FMAX, SIGNBIT) a[l] & (SIGNBIT - 1)
#define FE_NEG(LD, ST, FMAF, FMIN, FMAX, SIGNBIT) (a[l] ^ SIGNBIT) & (2 * SIGNBIT - 1)

#define F32_PARAMS(F, W) F, f32, lp_f32, lp_f32_bits, fmaf, lp_fminf, \
    lp_fmaxf, UINT64_C(0x80000000), W
#define F64_PARAMS(F, W) F, f64, lp_f64, lp_f64_bits, fma, lp_fmin, \
    lp_fmax, UINT64_C(0x8000000000000000), W

#define GEN_FLT_(F, TY, LD, ST, FMAF, FMIN, FMAX, SIGNBIT, W) \
static void fast_##F##_##TY##_##W(uint64_t *r, const uint64_t *a, \
                                  const uint64_t *b, const uint64_t *c, \
                                  uint32_t w) \
{ \
    const uint32_t n = (W) ? (W) : w; \
    (void)a; (void)b; (void)c; \
    LANE_LOOP \
    for (uint32_t l = 0; l < n; l++) \
        r[l] = FE_##F(LD, ST, FMAF, FMIN, FMAX, SIGNBIT); \
}
#define GEN_FLT(...) GEN_FLT_(__VA_ARGS__)
#define GEN_FLT_F(F) \
    GEN_FLT(F32_PARAMS(F, 8)) GEN_FLT(F32_PARAMS(F, 16)) \
    GEN_FLT(F32_PARAMS(F, 32)) GEN_FLT(F32_PARAMS(F, 0)) \
    GEN_FLT(F64_PARAMS(F, 8)) GEN_FLT(F64_PARAMS(F, 16)) \
    GEN_FLT(F64_PARAMS(F, 32)) GEN_FLT(F64_PARAMS(F, 0))
FLT_FAMS(GEN_FLT_F)

/* binary16: the halves widen exactly to binary32 (lp_h2f), the op runs
 * there and the result is rounded once (lp_f2h).  For + - * / and sqrt
 * that is the correctly rounded half: binary32's 24 bits are at least
 * 2 x 11 + 2, so rounding the binary32 result again is innocuous (and a
 * product of halves is exact).  mad rounds the product to a half first, as
 * alu.c does; fma rounds once through lp_fma_h.  Same bits as alu.c's
 * f16 row, which computes in double. */
#define H16_FAMS(X) FLT_FAMS(X) X(SQRT)

#define HL(v) lp_h2f(v)
#define HE_ADD lp_f2h(HL(a[l]) + HL(b[l]))
#define HE_SUB lp_f2h(HL(a[l]) - HL(b[l]))
#define HE_MUL lp_f2h(HL(a[l]) * HL(b[l]))
#define HE_DIV lp_f2h(HL(a[l]) / HL(b[l]))
#define HE_MAD lp_f2h(HL(lp_f2h(HL(a[l]) * HL(b[l]))) + HL(c[l]))
#define HE_FMA lp_fma_h(HL(a[l]), HL(b[l]), HL(c[l]))
#define HE_MIN lp_f2h(lp_fminf(HL(a[l]), HL(b[l])))
#define HE_MAX lp_f2h(lp_fmaxf(HL(a[l]), HL(b[l])))
#define HE_ABS a[l] & 0x7fffu
#define HE_NEG (a[l] ^ 0x8000u) & 0xffffu
#define HE_SQRT lp_f2h(sqrtf(HL(a[l])))

/* The same, four lanes an iteration through half4.h (GCC does not
 * vectorise the scalar forms); abs and neg are bit operations the
 * vectoriser handles.  NS: the sources an op reads. */
#define HV_ADD h4_f2h(_mm_add_ps(X, Y))
#define HV_SUB h4_f2h(_mm_sub_ps(X, Y))
#define HV_MUL h4_f2h(_mm_mul_ps(X, Y))
#define HV_DIV h4_f2h(_mm_div_ps(X, Y))
#define HV_MAD h4_f2h(_mm_add_ps(h4_h2f(h4_f2h(_mm_mul_ps(X, Y))), Z))
#define HV_FMA h4_fma(X, Y, Z)
#define HV_MIN h4_f2h(h4_fminmax(X, Y, false))
#define HV_MAX h4_f2h(h4_fminmax(X, Y, true))
#define HV_SQRT h4_f2h(_mm_sqrt_ps(X))
#define HV_ABS h4_load(a + l)       /* unused: NS 0 */
#define HV_NEG h4_load(a + l)
enum { HN_ADD = 2, HN_SUB = 2, HN_MUL = 2, HN_DIV = 2, HN_MAD = 3, HN_FMA = 3,
       HN_MIN = 2, HN_MAX = 2, HN_SQRT = 1, HN_ABS = 0, HN_NEG = 0 };

#if H4_SSE2
#define H16_VEC_LOOP(F) \
    if (HN_##F) \
        for (; l + 4 <= n; l += 4) { \
            const __m128 X = h4_h2f(h4_load(a + l)); \
            const __m128 Y = HN_##F >= 2 ? h4_h2f(h4_load(b + l)) : X; \
            const __m128 Z = HN_##F >= 3 ? h4_h2f(h4_load(c + l)) : X; \
            (void)Y; (void)Z; \
            h4_store(r + l, HV_##F); \
        }
#else
#define H16_VEC_LOOP(F)
#endif

#define GEN_H16(F, W) \
static void fast_##F##_f16_##W(uint64_t *r, const uint64_t *a, \
                               const uint64_t *b, const uint64_t *c, \
                               uint32_t w) \
{ \
    const uint32_t n = (W) ? (W) : w; \
    uint32_t l = 0; \
    (void)a; (void)b; (void)c; \
    H16_VEC_LOOP(F) \
    LANE_LOOP \
    for (; l < n; l++) \
        r[l] = HE_##F; \
}
#define GEN_H16_F(F) GEN_H16(F, 8) GEN_H16(F, 16) GEN_H16(F, 32) GEN_H16(F, 0)
H16_FAMS(GEN_H16_F)

/* ------------------------------------------------------------- tables */

/* type columns: u32 i32 u64 i64 f32 f64 f16 */
enum { TC_U32, TC_I32, TC_U64, TC_I64, TC_F32, TC_F64, TC_F16, TC_COUNT };

static int type_index(isa_type t)
{
    switch (t) {
    case ISA_T_U32: return TC_U32;
    case ISA_T_I32: return TC_I32;
    case ISA_T_U64: return TC_U64;
    case ISA_T_I64: return TC_I64;
    case ISA_T_F32: return TC_F32;
    case ISA_T_F64: return TC_F64;
    case ISA_T_F16: return TC_F16;
    default:        return -1;
    }
}

#define ROW(F, TY) { fast_##F##_##TY##_8, fast_##F##_##TY##_16, \
                     fast_##F##_##TY##_32, fast_##F##_##TY##_0 }
#define TAB_INT(F) [ISA_FAM_##F][TC_U32] = ROW(F, u32), \
    [ISA_FAM_##F][TC_I32] = ROW(F, i32), [ISA_FAM_##F][TC_U64] = ROW(F, u64), \
    [ISA_FAM_##F][TC_I64] = ROW(F, i64),
#define TAB_FLT(F) [ISA_FAM_##F][TC_F32] = ROW(F, f32), \
    [ISA_FAM_##F][TC_F64] = ROW(F, f64),
#define TAB_H16(F) [ISA_FAM_##F][TC_F16] = ROW(F, f16),

static const lanes_fast_fn alu_tab[ISA_FAM_COUNT][TC_COUNT][4] = {
    INT_FAMS(TAB_INT)
    FLT_FAMS(TAB_FLT)
    H16_FAMS(TAB_H16)
};

#if HAVE_MUL32_SSE2
static const lanes_fast_fn mul32_tab[2][4] = {
    { fast32_MUL_8, fast32_MUL_16, fast32_MUL_32, fast32_MUL_0 },
    { fast32_MAD_8, fast32_MAD_16, fast32_MAD_32, fast32_MAD_0 },
};
#endif

/* F16C kernels allowed (lanes_fast_set_f16c) */
static bool f16c_allowed = true;

bool lanes_fast_set_f16c(bool allow)
{
    const bool was = f16c_allowed && lanes_f16c_alu(ISA_FAM_ADD, 16) != NULL;
    f16c_allowed = allow;
    return was;
}

lanes_fast_fn lanes_fast_alu(isa_family f, isa_type t, uint32_t w)
{
    const int ti = type_index(t);
    if ((unsigned)f >= ISA_FAM_COUNT || ti < 0 || w == 0 || w > LANES_MAX)
        return NULL;
    lanes_fast_fn fc;
    if (ti == TC_F16 && f16c_allowed && (fc = lanes_f16c_alu(f, w)) != NULL)
        return fc;
#if HAVE_MUL32_SSE2
    if ((f == ISA_FAM_MUL || f == ISA_FAM_MAD) && (ti == TC_U32 || ti == TC_I32))
        return mul32_tab[f == ISA_FAM_MAD][width_index(w)];
#endif
    return alu_tab[f][ti][width_index(w)];
}

#define KROW(F, TY) { fastk_##F##_##TY##_8, fastk_##F##_##TY##_16, \
                      fastk_##F##_##TY##_32, fastk_##F##_##TY##_0 }
#define TAB_SHK(F) [ISA_FAM_##F][TC_U32] = KROW(F, u32), \
    [ISA_FAM_##F][TC_I32] = KROW(F, i32), [ISA_FAM_##F][TC_U64] = KROW(F, u64), \
    [ISA_FAM_##F][TC_I64] = KROW(F, i64),

static const lanes_fast_fn uniform_tab[ISA_FAM_COUNT][TC_I64 + 1][4] = {
    SHK_FAMS(TAB_SHK)
};

lanes_fast_fn lanes_fast_alu_uniform_b(isa_family f, isa_type t, uint32_t w)
{
    const int ti = type_index(t);
    if ((unsigned)f >= ISA_FAM_COUNT || ti < 0 || ti > TC_I64 || w == 0 || w > LANES_MAX)
        return NULL;
    return uniform_tab[f][ti][width_index(w)];
}

/* ------------------------------------------------------------ compares */

/* as alu.c's cmp_row: integers compare masked (unsigned) or sign-extended
 * bits, floats their values (C's comparisons give false for NaN but !=) */
#define CMP_CONDS(X) X(EQ, ==) X(NE, !=) X(LT, <) X(LE, <=) X(GT, >) X(GE, >=)
#define LD_U64(v) (v)
#define LD_I64(v) ((int64_t)(v))
#define LD_F32(v) lp_f32(v)
#define LD_F64(v) lp_f64(v)
#define LD_F16(v) lp_h2f(v)

/* 0/1 bytes -> mask bits, eight lanes per multiply: byte i of v lands on
 * bit 56 + i of v * 0x0102040810204080 with no carries into those bits */
static inline lanes_mask pack_bits(const uint8_t *t, uint32_t n)
{
    lanes_mask res = 0;
    uint32_t l = 0;
    for (; l + 8 <= n; l += 8) {
        uint64_t v;
        memcpy(&v, t + l, 8);
        res |= (lanes_mask)((v * UINT64_C(0x0102040810204080)) >> 56) << l;
    }
    for (; l < n; l++)
        res |= (lanes_mask)t[l] << l;
    return res;
}

/* 32-bit integers compare exactly through the sign of their 64-bit
 * difference (no overflow), which vectorises where a 64-bit compare does
 * not; the others compare directly.  Each lane gives a byte, then
 * pack_bits. */
#define NEG_(x) (uint8_t)((uint64_t)(x) >> 63)
#define NZ_(x) NEG_((x) | (0 - (x)))
#define D32_LT(A, B) NEG_((A) - (B))
#define D32_GT(A, B) NEG_((B) - (A))
#define D32_LE(A, B) (uint8_t)(1 ^ NEG_((B) - (A)))
#define D32_GE(A, B) (uint8_t)(1 ^ NEG_((A) - (B)))
#define D32_EQ(A, B) (uint8_t)(1 ^ NZ_((A) ^ (B)))
#define D32_NE(A, B) NZ_((A) ^ (B))
#define W32_U32(v) ((int64_t)((v) & UINT64_C(0xffffffff)))
#define W32_I32(v) ((int64_t)((v) << 32) >> 32)

#define GEN_CMP_BODY(W, EXPR) \
{ \
    /* w <= LANES_MAX (lanes_fast_cmp): said so for the row below */ \
    const uint32_t n = (W) ? (W) : w < LANES_MAX ? w : LANES_MAX; \
    uint8_t t[LANES_MAX]; \
    for (uint32_t l = 0; l < n; l++) \
        t[l] = (EXPR); \
    return pack_bits(t, n); \
}
#define GEN_CMP(C, OP, TY, LD, W) \
static lanes_mask cmp_##C##_##TY##_##W(const uint64_t *a, const uint64_t *b, \
                                       uint32_t w) \
GEN_CMP_BODY(W, (uint8_t)(LD(a[l]) OP LD(b[l])))
#define GEN_CMP32(C, TY, WD, W) \
static lanes_mask cmp_##C##_##TY##_##W(const uint64_t *a, const uint64_t *b, \
                                       uint32_t w) \
GEN_CMP_BODY(W, D32_##C(WD(a[l]), WD(b[l])))
#define GEN_CMP_T(C, OP, TY, LD) GEN_CMP(C, OP, TY, LD, 8) \
    GEN_CMP(C, OP, TY, LD, 16) GEN_CMP(C, OP, TY, LD, 32) \
    GEN_CMP(C, OP, TY, LD, 0)
#define GEN_CMP32_T(C, TY, WD) GEN_CMP32(C, TY, WD, 8) \
    GEN_CMP32(C, TY, WD, 16) GEN_CMP32(C, TY, WD, 32) GEN_CMP32(C, TY, WD, 0)
#define GEN_CMP_C(C, OP) GEN_CMP32_T(C, u32, W32_U32) \
    GEN_CMP32_T(C, i32, W32_I32) GEN_CMP_T(C, OP, u64, LD_U64) \
    GEN_CMP_T(C, OP, i64, LD_I64) GEN_CMP_T(C, OP, f32, LD_F32) \
    GEN_CMP_T(C, OP, f64, LD_F64) GEN_CMPH_T(C, OP)
/* f16: four lanes a compare through half4.h, movemask for the bits */
#if H4_SSE2
#define H4C_EQ(X, Y) _mm_cmpeq_ps(X, Y)
#define H4C_NE(X, Y) _mm_cmpneq_ps(X, Y)
#define H4C_LT(X, Y) _mm_cmplt_ps(X, Y)
#define H4C_LE(X, Y) _mm_cmple_ps(X, Y)
#define H4C_GT(X, Y) _mm_cmplt_ps(Y, X)
#define H4C_GE(X, Y) _mm_cmple_ps(Y, X)
#define CMPH_VEC(C) \
    for (; l + 4 <= n; l += 4) \
        res |= (lanes_mask)(unsigned)_mm_movemask_ps( \
            H4C_##C(h4_h2f(h4_load(a + l)), h4_h2f(h4_load(b + l)))) << l;
#else
#define CMPH_VEC(C)
#endif
#define GEN_CMPH(C, OP, W) \
static lanes_mask cmp_##C##_f16_##W(const uint64_t *a, const uint64_t *b, \
                                    uint32_t w) \
{ \
    const uint32_t n = (W) ? (W) : w < LANES_MAX ? w : LANES_MAX; \
    lanes_mask res = 0; \
    uint32_t l = 0; \
    CMPH_VEC(C) \
    for (; l < n; l++) \
        res |= (lanes_mask)(LD_F16(a[l]) OP LD_F16(b[l])) << l; \
    return res; \
}
#define GEN_CMPH_T(C, OP) GEN_CMPH(C, OP, 8) GEN_CMPH(C, OP, 16) \
    GEN_CMPH(C, OP, 32) GEN_CMPH(C, OP, 0)
CMP_CONDS(GEN_CMP_C)

#define CROW(C, TY) { cmp_##C##_##TY##_8, cmp_##C##_##TY##_16, \
                      cmp_##C##_##TY##_32, cmp_##C##_##TY##_0 }
#define TAB_CMP(C, OP) [ISA_BINOP_##C] = { CROW(C, u32), CROW(C, i32), \
    CROW(C, u64), CROW(C, i64), CROW(C, f32), CROW(C, f64), CROW(C, f16) },

static const lanes_fast_cmp_fn cmp_tab[ISA_BINOP_COUNT][TC_COUNT][4] = {
    CMP_CONDS(TAB_CMP)
};

lanes_fast_cmp_fn lanes_fast_cmp(isa_binop cond, isa_type t, uint32_t w)
{
    const int ti = type_index(t);
    if (cond < ISA_BINOP_EQ || cond > ISA_BINOP_GE || ti < 0 || w == 0 ||
        w > LANES_MAX)
        return NULL;
    lanes_fast_cmp_fn fc;
    if (ti == TC_F16 && f16c_allowed && (fc = lanes_f16c_cmp(cond, w)) != NULL)
        return fc;
    return cmp_tab[cond][ti][width_index(w)];
}

/* --------------------------------------------------------- conversions */

/* Integer-to-integer cvt without saturation between 32- and 64-bit types,
 * as cvt.c's int_to_int: the source sign- or zero-extended from its width,
 * then cut to the destination's.  Three shapes cover the sixteen pairs. */
#define CE_LO32 a[l] & UINT64_C(0xffffffff)
#define CE_SX32 (uint64_t)((int64_t)(a[l] << 32) >> 32)
#define CE_ID64 a[l]

#define GEN_CVT(K, W) \
static void cvt_##K##_##W(uint64_t *r, const uint64_t *a, const uint64_t *b, \
                          const uint64_t *c, uint32_t w) \
{ \
    const uint32_t n = (W) ? (W) : w; \
    uint32_t l = 0; \
    (void)b; (void)c; \
    CVT_VEC_LOOP(K) \
    LANE_LOOP \
    for (; l < n; l++) \
        r[l] = CE_##K; \
}
/* binary16 to binary32 and binary64 (exact) and binary32 to binary16
 * (rounded to nearest even, as cvt.c's float_to_float); four lanes an
 * iteration through half4.h where there is SSE2 */
#define CE_H2F lp_f32_bits(lp_h2f(a[l]))
#define CE_H2D lp_f64_bits((double)lp_h2f(a[l]))
#define CE_F2H lp_f2h(lp_f32(a[l]))
#if H4_SSE2
#define CVT_VEC_LO32
#define CVT_VEC_SX32
#define CVT_VEC_ID64
#define CVT_VEC_H2F \
    for (; l + 4 <= n; l += 4) \
        h4_store(r + l, _mm_castps_si128(h4_h2f(h4_load(a + l))));
#define CVT_VEC_H2D \
    for (; l + 4 <= n; l += 4) { \
        const __m128 x = h4_h2f(h4_load(a + l)); \
        _mm_storeu_pd((double *)(void *)(r + l), _mm_cvtps_pd(x)); \
        _mm_storeu_pd((double *)(void *)(r + l + 2), _mm_cvtps_pd(_mm_movehl_ps(x, x))); \
    }
#define CVT_VEC_F2H \
    for (; l + 4 <= n; l += 4) \
        h4_store(r + l, h4_f2h(_mm_castsi128_ps(h4_load(a + l))));
#define CVT_VEC_LOOP(K) CVT_VEC_##K
#else
#define CVT_VEC_LOOP(K)
#endif

#define CVT_KINDS(X) X(LO32) X(SX32) X(ID64) X(H2F) X(H2D) X(F2H)
#define GEN_CVT_K(K) GEN_CVT(K, 8) GEN_CVT(K, 16) GEN_CVT(K, 32) GEN_CVT(K, 0)
CVT_KINDS(GEN_CVT_K)

enum { CV_LO32, CV_SX32, CV_ID64, CV_H2F, CV_H2D, CV_F2H };
#define CVROW(K) { cvt_##K##_8, cvt_##K##_16, cvt_##K##_32, cvt_##K##_0 },
static const lanes_fast_fn cvt_tab[][4] = { CVT_KINDS(CVROW) };

lanes_fast_fn lanes_fast_cvt(isa_type d, isa_type s, uint32_t w)
{
    const int di = type_index(d), si = type_index(s);
    if (di < 0 || si < 0 || w == 0 || w > LANES_MAX)
        return NULL;
    lanes_fast_fn fc;
    if (f16c_allowed && (fc = lanes_f16c_cvt(d, s, w)) != NULL)
        return fc;
    if (si == TC_F16 && (di == TC_F32 || di == TC_F64))
        return cvt_tab[di == TC_F32 ? CV_H2F : CV_H2D][width_index(w)];
    if (si == TC_F32 && di == TC_F16)
        return cvt_tab[CV_F2H][width_index(w)];
    if (di > TC_I64 || si > TC_I64)
        return NULL;
    const bool d64 = di >= TC_U64, s64 = si >= TC_U64;
    const int kind = !d64 ? CV_LO32 : s64 ? CV_ID64
                   : si == TC_I32 ? CV_SX32 : CV_LO32;
    return cvt_tab[kind][width_index(w)];
}
