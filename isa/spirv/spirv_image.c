/* spirv_image.c - SPIR-V image instructions and the SPV_INTEL_subgroups
 * block reads/writes -> the sgemu image and block I/O rows (docs/images.md). */
#include "spirv_private.h"

/* Block row of an element size: 4 -> _ui family base, 2 -> _us, 1 -> _uc,
 * 8 -> _ul (the 32-bit rows have a plain and a _ui spelling; sgemu uses the
 * plain one, which is what intel_sub_group_block_read/write name). */
static bool block_op(xctx *x, isa_type t, bool image, bool write, isa_opcode *op)
{
    static const isa_opcode rows[2][2][4] = {
        { { ISA_OP_BLOCK_READ_UC, ISA_OP_BLOCK_READ_US, ISA_OP_BLOCK_READ, ISA_OP_BLOCK_READ_UL },
          { ISA_OP_BLOCK_WRITE_UC, ISA_OP_BLOCK_WRITE_US, ISA_OP_BLOCK_WRITE,
            ISA_OP_BLOCK_WRITE_UL } },
        { { ISA_OP_IMG_BLOCK_READ_UC, ISA_OP_IMG_BLOCK_READ_US, ISA_OP_IMG_BLOCK_READ,
            ISA_OP_IMG_BLOCK_READ_UL },
          { ISA_OP_IMG_BLOCK_WRITE_UC, ISA_OP_IMG_BLOCK_WRITE_US, ISA_OP_IMG_BLOCK_WRITE,
            ISA_OP_IMG_BLOCK_WRITE_UL } },
    };
    unsigned sz = isa_types[t].bytes, i;
    switch (sz) {
    case 1: i = 0; break;
    case 2: i = 1; break;
    case 4: i = 2; break;
    case 8: i = 3; break;
    default:
        spv_error(x, "%s: elements of %u bytes have no block I/O form", spv_op_name(x->cur->op),
                sz);
        return false;
    }
    *op = rows[image][write][i];
    return true;
}

/* The image argument operand of an image value. */
static bool image_opnd(xctx *x, xfn *f, uint32_t id, isa_operand *o)
{
    xval *v = spv_val(x, f, id);
    if (!v || !v->n)
        return false;
    if (v->c[0].o.kind != ISA_OPND_ARG) {
        spv_error(x, "%s: the image must be a kernel argument", spv_op_name(x->cur->op));
        return false;
    }
    *o = v->c[0].o;
    return true;
}

/* The kernel argument of image operand o (NULL if it is none). */
static const isa_arg *image_arg(const xctx *x, const isa_operand *o)
{
    return o->kind == ISA_OPND_ARG && o->reg < x->k->narg ? &x->k->args[o->reg] : NULL;
}

/* Whether image operand o has a type other than image2d_t: it takes the
 * coordinate-vector forms (read_imagev*, write_imagev*). */
static bool vform(const xctx *x, const isa_operand *o)
{
    const isa_arg *a = image_arg(x, o);
    return a && ((a->dims != 2 && a->dims != 0) || a->arrayed || a->img_buffer);
}

/* The coordinates image operand o takes: its own, then the layer. */
static unsigned ncoord(const xctx *x, const isa_operand *o)
{
    const isa_arg *a = image_arg(x, o);
    return a ? (a->dims ? a->dims : 2u) + (a->arrayed ? 1u : 0u) : 2u;
}

/* OpenCL C's name of image operand o's type. */
static const char *type_name(const xctx *x, const isa_operand *o)
{
    const isa_arg *a = image_arg(x, o);
    const char *n = a ? isa_image_type_name(a->dims, a->arrayed, a->img_buffer) : NULL;
    return n ? n : "image";
}

/* The (x, y) of an int2 coordinate. */
static bool coords(xctx *x, xfn *f, uint32_t id, isa_operand *cx, isa_operand *cy)
{
    xval *c = spv_val(x, f, id);
    if (!c || c->n < 2) {
        if (c)
            spv_error(x, "%s: only 2D integer coordinates are supported",
                    spv_op_name(x->cur->op));
        return false;
    }
    *cx = spv_src(x, &c->c[0]);
    *cy = spv_src(x, &c->c[1]);
    return true;
}

/* The image in word w of `in` and its (x, y) coordinate in word w + 1. */
static bool image_at(xctx *x, xfn *f, const spv_inst *in, unsigned w, isa_operand *img,
                     isa_operand *cx, isa_operand *cy)
{
    return image_opnd(x, f, spv_word(x->m, in, w), img) &&
           coords(x, f, spv_word(x->m, in, w + 1), cx, cy);
}

/* A vector or scalar value in consecutive registers; *vec gets its width. */
static isa_operand packed(xctx *x, const xval *v, isa_type t)
{
    if (v->n == 1)
        return spv_src(x, &v->c[0]);
    return spv_R(spv_gather(x, v, t));
}

/* One image or block access: op.t of `vec` components in space sp over the
 * n operands o. */
static isa_inst *emit_access(xctx *x, isa_opcode op, isa_type t, unsigned vec, isa_space sp,
                             unsigned n, const isa_operand *o)
{
    isa_inst *i = spv_emit(x, op, t);
    i->vec = (uint8_t)vec;
    i->space = (uint8_t)sp;
    for (unsigned k = 0; k < n; k++)
        i->o[k] = o[k];
    i->nopnd = (uint8_t)n;
    return i;
}

/* The address (*a, *sp) of the pointer in word w of block I/O `in`; false
 * (with an error for other spaces) if there is none.  `what`: "reads" or
 * "writes". */
static bool block_addr(xctx *x, xfn *f, const spv_inst *in, unsigned w, const char *what,
                       isa_operand *a, isa_space *sp)
{
    xval *p = spv_val(x, f, spv_word(x->m, in, w));
    if (!p || !p->n)
        return false;
    *a = spv_addr_of(x, &p->c[0], sp);
    if (*sp != ISA_SPACE_GLOBAL && *sp != ISA_SPACE_LOCAL) {
        spv_error(x, "%s: block %s work on __global and __local memory only",
                spv_op_name(in->op), what);
        return false;
    }
    return true;
}

static void block_read(xctx *x, xfn *f, const spv_inst *in, bool image)
{
    spv_module *m = x->m;
    const spv_type *t = spv_type_lookup(x, spv_word(m, in, 1));
    xval *v = t ? spv_def(x, f, spv_word(m, in, 2), 1) : NULL;
    if (!v || !spv_alloc_regs(x, v, t))
        return;
    isa_type ct = spv_comp_type(t);
    isa_opcode op;
    if (!block_op(x, ct, image, false, &op))
        return;
    if (image) {
        isa_operand img, cx, cy;
        if (!image_at(x, f, in, 3, &img, &cx, &cy))
            return;
        emit_access(x, op, ct, t->ncomp, ISA_SPACE_IMAGE, 4,
                    (isa_operand[]){ v->c[0].o, img, cx, cy });
        return;
    }
    isa_space sp;
    isa_operand a;
    if (!block_addr(x, f, in, 3, "reads", &a, &sp))
        return;
    emit_access(x, op, ct, t->ncomp, sp, 2, (isa_operand[]){ v->c[0].o, a });
}

static void block_write(xctx *x, xfn *f, const spv_inst *in, bool image)
{
    spv_module *m = x->m;
    uint32_t vid = spv_word(m, in, image ? 3 : 2);
    const spv_type *t = spv_value_type(x, vid);
    xval *v = spv_val(x, f, vid);
    if (!t || !v || !v->n)
        return;
    isa_type ct = spv_comp_type(t);
    isa_opcode op;
    if (!block_op(x, ct, image, true, &op))
        return;
    if (image) {
        isa_operand img, cx, cy;
        if (!image_at(x, f, in, 1, &img, &cx, &cy))
            return;
        isa_operand s = packed(x, v, ct);
        emit_access(x, op, ct, v->n, ISA_SPACE_IMAGE, 4, (isa_operand[]){ img, cx, cy, s });
        return;
    }
    isa_space sp;
    isa_operand a;
    if (!block_addr(x, f, in, 1, "writes", &a, &sp))
        return;
    isa_operand s = packed(x, v, ct);
    emit_access(x, op, ct, v->n, sp, 2, (isa_operand[]){ a, s });
}

/* SPV_INTEL_media_block_io: OpSubgroupImageMediaBlockReadINTEL (result
 * type, result, image, coordinate, width, height) and ...WriteINTEL (image,
 * coordinate, width, height, data) -> the media block rows of the element
 * size, the int2 coordinate as a register pair (docs/images.md). */
static bool media_op(xctx *x, isa_type t, bool write, isa_opcode *op)
{
    static const isa_opcode rows[2][3] = {
        { ISA_OP_MEDIA_BLOCK_READ_UC, ISA_OP_MEDIA_BLOCK_READ_US, ISA_OP_MEDIA_BLOCK_READ_UI },
        { ISA_OP_MEDIA_BLOCK_WRITE_UC, ISA_OP_MEDIA_BLOCK_WRITE_US,
          ISA_OP_MEDIA_BLOCK_WRITE_UI },
    };
    unsigned sz = isa_types[t].bytes;
    if (sz != 1 && sz != 2 && sz != 4) {
        spv_error(x, "%s: media block I/O moves 8, 16 or 32-bit elements, not %u bytes",
                  spv_op_name(x->cur->op), sz);
        return false;
    }
    *op = rows[write][sz == 1 ? 0 : sz == 2 ? 1 : 2];
    return true;
}

/* The image, coordinate pair, width and height of a media block
 * instruction from word w (the image) on. */
static bool media_opnds(xctx *x, xfn *f, const spv_inst *in, unsigned w, isa_operand *o)
{
    spv_module *m = x->m;
    if (!image_opnd(x, f, spv_word(m, in, w), &o[0]))
        return false;
    if (vform(x, &o[0])) {
        spv_error(x, "%s: media block I/O works on image2d_t only, not %s_t",
                  spv_op_name(in->op), type_name(x, &o[0]));
        return false;
    }
    xval *c = spv_val(x, f, spv_word(m, in, w + 1));
    xval *wv = spv_val(x, f, spv_word(m, in, w + 2));
    xval *hv = spv_val(x, f, spv_word(m, in, w + 3));
    if (!c || !wv || !hv || !wv->n || !hv->n)
        return false;
    if (c->n != 2) {
        spv_error(x, "%s: the coordinate must be an int2", spv_op_name(in->op));
        return false;
    }
    o[1] = spv_R(spv_gather(x, c, ISA_T_I32));
    o[2] = spv_src(x, &wv->c[0]);
    o[3] = spv_src(x, &hv->c[0]);
    return true;
}

static void media_block_read(xctx *x, xfn *f, const spv_inst *in)
{
    spv_module *m = x->m;
    const spv_type *t = spv_type_lookup(x, spv_word(m, in, 1));
    xval *v = t ? spv_def(x, f, spv_word(m, in, 2), 1) : NULL;
    if (!v || !spv_alloc_regs(x, v, t))
        return;
    isa_type ct = spv_comp_type(t);
    isa_opcode op;
    isa_operand o[4];
    if (!media_op(x, ct, false, &op) || !media_opnds(x, f, in, 3, o))
        return;
    emit_access(x, op, ct, t->ncomp, ISA_SPACE_IMAGE, 5,
                (isa_operand[]){ v->c[0].o, o[0], o[1], o[2], o[3] });
}

static void media_block_write(xctx *x, xfn *f, const spv_inst *in)
{
    spv_module *m = x->m;
    uint32_t vid = spv_word(m, in, 5);
    const spv_type *t = spv_value_type(x, vid);
    xval *v = spv_val(x, f, vid);
    if (!t || !v || !v->n)
        return;
    isa_type ct = spv_comp_type(t);
    isa_opcode op;
    isa_operand o[4];
    if (!media_op(x, ct, true, &op) || !media_opnds(x, f, in, 1, o))
        return;
    isa_operand s = packed(x, v, ct);
    emit_access(x, op, ct, v->n, ISA_SPACE_IMAGE, 5, (isa_operand[]){ o[0], o[1], o[2], o[3], s });
}

/* Image operands word (after the coordinate / texel) asks for sign extension:
 * read_imagei / write_imagei when the producer says so. */
static bool sign_extend(const spv_module *m, const spv_inst *in, unsigned w)
{
    return in->nw > w && (m->w[in->off + w] & SpvImageOperandsSignExtendMask);
}

/* An integer image access whose image operands (word w) say neither
 * SignExtend nor ZeroExtend (SPIR-V before 1.4: llvm-spirv-14 writes
 * read_imagei and read_imageui alike) takes the image's signedness. */
static void mark_sign(const spv_module *m, const spv_inst *in, unsigned w, isa_inst *i)
{
    const uint32_t ext = SpvImageOperandsSignExtendMask | SpvImageOperandsZeroExtendMask;
    if (i && i->op != ISA_OP_READ_IMAGEF && i->op != ISA_OP_WRITE_IMAGEF &&
        i->op != ISA_OP_READ_IMAGEVF && i->op != ISA_OP_WRITE_IMAGEVF &&
        !(in->nw > w && (m->w[in->off + w] & ext)))
        i->flags |= (uint16_t)ISA_F_ANYSIGN;
}

/* The integer coordinate vector in word w of `in` for image img: false
 * (with an error) if it has too few components or is float. */
static bool int_coord(xctx *x, xfn *f, const spv_inst *in, unsigned w, isa_operand img,
                      xval **c)
{
    spv_module *m = x->m;
    *c = spv_val(x, f, spv_word(m, in, w));
    const spv_type *ct = spv_value_type(x, spv_word(m, in, w));
    const spv_type *cct = ct && ct->kind == SPV_TY_VEC ? spv_type_lookup(x, ct->elem) : ct;
    if (!*c || (*c)->n < ncoord(x, &img) || (cct && cct->kind == SPV_TY_FLOAT)) {
        if (*c)
            spv_error(x, "%s: an %s_t %s without a sampler takes %u integer coordinates",
                      spv_op_name(in->op), type_name(x, &img),
                      in->op == SpvOpImageWrite ? "write" : "read", ncoord(x, &img));
        return false;
    }
    return true;
}

/* read_image{f,i,ui} of every image type but image2d_t: an integer
 * coordinate vector. */
static void image_readv(xctx *x, xfn *f, const spv_inst *in, const spv_type *t, xval *v,
                        isa_operand img)
{
    spv_module *m = x->m;
    xval *c;
    if (!int_coord(x, f, in, 4, img, &c))
        return;
    isa_type et = spv_comp_type(t);
    isa_opcode op = isa_types[et].is_float ? ISA_OP_READ_IMAGEVF
                  : sign_extend(m, in, 5) ? ISA_OP_READ_IMAGEVI : ISA_OP_READ_IMAGEVUI;
    if (op == ISA_OP_READ_IMAGEVI)
        et = spv_signed(et);
    if (t->ncomp != 4 || isa_types[et].bytes != 4) {
        spv_error(x, "%s: %s_t reads return 4 components of 32 bits", spv_op_name(in->op),
                  type_name(x, &img));
        return;
    }
    uint32_t r = spv_image_coord(x, c, ncoord(x, &img), ISA_T_I32, false);
    mark_sign(m, in, 5, emit_access(x, op, et, 4, ISA_SPACE_IMAGE, 3,
                                    (isa_operand[]){ v->c[0].o, img, spv_R(r) }));
}

/* write_image{f,i,ui} of every image type but image2d_t. */
static void image_writev(xctx *x, xfn *f, const spv_inst *in, const spv_type *t, xval *v,
                         isa_operand img)
{
    spv_module *m = x->m;
    xval *c;
    if (!int_coord(x, f, in, 2, img, &c))
        return;
    isa_type et = spv_comp_type(t);
    isa_opcode op = isa_types[et].is_float ? ISA_OP_WRITE_IMAGEVF
                  : sign_extend(m, in, 4) ? ISA_OP_WRITE_IMAGEVI : ISA_OP_WRITE_IMAGEVUI;
    if (op == ISA_OP_WRITE_IMAGEVI)
        et = spv_signed(et);
    if (v->n > 4 || isa_types[et].bytes != 4) {
        spv_error(x, "%s: only 32-bit texels with up to 4 components are supported",
                  spv_op_name(in->op));
        return;
    }
    uint32_t r = spv_image_coord(x, c, ncoord(x, &img), ISA_T_I32, false);
    isa_operand s = packed(x, v, et);
    mark_sign(m, in, 4, emit_access(x, op, et, v->n, ISA_SPACE_IMAGE, 3,
                                    (isa_operand[]){ img, spv_R(r), s }));
}

static void image_read(xctx *x, xfn *f, const spv_inst *in)
{
    spv_module *m = x->m;
    const spv_type *t = spv_type_lookup(x, spv_word(m, in, 1));
    xval *v = t ? spv_def(x, f, spv_word(m, in, 2), 1) : NULL;
    if (!v || !spv_alloc_regs(x, v, t))
        return;
    isa_operand img, cx, cy;
    if (!image_opnd(x, f, spv_word(m, in, 3), &img))
        return;
    if (vform(x, &img)) {
        image_readv(x, f, in, t, v, img);
        return;
    }
    if (!coords(x, f, spv_word(m, in, 4), &cx, &cy))
        return;
    const spv_type *ct = spv_value_type(x, spv_word(m, in, 4));
    const spv_type *cct = ct && ct->kind == SPV_TY_VEC ? spv_type_lookup(x, ct->elem) : ct;
    if (cct && cct->kind == SPV_TY_FLOAT) {
        spv_error(x, "%s: float coordinates need a sampler; sgemu supports integer "
                   "coordinates only", spv_op_name(in->op));
        return;
    }
    isa_type et = spv_comp_type(t);
    isa_opcode op = isa_types[et].is_float ? ISA_OP_READ_IMAGEF
                  : sign_extend(m, in, 5) ? ISA_OP_READ_IMAGEI : ISA_OP_READ_IMAGEUI;
    if (op == ISA_OP_READ_IMAGEI)
        et = spv_signed(et);
    if (t->ncomp > 4 || isa_types[et].bytes != 4) {
        spv_error(x, "%s: only 32-bit results with up to 4 components are supported "
                   "(half images: read_imageh is not)", spv_op_name(in->op));
        return;
    }
    mark_sign(m, in, 5, emit_access(x, op, et, t->ncomp, ISA_SPACE_IMAGE, 4,
                                    (isa_operand[]){ v->c[0].o, img, cx, cy }));
}

static void image_write(xctx *x, xfn *f, const spv_inst *in)
{
    spv_module *m = x->m;
    uint32_t vid = spv_word(m, in, 3);
    const spv_type *t = spv_value_type(x, vid);
    xval *v = spv_val(x, f, vid);
    isa_operand img, cx, cy;
    if (!t || !v || !v->n || !image_opnd(x, f, spv_word(m, in, 1), &img))
        return;
    if (vform(x, &img)) {
        image_writev(x, f, in, t, v, img);
        return;
    }
    if (!coords(x, f, spv_word(m, in, 2), &cx, &cy))
        return;
    isa_type et = spv_comp_type(t);
    isa_opcode op = isa_types[et].is_float ? ISA_OP_WRITE_IMAGEF
                  : sign_extend(m, in, 4) ? ISA_OP_WRITE_IMAGEI : ISA_OP_WRITE_IMAGEUI;
    if (op == ISA_OP_WRITE_IMAGEI)
        et = spv_signed(et);
    if (v->n > 4 || isa_types[et].bytes != 4) {
        spv_error(x, "%s: only 32-bit texels with up to 4 components are supported",
                spv_op_name(in->op));
        return;
    }
    isa_operand s = packed(x, v, et);
    mark_sign(m, in, 4, emit_access(x, op, et, v->n, ISA_SPACE_IMAGE, 4,
                                    (isa_operand[]){ img, cx, cy, s }));
}

/* OpImageQuerySize(Lod): the image's own sizes (width, height, depth as
 * it has them), then for an array its layers: get_image_width, _height,
 * _depth, _dim and _array_size. */
static void image_size(xctx *x, xfn *f, const spv_inst *in)
{
    spv_module *m = x->m;
    const spv_type *t = spv_type_lookup(x, spv_word(m, in, 1));
    isa_operand img;
    if (!t || !image_opnd(x, f, spv_word(m, in, 3), &img))
        return;
    const isa_arg *a = image_arg(x, &img);
    unsigned nq = ncoord(x, &img), own = nq - (a && a->arrayed ? 1u : 0u);
    unsigned got = t->kind == SPV_TY_VEC ? t->ncomp : 1;
    if (own > 3) {   /* no such image type: the queries are width, height, depth */
        spv_error(x, "%s: an %s_t with %u coordinates", spv_op_name(in->op),
                  type_name(x, &img), own);
        return;
    }
    if (got != nq) {
        spv_error(x, "%s: an %s_t's size has %u component%s", spv_op_name(in->op),
                  type_name(x, &img), nq, nq > 1 ? "s" : "");
        return;
    }
    xval *v = spv_def(x, f, spv_word(m, in, 2), 1);
    if (!v || !spv_alloc_regs(x, v, t))
        return;
    isa_type et = spv_comp_type(t);
    if (isa_types[et].is_float || (isa_types[et].bytes != 4 && isa_types[et].bytes != 8)) {
        spv_error(x, "%s: the size must be 32- or 64-bit integers", spv_op_name(in->op));
        return;
    }
    static const isa_opcode q[3] = { ISA_OP_GET_IMAGE_WIDTH, ISA_OP_GET_IMAGE_HEIGHT,
                                     ISA_OP_GET_IMAGE_DEPTH };
    for (unsigned c = 0; c < nq; c++) {
        /* 64-bit sizes (get_image_array_size's size_t): the 32-bit query
         * widened */
        const bool wide = isa_types[et].bytes == 8;
        isa_operand dst = wide ? spv_R(spv_reg(x, 1)) : v->c[c].o;
        isa_inst *i = spv_emit(x, c < own ? q[c] : ISA_OP_GET_IMAGE_ARRAY_SIZE,
                               wide ? ISA_T_U32 : et);
        i->space = ISA_SPACE_IMAGE;
        i->o[0] = dst;
        i->o[1] = img;
        i->nopnd = 2;
        if (wide) {
            isa_inst *cv = spv_emit(x, ISA_OP_CVT, et);
            cv->src_type = ISA_T_U32;
            cv->o[0] = v->c[c].o;
            cv->o[1] = dst;
            cv->nopnd = 2;
        }
    }
}

/* OpImageQueryFormat / OpImageQueryOrder: one instruction returning the SPIR-V
 * enum, as the opcode defines it; clang's following OpIAdd of 0x10D0 / 0x10B0
 * (to CLK_*) is translated as emitted. */
static void image_channel(xctx *x, xfn *f, const spv_inst *in)
{
    spv_module *m = x->m;
    const spv_type *t = spv_type_lookup(x, spv_word(m, in, 1));
    isa_operand img;
    if (!t || !image_opnd(x, f, spv_word(m, in, 3), &img))
        return;
    isa_type et = spv_comp_type(t);
    if (t->ncomp != 1 || isa_types[et].bytes != 4 || isa_types[et].is_float) {
        spv_error(x, "%s: the result must be a 32-bit integer", spv_op_name(in->op));
        return;
    }
    xval *v = spv_def(x, f, spv_word(m, in, 2), 1);
    if (!v || !spv_alloc_regs(x, v, t))
        return;
    isa_inst *i = spv_emit(x, in->op == SpvOpImageQueryOrder ? ISA_OP_GET_IMAGE_CHANNEL_ORDER
                                                           : ISA_OP_GET_IMAGE_CHANNEL_DATA_TYPE, et);
    i->space = ISA_SPACE_IMAGE;
    i->o[0] = v->c[0].o;
    i->o[1] = img;
    i->nopnd = 2;
}

bool spv_op_image(xctx *x, xfn *f, const spv_inst *in)
{
    switch (in->op) {
    case SpvOpSubgroupBlockReadINTEL: block_read(x, f, in, false); return true;
    case SpvOpSubgroupBlockWriteINTEL: block_write(x, f, in, false); return true;
    case SpvOpSubgroupImageBlockReadINTEL: block_read(x, f, in, true); return true;
    case SpvOpSubgroupImageBlockWriteINTEL: block_write(x, f, in, true); return true;
    case SpvOpSubgroupImageMediaBlockReadINTEL: media_block_read(x, f, in); return true;
    case SpvOpSubgroupImageMediaBlockWriteINTEL: media_block_write(x, f, in); return true;
    case SpvOpImageRead: image_read(x, f, in); return true;
    case SpvOpImageWrite: image_write(x, f, in); return true;
    case SpvOpImageQuerySize: case SpvOpImageQuerySizeLod: image_size(x, f, in); return true;
    case SpvOpImageQueryFormat: case SpvOpImageQueryOrder: image_channel(x, f, in); return true;
    default: return spv_op_sampler(x, f, in);
    }
}
