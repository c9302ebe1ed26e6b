/*
 * lanes_fast.h - straight-line lane kernels for the decoded execution form
 * (emu/decode.c).  Each kernel is specialised for one (family, type, width)
 * and chosen once per instruction at decode time, so the hot loop has no
 * operand, type or family dispatch.  Results are bit-identical to
 * lanes_exec_alu; anything without a kernel here goes through it.
 */
#ifndef SGEMU_LANES_FAST_H
#define SGEMU_LANES_FAST_H

#include "lanes.h"

/* r[l] = op(a[l], b[l], c[l]) for l < width (unused sources may be NULL).
 * r may be one of the sources: each lane reads before it writes. */
typedef void (*lanes_fast_fn)(uint64_t *r, const uint64_t *a,
                              const uint64_t *b, const uint64_t *c, uint32_t w);
/* bit l = cond(a[l], b[l]) for l < width */
typedef lanes_mask (*lanes_fast_cmp_fn)(const uint64_t *a, const uint64_t *b,
                                        uint32_t w);

/* The kernel of an ALU family for type t at width w, or NULL when it has
 * none (division, narrow integers, f16, transcendentals...). */
lanes_fast_fn lanes_fast_alu(isa_family f, isa_type t, uint32_t w);
/* The compare kernel for cond (EQ..GE) on type t, or NULL. */
lanes_fast_cmp_fn lanes_fast_cmp(isa_binop cond, isa_type t, uint32_t w);

/* A kernel for the same op as lanes_fast_alu's when source b holds one
 * value in every lane (it reads b[0] only), or NULL where the general
 * kernel is as good (so far: integer shifts by a uniform count). */
lanes_fast_fn lanes_fast_alu_uniform_b(isa_family f, isa_type t, uint32_t w);

/* The kernel of a non-saturating integer cvt from s to d (32- and 64-bit
 * integer types) at width w, or NULL; sources b and c are unused. */
lanes_fast_fn lanes_fast_cvt(isa_type d, isa_type s, uint32_t w);

/* d[l] = s[l] for the lanes of mask (l < w). */
static inline void lanes_fast_blend(uint64_t *d, const uint64_t *s,
                                    lanes_mask mask, uint32_t w)
{
    for (uint32_t l = 0; l < w; l++) {
        const uint64_t m = (uint64_t)0 - ((mask >> l) & 1);
        d[l] = (s[l] & m) | (d[l] & ~m);
    }
}

#endif
