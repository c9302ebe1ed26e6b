/*
 * timing_wheel.h - a 64-slot timing wheel of bit masks for up to 64
 * members, each filed by a time: the CUs of a device by their next step
 * (timing_core.c), the schedulers of a CU by the bound of their next issue
 * (timing_sched.c).  The lowest (time, index) and the members due at a time
 * come out of a few mask operations instead of a heap sift or a scan.
 *
 * slot[t & 63]: the members whose time is t, for t in [base, base + 64);
 * occ: the non-empty slots; far: the members further ahead, far_min the
 * lowest of their times (only a lower bound while far_stale).  Members at
 * TM_NEVER are in neither.  The times themselves stay with the caller, in a
 * strided array (tm_wheel_keys), read back only for far members: a member's
 * time may change only while it is out of the wheel (taken), or together
 * with a take and a put.
 */
#ifndef SGEMU_TIMING_WHEEL_H
#define SGEMU_TIMING_WHEEL_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#ifndef TM_NEVER
#error "timing_wheel.h is included through timing_private.h (TM_NEVER)"
#endif

typedef struct tm_wheel {
    /* the header first: a step reads it and one slot */
    uint64_t occ, far, far_min, base;
    bool far_stale;
    uint64_t slot[64];
} tm_wheel;

/* Member i's time is key[i * stride] (stride in uint64_t units). */
typedef struct tm_wheel_keys {
    const uint64_t *key;
    size_t stride;
} tm_wheel_keys;

static inline uint64_t tm_wheel_key(tm_wheel_keys k, uint32_t i)
{
    return k.key[(size_t)i * k.stride];
}

/* Empty, from base on. */
static inline void tm_wheel_reset(tm_wheel *w, uint64_t base)
{
    memset(w->slot, 0, sizeof w->slot);
    w->occ = w->far = 0;
    w->far_min = TM_NEVER;
    w->far_stale = false;
    w->base = base;
}

/* Member i, at time t >= base (or TM_NEVER), into the wheel; it is not in it. */
static inline void tm_wheel_put(tm_wheel *w, uint32_t i, uint64_t t)
{
    if (t - w->base < 64) {
        w->slot[t & 63] |= 1ull << i;
        w->occ |= 1ull << (t & 63);
    } else if (t != TM_NEVER) {
        w->far |= 1ull << i;
        if (t < w->far_min)
            w->far_min = t;
    }
}

/* Member i, filed at time t, out of the wheel. */
static inline void tm_wheel_take(tm_wheel *w, uint32_t i, uint64_t t)
{
    uint64_t b = 1ull << i;
    if (w->far & b) {
        w->far &= ~b;
        w->far_stale = true;
    } else if (t - w->base < 64) {
        w->slot[t & 63] &= ~b;
        if (!w->slot[t & 63])
            w->occ &= ~(1ull << (t & 63));
    }
}

/* The members of mask (and those in the wheel) filed again from base (a
 * time below base came, or the wheel starts). */
static inline void tm_wheel_refile(tm_wheel *w, tm_wheel_keys k, uint64_t mask, uint64_t base)
{
    for (uint32_t b = 0; b < 64; b++)
        mask |= w->slot[b];
    mask |= w->far;
    tm_wheel_reset(w, base);
    for (; mask; mask &= mask - 1) {
        uint32_t i = (uint32_t)__builtin_ctzll(mask);
        tm_wheel_put(w, i, tm_wheel_key(k, i));
    }
}

/* The exact far_min, after members left far. */
static inline void tm_wheel_far_refresh(tm_wheel *w, tm_wheel_keys k)
{
    uint64_t lo = TM_NEVER;
    for (uint64_t f = w->far; f; f &= f - 1) {
        uint64_t t = tm_wheel_key(k, (uint32_t)__builtin_ctzll(f));
        if (t < lo)
            lo = t;
    }
    w->far_min = lo;
    w->far_stale = false;
}

/* The far members that came within 64 of base into the slots. */
static inline void tm_wheel_pull(tm_wheel *w, tm_wheel_keys k)
{
    uint64_t lo = TM_NEVER;
    for (uint64_t f = w->far; f; f &= f - 1) {
        uint32_t i = (uint32_t)__builtin_ctzll(f);
        uint64_t t = tm_wheel_key(k, i);
        if (t - w->base < 64) {
            w->far &= ~(1ull << i);
            w->slot[t & 63] |= 1ull << i;
            w->occ |= 1ull << (t & 63);
        } else if (t < lo) {
            lo = t;
        }
    }
    w->far_min = lo;
    w->far_stale = false;
}

/* The lowest time of a non-empty slot (TM_NEVER: none), base <= from <
 * base + 64 and no slot below from occupied. */
static inline uint64_t tm_wheel_first(const tm_wheel *w, uint64_t from)
{
    if (!w->occ)
        return TM_NEVER;
    uint32_t b0 = (uint32_t)(from & 63);
    uint64_t r = b0 ? (w->occ >> b0) | (w->occ << (64 - b0)) : w->occ;
    return from + (uint64_t)__builtin_ctzll(r);
}

/* The member of lowest (time, index) out of the wheel, its time in *t and
 * base moved to it; UINT32_MAX (and TM_NEVER) when the wheel is empty. */
static inline uint32_t tm_wheel_pop(tm_wheel *w, tm_wheel_keys k, uint64_t *t)
{
    if (w->far_min - w->base < 64)
        tm_wheel_pull(w, k);
    if (!w->occ) {
        *t = w->far_min;
        if (w->far_min == TM_NEVER)
            return UINT32_MAX;
        w->base = w->far_min;
        tm_wheel_pull(w, k);
    }
    uint64_t tt = tm_wheel_first(w, w->base);
    uint32_t b = (uint32_t)(tt & 63);
    uint32_t i = (uint32_t)__builtin_ctzll(w->slot[b]);
    w->slot[b] &= w->slot[b] - 1;
    if (!w->slot[b])
        w->occ &= ~(1ull << b);
    w->base = tt;
    *t = tt;
    return i;
}

#endif
