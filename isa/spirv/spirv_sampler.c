/* spirv_sampler.c - samplers: OpConstantSampler (literal and program-scope
 * sampler_t), sampler kernel arguments (a u32 scalar holding the OpenCL
 * sampler_t bit-field), OpSampledImage and OpImageSampleExplicitLod with
 * Lod 0 -> sample_imagef / sample_imagei / sample_imageui. */
#include "spirv_private.h"

/* The OpenCL sampler_t bits (clang's CLK_* values) of an OpConstantSampler. */
void spv_const_sampler(xctx *x, const spv_inst *in)
{
    spv_module *m = x->m;
    static const uint32_t addr_bits[] = { 0x0, 0x2, 0x4, 0x6, 0x8 };   /* None..RepeatMirrored */
    uint32_t am = spv_word(m, in, 3), norm = spv_word(m, in, 4), fm = spv_word(m, in, 5);
    if (am >= sizeof addr_bits / sizeof addr_bits[0] || norm > 1 || fm > 1) {
        spv_error(x, "sampler with addressing mode %u, normalised %u, filter %u is not valid",
                am, norm, fm);
        return;
    }
    xval *v = spv_def(x, NULL, spv_word(m, in, 2), 1);
    if (v)
        v->c[0].o = spv_I(addr_bits[am] | norm | (fm ? 0x20u : 0x10u));
}

/* OpSampledImage: the image argument and the sampler, as two components. */
static void sampled_image(xctx *x, xfn *f, const spv_inst *in)
{
    spv_module *m = x->m;
    xval *img = spv_val(x, f, spv_word(m, in, 3)), *smp = spv_val(x, f, spv_word(m, in, 4));
    if (!img || !smp || !img->n || !smp->n)
        return;
    if (img->c[0].o.kind != ISA_OPND_ARG) {
        spv_error(x, "the image must be a kernel argument");
        return;
    }
    xval *v = spv_def(x, f, spv_word(m, in, 2), 2);
    if (!v)
        return;
    v->c[0] = img->c[0];
    v->c[1] = smp->c[0];
}

static void sample(xctx *x, xfn *f, const spv_inst *in)
{
    spv_module *m = x->m;
    const spv_type *t = spv_type_lookup(x, spv_word(m, in, 1));
    xval *si = spv_val(x, f, spv_word(m, in, 3)), *co = spv_val(x, f, spv_word(m, in, 4));
    if (!t || !si || !co || !si->n || !co->n)
        return;
    if (si->n != 2 || si->c[0].o.kind != ISA_OPND_ARG) {
        spv_error(x, "the sampled image must come from OpSampledImage of an image argument");
        return;
    }
    const isa_operand *io = &si->c[0].o;
    const isa_arg *ia = io->reg < x->k->narg ? &x->k->args[io->reg] : NULL;
    /* every type but image2d_t takes the coordinate-vector form: its own
     * coordinates, then an array's layer */
    const bool vec = ia && ((ia->dims != 2 && ia->dims != 0) || ia->arrayed || ia->img_buffer);
    const unsigned nc = ia ? (ia->dims ? ia->dims : 2u) + (ia->arrayed ? 1u : 0u) : 2u;
    const char *tn = ia ? isa_image_type_name(ia->dims, ia->arrayed, ia->img_buffer) : NULL;
    if (ia && ia->img_buffer) {
        spv_error(x, "an image1d_buffer_t has no sampled reads (OpenCL C reads it without a "
                     "sampler)");
        return;
    }
    if (co->n < nc) {
        spv_error(x, "an %s_t needs %u coordinates", tn ? tn : "image", nc);
        return;
    }
    /* image operands: Lod with a constant 0 (what read_image* compiles to) */
    uint32_t ops = in->nw > 5 ? spv_word(m, in, 5) : 0;
    xval *lod = ops == SpvImageOperandsLodMask && in->nw > 6 ? spv_val(x, f, spv_word(m, in, 6))
                                                             : NULL;
    if (!lod || !lod->n || lod->c[0].o.kind != ISA_OPND_IMM || lod->c[0].o.imm != 0) {
        spv_error(x, "only explicit level-of-detail 0 sampling (Lod 0.0) is supported");
        return;
    }
    isa_type et = spv_comp_type(t);
    if (t->ncomp > 4 || isa_types[et].bytes != 4) {
        spv_error(x, "only 32-bit results with up to 4 components are supported (read_imageh "
                   "is not)");
        return;
    }
    /* integer coordinates are exact as floats below 2^24; the sampler they
     * need (unnormalised, nearest) then picks texel floor(i) = i */
    uint32_t cid = spv_word(m, in, 4);
    const spv_inst *cd = cid < m->bound && m->def[cid] ? &m->ins[m->def[cid] - 1] : NULL;
    const spv_op_info *oi = cd ? spv_op_find(cd->op) : NULL;
    const spv_type *ct = oi && oi->has_type ? spv_type_lookup(x, spv_word(m, cd, 1)) : NULL;
    bool icoord = ct && !isa_types[spv_comp_type(ct)].is_float;
    if (vec) {
        if (t->ncomp != 4) {
            spv_error(x, "%s_t reads return 4 components", tn ? tn : "image");
            return;
        }
        uint32_t r = spv_image_coord(x, co, nc, ISA_T_F32, icoord);
        isa_operand s = spv_src(x, &si->c[1]);
        xval *v = spv_def(x, f, spv_word(m, in, 2), 1);
        if (!v || !spv_alloc_regs(x, v, t))
            return;
        isa_opcode op = isa_types[et].is_float ? ISA_OP_SAMPLE_IMAGEVF
                      : isa_types[et].is_signed ? ISA_OP_SAMPLE_IMAGEVI
                                                : ISA_OP_SAMPLE_IMAGEVUI;
        isa_inst *i = spv_emit(x, op, et);
        i->vec = 4;
        i->space = ISA_SPACE_IMAGE;
        i->o[0] = v->c[0].o;
        i->o[1] = si->c[0].o;
        i->o[2] = spv_R(r);
        i->o[3] = s;
        i->nopnd = 4;
        return;
    }
    isa_operand c[2];
    for (int k = 0; k < 2; k++) {
        c[k] = spv_src(x, &co->c[k]);
        if (icoord) {
            uint32_t r = spv_reg(x, 1);
            isa_inst *cv = spv_emit(x, ISA_OP_CVT, ISA_T_F32);
            cv->src_type = ISA_T_I32;
            cv->o[0] = spv_R(r);
            cv->o[1] = c[k];
            cv->nopnd = 2;
            c[k] = spv_R(r);
        }
    }
    isa_operand s = spv_src(x, &si->c[1]);
    xval *v = spv_def(x, f, spv_word(m, in, 2), 1);
    if (!v || !spv_alloc_regs(x, v, t))
        return;
    isa_opcode op = isa_types[et].is_float ? ISA_OP_SAMPLE_IMAGEF
                  : isa_types[et].is_signed ? ISA_OP_SAMPLE_IMAGEI : ISA_OP_SAMPLE_IMAGEUI;
    isa_inst *i = spv_emit(x, op, et);
    i->vec = t->ncomp;
    i->space = ISA_SPACE_IMAGE;
    i->o[0] = v->c[0].o;
    i->o[1] = si->c[0].o;
    i->o[2] = c[0];
    i->o[3] = c[1];
    i->o[4] = s;
    i->nopnd = 5;
}

bool spv_op_sampler(xctx *x, xfn *f, const spv_inst *in)
{
    switch (in->op) {
    case SpvOpSampledImage: sampled_image(x, f, in); return true;
    case SpvOpImageSampleExplicitLod: sample(x, f, in); return true;
    default: return false;
    }
}
