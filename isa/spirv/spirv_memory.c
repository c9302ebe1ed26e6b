/* spirv_memory.c - pointers and memory: access chains, loads and stores,
 * built-in variables, atomics, barriers, function-scope variables. */
#include "spirv_private.h"

/* Pointer arithmetic: OpAccessChain family. */
void spv_op_access_chain(xctx *x, xfn *f, const spv_inst *in)
{
    spv_module *m = x->m;
    uint32_t rt = spv_word(m, in, 1), id = spv_word(m, in, 2);
    xval *base = spv_val(x, f, spv_word(m, in, 3));
    const spv_type *bt = NULL;
    if (!base || !base->n)
        return;
    /* the base's pointee type comes from the base's defining type */
    uint32_t bid = spv_word(m, in, 3);
    const spv_inst *bd = m->def[bid] ? &m->ins[m->def[bid] - 1] : NULL;
    const spv_op_info *boi = bd ? spv_op_find(bd->op) : NULL;
    if (!bd || !boi || !boi->has_type) {
        spv_error(x, "base pointer %u has no type", bid);
        return;
    }
    bt = spv_type_lookup(x, spv_word(m, bd, 1));
    if (!bt || bt->kind != SPV_TY_PTR) {
        spv_error(x, "base is not a pointer");
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
        uint32_t r = spv_reg(x, 1);
        isa_inst *mv = spv_emit(x, ISA_OP_MOV, ISA_T_U64);
        mv->o[0] = spv_R(r);
        mv->o[1] = cur.o;
        mv->nopnd = 2;
        a.base_kind = ISA_OPND_REG;
        a.base = (uint16_t)r;
    } else {
        spv_error(x, "unsupported base pointer");
        return;
    }
    uint32_t ty = bt->elem;
    unsigned first = 4;
    bool ptr_chain = in->op == SpvOpPtrAccessChain || in->op == SpvOpInBoundsPtrAccessChain;
    for (unsigned w = first; w < in->nw && !x->failed; w++) {
        uint32_t iid = m->w[in->off + w];
        xval *iv = spv_val(x, f, iid);
        if (!iv || !iv->n)
            return;
        const spv_type *t = spv_type_lookup(x, ty);
        if (!t)
            return;
        uint64_t step;
        uint32_t next = ty;
        if (ptr_chain && w == first) {
            step = t->size;
        } else if (t->kind == SPV_TY_ARRAY || t->kind == SPV_TY_VEC) {
            next = t->elem;
            step = spv_type_size(x, next);
        } else if (t->kind == SPV_TY_STRUCT) {
            if (iv->c[0].o.kind != ISA_OPND_IMM || iv->c[0].o.imm >= t->nmembers) {
                spv_error(x, "struct member index is not a valid constant");
                return;
            }
            a.disp = (int64_t)((uint64_t)a.disp + m->member_off[t->first_member + iv->c[0].o.imm]);
            ty = m->members[t->first_member + iv->c[0].o.imm];
            continue;
        } else {
            spv_error(x, "cannot index into this type");
            return;
        }
        ty = next;
        const spv_inst *idef = m->def[iid] ? &m->ins[m->def[iid] - 1] : NULL;
        const spv_type *it = idef ? spv_type_lookup(x, spv_word(m, idef, 1)) : NULL;
        if (iv->c[0].o.kind == ISA_OPND_IMM) {
            int64_t iv64 = it && it->isa_t == ISA_T_U32 ? (int64_t)(int32_t)iv->c[0].o.imm
                                                        : (int64_t)iv->c[0].o.imm;
            a.disp = (int64_t)((uint64_t)a.disp + (uint64_t)iv64 * step);   /* wraps, never UB */
            continue;
        }
        if (a.has_index) {   /* fold what we have into a register first */
            isa_operand r = spv_addr_to_reg(x, &a);
            memset(&a, 0, sizeof a);
            a.base_kind = ISA_OPND_REG;
            a.base = r.reg;
        }
        isa_operand io = spv_src(x, &iv->c[0]);
        if (io.kind != ISA_OPND_REG) {
            uint32_t r = spv_reg(x, 1);
            isa_inst *mv = spv_emit(x, ISA_OP_MOV, it ? spv_comp_type(it) : ISA_T_U64);
            mv->o[0] = spv_R(r);
            mv->o[1] = io;
            mv->nopnd = 2;
            io = spv_R(r);
        }
        a.has_index = 1;
        a.index = io.reg;
        a.index_type = it && it->isa_t == ISA_T_U32 ? ISA_T_I32 : ISA_T_I64;
        if (it && (it->isa_t == ISA_T_U8 || it->isa_t == ISA_T_U16)) {
            spv_error(x, "8/16-bit pointer indices are not supported");
            return;
        }
        if (step > INT32_MAX) {
            spv_error(x, "element size too large");
            return;
        }
        a.scale = (int32_t)step;
    }
    (void)rt;
    xval *v = spv_def(x, f, id, 1);
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
    if (sp == ISA_SP_COUNT && spv_load_group_mask(x, f, id, b))
        return;
    if (sp == ISA_SP_COUNT) {
        const char *bn = spv_enum_name("BuiltIn", b);
        spv_error(x, "built-in variable %s is not supported", bn ? bn : "?");
        return;
    }
    xval *v = spv_def(x, f, id, t->ncomp);
    if (!v)
        return;
    uint32_t r = spv_reg(x, t->ncomp);
    for (unsigned i = 0; i < t->ncomp; i++) {
        isa_inst *in = spv_emit(x, ISA_OP_MOV, spv_comp_type(t));
        in->o[0] = spv_R(r + i);
        memset(&in->o[1], 0, sizeof in->o[1]);
        in->o[1].kind = ISA_OPND_SPECIAL;
        in->o[1].reg = (uint16_t)sp;
        in->o[1].dim = (uint8_t)(isa_specials[sp].takes_dim ? (i < 3 ? i : 0) : 0);
        in->nopnd = 2;
        v->c[i].o = spv_R(r + i);
    }
}

void spv_op_load(xctx *x, xfn *f, const spv_inst *in)
{
    spv_module *m = x->m;
    uint32_t rt = spv_word(m, in, 1), id = spv_word(m, in, 2), pid = spv_word(m, in, 3);
    const spv_type *t = spv_type_lookup(x, rt);
    if (!t)
        return;
    if (pid && pid < m->bound && m->builtin[pid]) {
        load_builtin(x, f, id, pid, t);
        return;
    }
    if (spv_load_aggregate(x, f, in) || spv_load_unaligned(x, f, in))
        return;
    xval *p = spv_val(x, f, pid);
    if (!p || !p->n)
        return;
    xval *v = spv_def(x, f, id, 1);
    if (!v || !spv_alloc_regs(x, v, t))
        return;
    isa_space sp;
    isa_operand a = spv_addr_of(x, &p->c[0], &sp);
    if (t->kind == SPV_TY_BOOL && t->ncomp == 1) {
        /* a byte 0/1, as LLVM keeps an i1 global (`static global` shrunk to
         * bool by the optimiser) */
        uint32_t b = spv_reg(x, 1);
        isa_inst *ld = spv_emit(x, ISA_OP_LD, ISA_T_U8);
        ld->vec = 1;
        ld->space = (uint8_t)sp;
        ld->o[0] = spv_R(b);
        ld->o[1] = a;
        ld->nopnd = 2;
        v->c[0].o = spv_R(spv_cvt(x, ISA_T_U32, ISA_T_U8, spv_R(b)));
        return;
    }
    spv_load_value(x, v, t, a, sp);
    if (t->kind == SPV_TY_BOOL)
        spv_error(x, "loads of bool vectors are not supported");
}

void spv_load_value(xctx *x, const xval *v, const spv_type *t, isa_operand a, isa_space sp)
{
    isa_inst *ld = spv_emit(x, ISA_OP_LD, spv_comp_type(t));
    ld->vec = t->ncomp;
    ld->space = (uint8_t)sp;
    ld->o[0] = v->c[0].o;
    ld->o[1] = a;
    ld->nopnd = 2;
}

void spv_store_value(xctx *x, const xval *v, isa_type ct, isa_operand a, isa_space sp)
{
    isa_inst *st;
    if (v->n > 1) {
        uint32_t r = spv_gather(x, v, ct);
        st = spv_emit(x, ISA_OP_ST, ct);
        st->o[1] = spv_R(r);
    } else {
        isa_operand s = spv_src(x, &v->c[0]);
        st = spv_emit(x, ISA_OP_ST, ct);
        st->o[1] = s;
    }
    st->vec = v->n;
    st->space = (uint8_t)sp;
    st->o[0] = a;
    st->nopnd = 2;
}

void spv_op_store(xctx *x, xfn *f, const spv_inst *in)
{
    spv_module *m = x->m;
    if (spv_store_aggregate(x, f, in) || spv_store_unaligned(x, f, in))
        return;
    xval *p = spv_val(x, f, spv_word(m, in, 1));
    xval *v = spv_val(x, f, spv_word(m, in, 2));
    if (!p || !v || !p->n || !v->n)
        return;
    uint32_t vid = spv_word(m, in, 2);
    const spv_inst *vd = m->def[vid] ? &m->ins[m->def[vid] - 1] : NULL;
    const spv_type *t = NULL;
    if (vd) {
        const spv_op_info *oi = spv_op_find(vd->op);
        if (oi && oi->has_type)
            t = spv_type_lookup(x, spv_word(m, vd, 1));
        else if (vd->op == SpvOpFunctionParameter)
            t = spv_type_lookup(x, spv_word(m, vd, 1));
    }
    if (!t)
        return;
    isa_space sp;
    isa_operand a = spv_addr_of(x, &p->c[0], &sp);
    if (t->kind == SPV_TY_BOOL && t->ncomp == 1) {   /* one byte 0/1, as do_load reads */
        isa_operand b = spv_src(x, &v->c[0]);
        if (b.kind == ISA_OPND_REG)
            b = spv_R(spv_cvt(x, ISA_T_U8, ISA_T_U32, b));
        isa_inst *st = spv_emit(x, ISA_OP_ST, ISA_T_U8);
        st->vec = 1;
        st->space = (uint8_t)sp;
        st->flags |= ISA_F_ATOMIC;
        st->o[0] = a;
        st->o[1] = b;
        st->nopnd = 2;
        return;
    }
    spv_store_value(x, v, spv_comp_type(t), a, sp);
}

/* The race detector's flags for a memory scope and semantics pair (ids):
 * acquire, release (both for sequentially consistent and acq_rel: each
 * access keeps the half it can have), the scope when narrower than the
 * device, and the storage classes named as fence flags.  A scope or
 * semantics that is not a constant counts as sequentially consistent at
 * device scope: more ordering, so no race is made up. */
/* The storage classes: an atomic orders its own space only (sgemu's
 * rule, docs/cli.md), a fence those it names. */
#define SYNC_SPACES (ISA_F_FENCE_LOCAL | ISA_F_FENCE_GLOBAL)

static uint16_t sync_flags_of(uint64_t scope, uint64_t s)
{
    uint16_t fl = 0;
    if (s & (SpvMemorySemanticsAcquireMask | SpvMemorySemanticsAcquireReleaseMask |
             SpvMemorySemanticsSequentiallyConsistentMask))
        fl |= ISA_F_ACQUIRE;
    if (s & (SpvMemorySemanticsReleaseMask | SpvMemorySemanticsAcquireReleaseMask |
             SpvMemorySemanticsSequentiallyConsistentMask))
        fl |= ISA_F_RELEASE;
    if (!fl)
        return 0;
    if (scope == SpvScopeWorkgroup)
        fl |= ISA_F_SCOPE_WG;
    else if (scope == SpvScopeSubgroup || scope == SpvScopeInvocation)
        fl |= ISA_F_SCOPE_SG;
    if (s & SpvMemorySemanticsWorkgroupMemoryMask) fl |= ISA_F_FENCE_LOCAL;
    if (s & SpvMemorySemanticsCrossWorkgroupMemoryMask) fl |= ISA_F_FENCE_GLOBAL;
    return fl;
}

static uint16_t sync_flags(xctx *x, xfn *f, uint32_t scope_id, uint32_t sem_id)
{
    const xval *es = spv_val(x, f, scope_id), *sem = spv_val(x, f, sem_id);
    if (es && es->n && es->c[0].o.kind == ISA_OPND_IMM && sem && sem->n &&
        sem->c[0].o.kind == ISA_OPND_IMM)
        return sync_flags_of(es->c[0].o.imm, sem->c[0].o.imm);
    return sync_flags_of(SpvScopeDevice, SpvMemorySemanticsSequentiallyConsistentMask);
}

/* The read-modify-write itself: rD = old value at pointer p, the sources
 * after the address; flags from the scope and semantics. */
static void emit_rmw(xctx *x, xfn *f, isa_opcode op, isa_type ty, const spv_type *t,
                     uint32_t result_id, xval *p, const isa_operand *src, unsigned nsrc,
                     uint16_t flags)
{
    xval *r = spv_def(x, f, result_id, 1);
    if (!r || !spv_alloc_regs(x, r, t))
        return;
    isa_space sp;
    isa_operand a = spv_addr_of(x, &p->c[0], &sp);
    if (sp == ISA_SPACE_PRIVATE || sp == ISA_SPACE_CONSTANT)
        spv_error(x, "atomics on %s memory are not supported", isa_space_names[sp]);
    isa_inst *ai = spv_emit(x, op, ty);
    ai->space = (uint8_t)sp;
    ai->flags |= flags & (uint16_t)~SYNC_SPACES;
    if (op == ISA_OP_LD)
        ai->flags = (uint16_t)((ai->flags | ISA_F_ATOMIC) & ~ISA_F_RELEASE);
    ai->o[0] = r->c[0].o;
    ai->o[1] = a;
    ai->nopnd = 2;
    for (unsigned i = 0; i < nsrc; i++)
        ai->o[ai->nopnd++] = src[i];
}

/* OpAtomicFAddEXT / FMinEXT / FMaxEXT and the float atomic_fetch_sub call
 * act on one float; anything else is a module sgemu cannot run. */
static bool float_atomic_type(xctx *x, const spv_type *t, isa_type ty, const char *what)
{
    if (t->ncomp == 1 && ty < ISA_T_COUNT && isa_types[ty].is_float)
        return true;
    spv_error(x, "%s%sa floating-point atomic needs a scalar half, float or double "
              "result type, not %s%s", what ? what : "", what ? ": " : "",
              ty < ISA_T_COUNT ? isa_types[ty].cl_name : "this type",
              t->ncomp > 1 ? " vector" : "");
    return false;
}

void spv_op_atomic(xctx *x, xfn *f, const spv_inst *in)
{
    spv_module *m = x->m;
    bool has_result = in->op != SpvOpAtomicStore;
    unsigned pw = has_result ? 3 : 1;
    xval *p = spv_val(x, f, spv_word(m, in, pw));
    if (!p || !p->n)
        return;
    const spv_type *t = has_result ? spv_type_lookup(x, spv_word(m, in, 1)) : NULL;
    if (!has_result) {
        xval *v = spv_val(x, f, spv_word(m, in, 4));
        uint32_t vid = spv_word(m, in, 4);
        const spv_inst *vd = vid < m->bound && m->def[vid] ? &m->ins[m->def[vid] - 1] : NULL;
        t = vd ? spv_type_lookup(x, spv_word(m, vd, 1)) : NULL;
        if (!v || !t || !v->n)
            return;
        isa_space sp;
        isa_operand a = spv_addr_of(x, &p->c[0], &sp);
        isa_operand s = spv_src(x, &v->c[0]);
        isa_inst *st = spv_emit(x, ISA_OP_ST, spv_comp_type(t));
        st->space = (uint8_t)sp;
        st->flags |= ISA_F_ATOMIC | (sync_flags(x, f, spv_word(m, in, 2), spv_word(m, in, 3)) &
                                     (uint16_t)~(ISA_F_ACQUIRE | SYNC_SPACES));
        st->o[0] = a;
        st->o[1] = s;
        st->nopnd = 2;
        return;
    }
    if (!t)
        return;
    isa_type ty = spv_comp_type(t);
    isa_opcode op;
    isa_operand s1 = spv_I(1), s2;
    unsigned nsrc = 1;
    bool fl = false;   /* SPV_EXT_shader_atomic_float_add / _min_max */
    switch (in->op) {
    case SpvOpAtomicFAddEXT: op = ISA_OP_ATOM_ADD; fl = true; break;
    case SpvOpAtomicFMinEXT: op = ISA_OP_ATOM_MIN; fl = true; break;
    case SpvOpAtomicFMaxEXT: op = ISA_OP_ATOM_MAX; fl = true; break;
    case SpvOpAtomicLoad: op = ISA_OP_LD; nsrc = 0; break;
    case SpvOpAtomicIIncrement: op = ISA_OP_ATOM_ADD; break;
    case SpvOpAtomicIDecrement: op = ISA_OP_ATOM_SUB; break;
    case SpvOpAtomicIAdd: op = ISA_OP_ATOM_ADD; break;
    case SpvOpAtomicISub: op = ISA_OP_ATOM_SUB; break;
    case SpvOpAtomicSMin: op = ISA_OP_ATOM_MIN; ty = spv_signed(ty); break;
    case SpvOpAtomicUMin: op = ISA_OP_ATOM_MIN; break;
    case SpvOpAtomicSMax: op = ISA_OP_ATOM_MAX; ty = spv_signed(ty); break;
    case SpvOpAtomicUMax: op = ISA_OP_ATOM_MAX; break;
    case SpvOpAtomicAnd: op = ISA_OP_ATOM_AND; break;
    case SpvOpAtomicOr: op = ISA_OP_ATOM_OR; break;
    case SpvOpAtomicXor: op = ISA_OP_ATOM_XOR; break;
    case SpvOpAtomicExchange: op = ISA_OP_ATOM_XCHG; break;
    case SpvOpAtomicCompareExchange:
    case SpvOpAtomicCompareExchangeWeak: op = ISA_OP_ATOM_CMPXCHG; nsrc = 2; break;
    default:
        spv_error(x, "unsupported atomic");
        return;
    }
    if (fl && !float_atomic_type(x, t, ty, NULL))
        return;
    /* integer arithmetic on a float (invalid SPIR-V) would run as the float op */
    if (!fl && op != ISA_OP_LD && op != ISA_OP_ATOM_XCHG && ty < ISA_T_COUNT &&
        isa_types[ty].is_float) {
        spv_error(x, "an integer atomic on %s: float atomics are OpAtomicFAddEXT, "
                  "OpAtomicFMinEXT and OpAtomicFMaxEXT", isa_types[ty].cl_name);
        return;
    }
    if (in->op != SpvOpAtomicIIncrement && in->op != SpvOpAtomicIDecrement && nsrc == 1) {
        xval *v = spv_val(x, f, spv_word(m, in, 6));
        if (!v || !v->n)
            return;
        s1 = spv_src(x, &v->c[0]);
    }
    if (nsrc == 2) {
        xval *val = spv_val(x, f, spv_word(m, in, 7)), *cmp = spv_val(x, f, spv_word(m, in, 8));
        if (!val || !cmp || !val->n || !cmp->n)
            return;
        s1 = spv_src(x, &cmp->c[0]);
        s2 = spv_src(x, &val->c[0]);
    }
    const isa_operand src[2] = { s1, nsrc == 2 ? s2 : s1 };
    emit_rmw(x, f, op, ty, t, spv_word(m, in, 2), p, src, nsrc,
             sync_flags(x, f, spv_word(m, in, 4), spv_word(m, in, 5)));
}

/* atomic_fetch_sub{,_explicit} on atomic_half/float/double: llvm-spirv-14
 * has no float subtract instruction and leaves the call as an import
 * (_Z16atomic_fetch_subPU3AS1VU7_Atomicff and the like).  It becomes
 * atom_sub of the type (a - b is a + -b exactly, as the extension's add
 * would give).  The explicit forms pass OpenCL C's memory_order (relaxed 0,
 * acquire 2, release 3, acq_rel 4, seq_cst 5) and memory_scope (work_item
 * 0, work_group 1, device 2, all_svm_devices 3, sub_group 4); the plain
 * form is seq_cst at device scope. */
bool spv_float_atomic_sub_call(xctx *x, xfn *f, const spv_inst *in, const char *nm)
{
    static const char plain[] = "_Z16atomic_fetch_sub", expl[] = "_Z25atomic_fetch_sub_explicit";
    bool is_expl = !strncmp(nm, expl, sizeof expl - 1);
    if (!is_expl && strncmp(nm, plain, sizeof plain - 1))
        return false;
    const char *at = strstr(nm, "_Atomic");   /* integer ones are OpAtomicISub */
    if (!at || !(at[7] == 'f' || at[7] == 'd' || !strncmp(at + 7, "Dh", 2)))
        return false;
    spv_module *m = x->m;
    unsigned nargs = in->nw - 4;
    if (nargs < 2 || nargs > 4 || (!is_expl && nargs != 2)) {
        spv_error(x, "%s: expected %s arguments", nm, is_expl ? "3 or 4" : "2");
        return true;
    }
    xval *a[4];
    if (!spv_operands(x, f, in, 4, nargs, a))
        return true;
    const spv_type *t = spv_type_lookup(x, spv_word(m, in, 1));
    if (!t || !a[0]->n || !a[1]->n)
        return true;
    isa_type ty = spv_comp_type(t);
    if (!float_atomic_type(x, t, ty, "atomic_fetch_sub"))
        return true;
    /* OpenCL C order -> SPIR-V semantics, scope -> SPIR-V scope */
    static const uint32_t sem_of[6] = {
        0, SpvMemorySemanticsAcquireMask, SpvMemorySemanticsAcquireMask,
        SpvMemorySemanticsReleaseMask, SpvMemorySemanticsAcquireReleaseMask,
        SpvMemorySemanticsSequentiallyConsistentMask };
    static const uint32_t scope_of[5] = { SpvScopeInvocation, SpvScopeWorkgroup, SpvScopeDevice,
                                          SpvScopeCrossDevice, SpvScopeSubgroup };
    uint64_t sem = SpvMemorySemanticsSequentiallyConsistentMask, scope = SpvScopeDevice;
    if (nargs >= 3 && a[2]->n && a[2]->c[0].o.kind == ISA_OPND_IMM && a[2]->c[0].o.imm < 6)
        sem = sem_of[a[2]->c[0].o.imm];
    if (nargs == 4 && a[3]->n && a[3]->c[0].o.kind == ISA_OPND_IMM && a[3]->c[0].o.imm < 5)
        scope = scope_of[a[3]->c[0].o.imm];
    const isa_operand src[1] = { spv_src(x, &a[1]->c[0]) };
    emit_rmw(x, f, ISA_OP_ATOM_SUB, ty, t, spv_word(m, in, 2), a[0], src, 1,
             sync_flags_of(scope, sem));
    return true;
}

void spv_op_barrier(xctx *x, xfn *f, const spv_inst *in)
{
    spv_module *m = x->m;
    xval *es = spv_val(x, f, spv_word(m, in, 1)), *sem = spv_val(x, f, spv_word(m, in, 3));
    if (!es || !sem || !es->n || !sem->n)
        return;
    if (es->c[0].o.kind != ISA_OPND_IMM || sem->c[0].o.kind != ISA_OPND_IMM) {
        spv_error(x, "barrier scope and semantics must be constants");
        return;
    }
    uint64_t scope = es->c[0].o.imm, s = sem->c[0].o.imm;
    isa_inst *b;
    if (scope == SpvScopeWorkgroup)
        b = spv_emit(x, ISA_OP_BARRIER, ISA_T_NONE);
    else if (scope == SpvScopeSubgroup)
        b = spv_emit(x, ISA_OP_SG_BARRIER, ISA_T_NONE);
    else {
        spv_error(x, "barrier with execution scope %s is not supported",
                spv_enum_name("Scope", (uint32_t)scope) ? spv_enum_name("Scope", (uint32_t)scope)
                                                        : "?");
        return;
    }
    if (s & SpvMemorySemanticsWorkgroupMemoryMask) b->flags |= ISA_F_FENCE_LOCAL;
    if (s & SpvMemorySemanticsCrossWorkgroupMemoryMask) b->flags |= ISA_F_FENCE_GLOBAL;
    if (s & SpvMemorySemanticsImageMemoryMask) b->flags |= ISA_F_FENCE_IMAGE;
    b->type = ISA_T_NONE;
}

/* OpMemoryBarrier (atomic_work_item_fence, mem_fence and the rest): an
 * acquire or release fence is a nop carrying its order, scope and
 * storage classes for the race detector; a relaxed one is nothing. */
void spv_op_fence(xctx *x, xfn *f, const spv_inst *in)
{
    spv_module *m = x->m;
    const uint16_t fl = sync_flags(x, f, spv_word(m, in, 1), spv_word(m, in, 2));
    if (fl & (ISA_F_ACQUIRE | ISA_F_RELEASE))
        spv_emit(x, ISA_OP_NOP, ISA_T_NONE)->flags = fl;
}

/* Function-scope OpVariable: a slice of private memory. */
void spv_op_variable(xctx *x, xfn *f, const spv_inst *in)
{
    spv_module *m = x->m;
    const spv_type *pt = spv_type_lookup(x, spv_word(m, in, 1));
    if (!pt || pt->kind != SPV_TY_PTR)
        return;
    uint64_t sz = spv_type_size(x, pt->elem);
    uint64_t al = spv_var_align(x, spv_word(m, in, 2), m->types[pt->elem].align);
    uint64_t off = al ? (x->k->private_mem + al - 1) / al * al : x->k->private_mem;
    if (off + sz > (1u << 20)) {
        spv_error(x, "private variables exceed 1 MiB per work-item");
        return;
    }
    x->k->private_mem = (uint32_t)(off + sz);
    xval *v = spv_def(x, f, spv_word(m, in, 2), 1);
    if (!v)
        return;
    v->c[0].o = spv_I(off);
    v->c[0].space = ISA_SPACE_PRIVATE;
    if (in->nw > 4 && !spv_init_variable(x, f, &v->c[0], spv_word(m, in, 4))) {
        xval *init = spv_val(x, f, spv_word(m, in, 4));
        const spv_type *et = spv_type_lookup(x, pt->elem);
        if (init && et && init->n && init->n == et->ncomp) {
            isa_space sp;
            isa_operand a = spv_addr_of(x, &v->c[0], &sp);
            isa_type ct = spv_comp_type(et);
            uint32_t r = init->n > 1 ? spv_gather(x, init, ct) : 0;
            isa_inst *st = spv_emit(x, ISA_OP_ST, ct);
            st->vec = init->n;
            st->space = ISA_SPACE_PRIVATE;
            st->o[0] = a;
            st->o[1] = init->n > 1 ? spv_R(r) : spv_src(x, &init->c[0]);
            st->nopnd = 2;
        } else {
            spv_error(x, "initialisers of aggregate private variables are not supported");
        }
    }
}
