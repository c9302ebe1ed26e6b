/*
 * half4.h - lanes_priv.h's binary16 helpers four lanes at a time (SSE2):
 * the same operations in the same order, each select written as a mask
 * blend, so the results are those of lp_h2f, lp_f2h, lp_fma_h, lp_fminf
 * and lp_fmaxf bit for bit (tests/lanes/test_fast.c compares them lane by
 * lane).  GCC does not vectorise the scalar forms: their selects mix
 * float and integer views of one value.  H4_SSE2 is 0 without SSE2; the
 * kernels then use the scalar helpers only.
 */
#ifndef SGEMU_LANES_HALF4_H
#define SGEMU_LANES_HALF4_H

#include "lanes_priv.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#define H4_SSE2 1

#define H4_INLINE static inline __attribute__((always_inline))

/* where m: x, else y */
H4_INLINE __m128i h4_sel(__m128i m, __m128i x, __m128i y)
{
    return _mm_or_si128(_mm_and_si128(m, x), _mm_andnot_si128(m, y));
}

/* the low 32 bits of four 64-bit slots, and four 32-bit values back into
 * slots, zero-extended */
H4_INLINE __m128i h4_load(const uint64_t *p)
{
    const __m128 lo = _mm_castsi128_ps(_mm_loadu_si128((const __m128i *)(const void *)p));
    const __m128 hi = _mm_castsi128_ps(_mm_loadu_si128((const __m128i *)(const void *)(p + 2)));
    return _mm_castps_si128(_mm_shuffle_ps(lo, hi, _MM_SHUFFLE(2, 0, 2, 0)));
}

H4_INLINE void h4_store(uint64_t *p, __m128i v)
{
    const __m128i z = _mm_setzero_si128();
    _mm_storeu_si128((__m128i *)(void *)p, _mm_unpacklo_epi32(v, z));
    _mm_storeu_si128((__m128i *)(void *)(p + 2), _mm_unpackhi_epi32(v, z));
}

/* lp_h2f of the low 16 bits of each element */
H4_INLINE __m128 h4_h2f(__m128i v)
{
    const __m128i h = _mm_and_si128(v, _mm_set1_epi32(0xffff));
    const __m128i em = _mm_and_si128(h, _mm_set1_epi32(0x7fff));
    const __m128i sign = _mm_slli_epi32(_mm_and_si128(h, _mm_set1_epi32(0x8000)), 16);
    const __m128i sub = _mm_castps_si128(_mm_mul_ps(_mm_cvtepi32_ps(em),
                                                    _mm_set1_ps(0x1p-24f)));
    const __m128i sh = _mm_slli_epi32(em, 13);
    const __m128i isnan = _mm_cmpgt_epi32(em, _mm_set1_epi32(0x7c00));
    const __m128i naninf = _mm_or_si128(_mm_or_si128(sh, _mm_set1_epi32(0x7f800000)),
                                        _mm_and_si128(isnan, _mm_set1_epi32(0x00400000)));
    const __m128i norm = _mm_add_epi32(sh, _mm_set1_epi32((127 - 15) << 23));
    const __m128i bits =
        h4_sel(_mm_cmplt_epi32(em, _mm_set1_epi32(0x400)), sub,
               h4_sel(_mm_cmpgt_epi32(em, _mm_set1_epi32(0x7bff)), naninf, norm));
    return _mm_castsi128_ps(_mm_or_si128(bits, sign));
}

/* lp_f2h: four halves in the low 16 bits of each element */
H4_INLINE __m128i h4_f2h(__m128 f)
{
    const __m128i u = _mm_castps_si128(f);
    const __m128i a = _mm_and_si128(u, _mm_set1_epi32(0x7fffffff));
    const __m128i sub = _mm_sub_epi32(
        _mm_castps_si128(_mm_add_ps(_mm_castsi128_ps(a), _mm_set1_ps(0.5f))),
        _mm_set1_epi32(0x3f000000));
    const __m128i a13 = _mm_srli_epi32(a, 13);
    const __m128i norm = _mm_srli_epi32(
        _mm_sub_epi32(_mm_add_epi32(_mm_add_epi32(a, _mm_set1_epi32(0xfff)),
                                    _mm_and_si128(a13, _mm_set1_epi32(1))),
                      _mm_set1_epi32((127 - 15) << 23)), 13);
    const __m128i nan = _mm_or_si128(_mm_set1_epi32(0x7e00),
                                     _mm_and_si128(a13, _mm_set1_epi32(0x3ff)));
    /* a <= 0x7fffffff: signed compares order it */
    const __m128i h =
        h4_sel(_mm_cmpgt_epi32(a, _mm_set1_epi32(0x7f800000)), nan,
               h4_sel(_mm_cmpgt_epi32(a, _mm_set1_epi32(0x477fffff)), _mm_set1_epi32(0x7c00),
                      h4_sel(_mm_cmplt_epi32(a, _mm_set1_epi32(0x38800000)), sub, norm)));
    return _mm_or_si128(h, _mm_and_si128(_mm_srli_epi32(u, 16), _mm_set1_epi32(0x8000)));
}

/* lp_fma_h: the sum rounded to odd at 24 bits, then to the half */
H4_INLINE __m128 h4_fma_odd(__m128 a, __m128 b, __m128 c)
{
    const __m128 p = _mm_mul_ps(a, b);
    const __m128 s = _mm_add_ps(p, c);
    const __m128 bb = _mm_sub_ps(s, p);
    const __m128 err = _mm_add_ps(_mm_sub_ps(p, _mm_sub_ps(s, bb)), _mm_sub_ps(c, bb));
    const __m128i inexact = _mm_castps_si128(
        _mm_and_ps(_mm_cmpneq_ps(err, _mm_setzero_ps()), _mm_cmpord_ps(err, err)));
    const __m128i u = _mm_castps_si128(s);
    /* err and s of opposite signs: s was rounded away from zero (neither is
     * zero where inexact) */
    const __m128i away = _mm_srli_epi32(_mm_xor_si128(_mm_castps_si128(err), u), 31);
    const __m128i odd = _mm_or_si128(_mm_sub_epi32(u, away), _mm_set1_epi32(1));
    return _mm_castsi128_ps(h4_sel(inexact, odd, u));
}

H4_INLINE __m128i h4_fma(__m128 a, __m128 b, __m128 c)
{
    return h4_f2h(h4_fma_odd(a, b, c));
}

/* lp_fminf / lp_fmaxf: a NaN operand loses; equal values (the zeros) give
 * x | y for min (-0 wins) and x & y for max (+0 wins) */
H4_INLINE __m128 h4_fminmax(__m128 x, __m128 y, bool max)
{
    const __m128i xi = _mm_castps_si128(x), yi = _mm_castps_si128(y);
    const __m128i nx = _mm_castps_si128(_mm_cmpunord_ps(x, x));
    const __m128i ny = _mm_castps_si128(_mm_cmpunord_ps(y, y));
    const __m128i xw = _mm_castps_si128(max ? _mm_cmpgt_ps(x, y) : _mm_cmplt_ps(x, y));
    const __m128i yw = _mm_castps_si128(max ? _mm_cmpgt_ps(y, x) : _mm_cmplt_ps(y, x));
    const __m128i eq = max ? _mm_and_si128(xi, yi) : _mm_or_si128(xi, yi);
    const __m128i r = h4_sel(nx, yi, h4_sel(ny, xi, h4_sel(xw, xi, h4_sel(yw, yi, eq))));
    return _mm_castsi128_ps(r);
}

#else
#define H4_SSE2 0
#endif

#endif
