/* gen_alu.c - Gen ALU instructions: operand regions over the byte-addressed
 * register files, types and conversions, source modifiers, saturation,
 * conditional modifiers and predication.  Values are computed in the
 * instruction's execution type: float (IEEE single, or double for :df) when
 * any operand is a float type, 64-bit integer otherwise, then converted to
 * the destination type (docs/gen.md, "Execution model"). */
#include "gen_engine.h"

#include <fenv.h>
#include <float.h>
#include <math.h>
#include <string.h>

typedef struct gval {
    bool isf;
    bool u64;              /* i holds a :uq value (its bits): unsigned when converted */
    double f;
    int64_t i;
    uint64_t raw;          /* the bits read (before any modifier) */
} gval;

static bool type_is_float(uint8_t t)
{
    return t == GEN_T_F || t == GEN_T_HF || t == GEN_T_DF || t == GEN_T_BF || t == GEN_T_VF;
}

static bool type_is_signed(uint8_t t)
{
    return t == GEN_T_B || t == GEN_T_W || t == GEN_T_D || t == GEN_T_Q || t == GEN_T_V;
}

/* Storage of register file `file` and its size, or NULL. */
static uint8_t *file_base(gen_thread *t, uint8_t file, uint32_t *size)
{
    switch (file) {
    case GEN_FILE_GRF: *size = t->grf_size; return t->grf;
    case GEN_FILE_ACC: *size = GEN_ACC_BYTES; return t->acc;
    case GEN_FILE_F: *size = GEN_FLAG_BYTES; return t->flag;
    case GEN_FILE_A: *size = GEN_A0_BYTES; return t->a0;
    case GEN_FILE_CR: *size = GEN_CTRL_BYTES; return t->cr;
    case GEN_FILE_SR: *size = GEN_CTRL_BYTES; return t->sr;
    case GEN_FILE_CE: *size = GEN_CTRL_BYTES; return t->ce;
    case GEN_FILE_TM: *size = GEN_CTRL_BYTES; return t->tm;
    case GEN_FILE_N: *size = GEN_CTRL_BYTES; return t->nreg;
    default: *size = 0; return NULL;
    }
}

/* Bytes per register number in a file (a GRF, or the ARF's own size). */
static uint32_t file_reg_bytes(const emu_run *run, uint8_t file)
{
    switch (file) {
    case GEN_FILE_GRF: return run->k->gen->grf_bytes;
    case GEN_FILE_ACC: return 64;
    case GEN_FILE_F: return 4;
    default: return 16;
    }
}

/* Byte address of element i of operand o (a region), or UINT32_MAX. */
static uint32_t elem_addr(const emu_run *run, const gen_thread *t, const gen_opnd *o,
                          uint32_t i, bool dst)
{
    uint32_t tb = gen_type_bytes[o->type];
    uint32_t step;
    if (!dst && o->kind == GEN_OPND_INDIRECT && o->vs == GEN_VT_VXH) {
        /* VxH (Vx1 when W = 1): each row of W elements has its own address,
         * a0.(sub + row), the row's elements H apart from it */
        uint32_t w = o->w ? o->w : 1, sub = o->subreg + i / w;
        if (sub >= GEN_A0_BYTES / 2)
            return UINT32_MAX;
        uint16_t a;
        memcpy(&a, t->a0 + 2 * sub, 2);
        return (uint32_t)((int32_t)a + o->ind_off) + (i % w) * o->hs * tb;
    }
    if (dst)
        step = i * o->hs;
    else if (o->w == 0)
        step = 0;
    else if (o->w >= GEN_WI_NONE)   /* three-source <V;H> or <H> regions: the width is
                                     * V/H, so element i is i*H apart, or i*V when H = 0
                                     * (<1;0>); src2's <H> has no V (IGA gives 63) */
        step = o->hs ? i * o->hs : o->vs < GEN_VT_VXH ? i * o->vs : 0;
    else
        step = (i / o->w) * o->vs + (i % o->w) * o->hs;
    if (o->kind == GEN_OPND_INDIRECT) {
        /* one address for all channels: a0.sub + offset is the region's origin */
        uint16_t a;
        if (o->subreg >= GEN_A0_BYTES / 2)
            return UINT32_MAX;
        memcpy(&a, t->a0 + 2 * o->subreg, 2);
        return (uint32_t)((int32_t)a + o->ind_off) + step * tb;
    }
    return o->reg * file_reg_bytes(run, o->file) + o->subreg * tb + step * tb;
}

/* Element i of a packed integer vector (:v, :uv). Its 8 elements are words
 * that the hardware places at the destination's word positions (the PRM
 * requires a destination stride "equivalent to a word"), so a channel takes
 * the element of its destination's word: with a :d destination of stride 1
 * channel i takes element 2i, which is why IGC writes the offsets 0 and 4 as
 * 0x400:uv for a (2) :ud move. */
static uint64_t imm_elem(const gen_inst *in, const gen_opnd *o, uint32_t i)
{
    if (o->type == GEN_T_V || o->type == GEN_T_UV) {
        const uint32_t words = in->dst.hs * gen_type_bytes[in->dst.type] / 2;
        if (words > 1)
            i *= words;
    }
    switch (o->type) {
    case GEN_T_V: {
        int64_t n = (int64_t)(o->imm >> (4 * (i % 8)) & 15);
        return (uint64_t)(n >= 8 ? n - 16 : n);
    }
    case GEN_T_UV: return o->imm >> (4 * (i % 8)) & 15;
    default: return o->imm;
    }
}

/* Restricted 8-bit float of a :vf immediate (1 sign, 3 exponent, 4 mantissa). */
static double vf_value(uint32_t b)
{
    uint32_t e = b >> 4 & 7, m = b & 15;
    double v = e == 0 ? ldexp(m / 16.0, -2) : ldexp(1.0 + m / 16.0, (int)e - 3);
    return b & 0x80 ? -v : v;
}

static gval bits_to_val(uint8_t type, uint64_t bits)
{
    gval v = { false, false, 0, 0, bits };
    switch (type) {
    case GEN_T_UB: v.i = (uint8_t)bits; break;
    case GEN_T_B: v.i = (int64_t)((bits & 0xff) ^ 0x80) - 0x80; break;   /* sign-extend */
    case GEN_T_UW: case GEN_T_UV: v.i = (uint16_t)bits; break;
    case GEN_T_W: v.i = (int16_t)bits; break;
    case GEN_T_V: v.i = (int64_t)bits; break;
    case GEN_T_UD: v.i = (uint32_t)bits; break;
    case GEN_T_D: v.i = (int32_t)bits; break;
    case GEN_T_UQ: v.i = (int64_t)bits; v.u64 = true; break;
    case GEN_T_Q: v.i = (int64_t)bits; break;
    case GEN_T_F: {
        float f;
        uint32_t b = (uint32_t)bits;
        memcpy(&f, &b, 4);
        v.isf = true;
        v.f = f;
        break;
    }
    case GEN_T_HF: v.isf = true; v.f = sgemu_half_to_float((uint16_t)bits); break;
    case GEN_T_BF: {
        float f;
        uint32_t b = (uint32_t)(uint16_t)bits << 16;
        memcpy(&f, &b, 4);
        v.isf = true;
        v.f = f;
        break;
    }
    case GEN_T_DF: memcpy(&v.f, &bits, 8); v.isf = true; break;
    default: break;
    }
    return v;
}

/* Read element i of source s (with its modifier applied unless `raw`). */
static int read_src(emu_run *run, gen_thread *t, const gen_inst *in, uint32_t s, uint32_t i,
                    bool logic, gval *out)
{
    const gen_opnd *o = &in->src[s];
    uint64_t bits = 0;
    if (o->kind == GEN_OPND_IMM) {
        if (o->type == GEN_T_VF) {
            *out = (gval){ true, false, vf_value((uint32_t)(o->imm >> (8 * (i % 4))) & 0xff), 0,
                           0 };
            goto mod;
        }
        bits = imm_elem(in, o, i);
    } else if (o->file == GEN_FILE_NULL) {
        bits = 0;
    } else {
        uint32_t size, tb = gen_type_bytes[o->type];
        uint8_t *base = file_base(t, o->file, &size);
        uint32_t a = elem_addr(run, t, o, i, false);
        if (!base || !tb)
            return gen_fault(run, t, UINT32_MAX, SGEMU_EXIT_USER,
                             "source %u: register file or type not supported by sgemu", s);
        if (a > size || tb > size - a)
            return gen_fault(run, t, UINT32_MAX, SGEMU_EXIT_FAULT,
                             "source %u reads outside the register file (byte %u)", s, a);
        memcpy(&bits, base + a, tb);
    }
    *out = bits_to_val(o->type, bits);
    out->raw = bits;
mod:
    if (o->mod == GEN_MOD_NONE)
        return 0;
    if (logic) {   /* on logic instructions "-" is a bitwise not */
        if (o->mod == GEN_MOD_NEG)
            out->i = ~out->i;
        return 0;
    }
    if (o->mod == GEN_MOD_ABS || o->mod == GEN_MOD_NEG_ABS) {
        if (out->isf)
            out->f = fabs(out->f);
        else
            out->i = out->i < 0 ? (int64_t)(0 - (uint64_t)out->i) : out->i;
    }
    if (o->mod == GEN_MOD_NEG || o->mod == GEN_MOD_NEG_ABS) {
        if (out->isf)
            out->f = -out->f;
        else
            out->i = (int64_t)(0 - (uint64_t)out->i);
    }
    return 0;
}

static int64_t int_min(uint8_t t)
{
    switch (gen_type_bytes[t]) {
    case 1: return type_is_signed(t) ? INT8_MIN : 0;
    case 2: return type_is_signed(t) ? INT16_MIN : 0;
    case 4: return type_is_signed(t) ? INT32_MIN : 0;
    default: return type_is_signed(t) ? INT64_MIN : 0;
    }
}

static uint64_t int_max(uint8_t t)
{
    switch (gen_type_bytes[t]) {
    case 1: return type_is_signed(t) ? INT8_MAX : UINT8_MAX;
    case 2: return type_is_signed(t) ? INT16_MAX : UINT16_MAX;
    case 4: return type_is_signed(t) ? INT32_MAX : UINT32_MAX;
    default: return type_is_signed(t) ? INT64_MAX : UINT64_MAX;
    }
}

/* The float mode of cr0.0: [5:4] the rounding mode (IGC switches it
 * around the _rtz/_rtp/_rtn conversions with `xor cr0.0 ... 0x30/0x10/
 * 0x20`), and whether denormals are kept ([6] :df, [7] :f, [10] :hf; a
 * clear bit flushes them to zero, as IGC's code under
 * -cl-denorms-are-zero leaves [7] and [10]). */
enum { RM_RNE, RM_RU, RM_RD, RM_RTZ };
typedef struct fpmode {
    unsigned rm;
    bool keep_df, keep_f, keep_hf;
} fpmode;

static fpmode fp_mode(const gen_thread *t)
{
    uint32_t c;
    memcpy(&c, t->cr, 4);
    return (fpmode){ c >> 4 & 3, (c >> 6 & 1) != 0, (c >> 7 & 1) != 0, (c >> 10 & 1) != 0 };
}

/* The binary formats a float result is rounded to: significant bits, the
 * least normal exponent, the largest finite value. */
typedef struct fpfmt {
    int p, emin;
    double max;
} fpfmt;
static const fpfmt FMT_F = { 24, -126, FLT_MAX }, FMT_HF = { 11, -14, 65504.0 };

/* The value x + resid (resid: the exact part of a result below x's last
 * place, 0 when x is exact) rounded to format f in mode rm. */
static double round_to(double x, double resid, fpfmt f, unsigned rm)
{
    if (!isfinite(x) || x == 0.0)
        return x;
    int e = ilogb(x) < f.emin ? f.emin : ilogb(x);
    double q = ldexp(1.0, e - (f.p - 1));
    double n = x / q, fl = floor(n), fr = n - fl;
    bool toward_pos = rm == RM_RU || (rm == RM_RTZ && x < 0);
    if (rm == RM_RNE)
        fl += fr > 0.5 || (fr == 0.5 && (resid > 0 || (resid == 0 && fmod(fl, 2.0) != 0)));
    else if (toward_pos)
        fl += fr > 0 || (fr == 0 && resid > 0);
    else if (fr == 0 && resid < 0)
        fl -= 1;                          /* toward -inf (RD, or RTZ of a positive x) */
    double r = fl * q;
    if (fabs(r) > f.max) {                /* overflow: infinity or the largest finite */
        bool inf = rm == RM_RNE || (rm == RM_RU && r > 0) || (rm == RM_RD && r < 0);
        r = copysign(inf ? INFINITY : f.max, r);
    }
    return r;
}

/* A double result x with exact residual resid in mode rm. */
static double round_dbl(double x, double resid, unsigned rm)
{
    if (resid == 0 || rm == RM_RNE || !isfinite(x))
        return x;
    if (rm == RM_RU || (rm == RM_RTZ && x < 0))
        return resid > 0 ? nextafter(x, INFINITY) : x;
    return resid < 0 ? nextafter(x, -INFINITY) : x;
}

/* Denormals of a format flushed to zero (sign kept) unless kept. */
static double flush(double x, bool keep, double min_normal)
{
    return !keep && x != 0 && fabs(x) < min_normal ? copysign(0.0, x) : x;
}

/* x + resid rounded to the destination's float type t (:f, :hf, :df). */
static double round_type(double x, double resid, uint8_t t, const fpmode *m)
{
    if (t == GEN_T_DF)
        return flush(round_dbl(x, resid, m->rm), m->keep_df, DBL_MIN);
    if (t == GEN_T_HF)
        return flush(round_to(x, resid, FMT_HF, m->rm), m->keep_hf, 0x1p-14);
    return flush(round_to(x, resid, FMT_F, m->rm), m->keep_f, FLT_MIN);
}

/* Convert v to the bits of type `t` (float to integer rounds toward zero
 * and clamps; sat clamps integers to the type and floats to [0, 1]). */
static uint64_t val_to_bits(gval v, uint8_t t, bool sat, const fpmode *m, gval *stored)
{
    if (type_is_float(t)) {
        /* an integer converts with cr0's rounding (64-bit ones may need it
         * in double too), a float to a narrower type as well */
        long double li = v.u64 ? (long double)(uint64_t)v.i : (long double)v.i;
        double f = v.isf ? v.f : v.u64 ? (double)(uint64_t)v.i : (double)v.i;
        double resid = v.isf ? 0.0 : (double)(li - (long double)f);
        f = round_type(f, resid, t, m);
        if (sat)
            f = isnan(f) ? 0.0 : f < 0.0 ? 0.0 : f > 1.0 ? 1.0 : f;
        uint64_t bits = 0;
        if (t == GEN_T_DF) {
            memcpy(&bits, &f, 8);
        } else if (t == GEN_T_HF) {
            bits = sgemu_double_to_half(f);
            f = sgemu_half_to_float((uint16_t)bits);
        } else {
            float x = (float)f;
            uint32_t b;
            memcpy(&b, &x, 4);
            bits = b;
            f = x;
        }
        *stored = (gval){ true, false, f, 0, bits };
        return bits;
    }
    int64_t i;
    if (v.isf) {
        double f = trunc(v.f);
        if (isnan(f))
            i = 0;
        else if (f <= (double)int_min(t))
            i = int_min(t);
        else if (f >= (double)int_max(t))
            i = (int64_t)int_max(t);
        else if (f >= 0x1p63)   /* :uq's upper half */
            i = (int64_t)(uint64_t)f;
        else
            i = (int64_t)f;
    } else {
        i = v.i;
        if (sat && v.u64 && i < 0) {   /* a :uq value at or above 2^63 */
            if (t != GEN_T_UQ)
                i = (int64_t)int_max(t);
        } else if (sat) {
            if (i < int_min(t))
                i = int_min(t);
            else if (type_is_signed(t) ? i > (int64_t)int_max(t)
                                       : (uint64_t)i > int_max(t) && i >= 0)
                i = (int64_t)int_max(t);
        }
    }
    uint32_t b = gen_type_bytes[t];
    uint64_t bits = b == 8 ? (uint64_t)i : (uint64_t)i & ((UINT64_C(1) << (8 * b)) - 1);
    *stored = bits_to_val(t, bits);
    return bits;
}

static int write_dst(emu_run *run, gen_thread *t, const gen_opnd *o, uint32_t i, uint64_t bits)
{
    if (o->file == GEN_FILE_NULL)
        return 0;
    uint32_t size, tb = gen_type_bytes[o->type];
    uint8_t *base = file_base(t, o->file, &size);
    uint32_t a = elem_addr(run, t, o, i, true);
    if (!base || !tb)
        return gen_fault(run, t, UINT32_MAX, SGEMU_EXIT_USER,
                         "destination register file or type not supported by sgemu");
    if (a > size || tb > size - a)
        return gen_fault(run, t, UINT32_MAX, SGEMU_EXIT_FAULT,
                         "destination outside the register file (byte %u)", a);
    memcpy(base + a, &bits, tb);
    return 0;
}

/* Flag bits of register f<reg>.<sub>, as a 64-bit window. */
static uint64_t flag_word(const gen_thread *t, uint8_t reg, uint8_t sub)
{
    uint64_t v = 0;
    uint32_t off = reg * 4u + sub * 2u;
    if (off < GEN_FLAG_BYTES)
        memcpy(&v, t->flag + off, GEN_FLAG_BYTES - off < 8 ? GEN_FLAG_BYTES - off : 8);
    return v;
}

static void flag_set(gen_thread *t, uint8_t reg, uint8_t sub, uint32_t bit, bool on)
{
    uint32_t off = reg * 4u + sub * 2u + bit / 8;
    if (off >= GEN_FLAG_BYTES)
        return;
    uint8_t m = (uint8_t)(1u << (bit % 8));
    t->flag[off] = on ? (uint8_t)(t->flag[off] | m) : (uint8_t)(t->flag[off] & ~m);
}

uint64_t gen_pred_bits(const gen_thread *t, const gen_inst *in)
{
    uint64_t all = in->esize >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << in->esize) - 1;
    if (in->pred == GEN_PRED_NONE)
        return all;
    uint64_t f = flag_word(t, in->flag_reg, in->flag_sub), p = 0;
    if (in->pred == GEN_PRED_SEQ) {
        p = f >> in->choff;
    } else {
        /* .anyNh / .allNh: channel c's predicate is the any / all of the flag
         * bits of its aligned group of N channels (IGA's PredCtrl order:
         * ANY2H, ALL2H, ANY4H, ... ALL32H) */
        uint32_t k = (uint32_t)(in->pred - GEN_IGA_PRED_ANY2H);
        uint32_t n = 2u << (k / 2);
        bool any = k % 2 == 0;
        for (uint32_t i = 0; i < in->esize; i++) {
            uint32_t g = (in->choff + i) / n * n;
            uint64_t gm = n >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << n) - 1;
            uint64_t bits = f >> g & gm;
            if (any ? bits != 0 : bits == gm)
                p |= UINT64_C(1) << i;
        }
    }
    return (in->pred_inv ? ~p : p) & all;
}

uint64_t gen_channels(const gen_thread *t, const gen_inst *in, bool use_pred)
{
    uint64_t all = in->esize >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << in->esize) - 1;
    uint64_t m = in->nomask ? all : (t->exec >> in->choff) & all;
    if (use_pred && in->pred != GEN_PRED_NONE)
        m &= gen_pred_bits(t, in);
    return m;
}

/* A conditional modifier on the order of two values: ord < 0, 0, > 0 for
 * less, equal, greater (unordered values are handled by the callers). */
static bool cond_of_order(uint8_t cond, int ord)
{
    switch (cond) {
    case GEN_COND_EQ: return ord == 0;
    case GEN_COND_NE: return ord != 0;
    case GEN_COND_GT: return ord > 0;
    case GEN_COND_GE: return ord >= 0;
    case GEN_COND_LT: return ord < 0;
    case GEN_COND_LE: return ord <= 0;
    default: return false;
    }
}

#define ORDER(x, y) (((x) > (y)) - ((x) < (y)))

static bool cond_true(uint8_t cond, gval v)
{
    if (v.isf && isnan(v.f))
        return cond == GEN_COND_NE || cond == GEN_COND_UN;
    return cond_of_order(cond, v.isf ? ORDER(v.f, 0.0) : ORDER(v.i, 0));
}

/* a <cond> b for cmp and sel: unsigned when both are unsigned integers. */
static bool compare(uint8_t cond, gval a, gval b, bool fl, bool uns)
{
    if (fl) {
        double x = a.isf ? a.f : (double)a.i, y = b.isf ? b.f : (double)b.i;
        if (isnan(x) || isnan(y))
            return cond == GEN_COND_NE || cond == GEN_COND_UN;
        return cond_of_order(cond, ORDER(x, y));
    }
    if (uns)
        return cond_of_order(cond, ORDER((uint64_t)a.i, (uint64_t)b.i));
    return cond_of_order(cond, ORDER(a.i, b.i));
}

/* Round a float result to the execution precision (single unless :df),
 * to nearest even whatever cr0.0 says: the extended math and frc results
 * that use it keep round-to-nearest and their denormals (docs/gen.md). */
static double fround(double x, bool dbl)
{
    return dbl ? x : (double)(float)x;
}

/* x + y and x * y + z exactly as a double and a residual (TwoSum: both
 * sources are doubles; for :f sources the product is exact in double). */
static double two_sum(double x, double y, double *resid)
{
    double s = x + y, bb = s - x;
    *resid = (x - (s - bb)) + (y - bb);
    return s;
}

/* x * y + z with one rounding in mode rm: C's fma, which IEEE 754 and
 * glibc round in the host's current rounding mode, under fesetround.  The
 * volatile copies keep the compiler from moving the fma across the mode
 * switches (GCC does not honour FENV_ACCESS). */
static double fma_mode(double x, double y, double z, unsigned rm)
{
    if (rm == RM_RNE)
        return fma(x, y, z);
    static const int fe[4] = { FE_TONEAREST, FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO };
    volatile double vx = x, vy = y, vz = z, vr;
    int old = fegetround();
    fesetround(fe[rm]);
    vr = fma(vx, vy, vz);
    fesetround(old);
    return vr;
}

/* An arithmetic result in the instruction's precision and cr0's mode. */
static double arith(double x, double resid, bool dbl, const fpmode *m)
{
    return round_type(x, resid, dbl ? GEN_T_DF : GEN_T_F, m);
}

/* math (extended math) functions, IGA's iga::MathFC */
enum { MATH_INV = 1, MATH_LOG, MATH_EXP, MATH_SQT, MATH_RSQT, MATH_SIN, MATH_COS,
       MATH_FDIV, MATH_POW, MATH_IDIV, MATH_IQOT, MATH_IREM };

/* A double the IEEE macros' iterations handle: finite, normal, not zero. */
static bool macro_operand(double x)
{
    return isnormal(x);
}

/* Below this the macros' last residual (x - y q, x - g g: about x 2^-53)
 * is subnormal and, without the hardware's extra mme bits, too coarse for
 * the final correction: the emulation exits early there. */
#define MACRO_RESIDUAL_MIN 0x1p-969

static uint32_t bits_of(int64_t v, uint32_t nb)
{
    return nb >= 4 ? (uint32_t)v : (uint32_t)v & ((1u << (8 * nb)) - 1);
}

/* A float source of add/mul/mad: denormals flushed unless cr0.0 keeps them
 * (integer sources convert exactly). */
static double src_f(gval v, const fpmode *m, bool dbl)
{
    if (!v.isf)
        return (double)v.i;
    return dbl ? flush(v.f, m->keep_df, DBL_MIN) : flush(v.f, m->keep_f, FLT_MIN);
}

/* One channel of an ALU instruction.  *r: the result; *acc_out/has_acc: a
 * value the instruction also writes to the accumulator (addc, subb, mach). */
static int alu_channel(emu_run *run, gen_thread *t, const gen_inst *in, uint32_t i,
                       gval *r, bool *has_acc, uint64_t *acc_bits, bool *early_out)
{
    const bool logic = in->op == GEN_OP_AND || in->op == GEN_OP_OR || in->op == GEN_OP_XOR ||
                       in->op == GEN_OP_NOT;
    gval a = { false, false, 0, 0, 0 }, b = a, c = a;
    for (uint32_t s = 0; s < in->nsrc; s++)
        if (read_src(run, t, in, s, i, logic, s == 0 ? &a : s == 1 ? &b : &c))
            return run->fault->code;
    bool fl = a.isf || (in->nsrc > 1 && b.isf) || (in->nsrc > 2 && c.isf);
    bool dbl = in->dst.type == GEN_T_DF || in->src[0].type == GEN_T_DF;
    /* integer execution size: 64-bit when an operand is a qword */
    uint32_t ib = gen_type_bytes[in->src[0].type];
    if (in->nsrc > 1 && gen_type_bytes[in->src[1].type] > ib)
        ib = gen_type_bytes[in->src[1].type];
    if (ib < 4)
        ib = 4;
    if (gen_type_bytes[in->dst.type] == 8)
        ib = 8;
    const uint32_t bits = 8 * ib;
    *r = (gval){ fl, false, 0, 0, 0 };
    uint64_t ua = (uint64_t)a.i, ub = (uint64_t)b.i;
    const fpmode fm = fp_mode(t);
    switch ((gen_op)in->op) {
    case GEN_OP_MOV:
    case GEN_OP_SMOV:
        *r = a;
        break;
    case GEN_OP_ADD:
        if (fl) {
            double e, x = two_sum(src_f(a, &fm, dbl), src_f(b, &fm, dbl), &e);
            r->f = arith(x, e, dbl, &fm);
        } else
            r->i = (int64_t)(ua + ub);
        break;
    case GEN_OP_MUL:
        if (fl) {
            double x = src_f(a, &fm, dbl), y = src_f(b, &fm, dbl), p = x * y;
            r->f = arith(p, dbl ? fma(x, y, -p) : 0.0, dbl, &fm);
        } else
            r->i = (int64_t)(ua * ub);
        break;
    case GEN_OP_MAD:   /* src1 * src2 + src0, one rounding */
        if (fl && dbl) {
            r->f = flush(fma_mode(src_f(b, &fm, true), src_f(c, &fm, true),
                                  src_f(a, &fm, true), fm.rm), fm.keep_df, DBL_MIN);
        } else if (fl) {   /* the :f product is exact in double */
            double e, x = two_sum(src_f(b, &fm, false) * src_f(c, &fm, false),
                                  src_f(a, &fm, false), &e);
            r->f = arith(x, e, false, &fm);
        } else
            r->i = (int64_t)((uint64_t)b.i * (uint64_t)c.i + ua);
        break;
    case GEN_OP_MADM:   /* the IEEE macros' step: src1 * src2 + src0, one rounding;
                         * the operands' extra mme bits are taken as zero (an
                         * emulation: docs/gen.md, "The IEEE macros") */
        r->f = fma_mode(src_f(b, &fm, true), src_f(c, &fm, true), src_f(a, &fm, true), fm.rm);
        r->isf = true;
        break;
    case GEN_OP_LRP: {   /* src1 * src0 + src2 * (1 - src0) (vISA LRP.md), :f only:
                          * computed in double, one rounding to cr0's mode */
        double x = src_f(a, &fm, false), y = src_f(b, &fm, false), z = src_f(c, &fm, false);
        r->f = arith(y * x + z * (1.0 - x), 0.0, false, &fm);
        break;
    }
    case GEN_OP_ADDC: {
        uint64_t s = (uint64_t)(uint32_t)ua + (uint32_t)ub;
        r->i = (uint32_t)s;
        *has_acc = true;
        *acc_bits = s >> 32;
        break;
    }
    case GEN_OP_SUBB: {
        uint32_t x = (uint32_t)ua, y = (uint32_t)ub;
        r->i = (uint32_t)(x - y);
        *has_acc = true;
        *acc_bits = x < y;
        break;
    }
    case GEN_OP_ADD3:
        r->i = (int64_t)(ua + ub + (uint64_t)c.i);
        break;
    case GEN_OP_BFN: {   /* bit k: the LUT's bit (s2 << 2 | s1 << 1 | s0): IGA prints
                          * bfn.0xD8 as s0&s1|~s0&s2, so s0 is 0xAA, s1 0xCC, s2 0xF0 */
        uint64_t x = 0;
        for (uint32_t k = 0; k < bits; k++) {
            uint32_t idx = (uint32_t)(((uint64_t)c.i >> k & 1) << 2 | (ub >> k & 1) << 1 |
                                      (ua >> k & 1));
            x |= (uint64_t)(in->subfunc >> idx & 1) << k;
        }
        r->i = (int64_t)x;
        r->isf = false;
        break;
    }
    case GEN_OP_ROL: case GEN_OP_ROR: {   /* in the width of src0's type */
        uint32_t w = 8u * gen_type_bytes[in->src[0].type], n = (uint32_t)ub & (w - 1);
        uint64_t m = w == 64 ? ~UINT64_C(0) : (UINT64_C(1) << w) - 1, x = ua & m;
        if (in->op == GEN_OP_ROR)
            n = (w - n) & (w - 1);
        r->i = (int64_t)(n ? (x << n | x >> (w - n)) & m : x);
        break;
    }
    case GEN_OP_BFE: {   /* bfe width(src0) offset(src1) value(src2), 32-bit */
        uint32_t w = (uint32_t)a.i & 31, o = (uint32_t)b.i & 31, v = (uint32_t)c.i;
        if (w == 0) {
            r->i = 0;
        } else if (w + o < 32) {
            uint32_t x = v << (32 - w - o);
            r->i = type_is_signed(in->src[2].type) ? (int64_t)((int32_t)x >> (32 - w))
                                                   : (int64_t)(x >> (32 - w));
        } else {
            r->i = type_is_signed(in->src[2].type) ? (int64_t)((int32_t)v >> o)
                                                   : (int64_t)(v >> o);
        }
        break;
    }
    case GEN_OP_BFI1: {   /* the mask of width src0 at offset src1 */
        uint32_t w = (uint32_t)a.i & 31, o = (uint32_t)b.i & 31;
        r->i = (uint32_t)(((1u << w) - 1) << o);
        break;
    }
    case GEN_OP_BFI2:   /* src1 (shifted into place) where mask src0 is set, else src2 */
        r->i = (uint32_t)((ua & ub) | (~ua & (uint64_t)c.i));
        break;
    case GEN_OP_MACL:
    case GEN_OP_MACH: {
        /* The 64-bit product of the dword sources.  With AccWrEn: the high
         * half to dst, the low half to acc ("mach", IGC's mul_hi).  Without
         * it, before Xe-HPC, the same opcode is IGC's "macl": the low half
         * (vISA BinaryEncodingIGA.cpp encodes G4_mach without AccWrEn as
         * macl only from PVC on); from Xe-HPC on, macl has its own opcode
         * and mach is always the high half. */
        bool sg = type_is_signed(in->src[0].type) || type_is_signed(in->src[1].type);
        uint64_t p = sg ? (uint64_t)((int64_t)(int32_t)a.i * (int64_t)(int32_t)b.i)
                        : (uint64_t)(uint32_t)a.i * (uint32_t)b.i;
        bool high = in->op == GEN_OP_MACH &&
                    (in->accwr || run->k->gen->platform >= GEN_IGA_XE_HPC);
        if (high) {
            r->i = sg ? (int64_t)(int32_t)(uint32_t)(p >> 32) : (int64_t)(p >> 32);
            *has_acc = true;
            *acc_bits = (uint32_t)p;
        } else {
            r->i = sg ? (int64_t)(int32_t)(uint32_t)p : (int64_t)(uint32_t)p;
        }
        break;
    }
    case GEN_OP_AVG:
        r->i = (a.i + b.i + 1) >> 1;
        break;
    case GEN_OP_AND: r->i = a.i & b.i; r->isf = false; break;
    case GEN_OP_OR: r->i = a.i | b.i; r->isf = false; break;
    case GEN_OP_XOR: r->i = a.i ^ b.i; r->isf = false; break;
    case GEN_OP_NOT: r->i = ~a.i; r->isf = false; break;
    case GEN_OP_SHL:
        r->i = (int64_t)(ua << (ub & (bits - 1)));
        break;
    case GEN_OP_SHR: {
        uint64_t x = ib == 8 ? ua : (uint64_t)bits_of(a.i, gen_type_bytes[in->src[0].type]);
        r->i = (int64_t)(x >> (ub & (bits - 1)));
        break;
    }
    case GEN_OP_ASR:
        r->i = a.i >> (ub & (bits - 1));
        break;
    case GEN_OP_SEL:
        if (in->cond) {
            bool uns = !type_is_signed(in->src[0].type) && !type_is_signed(in->src[1].type);
            bool take_a = compare(in->cond, a, b, fl, uns);
            if (fl && (isnan(a.isf ? a.f : 0) || isnan(b.isf ? b.f : 0)))
                take_a = isnan(b.f);   /* min/max return the number */
            *r = take_a ? a : b;
        } else {
            *r = gen_pred_bits(t, in) >> i & 1 ? a : b;
        }
        break;
    case GEN_OP_CSEL:   /* src2 <cond> 0 selects src0, else src1; flags untouched */
        *r = cond_true(in->cond, c) ? a : b;
        break;
    case GEN_OP_FRC: r->f = fround(a.f - floor(a.f), dbl); break;
    case GEN_OP_RNDD: r->f = floor(a.f); break;
    case GEN_OP_RNDU: r->f = ceil(a.f); break;
    case GEN_OP_RNDE: r->f = nearbyint(a.f); break;
    case GEN_OP_RNDZ: r->f = trunc(a.f); break;
    case GEN_OP_LZD: {
        uint32_t x = (uint32_t)a.i;
        r->i = x ? __builtin_clz(x) : 32;
        break;
    }
    case GEN_OP_CBIT: r->i = __builtin_popcountll((uint64_t)bits_of(a.i, gen_type_bytes[in->src[0].type])); break;
    case GEN_OP_FBL: {
        uint32_t x = (uint32_t)a.i;
        r->i = x ? __builtin_ctz(x) : -1;
        r->i = (uint32_t)r->i;
        break;
    }
    case GEN_OP_FBH: {
        uint32_t x = (uint32_t)a.i;
        if (type_is_signed(in->src[0].type) && (int32_t)x < 0)
            x = ~x;
        r->i = x ? __builtin_clz(x) : -1;
        r->i = (uint32_t)r->i;
        break;
    }
    case GEN_OP_BFREV: {
        uint32_t x = (uint32_t)a.i, y = 0;
        for (int k = 0; k < 32; k++)
            y |= (x >> k & 1u) << (31 - k);
        r->i = y;
        break;
    }
    case GEN_OP_MATH: {
        double x = a.isf ? a.f : (double)a.i, y = b.isf ? b.f : (double)b.i;
        switch (in->subfunc) {
        case MATH_INV: r->f = fround(1.0 / x, dbl); break;
        case MATH_LOG: r->f = fround(log2(x), dbl); break;
        case MATH_EXP: r->f = fround(exp2(x), dbl); break;
        case MATH_SQT: r->f = fround(sqrt(x), dbl); break;
        case MATH_RSQT: r->f = fround(1.0 / sqrt(x), dbl); break;
        case MATH_SIN: r->f = fround(sin(x), dbl); break;
        case MATH_COS: r->f = fround(cos(x), dbl); break;
        case MATH_FDIV: r->f = fround(x / y, dbl); break;
        case MATH_POW: r->f = fround(pow(x, y), dbl); break;
        case GEN_MATH_INVM:   /* x / y: an approximation of 1/y that madm steps refine;
                               * special or extreme operands exit early with x / y */
            *early_out = !macro_operand(x) || !macro_operand(y) || fabs(x) < MACRO_RESIDUAL_MIN ||
                         !macro_operand(1.0 / y) || !macro_operand(x / y);
            r->f = *early_out ? x / y : 1.0 / y;
            break;
        case GEN_MATH_RSQTM:  /* sqrt(x): an approximation of 1/sqrt(x), or early out;
                               * also at the top binade, where the madm steps without
                               * the hardware's extra bits round sqrt(DBL_MAX) up */
            *early_out = !macro_operand(x) || x < MACRO_RESIDUAL_MIN || x >= 0x1p1023;
            r->f = *early_out ? sqrt(x) : 1.0 / sqrt(x);
            break;
        case MATH_IQOT: case MATH_IREM: {
            r->isf = false;
            if (b.i == 0)
                return gen_fault(run, t, i, SGEMU_EXIT_FAULT, "integer division by zero");
            bool uns = !type_is_signed(in->src[0].type);
            if (uns)
                r->i = (int64_t)(in->subfunc == MATH_IQOT ? (uint32_t)a.i / (uint32_t)b.i
                                                          : (uint32_t)a.i % (uint32_t)b.i);
            else if ((int32_t)a.i == INT32_MIN && (int32_t)b.i == -1)
                r->i = in->subfunc == MATH_IQOT ? INT32_MIN : 0;
            else
                r->i = in->subfunc == MATH_IQOT ? (int32_t)a.i / (int32_t)b.i
                                                : (int32_t)a.i % (int32_t)b.i;
            break;
        }
        default:
            return gen_fault(run, t, UINT32_MAX, SGEMU_EXIT_USER,
                             "math function %u is not supported by sgemu", in->subfunc);
        }
        break;
    }
    default:
        return gen_fault(run, t, UINT32_MAX, SGEMU_EXIT_USER,
                         "instruction not supported by sgemu's Gen path");
    }
    return 0;
}

/* Every channel's comparison first, then the flags and the destination:
 * the destination may overlap a source (IGC's SIMD32 Gen9 code compares
 * into the register that holds its scalar operand, `cmp (8|M24) (gt)f1.0
 * r36.0<1>:uq r44.0<4;4,1>:uq r36.0<0;1,0>:uq`) */
static int exec_cmp(emu_run *run, gen_thread *t, const gen_inst *in, uint64_t m)
{
    uint64_t res = 0;
    for (uint32_t i = 0; i < in->esize; i++) {
        if (!(m >> i & 1))
            continue;
        gval a = { false, false, 0, 0, 0 }, b = a;
        if (read_src(run, t, in, 0, i, false, &a) || read_src(run, t, in, 1, i, false, &b))
            return run->fault->code;
        bool fl = a.isf || b.isf;
        bool uns = !type_is_signed(in->src[0].type) && !type_is_signed(in->src[1].type);
        if (compare(in->cond, a, b, fl, uns))
            res |= UINT64_C(1) << i;
    }
    for (uint32_t i = 0; i < in->esize; i++) {
        if (!(m >> i & 1))
            continue;
        bool r = res >> i & 1;
        flag_set(t, in->flag_reg, in->flag_sub, in->choff + i, r);
        if (in->has_dst && in->dst.file != GEN_FILE_NULL &&
            write_dst(run, t, &in->dst, i, r ? ~UINT64_C(0) : 0))
            return run->fault->code;
    }
    return 0;
}

int gen_exec_alu(emu_run *run, gen_thread *t, const gen_inst *in)
{
    const gen_class cls = (gen_class)gen_ops[in->op].cls;
    if (cls == GEN_CLASS_NOP)
        return 0;
    /* sel reads its predicate as the choice, not as a channel enable */
    uint64_t m = gen_channels(t, in, in->op != GEN_OP_SEL);
    /* smov (Gen9): a move whose src1 immediate masks its channels, vISA's
     * form of "(P) mov" after "mov (1) P imm" (Optimizer::createSmov): bit
     * i for the instruction's channel i, at every mask offset (IGC's
     * (16|M16) smovs of a SIMD32 thread repeat the (16|M0) ones' masks) */
    if (in->op == GEN_OP_SMOV)
        m &= in->src[1].imm;
    if (cls == GEN_CLASS_CMP)
        return exec_cmp(run, t, in, m);
    /* results first, then writes: a destination may overlap a source */
    uint64_t out[32], accv[32];
    bool acc[32], eo[32];
    gval stored[32];
    const fpmode fm = fp_mode(t);
    if (in->esize > 32)
        return gen_fault(run, t, UINT32_MAX, SGEMU_EXIT_USER, "execution size %u", in->esize);
    for (uint32_t i = 0; i < in->esize; i++) {
        acc[i] = eo[i] = false;
        if (!(m >> i & 1))
            continue;
        gval r = { false, false, 0, 0, 0 };
        if (alu_channel(run, t, in, i, &r, &acc[i], &accv[i], &eo[i]))
            return run->fault->code;
        if ((in->op == GEN_OP_MOV || in->op == GEN_OP_SMOV) &&
            in->src[0].type == in->dst.type && !in->sat &&
            in->src[0].mod == GEN_MOD_NONE && in->src[0].kind != GEN_OPND_IMM) {
            out[i] = r.raw;   /* a move of one type copies bits (NaN payloads too) */
            stored[i] = r;
        } else {
            out[i] = val_to_bits(r, in->dst.type, in->sat, &fm, &stored[i]);
        }
    }
    for (uint32_t i = 0; i < in->esize; i++) {
        if (!(m >> i & 1))
            continue;
        if (in->has_dst && write_dst(run, t, &in->dst, i, out[i]))
            return run->fault->code;
        if (acc[i]) {   /* addc/subb carry, mach low half: acc0 element i, :ud */
            uint32_t v = (uint32_t)accv[i];
            memcpy(t->acc + 4 * i, &v, 4);
        }
        if (in->cond == GEN_COND_EO)
            flag_set(t, in->flag_reg, in->flag_sub, in->choff + i, eo[i]);
        else if (in->cond && in->op != GEN_OP_SEL && in->op != GEN_OP_CSEL)
            flag_set(t, in->flag_reg, in->flag_sub, in->choff + i,
                     cond_true(in->cond, stored[i]));
    }
    return 0;
}
