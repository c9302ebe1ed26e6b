/* spirv_emit.c - the translator's building blocks: instruction emission,
 * registers, predicates, labels and branches, the value of each SPIR-V id,
 * address operands. */
#include "spirv_private.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

void spv_error(xctx *x, const char *fmt, ...)
{
    char msg[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (!x->failed && x->cur && !x->cur->line)    /* no source line: name the instruction */
        isa_diags_add(x->m->d, 0, 0, "kernel '%s': SPIR-V instruction %u (no source line): "
                      "%s: %s", x->kname, (unsigned)(x->cur - x->m->ins) + 1,
                      spv_op_name(x->cur->op), msg);
    else if (!x->failed)
        isa_diags_add(x->m->d, x->cur ? x->cur->line : 1, 1, "kernel '%s': %s%s%s", x->kname,
                      x->cur ? spv_op_name(x->cur->op) : "", x->cur ? ": " : "", msg);
    x->failed = true;
}

isa_inst *spv_emit(xctx *x, isa_opcode op, isa_type t)
{
    static isa_inst dummy;
    if (x->ncode == x->capcode) {
        uint32_t nc = x->capcode ? x->capcode * 2 : 256;
        isa_inst *ni = realloc(x->code, nc * sizeof *ni);
        uint8_t *np = realloc(x->pure, nc);
        if (ni) x->code = ni;
        if (np) x->pure = np;
        if (!ni || !np || nc > (1u << 22)) {
            spv_error(x, "out of memory (or kernel too large)");
            memset(&dummy, 0, sizeof dummy);
            return &dummy;
        }
        x->capcode = nc;
    }
    isa_inst *in = &x->code[x->ncode];
    memset(in, 0, sizeof *in);
    in->op = (uint16_t)op;
    in->type = (uint8_t)t;
    in->src_type = (uint8_t)t;
    in->vec = 1;
    /* the source line, or 0 and the SPIR-V instruction number (isa.h) */
    in->line = x->cur ? x->cur->line : 0;
    in->col = x->cur ? (in->line ? 1 : (uint32_t)(x->cur - x->m->ins) + 1) : 0;
    in->reconv = ISA_PC_EXIT;
    x->pure[x->ncode] = isa_op_pure(op);
    x->ncode++;
    return in;
}

uint32_t spv_reg(xctx *x, unsigned n)
{
    uint32_t r = x->nreg;
    x->nreg += n;
    if (x->nreg > ISA_MAX_VALUES) {
        spv_error(x, "the kernel needs more than %d value registers", ISA_MAX_VALUES);
        x->nreg = 0;
        return 0;
    }
    return r;
}

isa_operand spv_R(uint32_t r)
{
    isa_operand o;
    memset(&o, 0, sizeof o);
    o.kind = ISA_OPND_REG;
    o.reg = (uint16_t)r;
    return o;
}

isa_operand spv_I(uint64_t bits)
{
    isa_operand o;
    memset(&o, 0, sizeof o);
    o.kind = ISA_OPND_IMM;
    o.imm = bits;
    return o;
}

isa_operand spv_P(uint32_t p, bool neg)
{
    isa_operand o;
    memset(&o, 0, sizeof o);
    o.kind = ISA_OPND_PRED;
    o.reg = (uint16_t)p;
    o.negate = neg;
    return o;
}

static isa_operand lbl(uint32_t l)
{
    isa_operand o;
    memset(&o, 0, sizeof o);
    o.kind = ISA_OPND_LABEL;
    o.reg = 0;
    o.imm = l;
    return o;
}

uint32_t spv_pred(xctx *x, uint32_t *gen)
{
    uint32_t p = x->pool_next++ % ISA_MAX_PREDS;
    x->slot_gen[p] = ++x->gen;
    *gen = x->gen;
    return p;
}

isa_type spv_signed(isa_type t)
{
    switch (t) {
    case ISA_T_U8: return ISA_T_I8;
    case ISA_T_U16: return ISA_T_I16;
    case ISA_T_U32: return ISA_T_I32;
    case ISA_T_U64: return ISA_T_I64;
    default: return t;
    }
}

const spv_type *spv_type_lookup(xctx *x, uint32_t id)
{
    if (id == 0 || id >= x->m->bound || x->m->types[id].kind == SPV_TY_NONE) {
        spv_error(x, "id %u is not a type", id);
        return NULL;
    }
    return &x->m->types[id];
}

const spv_type *spv_value_type(xctx *x, uint32_t id)
{
    spv_module *m = x->m;
    if (!id || id >= m->bound || !m->def[id])
        return NULL;
    const spv_inst *d = &m->ins[m->def[id] - 1];
    const spv_op_info *oi = spv_op_find(d->op);
    return oi && oi->has_type ? spv_type_lookup(x, spv_word(m, d, 1)) : NULL;
}

xval *spv_val(xctx *x, xfn *f, uint32_t id)
{
    if (id && id < x->m->bound) {
        if (f && f->v[id])
            return f->v[id];
        if (x->gv[id])
            return x->gv[id];
    }
    spv_error(x, "id %u is used but has no value here%s%s", id,
            id < x->m->bound && x->m->name[id] ? " (" : "",
            id < x->m->bound && x->m->name[id] ? x->m->name[id] : "");
    return NULL;
}

xval *spv_def(xctx *x, xfn *f, uint32_t id, unsigned n)
{
    xval **slot = f ? &f->v[id] : &x->gv[id];
    if (id == 0 || id >= x->m->bound) {
        spv_error(x, "result id %u out of bounds", id);
        return NULL;
    }
    if (!*slot)
        *slot = calloc(1, sizeof **slot);
    if (!*slot) {
        spv_error(x, "out of memory");
        return NULL;
    }
    memset(*slot, 0, sizeof **slot);
    (*slot)->n = (uint8_t)(n > XV_MAX ? XV_MAX : n);
    for (unsigned i = 0; i < XV_MAX; i++)
        (*slot)->c[i].space = X_SPACE_NONE;
    return *slot;
}

uint32_t spv_new_label(xctx *x)
{
    if (x->nlabel == x->caplabel) {
        uint32_t nc = x->caplabel ? x->caplabel * 2 : 64;
        uint32_t *nl = realloc(x->label_pc, nc * sizeof *nl);
        if (!nl) {
            spv_error(x, "out of memory");
            return 0;
        }
        x->label_pc = nl;
        x->caplabel = nc;
    }
    x->label_pc[x->nlabel] = ISA_PC_EXIT;
    return x->nlabel++;
}

void spv_place_label(xctx *x, uint32_t l)
{
    if (l < x->nlabel)
        x->label_pc[l] = x->ncode;
    x->block_no++;        /* predicates do not survive a join */
}

void spv_emit_bra(xctx *x, const isa_operand *p, uint32_t l)
{
    isa_inst *in = spv_emit(x, ISA_OP_BRA, ISA_T_NONE);
    unsigned n = 0;
    if (p)
        in->o[n++] = *p;
    in->o[n++] = lbl(l);
    in->nopnd = (uint8_t)n;
}

/* Materialise an address expression into a u64 register. */
isa_operand spv_addr_to_reg(xctx *x, const isa_addr *a)
{
    isa_operand base = a->base_kind == ISA_OPND_ARG ? spv_R(0) : spv_R(a->base);
    if (a->base_kind == ISA_OPND_ARG) {
        memset(&base, 0, sizeof base);
        base.kind = ISA_OPND_ARG;
        base.reg = a->base;
    }
    if (!a->has_index && a->disp == 0)
        return base;
    uint32_t r = spv_reg(x, 1);
    if (a->has_index) {
        isa_operand idx = spv_R(a->index);
        if (a->index_type == ISA_T_I32 || a->index_type == ISA_T_U32) {
            uint32_t t = spv_reg(x, 1);
            isa_inst *c = spv_emit(x, ISA_OP_CVT, ISA_T_U64);
            c->src_type = (uint8_t)a->index_type;
            c->type = a->index_type == ISA_T_I32 ? ISA_T_I64 : ISA_T_U64;
            c->o[0] = spv_R(t);
            c->o[1] = idx;
            c->nopnd = 2;
            idx = spv_R(t);
        }
        isa_inst *in = spv_emit(x, ISA_OP_MAD, ISA_T_U64);
        in->o[0] = spv_R(r);
        in->o[1] = idx;
        in->o[2] = spv_I((uint64_t)(int64_t)a->scale);
        in->o[3] = base;
        in->nopnd = 4;
        if (a->disp) {
            in = spv_emit(x, ISA_OP_ADD, ISA_T_U64);
            in->o[0] = spv_R(r);
            in->o[1] = spv_R(r);
            in->o[2] = spv_I((uint64_t)a->disp);
            in->nopnd = 3;
        }
    } else {
        isa_inst *in = spv_emit(x, ISA_OP_ADD, ISA_T_U64);
        in->o[0] = spv_R(r);
        in->o[1] = base;
        in->o[2] = spv_I((uint64_t)a->disp);
        in->nopnd = 3;
    }
    return spv_R(r);
}

isa_operand spv_src(xctx *x, const xc *c)
{
    if (c->o.kind == ISA_OPND_ADDR)
        return spv_addr_to_reg(x, &c->o.addr);
    if (c->o.kind == ISA_OPND_NONE || c->o.kind == ISA_OPND_PRED)
        return spv_I(0);
    return c->o;
}

isa_operand spv_predof(xctx *x, const xc *c)
{
    if (c->has_pred && x->slot_gen[c->pred] == c->pgen && c->pblock == x->block_no)
        return spv_P(c->pred, c->pred_neg);
    uint32_t gen, p = spv_pred(x, &gen);
    const isa_operand src = spv_src(x, c);   /* before the emit: it may emit too */
    isa_inst *in = spv_emit(x, ISA_OP_CMP, ISA_T_U32);
    in->cond = ISA_BINOP_NE;
    in->o[0] = spv_P(p, false);
    in->o[1] = src;
    in->o[2] = spv_I(0);
    in->nopnd = 3;
    return spv_P(p, false);
}

void spv_set_bool(xctx *x, xc *c, uint32_t p, uint32_t gen, bool neg)
{
    uint32_t r = spv_sel(x, ISA_T_U32, spv_P(p, neg), spv_I(1), spv_I(0));
    c->o = spv_R(r);
    c->has_pred = 1;
    c->pred = (uint8_t)p;
    c->pred_neg = neg;
    c->pgen = gen;
    c->pblock = x->block_no;
}

/* An address operand for a pointer component; *space gets its space. */
isa_operand spv_addr_of(xctx *x, const xc *c, isa_space *space)
{
    isa_operand o;
    memset(&o, 0, sizeof o);
    o.kind = ISA_OPND_ADDR;
    *space = c->space == X_SPACE_NONE ? ISA_SPACE_GLOBAL : (isa_space)c->space;
    if (c->space == X_SPACE_NONE)
        spv_error(x, "pointer of unknown address space (generic pointers are supported only "
                   "when their origin is known)");
    if (c->o.kind == ISA_OPND_ADDR)
        return c->o;
    if (c->o.kind == ISA_OPND_ARG) {
        o.addr.base_kind = ISA_OPND_ARG;
        o.addr.base = c->o.reg;
        return o;
    }
    isa_operand r = c->o;
    if (r.kind != ISA_OPND_REG) {
        uint32_t t = spv_reg(x, 1);
        const isa_operand src = spv_src(x, c);
        isa_inst *in = spv_emit(x, ISA_OP_MOV, ISA_T_U64);
        in->o[0] = spv_R(t);
        in->o[1] = src;
        in->nopnd = 2;
        r = spv_R(t);
    }
    o.addr.base_kind = ISA_OPND_REG;
    o.addr.base = r.reg;
    return o;
}

isa_space spv_space_of_sc(uint32_t sc)
{
    switch (sc) {
    case SpvStorageClassCrossWorkgroup: return ISA_SPACE_GLOBAL;
    case SpvStorageClassUniformConstant: return ISA_SPACE_CONSTANT;
    case SpvStorageClassWorkgroup: return ISA_SPACE_LOCAL;
    case SpvStorageClassFunction: return ISA_SPACE_PRIVATE;
    default: return (isa_space)X_SPACE_NONE;
    }
}

/* Fill `dst` component-wise with fresh registers for a value of type t. */
bool spv_alloc_regs(xctx *x, xval *v, const spv_type *t)
{
    if (!t || (t->kind != SPV_TY_INT && t->kind != SPV_TY_FLOAT && t->kind != SPV_TY_BOOL &&
               t->kind != SPV_TY_VEC && t->kind != SPV_TY_PTR)) {
        spv_error(x, "values of this type (aggregate or opaque) are not supported here");
        return false;
    }
    uint32_t r = spv_reg(x, t->ncomp);
    v->n = t->ncomp;
    for (unsigned i = 0; i < t->ncomp; i++) {
        v->c[i].o = spv_R(r + i);
        if (t->kind == SPV_TY_PTR)
            v->c[i].space = (uint8_t)spv_space_of_sc(t->sc);
    }
    return true;
}

/* Component isa type of a value type (pointers and bools as integers). */
isa_type spv_comp_type(const spv_type *t)
{
    return t && t->isa_t != ISA_T_NONE ? (isa_type)t->isa_t : ISA_T_U64;
}

uint32_t spv_image_coord(xctx *x, const xval *c, unsigned n, isa_type t, bool icvt)
{
    uint32_t r = spv_reg(x, 4);
    for (unsigned i = 0; i < 4; i++) {
        const isa_operand src = i < n ? spv_src(x, &c->c[i]) : spv_I(0);
        isa_inst *in = spv_emit(x, icvt && i < n ? ISA_OP_CVT : ISA_OP_MOV, t);
        if (icvt && i < n)
            in->src_type = ISA_T_I32;
        in->o[0] = spv_R(r + i);
        in->o[1] = src;
        in->nopnd = 2;
    }
    return r;
}

/* Put value components into consecutive registers (for vector ld/st). */
uint32_t spv_gather(xctx *x, const xval *v, isa_type t)
{
    bool ok = v->c[0].o.kind == ISA_OPND_REG;
    for (unsigned i = 1; i < v->n && ok; i++)
        ok = v->c[i].o.kind == ISA_OPND_REG && v->c[i].o.reg == v->c[0].o.reg + i;
    if (ok)
        return v->c[0].o.reg;
    uint32_t r = spv_reg(x, v->n);
    for (unsigned i = 0; i < v->n; i++) {
        /* the source first: an address expression emits its computation,
         * which may move the code array under a pointer taken before */
        const isa_operand src = spv_src(x, &v->c[i]);
        isa_inst *in = spv_emit(x, ISA_OP_MOV, t);
        in->o[0] = spv_R(r + i);
        in->o[1] = src;
        in->nopnd = 2;
    }
    return r;
}
