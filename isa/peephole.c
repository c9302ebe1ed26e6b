/* peephole.c - clean-up passes over a finished instruction stream
 * (isa_inst only: branch targets are instruction indices, a target of n is
 * the exit).  The SPIR-V front end runs them after translation. */
#include "isa_priv.h"

#include <stdlib.h>
#include <string.h>

/* Drop unconditional branches to the next instruction (block order often
 * falls through), remapping every branch target. */
void isa_drop_fallthrough(isa_inst *code, uint32_t *n)
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
    uint32_t *uses = calloc(ISA_MAX_VALUES, sizeof *uses);
    uint32_t *defs = calloc(ISA_MAX_VALUES, sizeof *defs);
    uint8_t *tgt = branch_targets(code, *n), *del = calloc(*n + 1, 1);
    bool any = false;
    if (!uses || !defs || !tgt || !del)
        goto out;
    for (uint32_t i = 0; i < *n; i++) {
        xregs r;
        if (!inst_regs(&code[i], &r))
            goto out;
        for (unsigned u = 0; u < r.nu; u++)
            if (r.use[u] < ISA_MAX_VALUES)
                uses[r.use[u]]++;
        for (unsigned d = 0; d < r.nd; d++)
            if (r.def[d] < ISA_MAX_VALUES)
                defs[r.def[d]]++;
    }
    for (uint32_t i = 0; i < *n; i++) {
        const isa_inst *a = &code[i];
        if (a->op != ISA_OP_MUL || !int_scalar(a) || a->o[0].kind != ISA_OPND_REG ||
            a->o[0].reg >= ISA_MAX_VALUES || uses[a->o[0].reg] != 1 || defs[a->o[0].reg] != 1)
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
                oi->family == ISA_FAM_BARRIER || isa_op_cross_lane(b->op))
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
    x->ndef = calloc(ISA_MAX_VALUES, sizeof *x->ndef);
    x->defat = calloc(ISA_MAX_VALUES, sizeof *x->defat);
    x->nuse = calloc(ISA_MAX_VALUES, sizeof *x->nuse);
    x->reexec = calloc(n + 1, 1);
    if (!x->ndef || !x->defat || !x->nuse || !x->reexec)
        return false;
    for (uint32_t i = 0; i < n; i++) {
        xregs r;
        if (!inst_regs(&code[i], &r))
            return false;
        for (unsigned d = 0; d < r.nd; d++)
            if (r.def[d] < ISA_MAX_VALUES) {
                x->ndef[r.def[d]]++;
                x->defat[r.def[d]] = i;
            }
        for (unsigned u = 0; u < r.nu; u++)
            if (r.use[u] < ISA_MAX_VALUES)
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
    return r < ISA_MAX_VALUES && x->ndef[r] == 1 && !x->reexec[x->defat[r]];
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
        return !isa_op_cross_lane(in->op);
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
                a->index >= ISA_MAX_VALUES || x.ndef[a->index] != 1)
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
            c->o[1].kind != ISA_OPND_REG || c->o[0].reg >= ISA_MAX_VALUES ||
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
            c->o[0].reg < ISA_MAX_VALUES && x.nuse[c->o[0].reg] == 0 &&
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
    uint8_t *copied = calloc(ISA_MAX_VALUES, 1);   /* rS -> some mov reads it */
    if (!tgt || !copied)
        goto out;
    for (uint32_t i = 0; i < n; i++)
        if (code[i].op == ISA_OP_MOV && code[i].o[0].kind == ISA_OPND_REG &&
            code[i].o[1].kind == ISA_OPND_REG && code[i].o[1].reg < ISA_MAX_VALUES)
            copied[code[i].o[1].reg] = 1;
    for (uint32_t p = 1; p < n; p++) {
        isa_inst *c = &code[p], *a = &code[p - 1];
        const isa_op_info *ai = &isa_ops[a->op];
        if (isa_ops[c->op].family != ISA_FAM_CMP || c->o[0].kind != ISA_OPND_PRED || tgt[p] ||
            a->o[0].kind != ISA_OPND_REG || a->o[0].reg >= ISA_MAX_VALUES ||
            !copied[a->o[0].reg] || ai->pipe != ISA_PIPE_ALU || !isa_op_arith(a->op) ||
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
            uint64_t nin[ISA_MAX_VALUES / 64 + 1];
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
    if (!nreg || nreg > ISA_MAX_VALUES || (uint64_t)*n * nw > (1u << 20))
        return;
    uint64_t *out = malloc((size_t)*n * nw * sizeof *out);
    uint64_t in0[ISA_MAX_VALUES / 64 + 1];
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
            const bool pin = isa_op_cross_lane(c->op) ||
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
    uint16_t *map = calloc(ISA_MAX_VALUES, sizeof *map);
    uint8_t *used = calloc(ISA_MAX_VALUES, 1);
    if (!map || !used)
        goto out;
    for (uint32_t i = 0; i < n; i++) {
        xregs r;
        if (!inst_regs(&code[i], &r))
            goto out;
        for (unsigned u = 0; u < r.nu; u++)
            if (r.use[u] < ISA_MAX_VALUES)
                used[r.use[u]] = 1;
        for (unsigned d = 0; d < r.nd; d++)
            if (r.def[d] < ISA_MAX_VALUES)
                used[r.def[d]] = 1;
    }
    uint16_t next = 0;
    for (uint32_t r = 0; r < ISA_MAX_VALUES; r++)
        map[r] = used[r] ? next++ : (uint16_t)r;
    for (uint32_t i = 0; i < n; i++) {
        isa_inst *c = &code[i];
        for (unsigned o = 0; o < c->nopnd && o < ISA_MAX_OPNDS; o++) {
            isa_operand *op = &c->o[o];
            if (op->kind == ISA_OPND_REG && op->reg < ISA_MAX_VALUES)
                op->reg = map[op->reg];
            else if (op->kind == ISA_OPND_ADDR) {
                if (op->addr.base_kind == ISA_OPND_REG && op->addr.base < ISA_MAX_VALUES)
                    op->addr.base = map[op->addr.base];
                if (op->addr.has_index && op->addr.index < ISA_MAX_VALUES)
                    op->addr.index = map[op->addr.index];
            }
        }
    }
out:
    free(map);
    free(used);
}

void isa_peephole(isa_inst *code, uint32_t *n)
{
    invert_branches(code, n);
    fuse_mad(code, n);
    fold_narrowing(code, n);
    hoist_compares(code, *n);
    coalesce_copies(code, n);
    /* removed copies leave new fall-throughs and branch pairs */
    isa_drop_fallthrough(code, n);
    invert_branches(code, n);
    isa_drop_fallthrough(code, n);
    compact_registers(code, *n);
}
