/* image.c - image2d_t access: read_image{ui,i,f} / write_image{ui,i,f} with
 * integer coordinates, the queries (get_image_width/height,
 * get_image_channel_order/data_type, get_image_depth/array_size), the
 * coordinate-vector forms of every other image type (1D, 1D buffer, 1D
 * array, 2D array, 3D), and the image forms of the sub-group
 * block reads and writes (run as micro-ops by collectives/).
 * Every access is checked against the image; no byte outside it is read or
 * written. */
#include "block_io.h"
#include "emu_private.h"
#include "timing/timing_model.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <spirv/unified1/spirv.h>

static const uint8_t channel_count[SGEMU_ORDER_COUNT] = {
#define X(E, n, c) [SGEMU_ORDER_##E] = c,
    SGEMU_CHANNEL_ORDERS(X)
#undef X
};

static const uint8_t channel_bytes[SGEMU_CHTYPE_COUNT] = {
#define X(E, n, b) [SGEMU_CHTYPE_##E] = b,
    SGEMU_CHANNEL_TYPES(X)
#undef X
};

static const char *const chtype_names[SGEMU_CHTYPE_COUNT] = {
#define X(E, n, b) [SGEMU_CHTYPE_##E] = n,
    SGEMU_CHANNEL_TYPES(X)
#undef X
};

/* get_image_channel_order / _data_type return what SPIR-V's
 * OpImageQueryOrder / OpImageQueryFormat return: the ImageChannelOrder /
 * ImageChannelDataType enum.  OpenCL C's CLK_* value is that plus 0x10B0 /
 * 0x10D0 (clang adds it after the query).  Every order and type an image
 * argument can have is listed, so no entry is 0 by omission. */
static const uint32_t spv_order[SGEMU_ORDER_COUNT] = {
    [SGEMU_ORDER_R] = SpvImageChannelOrderR,          /* CLK_R    0x10B0 */
    [SGEMU_ORDER_RG] = SpvImageChannelOrderRG,        /* CLK_RG   0x10B2 */
    [SGEMU_ORDER_RGBA] = SpvImageChannelOrderRGBA,    /* CLK_RGBA 0x10B5 */
    [SGEMU_ORDER_BGRA] = SpvImageChannelOrderBGRA,    /* CLK_BGRA 0x10B6 */
};

static const uint32_t spv_chtype[SGEMU_CHTYPE_COUNT] = {
    [SGEMU_CHTYPE_UNSIGNED_INT8] = SpvImageChannelDataTypeUnsignedInt8,    /* 0x10DA */
    [SGEMU_CHTYPE_UNSIGNED_INT16] = SpvImageChannelDataTypeUnsignedInt16,  /* 0x10DB */
    [SGEMU_CHTYPE_UNSIGNED_INT32] = SpvImageChannelDataTypeUnsignedInt32,  /* 0x10DC */
    [SGEMU_CHTYPE_SIGNED_INT8] = SpvImageChannelDataTypeSignedInt8,        /* 0x10D7 */
    [SGEMU_CHTYPE_SIGNED_INT16] = SpvImageChannelDataTypeSignedInt16,      /* 0x10D8 */
    [SGEMU_CHTYPE_SIGNED_INT32] = SpvImageChannelDataTypeSignedInt32,      /* 0x10D9 */
    [SGEMU_CHTYPE_UNORM_INT8] = SpvImageChannelDataTypeUnormInt8,          /* 0x10D2 */
    [SGEMU_CHTYPE_UNORM_INT16] = SpvImageChannelDataTypeUnormInt16,        /* 0x10D3 */
    [SGEMU_CHTYPE_HALF_FLOAT] = SpvImageChannelDataTypeHalfFloat,          /* 0x10DD */
    [SGEMU_CHTYPE_FLOAT] = SpvImageChannelDataTypeFloat,                   /* 0x10DE */
    [SGEMU_CHTYPE_SNORM_INT8] = SpvImageChannelDataTypeSnormInt8,          /* 0x10D0 */
    [SGEMU_CHTYPE_SNORM_INT16] = SpvImageChannelDataTypeSnormInt16,        /* 0x10D1 */
};

/* The value of one image query instruction. */
static uint32_t image_query(const sgemu_image *im, isa_opcode op)
{
    switch (op) {
    case ISA_OP_GET_IMAGE_WIDTH: return im->width;
    case ISA_OP_GET_IMAGE_HEIGHT: return im->dims == 1 ? 1 : im->height;
    case ISA_OP_GET_IMAGE_DEPTH: return im->dims == 3 ? im->depth : 1;
    case ISA_OP_GET_IMAGE_ARRAY_SIZE:
        return !im->arrayed ? 1 : im->dims == 1 ? im->height : im->depth;
    case ISA_OP_GET_IMAGE_CHANNEL_ORDER: return spv_order[im->order];
    case ISA_OP_GET_IMAGE_CHANNEL_DATA_TYPE: return spv_chtype[im->chtype];
    default: return 0;   /* no other IMG_QUERY rows */
    }
}

/* What each read/write flavour accepts: OpenCL pairs read_imageui with
 * unsigned integer channels, read_imagei with signed ones and read_imagef
 * with normalised / floating ones; other pairings are undefined. */
typedef enum img_kind { IMG_UI, IMG_I, IMG_F } img_kind;

static img_kind chtype_kind(sgemu_channel_type t)
{
    switch (t) {
    case SGEMU_CHTYPE_UNSIGNED_INT8: case SGEMU_CHTYPE_UNSIGNED_INT16:
    case SGEMU_CHTYPE_UNSIGNED_INT32:
        return IMG_UI;
    case SGEMU_CHTYPE_SIGNED_INT8: case SGEMU_CHTYPE_SIGNED_INT16:
    case SGEMU_CHTYPE_SIGNED_INT32:
        return IMG_I;
    default:
        return IMG_F;
    }
}

static img_kind inst_kind(const isa_inst *in)
{
    return in->type == ISA_T_U32 ? IMG_UI : in->type == ISA_T_I32 ? IMG_I : IMG_F;
}

static uint32_t f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static float bits_f32(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* One channel from memory to the 32-bit register value of its kind (OpenCL C,
 * "Conversion rules for normalized integer channel data types": UNORM c/max,
 * SNORM max(-1, c/max), computed in float). */
static uint32_t channel_load(sgemu_channel_type t, const uint8_t *p)
{
    uint8_t b8 = p[0];
    uint16_t b16 = 0;
    uint32_t b32 = 0;
    memcpy(&b16, p, channel_bytes[t] < 2 ? channel_bytes[t] : 2);
    memcpy(&b32, p, channel_bytes[t] < 4 ? channel_bytes[t] : 4);
    switch (t) {
    case SGEMU_CHTYPE_UNSIGNED_INT8: return b8;
    case SGEMU_CHTYPE_UNSIGNED_INT16: return b16;
    case SGEMU_CHTYPE_UNSIGNED_INT32: return b32;
    case SGEMU_CHTYPE_SIGNED_INT8: return (uint32_t)(int32_t)(int8_t)b8;
    case SGEMU_CHTYPE_SIGNED_INT16: return (uint32_t)(int32_t)(int16_t)b16;
    case SGEMU_CHTYPE_SIGNED_INT32: return b32;
    case SGEMU_CHTYPE_UNORM_INT8: return f32_bits((float)b8 / 255.0f);
    case SGEMU_CHTYPE_UNORM_INT16: return f32_bits((float)b16 / 65535.0f);
    case SGEMU_CHTYPE_SNORM_INT8: return f32_bits(fmaxf(-1.0f, (float)(int8_t)b8 / 127.0f));
    case SGEMU_CHTYPE_SNORM_INT16:
        return f32_bits(fmaxf(-1.0f, (float)(int16_t)b16 / 32767.0f));
    case SGEMU_CHTYPE_HALF_FLOAT: return f32_bits(lanes_f16_to_f32(b16));
    case SGEMU_CHTYPE_FLOAT: return b32;
    default: return 0;
    }
}

static uint32_t sat_u(uint32_t v, uint32_t max) { return v > max ? max : v; }

static int32_t sat_i(int32_t v, int32_t lo, int32_t hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* Normalised store, OpenCL C's convert_<type>_sat_rte(f * scale): the
 * product in float, rounded to nearest even, saturated to [lo, hi]; NaN is
 * 0.  The result's two's-complement bits. */
static uint32_t norm(float f, float scale, float lo, float hi)
{
    float v = f * scale;
    if (isnan(v))
        return 0;
    v = nearbyintf(v);
    v = v < lo ? lo : v > hi ? hi : v;
    return (uint32_t)(int32_t)v;
}

/* One channel from its 32-bit register value to memory, saturating as the
 * OpenCL write_image* conversions do. */
static void channel_store(sgemu_channel_type t, uint32_t v, uint8_t *p)
{
    uint32_t u = 0;
    switch (t) {
    case SGEMU_CHTYPE_UNSIGNED_INT8: u = sat_u(v, 0xff); break;
    case SGEMU_CHTYPE_UNSIGNED_INT16: u = sat_u(v, 0xffff); break;
    case SGEMU_CHTYPE_UNSIGNED_INT32: u = v; break;
    case SGEMU_CHTYPE_SIGNED_INT8: u = (uint32_t)sat_i((int32_t)v, -128, 127); break;
    case SGEMU_CHTYPE_SIGNED_INT16: u = (uint32_t)sat_i((int32_t)v, -32768, 32767); break;
    case SGEMU_CHTYPE_SIGNED_INT32: u = v; break;
    case SGEMU_CHTYPE_UNORM_INT8: u = norm(bits_f32(v), 255.0f, 0.0f, 255.0f); break;
    case SGEMU_CHTYPE_UNORM_INT16: u = norm(bits_f32(v), 65535.0f, 0.0f, 65535.0f); break;
    case SGEMU_CHTYPE_SNORM_INT8: u = norm(bits_f32(v), 127.0f, -128.0f, 127.0f); break;
    case SGEMU_CHTYPE_SNORM_INT16: u = norm(bits_f32(v), 32767.0f, -32768.0f, 32767.0f); break;
    case SGEMU_CHTYPE_HALF_FLOAT: u = lanes_f32_to_f16(bits_f32(v)); break;
    case SGEMU_CHTYPE_FLOAT: u = v; break;
    default: break;
    }
    memcpy(p, &u, channel_bytes[t]);   /* little-endian host */
}

static const char *image_name(const emu_run *run, uint32_t arg)
{
    return arg < run->k->narg ? run->k->args[arg].name : "?";
}

/* The per-lane addresses the timing model sees for element accesses. */
static emu_rec *current_rec(emu_run *run, const emu_sg *sg)
{
    emu_wg_trace *tr = run->wg ? run->wg->trace : NULL;
    if (!tr || sg->id >= tr->nsg || tr->sg[sg->id].n == 0)
        return NULL;
    return &tr->sg[sg->id].recs[tr->sg[sg->id].n - 1];
}

static int record_texels(emu_run *run, emu_sg *sg, uint32_t pc, lanes_mask mask, uint32_t arg,
                         const int64_t *x, const int64_t *y, const int64_t *z);
static void image_grid(const sgemu_image *im, uint32_t n[3]);
static void write_texels(emu_sg *sg, const isa_inst *in, uint32_t vec, lanes_mask mask,
                         const uint32_t res[4][LANES_MAX]);

static int element_access(emu_run *run, emu_sg *sg, const isa_inst *in,
                          lanes_mask mask, uint32_t pc)
{
    const isa_op_info *oi = &isa_ops[in->op];
    bool write = oi->family == ISA_FAM_IMG_WRITE;
    const isa_operand *io = write ? &in->o[0] : &in->o[1];
    uint32_t arg = io->reg;
    const sgemu_image *im = &run->args[arg].image;
    sgemu_channel_type ct = (sgemu_channel_type)im->chtype;
    img_kind want = inst_kind(in);
    if (chtype_kind(ct) != want &&
        !((in->flags & ISA_F_ANYSIGN) && want != IMG_F && chtype_kind(ct) != IMG_F))
        return emu_fault(run, SGEMU_EXIT_FAULT, sg, UINT32_MAX, pc,
                         "%s on image '%s' with channel type %s: the result is undefined "
                         "in OpenCL (use read_image%s / write_image%s)", oi->mnemonic,
                         image_name(run, arg), chtype_names[ct],
                         chtype_kind(ct) == IMG_UI ? "ui" : chtype_kind(ct) == IMG_I ? "i" : "f",
                         chtype_kind(ct) == IMG_UI ? "ui" : chtype_kind(ct) == IMG_I ? "i" : "f");
    uint32_t w = sg->l.width, vec = in->vec ? in->vec : 1;
    uint64_t sx[LANES_MAX], sy[LANES_MAX];
    const uint64_t *xs = lanes_src(&run->lenv, &sg->l, io + 1, 0, ISA_T_I32, sx);
    const uint64_t *ys = lanes_src(&run->lenv, &sg->l, io + 2, 0, ISA_T_I32, sy);
    int64_t x[LANES_MAX], y[LANES_MAX];
    for (uint32_t l = 0; l < w; l++) {
        if (!(mask >> l & 1))
            continue;
        x[l] = (int32_t)(uint32_t)xs[l];
        y[l] = (int32_t)(uint32_t)ys[l];
        bool out = x[l] < 0 || x[l] >= (int64_t)im->width || y[l] < 0 ||
                   y[l] >= (int64_t)im->height;
        if (out && !write && (in->flags & ISA_F_CLAMP)) {
            x[l] = x[l] < 0 ? 0 : x[l] >= (int64_t)im->width ? (int64_t)im->width - 1 : x[l];
            y[l] = y[l] < 0 ? 0 : y[l] >= (int64_t)im->height ? (int64_t)im->height - 1 : y[l];
            out = im->width == 0 || im->height == 0;
        }
        if (out) {
            char why[256];
            emu_image_outside_text(why, sizeof why, oi->mnemonic, x[l], y[l],
                                   image_name(run, arg), im);
            return emu_fault(run, SGEMU_EXIT_FAULT, sg, l, pc, "%s%s", why,
                             write ? "" : " (add .clamp for clamp-to-edge)");
        }
    }
    int rc = record_texels(run, sg, pc, mask, arg, x, y, NULL);
    if (rc)
        return rc;

    if (write) {
        uint64_t scratch[4][LANES_MAX];
        const uint64_t *v[4] = { NULL, NULL, NULL, NULL };
        for (uint32_t c = 0; c < vec && c < 4; c++)
            v[c] = lanes_src(&run->lenv, &sg->l, &in->o[3], c, (isa_type)in->type, scratch[c]);
        for (uint32_t l = 0; l < w; l++) {
            if (!(mask >> l & 1))
                continue;
            uint32_t t[4];
            for (uint32_t c = 0; c < 4; c++)
                t[c] = v[c] ? (uint32_t)v[c][l] : 0;
            emu_image_store(im, x[l], y[l], t);
        }
        return 0;
    }
    uint32_t t[4][LANES_MAX];
    for (uint32_t l = 0; l < w; l++)
        if (mask >> l & 1) {
            uint32_t v[4];
            emu_image_load(im, x[l], y[l], v);
            for (uint32_t c = 0; c < 4; c++)
                t[c][l] = v[c];
        }
    for (uint32_t c = 0; c < vec && c < 4; c++) {
        uint64_t *d = lanes_reg(&sg->l, in->o[0].reg + c);
        for (uint32_t l = 0; l < w; l++)
            if (mask >> l & 1)
                d[l] = t[c][l];
    }
    return 0;
}

/* ---- sampled reads (sample_image*): OpenCL C image addressing and
 * filtering, with the sampler_t bit-field as the last operand ---- */

enum {
    SMP_NORMALIZED = 0x1, SMP_ADDR_MASK = 0xe, SMP_ADDR_NONE = 0x0, SMP_ADDR_EDGE = 0x2,
    SMP_ADDR_CLAMP = 0x4, SMP_ADDR_REPEAT = 0x6, SMP_ADDR_MIRROR = 0x8,
    SMP_FILTER_MASK = 0x30, SMP_NEAREST = 0x10, SMP_LINEAR = 0x20
};

/* Texel (i, j) as four channels (missing channels 0, alpha 1; CL_BGRA's
 * stored b, g, r, a back in r, g, b, a order); outside the image
 * (CLK_ADDRESS_CLAMP) the border colour: (0,0,0,0) for CL_RGBA and CL_BGRA,
 * (0,0,0,1) for CL_R and CL_RG. */
static void texel3(const sgemu_image *im, int64_t i, int64_t j, int64_t k, bool fl,
                   uint32_t out[4])
{
    uint32_t one = fl ? f32_bits(1.0f) : 1;
    uint32_t nch = channel_count[im->order], cb = channel_bytes[im->chtype];
    uint32_t n[3];
    image_grid(im, n);
    bool in = i >= 0 && j >= 0 && k >= 0 && i < (int64_t)n[0] && j < (int64_t)n[1] &&
              k < (int64_t)n[2];
    for (uint32_t c = 0; c < 4; c++) {
        if (in && c < nch)
            out[c] = channel_load((sgemu_channel_type)im->chtype,
                                  im->data + (size_t)k * im->slice_pitch +
                                  (size_t)j * im->pitch +
                                  (size_t)i * im->elem_bytes +
                                  sgemu_image_channel_slot(im->order, c) * cb);
        else
            out[c] = c == 3 && nch < 4 ? one : 0;
    }
}

static void texel(const sgemu_image *im, int64_t i, int64_t j, bool fl, uint32_t out[4])
{
    texel3(im, i, j, 0, fl, out);
}

void emu_image_load(const sgemu_image *im, int64_t x, int64_t y, uint32_t out[4])
{
    texel(im, x, y, chtype_kind((sgemu_channel_type)im->chtype) == IMG_F, out);
}

bool emu_image_inside(const sgemu_image *im, int64_t x, int64_t y)
{
    return x >= 0 && y >= 0 && x < (int64_t)im->width && y < (int64_t)im->height;
}

void emu_image_store(const sgemu_image *im, int64_t x, int64_t y, const uint32_t v[4])
{
    uint32_t nch = channel_count[im->order], cb = channel_bytes[im->chtype];
    if (!emu_image_inside(im, x, y))
        return;
    uint8_t *p = im->data + (size_t)y * im->pitch + (size_t)x * im->elem_bytes;
    for (uint32_t c = 0; c < nch; c++)
        channel_store((sgemu_channel_type)im->chtype, v[c],
                      p + sgemu_image_channel_slot(im->order, c) * cb);
}

void emu_image_outside_text(char *buf, size_t cap, const char *op, int64_t x, int64_t y,
                            const char *name, const sgemu_image *im)
{
    snprintf(buf, cap, "%s: coordinate (%lld,%lld) is outside image '%s' (%ux%u)", op,
             (long long)x, (long long)y, name, im->width, im->height);
}

uint64_t emu_image_texel_addr(const sgemu_image *im, uint32_t arg, int64_t x, int64_t y)
{
    int64_t cx = x < 0 ? 0 : x >= (int64_t)im->width ? (int64_t)im->width - 1 : x;
    int64_t cy = y < 0 ? 0 : y >= (int64_t)im->height ? (int64_t)im->height - 1 : y;
    return tm_image_addr(arg, (uint64_t)(cx < 0 ? 0 : cx) * im->elem_bytes,
                         (uint64_t)(cy < 0 ? 0 : cy), im->pitch);
}

/* The timing model's address of texel (x, y, z) of a 3D image: slices are
 * slice_pitch apart within the image's address range. */
static uint64_t texel_addr3(const sgemu_image *im, uint32_t arg, int64_t x, int64_t y, int64_t z)
{
    int64_t d = im->depth ? im->depth : 1;
    int64_t cz = z < 0 ? 0 : z >= d ? d - 1 : z;
    return emu_image_texel_addr(im, arg, x, y) + (uint64_t)cz * im->slice_pitch;
}

/* The trace's addresses of an image access: each active lane's texel
 * (x[l], y[l], z[l]; z NULL for a 2D image), the first one a lane reads or
 * writes.  Returns the fault's code, or 0. */
static int record_texels(emu_run *run, emu_sg *sg, uint32_t pc, lanes_mask mask, uint32_t arg,
                         const int64_t *x, const int64_t *y, const int64_t *z)
{
    emu_rec *rec = current_rec(run, sg);
    if (!rec)
        return 0;
    const sgemu_image *im = &run->args[arg].image;
    uint32_t w = sg->l.width, na = emu_active_lanes(mask, w);
    uint64_t first = emu_trace_addrs(run->wg->trace, na);
    if (first == UINT64_MAX)
        return emu_fault(run, SGEMU_EXIT_INTERNAL, sg, UINT32_MAX, pc, "out of host memory");
    uint64_t *dst = run->wg->trace->addrs + first;
    for (uint32_t l = 0; l < w; l++)
        if (mask >> l & 1)
            *dst++ = texel_addr3(im, arg, x[l], y[l], z ? z[l] : 0);   // NOLINT(clang-analyzer-core.CallAndMessage): the caller set the active lanes
    rec->addr_first = first;
    rec->naddr = (uint16_t)na;
    rec->strided = emu_addrs_strided(run->wg->trace->addrs + first, na);
    return 0;
}

/* The active lanes' texels read into the destination registers. */
static void write_texels(emu_sg *sg, const isa_inst *in, uint32_t vec, lanes_mask mask,
                         const uint32_t res[4][LANES_MAX])
{
    for (uint32_t c = 0; c < vec && c < 4; c++) {
        uint64_t *d = lanes_reg(&sg->l, in->o[0].reg + c);
        for (uint32_t l = 0; l < sg->l.width; l++)
            if (mask >> l & 1)
                d[l] = res[c][l];   // NOLINT(clang-analyzer-core.uninitialized.Assign): the caller set the active lanes
    }
}

uint32_t emu_image_query_value(const sgemu_image *im, bool order)
{
    return order ? spv_order[im->order] : spv_chtype[im->chtype];
}

int emu_image_block_byte(const sgemu_image *im, int64_t x, int64_t y, bool write,
                         uint8_t *b)
{
    int64_t wb = (int64_t)im->width * im->elem_bytes;
    if (x >= 0 && y >= 0 && x < wb && y < (int64_t)im->height) {
        uint8_t *p = im->data + (size_t)y * im->pitch + (size_t)x;
        if (write)
            *p = *b;
        else
            *b = *p;
        return 0;
    }
    if (im->elem_bytes != 4 || im->width == 0 || im->height == 0)
        return -1;
    if (write)
        return 0;                       /* dropped */
    int64_t e = x >= 0 ? x / 4 : -((-x + 3) / 4), off = x - e * 4;
    e = e < 0 ? 0 : e > (int64_t)im->width - 1 ? (int64_t)im->width - 1 : e;
    y = y < 0 ? 0 : y > (int64_t)im->height - 1 ? (int64_t)im->height - 1 : y;
    *b = im->data[(size_t)y * im->pitch + (size_t)(e * 4 + off)];
    return 0;
}

/* Nearest: the texel index along one axis of size n (coordinate s).
 * Returns false when CLK_ADDRESS_NONE leaves the image (undefined in
 * OpenCL; sgemu faults). */
static bool nearest(uint32_t smp, float s, uint32_t n, int64_t *i)
{
    float u;
    switch (smp & SMP_ADDR_MASK) {
    case SMP_ADDR_REPEAT:
        u = (s - floorf(s)) * (float)n;
        *i = (int64_t)floorf(u);
        if (*i > (int64_t)n - 1)
            *i -= n;
        return true;
    case SMP_ADDR_MIRROR: {
        float sp = 2.0f * rintf(0.5f * s);
        u = fabsf(s - sp) * (float)n;
        *i = (int64_t)floorf(u);
        if (*i > (int64_t)n - 1)
            *i = (int64_t)n - 1;
        return true;
    }
    default:
        break;
    }
    u = smp & SMP_NORMALIZED ? s * (float)n : s;
    float f = floorf(u);
    if (!(f > -1e9f && f < 1e9f))      /* NaN and huge values: clamp first */
        f = f > 0 ? 1e9f : -1e9f;
    *i = (int64_t)f;
    switch (smp & SMP_ADDR_MASK) {
    case SMP_ADDR_EDGE:
        *i = *i < 0 ? 0 : *i > (int64_t)n - 1 ? (int64_t)n - 1 : *i;
        return true;
    case SMP_ADDR_CLAMP:
        *i = *i < -1 ? -1 : *i > (int64_t)n ? (int64_t)n : *i;
        return true;
    default:
        return *i >= 0 && *i < (int64_t)n;
    }
}

/* Linear: the two texel indices and the weight a of the second. */
static bool linear(uint32_t smp, float s, uint32_t n, int64_t i[2], float *a)
{
    float u;
    int64_t w = n;
    switch (smp & SMP_ADDR_MASK) {
    case SMP_ADDR_REPEAT:
        u = (s - floorf(s)) * (float)n;
        i[0] = (int64_t)floorf(u - 0.5f);
        i[1] = i[0] + 1;
        if (i[0] < 0)
            i[0] += w;
        if (i[1] > w - 1)
            i[1] -= w;
        break;
    case SMP_ADDR_MIRROR: {
        float sp = 2.0f * rintf(0.5f * s);
        u = fabsf(s - sp) * (float)n;
        i[0] = (int64_t)floorf(u - 0.5f);
        i[1] = i[0] + 1;
        i[0] = i[0] < 0 ? 0 : i[0];
        i[1] = i[1] > w - 1 ? w - 1 : i[1];
        break;
    }
    default: {
        u = smp & SMP_NORMALIZED ? s * (float)n : s;
        float f = floorf(u - 0.5f);
        if (!(f > -1e9f && f < 1e9f))
            f = f > 0 ? 1e9f : -1e9f;
        i[0] = (int64_t)f;
        i[1] = i[0] + 1;
        for (int k = 0; k < 2; k++) {
            if ((smp & SMP_ADDR_MASK) == SMP_ADDR_EDGE)
                i[k] = i[k] < 0 ? 0 : i[k] > w - 1 ? w - 1 : i[k];
            else if ((smp & SMP_ADDR_MASK) == SMP_ADDR_CLAMP)
                i[k] = i[k] < -1 ? -1 : i[k] > w ? w : i[k];
            else if (i[k] < 0 || i[k] >= w)
                return false;
        }
        break;
    }
    }
    float t = u - 0.5f;
    *a = t - floorf(t);
    return true;
}

/* One lane's sampled read (the OpenCL C addressing and filtering of
 * sampler bit-field smp at coordinate (s, t)): 0 with the four channels
 * and the first texel used, or -1 with the fault's text in why. */
/* Why sampler smp may not read an image (NULL: it may): fl, the image has
 * float channels; empty, it has no texel. */
static const char *sampler_misuse(uint32_t smp, bool fl, bool empty)
{
    uint32_t am = smp & SMP_ADDR_MASK, fm = smp & SMP_FILTER_MASK;
    if (am > SMP_ADDR_MIRROR || (fm != SMP_NEAREST && fm != SMP_LINEAR))
        return "is not a valid sampler";
    if ((am == SMP_ADDR_REPEAT || am == SMP_ADDR_MIRROR) && !(smp & SMP_NORMALIZED))
        return "uses repeat addressing with unnormalised coordinates (undefined in OpenCL)";
    if (fm == SMP_LINEAR && !fl)
        return "filters an integer image linearly (undefined in OpenCL)";
    return empty ? "reads an empty image" : NULL;
}

int emu_image_sample(const sgemu_image *im, uint32_t smp, float s, float t, const char *op,
                     const char *name, uint32_t out[4], int64_t first[2], char *why,
                     size_t cap)
{
    bool fl = chtype_kind((sgemu_channel_type)im->chtype) == IMG_F;
    uint32_t fm = smp & SMP_FILTER_MASK;
    const char *bad = sampler_misuse(smp, fl, im->width == 0 || im->height == 0);
    if (bad) {
        snprintf(why, cap, "%s: sampler 0x%x %s", op, smp, bad);
        return -1;
    }
    if (fm == SMP_NEAREST) {
        int64_t i, j;
        if (!nearest(smp, s, im->width, &i) || !nearest(smp, t, im->height, &j)) {
            snprintf(why, cap, "%s: coordinate (%g,%g) is outside image '%s' (%ux%u) with "
                     "CLK_ADDRESS_NONE (undefined in OpenCL)", op, (double)s, (double)t, name,
                     im->width, im->height);
            return -1;
        }
        texel(im, i, j, fl, out);
        first[0] = i;
        first[1] = j;
        return 0;
    }
    int64_t i[2], j[2];
    float a, b;
    if (!linear(smp, s, im->width, i, &a) || !linear(smp, t, im->height, j, &b)) {
        snprintf(why, cap, "%s: coordinate (%g,%g) needs texels outside image '%s' (%ux%u) "
                 "with CLK_ADDRESS_NONE (undefined in OpenCL)", op, (double)s, (double)t,
                 name, im->width, im->height);
        return -1;
    }
    uint32_t t00[4], t10[4], t01[4], t11[4];
    texel(im, i[0], j[0], true, t00);
    texel(im, i[1], j[0], true, t10);
    texel(im, i[0], j[1], true, t01);
    texel(im, i[1], j[1], true, t11);
    for (int c = 0; c < 4; c++)
        out[c] = f32_bits((1 - a) * (1 - b) * bits_f32(t00[c]) + a * (1 - b) * bits_f32(t10[c]) +
                          (1 - a) * b * bits_f32(t01[c]) + a * b * bits_f32(t11[c]));
    first[0] = i[0];
    first[1] = j[0];
    return 0;
}

static int sample_access(emu_run *run, emu_sg *sg, const isa_inst *in, lanes_mask mask,
                         uint32_t pc)
{
    const isa_op_info *oi = &isa_ops[in->op];
    uint32_t arg = in->o[1].reg;
    const sgemu_image *im = &run->args[arg].image;
    img_kind ik = chtype_kind((sgemu_channel_type)im->chtype), want = inst_kind(in);
    if ((want == IMG_F) != (ik == IMG_F))
        return emu_fault(run, SGEMU_EXIT_FAULT, sg, UINT32_MAX, pc,
                         "%s on image '%s' with channel type %s: the result is undefined "
                         "in OpenCL", oi->mnemonic, image_name(run, arg), chtype_names[im->chtype]);
    uint32_t w = sg->l.width, vec = in->vec ? in->vec : 1;
    uint64_t sx[LANES_MAX], sy[LANES_MAX], ss[LANES_MAX];
    const uint64_t *xs = lanes_src(&run->lenv, &sg->l, &in->o[2], 0, ISA_T_F32, sx);
    const uint64_t *ys = lanes_src(&run->lenv, &sg->l, &in->o[3], 0, ISA_T_F32, sy);
    const uint64_t *smps = lanes_src(&run->lenv, &sg->l, &in->o[4], 0, ISA_T_U32, ss);
    uint32_t res[4][LANES_MAX];
    int64_t first_x[LANES_MAX], first_y[LANES_MAX];
    for (uint32_t l = 0; l < w; l++) {
        if (!(mask >> l & 1))
            continue;
        uint32_t v[4];
        int64_t first[2];
        char why[320];
        if (emu_image_sample(im, (uint32_t)smps[l], bits_f32((uint32_t)xs[l]),
                             bits_f32((uint32_t)ys[l]), oi->mnemonic, image_name(run, arg), v,
                             first, why, sizeof why))
            return emu_fault(run, SGEMU_EXIT_FAULT, sg, l, pc, "%s", why);
        first_x[l] = first[0];
        first_y[l] = first[1];
        for (int c = 0; c < 4; c++)
            res[c][l] = v[c];
    }
    int rc = record_texels(run, sg, pc, mask, arg, first_x, first_y, NULL);
    if (rc)
        return rc;
    write_texels(sg, in, vec, mask, res);
    return 0;
}

/* ---- every image type but image2d_t (read_imagev*, sample_imagev*,
 * write_imagev*): the coordinate is an (x, y, z, w) register vector, the
 * image's own coordinates then, for an array, the layer; the texel sits in
 * the image's (x, y, z) grid (image_grid) ---- */

/* Coordinates besides the layer: 1, 2 or 3. */
static uint32_t image_dims(const sgemu_image *im)
{
    return im->dims ? im->dims : 2;
}

/* The grid's extents: a 1D array's layers are its rows, a 2D array's its
 * slices; an axis the type lacks has extent 1. */
static void image_grid(const sgemu_image *im, uint32_t n[3])
{
    uint32_t d = image_dims(im);
    n[0] = im->width;
    n[1] = d >= 2 || im->arrayed ? im->height : 1;
    n[2] = d == 3 || (d == 2 && im->arrayed) ? im->depth : 1;
}

/* The layer a sampled read of an array uses (OpenCL C, image arrays:
 * clamp(rint(coordinate), 0, layers - 1)); NaN takes layer 0. */
static int64_t sample_layer(float s, uint32_t layers)
{
    float r = rintf(s);
    if (!(r >= 0.0f))
        return 0;
    return r > (float)layers - 1.0f ? (int64_t)layers - 1 : (int64_t)r;
}

/* One lane's sampled read at (s[0], s[1], s[2]), the image's coordinates
 * then its layer: 0 with the four channels and the first texel used (in
 * the grid), or -1 with the fault's text. */
static int samplev(const sgemu_image *im, uint32_t smp, const float s[3], const char *op,
                   const char *name, uint32_t out[4], int64_t first[3], char *why,
                   size_t cap)
{
    bool fl = chtype_kind((sgemu_channel_type)im->chtype) == IMG_F;
    uint32_t fm = smp & SMP_FILTER_MASK, n[3], d = image_dims(im);
    image_grid(im, n);
    if (d + (im->arrayed ? 1u : 0u) > 3) {   /* no such image type */
        snprintf(why, cap, "%s: image '%s' has %u coordinates", op, name,
                 d + (im->arrayed ? 1u : 0u));
        return -1;
    }
    const char *bad = sampler_misuse(smp, fl, !n[0] || !n[1] || !n[2]);
    if (bad) {
        snprintf(why, cap, "%s: sampler 0x%x %s", op, smp, bad);
        return -1;
    }
    int64_t i[3][2] = { { 0, 0 }, { 0, 0 }, { 0, 0 } };
    float w[3] = { 0, 0, 0 };
    for (uint32_t a = 0; a < d; a++) {
        bool ok = fm == SMP_NEAREST ? nearest(smp, s[a], n[a], &i[a][0])
                                    : linear(smp, s[a], n[a], i[a], &w[a]);
        if (!ok) {
            snprintf(why, cap, "%s: coordinate (%g,%g,%g) %s image '%s' (%ux%ux%u) with "
                     "CLK_ADDRESS_NONE (undefined in OpenCL)", op, (double)s[0],
                     (double)s[1], (double)s[2],
                     fm == SMP_NEAREST ? "is outside" : "needs texels outside", name, n[0],
                     n[1], n[2]);
            return -1;
        }
    }
    if (im->arrayed)
        i[d][0] = i[d][1] = sample_layer(s[d], n[d]);
    for (int a = 0; a < 3; a++)
        first[a] = i[a][0];
    if (fm == SMP_NEAREST) {
        texel3(im, i[0][0], i[1][0], i[2][0], fl, out);
        return 0;
    }
    /* linear, per axis of the image's own: texel (i[0][p], i[1][q],
     * i[2][r]) weighs the product of a or 1 - a per axis, summed in the
     * order the OpenCL C spec lists (the first axis fastest) */
    float acc[4] = { 0, 0, 0, 0 };
    for (uint32_t corner = 0; corner < (1u << d); corner++) {
        int p = corner & 1, q = corner >> 1 & 1, r = corner >> 2 & 1;
        float wt = p ? w[0] : 1 - w[0];
        if (d >= 2)
            wt *= q ? w[1] : 1 - w[1];
        if (d == 3)
            wt *= r ? w[2] : 1 - w[2];
        uint32_t t[4];
        texel3(im, i[0][p], i[1][q], i[2][r], true, t);
        for (int c = 0; c < 4; c++)
            acc[c] = corner ? acc[c] + wt * bits_f32(t[c]) : wt * bits_f32(t[c]);
    }
    for (int c = 0; c < 4; c++)
        out[c] = f32_bits(acc[c]);
    return 0;
}

/* Texel (x, y, z) of the grid from four 32-bit channel values, converted
 * as write_image* converts; the caller checked the coordinate. */
static void store_texel(const sgemu_image *im, int64_t x, int64_t y, int64_t z,
                        const uint32_t v[4])
{
    uint32_t nch = channel_count[im->order], cb = channel_bytes[im->chtype];
    uint8_t *p = im->data + (size_t)z * im->slice_pitch + (size_t)y * im->pitch +
                 (size_t)x * im->elem_bytes;
    for (uint32_t c = 0; c < nch; c++)
        channel_store((sgemu_channel_type)im->chtype, v[c],
                      p + sgemu_image_channel_slot(im->order, c) * cb);
}

/* read_imagev* (integer coordinates, no sampler), sample_imagev* and
 * write_imagev*. */
static int accessv(emu_run *run, emu_sg *sg, const isa_inst *in, lanes_mask mask, uint32_t pc)
{
    const isa_op_info *oi = &isa_ops[in->op];
    const bool sampled = oi->shape == ISA_SHAPE_IMGV_SMP;
    const bool write = oi->family == ISA_FAM_IMG_WRITE;
    const isa_operand *io = write ? &in->o[0] : &in->o[1];
    uint32_t arg = io->reg;
    const sgemu_image *im = &run->args[arg].image;
    sgemu_channel_type ct = (sgemu_channel_type)im->chtype;
    img_kind ik = chtype_kind(ct), want = inst_kind(in);
    bool ok = sampled ? (want == IMG_F) == (ik == IMG_F)
                      : ik == want || ((in->flags & ISA_F_ANYSIGN) && want != IMG_F &&
                                       ik != IMG_F);
    if (!ok)
        return emu_fault(run, SGEMU_EXIT_FAULT, sg, UINT32_MAX, pc,
                         "%s on image '%s' with channel type %s: the result is undefined "
                         "in OpenCL", oi->mnemonic, image_name(run, arg), chtype_names[ct]);
    uint32_t w = sg->l.width, vec = in->vec ? in->vec : 1, n[3];
    uint32_t ncoord = image_dims(im) + (im->arrayed ? 1 : 0);
    image_grid(im, n);
    uint64_t sc[3][LANES_MAX], ss[LANES_MAX];
    const uint64_t *cs[3] = { NULL, NULL, NULL };
    for (uint32_t a = 0; a < ncoord; a++)
        cs[a] = lanes_src(&run->lenv, &sg->l, io + 1, a, sampled ? ISA_T_F32 : ISA_T_I32,
                          sc[a]);
    const uint64_t *smps = sampled ? lanes_src(&run->lenv, &sg->l, &in->o[3], 0, ISA_T_U32, ss)
                                   : NULL;
    uint32_t res[4][LANES_MAX];
    int64_t at[3][LANES_MAX];
    for (uint32_t l = 0; l < w; l++) {
        if (!(mask >> l & 1))
            continue;
        uint32_t v[4];
        if (sampled) {
            float s[3] = { 0, 0, 0 };
            int64_t first[3];
            char why[320];
            for (uint32_t a = 0; a < ncoord; a++)
                s[a] = bits_f32((uint32_t)cs[a][l]);
            if (samplev(im, (uint32_t)smps[l], s, oi->mnemonic, image_name(run, arg), v,
                        first, why, sizeof why))
                return emu_fault(run, SGEMU_EXIT_FAULT, sg, l, pc, "%s", why);
            for (int a = 0; a < 3; a++)
                at[a][l] = first[a];
        } else {
            int64_t c[3] = { 0, 0, 0 };
            for (uint32_t a = 0; a < ncoord; a++)
                c[a] = (int32_t)(uint32_t)cs[a][l];
            if (c[0] < 0 || c[1] < 0 || c[2] < 0 || c[0] >= (int64_t)n[0] ||
                c[1] >= (int64_t)n[1] || c[2] >= (int64_t)n[2])
                return emu_fault(run, SGEMU_EXIT_FAULT, sg, l, pc,
                                 "%s: coordinate (%lld,%lld,%lld) is outside %s '%s' "
                                 "(%ux%ux%u)", oi->mnemonic, (long long)c[0],
                                 (long long)c[1], (long long)c[2],
                                 isa_image_type_name(image_dims(im), im->arrayed, im->buffer),
                                 image_name(run, arg), n[0], n[1], n[2]);
            if (!write)
                texel3(im, c[0], c[1], c[2], ik == IMG_F, v);
            for (int a = 0; a < 3; a++)
                at[a][l] = c[a];
        }
        if (!write)
            for (int c = 0; c < 4; c++)
                res[c][l] = v[c];
    }
    int rc = record_texels(run, sg, pc, mask, arg, at[0], at[1], at[2]);
    if (rc)
        return rc;
    if (!write) {
        write_texels(sg, in, vec, mask, res);
        return 0;
    }
    uint64_t scratch[4][LANES_MAX];
    const uint64_t *val[4] = { NULL, NULL, NULL, NULL };
    for (uint32_t c = 0; c < vec && c < 4; c++)
        val[c] = lanes_src(&run->lenv, &sg->l, &in->o[2], c, (isa_type)in->type, scratch[c]);
    for (uint32_t l = 0; l < w; l++) {
        if (!(mask >> l & 1))
            continue;
        uint32_t t[4];
        for (uint32_t c = 0; c < 4; c++)
            t[c] = val[c] ? (uint32_t)val[c][l] : 0;
        store_texel(im, at[0][l], at[1][l], at[2][l], t);
    }
    return 0;
}

/* ---- image block I/O through collectives/ ---- */

static void emit_uop(void *user, const coll_uop *u)
{
    emu_run *run = user;
    run->stats->uops++;
    if (run->wg->trace && emu_trace_uop(run->wg->trace, u) != 0)
        emu_fault(run, SGEMU_EXIT_INTERNAL, NULL, UINT32_MAX, UINT32_MAX,
                  "out of host memory recording micro-ops");
}

/* The faults of media block I/O (collectives/media_block.h). */
static int media_fault(emu_run *run, emu_sg *sg, const isa_inst *in, uint32_t pc,
                       coll_status st, const coll_report *rep, const char *name,
                       const sgemu_image *im)
{
    const char *mn = isa_ops[in->op].mnemonic;
    int32_t x = coll_image_x(rep->value), y = coll_image_y(rep->value);
    uint32_t lane = rep->lane < sg->l.width ? rep->lane : UINT32_MAX;
    const uint32_t es = in->type < ISA_T_COUNT ? isa_types[in->type].bytes : 0;
    switch (st) {
    case COLL_NONUNIFORM_PTR:
        return emu_fault(run, SGEMU_EXIT_FAULT, sg, lane, pc,
                         "%s: image '%s' coordinate (%d,%d) of this work-item differs from "
                         "the rest of the sub-group (it must be uniform)", mn, name, x, y);
    case COLL_MEDIA_SHAPE:
        return emu_fault(run, SGEMU_EXIT_FAULT, sg, lane, pc,
                         "%s: image '%s': a block %d elements of %u bytes wide and %d rows "
                         "high is not allowed (cl_intel_media_block_io: the width in bytes "
                         "a multiple of 4 from 4 to 32, at most 64, 32, 16 or 8 rows for 4, "
                         "8, 12-16 or 20-32 bytes; the same in every work-item)",
                         mn, name, x, es, y);
    case COLL_MISALIGNED:
        return emu_fault(run, SGEMU_EXIT_FAULT, sg, lane, pc,
                         "%s: image '%s' coordinate (%d,%d): x must be a multiple of 4 bytes",
                         mn, name, x, y);
    case COLL_OUT_OF_BOUNDS:
        return emu_fault(run, SGEMU_EXIT_FAULT, sg, lane, pc,
                         "%s: image '%s' byte (%d,%d) is outside the image (%ux%u elements "
                         "of %u bytes), which is undefined for elements wider than the "
                         "builtin's %u bytes or than 4 bytes", mn, name, x, y,
                         im ? im->width : 0, im ? im->height : 0, im ? im->elem_bytes : 0,
                         es);
    case COLL_UNSUPPORTED:
        return emu_fault(run, SGEMU_EXIT_FAULT, sg, UINT32_MAX, pc,
                         "%s on image '%s': unsupported (vectors of 1, 2, 4, 8, or 16 "
                         "for 8/16-bit data)", mn, name);
    case COLL_PARTIAL_SG:
        return emu_fault(run, SGEMU_EXIT_FAULT, sg, UINT32_MAX, pc,
                         "%s: media block I/O in a partial sub-group (%u of %u work-items)",
                         mn, sg->l.size, sg->l.width);
    default:
        return emu_fault(run, st == COLL_NO_MEMORY ? SGEMU_EXIT_INTERNAL : SGEMU_EXIT_FAULT,
                         sg, lane, pc, "%s: %s", mn, coll_status_text[st]);
    }
}

static int block_fault(emu_run *run, emu_sg *sg, const isa_inst *in, uint32_t pc,
                       coll_status st, const coll_report *rep)
{
    const char *mn = isa_ops[in->op].mnemonic;
    bool write = isa_ops[in->op].family == ISA_FAM_IMG_WRITE;
    uint32_t arg = write ? in->o[0].reg : in->o[1].reg;
    const char *name = image_name(run, arg);
    int32_t x = coll_image_x(rep->value), y = coll_image_y(rep->value);
    uint32_t lane = rep->lane < sg->l.width ? rep->lane : UINT32_MAX;
    const sgemu_image *im = arg < run->k->narg ? &run->args[arg].image : NULL;
    if (isa_ops[in->op].shape == ISA_SHAPE_MB_LD || isa_ops[in->op].shape == ISA_SHAPE_MB_ST)
        return media_fault(run, sg, in, pc, st, rep, name, im);
    switch (st) {
    case COLL_NONUNIFORM_PTR:
        return emu_fault(run, SGEMU_EXIT_FAULT, sg, lane, pc,
                         "%s: image '%s' byte coordinate (%d,%d) of this work-item differs "
                         "from the rest of the sub-group (it must be uniform)",
                         mn, name, x, y);
    case COLL_MISALIGNED:
        return emu_fault(run, SGEMU_EXIT_FAULT, sg, lane, pc,
                         "%s: image '%s' byte coordinate (%d,%d): a block write must start "
                         "at an x that is a multiple of 4 bytes", mn, name, x, y);
    case COLL_OUT_OF_BOUNDS:
        return emu_fault(run, SGEMU_EXIT_FAULT, sg, lane, pc,
                         "%s: out-of-bounds block access to image '%s' at byte coordinate "
                         "(%d,%d); the image is %ux%u elements of %u bytes (rows of %llu "
                         "bytes) and elements under 4 bytes are not clamped", mn, name, x, y,
                         im ? im->width : 0, im ? im->height : 0, im ? im->elem_bytes : 0,
                         im ? (unsigned long long)im->width * im->elem_bytes : 0ULL);
    case COLL_UNSUPPORTED:
        return emu_fault(run, SGEMU_EXIT_FAULT, sg, UINT32_MAX, pc,
                         "%s on image '%s': unsupported (elements of %u bytes; block I/O "
                         "needs elements of at most 4 bytes and vectors of 1, 2, 4, 8 or "
                         "16 for 8/16-bit data)", mn, name, im ? im->elem_bytes : 0);
    case COLL_PARTIAL_SG:
        return emu_fault(run, SGEMU_EXIT_FAULT, sg, UINT32_MAX, pc,
                         "%s: block I/O in a partial sub-group (%u of %u work-items)",
                         mn, sg->l.size, sg->l.width);
    default:
        return emu_fault(run, st == COLL_NO_MEMORY ? SGEMU_EXIT_INTERNAL : SGEMU_EXIT_FAULT,
                         sg, lane, pc, "%s: %s", mn, coll_status_text[st]);
    }
}

static int block_access(emu_run *run, emu_sg *sg, const isa_inst *in, lanes_mask mask,
                        uint32_t pc)
{
    lanes_sg *one = &sg->l;
    coll_group g = { .nsg = 1, .sg = &one, .active = &mask,
                     .wg_items = run->wg->items, .first_sg = sg->id };
    for (int d = 0; d < 3; d++)
        g.local_size[d] = (uint32_t)run->wg->local_size[d];
    coll_sink sink = { run, emit_uop, NULL };
    coll_env env = {
        .lanes = &run->lenv, .opt = &run->copt, .mem = &run->cmem, .sink = &sink,
        .scratch_slm = run->coll_scratch, .scratch_slm_bytes = run->coll_scratch_bytes,
    };
    emu_rec *rec = current_rec(run, sg);
    coll_report rep;
    memset(&rep, 0, sizeof rep);
    coll_status st = coll_execute(&env, in, &g, &rep);
    if (rec)
        rec->nuops = run->wg->trace->nuops - rec->uop_first;
    if (run->fault->code)
        return run->fault->code;
    if (st == COLL_DIVERGENT)
        return emu_fault(run, SGEMU_EXIT_FAULT, sg, rep.lane, pc,
                         "%s reached by only some work-items of the sub-group (the "
                         "work-item below did not reach it)", isa_ops[in->op].mnemonic);
    return st == COLL_OK ? 0 : block_fault(run, sg, in, pc, st, &rep);
}

int emu_image_exec(emu_run *run, emu_sg *sg, const isa_inst *in, lanes_mask mask,
                   uint32_t pc)
{
    const isa_op_info *oi = &isa_ops[in->op];
    const isa_operand *io = oi->family == ISA_FAM_IMG_WRITE ? &in->o[0] : &in->o[1];
    if (io->kind != ISA_OPND_ARG || io->reg >= run->k->narg ||
        run->args[io->reg].kind != SGEMU_VAL_IMAGE)
        return emu_fault(run, SGEMU_EXIT_INTERNAL, sg, UINT32_MAX, pc,
                         "%s: operand is not a bound image", oi->mnemonic);
    if (isa_op_block_io(in->op))
        return block_access(run, sg, in, mask, pc);
    if (oi->family == ISA_FAM_IMG_QUERY) {
        const sgemu_image *im = &run->args[io->reg].image;
        uint64_t v = image_query(im, (isa_opcode)in->op);
        uint64_t *d = lanes_reg(&sg->l, in->o[0].reg);
        for (uint32_t l = 0; l < sg->l.width; l++)
            if (mask >> l & 1)
                d[l] = v;
        return 0;
    }
    if (oi->shape == ISA_SHAPE_IMG_SMP)
        return sample_access(run, sg, in, mask, pc);
    if (oi->shape == ISA_SHAPE_IMGV_LD || oi->shape == ISA_SHAPE_IMGV_SMP ||
        oi->shape == ISA_SHAPE_IMGV_ST)
        return accessv(run, sg, in, mask, pc);
    return element_access(run, sg, in, mask, pc);
}
