/* media_block.c - cl_intel_media_block_io: a 2D block of `width` elements
 * by `height` rows at byte x, row y of an image2d_t, moved as one sub-group
 * operation.
 *
 * The extension's definition: the block's elements taken in row-major
 * order are laid out again in rows of S (the sub-group size), so element
 * e = k * S + i of the block is component k of the work-item with
 * sub-group local id i.  A block of fewer than S * vec elements leaves the
 * rest of the components undefined (sgemu gives 0); a larger block drops
 * its elements past S * vec (not read, not written).
 *
 * Out of the image: a read returns the nearest edge element of the image
 * (per image element, each byte keeping its place in the element), a write
 * is dropped, where the image's elements are no wider than the builtin's
 * and at most 4 bytes; otherwise the extension leaves it undefined and
 * sgemu stops.  The messages are MEDIA_LOAD / MEDIA_STORE micro-ops of
 * `height` rows by at most media_block_width bytes, as the image block I/O
 * of block_io.c. */
#include "media_block.h"
#include "block_io.h"
#include "coll_private.h"

#include <string.h>

#define MB_ROW_MAX 32              /* bytes per row (the extension's widest) */
#define MB_BLOCK_MAX 256           /* bytes per block (its table: w x h <= 256) */

typedef struct mb {
    const coll_env *env;
    const isa_inst *in;
    lanes_sg *sg;
    uint32_t sgi, S, es, vec;
    bool write;
    int32_t x, y;                  /* the block's byte x and row */
    uint32_t w, h;                 /* width in elements, height in rows */
    uint32_t arg, iw, ih, eb, pitch;
    int64_t iwb;                   /* bytes per image row */
} mb;

/* The uniform value of component comp of operand o over the active lanes;
 * false (and *lane the first that differs) if it is not uniform. */
static bool uniform_i32(const mb *b, lanes_mask act, const isa_operand *o, uint32_t comp,
                        int32_t *out, uint32_t *lane)
{
    uint64_t scratch[LANES_MAX];
    const uint64_t *v = lanes_src(b->env->lanes, b->sg, o, comp, ISA_T_I32, scratch);
    const uint32_t first = (uint32_t)__builtin_ctzll(act);
    *out = (int32_t)(uint32_t)v[first];
    for (uint32_t l = first; l < b->S; l++)
        if ((act >> l & 1) && (int32_t)(uint32_t)v[l] != *out) {
            *lane = l;
            return false;
        }
    return true;
}

static bool inside(const mb *b, int64_t bx, int64_t by)
{
    return by >= 0 && by < (int64_t)b->ih && bx >= 0 && bx < b->iwb;
}

/* Whether the bytes of the image outside it have a defined value (reads)
 * or are dropped (writes): image elements no wider than the builtin's and
 * at most a dword. */
static bool edge_defined(const mb *b)
{
    return b->eb <= b->es && b->eb <= 4;
}

/* The image byte a read at byte bx of row by returns: the nearest edge
 * element's byte at the same place within the element. */
static void clamp_byte(const mb *b, int64_t bx, int64_t by, int64_t *cx, int64_t *cy)
{
    int64_t eb = b->eb;
    int64_t e = bx >= 0 ? bx / eb : -((-bx + eb - 1) / eb);
    int64_t off = bx - e * eb;
    if (e < 0)
        e = 0;
    if (e > (int64_t)b->iw - 1)
        e = (int64_t)b->iw - 1;
    *cy = by < 0 ? 0 : by >= (int64_t)b->ih ? (int64_t)b->ih - 1 : by;
    *cx = e * eb + off;
}

/* Move bytes [bx, bx + n) of row by between the image and buf. */
static int row_io(const mb *b, int64_t bx, int64_t by, uint8_t *buf, uint32_t n)
{
    const coll_memory *m = b->env->mem;
    if (inside(b, bx, by) && bx + n <= b->iwb) {
        uint64_t a = COLL_IMAGE_ADDR(b->arg, (uint64_t)by, (uint64_t)bx);
        return b->write ? m->write(m->user, ISA_SPACE_IMAGE, a, buf, n)
                        : m->read(m->user, ISA_SPACE_IMAGE, a, buf, n);
    }
    for (uint32_t j = 0; j < n; j++) {
        int64_t xj = bx + j, cx = xj, cy = by;
        if (b->write) {
            if (!inside(b, xj, by))
                continue;                                   /* dropped */
        } else if (!inside(b, xj, by)) {
            clamp_byte(b, xj, by, &cx, &cy);
        }
        uint64_t a = COLL_IMAGE_ADDR(b->arg, (uint64_t)cy, (uint64_t)cx);
        int rc = b->write ? m->write(m->user, ISA_SPACE_IMAGE, a, buf + j, 1)
                          : m->read(m->user, ISA_SPACE_IMAGE, a, buf + j, 1);
        if (rc)
            return -1;
    }
    return 0;
}

static coll_status one_sg(mb *b, lanes_mask act, coll_report *rep)
{
    const isa_inst *in = b->in;
    const coll_env *env = b->env;
    const isa_operand *io = b->write ? &in->o[0] : &in->o[1];
    const isa_operand *co = io + 1, *wo = io + 2, *ho = io + 3;
    uint32_t lane = 0;
    int32_t x, y, w, h;
    if (!uniform_i32(b, act, co, 0, &x, &lane) || !uniform_i32(b, act, co, 1, &y, &lane)) {
        uint64_t s0[LANES_MAX], s1[LANES_MAX];
        const uint64_t *xs = lanes_src(env->lanes, b->sg, co, 0, ISA_T_I32, s0);
        const uint64_t *ys = lanes_src(env->lanes, b->sg, co, 1, ISA_T_I32, s1);
        return coll_fail(rep, COLL_NONUNIFORM_PTR, b->sgi, lane,
                         coll_image_xy((int32_t)(uint32_t)xs[lane], (int32_t)(uint32_t)ys[lane]));
    }
    if (!uniform_i32(b, act, wo, 0, &w, &lane) || !uniform_i32(b, act, ho, 0, &h, &lane)) {
        uint64_t s0[LANES_MAX], s1[LANES_MAX];
        const uint64_t *ws = lanes_src(env->lanes, b->sg, wo, 0, ISA_T_I32, s0);
        const uint64_t *hs = lanes_src(env->lanes, b->sg, ho, 0, ISA_T_I32, s1);
        return coll_fail(rep, COLL_MEDIA_SHAPE, b->sgi, lane,
                         coll_image_xy((int32_t)(uint32_t)ws[lane], (int32_t)(uint32_t)hs[lane]));
    }
    const uint32_t first = (uint32_t)__builtin_ctzll(act);
    unsigned maxh = w > 0 && w <= MB_ROW_MAX ? isa_media_block_max_rows((unsigned)w * b->es) : 0;
    if (!maxh || h < 1 || (unsigned)h > maxh)
        return coll_fail(rep, COLL_MEDIA_SHAPE, b->sgi, first, coll_image_xy(w, h));
    if (x & 3)
        return coll_fail(rep, COLL_MISALIGNED, b->sgi, first, coll_image_xy(x, y));
    b->x = x, b->y = y, b->w = (uint32_t)w, b->h = (uint32_t)h;
    b->arg = io->reg;
    if (io->kind != ISA_OPND_ARG || !env->mem->image_info ||
        env->mem->image_info(env->mem->user, b->arg, &b->iw, &b->ih, &b->eb, &b->pitch) ||
        b->eb == 0)
        return coll_fail(rep, COLL_UNSUPPORTED, b->sgi, first, io->reg);
    b->iwb = (int64_t)b->iw * b->eb;

    /* the elements moved: the block's first min(w * h, S * vec) */
    const uint32_t n = b->w * b->h < b->S * b->vec ? b->w * b->h : b->S * b->vec;
    const uint32_t rows = (n + b->w - 1) / b->w;   /* rows holding them */
    if (!edge_defined(b))
        for (uint32_t e = 0; e < n; e++) {
            int64_t bx = (int64_t)x + (int64_t)(e % b->w) * b->es, by = (int64_t)y + e / b->w;
            if (!inside(b, bx, by) || !inside(b, bx + b->es - 1, by))
                return coll_fail(rep, COLL_OUT_OF_BOUNDS, b->sgi, e % b->S,
                                 coll_image_xy((int32_t)(inside(b, bx, by) ? b->iwb : bx),
                                               (int32_t)by));
        }

    /* the block's rows in memory order: element e at row e / w, byte
     * (e % w) * es */
    uint8_t buf[MB_BLOCK_MAX];
    memset(buf, 0, sizeof buf);
    if (b->write) {
        uint64_t scratch[LANES_MAX];
        for (uint32_t k = 0; k < b->vec && k * b->S < n; k++) {
            const uint64_t *v = lanes_src(env->lanes, b->sg, &in->o[4], k,
                                          (isa_type)in->type, scratch);
            for (uint32_t i = 0; i < b->S && k * b->S + i < n; i++)
                for (uint32_t j = 0; j < b->es; j++)     /* the value's low bytes, in order */
                    buf[(size_t)(k * b->S + i) * b->es + j] = (uint8_t)(v[i] >> 8 * j);
        }
    }
    const uint32_t wb = b->w * b->es;
    const uint32_t mbw = env->opt && env->opt->media_block_width ? env->opt->media_block_width
                                                                 : 32;
    for (uint32_t cx = 0; cx < wb; cx += mbw) {
        const uint32_t cw = wb - cx < mbw ? wb - cx : mbw;
        if (env->sink && env->sink->emit) {
            coll_uop u;
            memset(&u, 0, sizeof u);
            u.kind = (uint8_t)(b->write ? COLL_UOP_MEDIA_STORE : COLL_UOP_MEDIA_LOAD);
            u.type = in->type;
            u.space = ISA_SPACE_IMAGE;
            u.lanes = (uint16_t)b->S;
            u.sg = (uint16_t)b->sgi;
            u.bytes = cw * b->h;
            u.rows = b->h;
            u.addr = (uint64_t)(uint32_t)(x + (int32_t)cx) | (uint64_t)(uint32_t)y << 32;
            u.pitch = b->pitch;
            u.image = b->arg;
            u.mask = act;
            env->sink->emit(env->sink->user, &u);
        }
        for (uint32_t r = 0; r < rows; r++) {
            /* the part of this chunk of row r that holds moved elements */
            uint32_t row_bytes = (r + 1 < rows || n % b->w == 0) ? wb : (n % b->w) * b->es;
            if (cx >= row_bytes)
                continue;
            uint32_t len = row_bytes - cx < cw ? row_bytes - cx : cw;
            if (row_io(b, (int64_t)x + cx, (int64_t)y + r, buf + (size_t)r * wb + cx, len))
                return coll_fail(rep, COLL_OUT_OF_BOUNDS, b->sgi, (r * b->w + cx / b->es) % b->S,
                                 coll_image_xy(x + (int32_t)cx, y + (int32_t)r));
        }
    }
    if (!b->write) {
        /* component k of lane i: element k * S + i (0 past the block) */
        for (uint32_t k = 0; k < b->vec; k++) {
            uint64_t *d = lanes_reg(b->sg, in->o[0].reg + k);
            for (uint32_t i = 0; i < b->S; i++) {
                uint32_t e = k * b->S + i;
                uint64_t val = 0;
                for (uint32_t j = 0; e < n && j < b->es; j++)
                    val |= (uint64_t)buf[(size_t)e * b->es + j] << 8 * j;
                if (act >> i & 1)
                    d[i] = val;
            }
        }
    }
    return COLL_OK;
}

coll_status coll_media_block(const coll_env *env, const isa_inst *in, coll_group *g,
                             coll_report *rep)
{
    if (in->type >= ISA_T_COUNT)
        return coll_fail(rep, COLL_UNSUPPORTED, 0, 0, in->type);
    const uint32_t es = isa_types[in->type].bytes, vec = in->vec ? in->vec : 1;
    if (es > 4 || !(vec == 1 || vec == 2 || vec == 4 || vec == 8 || (vec == 16 && es <= 2)))
        return coll_fail(rep, COLL_UNSUPPORTED, 0, 0, vec);
    coll_status st = coll_check_converged(g, rep);
    if (st != COLL_OK)
        return st;
    mb b;
    memset(&b, 0, sizeof b);
    b.env = env;
    b.in = in;
    b.es = es;
    b.vec = vec;
    b.write = isa_ops[in->op].family == ISA_FAM_IMG_WRITE;
    for (uint32_t j = 0; j < g->nsg; j++) {
        lanes_sg *sg = g->sg[j];
        if (sg->size < sg->width)
            return coll_fail(rep, COLL_PARTIAL_SG, j, 0, sg->size);
        if (!g->active[j])
            continue;
        b.sg = sg;
        b.sgi = j;
        b.S = sg->width;
        st = one_sg(&b, g->active[j], rep);
        if (st != COLL_OK)
            return st;
    }
    return COLL_OK;
}
