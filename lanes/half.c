/*
 * half.c - IEEE binary16 conversions by bit manipulation (no _Float16, no
 * dependence on the FPU rounding mode).  Every narrowing goes through
 * lanes_f64_to_f16 so there is one rounding routine: float -> double is
 * exact, so f32 -> f16 is still a single rounding.
 */
#include "lanes.h"

#include <string.h>

uint16_t lanes_f64_to_f16(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    const uint16_t sign = (uint16_t)((u >> 48) & 0x8000u);
    const int e = (int)((u >> 52) & 0x7ff);
    const uint64_t m = u & ((UINT64_C(1) << 52) - 1);

    if (e == 0x7ff) {
        if (m == 0)
            return sign | 0x7c00u;
        /* keep the top payload bits, force quiet */
        return sign | 0x7e00u | (uint16_t)((m >> 42) & 0x3ffu);
    }
    if (e == 0)                 /* zero or double subnormal: far below 2^-25 */
        return sign;

    const int E = e - 1023;
    if (E > 15)
        return sign | 0x7c00u;
    /* Bits to drop so that the result counts units of the half's ulp:
     * 2^(E-10) for normals, 2^-24 below the normal range. */
    const int drop = 42 + (E < -14 ? -14 - E : 0);
    if (drop >= 55)             /* value < 2^-26: rounds to zero */
        return sign;
    const uint64_t sig = (UINT64_C(1) << 52) | m;
    uint64_t q = sig >> drop;
    const uint64_t rest = sig & ((UINT64_C(1) << drop) - 1);
    const uint64_t halfway = UINT64_C(1) << (drop - 1);
    if (rest > halfway || (rest == halfway && (q & 1)))
        q++;
    /* q counts ulps; adding it to the exponent field lets a carry out of
     * the significand step into the next binade (or infinity). */
    uint32_t bits = E >= -14 ? ((uint32_t)(E + 14) << 10) + (uint32_t)q
                             : (uint32_t)q;
    if (bits >= 0x7c00u)
        return sign | 0x7c00u;
    return sign | (uint16_t)bits;
}

uint16_t lanes_f32_to_f16(float f)
{
    return lanes_f64_to_f16((double)f);
}

float lanes_f16_to_f32(uint16_t h)
{
    const uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    const uint32_t e = (h >> 10) & 0x1fu;
    const uint32_t m = h & 0x3ffu;
    uint32_t bits;
    float f;

    if (e == 0x1f) {
        bits = sign | 0x7f800000u | (m << 13);
        if (m)
            bits |= 0x00400000u;    /* NaN stays NaN, quiet */
    } else if (e == 0) {
        /* subnormal: m * 2^-24, exact in float */
        f = (float)m * 0x1p-24f;
        memcpy(&bits, &f, sizeof bits);
        bits |= sign;
    } else {
        bits = sign | ((e - 15 + 127) << 23) | (m << 13);
    }
    memcpy(&f, &bits, sizeof f);
    return f;
}
