/*
 * half.c - IEEE binary16 conversions by bit manipulation (no _Float16, no
 * dependence on the FPU rounding mode).  Every narrowing goes through
 * isa_f64_to_f16 (isa/opnd.c), the one rounding routine, which the
 * assembler uses for half literals too: float -> double is exact, so
 * f32 -> f16 is still a single rounding.  The lane kernels of fast.c
 * convert with lanes_priv.h's lp_h2f and lp_f2h, which give the same bits
 * (lp_f2h under the default rounding mode; tests/lanes/test_half.c checks
 * both against the binary16 definition).
 */
#include "lanes_priv.h"

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
    return lp_h2f(h);
}
