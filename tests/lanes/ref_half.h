/* Independent binary16 reference for the lanes tests: a half's value from
 * its fields via ldexp, and rounding by search over the ordered halves. */
#ifndef TEST_REF_HALF_H
#define TEST_REF_HALF_H

#include <math.h>
#include <stdint.h>

enum { RM_NEAR, RM_ZERO, RM_UP, RM_DOWN };

static inline double ref_half(uint16_t h)
{
    int s = h >> 15, e = (h >> 10) & 31, m = h & 1023;
    double v;
    if (e == 31)
        v = m ? NAN : INFINITY;
    else if (e == 0)
        v = ldexp((double)m, -24);
    else
        v = ldexp((double)(m + 1024), e - 25);
    return s ? -v : v;
}

static inline int ref_half_isnan(uint64_t h)
{
    return (h & 0x7c00) == 0x7c00 && (h & 0x3ff) != 0;
}

/* Round exact value X to a half with mode rm. */
static inline uint16_t ref_round16(long double X, int rm)
{
    if (isnan(X))
        return 0x7e00;
    uint16_t s = signbit(X) ? 0x8000 : 0;
    long double a = fabsl(X);
    /* magnitude rounding direction: toward zero or away from zero */
    int away_mode = (rm == RM_UP && !s) || (rm == RM_DOWN && s);
    int zero_mode = rm == RM_ZERO || (rm == RM_UP && s) || (rm == RM_DOWN && !s);
    if (isinf(a))
        return s | 0x7c00;
    uint16_t lo = 0, hi = 0x7c00;     /* 0x7c00 = inf, above every finite */
    if (a >= 65504.0L) {
        lo = 0x7bff;
    } else {
        while (hi - lo > 1) {           /* ref_half(lo) <= a < ref_half(hi) */
            uint16_t mid = (uint16_t)((lo + hi) / 2);
            if ((long double)ref_half(mid) <= a)
                lo = mid;
            else
                hi = mid;
        }
    }
    if ((long double)ref_half(lo) == a)
        return s | lo;
    if (zero_mode)
        return s | lo;
    if (away_mode)
        return s | hi;
    if (lo == 0x7bff)                   /* nearest: overflow at 65520 */
        return s | (a >= 65520.0L ? 0x7c00 : 0x7bff);
    long double dl = a - ref_half(lo), dh = ref_half(hi) - a;
    if (dl < dh)
        return s | lo;
    if (dh < dl)
        return s | hi;
    return s | ((lo & 1) ? hi : lo);
}

#endif
