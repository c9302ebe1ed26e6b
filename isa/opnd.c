/* opnd.c - operand rules shared by the assembler, validator and
 * disassembler: shape patterns, operand types, immediate literals, and the
 * register writes of a stream (for the passes over one). */
#include "isa_priv.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const isa_shape_pat isa_shape_pats[ISA_SHAPE_COUNT] = {
#define X(s, pat, min, nsrc) [ISA_SHAPE_##s] = { pat, min },
    ISA_SHAPES(X)
#undef X
};

char isa_shape_letter(isa_shape s, unsigned n, unsigned i)
{
    if ((unsigned)s >= ISA_SHAPE_COUNT)
        return 0;
    const char *p = isa_shape_pats[s].pat;
    if (s == ISA_SHAPE_BRA && n == 1)
        p = "l";   /* unconditional: the label alone */
    return i < strlen(p) ? p[i] : 0;
}


bool isa_op_takes_space(const isa_op_info *oi)
{
    switch (oi->family) {
    case ISA_FAM_LD: case ISA_FAM_ST: case ISA_FAM_ATOM:
    case ISA_FAM_BLOCK_READ: case ISA_FAM_BLOCK_WRITE:
        return true;
    default:
        return false;
    }
}

isa_type isa_opnd_type(const isa_inst *in, unsigned i, unsigned *vec)
{
    unsigned v = in->vec ? in->vec : 1;
    isa_type t = (isa_type)in->type;
    if (in->op >= ISA_OP_COUNT) {
        *vec = 1;
        return t;
    }
    const isa_op_info *oi = &isa_ops[in->op];
    switch (oi->family) {
    case ISA_FAM_CVT:
        if (i == 1)
            t = (isa_type)in->src_type;
        break;
    case ISA_FAM_SHUFFLE: case ISA_FAM_SHUFFLE_XOR:
    case ISA_FAM_SHUFFLE_UP: case ISA_FAM_SHUFFLE_DOWN:
    case ISA_FAM_BALLOT_BIT_EXTRACT:
        if (i == 2)
            t = ISA_T_U32, v = 1;
        break;
    case ISA_FAM_SHUFFLE_UP2: case ISA_FAM_SHUFFLE_DOWN2:
        if (i == 3)
            t = ISA_T_U32, v = 1;
        break;
    case ISA_FAM_BCAST: case ISA_FAM_ROTATE:
        if (i >= 2)
            t = ISA_T_U32, v = 1;
        break;
    case ISA_FAM_REDUCE:
        if (oi->scope == ISA_SCOPE_CL && i == 2)
            t = ISA_T_U32, v = 1;
        break;
    case ISA_FAM_IMG_READ:
        if (oi->shape == ISA_SHAPE_MB_LD) {
            /* the (x, y) coordinate pair, then the width and the height */
            if (i == 2)
                t = ISA_T_I32, v = 2;
            if (i == 3 || i == 4)
                t = ISA_T_I32, v = 1;
            break;
        }
        if (oi->shape == ISA_SHAPE_IMGV_LD || oi->shape == ISA_SHAPE_IMGV_SMP) {
            /* the (x, y, z, w) coordinate vector, then the sampler */
            if (i == 2)
                t = oi->shape == ISA_SHAPE_IMGV_SMP ? ISA_T_F32 : ISA_T_I32, v = 4;
            if (i == 3)
                t = ISA_T_U32, v = 1;
            break;
        }
        if (i == 2 || i == 3)   /* sampled reads: float coordinates, u32 sampler */
            t = oi->shape == ISA_SHAPE_IMG_SMP ? ISA_T_F32 : ISA_T_I32, v = 1;
        if (i == 4)
            t = ISA_T_U32, v = 1;
        break;
    case ISA_FAM_IMG_WRITE:
        if (oi->shape == ISA_SHAPE_MB_ST) {     /* coordinate pair, width, height */
            if (i == 1)
                t = ISA_T_I32, v = 2;
            if (i == 2 || i == 3)
                t = ISA_T_I32, v = 1;
            break;
        }
        if (oi->shape == ISA_SHAPE_IMGV_ST) {   /* the (x, y, z, w) coordinate vector */
            if (i == 1)
                t = ISA_T_I32, v = 4;
            break;
        }
        if (i == 1 || i == 2)
            t = ISA_T_I32, v = 1;
        break;
    case ISA_FAM_PRINTF:   /* the format index and the record offset */
        if (i >= 1)
            t = ISA_T_U32, v = 1;
        break;
    default:
        break;
    }
    /* Ballot masks are the vector operands; the other side is scalar. */
    switch (oi->family) {
    case ISA_FAM_BALLOT: case ISA_FAM_LANE_MASK:
        if (i != 0)
            v = 1;
        break;
    case ISA_FAM_INVERSE_BALLOT: case ISA_FAM_BALLOT_BIT_EXTRACT:
    case ISA_FAM_BALLOT_BIT_COUNT: case ISA_FAM_BALLOT_INC_SCAN:
    case ISA_FAM_BALLOT_EXC_SCAN: case ISA_FAM_BALLOT_FIND_LSB:
    case ISA_FAM_BALLOT_FIND_MSB:
        if (i != 1)
            v = 1;
        break;
    default:
        break;
    }
    *vec = v;
    return t;
}

/* ------------------------------------------------------------- binary16 */

uint16_t isa_f64_to_f16(double x)
{
    uint64_t b;
    memcpy(&b, &x, sizeof b);
    uint16_t sign = (uint16_t)((b >> 48) & 0x8000u);
    int exp = (int)((b >> 52) & 0x7ff);
    uint64_t man = b & ((1ull << 52) - 1);
    if (exp == 0x7ff)   /* inf, or NaN kept quiet with its top payload bits */
        return (uint16_t)(sign | 0x7c00u | (man ? 0x200u | (uint16_t)(man >> 42) : 0));
    if (exp == 0)       /* zero or a double subnormal: far below half's range */
        return sign;
    int e = exp - 1023;
    if (e > 15)
        return (uint16_t)(sign | 0x7c00u);
    uint64_t m = man | (1ull << 52);
    /* Bits of m to drop: 42 for a normal half, more for a subnormal one. */
    int shift = e >= -14 ? 42 : 42 + (-14 - e);
    if (shift > 62)
        return sign;
    uint64_t q = m >> shift, rem = m & ((1ull << shift) - 1), half = 1ull << (shift - 1);
    if (rem > half || (rem == half && (q & 1)))
        q++;
    if (e < -14)        /* subnormal; q == 1024 is the smallest normal */
        return (uint16_t)(sign | q);
    unsigned he = (unsigned)(e + 15);
    if (q == 2048) {
        q = 1024;
        he++;
    }
    if (he >= 31)
        return (uint16_t)(sign | 0x7c00u);
    return (uint16_t)(sign | (he << 10) | (q & 0x3ffu));
}

double isa_f16_to_f64(uint16_t h)
{
    int e = (h >> 10) & 0x1f;
    unsigned m = h & 0x3ffu;
    double v;
    if (e == 0)
        v = ldexp((double)m, -24);
    else if (e == 31)
        v = m ? NAN : INFINITY;
    else
        v = ldexp((double)(m | 0x400u), e - 25);
    return (h & 0x8000u) ? -v : v;
}

/* ------------------------------------------------------------ literals */

static int hexval(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Raw-bits float literal 0f/0d/0h + exactly 8/16/4 hex digits. */
static const char *parse_raw_bits(const char *s, size_t n, isa_type t, uint64_t *bits)
{
    char k = s[1];
    isa_type want = k == 'f' ? ISA_T_F32 : k == 'd' ? ISA_T_F64 : ISA_T_F16;
    size_t digits = (size_t)isa_types[want].bytes * 2;
    if (want != t)
        return "raw-bits literal does not match the operand type";
    if (n != 2 + digits)
        return "raw-bits literal has the wrong number of hex digits";
    uint64_t v = 0;
    for (size_t i = 2; i < n; i++) {
        int h = hexval(s[i]);
        if (h < 0)
            return "invalid hex digit in raw-bits literal";
        v = v << 4 | (uint64_t)h;
    }
    *bits = v;
    return NULL;
}

static bool isdigit_ascii(char c)
{
    return c >= '0' && c <= '9';
}

static bool looks_float(const char *s, size_t n)
{
    size_t i = (n && (s[0] == '-' || s[0] == '+')) ? 1 : 0;
    if (n - i >= 3 && (strncmp(s + i, "inf", 3) == 0 || strncmp(s + i, "nan", 3) == 0))
        return true;
    if (n - i >= 2 && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X'))
        return memchr(s, '.', n) || memchr(s, 'p', n) || memchr(s, 'P', n);
    return memchr(s, '.', n) || memchr(s, 'e', n) || memchr(s, 'E', n);
}

const char *isa_parse_imm(const char *s, size_t n, isa_type t, uint64_t *bits)
{
    if (n == 0)
        return "empty immediate";
    if ((unsigned)t >= ISA_T_COUNT)
        return "immediate needs a typed instruction";
    const isa_type_info *ti = &isa_types[t];
    bool raw = n >= 2 && s[0] == '0' && (s[1] == 'f' || s[1] == 'd' || s[1] == 'h');
    if (ti->is_float) {
        if (raw)
            return parse_raw_bits(s, n, t, bits);
        char buf[128];
        if (n >= sizeof buf)
            return "numeric literal too long";
        memcpy(buf, s, n);
        buf[n] = 0;
        if (!(isdigit_ascii(buf[0]) || buf[0] == '-' || buf[0] == '+' || buf[0] == '.' ||
              buf[0] == 'i' || buf[0] == 'n'))
            return "invalid immediate";
        char *end;
        errno = 0;
        double d = strtod(buf, &end);
        if (end != buf + n)
            return "invalid immediate";
        if (t == ISA_T_F64) {
            memcpy(bits, &d, 8);
        } else if (t == ISA_T_F32) {
            float f = (float)d;
            uint32_t u;
            memcpy(&u, &f, 4);
            *bits = u;
        } else {
            *bits = isa_f64_to_f16(d);
        }
        return NULL;
    }
    if (raw || looks_float(s, n))
        return "float literal for an integer type";
    size_t i = 0;
    bool neg = false;
    if (s[0] == '-' || s[0] == '+') {
        neg = s[0] == '-';
        i = 1;
    }
    unsigned base = 10;
    if (n - i >= 2 && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
        base = 16;
        i += 2;
    }
    if (i >= n)
        return "invalid immediate";
    uint64_t mag = 0;
    bool over = false;
    for (; i < n; i++) {
        int dv = hexval(s[i]);
        if (dv < 0 || (unsigned)dv >= base)
            return "invalid immediate";
        if (mag > (UINT64_MAX - (unsigned)dv) / base)
            over = true;
        else
            mag = mag * base + (unsigned)dv;
    }
    unsigned w = ti->bytes * 8u;
    /* A literal fits if it is in range as either the signed or the
     * unsigned N-bit type: -1 and 0xffffffff both spell u32 all-ones. */
    uint64_t umax = w == 64 ? UINT64_MAX : (1ull << w) - 1;
    uint64_t nmax = 1ull << (w - 1);          /* magnitude of INT_MIN */
    if (over || (!neg && mag > umax) || (neg && mag > nmax))
        return "integer literal out of range";
    uint64_t v = neg ? (uint64_t)0 - mag : mag;
    *bits = v & umax;
    return NULL;
}

int isa_print_imm(char *buf, size_t n, isa_type t, uint64_t bits)
{
    if ((unsigned)t >= ISA_T_COUNT)
        return snprintf(buf, n, "0x%" PRIx64, bits);
    const isa_type_info *ti = &isa_types[t];
    unsigned w = ti->bytes * 8u;
    if (!ti->is_float) {
        if (ti->is_signed) {
            int64_t v = (w == 64) ? (int64_t)bits
                      : (int64_t)(bits << (64 - w)) >> (64 - w);
            return snprintf(buf, n, "%" PRId64, v);
        }
        return snprintf(buf, n, "%" PRIu64, bits);
    }
    /* Decimal when it reads back bit-exactly, raw bits otherwise (NaNs). */
    char tmp[64];
    double d;
    int prec;
    if (t == ISA_T_F64) {
        memcpy(&d, &bits, 8);
        prec = 17;
    } else if (t == ISA_T_F32) {
        uint32_t u = (uint32_t)bits;
        float f;
        memcpy(&f, &u, 4);
        d = f;
        prec = 9;
    } else {
        d = isa_f16_to_f64((uint16_t)bits);
        prec = 5;
    }
    if (isnan(d)) {
        const char *spell[2] = { "nan", "-nan" };
        for (int i = 0; i < 2; i++) {
            uint64_t back;
            if (!isa_parse_imm(spell[i], strlen(spell[i]), t, &back) && back == bits)
                return snprintf(buf, n, "%s", spell[i]);
        }
    } else {
        /* the shortest decimal that reads back to the same bits */
        for (int p = 1; p <= prec; p++) {
            if (isinf(d))
                snprintf(tmp, sizeof tmp, "%s", d < 0 ? "-inf" : "inf");
            else
                snprintf(tmp, sizeof tmp, "%.*g", p, d);
            uint64_t back;
            if (!isa_parse_imm(tmp, strlen(tmp), t, &back) && back == bits)
                return snprintf(buf, n, "%s", tmp);
        }
    }
    if (t == ISA_T_F64)
        return snprintf(buf, n, "0d%016" PRIx64, bits);
    if (t == ISA_T_F32)
        return snprintf(buf, n, "0f%08" PRIx32, (uint32_t)bits);
    return snprintf(buf, n, "0h%04x", (unsigned)(bits & 0xffffu));
}

void isa_reg_writes(const isa_inst *code, uint32_t n, uint32_t nreg, uint32_t *writes,
                    uint32_t *last)
{
    memset(writes, 0, nreg * sizeof *writes);
    for (uint32_t pc = 0; pc < n; pc++) {
        const isa_inst *in = &code[pc];
        const isa_shape sh = isa_ops[in->op].shape;
        for (unsigned o = 0; o < in->nopnd && o < ISA_MAX_OPNDS; o++) {
            if (isa_shape_letter(sh, in->nopnd, o) != 'd' || in->o[o].kind != ISA_OPND_REG)
                continue;
            unsigned vec;
            isa_opnd_type(in, o, &vec);
            for (uint32_t c = 0; c < (vec ? vec : 1) && in->o[o].reg + c < nreg; c++) {
                writes[in->o[o].reg + c]++;
                if (last)
                    last[in->o[o].reg + c] = pc;
            }
        }
    }
}

void isa_visit_regs(const isa_inst *in, isa_reg_visit_fn fn, void *ctx)
{
    if (in->op >= ISA_OP_COUNT)
        return;
    const isa_shape sh = isa_ops[in->op].shape;
    for (unsigned o = 0; o < in->nopnd && o < ISA_MAX_OPNDS; o++) {
        const isa_operand *op = &in->o[o];
        const char l = isa_shape_letter(sh, in->nopnd, o);
        unsigned vec;
        const isa_type t = isa_opnd_type(in, o, &vec);
        const uint32_t b = (unsigned)t < ISA_T_COUNT ? isa_types[t].bytes : 4;
        if (op->kind == ISA_OPND_REG && (l == 'd' || l == 's'))
            fn(ctx, op->reg, vec, b, l);
        else if (op->kind == ISA_OPND_PRED && (l == 'P' || l == 'q'))
            fn(ctx, op->reg, 1, 0, l);
        else if (op->kind == ISA_OPND_ADDR) {
            if (op->addr.base_kind == ISA_OPND_REG)
                fn(ctx, op->addr.base, 1, 8, 's');
            if (op->addr.has_index) {
                const isa_type it = (isa_type)op->addr.index_type;
                fn(ctx, op->addr.index, 1, it < ISA_T_COUNT ? isa_types[it].bytes : 4, 's');
            }
        }
    }
}
