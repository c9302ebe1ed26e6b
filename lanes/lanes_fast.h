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

/* A compare of a lane ramp against one value: lane l of a holds
 * a0 + l (modulo 2^64; alast is lane w - 1's value), every lane of b holds
 * b, both read as integer type t the way the compare kernels read them
 * (u32/i32: the low 32 bits, zero- or sign-extended).  Then the lanes with
 * a < b (a <= b) are the first ones, so *out is a count, not w compares.
 * false, *out untouched: t is not one of those four types, cond not EQ..GE,
 * or the ramp wraps in t (then the caller compares lane by lane). */
static inline bool lanes_fast_cmp_ramp(isa_binop cond, isa_type t, uint64_t a0,
                                       uint64_t alast, uint64_t b, uint32_t w,
                                       lanes_mask *out)
{
    /* keys in which t's order is unsigned 64-bit order */
    const uint64_t sign = UINT64_C(1) << 63;
    uint64_t k0, kl, kb;
    switch (t) {
    case ISA_T_U32:
        k0 = a0 & 0xffffffffu; kl = alast & 0xffffffffu; kb = b & 0xffffffffu;
        break;
    case ISA_T_I32:
        k0 = (uint64_t)(int64_t)(int32_t)(uint32_t)a0 ^ sign;
        kl = (uint64_t)(int64_t)(int32_t)(uint32_t)alast ^ sign;
        kb = (uint64_t)(int64_t)(int32_t)(uint32_t)b ^ sign;
        break;
    case ISA_T_U64: k0 = a0; kl = alast; kb = b; break;
    case ISA_T_I64: k0 = a0 ^ sign; kl = alast ^ sign; kb = b ^ sign; break;
    default: return false;
    }
    if (w == 0 || w > LANES_MAX || kl < k0 || kl - k0 != w - 1)
        return false;
    /* lanes with key < kb and with key <= kb */
    const uint32_t lt = kb <= k0 ? 0 : kb - k0 >= w ? w : (uint32_t)(kb - k0);
    const uint32_t le = kb < k0 ? 0 : kb - k0 >= w ? w : (uint32_t)(kb - k0) + 1;
    const lanes_mask all = lanes_mask_first(w), mlt = lanes_mask_first(lt),
                     mle = lanes_mask_first(le);
    switch (cond) {
    case ISA_BINOP_EQ: *out = mle & ~mlt; return true;
    case ISA_BINOP_NE: *out = all & ~(mle & ~mlt); return true;
    case ISA_BINOP_LT: *out = mlt; return true;
    case ISA_BINOP_LE: *out = mle; return true;
    case ISA_BINOP_GT: *out = all & ~mle; return true;
    case ISA_BINOP_GE: *out = all & ~mlt; return true;
    default: return false;
    }
}

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
