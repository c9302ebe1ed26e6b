/* conformance_common.h - what the conformance audit tests share: element
 * types as bit patterns (char .. double, half), the CTS work-item masks,
 * the CTS NDRange (global 2600 = 13 work-groups of 200, so every mask is
 * used once per run and the last sub-group of every work-group is partial
 * at 8, 16 and 32), and a mismatch counter that prints the first cases.
 * The references in the test files are written from the spec texts, one
 * sequential loop per definition. */
#ifndef SGEMU_CONFORMANCE_COMMON_H
#define SGEMU_CONFORMANCE_COMMON_H

#include "kernel_harness.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

enum { CF_GLOBAL = 2600, CF_LOCAL = 200, CF_GROUPS = CF_GLOBAL / CF_LOCAL };
static const unsigned cf_widths[] = { 8, 16, 32 };

typedef enum { CK_INT, CK_F16, CK_F32, CK_F64 } cf_kind;
typedef struct {
    const char *name;
    unsigned size;   /* bytes */
    bool sgn;
    cf_kind k;
} cf_type;

static const cf_type cf_types[] = {
    { "char", 1, true, CK_INT },   { "uchar", 1, false, CK_INT },
    { "short", 2, true, CK_INT },  { "ushort", 2, false, CK_INT },
    { "int", 4, true, CK_INT },    { "uint", 4, false, CK_INT },
    { "long", 8, true, CK_INT },   { "ulong", 8, false, CK_INT },
    { "float", 4, true, CK_F32 },  { "double", 8, true, CK_F64 },
    { "half", 2, true, CK_F16 },
};
enum { CF_NTYPES = sizeof cf_types / sizeof cf_types[0] };

/* The CTS's 13 work-item masks (128 bits, word w covers local ids 32w..). */
static const uint32_t cf_masks[13][4] = {
    { 0xf0f0f0f0, 0xf0f0f0f0, 0xf0f0f0f0, 0xf0f0f0f0 },
    { 0x0f0f0f0f, 0x0f0f0f0f, 0x0f0f0f0f, 0x0f0f0f0f },
    { 0x5555aaaa, 0x5555aaaa, 0x5555aaaa, 0x5555aaaa },
    { 0xaaaa5555, 0xaaaa5555, 0xaaaa5555, 0xaaaa5555 },
    { 0x0f0ff0f0, 0x0f0ff0f0, 0x0f0ff0f0, 0x0f0ff0f0 },
    { 0xff0000ff, 0xff0000ff, 0xff0000ff, 0xff0000ff },
    { 0xff00ff00, 0xff00ff00, 0xff00ff00, 0xff00ff00 },
    { 0x00ffff00, 0x00ffff00, 0x00ffff00, 0x00ffff00 },
    { 0x80808080, 0x80808080, 0x80808080, 0x80808080 },
    { 0x80008000, 0x80008000, 0x80008000, 0x80008000 },
    { 0x80000000, 0x80000000, 0x80000000, 0x80000000 },
    { 0, 0x80000000, 0, 0 },
    { 0, 0, 0, 0x80000000 },
};
/* the 14th of the CTS, all work-items, is the uniform case of each kernel */

static inline bool cf_active(unsigned group, unsigned lane)
{
    return (cf_masks[group % 13][lane / 32] >> (lane % 32)) & 1u;
}

static inline uint64_t cf_mask(const cf_type *t)
{
    return t->size == 8 ? ~0ull : (1ull << (8 * t->size)) - 1;
}

static inline int64_t cf_sext(const cf_type *t, uint64_t b)
{
    unsigned s = 64 - 8 * t->size;
    return (int64_t)(b << s) >> s;
}

/* binary16 <-> float (the bits; round to nearest even) */
static inline float cf_h2f(uint16_t h)
{
    int e = (h >> 10) & 31, m = h & 1023;
    float v;
    if (e == 0)
        v = ldexpf((float)m, -24);
    else if (e == 31)
        v = m ? NAN : INFINITY;
    else
        v = ldexpf((float)(m | 1024), e - 25);
    return (h & 0x8000) ? -v : v;
}

static inline uint16_t cf_f2h(float f)
{
    uint16_t s = signbit(f) ? 0x8000 : 0;
    if (isnan(f))
        return 0x7e00;
    float a = fabsf(f);
    if (a >= 65520.0f)
        return s | 0x7c00;
    if (a < ldexpf(1, -14)) {            /* subnormal: units of 2^-24 */
        float q = rintf(ldexpf(a, 24)); /* rintf rounds to nearest even */
        return s | (uint16_t)q;
    }
    int e;
    float fr = frexpf(a, &e);            /* a = fr * 2^e, fr in [0.5, 1) */
    float q = rintf(ldexpf(fr, 11));     /* 11 significant bits */
    if (q >= 2048.0f) {
        q /= 2;
        e++;
    }
    if (e + 14 >= 31)
        return s | 0x7c00;
    return s | (uint16_t)((e + 14) << 10) | ((uint16_t)q & 1023);
}

static inline double cf_tofl(const cf_type *t, uint64_t b)
{
    if (t->k == CK_F16)
        return cf_h2f((uint16_t)b);
    if (t->k == CK_F32) {
        uint32_t u = (uint32_t)b;
        float f;
        memcpy(&f, &u, 4);
        return f;
    }
    double d;
    memcpy(&d, &b, 8);
    return d;
}

static inline uint64_t cf_fromfl(const cf_type *t, double v)
{
    if (t->k == CK_F16)
        return cf_f2h((float)v);
    if (t->k == CK_F32) {
        float f = (float)v;
        uint32_t u;
        memcpy(&u, &f, 4);
        return u;
    }
    uint64_t b;
    memcpy(&b, &v, 8);
    return b;
}

static inline uint64_t cf_ld(const cf_type *t, const void *buf, size_t i)
{
    uint64_t v = 0;
    memcpy(&v, (const uint8_t *)buf + i * t->size, t->size);   /* little endian */
    return v;
}

static inline void cf_st(const cf_type *t, void *buf, size_t i, uint64_t v)
{
    memcpy((uint8_t *)buf + i * t->size, &v, t->size);
}

/* the value compare of the audit: integers bit-exact; floats numerically
 * (+0 == -0) with NaN equal to NaN, unless `bits` asks for the bits too */
static inline bool cf_same(const cf_type *t, uint64_t got, uint64_t exp, bool bits)
{
    if (t->k == CK_INT || bits)
        return ((got ^ exp) & cf_mask(t)) == 0 ||
               (t->k != CK_INT && isnan(cf_tofl(t, got)) && isnan(cf_tofl(t, exp)));
    double a = cf_tofl(t, got), b = cf_tofl(t, exp);
    return (isnan(a) && isnan(b)) || a == b;
}

/* mismatch reporting: the first few are printed, all are counted */
static unsigned cf_bad;
static inline void cf_report(const char *what, const cf_type *t, unsigned W, size_t gid,
                             unsigned slot, uint64_t got, uint64_t exp)
{
    if (cf_bad++ < 12)
        fprintf(stderr, "MISMATCH %s %s W=%u gid=%zu (wg %zu, sg %zu, lane %zu) slot %u: "
                "got 0x%llx expected 0x%llx\n", what, t ? t->name : "", W, gid,
                gid / CF_LOCAL, gid % CF_LOCAL / W, gid % CF_LOCAL % W, slot,
                (unsigned long long)got, (unsigned long long)exp);
}

/* ------------------------------------------------------------ operators */

typedef enum { OP_ADD, OP_MUL, OP_MIN, OP_MAX, OP_AND, OP_OR, OP_XOR, OP_LAND, OP_LOR,
               OP_LXOR } cf_op;

/* x op y, from the definitions: integer add/mul wrap modulo 2^N (spec
 * README decision 4), min/max compare as the type's signedness, floats
 * min/max as fmin/fmax (a NaN operand is ignored, decision 5), the logical
 * operators on truth values (non-zero is true) giving 0 or 1. */
static inline uint64_t cf_apply(const cf_type *t, cf_op op, uint64_t x, uint64_t y)
{
    uint64_t m = cf_mask(t);
    if (op == OP_LAND)
        return (x & m) != 0 && (y & m) != 0;
    if (op == OP_LOR)
        return (x & m) != 0 || (y & m) != 0;
    if (op == OP_LXOR)
        return ((x & m) != 0) != ((y & m) != 0);
    if (t->k == CK_INT) {
        switch (op) {
        case OP_ADD: return (x + y) & m;
        case OP_MUL: return (x * y) & m;
        case OP_MIN:
            if (t->sgn)
                return cf_sext(t, x) <= cf_sext(t, y) ? x : y;
            return (x & m) <= (y & m) ? x : y;
        case OP_MAX:
            if (t->sgn)
                return cf_sext(t, x) >= cf_sext(t, y) ? x : y;
            return (x & m) >= (y & m) ? x : y;
        case OP_AND: return x & y & m;
        case OP_OR: return (x | y) & m;
        default: return (x ^ y) & m;
        }
    }
    double a = cf_tofl(t, x), b = cf_tofl(t, y);
    switch (op) {
    case OP_ADD: return t->k == CK_F64 ? cf_fromfl(t, a + b) : cf_fromfl(t, (double)((float)a + (float)b));
    case OP_MUL: return t->k == CK_F64 ? cf_fromfl(t, a * b) : cf_fromfl(t, (double)((float)a * (float)b));
    case OP_MIN: return isnan(a) ? y : isnan(b) ? x : (b < a ? y : x);
    default: return isnan(a) ? y : isnan(b) ? x : (b > a ? y : x);
    }
}

/* the identity of the exclusive scans (cl_khr_subgroup_non_uniform_arithmetic:
 * add 0, mul 1, min the largest value / +INF, max the smallest / -INF,
 * and ~0, or/xor 0, logical and true, logical or/xor false) */
static inline uint64_t cf_identity(const cf_type *t, cf_op op)
{
    uint64_t m = cf_mask(t);
    switch (op) {
    case OP_ADD: return 0;
    case OP_MUL: return t->k == CK_INT ? 1 : cf_fromfl(t, 1.0);
    case OP_MIN:
        if (t->k != CK_INT)
            return cf_fromfl(t, INFINITY);
        return t->sgn ? m >> 1 : m;
    case OP_MAX:
        if (t->k != CK_INT)
            return cf_fromfl(t, -INFINITY);
        return t->sgn ? (m >> 1) + 1 : 0;
    case OP_AND: return m;
    case OP_LAND: return 1;
    default: return 0;
    }
}

/* the fold x(i0) op x(i1) op ... over the listed work-items in increasing
 * local-id order, or the identity when there are none */
static inline uint64_t fold(const cf_type *t, cf_op op, const uint64_t *v, const unsigned *ids,
                     unsigned n)
{
    if (!n)
        return cf_identity(t, op);
    uint64_t r = v[ids[0]];
    for (unsigned k = 1; k < n; k++)
        r = cf_apply(t, op, r, v[ids[k]]);
    return r;
}

#endif
