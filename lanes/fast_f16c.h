/*
 * fast_f16c.h - fast.c's source of F16C binary16 kernels (fast_f16c.c).
 * Each returns NULL where the host lacks AVX or F16C, the build is not
 * for x86, or the op has no F16C kernel; fast.c then uses its own.
 */
#ifndef SGEMU_LANES_FAST_F16C_H
#define SGEMU_LANES_FAST_F16C_H

#include "lanes_fast.h"

/* f16 add sub mul div mad fma min max sqrt at width w */
lanes_fast_fn lanes_f16c_alu(isa_family f, uint32_t w);
/* f16 compares EQ..GE */
lanes_fast_cmp_fn lanes_f16c_cmp(isa_binop cond, uint32_t w);
/* cvt f16 -> f32, f16 -> f64, f32 -> f16 (nearest even) */
lanes_fast_fn lanes_f16c_cvt(isa_type d, isa_type s, uint32_t w);

#endif
