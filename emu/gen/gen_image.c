/* gen_image.c - image messages of the Gen path: the sampler's load and
 * sample messages, HDC typed surface reads and writes, and media block
 * reads and writes (image block I/O).  The descriptor fields read are those
 * IGA's decoders read (visa/iga/IGALibrary/Backend/Messages/
 * MessageDecoderOther.cpp for the sampler, MessageDecoderHDC.cpp for the
 * data port) and docs/gen.md lists.  Texels are read, converted, written
 * and sampled by emu/image.c, the model sgemu's own image instructions use,
 * with its bounds checks and fault texts; the timing records take each
 * lane's texel, or a media block's 2D micro-op, as sgemu's own image
 * instructions record theirs. */
#include "gen_engine.h"
#include "gen_image.h"

#include <string.h>

static uint32_t desc_bits(uint32_t desc, int off, int len)
{
    return desc >> off & ((1u << len) - 1);
}

/* GRF byte offset of payload register k of a send: the mlen registers at
 * src0, then the emlen registers at src1 (a split send); UINT32_MAX past
 * them or outside the GRF file. */
static uint32_t payload_grf(const gen_thread *t, const gen_inst *in, uint32_t gb, uint32_t k)
{
    uint32_t r;
    if (k < in->mlen)
        r = in->src[0].reg + k;
    else if (k < in->mlen + in->emlen && in->nsrc > 1 && in->src[1].file == GEN_FILE_GRF)
        r = in->src[1].reg + (k - in->mlen);
    else
        return UINT32_MAX;
    return (uint64_t)(r + 1) * gb <= t->grf_size ? r * gb : UINT32_MAX;
}

static uint32_t get32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

/* The image argument that binding-table index bti names, or NULL after a
 * fault. */
static const sgemu_image *bti_image(emu_run *run, gen_thread *t, uint32_t bti, uint32_t *arg)
{
    int16_t a = bti < GEN_MAX_BTI ? run->k->gen->bti_arg[bti] : -1;
    if (a < 0 || (uint32_t)a >= run->k->narg || run->args[a].kind != SGEMU_VAL_IMAGE) {
        gen_fault(run, t, UINT32_MAX, SGEMU_EXIT_USER,
                  "binding table index %u names no image argument", bti);
        return NULL;
    }
    *arg = (uint32_t)a;
    return &run->args[a].image;
}

static const char *arg_name(const emu_run *run, uint32_t arg)
{
    return run->k->args[arg].name;
}

/* The lanes of a message of `simd` lanes: the instruction's executed
 * channels (lane i is channel choff + i). */
static uint64_t lanes_of(const gen_thread *t, const gen_inst *in, uint32_t simd)
{
    uint64_t m = gen_channels(t, in, true);
    return simd < 64 ? m & ((1ull << simd) - 1) : m;
}

/* Lane i's dword of parameter `param` (each parameter simd dwords, whole
 * GRFs) after `first` payload registers. */
static int param(emu_run *run, gen_thread *t, const gen_inst *in, uint32_t first,
                 uint32_t simd, uint32_t param, uint32_t i, uint32_t *v)
{
    uint32_t gb = run->k->gen->grf_bytes, per = (simd * 4 + gb - 1) / gb;
    uint32_t byte = i * 4, g = payload_grf(t, in, gb, first + param * per + byte / gb);
    if (g == UINT32_MAX)
        return gen_fault(run, t, i, SGEMU_EXIT_FAULT, "message payload outside the GRF");
    *v = get32(t->grf + g + byte % gb);
    return 0;
}

/* A sampler message's parameter: one past the message's length is 0 (the
 * sampler takes omitted trailing parameters as 0: IGC leaves out v = 0 of
 * read_image*(img, (int2)(x, 0)), an ld_lz of one parameter) */
static int smpl_param(emu_run *run, gen_thread *t, const gen_inst *in, uint32_t first,
                      uint32_t simd, uint32_t prm, uint32_t i, uint32_t *v)
{
    uint32_t gb = run->k->gen->grf_bytes, per = (simd * 4 + gb - 1) / gb;
    uint32_t len = in->mlen + (in->nsrc > 1 && in->src[1].file == GEN_FILE_GRF ? in->emlen : 0);
    if (first + prm * per >= len) {
        *v = 0;
        return 0;
    }
    return param(run, t, in, first, simd, prm, i, v);
}

/* The response: channel c (of the enabled ones, packed) of lane i.  The
 * message writes back only its response length: IGC shortens it where the
 * kernel uses the leading channels only (read_imagef(...).xyz: 3 GRF
 * blocks), and the trailing channels are dropped. */
static int respond(emu_run *run, gen_thread *t, const gen_inst *in, uint32_t simd,
                   uint32_t k, uint32_t i, uint32_t v)
{
    uint32_t gb = run->k->gen->grf_bytes, per = (simd * 4 + gb - 1) / gb;
    uint64_t off = (uint64_t)in->dst.reg * gb + (uint64_t)k * per * gb + i * 4;
    if (in->dst.file != GEN_FILE_GRF || k * per >= in->rlen)
        return 0;
    if (off + 4 > t->grf_size)
        return gen_fault(run, t, i, SGEMU_EXIT_FAULT, "message response outside the GRF");
    memcpy(t->grf + off, &v, 4);
    return 0;
}

/* Lane i's channels R, G, B, A less those `dis` disables, packed. */
static int respond4(emu_run *run, gen_thread *t, const gen_inst *in, uint32_t simd,
                    uint32_t dis, uint32_t i, const uint32_t v[4])
{
    for (uint32_t c = 0, k = 0; c < 4; c++)
        if (!(dis >> c & 1) && respond(run, t, in, simd, k++, i, v[c]))
            return run->fault->code;
    return 0;
}

static void rec_texel(emu_run *run, gen_thread *t, uint32_t lane, const sgemu_image *im,
                      uint32_t arg, int64_t x, int64_t y)
{
    gen_rec_addr(run, t, lane, ISA_SPACE_IMAGE, false, emu_image_texel_addr(im, arg, x, y));
}

/* The sampler (SFID SMPL): [7:0] binding-table index, [11:8] sampler index,
 * [16:12] message type, [18:17] and [29] the SIMD mode (per platform, as
 * IGA's decodeSimdSize), [19] header present, [30] 16-bit return. */
int gen_sampler(emu_run *run, gen_thread *t, const gen_inst *in)
{
    const gen_program *p = run->k->gen;
    uint32_t d = in->desc, mt = desc_bits(d, 12, 5), sidx = desc_bits(d, 8, 4);
    uint32_t sm = desc_bits(d, 17, 2) | desc_bits(d, 29, 1) << 2, simd = 0;
    if (p->platform >= GEN_IGA_XE_HPC)
        simd = sm == 0 || sm == 1 ? 16 : sm == 2 || sm == 4 ? 32 : 0;
    else if (p->platform >= GEN_IGA_XE_HPG)
        simd = sm == 0 || sm == 1 ? 8 : sm == 2 || sm == 4 ? 16 : 0;
    else
        simd = sm == 1 ? 8 : sm == 2 ? 16 : 0;
    if (!simd || desc_bits(d, 30, 1))
        return gen_fault(run, t, UINT32_MAX, SGEMU_EXIT_USER,
                         "sampler SIMD mode %u%s is not supported by sgemu", sm,
                         desc_bits(d, 30, 1) ? " with 16-bit return" : "");
    /* sample (0x0), sample_lz (0x18): float u, v first; sample_l (0x2):
     * the same, its lod after them, or before them from Xe-HPG on (IGC's
     * payload: lod, u, v); ld_lz (0x1A): integer u, v.  An image has one
     * mip level, so every LOD samples level 0. */
    bool ld = mt == 0x1A;
    uint32_t uparam = mt == 0x2 && p->platform >= GEN_IGA_XE_HPG ? 1 : 0;
    if (mt != 0x0 && mt != 0x2 && mt != 0x18 && !ld)
        return gen_fault(run, t, UINT32_MAX, SGEMU_EXIT_USER,
                         "sampler message type 0x%x is not supported by sgemu (sample, "
                         "sample_l, sample_lz and ld_lz are)", mt);
    uint32_t arg;
    const sgemu_image *im = bti_image(run, t, desc_bits(d, 0, 8), &arg);
    if (!im)
        return run->fault->code;
    uint32_t smp = 0;
    const bool named = sidx < GEN_MAX_SAMPLERS &&
                       (p->sampler_arg[sidx] >= 0 || p->sampler_bits[sidx] != GEN_NO_SAMPLER);
    if (!ld && !named)
        return gen_fault(run, t, UINT32_MAX, SGEMU_EXIT_USER,
                         "sampler index %u names no sampler", sidx);
    if (named)
        smp = p->sampler_arg[sidx] >= 0 ? (uint32_t)run->args[p->sampler_arg[sidx]].scalar
                                        : p->sampler_bits[sidx];
    /* ld_lz outside the image: IGC compiles integer-coordinate reads
     * through a CLK_ADDRESS_CLAMP sampler to it and relies on the
     * hardware's 0 there; with such a sampler at its index the read is the
     * border colour, as OpenCL defines it (else a fault: undefined) */
    const bool ld_border = ld && named && (smp & 0xEu) == 0x4u;
    /* the header's dword 2 [15:12] disables channels R, G, B, A */
    uint32_t hdr = desc_bits(d, 19, 1), chdis = 0;
    if (hdr) {
        uint32_t g = payload_grf(t, in, p->grf_bytes, 0);
        if (g == UINT32_MAX)
            return gen_fault(run, t, UINT32_MAX, SGEMU_EXIT_FAULT, "message header outside the GRF");
        chdis = get32(t->grf + g + 8) >> 12 & 15;
    }
    uint64_t m = lanes_of(t, in, simd);
    for (uint32_t i = 0; i < simd; i++) {
        if (!(m >> i & 1))
            continue;
        uint32_t u = 0, v = 0, out[4];
        if (smpl_param(run, t, in, hdr, simd, uparam, i, &u) ||
            smpl_param(run, t, in, hdr, simd, uparam + 1, i, &v))
            return run->fault->code;
        char why[320];
        if (ld) {
            int64_t x = (int32_t)u, y = (int32_t)v;
            if (!emu_image_inside(im, x, y) && !ld_border) {
                emu_image_outside_text(why, sizeof why, "sampler load", x, y,
                                       arg_name(run, arg), im);
                return gen_fault(run, t, i, SGEMU_EXIT_FAULT, "%s", why);
            }
            emu_image_load(im, x, y, out);
            rec_texel(run, t, i, im, arg, x, y);
        } else {
            float s, tt;
            int64_t first[2];
            memcpy(&s, &u, 4);
            memcpy(&tt, &v, 4);
            if (emu_image_sample(im, smp, s, tt, "sample", arg_name(run, arg), out, first,
                                 why, sizeof why))
                return gen_fault(run, t, i, SGEMU_EXIT_FAULT, "%s", why);
            rec_texel(run, t, i, im, arg, first[0], first[1]);
        }
        if (respond4(run, t, in, simd, chdis, i, out))
            return run->fault->code;
    }
    return 0;
}

/* Typed surface read / write (DC1): [7:0] binding-table index, [11:8]
 * disabled channels of R, G, B, A, [13:12] slot group (the lanes are the
 * instruction's channels), [19] header present.  The payload: u, v (r,
 * lod: unused for 2D images), then for a write the enabled channels. */
int gen_typed(emu_run *run, gen_thread *t, const gen_inst *in, bool store)
{
    const gen_program *p = run->k->gen;
    uint32_t d = in->desc, dis = desc_bits(d, 8, 4), hdr = desc_bits(d, 19, 1);
    uint32_t simd = in->esize, nch = 4 - (uint32_t)__builtin_popcount(dis);
    uint32_t per = (simd * 4 + p->grf_bytes - 1) / p->grf_bytes;
    uint32_t arg;
    const sgemu_image *im = bti_image(run, t, desc_bits(d, 0, 8), &arg);
    if (!im)
        return run->fault->code;
    /* a write's data: the last nch parameters of the payload; the address
     * parameters before it: IGC leaves out v when it is 0 (a row-0 write:
     * the payload is u alone) */
    uint32_t nparam = (in->mlen + in->emlen - hdr) / per;
    uint32_t data_param = store && nparam >= nch ? nparam - nch : 0;
    uint32_t naddr = store ? data_param : nparam;
    uint64_t m = lanes_of(t, in, simd);
    for (uint32_t i = 0; i < simd; i++) {
        if (!(m >> i & 1))
            continue;
        uint32_t u = 0, v = 0;
        if (param(run, t, in, hdr, simd, 0, i, &u) ||
            (naddr > 1 && param(run, t, in, hdr, simd, 1, i, &v)))
            return run->fault->code;
        int64_t x = (int32_t)u, y = (int32_t)v;
        if (!emu_image_inside(im, x, y)) {
            char why[320];
            emu_image_outside_text(why, sizeof why, store ? "typed surface write"
                                                          : "typed surface read", x, y,
                                   arg_name(run, arg), im);
            return gen_fault(run, t, i, SGEMU_EXIT_FAULT, "%s", why);
        }
        rec_texel(run, t, i, im, arg, x, y);
        uint32_t val[4] = { 0, 0, 0, 0 };
        if (store) {
            for (uint32_t c = 0, k = 0; c < 4; c++)
                if (!(dis >> c & 1) && param(run, t, in, hdr, simd, data_param + k++, i, &val[c]))
                    return run->fault->code;
            emu_image_store(im, x, y, val);
            continue;
        }
        emu_image_load(im, x, y, val);
        if (respond4(run, t, in, simd, dis, i, val))
            return run->fault->code;
    }
    return 0;
}

/* Media block read / write (DC1): [7:0] binding-table index; the header's
 * dword 0 is x in bytes, dword 1 y in rows, dword 2 the block's width in
 * bytes less 1 ([9:0]) and height less 1 ([21:16]).  Rows sit in the data
 * registers at a pitch of the width rounded up to a power of two (at least
 * 4 bytes).  Bytes outside the image: reads of 4-byte elements clamp to the
 * nearest edge element, writes outside are dropped, as the image block I/O
 * of sgemu's own ISA does (emu/collectives block_io.c); other element sizes
 * fault. */
int gen_media_block(emu_run *run, gen_thread *t, const gen_inst *in, bool store)
{
    const gen_program *p = run->k->gen;
    uint32_t gb = p->grf_bytes, arg;
    const sgemu_image *im = bti_image(run, t, desc_bits(in->desc, 0, 8), &arg);
    if (!im)
        return run->fault->code;
    uint32_t h0 = payload_grf(t, in, gb, 0);
    if (h0 == UINT32_MAX)
        return gen_fault(run, t, UINT32_MAX, SGEMU_EXIT_FAULT, "message header outside the GRF");
    int32_t x0 = (int32_t)get32(t->grf + h0), y0 = (int32_t)get32(t->grf + h0 + 4);
    uint32_t wh = get32(t->grf + h0 + 8);
    uint32_t w = (wh & 0x3ff) + 1, h = (wh >> 16 & 0x3f) + 1, pitch = 4;
    while (pitch < w)
        pitch *= 2;
    uint32_t nreg = store ? in->emlen : in->rlen;
    if ((uint64_t)pitch * h > (uint64_t)nreg * gb)
        return gen_fault(run, t, UINT32_MAX, SGEMU_EXIT_FAULT,
                         "media block of %ux%u bytes does not fit the message's %u registers",
                         w, h, nreg);
    for (uint32_t r = 0; r < h; r++) {
        int64_t y = (int64_t)y0 + r;
        for (uint32_t b = 0; b < w; b++) {
            int64_t x = (int64_t)x0 + b;
            uint32_t off = r * pitch + b, g = store ? payload_grf(t, in, gb, 1 + off / gb)
                                                    : in->dst.reg * gb + off;
            if (g == UINT32_MAX || (uint64_t)(store ? g + off % gb : g) >= t->grf_size)
                return gen_fault(run, t, UINT32_MAX, SGEMU_EXIT_FAULT,
                                 "message data outside the GRF");
            uint8_t *reg = t->grf + (store ? g + off % gb : g);
            if (emu_image_block_byte(im, x, y, store, reg))
                return gen_fault(run, t, UINT32_MAX, SGEMU_EXIT_FAULT,
                                 "media block %s: out-of-bounds block access to image '%s' "
                                 "at byte coordinate (%lld,%lld); the image is %ux%u elements "
                                 "of %u bytes (rows of %llu bytes) and elements under 4 bytes "
                                 "are not clamped", store ? "write" : "read",
                                 arg_name(run, arg), (long long)x, (long long)y, im->width,
                                 im->height, im->elem_bytes,
                                 (unsigned long long)im->width * im->elem_bytes);
        }
    }
    /* timing: one 2D message of h rows of w bytes, as the image block I/O
     * of sgemu's own ISA records its messages (collectives block_io.c) */
    coll_uop u;
    memset(&u, 0, sizeof u);
    u.kind = store ? COLL_UOP_MEDIA_STORE : COLL_UOP_MEDIA_LOAD;
    u.type = ISA_T_U32;
    u.space = ISA_SPACE_IMAGE;
    u.lanes = (uint16_t)(in->esize ? in->esize : 1);
    u.sg = (uint16_t)t->sg->id;
    u.bytes = w * h;
    u.rows = h;
    u.addr = (uint64_t)(uint32_t)x0 | (uint64_t)(uint32_t)y0 << 32;
    u.pitch = im->pitch;
    u.image = arg;
    u.mask = gen_channels(t, in, true) << in->choff;
    gen_rec_uop(t, &u);
    return 0;
}
