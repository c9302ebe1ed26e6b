/*
 * cvt.c - cvt.DST.SRC: conversions between all element types.
 *
 * Each conversion runs in two lane loops: the source is loaded into a
 * common form (int64/uint64 or double, exact), then stored to the
 * destination.  Directed float rounding (rtz/rtp/rtn) starts from the
 * round-to-nearest-even result and steps one ulp when it lies on the wrong
 * side of the exact value, compared in long double, which holds every
 * int64, uint64 and double exactly.  No FPU mode is touched.
 */
#include "lanes_priv.h"

#include <float.h>

_Static_assert(LDBL_MANT_DIG >= 64, "long double must hold 64-bit integers");

__extension__ typedef __int128 cvt_i128;

/* ---------------------------------------------- ulp steps on float bits */

static uint64_t sign_bit(isa_type t)
{
    return UINT64_C(1) << (lp_type_bits(t) - 1);
}

/* next representable value toward +inf (never called on +inf or NaN) */
static uint64_t next_up(isa_type t, uint64_t v)
{
    const uint64_t sb = sign_bit(t);
    if ((v & ~sb) == 0)
        return 1;                   /* +-0 -> smallest positive subnormal */
    return (v & sb) ? v - 1 : v + 1;
}

static uint64_t next_down(isa_type t, uint64_t v)
{
    return next_up(t, v ^ sign_bit(t)) ^ sign_bit(t);
}

static long double ld_of(isa_type t, uint64_t v)
{
    return (long double)lp_fload(t, v);
}

/* Correct a round-to-nearest-even result r of exact value X to `rnd`. */
static uint64_t directed(isa_type t, uint64_t r, long double X, isa_round rnd)
{
    if (isnan(X))
        return r;
    const long double rv = ld_of(t, r);
    switch (rnd) {
    case ISA_RND_RTZ:
        return fabsl(rv) > fabsl(X) ? r - 1 : r;   /* magnitude down */
    case ISA_RND_RTP:
        return rv < X ? next_up(t, r) : r;
    case ISA_RND_RTN:
        return rv > X ? next_down(t, r) : r;
    default:
        return r;
    }
}

/* ------------------------------------------------------- load and store */

static void load_int(isa_type s, uint32_t w, const uint64_t *a, int64_t *v)
{
    for (uint32_t l = 0; l < w; l++)
        v[l] = lanes_sext(s, a[l]);
}

static void load_float(isa_type s, uint32_t w, const uint64_t *a, double *v)
{
    switch (s) {
    case ISA_T_F16:
        for (uint32_t l = 0; l < w; l++)
            v[l] = lp_f16(a[l]);
        break;
    case ISA_T_F32:
        for (uint32_t l = 0; l < w; l++)
            v[l] = lp_f32(a[l]);
        break;
    default:
        for (uint32_t l = 0; l < w; l++)
            v[l] = lp_f64(a[l]);
        break;
    }
}

static double round_even(double d)
{
    const double f = floor(d);
    const double frac = d - f;      /* exact */
    if (frac > 0.5)
        return f + 1;
    if (frac < 0.5)
        return f;
    return fmod(f, 2.0) == 0 ? f : f + 1;
}

/* integer range of type t as i128 */
static void int_range(isa_type t, cvt_i128 *lo, cvt_i128 *hi)
{
    const unsigned bits = lp_type_bits(t);
    if (isa_types[t].is_signed) {
        *lo = -((cvt_i128)1 << (bits - 1));
        *hi = ((cvt_i128)1 << (bits - 1)) - 1;
    } else {
        *lo = 0;
        *hi = ((cvt_i128)1 << bits) - 1;
    }
}

static void int_to_int(isa_type d, isa_type s, bool sat, uint32_t w,
                       const int64_t *v, uint64_t *r)
{
    const uint64_t m = lp_bits_mask(lp_type_bits(d));
    if (!sat) {
        for (uint32_t l = 0; l < w; l++)
            r[l] = (uint64_t)v[l] & m;
        return;
    }
    cvt_i128 lo, hi;
    int_range(d, &lo, &hi);
    const bool ssrc = isa_types[s].is_signed;
    for (uint32_t l = 0; l < w; l++) {
        cvt_i128 x = ssrc ? (cvt_i128)v[l] : (cvt_i128)(uint64_t)v[l];
        x = x < lo ? lo : x > hi ? hi : x;
        r[l] = (uint64_t)x & m;
    }
}

static void float_to_int(isa_type d, isa_round rnd, uint32_t w,
                         double *v, uint64_t *r)
{
    const unsigned bits = lp_type_bits(d);
    const uint64_t m = lp_bits_mask(bits);
    const bool sd = isa_types[d].is_signed;
    /* [lo, hi_excl) as doubles: both powers of two, exact */
    const double lo = sd ? -ldexp(1.0, (int)bits - 1) : 0.0;
    const double hi_excl = ldexp(1.0, (int)bits - (sd ? 1 : 0));
    const uint64_t lo_bits = sd ? (UINT64_C(1) << (bits - 1)) : 0;
    const uint64_t hi_bits = sd ? m >> 1 : m;

    switch (rnd) {
    case ISA_RND_RTE:
        for (uint32_t l = 0; l < w; l++)
            v[l] = round_even(v[l]);
        break;
    case ISA_RND_RTP:
        for (uint32_t l = 0; l < w; l++)
            v[l] = ceil(v[l]);
        break;
    case ISA_RND_RTN:
        for (uint32_t l = 0; l < w; l++)
            v[l] = floor(v[l]);
        break;
    default:    /* rtz is the default for float -> int */
        for (uint32_t l = 0; l < w; l++)
            v[l] = trunc(v[l]);
        break;
    }
    /* out of range saturates and NaN gives 0, with or without .sat */
    for (uint32_t l = 0; l < w; l++) {
        const double x = v[l];
        if (isnan(x))
            r[l] = 0;
        else if (x < lo)
            r[l] = lo_bits;
        else if (x >= hi_excl)
            r[l] = hi_bits;
        else if (sd)
            r[l] = (uint64_t)(int64_t)x & m;
        else
            r[l] = (uint64_t)x;
    }
}

static void int_to_float(isa_type d, isa_type s, isa_round rnd, uint32_t w,
                         const int64_t *v, uint64_t *r)
{
    const bool ssrc = isa_types[s].is_signed;
    for (uint32_t l = 0; l < w; l++) {
        const int64_t x = v[l];
        const uint64_t ux = (uint64_t)x;
        switch (d) {
        case ISA_T_F32:
            r[l] = lp_f32_bits(ssrc ? (float)x : (float)ux);
            break;
        case ISA_T_F64:
            r[l] = lp_f64_bits(ssrc ? (double)x : (double)ux);
            break;
        default:
            /* beyond 2^53 the half is infinite whatever the first
             * rounding did, so going through double is exact enough */
            r[l] = lp_f16_bits(ssrc ? (double)x : (double)ux);
            break;
        }
    }
    if (rnd == ISA_RND_RTZ || rnd == ISA_RND_RTP || rnd == ISA_RND_RTN) {
        for (uint32_t l = 0; l < w; l++) {
            const long double X = ssrc ? (long double)v[l]
                                       : (long double)(uint64_t)v[l];
            r[l] = directed(d, r[l], X, rnd);
        }
    }
}

static void float_to_float(isa_type d, isa_round rnd, uint32_t w,
                           const double *v, uint64_t *r)
{
    for (uint32_t l = 0; l < w; l++)
        r[l] = lp_fstore(d, v[l]);
    if (d != ISA_T_F64 &&
        (rnd == ISA_RND_RTZ || rnd == ISA_RND_RTP || rnd == ISA_RND_RTN)) {
        for (uint32_t l = 0; l < w; l++)
            r[l] = directed(d, r[l], (long double)v[l], rnd);
    }
}

int lanes_exec_cvt(const lanes_env *env, lanes_sg *sg, const isa_inst *in,
                   lanes_mask mask)
{
    if (!lp_valid_type(in->type) || in->o[0].kind != ISA_OPND_REG)
        return LANES_FAULT_BAD_INST;
    const isa_type d = (isa_type)in->type;
    const isa_type s = lp_valid_type(in->src_type) ? (isa_type)in->src_type
                                                   : d;
    const isa_round rnd =
        (isa_round)((in->flags & ISA_F_RND_MASK) >> ISA_F_RND_SHIFT);
    const bool sat = (in->flags & ISA_F_SAT) != 0;
    const bool fd = isa_types[d].is_float, fs = isa_types[s].is_float;
    const uint32_t w = sg->width;
    const uint32_t vec = in->vec ? in->vec : 1;
    uint64_t scratch[LANES_MAX];
    uint64_t tmp[1][LANES_MAX];
    int64_t iv[LANES_MAX];
    double fv[LANES_MAX];

    for (uint32_t comp = 0; comp < vec; comp++) {
        const uint64_t *a = lanes_src(env, sg, &in->o[1], comp, s, scratch);
        if (fs) {
            load_float(s, w, a, fv);
            if (fd)
                float_to_float(d, rnd, w, fv, tmp[0]);
            else
                float_to_int(d, rnd, w, fv, tmp[0]);
        } else {
            load_int(s, w, a, iv);
            if (fd)
                int_to_float(d, s, rnd, w, iv, tmp[0]);
            else
                int_to_int(d, s, sat, w, iv, tmp[0]);
        }
        /* components are written one by one: a cvt destination of another
         * width never overlaps its source in valid programs */
        lanes_blend(sg, in->o[0].reg + comp, 1,
                    (const uint64_t (*)[LANES_MAX])tmp, mask);
    }
    return LANES_OK;
}
