/* block_io.c - sub-group block reads and writes.
 *
 * Buffers (cl_intel_subgroups 6.13.X): value k of sub-group local id i is
 * p[i + k * S], so the whole operation is one contiguous run of
 * S * vec * elem bytes, moved in BLOCK_LOAD / BLOCK_STORE messages of at
 * most opt->block_msg_bytes.  Images: value k of lane i is the element-size
 * chunk at byte x + i * elem of row y + k, moved in MEDIA_LOAD / MEDIA_STORE
 * messages of (rows x media_block_width bytes).  The data the kernel sees is
 * what the messages carried through env->mem. */
#include "block_io.h"
#include "coll_private.h"
#include "media_block.h"

#include <string.h>

#define BLK_MAX_BYTES (LANES_MAX * 16 * 8)

typedef struct blk {
    const coll_env *env;
    const isa_inst *in;
    lanes_sg *sg;
    lanes_mask act;
    uint32_t sgi, S, es, vec, first;   /* first: lowest active lane */
    bool write;
    uint8_t buf[BLK_MAX_BYTES];        /* the block in memory order */
} blk;

static void emit(const blk *b, coll_uop_kind k, isa_space sp, uint64_t addr,
                 uint32_t bytes, uint32_t rows, uint32_t pitch, uint32_t image)
{
    const coll_sink *s = b->env->sink;
    if (!s || !s->emit)
        return;
    coll_uop u;
    memset(&u, 0, sizeof u);
    u.kind = (uint8_t)k;
    u.type = b->in->type;
    u.space = (uint8_t)sp;
    u.lanes = (uint16_t)b->S;
    u.sg = (uint16_t)b->sgi;
    u.bytes = bytes;
    u.rows = rows;
    u.addr = addr;
    u.pitch = pitch;
    u.image = image;
    u.mask = b->act;
    s->emit(s->user, &u);
}

/* Per-lane address of an ADDR operand, as the engine computes ld/st. */
static void lane_addrs(const blk *b, const isa_addr *a, uint64_t *out)
{
    const uint64_t *base = a->base_kind == ISA_OPND_REG ? lanes_reg(b->sg, a->base) : NULL;
    const uint64_t *idx = a->has_index ? lanes_reg(b->sg, a->index) : NULL;
    uint64_t argbase = a->base_kind == ISA_OPND_ARG && b->env->lanes->arg_values
        ? b->env->lanes->arg_values[a->base] : 0;
    const int64_t scale = a->scale;
    const uint64_t disp = (uint64_t)a->disp;
    const uint32_t S = b->S;
    /* base (per lane or one value) + index converted by its type x scale
     * + displacement, a loop per case (the sum wraps as one expression) */
#define ADDR_ROW(OFF)                                                  \
    do {                                                               \
        if (base)                                                      \
            for (uint32_t l = 0; l < S; l++)                           \
                out[l] = base[l] + (OFF) + disp;                       \
        else                                                           \
            for (uint32_t l = 0; l < S; l++)                           \
                out[l] = argbase + (OFF) + disp;                       \
    } while (0)
    if (!idx)
        ADDR_ROW(0);
    else if (a->index_type == ISA_T_U32)
        ADDR_ROW((uint64_t)((int64_t)(uint32_t)idx[l] * scale));
    else if (a->index_type == ISA_T_I64 || a->index_type == ISA_T_U64)
        ADDR_ROW((uint64_t)((int64_t)idx[l] * scale));
    else
        ADDR_ROW((uint64_t)((int64_t)(int32_t)(uint32_t)idx[l] * scale));
#undef ADDR_ROW
}

/* One element of es bytes (1, 2, 4 or 8) from its register value
 * (little-endian: the value's low bytes).  Fixed-size copies: a call of
 * memcpy per lane and element cost more than the copy itself. */
static inline void elem_put(uint8_t *dst, uint64_t v, uint32_t es)
{
    switch (es) {
    case 1: *dst = (uint8_t)v; break;
    case 2: { uint16_t x = (uint16_t)v; memcpy(dst, &x, 2); break; }
    case 4: { uint32_t x = (uint32_t)v; memcpy(dst, &x, 4); break; }
    default: memcpy(dst, &v, 8); break;
    }
}

/* Block bytes <-> registers: value k of lane i is element i + k * S. */
static void gather(blk *b, const isa_operand *src)
{
    uint64_t scratch[LANES_MAX];
    for (uint32_t k = 0; k < b->vec; k++) {
        const uint64_t *v = lanes_src(b->env->lanes, b->sg, src, k,
                                      (isa_type)b->in->type, scratch);
        uint8_t *row = b->buf + (size_t)k * b->S * b->es;
        for (uint32_t i = 0; i < b->S; i++)
            elem_put(row + (size_t)i * b->es, v[i], b->es);
    }
}

/* Straight into the register rows: the element size's switch outside
 * the lane loop, and no mask test when every lane is active (always, but
 * for a sub-group that coll_block_io has already refused). */
static void scatter(blk *b, uint32_t reg)
{
    const bool all = b->act == lanes_mask_first(b->S);
    for (uint32_t k = 0; k < b->vec; k++) {
        const uint8_t *row = b->buf + (size_t)k * b->S * b->es;
        uint64_t *r = lanes_reg(b->sg, reg + k);
#define ROW_GET(T)                                                          \
        do {                                                                \
            for (uint32_t i = 0; i < b->S; i++) {                           \
                T x;                                                        \
                memcpy(&x, row + i * sizeof x, sizeof x);                   \
                if (all || (b->act >> i & 1))                               \
                    r[i] = x;                                               \
            }                                                               \
        } while (0)
        switch (b->es) {
        case 1: ROW_GET(uint8_t); break;
        case 2: ROW_GET(uint16_t); break;
        case 4: ROW_GET(uint32_t); break;
        default: ROW_GET(uint64_t); break;
        }
#undef ROW_GET
    }
}

static coll_status buffer_io(blk *b, coll_report *rep)
{
    const isa_inst *in = b->in;
    const coll_env *env = b->env;
    isa_space sp = (isa_space)in->space;
    const isa_operand *ao = b->write ? &in->o[0] : &in->o[1];
    uint64_t addr[LANES_MAX];
    addr[b->first] = 0;     /* (lane_addrs fills lanes 0..S-1, first among them) */
    lane_addrs(b, &ao->addr, addr);
    uint64_t p = addr[b->first], differ = 0;
    if (b->act == lanes_mask_first(b->S))      /* every lane: one pass, no bit tests */
        for (uint32_t l = 0; l < b->S; l++)
            differ |= addr[l] ^ p;
    if (differ || b->act != lanes_mask_first(b->S))
        for (uint32_t l = 0; l < b->S; l++)
            if ((b->act >> l & 1) && addr[l] != p)
                return coll_fail(rep, COLL_NONUNIFORM_PTR, b->sgi, l, (int64_t)addr[l]);
    /* reads 4 bytes, writes 16; local block I/O 16 both ways */
    uint64_t align = (b->write || sp == ISA_SPACE_LOCAL) ? 16 : 4;
    if (p % align)
        return coll_fail(rep, COLL_MISALIGNED, b->sgi, b->first, (int64_t)p);
    if (b->write)
        gather(b, &in->o[1]);
    uint32_t total = b->S * b->vec * b->es;
    uint32_t msg = env->opt && env->opt->block_msg_bytes ? env->opt->block_msg_bytes : 128;
    for (uint32_t off = 0; off < total; off += msg) {
        uint32_t n = total - off < msg ? total - off : msg;
        emit(b, b->write ? COLL_UOP_BLOCK_STORE : COLL_UOP_BLOCK_LOAD, sp, p + off,
             n, 1, 0, 0);
        int rc = b->write ? env->mem->write(env->mem->user, sp, p + off, b->buf + off, n)
                          : env->mem->read(env->mem->user, sp, p + off, b->buf + off, n);
        if (rc)
            return coll_fail(rep, COLL_OUT_OF_BOUNDS, b->sgi, b->first, (int64_t)(p + off));
    }
    if (!b->write)
        scatter(b, in->o[0].reg);
    return COLL_OK;
}

/* ---- images ---- */

typedef struct img {
    uint32_t arg, w, h, eb, pitch;
    int64_t wb;                  /* bytes per row inside the image */
} img;

static int64_t clamp64(int64_t v, int64_t lo, int64_t hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* One byte of the image with clamp-to-edge on 4-byte elements. */
static int read_clamped(const blk *b, const img *im, int64_t x, int64_t y, uint8_t *out)
{
    int64_t e = x >= 0 ? x / 4 : -((-x + 3) / 4);
    int64_t off = x - e * 4;
    e = clamp64(e, 0, (int64_t)im->w - 1);
    y = clamp64(y, 0, (int64_t)im->h - 1);
    const coll_memory *m = b->env->mem;
    return m->read(m->user, ISA_SPACE_IMAGE,
                   COLL_IMAGE_ADDR(im->arg, (uint64_t)y, (uint64_t)(e * 4 + off)), out, 1);
}

/* Move row segment [x, x + n) of row y between the image and buf. */
static int image_row(const blk *b, const img *im, int64_t x, int64_t y, uint8_t *buf,
                     uint32_t n)
{
    const coll_memory *m = b->env->mem;
    bool inside = y >= 0 && y < (int64_t)im->h && x >= 0 && x + n <= im->wb;
    if (inside) {
        uint64_t a = COLL_IMAGE_ADDR(im->arg, (uint64_t)y, (uint64_t)x);
        return b->write ? m->write(m->user, ISA_SPACE_IMAGE, a, buf, n)
                        : m->read(m->user, ISA_SPACE_IMAGE, a, buf, n);
    }
    /* only 4-byte elements get here: reads clamp, writes drop bytes outside */
    for (uint32_t i = 0; i < n; i++) {
        int64_t xi = x + i;
        if (!b->write) {
            if (read_clamped(b, im, xi, y, buf + i))
                return -1;
        } else if (y >= 0 && y < (int64_t)im->h && xi >= 0 && xi < im->wb) {
            uint64_t a = COLL_IMAGE_ADDR(im->arg, (uint64_t)y, (uint64_t)xi);
            if (m->write(m->user, ISA_SPACE_IMAGE, a, buf + i, 1))
                return -1;
        }
    }
    return 0;
}

static coll_status image_io(blk *b, coll_report *rep)
{
    const isa_inst *in = b->in;
    const coll_env *env = b->env;
    const isa_operand *io = b->write ? &in->o[0] : &in->o[1];
    const isa_operand *xo = io + 1, *yo = io + 2;
    uint64_t sx[LANES_MAX], sy[LANES_MAX];
    const uint64_t *xs = lanes_src(env->lanes, b->sg, xo, 0, ISA_T_I32, sx);
    const uint64_t *ys = lanes_src(env->lanes, b->sg, yo, 0, ISA_T_I32, sy);
    int32_t x = (int32_t)(uint32_t)xs[b->first], y = (int32_t)(uint32_t)ys[b->first];
    for (uint32_t l = 0; l < b->S; l++) {
        if (!(b->act >> l & 1))
            continue;
        int32_t xl = (int32_t)(uint32_t)xs[l], yl = (int32_t)(uint32_t)ys[l];
        if (xl != x || yl != y)
            return coll_fail(rep, COLL_NONUNIFORM_PTR, b->sgi, l, coll_image_xy(xl, yl));
    }
    img im;
    im.arg = io->reg;
    if (io->kind != ISA_OPND_ARG || !env->mem->image_info ||
        env->mem->image_info(env->mem->user, im.arg, &im.w, &im.h, &im.eb, &im.pitch))
        return coll_fail(rep, COLL_UNSUPPORTED, b->sgi, b->first, io->reg);
    /* the spec leaves elements wider than a uint undefined */
    if (im.eb == 0 || im.eb > 4)
        return coll_fail(rep, COLL_UNSUPPORTED, b->sgi, b->first, im.eb);
    im.wb = (int64_t)im.w * im.eb;
    if (b->write && (x & 3))
        return coll_fail(rep, COLL_MISALIGNED, b->sgi, b->first, coll_image_xy(x, y));
    uint32_t rb = b->S * b->es, rows = b->vec;
    if (im.eb < 4) {
        /* bounds checked too late on hardware: an error here */
        for (uint32_t r = 0; r < rows; r++) {
            int64_t yr = (int64_t)y + r;
            int64_t bad = -1;
            if (yr < 0 || yr >= (int64_t)im.h)
                bad = 0;
            else if (x < 0)
                bad = 0;
            else if ((int64_t)x + rb > im.wb)
                bad = im.wb > x ? im.wb - x : 0;
            if (bad >= 0)
                return coll_fail(rep, COLL_OUT_OF_BOUNDS, b->sgi, (uint32_t)bad / b->es,
                                 coll_image_xy((int32_t)(x + bad), (int32_t)yr));
        }
    }
    if (b->write)
        gather(b, &in->o[3]);
    uint32_t mbw = env->opt && env->opt->media_block_width ? env->opt->media_block_width : 32;
    for (uint32_t cx = 0; cx < rb; cx += mbw) {
        uint32_t cw = rb - cx < mbw ? rb - cx : mbw;
        emit(b, b->write ? COLL_UOP_MEDIA_STORE : COLL_UOP_MEDIA_LOAD, ISA_SPACE_IMAGE,
             ((uint64_t)(uint32_t)(x + (int32_t)cx)) | ((uint64_t)(uint32_t)y << 32),
             cw * rows, rows, im.pitch, im.arg);
        for (uint32_t r = 0; r < rows; r++) {
            /* row r of the block is value r of every lane: element i + r * S */
            uint8_t *seg = b->buf + (size_t)r * rb + cx;
            if (image_row(b, &im, (int64_t)x + cx, (int64_t)y + r, seg, cw))
                return coll_fail(rep, COLL_OUT_OF_BOUNDS, b->sgi, cx / b->es,
                                 coll_image_xy(x + (int32_t)cx, y + (int32_t)r));
        }
    }
    if (!b->write)
        scatter(b, in->o[0].reg);
    return COLL_OK;
}

static bool valid_vec(uint32_t es, uint32_t vec)
{
    switch (vec) {
    case 1: case 2: case 4: case 8: return true;
    case 16: return es <= 2;      /* _uc16, _us16 */
    default: return false;
    }
}

coll_status coll_block_io(const coll_env *env, const isa_inst *in,
                          coll_group *g, coll_report *rep)
{
    if (isa_ops[in->op].shape == ISA_SHAPE_MB_LD || isa_ops[in->op].shape == ISA_SHAPE_MB_ST)
        return coll_media_block(env, in, g, rep);     /* cl_intel_media_block_io */
    isa_family fam = isa_ops[in->op].family;
    bool image = isa_ops[in->op].shape == ISA_SHAPE_IMG_LD ||
                 isa_ops[in->op].shape == ISA_SHAPE_IMG_ST;
    if (in->type >= ISA_T_COUNT)
        return coll_fail(rep, COLL_UNSUPPORTED, 0, 0, in->type);
    uint32_t es = isa_types[in->type].bytes, vec = in->vec ? in->vec : 1;
    if (!valid_vec(es, vec))
        return coll_fail(rep, COLL_UNSUPPORTED, 0, 0, vec);
    coll_status st = coll_check_converged(g, rep);
    if (st != COLL_OK)
        return st;
    blk b;
    for (uint32_t j = 0; j < g->nsg; j++) {
        lanes_sg *sg = g->sg[j];
        if (sg->size < sg->width)
            return coll_fail(rep, COLL_PARTIAL_SG, j, 0, sg->size);
        if (!g->active[j])
            continue;
        b.env = env;
        b.in = in;
        b.sg = sg;
        b.act = g->active[j];
        b.sgi = j;
        b.S = sg->width;
        b.es = es;
        b.vec = vec;
        b.first = (uint32_t)__builtin_ctzll(b.act);
        b.write = fam == ISA_FAM_BLOCK_WRITE || fam == ISA_FAM_IMG_WRITE;
        st = image ? image_io(&b, rep) : buffer_io(&b, rep);
        if (st != COLL_OK)
            return st;
    }
    return COLL_OK;
}
