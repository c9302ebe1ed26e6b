/* promote.c - private memory to registers (scalar replacement).
 *
 * A private variable whose address is only ever a constant (a work-item's
 * slice of private memory at a known offset) is a set of values, as a
 * device compiler sees it after inlining the built-ins that write through
 * pointers (remquo, sincos, fract, lgamma_r, ...): each element it is
 * accessed as becomes a register, each store a move into it and each load
 * a move out of it.  IGC does this (LLVM's SROA after its built-ins are
 * inlined), so the variable costs registers, not memory messages.
 *
 * All or nothing, for the whole kernel: every private access must be a
 * load or store whose address is an offset from a register written once by
 * `mov rB, constant` (or an absolute [offset]), no such base register may
 * be read as anything but that address, and the elements accessed at one
 * offset must all have one size and not overlap others.  Otherwise (an
 * index computed at run time, a private pointer stored or compared, an
 * atomic, printf's argument record) private memory stays as it is.
 */
#include "isa_priv.h"

#include <stdlib.h>
#include <string.h>

#define NONE32 0xffffffffu

static bool is_private_mem(const isa_inst *in)
{
    return (isa_ops[in->op].pipe == ISA_PIPE_MEM || isa_ops[in->op].pipe == ISA_PIPE_ATOMIC ||
            isa_ops[in->op].pipe == ISA_PIPE_BLOCK) && in->space == ISA_SPACE_PRIVATE;
}

/* The address operand of a memory instruction, or NULL. */
static const isa_operand *addr_opnd(const isa_inst *in)
{
    for (unsigned o = 0; o < in->nopnd && o < ISA_MAX_OPNDS; o++)
        if (in->o[o].kind == ISA_OPND_ADDR)
            return &in->o[o];
    return NULL;
}

typedef struct promote {
    const isa_inst *code;
    uint32_t n, nreg, bytes;
    uint32_t *writes;       /* per register: instructions writing it */
    uint32_t *def;          /* per register: its last writer */
    uint8_t *base;          /* per register: a private base (read only as that) */
    uint8_t *size;          /* per private byte: element size starting there, 0 */
    uint32_t *slot;         /* per private byte: 1 + the offset of the element there
                               (0: no element), then its register */
} promote;

/* The constant private offset of `in`'s address, or NONE32. */
static uint32_t const_offset(const promote *p, const isa_inst *in)
{
    const isa_operand *a = addr_opnd(in);
    if (!a || a->addr.has_index || a->addr.disp < 0)
        return NONE32;
    uint64_t off = (uint64_t)a->addr.disp;
    if (a->addr.base_kind == ISA_OPND_REG) {
        const uint32_t b = a->addr.base;
        if (b >= p->nreg || p->writes[b] != 1)
            return NONE32;
        const isa_inst *d = &p->code[p->def[b]];
        if (d->op != ISA_OP_MOV || d->nopnd != 2 || d->o[1].kind != ISA_OPND_IMM ||
            (d->vec != 0 && d->vec != 1))
            return NONE32;
        off += d->o[1].imm;
    } else if (a->addr.base_kind != ISA_OPND_NONE) {
        return NONE32;
    }
    return off < p->bytes ? (uint32_t)off : NONE32;
}

static uint32_t elem_bytes(const isa_inst *in)
{
    return (unsigned)in->type < ISA_T_COUNT ? isa_types[in->type].bytes : 0;
}

/* Record the elements `in` accesses; false when they clash with others. */
static bool note_elements(promote *p, const isa_inst *in, uint32_t off)
{
    const uint32_t sz = elem_bytes(in), nv = in->vec ? in->vec : 1;
    if (!sz || (uint64_t)off + (uint64_t)sz * nv > p->bytes)
        return false;
    for (uint32_t e = 0; e < nv; e++) {
        const uint32_t at = off + e * sz;
        if (at >= p->bytes || p->size[at] == sz)
            continue;
        if (p->size[at])
            return false;
        for (uint32_t b = at; b < at + sz && b < p->bytes; b++)
            if (p->slot[b])
                return false;       /* inside another element */
        p->size[at] = (uint8_t)sz;
        for (uint32_t b = at; b < at + sz && b < p->bytes; b++)
            p->slot[b] = at + 1;    /* its owner; a register later */
    }
    return true;
}

/* Can every private access be promoted?  Fills the element map. */
static bool analyse(promote *p)
{
    isa_reg_writes(p->code, p->n, p->nreg, p->writes, p->def);
    for (uint32_t pc = 0; pc < p->n; pc++) {
        const isa_inst *in = &p->code[pc];
        if (in->op == ISA_OP_PRINTF)
            return false;           /* its argument record lies in private memory */
        if (!is_private_mem(in))
            continue;
        if (in->op != ISA_OP_LD && in->op != ISA_OP_ST)
            return false;
        const uint32_t off = const_offset(p, in);
        if (off == NONE32 || !note_elements(p, in, off))
            return false;
        const isa_operand *a = addr_opnd(in);
        if (a->addr.base_kind == ISA_OPND_REG)
            p->base[a->addr.base] = 1;
    }
    /* a base register read as anything but a private address escapes */
    for (uint32_t pc = 0; pc < p->n; pc++) {
        const isa_inst *in = &p->code[pc];
        const isa_shape sh = isa_ops[in->op].shape;
        for (unsigned o = 0; o < in->nopnd && o < ISA_MAX_OPNDS; o++) {
            const isa_operand *op = &in->o[o];
            if (op->kind == ISA_OPND_REG && isa_shape_letter(sh, in->nopnd, o) == 's') {
                unsigned vec;
                isa_opnd_type(in, o, &vec);
                for (uint32_t c = 0; c < (vec ? vec : 1) && op->reg + c < p->nreg; c++)
                    if (p->base[op->reg + c])
                        return false;
            } else if (op->kind == ISA_OPND_ADDR && !is_private_mem(in) &&
                       ((op->addr.base_kind == ISA_OPND_REG && op->addr.base < p->nreg &&
                         p->base[op->addr.base]) ||
                        (op->addr.has_index && op->addr.index < p->nreg &&
                         p->base[op->addr.index]))) {
                return false;
            }
        }
    }
    return true;
}

static isa_inst element_move(const isa_inst *at, uint32_t dst, const isa_operand *src)
{
    isa_inst m;
    memset(&m, 0, sizeof m);
    m.op = ISA_OP_MOV;
    m.type = m.src_type = at->type;
    m.vec = 1;
    m.nopnd = 2;
    m.reconv = ISA_PC_EXIT;
    m.line = at->line;
    m.col = at->col;
    m.o[0].kind = ISA_OPND_REG;
    m.o[0].reg = (uint16_t)dst;
    m.o[1] = *src;
    return m;
}

bool isa_promote_private(isa_inst **code, uint32_t *n, uint32_t *private_mem)
{
    if (!*private_mem || !*n)
        return true;
    promote p = { .code = *code, .n = *n, .bytes = *private_mem };
    for (uint32_t pc = 0; pc < *n; pc++)
        for (unsigned o = 0; o < (*code)[pc].nopnd && o < ISA_MAX_OPNDS; o++) {
            const isa_operand *op = &(*code)[pc].o[o];
            uint32_t top = 0;
            if (op->kind == ISA_OPND_REG)
                top = op->reg + ((*code)[pc].vec > 1 ? (*code)[pc].vec : 1u);
            else if (op->kind == ISA_OPND_ADDR)
                top = (op->addr.base_kind == ISA_OPND_REG ? op->addr.base : 0u) + 1u;
            if (op->kind == ISA_OPND_ADDR && op->addr.has_index && op->addr.index + 1u > top)
                top = op->addr.index + 1u;
            if (top > p.nreg)
                p.nreg = top;
        }
    p.writes = calloc((size_t)p.nreg + 1, sizeof *p.writes);
    p.def = calloc((size_t)p.nreg + 1, sizeof *p.def);
    p.base = calloc((size_t)p.nreg + 1, 1);
    p.size = calloc(p.bytes, 1);
    p.slot = calloc(p.bytes, sizeof *p.slot);
    isa_inst *out = NULL;
    uint32_t *map = NULL;
    bool ok = p.writes && p.def && p.base && p.size && p.slot;
    bool can = ok && analyse(&p);
    /* one fresh register per element */
    uint32_t next = p.nreg, extra = 0;
    for (uint32_t b = 0; can && b < p.bytes; b++)
        if (p.size[b]) {
            if (next >= ISA_MAX_REGS)
                can = false;
            for (uint32_t c = b; c < b + p.size[b] && c < p.bytes; c++)
                p.slot[c] = next;
            next++;
        }
    for (uint32_t pc = 0; can && pc < *n; pc++)
        if (is_private_mem(&(*code)[pc]))
            extra += ((*code)[pc].vec > 1 ? (*code)[pc].vec : 1u);
    if (can) {
        out = malloc(((size_t)*n + extra + 1) * sizeof *out);
        map = malloc(((size_t)*n + 1) * sizeof *map);
        ok = out && map;
    }
    if (can && ok) {
        uint32_t m = 0;
        for (uint32_t pc = 0; pc < *n; pc++) {
            const isa_inst *in = &(*code)[pc];
            map[pc] = m;
            const bool base_def = in->op == ISA_OP_MOV && in->nopnd == 2 &&
                                  in->o[0].kind == ISA_OPND_REG && in->o[0].reg < p.nreg &&
                                  p.base[in->o[0].reg];
            if (base_def)
                continue;           /* the address is gone with the memory */
            if (!is_private_mem(in)) {
                out[m++] = *in;
                continue;
            }
            const uint32_t off = const_offset(&p, in), sz = elem_bytes(in);
            const uint32_t nv = in->vec ? in->vec : 1;
            const bool st = in->op == ISA_OP_ST;
            const isa_operand *val = &in->o[st ? 1 : 0];
            for (uint32_t e = 0; e < nv; e++) {
                isa_operand v = *val, slot;
                memset(&slot, 0, sizeof slot);
                slot.kind = ISA_OPND_REG;
                const uint32_t at = off + e * sz;
                slot.reg = (uint16_t)(at < p.bytes ? p.slot[at] : 0);
                if (v.kind == ISA_OPND_REG)
                    v.reg = (uint16_t)(v.reg + e);
                out[m++] = st ? element_move(in, slot.reg, &v) : element_move(in, v.reg, &slot);
            }
        }
        map[*n] = m;
        for (uint32_t i = 0; i < m; i++)
            if (out[i].op == ISA_OP_BRA && out[i].target <= *n)
                out[i].target = map[out[i].target];
        free(*code);
        *code = out;
        *n = m;
        *private_mem = 0;
        out = NULL;
    }
    free(out);
    free(map);
    free(p.writes);
    free(p.def);
    free(p.base);
    free(p.size);
    free(p.slot);
    return ok;
}
