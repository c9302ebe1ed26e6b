/*
 * validate.c - checks a kernel from any front end against the opcode table
 * (operand kinds by shape, types by row mask, register and branch ranges,
 * argument kinds), then derives the register demand and the reconvergence
 * points.  Errors point at the instruction's mnemonic.
 */
#include "isa_priv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct vctx {
    isa_kernel *k;
    isa_diags *d;
    int errors;
    const isa_inst *in;
    uint32_t pc;
    uint8_t *bytes;        /* per register widest use, ISA_MAX_VALUES entries */
    uint32_t nreg, npred;
    uint32_t max_reg;      /* ISA_MAX_VALUES with .regalloc, else ISA_MAX_REGS */
} vctx;

static void verr(vctx *v, unsigned opnd, const char *msg, const char *extra)
{
    const char *mn = v->in->op < ISA_OP_COUNT ? isa_ops[v->in->op].mnemonic : "?";
    if (opnd)
        isa_diags_add(v->d, v->in->line, v->in->col, "instruction %u ('%s'), operand %u: %s%s",
                      v->pc, mn, opnd, msg, extra ? extra : "");
    else
        isa_diags_add(v->d, v->in->line, v->in->col, "instruction %u ('%s'): %s%s",
                      v->pc, mn, msg, extra ? extra : "");
    v->errors++;
}

static void use_reg(vctx *v, unsigned r, unsigned n, unsigned bytes)
{
    for (unsigned i = 0; i < n && r + i < ISA_MAX_VALUES; i++) {
        if (v->bytes[r + i] < bytes)
            v->bytes[r + i] = (uint8_t)bytes;
        if (r + i + 1 > v->nreg)
            v->nreg = r + i + 1;
    }
}

static bool check_reg(vctx *v, unsigned i, unsigned r, unsigned n, isa_type t)
{
    if (r + n > v->max_reg) {
        verr(v, i + 1, "register out of range", NULL);
        return false;
    }
    use_reg(v, r, n, (unsigned)t < ISA_T_COUNT ? isa_types[t].bytes : 4);
    return true;
}

static bool check_pred(vctx *v, unsigned i, const isa_operand *o, bool allow_neg)
{
    if (o->kind != ISA_OPND_PRED) {
        verr(v, i + 1, "expected a predicate", NULL);
        return false;
    }
    if (o->reg >= ISA_MAX_PREDS) {
        verr(v, i + 1, "predicate out of range", NULL);
        return false;
    }
    if (o->negate && !allow_neg)
        verr(v, i + 1, "destination predicate cannot be negated", NULL);
    if (o->reg + 1u > v->npred)
        v->npred = o->reg + 1u;
    return true;
}

static bool arg_is_pointer(const isa_arg *a)
{
    return a->kind == ISA_ARG_GLOBAL || a->kind == ISA_ARG_CONSTANT || a->kind == ISA_ARG_LOCAL;
}

static void check_addr(vctx *v, unsigned i, const isa_operand *o)
{
    const isa_addr *a = &o->addr;
    const isa_op_info *oi = &isa_ops[v->in->op];
    if (o->kind != ISA_OPND_ADDR) {
        verr(v, i + 1, "expected an address", NULL);
        return;
    }
    if (a->base_kind == ISA_OPND_REG) {
        check_reg(v, i, a->base, 1, ISA_T_U64);   /* a 64-bit address */
    } else if (a->base_kind == ISA_OPND_ARG) {
        if (a->base >= v->k->narg) {
            verr(v, i + 1, "address base argument does not exist", NULL);
            return;
        }
        const isa_arg *arg = &v->k->args[a->base];
        if (!arg_is_pointer(arg)) {
            verr(v, i + 1, "address base argument is not a pointer: %", arg->name);
            return;
        }
        bool local = arg->kind == ISA_ARG_LOCAL;
        if (local != (v->in->space == ISA_SPACE_LOCAL) ||
            v->in->space == ISA_SPACE_PRIVATE)
            verr(v, i + 1, "address space does not match the pointer argument %", arg->name);
        if (arg->kind == ISA_ARG_CONSTANT && oi->family != ISA_FAM_LD &&
            oi->family != ISA_FAM_BLOCK_READ)
            verr(v, i + 1, "writes through a constant pointer: %", arg->name);
    } else if (a->base_kind == ISA_OPND_NONE) {
        /* [offset]: only the work-item's own private area has a fixed origin */
        if (v->in->space != ISA_SPACE_PRIVATE || a->has_index)
            verr(v, i + 1, "an address without a base must be [offset] in private memory",
                 NULL);
    } else {
        verr(v, i + 1, "address base must be a register or an argument", NULL);
    }
    if (a->has_index) {
        isa_type it = (isa_type)a->index_type;
        if (it != ISA_T_I32 && it != ISA_T_U32 && it != ISA_T_I64 && it != ISA_T_U64) {
            verr(v, i + 1, "index type must be i32, u32, i64 or u64", NULL);
            return;
        }
        check_reg(v, i, a->index, 1, it);
    }
}

/* Media block I/O: the coordinate is a register pair, the vector one of
 * the builtins' counts, and a width and height given as immediates one
 * that the extension's table allows (registers are checked at run time). */
static void check_media_block(vctx *v)
{
    const isa_inst *in = v->in;
    const unsigned c = isa_ops[in->op].shape == ISA_SHAPE_MB_LD ? 2 : 1;
    const unsigned es = in->type < ISA_T_COUNT ? isa_types[in->type].bytes : 0;
    const unsigned vec = in->vec ? in->vec : 1;
    char why[160];
    if (in->o[c].kind != ISA_OPND_REG)
        verr(v, c + 1, "the (x, y) coordinate must be a register pair", NULL);
    if (!(vec == 1 || vec == 2 || vec == 4 || vec == 8 || (vec == 16 && es <= 2))) {
        snprintf(why, sizeof why, "media block I/O of %u-byte elements takes 1, 2, 4, 8%s "
                 "components, not %u", es, es <= 2 ? " or 16" : "", vec);
        verr(v, 0, why, NULL);
    }
    const isa_operand *wo = &in->o[c + 1], *ho = &in->o[c + 2];
    unsigned maxh = 0;
    if (wo->kind == ISA_OPND_IMM) {
        const uint64_t w = (uint32_t)wo->imm;
        maxh = isa_media_block_max_rows((unsigned)(w <= 32 ? w * es : 0));
        if (!maxh) {
            snprintf(why, sizeof why, "media block width %lld (elements of %u bytes) is not "
                     "allowed: the width in bytes must be a multiple of 4 from 4 to 32",
                     (long long)(int32_t)wo->imm, es);
            verr(v, c + 2, why, NULL);
        }
    }
    if (ho->kind == ISA_OPND_IMM) {
        const int64_t h = (int32_t)ho->imm;
        if (h < 1 || h > 64 || (maxh && h > maxh)) {
            if (maxh)
                snprintf(why, sizeof why, "media block height %lld is not allowed: a block "
                         "%u bytes wide has 1 to %u rows", (long long)h,
                         (unsigned)(uint32_t)wo->imm * es, maxh);
            else
                snprintf(why, sizeof why, "media block height %lld is not allowed (1 to 64 "
                         "rows, fewer for wider blocks)", (long long)h);
            verr(v, c + 3, why, NULL);
        }
    }
}

static void check_src(vctx *v, unsigned i, const isa_operand *o, isa_type t, unsigned vec)
{
    const isa_kernel *k = v->k;
    switch (o->kind) {
    case ISA_OPND_REG:
        check_reg(v, i, o->reg, vec, t);
        break;
    case ISA_OPND_IMM:
        if ((unsigned)t >= ISA_T_COUNT) {
            verr(v, i + 1, "immediate without a type", NULL);
        } else if (isa_types[t].bytes < 8 && (o->imm >> (isa_types[t].bytes * 8u))) {
            verr(v, i + 1, "immediate has bits above its type's width", NULL);
        }
        break;
    case ISA_OPND_ARG:
        if (o->reg >= k->narg)
            verr(v, i + 1, "argument does not exist", NULL);
        else if (k->args[o->reg].kind == ISA_ARG_IMAGE2D)
            verr(v, i + 1, "image argument used as a value: %", k->args[o->reg].name);
        break;
    case ISA_OPND_SPECIAL:
        if (o->reg >= ISA_SP_COUNT)
            verr(v, i + 1, "unknown special", NULL);
        else if (o->dim > 2 || (!isa_specials[o->reg].takes_dim && o->dim))
            verr(v, i + 1, "bad dimension for %", isa_specials[o->reg].name);
        break;
    default:
        verr(v, i + 1, "expected a register, immediate, argument or special", NULL);
    }
}

static void check_types(vctx *v)
{
    const isa_inst *in = v->in;
    const isa_op_info *oi = &isa_ops[in->op];
    if (oi->types == ISA_TM_NONE) {
        if (in->type != ISA_T_NONE)
            verr(v, 0, "this instruction takes no type", NULL);
        return;
    }
    if (in->type >= ISA_T_COUNT || !(oi->types & (1u << in->type))) {
        verr(v, 0, "type not allowed: ",
             in->type < ISA_T_COUNT ? isa_types[in->type].asm_name : "none");
        return;
    }
    unsigned n = in->vec;
    if (n != 1 && n != 2 && n != 3 && n != 4 && n != 8 && n != 16)
        verr(v, 0, "bad vector width", NULL);
    else if (n > 1 && !(oi->types & ISA_TM_VEC))
        verr(v, 0, "vector types not allowed", NULL);
    if (oi->family == ISA_FAM_CVT) {
        if (in->src_type >= ISA_T_COUNT || !(oi->types & (1u << in->src_type)))
            verr(v, 0, "bad source type for cvt", NULL);
    } else if (in->src_type != in->type) {
        verr(v, 0, "src_type differs from type", NULL);
    }
}

static void check_mods(vctx *v)
{
    const isa_inst *in = v->in;
    const isa_op_info *oi = &isa_ops[in->op];
    if (oi->family == ISA_FAM_CMP) {
        if (in->cond < ISA_BINOP_EQ || in->cond > ISA_BINOP_GE)
            verr(v, 0, "cmp needs a condition eq..ge", NULL);
    } else if (in->cond != ISA_BINOP_NONE) {
        verr(v, 0, "condition on a non-compare", NULL);
    }
    if (in->space >= ISA_SPACE_COUNT)
        verr(v, 0, "bad address space", NULL);
    else if (isa_op_takes_space(oi) && in->space == ISA_SPACE_IMAGE)
        verr(v, 0, "image space on a buffer access", NULL);
    unsigned rnd = (in->flags & ISA_F_RND_MASK) >> ISA_F_RND_SHIFT;
    if (rnd >= ISA_RND_COUNT)
        verr(v, 0, "bad rounding mode", NULL);
    else if (rnd && oi->family != ISA_FAM_CVT &&
             !(isa_op_arith(in->op) && in->type < ISA_T_COUNT &&
               isa_types[in->type].is_float))
        verr(v, 0, "rounding mode not allowed", NULL);
}

/* printf.i32 rD, FORMAT, RECORD: both immediates; the format exists and
 * its record lies in private memory. */
static void check_printf(vctx *v)
{
    const isa_inst *in = v->in;
    if (in->nopnd != 3 || in->o[1].kind != ISA_OPND_IMM || in->o[2].kind != ISA_OPND_IMM) {
        verr(v, 0, "printf takes a destination, a format index and a record offset, "
             "both immediates", NULL);
        return;
    }
    if (in->o[1].imm >= v->k->nprintf) {
        verr(v, 2, "no such .printf format", NULL);
        return;
    }
    if (in->o[2].imm % 8 ||
        in->o[2].imm + v->k->printf_fmts[in->o[1].imm].rec_bytes > v->k->private_mem)
        verr(v, 3, "the argument record must be 8-byte aligned and lie inside .private_mem",
             NULL);
}

static void check_inst(vctx *v)
{
    const isa_inst *in = v->in;
    if (in->op >= ISA_OP_COUNT) {
        verr(v, 0, "unknown opcode", NULL);
        return;
    }
    const isa_op_info *oi = &isa_ops[in->op];
    const isa_shape_pat *pat = &isa_shape_pats[oi->shape];
    size_t maxn = strlen(pat->pat);
    if (in->nopnd < pat->min || in->nopnd > maxn) {
        verr(v, 0, "wrong number of operands", NULL);
        return;
    }
    check_types(v);
    check_mods(v);
    if (oi->family == ISA_FAM_PRINTF)
        check_printf(v);
    if (oi->shape == ISA_SHAPE_MB_LD || oi->shape == ISA_SHAPE_MB_ST)
        check_media_block(v);
    for (unsigned i = 0; i < in->nopnd; i++) {
        const isa_operand *o = &in->o[i];
        unsigned vec;
        isa_type t = isa_opnd_type(in, i, &vec);
        switch (isa_shape_letter(oi->shape, in->nopnd, i)) {
        case 'd':
            if (o->kind != ISA_OPND_REG)
                verr(v, i + 1, "expected a destination register", NULL);
            else
                check_reg(v, i, o->reg, vec, t);
            break;
        case 'P': check_pred(v, i, o, false); break;
        case 'q': check_pred(v, i, o, true); break;
        case 's': check_src(v, i, o, t, vec); break;
        case 'a': check_addr(v, i, o); break;
        case 'l':
            if (o->kind != ISA_OPND_LABEL)
                verr(v, i + 1, "expected a label", NULL);
            else if (in->target > v->k->ninst)
                verr(v, i + 1, "branch target out of range", NULL);
            break;
        case 'i': {
            /* image2d_t takes the scalar-coordinate forms (and block I/O);
             * every other image type the coordinate-vector forms */
            bool vform = oi->shape == ISA_SHAPE_IMGV_LD || oi->shape == ISA_SHAPE_IMGV_SMP ||
                         oi->shape == ISA_SHAPE_IMGV_ST;
            const isa_arg *ia = o->kind == ISA_OPND_ARG && o->reg < v->k->narg
                                    ? &v->k->args[o->reg] : NULL;
            bool plain2d = ia && (ia->dims == 2 || ia->dims == 0) && !ia->arrayed &&
                           !ia->img_buffer;
            if (!ia || ia->kind != ISA_ARG_IMAGE2D)
                verr(v, i + 1, "expected an image argument", NULL);
            else if (oi->family != ISA_FAM_IMG_QUERY && plain2d == vform) {
                char why[192];
                const char *tn = isa_image_type_name(ia->dims, ia->arrayed, ia->img_buffer);
                snprintf(why, sizeof why, vform ? "read_imagev* / sample_imagev* / write_imagev* "
                                                  "take an image of any type but image2d: %%"
                                                : "an %s argument is accessed with read_imagev* / "
                                                  "sample_imagev* / write_imagev* only (no block "
                                                  "I/O): %%", tn ? tn : "image");
                verr(v, i + 1, why, ia->name);
            }
            else if (oi->shape == ISA_SHAPE_IMGV_SMP && ia->img_buffer)
                verr(v, i + 1, "an image1d_buffer has no sampled reads: %", ia->name);
            if ((oi->shape == ISA_SHAPE_IMGV_LD || oi->shape == ISA_SHAPE_IMGV_SMP) &&
                in->vec != 4)
                verr(v, 0, "read_imagev* / sample_imagev* return 4 components (.x4)", NULL);
            if ((oi->shape == ISA_SHAPE_IMGV_LD || oi->shape == ISA_SHAPE_IMGV_SMP) &&
                in->o[2].kind != ISA_OPND_REG)
                verr(v, 3, "the image coordinate must be a register vector", NULL);
            if (oi->shape == ISA_SHAPE_IMGV_ST && in->o[1].kind != ISA_OPND_REG)
                verr(v, 2, "the image coordinate must be a register vector", NULL);
            break;
        }
        default:
            break;
        }
    }
}

/* Bytes of data block argument a (.const_data / .global_data), or -1 if a
 * is neither. */
static int64_t block_bytes(const isa_kernel *k, uint32_t a)
{
    if (k->const_arg && a == k->const_arg - 1)
        return k->const_bytes;
    if (k->global_arg && a == k->global_arg - 1)
        return k->global_bytes;
    return -1;
}

/* By-value arguments are `constant` buffers of their size: a vector's size
 * is its components' (a 3-vector takes 4), and the OpenCL spelling is a
 * string. */
static int check_byval(const isa_kernel *k, isa_diags *diags)
{
    int errors = 0;
    for (uint32_t i = 0; i < k->narg; i++) {
        const isa_arg *a = &k->args[i];
        unsigned n = a->byval_vec;
        bool vec_ok = n == 0 || ((n == 2 || n == 3 || n == 4 || n == 8 || n == 16) &&
                                 a->type < ISA_T_COUNT &&
                                 a->byval == isa_types[a->type].bytes * (n == 3 ? 4u : n));
        if ((a->byval || n) &&
            (a->kind != ISA_ARG_CONSTANT || !a->byval || !vec_ok ||
             !memchr(a->cl_type, 0, sizeof a->cl_type))) {
            isa_diags_add(diags, a->line ? a->line : 1, 1, "by-value argument '%.63s' must be "
                          "a constant buffer of its size (%u bytes, %u components)", a->name,
                          a->byval, n);
            errors++;
        }
    }
    return errors;
}

/* .global_data, .data_reloc and .global_var: the block is a `global`
 * argument with its bytes; every pointer and variable lies inside its block
 * and every address inside (or one past the end of) its target.  Entries
 * that fail are dropped so that the engine never sees them. */
static int check_global_data(isa_kernel *k, isa_diags *diags)
{
    int errors = 0;
    if (k->global_arg && (k->global_arg > k->narg || k->global_arg == k->const_arg ||
                          k->args[k->global_arg - 1].kind != ISA_ARG_GLOBAL ||
                          (k->global_bytes && !k->global_data))) {
        isa_diags_add(diags, 1, 1, ".global_data must name a global argument with its bytes");
        errors++;
        k->global_arg = 0;
    }
    uint32_t n = 0;
    for (uint32_t i = 0; i < k->nreloc; i++) {
        const isa_reloc *r = &k->relocs[i];
        int64_t hb = block_bytes(k, r->arg), tb = block_bytes(k, r->target);
        if (hb < 0 || tb < 0 || (uint64_t)r->offset + 8 > (uint64_t)hb ||
            r->addend < 0 || r->addend > tb) {
            isa_diags_add(diags, 1, 1, ".data_reloc %u: the pointer at offset %u must lie "
                          "in a data block and point into one (addend %lld)", i, r->offset,
                          (long long)r->addend);
            errors++;
            continue;
        }
        k->relocs[n++] = *r;
    }
    k->nreloc = n;
    n = 0;
    for (uint32_t i = 0; i < k->ngvar; i++) {
        const isa_gvar *g = &k->gvars[i];
        if (!k->global_arg || (uint64_t)g->offset + g->bytes > k->global_bytes ||
            g->type >= ISA_T_COUNT || !g->name[0] || !memchr(g->name, 0, sizeof g->name)) {
            isa_diags_add(diags, 1, 1, ".global_var %u: a variable must lie inside the "
                          ".global_data block and have a type", i);
            errors++;
            continue;
        }
        k->gvars[n++] = *g;
    }
    k->ngvar = n;
    return errors;
}

int isa_validate(isa_kernel *k, isa_diags *diags)
{
    vctx v;
    memset(&v, 0, sizeof v);
    v.k = k;
    v.d = diags;
    v.max_reg = k->regalloc == ISA_RA_VALUES ? ISA_MAX_VALUES : ISA_MAX_REGS;
    v.bytes = calloc(ISA_MAX_VALUES, 1);
    if (!v.bytes) {
        isa_diags_add(diags, 1, 1, "out of memory");
        return 1;
    }
    if (k->narg > ISA_MAX_ARGS) {
        isa_diags_add(diags, 1, 1, "too many arguments");
        v.errors++;
        k->narg = ISA_MAX_ARGS;
    }
    if (k->const_arg && (k->const_arg > k->narg ||
                         k->args[k->const_arg - 1].kind != ISA_ARG_CONSTANT ||
                         (k->const_bytes && !k->const_data))) {
        isa_diags_add(diags, 1, 1, ".const_data must name a constant argument with its bytes");
        v.errors++;
        k->const_arg = 0;
    }
    v.errors += check_byval(k, diags);
    v.errors += check_global_data(k, diags);
    if (k->ninst && !k->inst) {
        isa_diags_add(diags, 1, 1, "kernel has no instruction array");
        free(v.bytes);
        return v.errors + 1;
    }
    for (uint32_t pc = 0; pc < k->ninst; pc++) {
        v.pc = pc;
        v.in = &k->inst[pc];
        check_inst(&v);
    }
    free(k->reg_bytes);
    k->reg_bytes = NULL;
    k->nreg = v.nreg;
    k->npred = v.npred;
    k->grf_bytes_per_lane = 0;
    if (v.nreg) {
        k->reg_bytes = malloc(v.nreg);
        if (k->reg_bytes)
            memcpy(k->reg_bytes, v.bytes, v.nreg);
        for (uint32_t r = 0; r < v.nreg; r++)
            k->grf_bytes_per_lane += v.bytes[r];
    }
    free(v.bytes);
    if (!v.errors)
        isa_compute_reconvergence(k);
    return v.errors;
}
