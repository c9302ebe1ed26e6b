/*
 * fast_f16c.c - the binary16 kernels of fast.c with x86's F16C conversion
 * instructions (vcvtph2ps, vcvtps2ph), for hosts that have them.
 *
 * F16C converts four halves in one instruction where half4.h needs about
 * twenty: widening is exact, and narrowing is told to round to nearest
 * even by its immediate (not by MXCSR), keeps subnormals, gives infinity
 * from 65520 up and quiets a NaN keeping its top payload bits, which are
 * lp_h2f's and lp_f2h's rules.  The arithmetic between the conversions is
 * fast.c's, four lanes an iteration.  This file is compiled for AVX and
 * F16C, and lanes_f16c_* hand its kernels out only when the host has both
 * (fast.c asks; tests/lanes/test_half_ops.c runs every test with and
 * without them).
 */
#include "lanes_priv.h"
#include "lanes_fast.h"
#include "fast_f16c.h"
#include "half4.h"

#if H4_SSE2 && (defined(__x86_64__) || defined(__i386__)) && \
    (defined(__GNUC__) || defined(__clang__))

#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx,f16c"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx,f16c")
#endif
#include <immintrin.h>
#include <cpuid.h>

#define FC_INLINE static inline __attribute__((always_inline))

/* four slots' halves as floats, and four floats rounded into slots */
FC_INLINE __m128 fc_ld(const uint64_t *p)
{
    const __m128i v = _mm_and_si128(h4_load(p), _mm_set1_epi32(0xffff));
    return _mm_cvtph_ps(_mm_packus_epi32(v, v));
}

FC_INLINE __m128i fc_h(__m128 f)
{
    return _mm_cvtps_ph(f, _MM_FROUND_TO_NEAREST_INT);
}

FC_INLINE void fc_st(uint64_t *p, __m128i h)
{
    _mm_storeu_si128((__m128i *)(void *)p, _mm_cvtepu16_epi64(h));
    _mm_storeu_si128((__m128i *)(void *)(p + 2), _mm_cvtepu16_epi64(_mm_srli_si128(h, 4)));
}

#define FV_ADD fc_h(_mm_add_ps(X, Y))
#define FV_SUB fc_h(_mm_sub_ps(X, Y))
#define FV_MUL fc_h(_mm_mul_ps(X, Y))
#define FV_DIV fc_h(_mm_div_ps(X, Y))
#define FV_MAD fc_h(_mm_add_ps(_mm_cvtph_ps(fc_h(_mm_mul_ps(X, Y))), Z))
#define FV_FMA fc_h(h4_fma_odd(X, Y, Z))
#define FV_MIN fc_h(h4_fminmax(X, Y, false))
#define FV_MAX fc_h(h4_fminmax(X, Y, true))
#define FV_SQRT fc_h(_mm_sqrt_ps(X))
#define FN_ADD 2
#define FN_SUB 2
#define FN_MUL 2
#define FN_DIV 2
#define FN_MAD 3
#define FN_FMA 3
#define FN_MIN 2
#define FN_MAX 2
#define FN_SQRT 1

/* the scalar forms for the lanes past a multiple of four (fast.c's) */
#define HL(v) lp_h2f(v)
#define FE_ADD lp_f2h(HL(a[l]) + HL(b[l]))
#define FE_SUB lp_f2h(HL(a[l]) - HL(b[l]))
#define FE_MUL lp_f2h(HL(a[l]) * HL(b[l]))
#define FE_DIV lp_f2h(HL(a[l]) / HL(b[l]))
#define FE_MAD lp_f2h(HL(lp_f2h(HL(a[l]) * HL(b[l]))) + HL(c[l]))
#define FE_FMA lp_fma_h(HL(a[l]), HL(b[l]), HL(c[l]))
#define FE_MIN lp_f2h(lp_fminf(HL(a[l]), HL(b[l])))
#define FE_MAX lp_f2h(lp_fmaxf(HL(a[l]), HL(b[l])))
#define FE_SQRT lp_f2h(sqrtf(HL(a[l])))

#define FC_FAMS(X) X(ADD) X(SUB) X(MUL) X(DIV) X(MAD) X(FMA) X(MIN) X(MAX) X(SQRT)

#define GEN_FC(F, W) \
static void fc_##F##_##W(uint64_t *r, const uint64_t *a, const uint64_t *b, \
                         const uint64_t *c, uint32_t w) \
{ \
    const uint32_t n = (W) ? (W) : w; \
    uint32_t l = 0; \
    (void)b; (void)c; \
    for (; l + 4 <= n; l += 4) { \
        const __m128 X = fc_ld(a + l); \
        const __m128 Y = FN_##F >= 2 ? fc_ld(b + l) : X; \
        const __m128 Z = FN_##F >= 3 ? fc_ld(c + l) : X; \
        (void)Y; (void)Z; \
        fc_st(r + l, FV_##F); \
    } \
    for (; l < n; l++) \
        r[l] = FE_##F; \
}
#define GEN_FC_F(F) GEN_FC(F, 8) GEN_FC(F, 16) GEN_FC(F, 32) GEN_FC(F, 0)
FC_FAMS(GEN_FC_F)

/* compares: as fast.c's, on the widened halves */
#define FCC_EQ(X, Y) _mm_cmpeq_ps(X, Y)
#define FCC_NE(X, Y) _mm_cmpneq_ps(X, Y)
#define FCC_LT(X, Y) _mm_cmplt_ps(X, Y)
#define FCC_LE(X, Y) _mm_cmple_ps(X, Y)
#define FCC_GT(X, Y) _mm_cmplt_ps(Y, X)
#define FCC_GE(X, Y) _mm_cmple_ps(Y, X)
#define FC_CONDS(X) X(EQ, ==) X(NE, !=) X(LT, <) X(LE, <=) X(GT, >) X(GE, >=)

#define GEN_FCC(C, OP, W) \
static lanes_mask fcc_##C##_##W(const uint64_t *a, const uint64_t *b, uint32_t w) \
{ \
    const uint32_t n = (W) ? (W) : w < LANES_MAX ? w : LANES_MAX; \
    lanes_mask res = 0; \
    uint32_t l = 0; \
    for (; l + 4 <= n; l += 4) \
        res |= (lanes_mask)(unsigned)_mm_movemask_ps(FCC_##C(fc_ld(a + l), \
                                                             fc_ld(b + l))) << l; \
    for (; l < n; l++) \
        res |= (lanes_mask)(HL(a[l]) OP HL(b[l])) << l; \
    return res; \
}
#define GEN_FCC_C(C, OP) GEN_FCC(C, OP, 8) GEN_FCC(C, OP, 16) GEN_FCC(C, OP, 32) \
    GEN_FCC(C, OP, 0)
FC_CONDS(GEN_FCC_C)

/* conversions */
#define FCV_H2F h4_store(r + l, _mm_castps_si128(fc_ld(a + l)));
#define FCV_H2D { const __m128 x = fc_ld(a + l); \
    _mm_storeu_pd((double *)(void *)(r + l), _mm_cvtps_pd(x)); \
    _mm_storeu_pd((double *)(void *)(r + l + 2), _mm_cvtps_pd(_mm_movehl_ps(x, x))); }
#define FCV_F2H fc_st(r + l, fc_h(_mm_castsi128_ps(h4_load(a + l))));
#define FCE_H2F lp_f32_bits(lp_h2f(a[l]))
#define FCE_H2D lp_f64_bits((double)lp_h2f(a[l]))
#define FCE_F2H lp_f2h(lp_f32(a[l]))
#define FC_CVTS(X) X(H2F) X(H2D) X(F2H)

#define GEN_FCV(K, W) \
static void fcv_##K##_##W(uint64_t *r, const uint64_t *a, const uint64_t *b, \
                          const uint64_t *c, uint32_t w) \
{ \
    const uint32_t n = (W) ? (W) : w; \
    uint32_t l = 0; \
    (void)b; (void)c; \
    for (; l + 4 <= n; l += 4) \
        FCV_##K \
    for (; l < n; l++) \
        r[l] = FCE_##K; \
}
#define GEN_FCV_K(K) GEN_FCV(K, 8) GEN_FCV(K, 16) GEN_FCV(K, 32) GEN_FCV(K, 0)
FC_CVTS(GEN_FCV_K)

#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif

static int windex(uint32_t w)
{
    return w == 8 ? 0 : w == 16 ? 1 : w == 32 ? 2 : 3;
}

#define FROW(F) [ISA_FAM_##F] = { fc_##F##_8, fc_##F##_16, fc_##F##_32, fc_##F##_0 },
static const lanes_fast_fn fc_tab[ISA_FAM_COUNT][4] = { FC_FAMS(FROW) };
#define FCROW(C, OP) [ISA_BINOP_##C] = { fcc_##C##_8, fcc_##C##_16, fcc_##C##_32, fcc_##C##_0 },
static const lanes_fast_cmp_fn fcc_tab[ISA_BINOP_COUNT][4] = { FC_CONDS(FCROW) };
#define FVROW(K) { fcv_##K##_8, fcv_##K##_16, fcv_##K##_32, fcv_##K##_0 },
static const lanes_fast_fn fcv_tab[3][4] = { FC_CVTS(FVROW) };

/* The host has AVX and F16C (CPUID leaf 1: ECX bits 28 and 29) and the OS
 * saves the AVX registers (OSXSAVE, bit 27, and XCR0's SSE and AVX
 * state bits): VEX instructions fault otherwise.  Asked once; the answer
 * is the same for every thread, so racing first callers agree. */
static bool host_f16c(void)
{
    static int known = -1;
    int k = __atomic_load_n(&known, __ATOMIC_RELAXED);
    if (k < 0) {
        unsigned a, b, c, d;
        k = 0;
        if (__get_cpuid(1, &a, &b, &c, &d) && (c >> 27 & 7) == 7) {
            unsigned lo, hi;
            __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
            k = (lo & 6) == 6;
        }
        __atomic_store_n(&known, k, __ATOMIC_RELAXED);
    }
    return k != 0;
}

lanes_fast_fn lanes_f16c_alu(isa_family f, uint32_t w)
{
    if ((unsigned)f >= ISA_FAM_COUNT || w == 0 || w > LANES_MAX || !host_f16c())
        return NULL;
    return fc_tab[f][windex(w)];
}

lanes_fast_cmp_fn lanes_f16c_cmp(isa_binop cond, uint32_t w)
{
    if (cond < ISA_BINOP_EQ || cond > ISA_BINOP_GE || w == 0 || w > LANES_MAX ||
        !host_f16c())
        return NULL;
    return fcc_tab[cond][windex(w)];
}

lanes_fast_fn lanes_f16c_cvt(isa_type d, isa_type s, uint32_t w)
{
    if (w == 0 || w > LANES_MAX || !host_f16c())
        return NULL;
    const int k = s == ISA_T_F16 && d == ISA_T_F32 ? 0
                : s == ISA_T_F16 && d == ISA_T_F64 ? 1
                : s == ISA_T_F32 && d == ISA_T_F16 ? 2 : -1;
    return k < 0 ? NULL : fcv_tab[k][windex(w)];
}

#else

lanes_fast_fn lanes_f16c_alu(isa_family f, uint32_t w)
{
    (void)f; (void)w;
    return NULL;
}

lanes_fast_cmp_fn lanes_f16c_cmp(isa_binop cond, uint32_t w)
{
    (void)cond; (void)w;
    return NULL;
}

lanes_fast_fn lanes_f16c_cvt(isa_type d, isa_type s, uint32_t w)
{
    (void)d; (void)s; (void)w;
    return NULL;
}

#endif
