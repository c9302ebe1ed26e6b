/*
 * half.c - IEEE binary16 conversions by bit manipulation (no _Float16, no
 * dependence on the FPU rounding mode).  Every narrowing goes through
 * isa_f64_to_f16 (isa/opnd.c), the one rounding routine, which the
 * assembler uses for half literals too: float -> double is exact, so
 * f32 -> f16 is still a single rounding.
 */
#include "lanes.h"

#include <string.h>

uint16_t lanes_f64_to_f16(double d)
{
    return isa_f64_to_f16(d);
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
