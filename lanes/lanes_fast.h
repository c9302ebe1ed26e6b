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

#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* r[l] = op(a[l], b[l], c[l]) for l < width (unused sources may be NULL).
 * r may be one of the sources (that whole row, never a part of one: the
 * kernels assume no lane depends on another): each lane reads before it
 * writes. */
typedef void (*lanes_fast_fn)(uint64_t *r, const uint64_t *a,
                              const uint64_t *b, const uint64_t *c, uint32_t w);
/* bit l = cond(a[l], b[l]) for l < width */
typedef lanes_mask (*lanes_fast_cmp_fn)(const uint64_t *a, const uint64_t *b,
                                        uint32_t w);

/* The kernel of an ALU family for type t at width w, or NULL when it has
 * none (integer division, narrow integers, transcendentals...).  f16 has
 * kernels for add sub mul div mad fma min max abs neg sqrt, computed in
 * binary32 and rounded once (fast.c says why that is exact). */
lanes_fast_fn lanes_fast_alu(isa_family f, isa_type t, uint32_t w);
/* Whether the f16 kernels handed out from now on may use the host's F16C
 * conversion instructions (the default; fast_f16c.c) or must use SSE2 bit
 * operations (half4.h).  Both give the same bits; tests run both.  Returns
 * whether F16C kernels were handed out before the call (false on a host
 * without F16C).  Not for use while another thread decodes. */
bool lanes_fast_set_f16c(bool allow);

/* The compare kernel for cond (EQ..GE) on type t, or NULL. */
lanes_fast_cmp_fn lanes_fast_cmp(isa_binop cond, isa_type t, uint32_t w);

/* A kernel for the same op as lanes_fast_alu's when source b holds one
 * value in every lane (it reads b[0] only), or NULL where the general
 * kernel is as good (so far: integer shifts by a uniform count). */
lanes_fast_fn lanes_fast_alu_uniform_b(isa_family f, isa_type t, uint32_t w);

/* The kernel of a non-saturating integer cvt from s to d (32- and 64-bit
 * integer types), or of f16 -> f32, f16 -> f64 and f32 -> f16 rounded to
 * nearest even (the caller keeps a directed rounding off this path), at
 * width w, or NULL; sources b and c are unused. */
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

/* Rows to and from 32-bit elements in memory (a coalesced load or store
 * of u32/i32/f32): d[l] = the element at p + 4 l, zero-extended, and the
 * element at p + 4 l = the low 32 bits of v[l], for l < w.  SSE2 moves
 * four lanes with one unpack pair or one shuffle; p never overlaps a row. */
static inline __attribute__((always_inline)) void lanes_fast_widen32(uint64_t *d, const uint8_t *p, uint32_t w)
{
    uint32_t l = 0;
#if defined(__SSE2__)
    const __m128i z = _mm_setzero_si128();
    for (; l + 4 <= w; l += 4) {
        const __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(p + 4 * l));
        _mm_storeu_si128((__m128i *)(void *)(d + l), _mm_unpacklo_epi32(x, z));
        _mm_storeu_si128((__m128i *)(void *)(d + l + 2), _mm_unpackhi_epi32(x, z));
    }
#endif
    for (; l < w; l++) {
        uint32_t t;
        memcpy(&t, p + 4 * l, 4);
        d[l] = t;
    }
}

static inline __attribute__((always_inline)) void lanes_fast_narrow32(uint8_t *p, const uint64_t *v, uint32_t w)
{
    uint32_t l = 0;
#if defined(__SSE2__)
    for (; l + 4 <= w; l += 4) {
        const __m128 a = _mm_castsi128_ps(_mm_loadu_si128((const __m128i *)(const void *)(v + l)));
        const __m128 b = _mm_castsi128_ps(_mm_loadu_si128((const __m128i *)(const void *)(v + l + 2)));
        _mm_storeu_si128((__m128i *)(void *)(p + 4 * l),
                         _mm_castps_si128(_mm_shuffle_ps(a, b, _MM_SHUFFLE(2, 0, 2, 0))));
    }
#endif
    for (; l < w; l++) {
        const uint32_t t = (uint32_t)v[l];
        memcpy(p + 4 * l, &t, 4);
    }
}

/* r[l] = v + l for l < w (a work-item id row): two lanes an add. */
static inline __attribute__((always_inline)) void lanes_fast_ramp(uint64_t *r, uint64_t v,
                                                                  uint32_t w)
{
    uint32_t l = 0;
#if defined(__SSE2__)
    const uint64_t v1 = v + 1;
    __m128i x = _mm_set_epi64x((long long)v1, (long long)v);
    const __m128i two = _mm_set1_epi64x(2);
    for (; l + 2 <= w; l += 2) {
        _mm_storeu_si128((__m128i *)(void *)(r + l), x);
        x = _mm_add_epi64(x, two);
    }
#endif
    for (; l < w; l++)
        r[l] = v + l;
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

/* lanes_simt_reset(s, lanes, 0) for the usual entry of a sub-group that
 * ran before: its stack already has storage (cap) and some lanes start, so
 * nothing grows and nothing needs settling. */
static inline int lanes_fast_simt_enter(lanes_simt *s, lanes_mask lanes)
{
    if (!s->cap || !lanes)
        return lanes_simt_reset(s, lanes, 0);
    s->e[0] = (lanes_simt_entry){ .pc = 0, .rpc = ISA_PC_EXIT, .mask = lanes };
    s->depth = 1;
    s->exited = 0;
    s->oom = false;
    return 0;
}

/* lanes_simt_ret: with one entry its lanes all leave, which empties the
 * stack (the settle pass would pop it); deeper stacks take the call. */
static inline void lanes_fast_simt_ret(lanes_simt *s)
{
    if (s->depth == 1) {
        s->exited |= s->e[0].mask;
        s->depth = 0;
        return;
    }
    lanes_simt_ret(s);
}

#endif
