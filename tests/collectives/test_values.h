/* test_values.h - bit-pattern helpers shared by the collectives tests:
 * register slots hold a type's bits zero-extended to 64 (lanes/lanes.h). */
#ifndef SGEMU_TEST_VALUES_H
#define SGEMU_TEST_VALUES_H

#include "lanes.h"

#include <stdint.h>
#include <string.h>

/* all bits of type t */
static inline uint64_t mask_of(isa_type t)
{
    uint32_t b = isa_types[t].bytes;
    return b == 8 ? ~0ull : (1ull << (8 * b)) - 1;
}

/* a floating-point slot as a double */
static inline double as_d(isa_type t, uint64_t v)
{
    if (t == ISA_T_F16)
        return lanes_f16_to_f32((uint16_t)v);
    if (t == ISA_T_F32) {
        uint32_t u = (uint32_t)v;
        float f;
        memcpy(&f, &u, 4);
        return f;
    }
    double d;
    memcpy(&d, &v, 8);
    return d;
}

/* a double rounded to floating-point type t, as slot bits */
static inline uint64_t from_d(isa_type t, double d)
{
    if (t == ISA_T_F16)
        return lanes_f64_to_f16(d);
    if (t == ISA_T_F32) {
        float f = (float)d;
        uint32_t u;
        memcpy(&u, &f, 4);
        return u;
    }
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

/* an integer slot sign-extended from its type's width */
static inline int64_t sx(isa_type t, uint64_t v)
{
    uint32_t b = 8 * isa_types[t].bytes;
    return b == 64 ? (int64_t)v : (int64_t)(v << (64 - b)) >> (64 - b);
}

#endif
