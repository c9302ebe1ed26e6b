/* spirv_translate.c - SPIR-V kernel -> isa_kernel: values and registers,
 * function inlining, control flow (phi copies on edges), memory, atomics,
 * barriers, built-ins and composites.  Arithmetic and group operations are
 * in spirv_ops.c. */
#include "spirv_xlate.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* ------------------------------------------------------------ helpers */

void x_error(xctx *x, const char *fmt, ...)
{
    char msg[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (!x->failed)
        isa_diags_add(x->m->d, x->cur ? x->cur->line : 1, 1, "kernel '%s': %s%s%s", x->kname,
                      x->cur ? spv_op_name(x->cur->op) : "", x->cur ? ": " : "", msg);
    x->failed = true;
}

isa_inst *x_emit(xctx *x, isa_opcode op, isa_type t)
{
    static isa_inst dummy;
    if (x->ncode == x->capcode) {
        uint32_t nc = x->capcode ? x->capcode * 2 : 256;
        isa_inst *ni = realloc(x->code, nc * sizeof *ni);
        uint8_t *np = realloc(x->pure, nc);
        if (ni) x->code = ni;
        if (np) x->pure = np;
        if (!ni || !np || nc > (1u << 22)) {
            x_error(x, "out of memory (or kernel too large)");
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
    in->line = x->cur ? x->cur->line : 1;
    in->col = 1;
    in->reconv = ISA_PC_EXIT;
    isa_family fam = isa_ops[op].family;
    x->pure[x->ncode] = (fam <= ISA_FAM_COS && fam != ISA_FAM_DIV && fam != ISA_FAM_REM) ||
                        isa_family_is_math(fam) ||
                        fam == ISA_FAM_MOV || fam == ISA_FAM_CMP || fam == ISA_FAM_SEL ||
                        fam == ISA_FAM_CVT || (fam >= ISA_FAM_PAND && fam <= ISA_FAM_PNOT);
    x->ncode++;
    return in;
}

uint32_t x_reg(xctx *x, unsigned n)
{
    uint32_t r = x->nreg;
    x->nreg += n;
    if (x->nreg > ISA_MAX_REGS) {
        x_error(x, "the kernel needs more than %d registers", ISA_MAX_REGS);
        x->nreg = 0;
        return 0;
    }
    return r;
}

isa_operand x_R(uint32_t r)
{
    isa_operand o;
    memset(&o, 0, sizeof o);
    o.kind = ISA_OPND_REG;
    o.reg = (uint16_t)r;
    return o;
}

isa_operand x_I(uint64_t bits)
{
    isa_operand o;
    memset(&o, 0, sizeof o);
    o.kind = ISA_OPND_IMM;
    o.imm = bits;
    return o;
}

isa_operand x_P(uint32_t p, bool neg)
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

uint32_t x_pred(xctx *x, uint32_t *gen)
{
    uint32_t p = x->pool_next++ % ISA_MAX_PREDS;
    x->slot_gen[p] = ++x->gen;
    *gen = x->gen;
    return p;
}

isa_type x_signed(isa_type t)
{
    switch (t) {
    case ISA_T_U8: return ISA_T_I8;
    case ISA_T_U16: return ISA_T_I16;
    case ISA_T_U32: return ISA_T_I32;
    case ISA_T_U64: return ISA_T_I64;
    default: return t;
    }
}

const spv_type *x_type(xctx *x, uint32_t id)
{
    if (id == 0 || id >= x->m->bound || x->m->types[id].kind == SPV_TY_NONE) {
        x_error(x, "id %u is not a type", id);
        return NULL;
    }
    return &x->m->types[id];
}

const spv_type *x_value_type(xctx *x, uint32_t id)
{
    spv_module *m = x->m;
    if (!id || id >= m->bound || !m->def[id])
        return NULL;
    const spv_inst *d = &m->ins[m->def[id] - 1];
    const spv_op_info *oi = spv_op_find(d->op);
    return oi && oi->has_type ? x_type(x, spv_word(m, d, 1)) : NULL;
}

xval *x_val(xctx *x, xfn *f, uint32_t id)
{
    if (id && id < x->m->bound) {
        if (f && f->v[id])
            return f->v[id];
        if (x->gv[id])
            return x->gv[id];
    }
    x_error(x, "id %u is used but has no value here%s%s", id,
            id < x->m->bound && x->m->name[id] ? " (" : "",
            id < x->m->bound && x->m->name[id] ? x->m->name[id] : "");
    return NULL;
}

xval *x_def(xctx *x, xfn *f, uint32_t id, unsigned n)
{
    xval **slot = f ? &f->v[id] : &x->gv[id];
    if (id == 0 || id >= x->m->bound) {
        x_error(x, "result id %u out of bounds", id);
        return NULL;
    }
    if (!*slot)
        *slot = calloc(1, sizeof **slot);
    if (!*slot) {
        x_error(x, "out of memory");
        return NULL;
    }
    memset(*slot, 0, sizeof **slot);
    (*slot)->n = (uint8_t)(n > XV_MAX ? XV_MAX : n);
    for (unsigned i = 0; i < XV_MAX; i++)
        (*slot)->c[i].space = X_SPACE_NONE;
    return *slot;
}

static uint32_t new_label(xctx *x)
{
    if (x->nlabel == x->caplabel) {
        uint32_t nc = x->caplabel ? x->caplabel * 2 : 64;
        uint32_t *nl = realloc(x->label_pc, nc * sizeof *nl);
        if (!nl) {
            x_error(x, "out of memory");
            return 0;
        }
        x->label_pc = nl;
        x->caplabel = nc;
    }
    x->label_pc[x->nlabel] = ISA_PC_EXIT;
    return x->nlabel++;
}

static void place_label(xctx *x, uint32_t l)
{
    if (l < x->nlabel)
        x->label_pc[l] = x->ncode;
    x->block_no++;        /* predicates do not survive a join */
}

static void emit_bra(xctx *x, const isa_operand *p, uint32_t l)
{
    isa_inst *in = x_emit(x, ISA_OP_BRA, ISA_T_NONE);
    unsigned n = 0;
    if (p)
        in->o[n++] = *p;
    in->o[n++] = lbl(l);
    in->nopnd = (uint8_t)n;
}

/* Materialise an address expression into a u64 register. */
static isa_operand addr_to_reg(xctx *x, const isa_addr *a)
{
    isa_operand base = a->base_kind == ISA_OPND_ARG ? x_R(0) : x_R(a->base);
    if (a->base_kind == ISA_OPND_ARG) {
        memset(&base, 0, sizeof base);
        base.kind = ISA_OPND_ARG;
        base.reg = a->base;
    }
    if (!a->has_index && a->disp == 0)
        return base;
    uint32_t r = x_reg(x, 1);
    if (a->has_index) {
        isa_operand idx = x_R(a->index);
        if (a->index_type == ISA_T_I32 || a->index_type == ISA_T_U32) {
            uint32_t t = x_reg(x, 1);
            isa_inst *c = x_emit(x, ISA_OP_CVT, ISA_T_U64);
            c->src_type = (uint8_t)a->index_type;
            c->type = a->index_type == ISA_T_I32 ? ISA_T_I64 : ISA_T_U64;
            c->o[0] = x_R(t);
            c->o[1] = idx;
            c->nopnd = 2;
            idx = x_R(t);
        }
        isa_inst *in = x_emit(x, ISA_OP_MAD, ISA_T_U64);
        in->o[0] = x_R(r);
        in->o[1] = idx;
        in->o[2] = x_I((uint64_t)(int64_t)a->scale);
        in->o[3] = base;
        in->nopnd = 4;
        if (a->disp) {
            in = x_emit(x, ISA_OP_ADD, ISA_T_U64);
            in->o[0] = x_R(r);
            in->o[1] = x_R(r);
            in->o[2] = x_I((uint64_t)a->disp);
            in->nopnd = 3;
        }
    } else {
        isa_inst *in = x_emit(x, ISA_OP_ADD, ISA_T_U64);
        in->o[0] = x_R(r);
        in->o[1] = base;
        in->o[2] = x_I((uint64_t)a->disp);
        in->nopnd = 3;
    }
    return x_R(r);
}

isa_operand x_src(xctx *x, const xc *c)
{
    if (c->o.kind == ISA_OPND_ADDR)
        return addr_to_reg(x, &c->o.addr);
    if (c->o.kind == ISA_OPND_NONE || c->o.kind == ISA_OPND_PRED)
        return x_I(0);
    return c->o;
}

isa_operand x_predof(xctx *x, const xc *c)
{
    if (c->has_pred && x->slot_gen[c->pred] == c->pgen && c->pblock == x->block_no)
        return x_P(c->pred, c->pred_neg);
    uint32_t gen, p = x_pred(x, &gen);
    isa_inst *in = x_emit(x, ISA_OP_CMP, ISA_T_U32);
    in->cond = ISA_BINOP_NE;
    in->o[0] = x_P(p, false);
    in->o[1] = x_src(x, c);
    in->o[2] = x_I(0);
    in->nopnd = 3;
    return x_P(p, false);
}

void x_set_bool(xctx *x, xc *c, uint32_t p, uint32_t gen, bool neg)
{
    uint32_t r = x_sel(x, ISA_T_U32, x_P(p, neg), x_I(1), x_I(0));
    c->o = x_R(r);
    c->has_pred = 1;
    c->pred = (uint8_t)p;
    c->pred_neg = neg;
    c->pgen = gen;
    c->pblock = x->block_no;
}

/* An address operand for a pointer component; *space gets its space. */
static isa_operand addr_of(xctx *x, const xc *c, isa_space *space)
{
    isa_operand o;
    memset(&o, 0, sizeof o);
    o.kind = ISA_OPND_ADDR;
    *space = c->space == X_SPACE_NONE ? ISA_SPACE_GLOBAL : (isa_space)c->space;
    if (c->space == X_SPACE_NONE)
        x_error(x, "pointer of unknown address space (generic pointers are supported only "
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
        uint32_t t = x_reg(x, 1);
        isa_inst *in = x_emit(x, ISA_OP_MOV, ISA_T_U64);
        in->o[0] = x_R(t);
        in->o[1] = x_src(x, c);
        in->nopnd = 2;
        r = x_R(t);
    }
    o.addr.base_kind = ISA_OPND_REG;
    o.addr.base = r.reg;
    return o;
}

static isa_space space_of_sc(uint32_t sc)
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
static bool alloc_regs(xctx *x, xval *v, const spv_type *t)
{
    if (!t || (t->kind != SPV_TY_INT && t->kind != SPV_TY_FLOAT && t->kind != SPV_TY_BOOL &&
               t->kind != SPV_TY_VEC && t->kind != SPV_TY_PTR)) {
        x_error(x, "values of this type (aggregate or opaque) are not supported here");
        return false;
    }
    uint32_t r = x_reg(x, t->ncomp);
    v->n = t->ncomp;
    for (unsigned i = 0; i < t->ncomp; i++) {
        v->c[i].o = x_R(r + i);
        if (t->kind == SPV_TY_PTR)
            v->c[i].space = (uint8_t)space_of_sc(t->sc);
    }
    return true;
}

/* Component isa type of a value type (pointers and bools as integers). */
static isa_type comp_type(const spv_type *t)
{
    return t && t->isa_t != ISA_T_NONE ? (isa_type)t->isa_t : ISA_T_U64;
}

/* Put value components into consecutive registers (for vector ld/st). */
static uint32_t gather(xctx *x, const xval *v, isa_type t)
{
    bool ok = v->c[0].o.kind == ISA_OPND_REG;
    for (unsigned i = 1; i < v->n && ok; i++)
        ok = v->c[i].o.kind == ISA_OPND_REG && v->c[i].o.reg == v->c[0].o.reg + i;
    if (ok)
        return v->c[0].o.reg;
    uint32_t r = x_reg(x, v->n);
    for (unsigned i = 0; i < v->n; i++) {
        isa_inst *in = x_emit(x, ISA_OP_MOV, t);
        in->o[0] = x_R(r + i);
        in->o[1] = x_src(x, &v->c[i]);
        in->nopnd = 2;
    }
    return r;
}

isa_operand x_addr_of(xctx *x, const xc *c, isa_space *space) { return addr_of(x, c, space); }
uint32_t x_new_label(xctx *x) { return new_label(x); }
void x_place_label(xctx *x, uint32_t l) { place_label(x, l); }
void x_emit_bra(xctx *x, const isa_operand *p, uint32_t l) { emit_bra(x, p, l); }
bool x_alloc_regs(xctx *x, xval *v, const spv_type *t) { return alloc_regs(x, v, t); }
isa_type x_comp_type(const spv_type *t) { return comp_type(t); }
uint32_t x_gather(xctx *x, const xval *v, isa_type t) { return gather(x, v, t); }

/* ------------------------------------------------------------ constants */

static uint64_t mask_bits(uint64_t v, isa_type t)
{
    unsigned b = t < ISA_T_COUNT ? isa_types[t].bytes : 8;
    return b >= 8 ? v : v & ((1ull << (b * 8)) - 1);
}

static void zero_value(xctx *x, xval *v, const spv_type *t)
{
    v->n = t->ncomp;
    for (unsigned i = 0; i < v->n; i++) {
        v->c[i].o = x_I(0);
        if (t->kind == SPV_TY_PTR)
            v->c[i].space = (uint8_t)space_of_sc(t->sc);
    }
}

static uint64_t type_size(xctx *x, uint32_t tid)
{
    const spv_type *t = x_type(x, tid);
    return t ? t->size : 0;
}

/* Module-level instructions: constants, global variables. */
static void module_value(xctx *x, const spv_inst *in)
{
    spv_module *m = x->m;
    x->cur = in;
    const spv_op_info *oi = spv_op_find(in->op);
    if (!oi || !oi->has_type || !oi->has_result)
        return;
    uint32_t rt = spv_word(m, in, 1), id = spv_word(m, in, 2);
    switch (in->op) {
    case SpvOpConstant:
    case SpvOpSpecConstant: {
        const spv_type *t = x_type(x, rt);
        xval *v = t ? x_def(x, NULL, id, 1) : NULL;
        if (!v)
            return;
        uint64_t bits = spv_word(m, in, 3);
        if (in->nw > 4)
            bits |= (uint64_t)spv_word(m, in, 4) << 32;
        v->c[0].o = x_I(mask_bits(bits, comp_type(t)));
        return;
    }
    case SpvOpConstantTrue: case SpvOpConstantFalse:
    case SpvOpSpecConstantTrue: case SpvOpSpecConstantFalse: {
        xval *v = x_def(x, NULL, id, 1);
        if (v)
            v->c[0].o = x_I(in->op == SpvOpConstantTrue || in->op == SpvOpSpecConstantTrue);
        return;
    }
    case SpvOpConstantNull:
    case SpvOpUndef: {
        const spv_type *t = x_type(x, rt);
        if (!t)
            return;
        if (t->kind == SPV_TY_ARRAY || t->kind == SPV_TY_STRUCT) {
            x_def(x, NULL, id, 0);
            return;
        }
        xval *v = x_def(x, NULL, id, t->ncomp);
        if (v)
            zero_value(x, v, t);
        return;
    }
    case SpvOpConstantComposite:
    case SpvOpSpecConstantComposite: {
        const spv_type *t = x_type(x, rt);
        if (!t)
            return;
        if (t->kind != SPV_TY_VEC) {
            x_def(x, NULL, id, 0);    /* only usable as an initializer: not supported */
            return;
        }
        xval *v = x_def(x, NULL, id, t->ncomp);
        for (unsigned i = 0; v && i < t->ncomp && i + 3 < in->nw; i++) {
            xval *e = x_val(x, NULL, spv_word(m, in, 3 + i));
            if (e && e->n)
                v->c[i] = e->c[0];
        }
        return;
    }
    case SpvOpVariable: {
        uint32_t sc = spv_word(m, in, 3);
        const spv_type *pt = x_type(x, rt);
        if (!pt)
            return;
        if (sc == SpvStorageClassInput) {
            if (!m->builtin[id]) {
                x_error(x, "input variable %u is not a BuiltIn", id);
                return;
            }
            x_def(x, NULL, id, 0);   /* loads of it are handled by OpLoad */
            return;
        }
        if (x_is_const_var(x, in) || x_is_global_var(x, in))
            return;      /* laid out by x_const_vars / x_global_vars after the parameters */
        if (sc == SpvStorageClassWorkgroup) {
            uint64_t sz = type_size(x, pt->elem), al = m->types[pt->elem].align;
            uint64_t off = al ? (x->k->local_mem + al - 1) / al * al : x->k->local_mem;
            if (off + sz > UINT32_MAX / 2) {
                x_error(x, "local variable too large");
                return;
            }
            x->k->local_mem = (uint32_t)(off + sz);
            xval *v = x_def(x, NULL, id, 1);
            if (v) {
                v->c[0].o = x_I(off);
                v->c[0].space = ISA_SPACE_LOCAL;
            }
            if (in->nw > 4)
                x_error(x, "initialised __local variables are not supported");
            return;
        }
        x_error(x, "module-scope variables of storage class %s (program-scope constant or "
                   "global data) are not supported",
                spv_enum_name("StorageClass", sc) ? spv_enum_name("StorageClass", sc) : "?");
        return;
    }
    case SpvOpConstantSampler:
        x_const_sampler(x, in);
        return;
    default:
        return;
    }
}

/* ------------------------------------------------------------ control flow */

static void translate_function(xctx *x, uint32_t func_id, xval **args, unsigned nargs,
                               xfn *caller_ret, bool entry, uint32_t ret_label, xval *ret);

/* Copies into the phi registers of block `to` for the edge from `from`. */
typedef struct xcopy { isa_operand dst, src; isa_type t; } xcopy;

static unsigned edge_copies(xctx *x, xfn *f, uint32_t from, uint32_t to, xcopy *cp, unsigned max)
{
    spv_module *m = x->m;
    if (!to || to >= m->bound || !m->def[to])
        return 0;
    unsigned n = 0;
    for (uint32_t i = m->def[to]; i < m->nins; i++) {
        const spv_inst *in = &m->ins[i];
        if (in->op == SpvOpLine || in->op == SpvOpNoLine || spv_is_debug_inst(m, in))
            continue;
        if (in->op != SpvOpPhi)
            break;
        uint32_t id = spv_word(m, in, 2);
        const spv_type *t = x_type(x, spv_word(m, in, 1));
        xval *dst = id < m->bound ? f->v[id] : NULL;
        if (!t || !dst)
            continue;
        for (unsigned w = 3; w + 1 < in->nw; w += 2) {
            if (m->w[in->off + w + 1] != from)
                continue;
            uint32_t vid = m->w[in->off + w];
            if (vid < m->bound && m->def[vid] && m->ins[m->def[vid] - 1].op == SpvOpUndef)
                break;
            const spv_inst *save = x->cur;
            x->cur = in;
            xval *src = x_val(x, f, vid);
            x->cur = save;
            if (!src)
                break;
            for (unsigned c = 0; c < dst->n && c < src->n && n < max; c++) {
                cp[n].dst = dst->c[c].o;
                cp[n].src = x_src(x, &src->c[c]);
                cp[n].t = t->kind == SPV_TY_BOOL ? ISA_T_U32 : comp_type(t);
                n++;
            }
            break;
        }
    }
    return n;
}

static void emit_copies(xctx *x, xcopy *cp, unsigned n)
{
    bool clash = false;
    for (unsigned i = 0; i < n && !clash; i++)
        for (unsigned j = 0; j < n && !clash; j++)
            clash = i != j && cp[i].src.kind == ISA_OPND_REG && cp[i].src.reg == cp[j].dst.reg;
    if (clash) {   /* parallel copy: read every source before writing */
        uint32_t t = x_reg(x, n);
        for (unsigned i = 0; i < n; i++) {
            isa_inst *in = x_emit(x, ISA_OP_MOV, cp[i].t);
            in->o[0] = x_R(t + i);
            in->o[1] = cp[i].src;
            in->nopnd = 2;
            cp[i].src = x_R(t + i);
        }
    }
    for (unsigned i = 0; i < n; i++) {
        if (cp[i].src.kind == ISA_OPND_REG && cp[i].src.reg == cp[i].dst.reg)
            continue;
        isa_inst *in = x_emit(x, ISA_OP_MOV, cp[i].t);
        in->o[0] = cp[i].dst;
        in->o[1] = cp[i].src;
        in->nopnd = 2;
        x->pure[x->ncode - 1] = 0;    /* phi registers are read through edges */
    }
}

#define MAX_COPIES 256

static uint32_t block_label(xctx *x, xfn *f, uint32_t id)
{
    if (!id || id >= x->m->bound || !f->label[id]) {
        x_error(x, "branch to %u, which is not a block of this function", id);
        return 0;
    }
    return f->label[id] - 1;
}

/* Branch to `to` from block `from`, with its phi copies. */
static void goto_block(xctx *x, xfn *f, uint32_t from, uint32_t to)
{
    xcopy cp[MAX_COPIES];
    unsigned n = edge_copies(x, f, from, to, cp, MAX_COPIES);
    emit_copies(x, cp, n);
    emit_bra(x, NULL, block_label(x, f, to));
}

/* Conditional branch on predicate p to `to` (with copies through a stub). */
typedef struct xstub { uint32_t label, to; } xstub;

static bool cond_branch(xctx *x, xfn *f, isa_operand p, uint32_t from, uint32_t to, xstub *stub)
{
    xcopy cp[MAX_COPIES];
    unsigned save = x->ncode;
    unsigned n = edge_copies(x, f, from, to, cp, MAX_COPIES);
    x->ncode = save;  /* only asked whether there are copies; sources re-made in the stub */
    if (n == 0) {
        emit_bra(x, &p, block_label(x, f, to));
        return false;
    }
    stub->label = new_label(x);
    stub->to = to;
    emit_bra(x, &p, stub->label);
    return true;
}

static void place_stub(xctx *x, xfn *f, uint32_t from, const xstub *s)
{
    place_label(x, s->label);
    goto_block(x, f, from, s->to);
}

/* ------------------------------------------------------------ memory */

/* Pointer arithmetic: OpAccessChain family. */
static void access_chain(xctx *x, xfn *f, const spv_inst *in)
{
    spv_module *m = x->m;
    uint32_t rt = spv_word(m, in, 1), id = spv_word(m, in, 2);
    xval *base = x_val(x, f, spv_word(m, in, 3));
    const spv_type *bt = NULL;
    if (!base || !base->n)
        return;
    /* the base's pointee type comes from the base's defining type */
    uint32_t bid = spv_word(m, in, 3);
    const spv_inst *bd = m->def[bid] ? &m->ins[m->def[bid] - 1] : NULL;
    const spv_op_info *boi = bd ? spv_op_find(bd->op) : NULL;
    if (!bd || !boi || !boi->has_type) {
        x_error(x, "base pointer %u has no type", bid);
        return;
    }
    bt = x_type(x, spv_word(m, bd, 1));
    if (!bt || bt->kind != SPV_TY_PTR) {
        x_error(x, "base is not a pointer");
        return;
    }
    xc cur = base->c[0];
    isa_addr a;
    memset(&a, 0, sizeof a);
    if (cur.o.kind == ISA_OPND_ADDR) {
        a = cur.o.addr;
    } else if (cur.o.kind == ISA_OPND_ARG) {
        a.base_kind = ISA_OPND_ARG;
        a.base = cur.o.reg;
    } else if (cur.o.kind == ISA_OPND_REG) {
        a.base_kind = ISA_OPND_REG;
        a.base = cur.o.reg;
    } else if (cur.o.kind == ISA_OPND_IMM) {
        uint32_t r = x_reg(x, 1);
        isa_inst *mv = x_emit(x, ISA_OP_MOV, ISA_T_U64);
        mv->o[0] = x_R(r);
        mv->o[1] = cur.o;
        mv->nopnd = 2;
        a.base_kind = ISA_OPND_REG;
        a.base = (uint16_t)r;
    } else {
        x_error(x, "unsupported base pointer");
        return;
    }
    uint32_t ty = bt->elem;
    unsigned first = 4;
    bool ptr_chain = in->op == SpvOpPtrAccessChain || in->op == SpvOpInBoundsPtrAccessChain;
    for (unsigned w = first; w < in->nw && !x->failed; w++) {
        uint32_t iid = m->w[in->off + w];
        xval *iv = x_val(x, f, iid);
        if (!iv || !iv->n)
            return;
        const spv_type *t = x_type(x, ty);
        if (!t)
            return;
        uint64_t step;
        uint32_t next = ty;
        if (ptr_chain && w == first) {
            step = t->size;
        } else if (t->kind == SPV_TY_ARRAY || t->kind == SPV_TY_VEC) {
            next = t->elem;
            step = type_size(x, next);
        } else if (t->kind == SPV_TY_STRUCT) {
            if (iv->c[0].o.kind != ISA_OPND_IMM || iv->c[0].o.imm >= t->nmembers) {
                x_error(x, "struct member index is not a valid constant");
                return;
            }
            a.disp = (int64_t)((uint64_t)a.disp + m->member_off[t->first_member + iv->c[0].o.imm]);
            ty = m->members[t->first_member + iv->c[0].o.imm];
            continue;
        } else {
            x_error(x, "cannot index into this type");
            return;
        }
        ty = next;
        const spv_inst *idef = m->def[iid] ? &m->ins[m->def[iid] - 1] : NULL;
        const spv_type *it = idef ? x_type(x, spv_word(m, idef, 1)) : NULL;
        if (iv->c[0].o.kind == ISA_OPND_IMM) {
            int64_t iv64 = it && it->isa_t == ISA_T_U32 ? (int64_t)(int32_t)iv->c[0].o.imm
                                                        : (int64_t)iv->c[0].o.imm;
            a.disp = (int64_t)((uint64_t)a.disp + (uint64_t)iv64 * step);   /* wraps, never UB */
            continue;
        }
        if (a.has_index) {   /* fold what we have into a register first */
            isa_operand r = addr_to_reg(x, &a);
            memset(&a, 0, sizeof a);
            a.base_kind = ISA_OPND_REG;
            a.base = r.reg;
        }
        isa_operand io = x_src(x, &iv->c[0]);
        if (io.kind != ISA_OPND_REG) {
            uint32_t r = x_reg(x, 1);
            isa_inst *mv = x_emit(x, ISA_OP_MOV, it ? comp_type(it) : ISA_T_U64);
            mv->o[0] = x_R(r);
            mv->o[1] = io;
            mv->nopnd = 2;
            io = x_R(r);
        }
        a.has_index = 1;
        a.index = io.reg;
        a.index_type = it && it->isa_t == ISA_T_U32 ? ISA_T_I32 : ISA_T_I64;
        if (it && (it->isa_t == ISA_T_U8 || it->isa_t == ISA_T_U16)) {
            x_error(x, "8/16-bit pointer indices are not supported");
            return;
        }
        if (step > INT32_MAX) {
            x_error(x, "element size too large");
            return;
        }
        a.scale = (int32_t)step;
    }
    (void)rt;
    xval *v = x_def(x, f, id, 1);
    if (!v)
        return;
    v->c[0].o.kind = ISA_OPND_ADDR;
    v->c[0].o.addr = a;
    v->c[0].space = cur.space;
}

static void load_builtin(xctx *x, xfn *f, uint32_t id, uint32_t var, const spv_type *t)
{
    uint32_t b = x->m->builtin[var] - 1;
    isa_special sp = spv_builtin_special(b);
    /* SubgroupEqMask..SubgroupLtMask: lane masks, built from the lane id */
    if (sp == ISA_SP_COUNT && x_load_group_mask(x, f, id, b))
        return;
    if (sp == ISA_SP_COUNT) {
        const char *bn = spv_enum_name("BuiltIn", b);
        x_error(x, "built-in variable %s is not supported", bn ? bn : "?");
        return;
    }
    xval *v = x_def(x, f, id, t->ncomp);
    if (!v)
        return;
    uint32_t r = x_reg(x, t->ncomp);
    for (unsigned i = 0; i < t->ncomp; i++) {
        isa_inst *in = x_emit(x, ISA_OP_MOV, comp_type(t));
        in->o[0] = x_R(r + i);
        memset(&in->o[1], 0, sizeof in->o[1]);
        in->o[1].kind = ISA_OPND_SPECIAL;
        in->o[1].reg = (uint16_t)sp;
        in->o[1].dim = (uint8_t)(isa_specials[sp].takes_dim ? (i < 3 ? i : 0) : 0);
        in->nopnd = 2;
        v->c[i].o = x_R(r + i);
    }
}

static void do_load(xctx *x, xfn *f, const spv_inst *in)
{
    spv_module *m = x->m;
    uint32_t rt = spv_word(m, in, 1), id = spv_word(m, in, 2), pid = spv_word(m, in, 3);
    const spv_type *t = x_type(x, rt);
    if (!t)
        return;
    if (pid && pid < m->bound && m->builtin[pid]) {
        load_builtin(x, f, id, pid, t);
        return;
    }
    if (x_load_aggregate(x, f, in) || x_load_unaligned(x, f, in))
        return;
    xval *p = x_val(x, f, pid);
    if (!p || !p->n)
        return;
    xval *v = x_def(x, f, id, 1);
    if (!v || !alloc_regs(x, v, t))
        return;
    isa_space sp;
    isa_operand a = addr_of(x, &p->c[0], &sp);
    if (t->kind == SPV_TY_BOOL && t->ncomp == 1) {
        /* a byte 0/1, as LLVM keeps an i1 global (`static global` shrunk to
         * bool by the optimiser) */
        uint32_t b = x_reg(x, 1);
        isa_inst *ld = x_emit(x, ISA_OP_LD, ISA_T_U8);
        ld->vec = 1;
        ld->space = (uint8_t)sp;
        ld->o[0] = x_R(b);
        ld->o[1] = a;
        ld->nopnd = 2;
        v->c[0].o = x_R(x_cvt(x, ISA_T_U32, ISA_T_U8, x_R(b)));
        return;
    }
    x_load_value(x, v, t, a, sp);
    if (t->kind == SPV_TY_BOOL)
        x_error(x, "loads of bool vectors are not supported");
}

void x_load_value(xctx *x, const xval *v, const spv_type *t, isa_operand a, isa_space sp)
{
    isa_inst *ld = x_emit(x, ISA_OP_LD, comp_type(t));
    ld->vec = t->ncomp;
    ld->space = (uint8_t)sp;
    ld->o[0] = v->c[0].o;
    ld->o[1] = a;
    ld->nopnd = 2;
}

void x_store_value(xctx *x, const xval *v, isa_type ct, isa_operand a, isa_space sp)
{
    isa_inst *st;
    if (v->n > 1) {
        uint32_t r = gather(x, v, ct);
        st = x_emit(x, ISA_OP_ST, ct);
        st->o[1] = x_R(r);
    } else {
        isa_operand s = x_src(x, &v->c[0]);
        st = x_emit(x, ISA_OP_ST, ct);
        st->o[1] = s;
    }
    st->vec = v->n;
    st->space = (uint8_t)sp;
    st->o[0] = a;
    st->nopnd = 2;
}

static void do_store(xctx *x, xfn *f, const spv_inst *in)
{
    spv_module *m = x->m;
    if (x_store_aggregate(x, f, in) || x_store_unaligned(x, f, in))
        return;
    xval *p = x_val(x, f, spv_word(m, in, 1));
    xval *v = x_val(x, f, spv_word(m, in, 2));
    if (!p || !v || !p->n || !v->n)
        return;
    uint32_t vid = spv_word(m, in, 2);
    const spv_inst *vd = m->def[vid] ? &m->ins[m->def[vid] - 1] : NULL;
    const spv_type *t = NULL;
    if (vd) {
        const spv_op_info *oi = spv_op_find(vd->op);
        if (oi && oi->has_type)
            t = x_type(x, spv_word(m, vd, 1));
        else if (vd->op == SpvOpFunctionParameter)
            t = x_type(x, spv_word(m, vd, 1));
    }
    if (!t)
        return;
    isa_space sp;
    isa_operand a = addr_of(x, &p->c[0], &sp);
    if (t->kind == SPV_TY_BOOL && t->ncomp == 1) {   /* one byte 0/1, as do_load reads */
        isa_operand b = x_src(x, &v->c[0]);
        if (b.kind == ISA_OPND_REG)
            b = x_R(x_cvt(x, ISA_T_U8, ISA_T_U32, b));
        isa_inst *st = x_emit(x, ISA_OP_ST, ISA_T_U8);
        st->vec = 1;
        st->space = (uint8_t)sp;
        st->o[0] = a;
        st->o[1] = b;
        st->nopnd = 2;
        return;
    }
    x_store_value(x, v, comp_type(t), a, sp);
}

static void do_atomic(xctx *x, xfn *f, const spv_inst *in)
{
    spv_module *m = x->m;
    bool has_result = in->op != SpvOpAtomicStore;
    unsigned pw = has_result ? 3 : 1;
    xval *p = x_val(x, f, spv_word(m, in, pw));
    if (!p || !p->n)
        return;
    const spv_type *t = has_result ? x_type(x, spv_word(m, in, 1)) : NULL;
    if (!has_result) {
        xval *v = x_val(x, f, spv_word(m, in, 4));
        uint32_t vid = spv_word(m, in, 4);
        const spv_inst *vd = vid < m->bound && m->def[vid] ? &m->ins[m->def[vid] - 1] : NULL;
        t = vd ? x_type(x, spv_word(m, vd, 1)) : NULL;
        if (!v || !t || !v->n)
            return;
        isa_space sp;
        isa_operand a = addr_of(x, &p->c[0], &sp);
        isa_operand s = x_src(x, &v->c[0]);
        isa_inst *st = x_emit(x, ISA_OP_ST, comp_type(t));
        st->space = (uint8_t)sp;
        st->o[0] = a;
        st->o[1] = s;
        st->nopnd = 2;
        return;
    }
    if (!t)
        return;
    isa_type ty = comp_type(t);
    isa_opcode op;
    isa_operand s1 = x_I(1), s2;
    unsigned nsrc = 1;
    switch (in->op) {
    case SpvOpAtomicLoad: op = ISA_OP_LD; nsrc = 0; break;
    case SpvOpAtomicIIncrement: op = ISA_OP_ATOM_ADD; break;
    case SpvOpAtomicIDecrement: op = ISA_OP_ATOM_SUB; break;
    case SpvOpAtomicIAdd: op = ISA_OP_ATOM_ADD; break;
    case SpvOpAtomicISub: op = ISA_OP_ATOM_SUB; break;
    case SpvOpAtomicSMin: op = ISA_OP_ATOM_MIN; ty = x_signed(ty); break;
    case SpvOpAtomicUMin: op = ISA_OP_ATOM_MIN; break;
    case SpvOpAtomicSMax: op = ISA_OP_ATOM_MAX; ty = x_signed(ty); break;
    case SpvOpAtomicUMax: op = ISA_OP_ATOM_MAX; break;
    case SpvOpAtomicAnd: op = ISA_OP_ATOM_AND; break;
    case SpvOpAtomicOr: op = ISA_OP_ATOM_OR; break;
    case SpvOpAtomicXor: op = ISA_OP_ATOM_XOR; break;
    case SpvOpAtomicExchange: op = ISA_OP_ATOM_XCHG; break;
    case SpvOpAtomicCompareExchange:
    case SpvOpAtomicCompareExchangeWeak: op = ISA_OP_ATOM_CMPXCHG; nsrc = 2; break;
    default:
        x_error(x, "unsupported atomic");
        return;
    }
    if (in->op != SpvOpAtomicIIncrement && in->op != SpvOpAtomicIDecrement && nsrc == 1) {
        xval *v = x_val(x, f, spv_word(m, in, 6));
        if (!v || !v->n)
            return;
        s1 = x_src(x, &v->c[0]);
    }
    if (nsrc == 2) {
        xval *val = x_val(x, f, spv_word(m, in, 7)), *cmp = x_val(x, f, spv_word(m, in, 8));
        if (!val || !cmp || !val->n || !cmp->n)
            return;
        s1 = x_src(x, &cmp->c[0]);
        s2 = x_src(x, &val->c[0]);
    }
    xval *r = x_def(x, f, spv_word(m, in, 2), 1);
    if (!r || !alloc_regs(x, r, t))
        return;
    isa_space sp;
    isa_operand a = addr_of(x, &p->c[0], &sp);
    if (sp == ISA_SPACE_PRIVATE || sp == ISA_SPACE_CONSTANT)
        x_error(x, "atomics on %s memory are not supported", isa_space_names[sp]);
    isa_inst *ai = x_emit(x, op, ty);
    ai->space = (uint8_t)sp;
    ai->o[0] = r->c[0].o;
    ai->o[1] = a;
    ai->nopnd = 2;
    if (nsrc >= 1)
        ai->o[ai->nopnd++] = s1;
    if (nsrc == 2)
        ai->o[ai->nopnd++] = s2;
}

static void do_barrier(xctx *x, xfn *f, const spv_inst *in)
{
    spv_module *m = x->m;
    xval *es = x_val(x, f, spv_word(m, in, 1)), *sem = x_val(x, f, spv_word(m, in, 3));
    if (!es || !sem || !es->n || !sem->n)
        return;
    if (es->c[0].o.kind != ISA_OPND_IMM || sem->c[0].o.kind != ISA_OPND_IMM) {
        x_error(x, "barrier scope and semantics must be constants");
        return;
    }
    uint64_t scope = es->c[0].o.imm, s = sem->c[0].o.imm;
    isa_inst *b;
    if (scope == SpvScopeWorkgroup)
        b = x_emit(x, ISA_OP_BARRIER, ISA_T_NONE);
    else if (scope == SpvScopeSubgroup)
        b = x_emit(x, ISA_OP_SG_BARRIER, ISA_T_NONE);
    else {
        x_error(x, "barrier with execution scope %s is not supported",
                spv_enum_name("Scope", (uint32_t)scope) ? spv_enum_name("Scope", (uint32_t)scope)
                                                        : "?");
        return;
    }
    if (s & SpvMemorySemanticsWorkgroupMemoryMask) b->flags |= ISA_F_FENCE_LOCAL;
    if (s & SpvMemorySemanticsCrossWorkgroupMemoryMask) b->flags |= ISA_F_FENCE_GLOBAL;
    if (s & SpvMemorySemanticsImageMemoryMask) b->flags |= ISA_F_FENCE_IMAGE;
    b->type = ISA_T_NONE;
}

/* Function-scope OpVariable: a slice of private memory. */
static void do_variable(xctx *x, xfn *f, const spv_inst *in)
{
    spv_module *m = x->m;
    const spv_type *pt = x_type(x, spv_word(m, in, 1));
    if (!pt || pt->kind != SPV_TY_PTR)
        return;
    uint64_t sz = type_size(x, pt->elem);
    uint64_t al = x_var_align(x, spv_word(m, in, 2), m->types[pt->elem].align);
    uint64_t off = al ? (x->k->private_mem + al - 1) / al * al : x->k->private_mem;
    if (off + sz > (1u << 20)) {
        x_error(x, "private variables exceed 1 MiB per work-item");
        return;
    }
    x->k->private_mem = (uint32_t)(off + sz);
    xval *v = x_def(x, f, spv_word(m, in, 2), 1);
    if (!v)
        return;
    v->c[0].o = x_I(off);
    v->c[0].space = ISA_SPACE_PRIVATE;
    if (in->nw > 4 && !x_init_variable(x, f, &v->c[0], spv_word(m, in, 4))) {
        xval *init = x_val(x, f, spv_word(m, in, 4));
        const spv_type *et = x_type(x, pt->elem);
        if (init && et && init->n && init->n == et->ncomp) {
            isa_space sp;
            isa_operand a = addr_of(x, &v->c[0], &sp);
            isa_type ct = comp_type(et);
            uint32_t r = init->n > 1 ? gather(x, init, ct) : 0;
            isa_inst *st = x_emit(x, ISA_OP_ST, ct);
            st->vec = init->n;
            st->space = ISA_SPACE_PRIVATE;
            st->o[0] = a;
            st->o[1] = init->n > 1 ? x_R(r) : x_src(x, &init->c[0]);
            st->nopnd = 2;
        } else {
            x_error(x, "initialisers of aggregate private variables are not supported");
        }
    }
}

/* ------------------------------------------------------------ composites */

static bool do_composite(xctx *x, xfn *f, const spv_inst *in)
{
    spv_module *m = x->m;
    uint32_t rt = spv_word(m, in, 1), id = spv_word(m, in, 2);
    if (x_composite_aggregate(x, f, in))
        return true;
    switch (in->op) {
    case SpvOpCompositeExtract: {
        xval *s = x_val(x, f, spv_word(m, in, 3));
        uint32_t idx = spv_word(m, in, 4);
        if (!s)
            return true;
        if (in->nw != 5 || idx >= s->n) {
            x_error(x, "only single-index extracts from vectors are supported");
            return true;
        }
        xc c = s->c[idx];
        xval *v = x_def(x, f, id, 1);
        if (v)
            v->c[0] = c;
        return true;
    }
    case SpvOpCompositeInsert: {
        xval *o = x_val(x, f, spv_word(m, in, 3)), *s = x_val(x, f, spv_word(m, in, 4));
        uint32_t idx = spv_word(m, in, 5);
        if (!o || !s)
            return true;
        if (in->nw != 6 || idx >= s->n || !o->n) {
            x_error(x, "only single-index inserts into vectors are supported");
            return true;
        }
        xval tmp = *s;
        tmp.c[idx] = o->c[0];
        xval *v = x_def(x, f, id, tmp.n);
        if (v)
            *v = tmp;
        return true;
    }
    case SpvOpCompositeConstruct: {
        xval tmp;
        memset(&tmp, 0, sizeof tmp);
        for (unsigned w = 3; w < in->nw; w++) {
            xval *s = x_val(x, f, m->w[in->off + w]);
            if (!s)
                return true;
            if (!s->n)
                x_error(x, "only vectors can be constructed");
            for (unsigned i = 0; i < s->n && tmp.n < XV_MAX; i++)
                tmp.c[tmp.n++] = s->c[i];
        }
        xval *v = x_def(x, f, id, tmp.n);
        if (v)
            *v = tmp;
        return true;
    }
    case SpvOpVectorShuffle: {
        xval *a = x_val(x, f, spv_word(m, in, 3)), *b = x_val(x, f, spv_word(m, in, 4));
        if (!a || !b)
            return true;
        xval tmp;
        memset(&tmp, 0, sizeof tmp);
        for (unsigned w = 5; w < in->nw && tmp.n < XV_MAX; w++) {
            uint32_t s = m->w[in->off + w];
            xc c;
            memset(&c, 0, sizeof c);
            c.o = x_I(0);
            if (s < a->n)
                c = a->c[s];
            else if (s != 0xffffffffu && s - a->n < b->n)
                c = b->c[s - a->n];
            else if (s != 0xffffffffu)
                x_error(x, "shuffle component %u out of range", s);
            tmp.c[tmp.n++] = c;
        }
        xval *v = x_def(x, f, id, tmp.n);
        if (v)
            *v = tmp;
        return true;
    }
    case SpvOpVectorExtractDynamic:
    case SpvOpVectorInsertDynamic: {
        bool ins = in->op == SpvOpVectorInsertDynamic;
        xval *s = x_val(x, f, spv_word(m, in, 3));
        xval *o = ins ? x_val(x, f, spv_word(m, in, 4)) : NULL;
        xval *iv = x_val(x, f, spv_word(m, in, ins ? 5 : 4));
        const spv_type *t = x_type(x, rt);
        if (!s || !iv || (ins && !o) || !t || !iv->n)
            return true;
        isa_type ct = comp_type(t);
        isa_operand idx = x_src(x, &iv->c[0]);
        xval tmp = *s;
        uint32_t r = x_reg(x, ins ? s->n : 1);
        if (!ins) {
            isa_inst *mv = x_emit(x, ISA_OP_MOV, ct);
            mv->o[0] = x_R(r);
            mv->o[1] = x_src(x, &s->c[0]);
            mv->nopnd = 2;
        }
        for (unsigned i = 0; i < s->n; i++) {
            uint32_t gen, p = x_pred(x, &gen);
            isa_inst *c = x_emit(x, ISA_OP_CMP, ISA_T_U64);
            c->cond = ISA_BINOP_EQ;
            c->o[0] = x_P(p, false);
            c->o[1] = idx;
            c->o[2] = x_I(i);
            c->nopnd = 3;
            isa_operand cur = ins ? x_src(x, &s->c[i]) : x_R(r);
            isa_inst *sl = x_emit(x, ISA_OP_SEL, ct);
            sl->o[0] = x_R(ins ? r + i : r);
            sl->o[1] = x_P(p, false);
            sl->o[2] = ins ? x_src(x, &o->c[0]) : x_src(x, &s->c[i]);
            sl->o[3] = cur;
            sl->nopnd = 4;
            if (ins) {
                memset(&tmp.c[i], 0, sizeof tmp.c[i]);
                tmp.c[i].o = x_R(r + i);
                tmp.c[i].space = X_SPACE_NONE;
            }
        }
        xval *v = x_def(x, f, id, ins ? s->n : 1);
        if (!v)
            return true;
        if (ins)
            *v = tmp;
        else
            v->c[0].o = x_R(r);
        return true;
    }
    case SpvOpCopyObject: {
        xval *s = x_val(x, f, spv_word(m, in, 3));
        xval *v = s ? x_def(x, f, id, s->n) : NULL;
        if (v)
            *v = *s;
        return true;
    }
    default:
        return false;
    }
}

/* ------------------------------------------------------------ functions */

static uint32_t find_function(xctx *x, uint32_t id)
{
    spv_module *m = x->m;
    if (!id || id >= m->bound || !m->def[id] || m->ins[m->def[id] - 1].op != SpvOpFunction)
        return 0;
    return m->def[id];
}

static void do_call(xctx *x, xfn *f, const spv_inst *in)
{
    spv_module *m = x->m;
    uint32_t rt = spv_word(m, in, 1), id = spv_word(m, in, 2), callee = spv_word(m, in, 3);
    if (x_call_builtin(x, f, in))
        return;
    xval *args[64];
    unsigned n = 0;
    for (unsigned w = 4; w < in->nw && n < 64; w++) {
        args[n] = x_val(x, f, m->w[in->off + w]);
        if (!args[n])
            return;
        n++;
    }
    const spv_type *t = x_type(x, rt);
    if (!t)
        return;
    xval *ret = NULL;
    if (t->kind != SPV_TY_VOID) {
        ret = x_def(x, f, id, 1);
        if (!ret || !alloc_regs(x, ret, t))
            return;
    }
    uint32_t after = new_label(x);
    if (x->depth > 32) {
        x_error(x, "recursive or too deeply nested function calls");
        return;
    }
    const spv_inst *save = x->cur;
    translate_function(x, callee, args, n, f, false, after, ret);
    x->cur = save;
    place_label(x, after);
}

static void do_return(xctx *x, xfn *f, const spv_inst *in)
{
    if (in->op == SpvOpReturnValue && f->ret) {
        xval *v = x_val(x, f, spv_word(x->m, in, 1));
        if (!v)
            return;
        xcopy cp[XV_MAX];
        unsigned n = 0;
        for (unsigned i = 0; i < v->n && i < f->ret->n; i++) {
            cp[n].dst = f->ret->c[i].o;
            cp[n].src = x_src(x, &v->c[i]);
            cp[n].t = ISA_T_U64;
            n++;
        }
        emit_copies(x, cp, n);
    }
    if (f->entry)
        x_emit(x, ISA_OP_RET, ISA_T_NONE);
    else
        emit_bra(x, NULL, f->ret_label);
}

static void translate_body(xctx *x, xfn *f, uint32_t start, uint32_t end);

static void translate_function(xctx *x, uint32_t func_id, xval **args, unsigned nargs,
                               xfn *caller, bool entry, uint32_t ret_label, xval *ret)
{
    spv_module *m = x->m;
    (void)caller;
    uint32_t fi = find_function(x, func_id);
    if (!fi) {
        x_error(x, "call of %u, which is not a function defined in the module "
                   "(library functions must be linked in)", func_id);
        return;
    }
    uint32_t end = fi;
    while (end < m->nins && m->ins[end].op != SpvOpFunctionEnd)
        end++;
    if (end == m->nins) {
        x_error(x, "function %u has no OpFunctionEnd (truncated module?)", func_id);
        return;
    }
    xfn fn;
    memset(&fn, 0, sizeof fn);
    fn.entry = entry;
    fn.ret_label = ret_label;
    fn.ret = ret;
    fn.v = calloc(m->bound, sizeof *fn.v);   // NOLINT(bugprone-sizeof-expression): an array of pointers
    fn.label = calloc(m->bound, sizeof *fn.label);
    if (!fn.v || !fn.label) {
        x_error(x, "out of memory");
        goto out;
    }
    x->depth++;
    /* parameters, labels, phi registers */
    unsigned np = 0;
    bool any_block = false;
    for (uint32_t i = fi; i < end && !x->failed; i++) {
        const spv_inst *in = &m->ins[i];
        x->cur = in;
        if (in->op == SpvOpFunctionParameter) {
            uint32_t id = spv_word(m, in, 2);
            if (np >= nargs) {
                x_error(x, "function called with %u arguments but has more parameters", nargs);
                break;
            }
            xval *v = x_def(x, &fn, id, args[np]->n);
            if (v)
                *v = *args[np];
            np++;
        } else if (in->op == SpvOpLabel) {
            uint32_t id = spv_word(m, in, 1);
            if (id && id < m->bound)
                fn.label[id] = new_label(x) + 1;
            any_block = true;
        } else if (in->op == SpvOpPhi) {
            const spv_type *t = x_type(x, spv_word(m, in, 1));
            xval *v = t ? x_def(x, &fn, spv_word(m, in, 2), 1) : NULL;
            if (v && alloc_regs(x, v, t) && t->kind == SPV_TY_BOOL)
                v->c[0].space = X_SPACE_NONE;
        }
    }
    if (!any_block && !x->failed)
        x_error(x, "function %u has no body (a declaration cannot be called)", func_id);
    if (!x->failed)
        translate_body(x, &fn, fi, end);
    x->depth--;
out:
    if (fn.v)
        for (uint32_t i = 0; i < m->bound; i++)
            free(fn.v[i]);
    free(fn.v);
    free(fn.label);
}

static void translate_range(xctx *x, xfn *f, uint32_t start, uint32_t end);

/* Successor block ids of the terminator `in` (at most max). */
static unsigned successors(xctx *x, const spv_inst *in, uint32_t *succ, unsigned max)
{
    spv_module *m = x->m;
    unsigned n = 0;
    if (in->op == SpvOpBranch && in->nw >= 2)
        succ[n++] = m->w[in->off + 1];
    else if (in->op == SpvOpBranchConditional && in->nw >= 4) {
        succ[n++] = m->w[in->off + 2];
        succ[n++] = m->w[in->off + 3];
    } else if (in->op == SpvOpSwitch && in->nw >= 3) {
        uint32_t sid = m->w[in->off + 1];
        const spv_inst *sd = sid < m->bound && m->def[sid] ? &m->ins[m->def[sid] - 1] : NULL;
        const spv_op_info *soi = sd ? spv_op_find(sd->op) : NULL;
        uint32_t tid = soi && soi->has_type && sd->nw > 1 ? m->w[sd->off + 1] : 0;
        bool wide = tid < m->bound && m->types[tid].isa_t == ISA_T_U64;
        unsigned step = wide ? 3 : 2;
        succ[n++] = m->w[in->off + 2];
        for (unsigned w = 3; w + step - 1 < in->nw && n < max; w += step)
            succ[n++] = m->w[in->off + w + step - 1];
    }
    return n;
}

/* Blocks in reverse post-order from the entry block (so every block comes
 * after its dominators, which SPIR-V producers do not always guarantee:
 * llvm-spirv emits loop exits before loop bodies), then unreachable blocks in
 * module order.  first[] gets the instruction index of each block's OpLabel. */
static void translate_body(xctx *x, xfn *f, uint32_t start, uint32_t end)
{
    spv_module *m = x->m;
    uint32_t nb = 0, first_label = end;
    for (uint32_t i = start; i < end; i++)
        if (m->ins[i].op == SpvOpLabel) {
            if (first_label == end)
                first_label = i;
            nb++;
        }
    translate_range(x, f, start, first_label);
    if (!nb || x->failed)
        return;
    uint32_t *bstart = calloc(nb + 1, sizeof *bstart);
    uint32_t *order = calloc(nb, sizeof *order);
    uint32_t *stack = calloc(nb, sizeof *stack);
    uint32_t *next = calloc(nb, sizeof *next);
    uint8_t *seen = calloc(nb, 1);
    uint32_t *idx = calloc(m->bound, sizeof *idx);   /* label id -> block + 1 */
    if (!bstart || !order || !stack || !next || !seen || !idx) {
        x_error(x, "out of memory");
        goto out;
    }
    uint32_t b = 0;
    for (uint32_t i = first_label; i < end; i++)
        if (m->ins[i].op == SpvOpLabel) {
            uint32_t id = spv_word(m, &m->ins[i], 1);
            if (id < m->bound && !idx[id])
                idx[id] = b + 1;
            bstart[b++] = i;
        }
    bstart[nb] = end;
    /* iterative DFS; post-order filled from the back gives RPO */
    uint32_t no = nb, sp = 0;
    stack[sp++] = 0;
    seen[0] = 1;
    while (sp) {
        uint32_t cur = stack[sp - 1];
        uint32_t succ[1024];
        const spv_inst *term = &m->ins[bstart[cur + 1] - 1];
        unsigned ns = successors(x, term, succ, 1024);
        bool pushed = false;
        while (next[cur] < ns) {
            uint32_t s = succ[next[cur]++];
            uint32_t sb = s < m->bound ? idx[s] : 0;
            if (sb && !seen[sb - 1]) {
                seen[sb - 1] = 1;
                stack[sp++] = sb - 1;
                pushed = true;
                break;
            }
        }
        if (!pushed && next[cur] >= ns) {
            order[--no] = cur;
            sp--;
        }
    }
    /* reachable blocks are order[no..nb); unreachable ones follow */
    for (uint32_t i = no; i < nb && !x->failed; i++)
        translate_range(x, f, bstart[order[i]], bstart[order[i] + 1]);
    for (uint32_t i = 0; i < nb && !x->failed; i++)
        if (!seen[i])
            translate_range(x, f, bstart[i], bstart[i + 1]);
out:
    free(bstart);
    free(order);
    free(stack);
    free(next);
    free(seen);
    free(idx);
}

static void translate_range(xctx *x, xfn *f, uint32_t start, uint32_t end)
{
    spv_module *m = x->m;
    uint32_t block = 0;
    for (uint32_t i = start; i < end && !x->failed; i++) {
        const spv_inst *in = &m->ins[i];
        x->cur = in;
        switch (in->op) {
        case SpvOpFunction: case SpvOpFunctionParameter: case SpvOpPhi:
        case SpvOpLine: case SpvOpNoLine: case SpvOpNop: case SpvOpSelectionMerge:
        case SpvOpLoopMerge: case SpvOpLifetimeStart: case SpvOpLifetimeStop:
        case SpvOpMemoryBarrier: case SpvOpDecorate: case SpvOpName:
            break;
        case SpvOpLabel:
            block = spv_word(m, in, 1);
            place_label(x, block_label(x, f, block));
            break;
        case SpvOpBranch: {
            uint32_t to = spv_word(m, in, 1);
            goto_block(x, f, block, to);
            break;
        }
        case SpvOpBranchConditional: {
            xval *c = x_val(x, f, spv_word(m, in, 1));
            uint32_t t = spv_word(m, in, 2), e = spv_word(m, in, 3);
            if (!c || !c->n)
                break;
            if (t == e) {
                goto_block(x, f, block, t);
                break;
            }
            isa_operand p = x_predof(x, &c->c[0]);
            xstub s;
            bool stub = cond_branch(x, f, p, block, t, &s);
            goto_block(x, f, block, e);
            if (stub)
                place_stub(x, f, block, &s);
            break;
        }
        case SpvOpSwitch: {
            xval *sel = x_val(x, f, spv_word(m, in, 1));
            uint32_t sid = spv_word(m, in, 1);
            const spv_inst *sd = sid < m->bound && m->def[sid] ? &m->ins[m->def[sid] - 1] : NULL;
            const spv_op_info *soi = sd ? spv_op_find(sd->op) : NULL;
            const spv_type *st = soi && soi->has_type ? x_type(x, spv_word(m, sd, 1)) : NULL;
            if (!sel || !st || !sel->n)
                break;
            bool wide = st->isa_t == ISA_T_U64;
            unsigned step = wide ? 3 : 2;
            xstub stubs[64];
            unsigned ns = 0;
            isa_operand sv = x_src(x, &sel->c[0]);
            for (unsigned w = 3; w + step - 1 < in->nw && !x->failed; w += step) {
                uint64_t lit = m->w[in->off + w];
                if (wide)
                    lit |= (uint64_t)m->w[in->off + w + 1] << 32;
                uint32_t to = m->w[in->off + w + step - 1];
                uint32_t gen, p = x_pred(x, &gen);
                isa_inst *c = x_emit(x, ISA_OP_CMP, comp_type(st));
                c->cond = ISA_BINOP_EQ;
                c->o[0] = x_P(p, false);
                c->o[1] = sv;
                c->o[2] = x_I(lit);
                c->nopnd = 3;
                if (ns == 64) {
                    x_error(x, "more than 64 switch cases with phi copies");
                    break;
                }
                if (cond_branch(x, f, x_P(p, false), block, to, &stubs[ns]))
                    ns++;
            }
            goto_block(x, f, block, spv_word(m, in, 2));
            for (unsigned s = 0; s < ns; s++)
                place_stub(x, f, block, &stubs[s]);
            break;
        }
        case SpvOpReturn:
        case SpvOpReturnValue:
            do_return(x, f, in);
            break;
        case SpvOpUnreachable:
            x_emit(x, ISA_OP_RET, ISA_T_NONE);
            break;
        case SpvOpFunctionCall:
            do_call(x, f, in);
            break;
        case SpvOpLoad:
            do_load(x, f, in);
            break;
        case SpvOpStore:
            do_store(x, f, in);
            break;
        case SpvOpVariable:
            do_variable(x, f, in);
            break;
        case SpvOpAccessChain: case SpvOpInBoundsAccessChain:
        case SpvOpPtrAccessChain: case SpvOpInBoundsPtrAccessChain:
            access_chain(x, f, in);
            break;
        case SpvOpControlBarrier:
            do_barrier(x, f, in);
            break;
        case SpvOpAtomicLoad: case SpvOpAtomicStore: case SpvOpAtomicExchange:
        case SpvOpAtomicCompareExchange: case SpvOpAtomicCompareExchangeWeak:
        case SpvOpAtomicIIncrement: case SpvOpAtomicIDecrement: case SpvOpAtomicIAdd:
        case SpvOpAtomicISub: case SpvOpAtomicSMin: case SpvOpAtomicUMin:
        case SpvOpAtomicSMax: case SpvOpAtomicUMax: case SpvOpAtomicAnd:
        case SpvOpAtomicOr: case SpvOpAtomicXor:
            do_atomic(x, f, in);
            break;
        case SpvOpPtrCastToGeneric: case SpvOpGenericCastToPtr:
        case SpvOpGenericCastToPtrExplicit: {
            xval *s = x_val(x, f, spv_word(m, in, 3));
            xval *v = s ? x_def(x, f, spv_word(m, in, 2), s->n) : NULL;
            if (v)
                *v = *s;
            break;
        }
        case SpvOpConvertUToPtr: {
            xval *s = x_val(x, f, spv_word(m, in, 3));
            const spv_type *t = x_type(x, spv_word(m, in, 1));
            xval *v = s && t && s->n ? x_def(x, f, spv_word(m, in, 2), 1) : NULL;
            if (v) {
                v->c[0].o = x_src(x, &s->c[0]);
                v->c[0].space = (uint8_t)space_of_sc(t->sc);
            }
            break;
        }
        case SpvOpConvertPtrToU: {
            xval *s = x_val(x, f, spv_word(m, in, 3));
            xval *v = s && s->n ? x_def(x, f, spv_word(m, in, 2), 1) : NULL;
            if (v)
                v->c[0].o = x_src(x, &s->c[0]);
            break;
        }
        default:
            if (do_composite(x, f, in) || x_op_alu(x, f, in) || x_op_image(x, f, in) ||
                x_op_aggregate(x, f, in) || x_op_async(x, f, in))
                break;
            x_error(x, "instruction %s is not supported by sgemu's SPIR-V front end",
                    spv_op_name(in->op));
            break;
        }
    }
}

/* ------------------------------------------------------------ kernel */

/* OpenCL C integer type names that are signed (kernel_arg_type spellings). */
static bool signed_cl_type(const char *s, size_t n)
{
    static const char *const names[] = { "char", "short", "int", "long", "signed char" };
    while (n && (s[n - 1] == '*' || s[n - 1] == ' '))
        n--;
    /* vector forms: int4, char16, ... */
    while (n && s[n - 1] >= '0' && s[n - 1] <= '9')
        n--;
    if (n > 6 && !strncmp(s, "const ", 6)) {
        s += 6;
        n -= 6;
    }
    for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strlen(names[i]) == n && !strncmp(s, names[i], n))
            return true;
    return false;
}

/* Signedness of integer arguments: llvm-spirv keeps the OpenCL type names
 * as OpString "kernel_arg_type.KERNEL.T0,T1,..." (with
 * --preserve-ocl-kernel-arg-type-metadata-through-string, which sgemu's .cl
 * pipeline passes); SPIR-V integer types themselves carry no sign. */
static void arg_signedness(xctx *x, const spv_entry *e)
{
    spv_module *m = x->m;
    char prefix[96];
    snprintf(prefix, sizeof prefix, "kernel_arg_type.%s.", e->name);
    size_t pl = strlen(prefix);
    for (uint32_t i = 0; i < m->nins; i++) {
        const spv_inst *in = &m->ins[i];
        if (in->op == SpvOpFunction)
            break;
        if (in->op != SpvOpString || in->nw < 3)
            continue;
        unsigned words;
        const char *str = spv_string(m, in, 2, &words);
        if (!str || strncmp(str, prefix, pl))
            continue;
        const char *p = str + pl;
        for (unsigned a = 0; a < x->k->narg && *p; a++) {
            const char *c = strchr(p, ',');
            size_t n = c ? (size_t)(c - p) : strlen(p);
            isa_arg *ar = &x->k->args[a];
            if (ar->byval && n < sizeof ar->cl_type)
                snprintf(ar->cl_type, sizeof ar->cl_type, "%.*s", (int)n, p);
            bool intish = ar->kind == ISA_ARG_SCALAR || ar->kind == ISA_ARG_GLOBAL ||
                          ar->kind == ISA_ARG_CONSTANT || ar->kind == ISA_ARG_LOCAL;
            if (intish && signed_cl_type(p, n))
                ar->type = x_signed(ar->type);
            if (!c)
                break;
            p = c + 1;
        }
        break;
    }
}

static int setup_args(xctx *x, const spv_entry *e, xval **args, unsigned *nargs, bool *unnamed)
{
    spv_module *m = x->m;
    uint32_t fi = find_function(x, e->func);
    unsigned n = 0;
    for (uint32_t i = fi; fi && i < m->nins && m->ins[i].op != SpvOpFunctionEnd; i++) {
        const spv_inst *in = &m->ins[i];
        if (in->op == SpvOpLabel)
            break;
        if (in->op != SpvOpFunctionParameter)
            continue;
        x->cur = in;
        if (n >= ISA_MAX_ARGS) {
            x_error(x, "more than %d kernel arguments", ISA_MAX_ARGS);
            return 1;
        }
        uint32_t id = spv_word(m, in, 2);
        const spv_type *t = x_type(x, spv_word(m, in, 1));
        if (!t)
            return 1;
        isa_arg *a = &x->k->args[n];
        memset(a, 0, sizeof *a);
        a->line = in->line;
        const char *nm = id < m->bound ? m->name[id] : NULL;
        if (nm && *nm && strlen(nm) < sizeof a->name)
            snprintf(a->name, sizeof a->name, "%s", nm);
        else {
            snprintf(a->name, sizeof a->name, "arg%u", n);
            *unnamed = true;
        }
        args[n] = calloc(1, sizeof **args);
        if (!args[n])
            return 1;
        args[n]->n = 1;
        args[n]->c[0].o.kind = ISA_OPND_ARG;
        args[n]->c[0].o.reg = (uint16_t)n;
        args[n]->c[0].space = X_SPACE_NONE;
        /* vectors and structs by value: a `constant` argument of their bytes */
        bool byval = (t->kind == SPV_TY_VEC || (t->kind == SPV_TY_PTR &&
                      t->sc == SpvStorageClassFunction)) && x_byval_param(x, in, t, a, args[n]);
        if (x->failed)
            return 1;
        if (byval) {
            n++;
            continue;
        }
        switch (t->kind) {
        case SPV_TY_INT: case SPV_TY_FLOAT:
            a->kind = ISA_ARG_SCALAR;
            a->type = t->isa_t;
            break;
        case SPV_TY_PTR: {
            const spv_type *pt = x_type(x, t->elem);
            if (!pt)
                return 1;
            a->type = pt->isa_t != ISA_T_NONE ? pt->isa_t : ISA_T_U8;
            if (t->sc == SpvStorageClassCrossWorkgroup)
                a->kind = ISA_ARG_GLOBAL;
            else if (t->sc == SpvStorageClassUniformConstant)
                a->kind = ISA_ARG_CONSTANT;
            else if (t->sc == SpvStorageClassWorkgroup)
                a->kind = ISA_ARG_LOCAL;
            else {
                x_error(x, "parameter %u ('%s'): pointers to storage class %s are not supported",
                        n, a->name, spv_enum_name("StorageClass", t->sc) ?
                        spv_enum_name("StorageClass", t->sc) : "?");
                return 1;
            }
            args[n]->c[0].space = (uint8_t)space_of_sc(t->sc);
            break;
        }
        case SPV_TY_IMAGE:
            a->kind = ISA_ARG_IMAGE2D;
            a->type = ISA_T_U8;
            a->access = t->access;
            break;
        default:
            x_error(x, "parameter %u ('%s'): this type cannot be a kernel argument (by-value "
                       "arguments are scalars, samplers, vectors and structs)", n, a->name);
            return 1;
        }
        n++;
    }
    x->k->narg = n;
    *nargs = n;
    arg_signedness(x, e);
    return 0;
}

/* Remove side-effect-free instructions whose results are never read. */
static void dead_code(xctx *x)
{
    uint8_t *rr = calloc(ISA_MAX_REGS, 1);
    uint8_t *keep = malloc(x->ncode + 1);
    uint32_t *map = malloc((x->ncode + 1) * sizeof *map);
    if (!rr || !keep || !map)
        goto out;
    for (int iter = 0; iter < 8; iter++) {
        uint8_t pr[ISA_MAX_PREDS] = { 0 };
        memset(rr, 0, ISA_MAX_REGS);
        for (uint32_t i = 0; i < x->ncode; i++) {
            const isa_inst *in = &x->code[i];
            if (x->pure[i] == 2)
                continue;
            isa_shape sh = isa_ops[in->op].shape;
            for (unsigned o = 0; o < in->nopnd; o++) {
                char l = isa_shape_letter(sh, in->nopnd, o);
                const isa_operand *op = &in->o[o];
                if (l == 'd' || l == 'P')
                    continue;
                unsigned vec;
                isa_opnd_type(in, o, &vec);
                if (op->kind == ISA_OPND_REG)
                    for (unsigned c = 0; c < vec && op->reg + c < ISA_MAX_REGS; c++)
                        rr[op->reg + c] = 1;
                else if (op->kind == ISA_OPND_PRED && op->reg < ISA_MAX_PREDS)
                    pr[op->reg] = 1;
                else if (op->kind == ISA_OPND_ADDR) {
                    if (op->addr.base_kind == ISA_OPND_REG)
                        rr[op->addr.base] = 1;
                    if (op->addr.has_index)
                        rr[op->addr.index] = 1;
                }
            }
        }
        bool changed = false;
        for (uint32_t i = 0; i < x->ncode; i++) {
            const isa_inst *in = &x->code[i];
            if (x->pure[i] != 1 || in->nopnd == 0)
                continue;
            const isa_operand *d = &in->o[0];
            bool used;
            if (d->kind == ISA_OPND_PRED)
                used = d->reg < ISA_MAX_PREDS && pr[d->reg];
            else {
                unsigned vec;
                isa_opnd_type(in, 0, &vec);
                used = false;
                for (unsigned c = 0; c < vec && d->reg + c < ISA_MAX_REGS; c++)
                    used |= rr[d->reg + c];
            }
            if (!used) {
                x->pure[i] = 2;
                changed = true;
            }
        }
        if (!changed)
            break;
    }
    /* Predicates are reused round-robin, so a removed compare may share its
     * number with a live one: liveness above is by number, which only keeps
     * too much, never too little. */
    uint32_t n = 0;
    for (uint32_t i = 0; i < x->ncode; i++) {
        map[i] = n;
        if (x->pure[i] != 2)
            x->code[n++] = x->code[i];
    }
    map[x->ncode] = n;
    for (uint32_t l = 0; l < x->nlabel; l++)
        if (x->label_pc[l] != ISA_PC_EXIT && x->label_pc[l] <= x->ncode)
            x->label_pc[l] = map[x->label_pc[l]];
    x->ncode = n;
out:
    free(rr);
    free(keep);
    free(map);
}

/* Drop unconditional branches to the next instruction (block order often
 * falls through), remapping every branch target. */
static void drop_fallthrough(isa_inst *code, uint32_t *n)
{
    uint32_t *map = malloc((*n + 1) * sizeof *map);
    if (!map)
        return;
    for (int iter = 0; iter < 4; iter++) {
        uint32_t w = 0;
        bool any = false;
        for (uint32_t i = 0; i < *n; i++) {
            map[i] = w;
            bool drop = code[i].op == ISA_OP_BRA && code[i].nopnd == 1 &&
                        code[i].target == i + 1;
            any |= drop;
            if (!drop)
                code[w++] = code[i];
        }
        map[*n] = w;
        for (uint32_t i = 0; i < w; i++)
            if (code[i].op == ISA_OP_BRA && code[i].target <= *n)
                code[i].target = map[code[i].target];
        *n = w;
        if (!any)
            break;
    }
    free(map);
}

/* ------------------------------------------------------------ peephole */

/* The passes below tidy the final instruction stream (branch targets are
 * instruction indices; a target of n is the exit).  They only remove
 * work, never change what any work-item computes. */

/* Delete the instructions marked in del[], remapping every branch target
 * to the first kept instruction at or after it. */
static void remove_marked(isa_inst *code, uint32_t *n, const uint8_t *del)
{
    uint32_t *map = malloc((*n + 1) * sizeof *map);
    if (!map)
        return;
    uint32_t w = 0;
    for (uint32_t i = 0; i < *n; i++) {
        map[i] = w;
        if (!del[i])
            code[w++] = code[i];
    }
    map[*n] = w;
    for (uint32_t i = 0; i < w; i++)
        if (code[i].op == ISA_OP_BRA && code[i].target <= *n)
            code[i].target = map[code[i].target];
    *n = w;
    free(map);
}

/* is_target[i]: some branch jumps to instruction i. */
static uint8_t *branch_targets(const isa_inst *code, uint32_t n)
{
    uint8_t *t = calloc(n + 1, 1);
    if (t)
        for (uint32_t i = 0; i < n; i++)
            if (code[i].op == ISA_OP_BRA && code[i].target <= n)
                t[code[i].target] = 1;
    return t;
}

/* `bra p, L; bra M; L:` -> `bra !p, M; L:` (llvm-spirv's if/else and loop
 * latches: one branch fewer on every pass through). */
static void invert_branches(isa_inst *code, uint32_t *n)
{
    uint8_t *tgt = branch_targets(code, *n), *del = calloc(*n + 1, 1);
    if (!tgt || !del)
        goto out;
    bool any = false;
    for (uint32_t i = 0; i + 1 < *n; i++) {
        isa_inst *a = &code[i];
        const isa_inst *b = &code[i + 1];
        if (a->op == ISA_OP_BRA && a->nopnd == 2 && a->o[0].kind == ISA_OPND_PRED &&
            a->target == i + 2 && b->op == ISA_OP_BRA && b->nopnd == 1 &&
            !tgt[i + 1] && !del[i]) {
            a->o[0].negate = !a->o[0].negate;
            a->target = b->target;
            del[i + 1] = 1;
            any = true;
        }
    }
    if (any)
        remove_marked(code, n, del);
out:
    free(tgt);
    free(del);
}

/* Registers an instruction reads and writes (vector operands component by
 * component); false when there are more than the lists hold. */
typedef struct xregs {
    uint32_t use[64], def[32];
    unsigned nu, nd;
} xregs;

static bool inst_regs(const isa_inst *in, xregs *r)
{
    r->nu = r->nd = 0;
    if (in->op >= ISA_OP_COUNT)
        return false;
    const isa_shape sh = isa_ops[in->op].shape;
    for (unsigned o = 0; o < in->nopnd && o < ISA_MAX_OPNDS; o++) {
        const isa_operand *op = &in->o[o];
        const char l = isa_shape_letter(sh, in->nopnd, o);
        if (op->kind == ISA_OPND_REG) {
            unsigned vec;
            isa_opnd_type(in, o, &vec);
            for (unsigned c = 0; c < vec; c++) {
                if (l == 'd' ? r->nd == 32 : r->nu == 64)
                    return false;
                if (l == 'd')
                    r->def[r->nd++] = op->reg + c;
                else
                    r->use[r->nu++] = op->reg + c;
            }
        } else if (op->kind == ISA_OPND_ADDR) {
            if (r->nu + 2 > 64)
                return false;
            if (op->addr.base_kind == ISA_OPND_REG)
                r->use[r->nu++] = op->addr.base;
            if (op->addr.has_index)
                r->use[r->nu++] = op->addr.index;
        }
    }
    return true;
}

static bool int_scalar(const isa_inst *in)
{
    const isa_type t = (isa_type)in->type;
    return (t == ISA_T_U32 || t == ISA_T_I32 || t == ISA_T_U64 || t == ISA_T_I64) &&
           (in->vec == 0 || in->vec == 1) && in->flags == 0;
}

static bool reads_reg(const isa_operand *o, uint32_t r)
{
    return o->kind == ISA_OPND_REG && o->reg == r;
}

/* `mul rA, x, y` whose only reader is a later `add rB, rA, z` of the same
 * integer type in the same block -> `mad rB, x, y, z` (the same bits
 * modulo 2^width; floats are left alone). */
static void fuse_mad(isa_inst *code, uint32_t *n)
{
    uint32_t *uses = calloc(ISA_MAX_REGS, sizeof *uses);
    uint32_t *defs = calloc(ISA_MAX_REGS, sizeof *defs);
    uint8_t *tgt = branch_targets(code, *n), *del = calloc(*n + 1, 1);
    bool any = false;
    if (!uses || !defs || !tgt || !del)
        goto out;
    for (uint32_t i = 0; i < *n; i++) {
        xregs r;
        if (!inst_regs(&code[i], &r))
            goto out;
        for (unsigned u = 0; u < r.nu; u++)
            if (r.use[u] < ISA_MAX_REGS)
                uses[r.use[u]]++;
        for (unsigned d = 0; d < r.nd; d++)
            if (r.def[d] < ISA_MAX_REGS)
                defs[r.def[d]]++;
    }
    for (uint32_t i = 0; i < *n; i++) {
        const isa_inst *a = &code[i];
        if (a->op != ISA_OP_MUL || !int_scalar(a) || a->o[0].kind != ISA_OPND_REG ||
            a->o[0].reg >= ISA_MAX_REGS || uses[a->o[0].reg] != 1 || defs[a->o[0].reg] != 1)
            continue;
        const uint32_t ra = a->o[0].reg;
        for (uint32_t j = i + 1; j < *n && !tgt[j]; j++) {
            isa_inst *b = &code[j];
            const isa_op_info *oi = &isa_ops[b->op];
            xregs r;
            if (!inst_regs(b, &r))
                break;
            bool reads = false;
            for (unsigned u = 0; u < r.nu; u++)
                reads |= r.use[u] == ra;
            if (reads) {
                if (b->op == ISA_OP_ADD && b->type == a->type && int_scalar(b) &&
                    reads_reg(&b->o[1], ra) != reads_reg(&b->o[2], ra)) {
                    const isa_operand z = reads_reg(&b->o[1], ra) ? b->o[2] : b->o[1];
                    b->op = ISA_OP_MAD;
                    b->o[1] = a->o[1];
                    b->o[2] = a->o[2];
                    b->o[3] = z;
                    b->nopnd = 4;
                    del[i] = 1;
                    any = true;
                }
                break;
            }
            if (oi->family == ISA_FAM_BRA || oi->family == ISA_FAM_RET ||
                oi->family == ISA_FAM_BARRIER || oi->pipe == ISA_PIPE_COLL ||
                oi->pipe == ISA_PIPE_BLOCK)
                break;
            /* the sources must still hold their values at the add */
            bool clobbers = false;
            for (unsigned d = 0; d < r.nd; d++)
                clobbers |= reads_reg(&a->o[1], r.def[d]) || reads_reg(&a->o[2], r.def[d]) ||
                            r.def[d] == ra;
            if (clobbers)
                break;
        }
    }
    if (any)
        remove_marked(code, n, del);
out:
    free(uses);
    free(defs);
    free(tgt);
    free(del);
}

/* Narrowing of 64-bit work-item ids, which every OpenCL C kernel does
 * (`uint i = get_global_id(0)`, then `i` zero-extended again to index a
 * buffer), folded into the readers:
 *   `and rX, rY, 0xffffffff` used as an i64/u64 address index -> rY read
 *   as a u32 index;
 *   `cvt.u32.u64 rT, rY` whose readers all look at 32 bits only (32-bit
 *   integer ALU ops, compares, moves, selects, cvt sources, stores, u32/i32
 *   address indices) -> those readers read rY.
 * Both need rY to hold the same value at the readers as at the narrowing:
 * rY has one definition and no backward branch can run it again (so it
 * dominates, from SSA, and is never overwritten).  The narrowing itself is
 * removed when nothing reads it any more. */
typedef struct xdefs {
    uint32_t *ndef, *defat, *nuse;
    uint8_t *reexec;        /* per instruction: inside some backward jump */
} xdefs;

static bool xdefs_build(const isa_inst *code, uint32_t n, xdefs *x)
{
    x->ndef = calloc(ISA_MAX_REGS, sizeof *x->ndef);
    x->defat = calloc(ISA_MAX_REGS, sizeof *x->defat);
    x->nuse = calloc(ISA_MAX_REGS, sizeof *x->nuse);
    x->reexec = calloc(n + 1, 1);
    if (!x->ndef || !x->defat || !x->nuse || !x->reexec)
        return false;
    for (uint32_t i = 0; i < n; i++) {
        xregs r;
        if (!inst_regs(&code[i], &r))
            return false;
        for (unsigned d = 0; d < r.nd; d++)
            if (r.def[d] < ISA_MAX_REGS) {
                x->ndef[r.def[d]]++;
                x->defat[r.def[d]] = i;
            }
        for (unsigned u = 0; u < r.nu; u++)
            if (r.use[u] < ISA_MAX_REGS)
                x->nuse[r.use[u]]++;
    }
    /* i can run twice only if some branch at j >= i jumps to t <= i */
    uint32_t lo = UINT32_MAX;
    for (uint32_t i = n; i-- > 0;) {
        if (code[i].op == ISA_OP_BRA && code[i].target < lo)
            lo = code[i].target;
        x->reexec[i] = lo <= i;
    }
    return true;
}

static void xdefs_free(xdefs *x)
{
    free(x->ndef);
    free(x->defat);
    free(x->nuse);
    free(x->reexec);
}

/* rY keeps one value from its definition on */
static bool stable(const xdefs *x, uint32_t r)
{
    return r < ISA_MAX_REGS && x->ndef[r] == 1 && !x->reexec[x->defat[r]];
}

static bool int32_type(unsigned t)
{
    return t == ISA_T_U32 || t == ISA_T_I32;
}

/* Does operand o of `in`, a register read, look at its low 32 bits only? */
static bool reads_low32(const isa_inst *in, unsigned o)
{
    if (in->vec > 1 || o == 0 || in->o[o].kind != ISA_OPND_REG)
        return false;
    unsigned vec;
    if (!int32_type(isa_opnd_type(in, o, &vec)) || vec != 1)
        return false;
    switch (isa_ops[in->op].family) {
    case ISA_FAM_ADD: case ISA_FAM_SUB: case ISA_FAM_MUL: case ISA_FAM_MAD:
    case ISA_FAM_AND: case ISA_FAM_OR: case ISA_FAM_XOR: case ISA_FAM_NOT:
    case ISA_FAM_NEG: case ISA_FAM_SHL: case ISA_FAM_SHR: case ISA_FAM_MIN:
    case ISA_FAM_MAX: case ISA_FAM_ABS: case ISA_FAM_CMP: case ISA_FAM_MOV:
    case ISA_FAM_SEL: case ISA_FAM_CVT: case ISA_FAM_ST:
        return isa_ops[in->op].pipe != ISA_PIPE_COLL && isa_ops[in->op].pipe != ISA_PIPE_BLOCK;
    default:
        return false;
    }
}

static void fold_narrowing(isa_inst *code, uint32_t *n)
{
    xdefs x;
    memset(&x, 0, sizeof x);
    uint8_t *del = calloc(*n + 1, 1);
    bool any = false;
    if (!del || !xdefs_build(code, *n, &x))
        goto out;
    /* and rX, rY, 0xffffffff as an address index */
    for (uint32_t i = 0; i < *n; i++)
        for (unsigned o = 0; o < code[i].nopnd && o < ISA_MAX_OPNDS; o++) {
            isa_addr *a = &code[i].o[o].addr;
            if (code[i].o[o].kind != ISA_OPND_ADDR || !a->has_index ||
                (a->index_type != ISA_T_I64 && a->index_type != ISA_T_U64) ||
                a->index >= ISA_MAX_REGS || x.ndef[a->index] != 1)
                continue;
            const isa_inst *d = &code[x.defat[a->index]];
            if (d->op != ISA_OP_AND || (d->type != ISA_T_U64 && d->type != ISA_T_I64) ||
                (d->vec && d->vec != 1) || d->flags || d->o[0].kind != ISA_OPND_REG)
                continue;
            for (unsigned k = 1; k <= 2; k++) {
                const isa_operand *y = &d->o[k], *m = &d->o[3 - k];
                if (y->kind == ISA_OPND_REG && m->kind == ISA_OPND_IMM &&
                    m->imm == 0xffffffffu && stable(&x, y->reg)) {
                    x.nuse[a->index]--;
                    x.nuse[y->reg]++;
                    a->index = y->reg;
                    a->index_type = ISA_T_U32;
                    break;
                }
            }
        }
    /* cvt.{u32,i32}.{u64,i64} rT, rY read as 32 bits only */
    for (uint32_t i = 0; i < *n; i++) {
        const isa_inst *c = &code[i];
        if (c->op != ISA_OP_CVT || !int32_type(c->type) || c->flags ||
            (c->src_type != ISA_T_U64 && c->src_type != ISA_T_I64) ||
            (c->vec && c->vec != 1) || c->o[0].kind != ISA_OPND_REG ||
            c->o[1].kind != ISA_OPND_REG || c->o[0].reg >= ISA_MAX_REGS ||
            x.ndef[c->o[0].reg] != 1 || !stable(&x, c->o[1].reg))
            continue;
        const uint32_t rt = c->o[0].reg, ry = c->o[1].reg;
        bool ok = true;
        for (uint32_t j = 0; j < *n && ok; j++) {
            const isa_inst *u = &code[j];
            for (unsigned o = 0; o < u->nopnd && o < ISA_MAX_OPNDS && ok; o++) {
                const isa_operand *op = &u->o[o];
                if (op->kind == ISA_OPND_REG && op->reg == rt)
                    ok = j == i || reads_low32(u, o);
                else if (op->kind == ISA_OPND_ADDR)
                    ok = !(op->addr.base_kind == ISA_OPND_REG && op->addr.base == rt) &&
                         !(op->addr.has_index && op->addr.index == rt &&
                           !int32_type(op->addr.index_type));
            }
        }
        if (!ok)
            continue;
        for (uint32_t j = 0; j < *n; j++) {
            if (j == i)
                continue;
            isa_inst *u = &code[j];
            for (unsigned o = 0; o < u->nopnd && o < ISA_MAX_OPNDS; o++) {
                isa_operand *op = &u->o[o];
                if (op->kind == ISA_OPND_REG && op->reg == rt)
                    op->reg = (uint16_t)ry;
                else if (op->kind == ISA_OPND_ADDR && op->addr.has_index &&
                         op->addr.index == rt)
                    op->addr.index = (uint16_t)ry;
            }
        }
        x.nuse[ry] += x.nuse[rt];
        x.nuse[rt] = 0;
    }
    /* narrowings nobody reads any more */
    for (uint32_t i = 0; i < *n; i++) {
        const isa_inst *c = &code[i];
        if ((c->op == ISA_OP_CVT || c->op == ISA_OP_AND) && c->o[0].kind == ISA_OPND_REG &&
            c->o[0].reg < ISA_MAX_REGS && x.nuse[c->o[0].reg] == 0 &&
            x.ndef[c->o[0].reg] == 1 && (c->vec == 0 || c->vec == 1)) {
            del[i] = 1;
            any = true;
        }
    }
    if (any)
        remove_marked(code, n, del);
out:
    xdefs_free(&x);
    free(del);
}

/* A compare that reads rD right after `rS = ...` whose value later moves
 * into rD (`mov rD, rS`, a loop latch's phi copy: `i' = i + 1; cmp i`)
 * is moved above that definition, so rD dies there and the copy can be
 * coalesced.  Only a compare and a predicate-free ALU op are swapped, and
 * not when a branch lands between them. */
static void hoist_compares(isa_inst *code, uint32_t n)
{
    uint8_t *tgt = branch_targets(code, n);
    uint8_t *copied = calloc(ISA_MAX_REGS, 1);   /* rS -> some mov reads it */
    if (!tgt || !copied)
        goto out;
    for (uint32_t i = 0; i < n; i++)
        if (code[i].op == ISA_OP_MOV && code[i].o[0].kind == ISA_OPND_REG &&
            code[i].o[1].kind == ISA_OPND_REG && code[i].o[1].reg < ISA_MAX_REGS)
            copied[code[i].o[1].reg] = 1;
    for (uint32_t p = 1; p < n; p++) {
        isa_inst *c = &code[p], *a = &code[p - 1];
        const isa_op_info *ai = &isa_ops[a->op];
        if (isa_ops[c->op].family != ISA_FAM_CMP || c->o[0].kind != ISA_OPND_PRED || tgt[p] ||
            a->o[0].kind != ISA_OPND_REG || a->o[0].reg >= ISA_MAX_REGS ||
            !copied[a->o[0].reg] || ai->pipe != ISA_PIPE_ALU || !isa_family_is_arith(ai->family) ||
            (a->vec && a->vec != 1))
            continue;
        bool ok = true;
        for (unsigned o = 1; o < a->nopnd && o < ISA_MAX_OPNDS; o++)
            ok &= a->o[o].kind != ISA_OPND_PRED;
        /* the compare must not read a's result */
        for (unsigned o = 1; o < c->nopnd && o < ISA_MAX_OPNDS; o++)
            ok &= !reads_reg(&c->o[o], a->o[0].reg);
        /* and must read the register a's value is copied into */
        bool reads_dst = false;
        for (uint32_t i = 0; i < n && ok && !reads_dst; i++)
            if (code[i].op == ISA_OP_MOV && reads_reg(&code[i].o[1], a->o[0].reg) &&
                code[i].o[0].kind == ISA_OPND_REG)
                for (unsigned o = 1; o < c->nopnd && o < ISA_MAX_OPNDS; o++)
                    reads_dst |= reads_reg(&c->o[o], code[i].o[0].reg);
        if (!ok || !reads_dst)
            continue;
        const isa_inst t = *a;
        *a = *c;
        *c = t;
    }
out:
    free(tgt);
    free(copied);
}

/* Register liveness after each instruction (a bit set of nw words per
 * instruction, out[i * nw ...]) by backward iteration to a fixed point;
 * in0 gets the set live at the entry. */
static bool liveness(const isa_inst *code, uint32_t n, uint32_t nw, uint64_t *out,
                     uint64_t *in0, uint64_t *work)
{
    uint64_t *in = calloc((size_t)(n + 1) * nw, sizeof *in);   /* in[n]: exit, empty */
    if (!in)
        return false;
    memset(out, 0, (size_t)n * nw * sizeof *out);
    bool changed = true;
    /* *work bounds the whole pass on pathological input (each sweep costs
     * n * nw word operations): no fixed point in budget, no coalescing */
    for (; changed && *work >= (uint64_t)n * nw; *work -= (uint64_t)n * nw) {
        changed = false;
        for (uint32_t i = n; i-- > 0;) {
            const isa_inst *c = &code[i];
            uint64_t *o = out + (size_t)i * nw, *li = in + (size_t)i * nw;
            const uint32_t fall = i + 1, tg = c->target <= n ? c->target : n;
            const bool is_bra = c->op == ISA_OP_BRA, is_ret = c->op == ISA_OP_RET;
            for (uint32_t w = 0; w < nw; w++) {
                uint64_t v = 0;
                if (!is_ret && (!is_bra || c->nopnd >= 2))
                    v |= in[(size_t)fall * nw + w];
                if (is_bra)
                    v |= in[(size_t)tg * nw + w];
                o[w] = v;
            }
            uint64_t nin[ISA_MAX_REGS / 64 + 1];
            memcpy(nin, o, nw * sizeof *nin);
            xregs r;
            inst_regs(c, &r);
            for (unsigned d = 0; d < r.nd; d++)
                nin[r.def[d] / 64] &= ~(UINT64_C(1) << (r.def[d] % 64));
            for (unsigned u = 0; u < r.nu; u++)
                nin[r.use[u] / 64] |= UINT64_C(1) << (r.use[u] % 64);
            if (memcmp(nin, li, nw * sizeof *nin)) {
                memcpy(li, nin, nw * sizeof *nin);
                changed = true;
            }
        }
    }
    memcpy(in0, in, nw * sizeof *in0);
    free(in);
    return !changed;
}

static bool bit(const uint64_t *s, uint32_t r)
{
    return (s[r / 64] >> (r % 64)) & 1;
}

/* Copy coalescing: `mov rD, rS` where rS has one definition of the same
 * type and the two never hold different live values (rD is dead after the
 * definition of rS, rS is dead after every other definition of rD: the
 * classic interference test, per work-item) -> rS renamed to rD and the
 * mov removed.  This folds most phi copies of loop latches into the
 * instructions that compute them.  Registers read across lanes
 * (collectives, block I/O), of vector operands, of images or atomics
 * keep their numbers. */
static void coalesce_copies(isa_inst *code, uint32_t *n)
{
    uint32_t nreg = 0, ndefs = 0;
    for (uint32_t i = 0; i < *n; i++) {
        xregs r;
        if (!inst_regs(&code[i], &r))
            return;
        ndefs += r.nd;
        for (unsigned u = 0; u < r.nu; u++)
            nreg = r.use[u] + 1 > nreg ? r.use[u] + 1 : nreg;
        for (unsigned d = 0; d < r.nd; d++)
            nreg = r.def[d] + 1 > nreg ? r.def[d] + 1 : nreg;
    }
    const uint32_t nw = (nreg + 63) / 64;
    if (!nreg || nreg > ISA_MAX_REGS || (uint64_t)*n * nw > (1u << 20))
        return;
    uint64_t *out = malloc((size_t)*n * nw * sizeof *out);
    uint64_t in0[ISA_MAX_REGS / 64 + 1];
    uint8_t *pinned = calloc(nreg, 1), *touched = calloc(nreg, 1);
    uint8_t *del = calloc(*n + 1, 1);
    uint32_t *ndef = calloc(nreg + 1, sizeof *ndef);      /* then: first def slot */
    uint32_t *defs = calloc(ndefs + 1, sizeof *defs);     /* def positions by register */
    uint32_t *rename = calloc(nreg, sizeof *rename);
    if (!out || !pinned || !touched || !del || !ndef || !defs || !rename)
        goto out;
    uint64_t work = UINT64_C(1) << 26;
    for (int round = 0; round < 64; round++) {
        /* definitions grouped by register: defs[ndef[r] .. ndef[r + 1]) */
        memset(pinned, 0, nreg);
        memset(ndef, 0, (nreg + 1) * sizeof *ndef);
        for (uint32_t i = 0; i < *n; i++) {
            const isa_inst *c = &code[i];
            const isa_op_info *oi = &isa_ops[c->op];
            xregs r;
            inst_regs(c, &r);
            const bool pin = oi->pipe == ISA_PIPE_COLL || oi->pipe == ISA_PIPE_BLOCK ||
                             oi->family == ISA_FAM_ATOM || oi->family == ISA_FAM_IMG_READ ||
                             oi->family == ISA_FAM_IMG_WRITE ||
                             oi->family == ISA_FAM_IMG_QUERY || (c->vec && c->vec != 1) ||
                             r.nd > 1;
            for (unsigned u = 0; u < r.nu && pin; u++)
                pinned[r.use[u]] = 1;
            for (unsigned d = 0; d < r.nd; d++) {
                pinned[r.def[d]] |= pin;
                ndef[r.def[d] + 1]++;
            }
        }
        for (uint32_t r = 0; r < nreg; r++)
            ndef[r + 1] += ndef[r];
        {
            uint32_t *fill = rename;   /* scratch: next free slot per register */
            memcpy(fill, ndef, nreg * sizeof *fill);
            for (uint32_t i = 0; i < *n; i++) {
                xregs r;
                inst_regs(&code[i], &r);
                for (unsigned d = 0; d < r.nd; d++)
                    defs[fill[r.def[d]]++] = i;
            }
        }
        if (!liveness(code, *n, nw, out, in0, &work))
            break;
        /* merges of disjoint register pairs in one round: renaming one pair
         * changes no other register's liveness */
        memset(touched, 0, nreg);
        memset(del, 0, *n + 1);
        for (uint32_t r = 0; r < nreg; r++)
            rename[r] = r;
        bool any = false;
        for (uint32_t i = 0; i < *n; i++) {
            const isa_inst *c = &code[i];
            if (c->op != ISA_OP_MOV || (c->vec && c->vec != 1) || c->flags ||
                c->o[0].kind != ISA_OPND_REG || c->o[1].kind != ISA_OPND_REG)
                continue;
            const uint32_t rd = c->o[0].reg, rs = c->o[1].reg;
            if (rd == rs || rd >= nreg || rs >= nreg || pinned[rd] || pinned[rs] ||
                touched[rd] || touched[rs] || ndef[rs + 1] - ndef[rs] != 1 || bit(in0, rs))
                continue;
            const uint32_t j = defs[ndef[rs]];
            const isa_inst *dj = &code[j];
            if (dj->type != c->type || (dj->vec && dj->vec != 1) ||
                !reads_reg(&dj->o[0], rs) || bit(out + (size_t)j * nw, rd))
                continue;
            bool clash = false;
            for (uint32_t q = ndef[rd]; q < ndef[rd + 1] && !clash; q++)
                clash = defs[q] != i && bit(out + (size_t)defs[q] * nw, rs);
            if (clash)
                continue;
            rename[rs] = rd;
            touched[rs] = touched[rd] = 1;
            del[i] = 1;
            any = true;
        }
        if (!any)
            break;
        for (uint32_t i = 0; i < *n; i++) {
            isa_inst *c = &code[i];
            for (unsigned o = 0; o < c->nopnd && o < ISA_MAX_OPNDS; o++) {
                isa_operand *op = &c->o[o];
                if (op->kind == ISA_OPND_REG && op->reg < nreg)
                    op->reg = (uint16_t)rename[op->reg];
                else if (op->kind == ISA_OPND_ADDR) {
                    if (op->addr.base_kind == ISA_OPND_REG && op->addr.base < nreg)
                        op->addr.base = (uint16_t)rename[op->addr.base];
                    if (op->addr.has_index && op->addr.index < nreg)
                        op->addr.index = (uint16_t)rename[op->addr.index];
                }
            }
        }
        remove_marked(code, n, del);   /* the movs, now `mov rD, rD` */
    }
out:
    free(out);
    free(pinned);
    free(touched);
    free(del);
    free(ndef);
    free(defs);
    free(rename);
}

/* Renumber the registers densely in their order: the passes above leave
 * gaps (removed copies, folded multiplies, dead values), and every
 * register costs a row per sub-group that each work-group clears.  The
 * map is monotone, so a vector operand's consecutive registers stay
 * consecutive. */
static void compact_registers(isa_inst *code, uint32_t n)
{
    uint16_t *map = calloc(ISA_MAX_REGS, sizeof *map);
    uint8_t *used = calloc(ISA_MAX_REGS, 1);
    if (!map || !used)
        goto out;
    for (uint32_t i = 0; i < n; i++) {
        xregs r;
        if (!inst_regs(&code[i], &r))
            goto out;
        for (unsigned u = 0; u < r.nu; u++)
            if (r.use[u] < ISA_MAX_REGS)
                used[r.use[u]] = 1;
        for (unsigned d = 0; d < r.nd; d++)
            if (r.def[d] < ISA_MAX_REGS)
                used[r.def[d]] = 1;
    }
    uint16_t next = 0;
    for (uint32_t r = 0; r < ISA_MAX_REGS; r++)
        map[r] = used[r] ? next++ : (uint16_t)r;
    for (uint32_t i = 0; i < n; i++) {
        isa_inst *c = &code[i];
        for (unsigned o = 0; o < c->nopnd && o < ISA_MAX_OPNDS; o++) {
            isa_operand *op = &c->o[o];
            if (op->kind == ISA_OPND_REG && op->reg < ISA_MAX_REGS)
                op->reg = map[op->reg];
            else if (op->kind == ISA_OPND_ADDR) {
                if (op->addr.base_kind == ISA_OPND_REG && op->addr.base < ISA_MAX_REGS)
                    op->addr.base = map[op->addr.base];
                if (op->addr.has_index && op->addr.index < ISA_MAX_REGS)
                    op->addr.index = map[op->addr.index];
            }
        }
    }
out:
    free(map);
    free(used);
}

/* The source file the module's OpLines name (it was compiled with -g), or
 * NULL: its lines are then the source's, and so should the file name be. */
static const char *line_source(spv_module *m)
{
    const uint32_t id = m->line_file;
    if (!id || id >= m->bound || !m->def[id])
        return NULL;
    const spv_inst *s = &m->ins[m->def[id] - 1];
    return s->op == SpvOpString ? spv_string(m, s, 2, NULL) : NULL;
}

int spv_translate(const char *file, const void *data, size_t len, const char *entry,
                  isa_kernel *k, bool *args_unnamed, isa_diags *diags)
{
    spv_module m;
    memset(k, 0, sizeof *k);
    if (args_unnamed)
        *args_unnamed = false;
    snprintf(diags->file, sizeof diags->file, "%s", file);
    int errs = spv_module_parse(&m, file, data, len, diags);
    if (errs) {
        spv_module_free(&m);
        return errs;
    }
    if (line_source(&m)) {
        file = line_source(&m);
        snprintf(diags->file, sizeof diags->file, "%s", file);
    }
    const spv_entry *e = NULL;
    for (uint32_t i = 0; i < m.nentries; i++)
        if (!entry || !strcmp(m.entries[i].name, entry)) {
            if (e && !entry) {
                char list[180] = "";
                for (uint32_t j = 0; j < m.nentries; j++)
                    snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s",
                             j ? ", " : "", m.entries[j].name);
                isa_diags_add(diags, 1, 1, "the module has %u kernels (%s): choose one with "
                              "--kernel NAME", m.nentries, list);
                spv_module_free(&m);
                return 1;
            }
            e = &m.entries[i];
        }
    if (!e) {
        char list[180] = "";
        for (uint32_t j = 0; j < m.nentries; j++)
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", j ? ", " : "",
                     m.entries[j].name);
        if (entry)
            isa_diags_add(diags, 1, 1, "the module has no kernel '%s' (kernels: %s)", entry,
                          m.nentries ? list : "none");
        else
            isa_diags_add(diags, 1, 1, "the module has no kernel entry point");
        spv_module_free(&m);
        return 1;
    }
    xctx x;
    memset(&x, 0, sizeof x);
    x.m = &m;
    x.k = k;
    x.kname = e->name;
    snprintf(k->name, sizeof k->name, "%s", e->name);
    snprintf(k->file, sizeof k->file, "%s", file);
    k->reqd_sg_size = e->sg_size;
    x.gv = calloc(m.bound, sizeof *x.gv);   // NOLINT(bugprone-sizeof-expression): an array of pointers
    xval *args[ISA_MAX_ARGS] = { 0 };
    unsigned nargs = 0;
    bool unnamed = false;
    if (!x.gv)
        x_error(&x, "out of memory");
    for (uint32_t i = 0; i < m.nins && !x.failed; i++) {
        if (m.ins[i].op == SpvOpFunction)
            break;
        module_value(&x, &m.ins[i]);
    }
    x.cur = NULL;
    if (!x.failed)
        setup_args(&x, e, args, &nargs, &unnamed);
    if (!x.failed)
        x_const_vars(&x);
    if (!x.failed)
        x_global_vars(&x);
    if (!x.failed)
        translate_function(&x, e->func, args, nargs, NULL, true, 0, NULL);
    if (!x.failed) {
        dead_code(&x);
        for (uint32_t i = 0; i < x.ncode; i++) {
            isa_inst *in = &x.code[i];
            for (unsigned o = 0; o < in->nopnd; o++)
                if (in->o[o].kind == ISA_OPND_LABEL) {
                    uint32_t l = (uint32_t)in->o[o].imm;
                    uint32_t pc = l < x.nlabel ? x.label_pc[l] : ISA_PC_EXIT;
                    in->target = pc == ISA_PC_EXIT ? x.ncode : pc;
                    in->o[o].imm = 0;
                }
        }
        drop_fallthrough(x.code, &x.ncode);
        /* SGEMU_SPV_OPT=0 keeps the stream as translated (A/B, bisecting) */
        const char *opt = getenv("SGEMU_SPV_OPT");
        if (!opt || strcmp(opt, "0") != 0) {
            invert_branches(x.code, &x.ncode);
            fuse_mad(x.code, &x.ncode);
            fold_narrowing(x.code, &x.ncode);
            hoist_compares(x.code, x.ncode);
            coalesce_copies(x.code, &x.ncode);
            /* removed copies leave new fall-throughs and branch pairs */
            drop_fallthrough(x.code, &x.ncode);
            invert_branches(x.code, &x.ncode);
            drop_fallthrough(x.code, &x.ncode);
            compact_registers(x.code, x.ncode);
        }
        k->inst = x.code;
        k->ninst = x.ncode;
        x.code = NULL;
    }
    if (args_unnamed)
        *args_unnamed = unnamed;
    for (unsigned i = 0; i < ISA_MAX_ARGS; i++)
        free(args[i]);
    if (x.gv)
        for (uint32_t i = 0; i < m.bound; i++)
            free(x.gv[i]);
    free(x.gv);
    free(x.code);
    free(x.pure);
    free(x.label_pc);
    errs = (int)diags->count;
    spv_module_free(&m);
    if (errs) {
        isa_kernel_free(k);
        return errs;
    }
    errs = isa_validate(k, diags);
    if (errs)
        isa_kernel_free(k);     /* as isa_assemble: no kernel on error */
    return errs;
}
