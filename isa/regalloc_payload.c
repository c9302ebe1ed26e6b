/*
 * regalloc_payload.c - a vector store's data as the payload block Intel's
 * compiler sends (docs/regalloc.md, Copies into a store's payload that IGC
 * does not fold): IGC fills the block with one copy per component just
 * before the send, and vISA's local def hoisting removes a copy only when
 * at most `max_dist` instructions lie between it and the instruction that
 * computed the component.  A component computed further back keeps its own
 * register up to the store while the block, live from the first component
 * folded into it, holds it again.  This file estimates IGC's vISA
 * instruction count of each sgemu instruction and adds those bytes.  On a
 * target that sends a SIMD32 store from one block but writes a shuffle's
 * result in two SIMD16 halves (Xe-HPC), no shuffle result is folded: each
 * is copied into the block just before the send, whatever the distance.
 */
#include "isa_priv.h"

#include <stdlib.h>

/* vISA instructions IGC emits for one sgemu instruction of a scalar
 * component, per class, at SIMD8, SIMD16 and SIMD32 (docs/regalloc.md has
 * the table with how each figure was measured: M measured from
 * `.visaasm` dumps of ocloc 22.43 for skl, tgllp and dg2-g10, E an
 * estimate).  SIMD32 code is two SIMD16 halves on those targets. */
#define VISA_CLASSES(X) \
    /* class      SIMD8 SIMD16 SIMD32 */ \
    X(ALU,        1,    1,     2)   /* M: add, mul, mad, cvt, mov (<= 4 bytes) */ \
    X(ALU64,      2,    2,     4)   /* E: 8-byte types, split by the hardware width */ \
    X(MATHINST,   1,    1,     2)   /* M: sqrt, exp2, divide, remainder: one math */ \
    X(LIBM,       12,   12,    24)  /* M: exp (sin inlines 236 at SIMD16) */ \
    X(SHUF1,      3,    3,     8)   /* M: one-source shuffle, per component */ \
    X(SHUF2,      7,    8,     15)  /* M: two-source shuffle, per component */ \
    X(COLL,       4,    4,     8)   /* E: other collectives, as a shuffle */ \
    X(MEM,        1,    1,     2)   /* E: a load's or store's component copy */ \
    X(OTHER,      1,    1,     1)   /* E: branches, barriers, block I/O, images */

enum visa_class {
#define X(c, w8, w16, w32) VC_##c,
    VISA_CLASSES(X)
#undef X
    VC_COUNT
};

static const uint16_t visa_per_width[VC_COUNT][3] = {
#define X(c, w8, w16, w32) { w8, w16, w32 },
    VISA_CLASSES(X)
#undef X
};

static enum visa_class visa_class_of(const isa_inst *in)
{
    const isa_op_info *oi = &isa_ops[in->op];
    const unsigned bytes = in->type < ISA_T_COUNT ? isa_types[in->type].bytes : 4;
    switch (oi->pipe) {
    case ISA_PIPE_ALU: case ISA_PIPE_MOV: case ISA_PIPE_CVT:
        return bytes > 4 ? VC_ALU64 : VC_ALU;
    case ISA_PIPE_TRANS:
        if (isa_op_math(in->op))
            return VC_LIBM;
        return VC_MATHINST;
    case ISA_PIPE_MEM: case ISA_PIPE_ATOMIC:
        return VC_MEM;
    case ISA_PIPE_COLL:
        switch (oi->family) {
        case ISA_FAM_SHUFFLE_UP2: case ISA_FAM_SHUFFLE_DOWN2:
            return VC_SHUF2;
        case ISA_FAM_SHUFFLE: case ISA_FAM_SHUFFLE_XOR: case ISA_FAM_SHUFFLE_UP:
        case ISA_FAM_SHUFFLE_DOWN: case ISA_FAM_ROTATE:
            return VC_SHUF1;
        default:
            return VC_COLL;
        }
    default:
        return VC_OTHER;
    }
}

uint32_t isa_visa_estimate(const isa_inst *in, uint32_t width)
{
    const unsigned w = width <= 8 ? 0 : width <= 16 ? 1 : 2;
    const uint32_t per = visa_per_width[visa_class_of(in)][w];
    return per * (in->vec > 1 ? in->vec : 1u);
}

/* A lane-wise ALU, move or conversion instruction. */
static bool lanewise(const isa_inst *in)
{
    return (in->vec == 0 || in->vec == 1) && isa_op_lanewise(in->op);
}

/* Copies into the payload per component: one per SIMD16 half. */
static uint32_t copies(uint32_t width)
{
    return width > 16 ? (width + 15) / 16 : 1;
}

/* Does `in` write register reg (a destination operand)? */
static bool writes(const isa_inst *in, uint32_t reg)
{
    const isa_shape sh = isa_ops[in->op].shape;
    for (unsigned o = 0; o < in->nopnd && o < ISA_MAX_OPNDS; o++) {
        unsigned vec;
        if (isa_shape_letter(sh, in->nopnd, o) != 'd' || in->o[o].kind != ISA_OPND_REG)
            continue;
        (void)isa_opnd_type(in, o, &vec);
        if (reg >= in->o[o].reg && reg < in->o[o].reg + (vec ? vec : 1u))
            return true;
    }
    return false;
}

/* Is code[pc] the component store `at` steps after the store at s0 (the
 * same space, type, base and index, the next address, a register)? */
static bool next_component(const isa_inst *code, uint32_t s0, uint32_t pc, uint32_t at)
{
    const isa_inst *a = &code[s0], *b = &code[pc];
    if (b->op != ISA_OP_ST || b->vec > 1 || b->space != a->space || b->type != a->type ||
        b->nopnd != 2 || b->o[0].kind != ISA_OPND_ADDR || b->o[1].kind != ISA_OPND_REG ||
        (b->flags & ISA_F_ATOMIC))
        return false;
    const isa_addr *x = &a->o[0].addr, *y = &b->o[0].addr;
    const int64_t step = a->type < ISA_T_COUNT ? isa_types[a->type].bytes : 0;
    return step && y->base_kind == x->base_kind && y->base == x->base &&
           y->has_index == x->has_index && (!x->has_index || y->index == x->index) &&
           (int64_t)y->disp == (int64_t)x->disp + step * at;
}

/* Is the store at s0 the first of a vector store: a run of component stores? */
static uint32_t group_len(const isa_inst *code, uint32_t n, uint32_t s0)
{
    const isa_inst *a = &code[s0];
    if (a->op != ISA_OP_ST || a->vec > 1 || a->space == ISA_SPACE_PRIVATE || a->nopnd != 2 ||
        a->o[0].kind != ISA_OPND_ADDR || a->o[1].kind != ISA_OPND_REG || (a->flags & ISA_F_ATOMIC))
        return 0;
    uint32_t len = 1;
    while (s0 + len < n && next_component(code, s0, s0 + len, len))
        len++;
    return len;
}

/* The store's address computation (IGC computes it after the payload
 * copies): the instructions that write its base or index register, and
 * those that write their register sources, back from the store (a small
 * set of registers; an instruction that writes one is taken out of it). */
#define ADDR_REGS 8u

typedef struct addr_set {
    uint32_t reg[ADDR_REGS];
    uint32_t n;
} addr_set;

static void addr_add(addr_set *a, uint32_t reg)
{
    for (uint32_t i = 0; i < a->n; i++)
        if (a->reg[i] == reg)
            return;
    if (a->n < ADDR_REGS)
        a->reg[a->n++] = reg;
}

/* Is `in` part of the address slice a (and update a: its destination
 * leaves the set, its register sources join it)? */
static bool address_of(const isa_inst *in, addr_set *a)
{
    bool hit = false;
    for (uint32_t i = 0; i < a->n; i++)
        if (writes(in, a->reg[i])) {
            hit = true;
            a->reg[i--] = a->reg[--a->n];
        }
    if (!hit || !lanewise(in))
        return hit;
    const isa_shape sh = isa_ops[in->op].shape;
    for (unsigned o = 0; o < in->nopnd && o < ISA_MAX_OPNDS; o++)
        if (isa_shape_letter(sh, in->nopnd, o) == 's' && in->o[o].kind == ISA_OPND_REG)
            addr_add(a, in->o[o].reg);
    return true;
}

static addr_set store_address(const isa_inst *st)
{
    addr_set a = { { 0 }, 0 };
    const isa_addr *x = &st->o[0].addr;
    if (x->base_kind == ISA_OPND_REG)
        addr_add(&a, x->base);
    if (x->has_index)
        addr_add(&a, x->index);
    return a;
}

/* Does IGC build the vector this instruction's result goes into after all
 * of its components, so that the copies into a store's payload sit before
 * the send?  Measured for the shuffles (vs_short16's dump: the 16 copies
 * after the 16 component shuffles); the elementary functions' vectors are
 * built where each component is computed (mathfn.cl vecptr: remquo's
 * payload written at the components), and the other instructions are not
 * measured. */
static bool built_late(const isa_inst *in)
{
    const enum visa_class c = visa_class_of(in);
    return c == VC_SHUF1 || c == VC_SHUF2;
}

typedef struct last_ctx {
    uint32_t *last, nvreg, pc;
} last_ctx;

static void note_write(void *ctx, uint32_t reg, uint32_t n, uint32_t bytes, char l)
{
    (void)bytes;
    last_ctx *c = ctx;
    for (uint32_t i = 0; l == 'd' && i < n && reg + i < c->nvreg; i++)
        c->last[reg + i] = c->pc;
}

/* The arrays one pass shares: pre[pc] = the estimates of code[0..pc),
 * block[pc] = its block's first instruction, addr[] scratch. */
typedef struct payload_pass {
    const isa_inst *code;
    const uint8_t *nbytes, *uni;
    uint32_t nvreg, width, max_dist;
    bool copy_all;      /* every shuffle result is copied (copy_width) */
    uint32_t *pre, *block, *addr, *extra;
} payload_pass;

/* Estimated vISA instructions from the definition at d of component k of
 * the vector store at s0 to its copy into the payload: the instructions in
 * between but the store's address computation (addr[d + 1]), the copies of
 * the components before it, its own other halves. */
static uint32_t distance(const payload_pass *p, uint32_t s0, uint32_t k, uint32_t d)
{
    const uint32_t c = copies(p->width);
    return p->pre[s0] - p->pre[d + 1] - p->addr[d + 1] + c * k + c - 1;
}

/* Bytes per lane of one payload block: IGC splits a vector store into
 * stores of at most 8 dwords per lane (measured: a short16 is one block,
 * a float16 two of 8 components, a double16 four of 4 on pvc;
 * docs/regalloc.md, The payload rule). */
#define PAYLOAD_BLOCK_BYTES 32u

/* The vector store at s0, len components in one block: add the bytes of
 * those held twice.  def[k]: the last write of component k's register
 * before s0 (UINT32_MAX: none). */
static void one_store(const payload_pass *p, uint32_t s0, uint32_t len, const uint32_t *def)
{
    const isa_inst *code = p->code;
    uint32_t lo = s0;
    for (uint32_t k = 0; k < len; k++)
        if (def[k] != UINT32_MAX && p->block[def[k]] == p->block[s0] && def[k] < lo)
            lo = def[k];
    /* addr[pc]: the estimates of the address instructions in [pc, s0) */
    addr_set a = store_address(&code[s0]);
    p->addr[s0] = 0;
    for (uint32_t pc = s0; pc-- > lo;)
        p->addr[pc] = p->addr[pc + 1] +
                      (address_of(&code[pc], &a) ? isa_visa_estimate(&code[pc], p->width) : 0);
    /* a component defined in another block is not modelled; only a
     * shuffle's vector is built after all of its components */
    uint8_t far[64];
    for (uint32_t k = 0; k < len; k++) {
        const uint32_t d = def[k];
        far[k] = d != UINT32_MAX && p->block[d] == p->block[s0] && built_late(&code[d]) &&
                 (p->copy_all || (p->max_dist && distance(p, s0, k, d) > p->max_dist));
    }
    /* IGC sends the vector in payload blocks of PAYLOAD_BLOCK_BYTES per
     * lane, each one variable: live whole from its first folded
     * component's definition (pstart) to the store */
    const uint32_t size = code[s0].type < ISA_T_COUNT ? isa_types[code[s0].type].bytes : 4;
    const uint32_t per = size < PAYLOAD_BLOCK_BYTES ? PAYLOAD_BLOCK_BYTES / size : 1;
    for (uint32_t k0 = 0; k0 < len; k0 += per) {
        const uint32_t k1 = k0 + per < len ? k0 + per : len;
        uint32_t pstart = UINT32_MAX;
        for (uint32_t k = k0; k < k1; k++)
            if (!far[k] && def[k] != UINT32_MAX && p->block[def[k]] == p->block[s0] &&
                def[k] < pstart)
                pstart = def[k];
        if (pstart == UINT32_MAX) {
            /* nothing folded: with copy_all the block is live from its
             * first copy, next to its send, while its copies are read
             * from the results' own registers: at its stores */
            uint32_t bytes = 0;
            for (uint32_t k = k0; k < k1 && p->copy_all; k++) {
                const uint32_t reg = code[s0 + k].o[1].reg;
                if (far[k] && reg < p->nvreg && !p->uni[reg])
                    bytes += p->nbytes[reg];
            }
            for (uint32_t pc = s0 + k0; pc < s0 + k1 && bytes; pc++)
                p->extra[pc] += bytes;
            continue;
        }
        for (uint32_t k = k0; k < k1; k++) {
            const uint32_t reg = code[s0 + k].o[1].reg;
            if (reg >= p->nvreg || p->uni[reg] || def[k] == UINT32_MAX)
                continue;
            if (far[k]) {           /* held twice: its register and its slot */
                for (uint32_t pc = def[k] > pstart ? def[k] : pstart; pc <= s0; pc++)
                    p->extra[pc] += p->nbytes[reg];
            } else {                /* its slot, held before it is written */
                for (uint32_t pc = pstart; pc < def[k]; pc++)
                    p->extra[pc] += p->nbytes[reg];
            }
        }
    }
}

bool isa_payload_twice(const isa_inst *code, uint32_t n, uint32_t nvreg, const uint8_t *nbytes,
                       const uint8_t *uni, uint32_t width, uint32_t max_dist, uint32_t copy_width,
                       uint32_t *extra)
{
    const bool copy_all = copy_width && width >= copy_width;
    if ((!max_dist && !copy_all) || !n)
        return true;
    payload_pass p = { code, nbytes, uni, nvreg, width, max_dist, copy_all,
                       malloc((n + 1) * sizeof *p.pre), malloc((n + 1) * sizeof *p.block),
                       malloc((n + 1) * sizeof *p.addr), extra };
    uint32_t *last = malloc((nvreg + 1) * sizeof *last);
    uint8_t *starts = calloc(n + 1, 1);
    bool ok = p.pre && p.block && p.addr && last && starts;
    if (ok) {
        /* blocks: def hoisting is local to one */
        starts[0] = 1;
        for (uint32_t pc = 0; pc < n; pc++) {
            const isa_family f = isa_ops[code[pc].op].family;
            if (f == ISA_FAM_BRA)
                starts[code[pc].target < n ? code[pc].target : n] = 1;
            if (f == ISA_FAM_BRA || f == ISA_FAM_RET)
                starts[pc + 1] = 1;
        }
        p.pre[0] = 0;
        for (uint32_t pc = 0; pc < n; pc++) {
            p.pre[pc + 1] = p.pre[pc] + isa_visa_estimate(&code[pc], width);
            p.block[pc] = starts[pc] ? pc : p.block[pc - 1];
        }
        for (uint32_t v = 0; v < nvreg; v++)
            last[v] = UINT32_MAX;
        last_ctx lc = { last, nvreg, 0 };
        for (uint32_t pc = 0, end = 0; pc < n; pc++) {
            uint32_t len = pc < end ? 0 : group_len(code, n, pc);
            if (len)
                end = pc + len;     /* the rest of the run is not a store of its own */
            for (uint32_t k = 1; k < len; k++)
                if (starts[pc + k])
                    len = k;
            if (len > 64)
                len = 64;
            if (len >= 2) {
                uint32_t def[64];
                for (uint32_t k = 0; k < len; k++) {
                    const uint32_t reg = code[pc + k].o[1].reg;
                    def[k] = reg < nvreg ? last[reg] : UINT32_MAX;
                }
                one_store(&p, pc, len, def);
            }
            lc.pc = pc;
            isa_visit_regs(&code[pc], note_write, &lc);
        }
    }
    free(p.pre);
    free(p.block);
    free(p.addr);
    free(last);
    free(starts);
    return ok;
}
