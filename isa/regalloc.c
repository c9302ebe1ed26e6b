/*
 * regalloc.c - register allocation of a kernel whose registers are values
 * (the SPIR-V front end's output, or .sgasm with .regalloc): liveness over
 * the final instruction stream, an interference graph, greedy colouring in
 * instruction order, and spill code (private-memory stores and fills) when
 * the live set does not fit a budget.  The rules are in docs/regalloc.md.
 *
 * A unit is what gets a colour: one virtual register, or a block of
 * consecutive registers that some vector operand reads or writes together.
 * Predicates are units of their own class, coloured apart.
 */
#include "isa_priv.h"
#include "presched.h"

#include <stdlib.h>
#include <string.h>

#define RA_MAX_VREG 65536u          /* operand register fields are 16 bits */
#define RA_MAX_ROUNDS 4096u         /* spill rounds (one value each) */
#define NONE32 0xffffffffu

typedef struct ra_unit {
    uint32_t reg;           /* first virtual register (predicate number) */
    uint32_t nregs;         /* registers in the block */
    uint32_t bytes;         /* per lane: sum of the members' widest use */
    uint32_t need;          /* per lane: what the demand counts (narrow()) */
    uint32_t first;         /* first instruction naming it */
    uint32_t colour;
    uint8_t pred, pinned, temp;
    uint8_t uni;            /* a scalar register, the same in every lane */
} ra_unit;

/* Per-instruction operand lists (unit ids) in one pool. */
typedef struct ra_ref {
    uint32_t unit;
    uint8_t def, full;      /* written; writes every register of the unit */
} ra_ref;

typedef struct ra {
    const isa_kernel *k;    /* the kernel being allocated (attributes) */
    const isa_math_temps *mt;   /* elementary functions' temporaries, or NULL */
    uint32_t width;         /* sub-group width: uniform values count 1/width per lane */
    bool scalar_broadcast;  /* isa_ra_opts.scalar_broadcast */
    uint32_t payload_dist;  /* isa_ra_opts.payload_fold_distance */
    uint32_t payload_copy;  /* isa_ra_opts.payload_copy_width */
    uint32_t buf_offset;    /* isa_ra_opts.buffer_offset_bytes */
    bool remat_live;        /* isa_ra_opts.remat_live_sources */
    bool shuffle2_temps;    /* isa_ra_opts.shuffle2_temps */
    isa_inst *code;
    uint32_t n;
    uint32_t nvreg;         /* virtual registers r0..nvreg-1 */
    uint8_t *temp_reg;      /* RA_MAX_VREG: a spill temporary (never spilled) */
    /* derived each round */
    uint32_t *blk;          /* per virtual register: union-find parent */
    uint8_t *rbytes;        /* per virtual register: widest use (spill slots) */
    uint8_t *nbytes;        /* per virtual register: bytes the demand counts */
    uint32_t *unit_of;      /* per virtual register: unit; preds after */
    ra_unit *u;
    uint32_t nu, nw;        /* units, 64-bit words per unit set */
    ra_ref *refs;
    uint32_t *ref_first;    /* n + 1 */
    uint64_t *live_in, *live_out;   /* n x nw */
    uint64_t *cin, *cout;   /* (n + 1) x cw: live registers (slot = register) */
    uint32_t cw;
    uint8_t *partial;       /* per instruction: may run with part of the lanes */
    uint8_t *uni;           /* per virtual register: uniform (uniform.c) */
    uint64_t *adj;          /* nu x nw */
} ra;

static inline bool bit(const uint64_t *s, uint32_t i)
{
    return s[i / 64] >> (i % 64) & 1;
}

static inline void set_bit(uint64_t *s, uint32_t i)
{
    s[i / 64] |= UINT64_C(1) << (i % 64);
}

static uint32_t find(uint32_t *p, uint32_t x)
{
    while (p[x] != x) {
        p[x] = p[p[x]];
        x = p[x];
    }
    return x;
}

/* ---- units ---- */

static void see_reg(void *ctx, uint32_t reg, uint32_t n, uint32_t bytes, char l)
{
    ra *r = ctx;
    if (l == 'P' || l == 'q')
        return;
    for (uint32_t c = 0; c < n && reg + c < r->nvreg; c++) {
        if (r->rbytes[reg + c] < bytes)
            r->rbytes[reg + c] = (uint8_t)bytes;
        if (c) {
            uint32_t a = find(r->blk, reg), b = find(r->blk, reg + c);
            if (a != b)
                r->blk[a > b ? a : b] = a < b ? a : b;
        }
    }
}

typedef struct ref_ctx {
    ra *r;
    uint32_t pc;
    uint32_t nref;
    bool count_only;
} ref_ctx;

static void add_ref(void *ctx, uint32_t reg, uint32_t n, uint32_t bytes, char l)
{
    (void)bytes;
    ref_ctx *c = ctx;
    ra *r = c->r;
    const bool pred = l == 'P' || l == 'q', def = l == 'd' || l == 'P';
    uint32_t last = NONE32;
    for (uint32_t i = 0; i < n; i++) {
        const uint32_t v = pred ? r->nvreg + reg : reg + i;
        const uint32_t u = r->unit_of[v];
        if (u == last)
            continue;
        last = u;
        if (!c->count_only) {
            ra_ref *f = &r->refs[c->nref];
            f->unit = u;
            f->def = def;
            f->full = def && (pred || (reg + i == r->u[u].reg && n - i >= r->u[u].nregs));
        }
        c->nref++;
    }
}

/* Does `in` compute each lane's result from that lane's sources alone, one
 * scalar, so that its destination may reuse a source that dies there? */
static bool lanewise_scalar(const isa_inst *in)
{
    return (in->vec == 0 || in->vec == 1) && isa_op_lanewise(in->op);
}

/* ---- narrow values ---- */

/* Bytes needed to hold x (an and-mask): 1, 2, 4 or 8. */
static uint32_t imm_bytes(uint64_t x)
{
    return x <= 0xff ? 1 : x <= 0xffff ? 2 : x <= 0xffffffffu ? 4 : 8;
}

static bool in_block(const ra *r, uint32_t v)
{
    const uint32_t u = r->unit_of[v];
    return u == NONE32 || r->u[u].nregs > 1;
}

static uint32_t pow2_bytes(uint32_t b)
{
    return b <= 1 ? b : b <= 2 ? 2 : b <= 4 ? 4 : 8;
}

/* Bytes of source operand o of `in` that decide the bytes of its result
 * that are used (d), for an integer operation whose low result bytes
 * depend on the low source bytes alone; else the operand's own bytes. */
static uint32_t used_src_bytes(const isa_inst *in, unsigned o, uint32_t d, uint32_t own)
{
    const isa_type t = (isa_type)in->type;
    if (!lanewise_scalar(in) || (unsigned)t >= ISA_T_COUNT || isa_types[t].is_float ||
        (in->flags & ISA_F_SAT))
        return own;
    uint32_t b = own;
    switch (isa_ops[in->op].family) {
    case ISA_FAM_ADD: case ISA_FAM_SUB: case ISA_FAM_MUL: case ISA_FAM_MAD:
    case ISA_FAM_OR: case ISA_FAM_XOR: case ISA_FAM_NOT: case ISA_FAM_NEG:
    case ISA_FAM_MOV: case ISA_FAM_SEL:
        b = d;
        break;
    case ISA_FAM_AND:
        b = d;
        for (unsigned q = 1; q < in->nopnd && q < ISA_MAX_OPNDS; q++)
            if (q != o && in->o[q].kind == ISA_OPND_IMM && imm_bytes(in->o[q].imm) < b)
                b = imm_bytes(in->o[q].imm);
        break;
    case ISA_FAM_SHL:
        b = o == 1 ? d : own;
        break;
    case ISA_FAM_SHR:
        if (o == 1 && in->nopnd > 2 && in->o[2].kind == ISA_OPND_IMM && in->o[2].imm < 64)
            b = d + (uint32_t)(in->o[2].imm + 7) / 8;
        break;
    case ISA_FAM_CVT:
        if ((unsigned)in->src_type < ISA_T_COUNT && !isa_types[in->src_type].is_float)
            b = d;
        break;
    default:
        break;
    }
    b = pow2_bytes(b);
    return b < own ? b : own;
}

/* ---- buffer offsets ---- */

/* Is operand o of `in` a buffer: a global or constant pointer argument, or
 * a register that bufp marks? */
static bool buffer_opnd(const ra *r, const isa_inst *in, unsigned o, const uint8_t *bufp)
{
    const isa_operand *op = &in->o[o];
    if (op->kind == ISA_OPND_ARG)
        return op->reg < r->k->narg && (r->k->args[op->reg].kind == ISA_ARG_GLOBAL ||
                                        r->k->args[op->reg].kind == ISA_ARG_CONSTANT);
    return op->kind == ISA_OPND_REG && op->reg < r->nvreg && bufp && bufp[op->reg];
}

/* Does `in` write a buffer plus an offset: a 64-bit integer move of a
 * buffer, add of one buffer and an offset, sub of an offset from a buffer,
 * or mad whose addend is the buffer? */
static bool buffer_write(const ra *r, const isa_inst *in, const uint8_t *bufp)
{
    const isa_type t = (isa_type)in->type;
    if (!lanewise_scalar(in) || (unsigned)t >= ISA_T_COUNT || isa_types[t].is_float ||
        isa_types[t].bytes != 8)
        return false;
    const isa_shape sh = isa_ops[in->op].shape;
    unsigned src[ISA_MAX_OPNDS], ns = 0;
    for (unsigned o = 0; o < in->nopnd && o < ISA_MAX_OPNDS; o++) {
        const char l = isa_shape_letter(sh, in->nopnd, o);
        if (l == 's')
            src[ns++] = o;
        else if (l != 'd')
            return false;
    }
    unsigned nbuf = 0, at = ns;
    for (unsigned i = 0; i < ns; i++)
        if (buffer_opnd(r, in, src[i], bufp)) {
            nbuf++;
            at = i;
        }
    if (nbuf != 1)
        return false;
    switch (isa_ops[in->op].family) {
    case ISA_FAM_MOV: return ns == 1;
    case ISA_FAM_ADD: return ns == 2;
    case ISA_FAM_SUB: return ns == 2 && at == 0;
    case ISA_FAM_MAD: return ns == 3 && at == 2;
    default: return false;
    }
}

/* bufp[v]: every write of register v is a buffer plus an offset, so that
 * IGC, which turns such a pointer into the buffer's surface and a 32-bit
 * offset (its stateless-to-stateful promotion), holds the offset alone.
 * An optimistic fixed point: every 8-byte register marked, then unmarked
 * by a write of anything else. */
static void buffer_pointers(const ra *r, uint8_t *bufp)
{
    const uint32_t nv = r->nvreg;
    for (uint32_t v = 0; v < nv; v++)
        bufp[v] = r->rbytes[v] == 8;
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t pc = 0; pc < r->n; pc++) {
            const isa_inst *in = &r->code[pc];
            const isa_shape sh = isa_ops[in->op].shape;
            for (unsigned o = 0; o < in->nopnd && o < ISA_MAX_OPNDS; o++) {
                const isa_operand *d = &in->o[o];
                if (isa_shape_letter(sh, in->nopnd, o) != 'd' || d->kind != ISA_OPND_REG)
                    continue;
                unsigned vec;
                (void)isa_opnd_type(in, o, &vec);
                for (uint32_t c = 0; c < (vec ? vec : 1u) && d->reg + c < nv; c++)
                    if (bufp[d->reg + c] && (vec > 1 || !buffer_write(r, in, bufp))) {
                        bufp[d->reg + c] = 0;
                        changed = true;
                    }
            }
        }
    }
}

/* Bytes of an address operand's base (index false) or index register that
 * the address uses: the register's widest use, but at most
 * buffer_offset_bytes in a global or constant address whose base is a
 * buffer (an argument, or a register that bufp marks): the device compiler
 * sends a 32-bit offset into the buffer's surface, and the low bytes of
 * base + index x scale + disp depend on the low bytes of each alone. */
static uint32_t addr_bytes(const ra *r, const isa_inst *in, const isa_operand *op,
                           const uint8_t *bufp, bool index)
{
    const uint32_t own = r->rbytes[index ? op->addr.index : op->addr.base];
    const bool buffer = op->addr.base_kind == ISA_OPND_ARG ||
                        (bufp && op->addr.base < r->nvreg && bufp[op->addr.base]);
    if (r->buf_offset && buffer &&
        (in->space == ISA_SPACE_GLOBAL || in->space == ISA_SPACE_CONSTANT) &&
        r->buf_offset < own)
        return r->buf_offset;
    return own;
}

/* nbytes: for a scalar register, the bytes of it that some reader uses
 * (a backward fixed point: an integer add, logic op, move, select, left
 * shift or truncating conversion uses as many low source bytes as its
 * result has used bytes; an and with a constant mask no more than the
 * mask's; a right shift by a constant that many more); registers no
 * instruction reads, and registers of blocks, count their widest use.
 * IGC holds such values in sub-register fields of their real width. */
static void narrow(ra *r)
{
    const uint32_t nv = r->nvreg;
    memset(r->nbytes, 0, nv);
    /* out of memory: only addresses based on an argument count offsets */
    uint8_t *bufp = r->buf_offset ? calloc(nv + 1, 1) : NULL;
    if (bufp)
        buffer_pointers(r, bufp);
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t pc = r->n; pc-- > 0;) {
            const isa_inst *in = &r->code[pc];
            const isa_shape sh = isa_ops[in->op].shape;
            uint32_t d = 8;
            for (unsigned o = 0; o < in->nopnd && o < ISA_MAX_OPNDS; o++)
                if (isa_shape_letter(sh, in->nopnd, o) == 'd' && in->o[o].kind == ISA_OPND_REG &&
                    in->o[o].reg < nv)
                    d = in_block(r, in->o[o].reg) ? r->rbytes[in->o[o].reg]
                                                  : r->nbytes[in->o[o].reg];
            for (unsigned o = 0; o < in->nopnd && o < ISA_MAX_OPNDS; o++) {
                const isa_operand *op = &in->o[o];
                if (op->kind != ISA_OPND_REG || op->reg >= nv ||
                    isa_shape_letter(sh, in->nopnd, o) != 's')
                    continue;
                unsigned vec;
                const isa_type t = isa_opnd_type(in, o, &vec);
                const uint32_t own = (unsigned)t < ISA_T_COUNT ? isa_types[t].bytes : 4;
                const uint32_t b = vec > 1 ? own : used_src_bytes(in, o, d, own);
                for (uint32_t c = 0; c < (vec ? vec : 1) && op->reg + c < nv; c++)
                    if (r->nbytes[op->reg + c] < b) {
                        r->nbytes[op->reg + c] = (uint8_t)b;
                        changed = true;
                    }
            }
            /* address registers: the widest use, as visit() counts them */
            for (unsigned o = 0; o < in->nopnd && o < ISA_MAX_OPNDS; o++) {
                const isa_operand *op = &in->o[o];
                if (op->kind != ISA_OPND_ADDR)
                    continue;
                if (op->addr.base_kind == ISA_OPND_REG && op->addr.base < nv) {
                    const uint32_t b = addr_bytes(r, in, op, bufp, false);
                    if (r->nbytes[op->addr.base] < b) {
                        r->nbytes[op->addr.base] = (uint8_t)b;
                        changed = true;
                    }
                }
                if (op->addr.has_index && op->addr.index < nv) {
                    const uint32_t b = addr_bytes(r, in, op, bufp, true);
                    if (r->nbytes[op->addr.index] < b) {
                        r->nbytes[op->addr.index] = (uint8_t)b;
                        changed = true;
                    }
                }
            }
        }
    }
    free(bufp);
    for (uint32_t v = 0; v < nv; v++)
        if (in_block(r, v) || !r->nbytes[v] || r->nbytes[v] > r->rbytes[v])
            r->nbytes[v] = r->rbytes[v];
}

/* Units: union the registers of each vector operand, then one unit per
 * block root and per predicate used. */
static bool build_units(ra *r)
{
    const uint32_t nv = r->nvreg, npred = ISA_MAX_PREDS;
    free(r->blk);
    free(r->rbytes);
    free(r->nbytes);
    free(r->unit_of);
    free(r->u);
    r->blk = malloc(nv * sizeof *r->blk + 1);
    r->rbytes = calloc(nv + 1, 1);
    r->nbytes = calloc(nv + 1, 1);
    r->unit_of = malloc((nv + npred) * sizeof *r->unit_of);
    r->u = calloc(nv + npred + 1, sizeof *r->u);
    if (!r->blk || !r->rbytes || !r->nbytes || !r->unit_of || !r->u)
        return false;
    for (uint32_t v = 0; v < nv; v++)
        r->blk[v] = v;
    for (uint32_t i = 0; i < nv + npred; i++)
        r->unit_of[i] = NONE32;
    for (uint32_t pc = 0; pc < r->n; pc++)
        isa_visit_regs(&r->code[pc], see_reg, r);
    r->nu = 0;
    /* units in order of first appearance: the colouring order */
    for (uint32_t pc = 0; pc < r->n; pc++) {
        const isa_inst *in = &r->code[pc];
        const isa_shape sh = isa_ops[in->op].shape;
        for (unsigned o = 0; o < in->nopnd && o < ISA_MAX_OPNDS; o++) {
            const isa_operand *op = &in->o[o];
            const char l = isa_shape_letter(sh, in->nopnd, o);
            uint32_t regs[2], nr = 0;
            bool pred = false;
            if (op->kind == ISA_OPND_REG && (l == 'd' || l == 's')) {
                regs[nr++] = op->reg;
            } else if (op->kind == ISA_OPND_PRED && (l == 'P' || l == 'q')) {
                regs[nr++] = op->reg;
                pred = true;
            } else if (op->kind == ISA_OPND_ADDR) {
                if (op->addr.base_kind == ISA_OPND_REG)
                    regs[nr++] = op->addr.base;
                if (op->addr.has_index)
                    regs[nr++] = op->addr.index;
            }
            for (uint32_t q = 0; q < nr; q++) {
                if (regs[q] >= (pred ? npred : nv))
                    continue;
                const uint32_t v = pred ? nv + regs[q] : find(r->blk, regs[q]);
                if (r->unit_of[v] != NONE32)
                    continue;
                ra_unit *u = &r->u[r->nu];
                memset(u, 0, sizeof *u);
                u->reg = pred ? regs[q] : v;
                u->pred = pred;
                u->first = pc;
                u->nregs = 1;
                u->temp = !pred && r->temp_reg[v];
                r->unit_of[v] = r->nu++;
            }
        }
    }
    for (uint32_t v = 0; v < nv; v++) {
        const uint32_t root = find(r->blk, v);
        const uint32_t u = r->unit_of[root];
        if (u == NONE32)
            continue;
        r->unit_of[v] = u;
        if (v != root) {
            r->u[u].nregs = v - root + 1 > r->u[u].nregs ? v - root + 1 : r->u[u].nregs;
            r->u[u].temp |= r->temp_reg[v];
        }
        r->u[u].bytes += r->rbytes[v];
    }
    narrow(r);
    for (uint32_t v = 0; v < nv; v++)
        if (r->unit_of[v] != NONE32)
            r->u[r->unit_of[v]].need += r->nbytes[v];
    r->nw = (r->nu + 63) / 64;
    if (!r->nw)
        r->nw = 1;
    /* operand references */
    free(r->ref_first);
    free(r->refs);
    r->ref_first = malloc((r->n + 1) * sizeof *r->ref_first);
    if (!r->ref_first)
        return false;
    ref_ctx c = { r, 0, 0, true };
    for (uint32_t pc = 0; pc < r->n; pc++) {
        r->ref_first[pc] = c.nref;
        isa_visit_regs(&r->code[pc], add_ref, &c);
    }
    r->ref_first[r->n] = c.nref;
    r->refs = malloc((c.nref + 1) * sizeof *r->refs);
    if (!r->refs)
        return false;
    c.count_only = false;
    c.nref = 0;
    for (uint32_t pc = 0; pc < r->n; pc++)
        isa_visit_regs(&r->code[pc], add_ref, &c);
    return true;
}

/* ---- control flow ---- */

static unsigned succs(const ra *r, uint32_t pc, uint32_t s[2])
{
    const isa_inst *in = &r->code[pc];
    const isa_family f = isa_ops[in->op].family;
    if (f == ISA_FAM_RET)
        return 0;
    if (f == ISA_FAM_BRA) {
        const uint32_t t = in->target > r->n ? r->n : in->target;
        s[0] = t;
        if (in->nopnd >= 2 && t != pc + 1) {
            s[1] = pc + 1;
            return 2;
        }
        return 1;
    }
    s[0] = pc + 1;
    return 1;
}

/* Instructions that may run with only part of the lanes active: those
 * reached from a conditional branch that is not asserted uniform before its
 * reconvergence point (every later one when that is the exit). */
static bool mark_partial(ra *r)
{
    free(r->partial);
    r->partial = calloc(r->n + 1, 1);
    uint32_t *stack = malloc((r->n + 1) * sizeof *stack);
    uint8_t *seen = malloc(r->n + 1);
    if (!r->partial || !stack || !seen) {
        free(stack);
        free(seen);
        return false;
    }
    for (uint32_t b = 0; b < r->n; b++) {
        const isa_inst *in = &r->code[b];
        if (in->op != ISA_OP_BRA || in->nopnd < 2 || (in->flags & ISA_F_UNIFORM))
            continue;
        memset(seen, 0, r->n + 1);
        uint32_t sp = 0, s[2];
        const unsigned ns = succs(r, b, s);
        for (unsigned i = 0; i < ns; i++)
            stack[sp++] = s[i];
        while (sp) {
            const uint32_t pc = stack[--sp];
            if (pc >= r->n || pc == in->reconv || seen[pc])
                continue;
            seen[pc] = 1;
            r->partial[pc] = 1;
            const unsigned m = succs(r, pc, s);
            for (unsigned i = 0; i < m; i++)
                stack[sp++] = s[i];
        }
    }
    free(stack);
    free(seen);
    return true;
}

/* Scalar register units that hold one value for the whole sub-group
 * (none without a width: then every value counts per lane). */
static bool mark_uniform(ra *r)
{
    free(r->uni);
    r->uni = calloc(r->nvreg + 1, 1);
    if (!r->uni || (r->width && !isa_uniform_regs(r->code, r->n, r->nvreg, r->partial,
                                                r->scalar_broadcast, r->uni)))
        return false;
    for (uint32_t u = 0; u < r->nu; u++)
        r->u[u].uni = !r->u[u].pred && r->u[u].nregs == 1 && r->uni[r->u[u].reg];
    return true;
}

/* Can `in` read a register in a lane that is not active?  Shuffles,
 * rotates and the non-uniform broadcast read the lane their index names,
 * active or not; where part of the lanes may be inactive, their registers
 * keep their meaning in every lane only if nothing else ever shares them.
 * Reductions, scans, votes, ballots, elect, broadcast_first and the lane
 * masks read the active lanes only (collectives/: every source is copied
 * under the active mask), and the sub-group-scope broadcast, block I/O and
 * the work-group collectives run only with every lane active (they fail
 * otherwise): per-lane liveness covers their reads. */
static bool reads_inactive_lanes(const isa_inst *in)
{
    const isa_op_info *oi = &isa_ops[in->op];
    if (oi->pipe == ISA_PIPE_BLOCK || oi->scope == ISA_SCOPE_WG)
        return false;
    if (oi->pipe != ISA_PIPE_COLL)
        return false;
    switch (oi->family) {
    case ISA_FAM_ALL: case ISA_FAM_ANY: case ISA_FAM_ALL_EQUAL: case ISA_FAM_ELECT:
    case ISA_FAM_BCAST_FIRST: case ISA_FAM_REDUCE: case ISA_FAM_SCAN_INC:
    case ISA_FAM_SCAN_EXC: case ISA_FAM_BALLOT: case ISA_FAM_INVERSE_BALLOT:
    case ISA_FAM_BALLOT_BIT_EXTRACT: case ISA_FAM_BALLOT_BIT_COUNT:
    case ISA_FAM_BALLOT_INC_SCAN: case ISA_FAM_BALLOT_EXC_SCAN:
    case ISA_FAM_BALLOT_FIND_LSB: case ISA_FAM_BALLOT_FIND_MSB: case ISA_FAM_LANE_MASK:
        return false;
    case ISA_FAM_BCAST:
        return oi->scope != ISA_SCOPE_SG;
    default:
        return true;
    }
}


/* Gen/kill of one instruction over component slots: register v is slot v,
 * predicate p slot nvreg + p.  A write kills the components it names. */
typedef struct comp_ctx {
    uint32_t nvreg, nslots;
    uint64_t *set;
    bool defs;          /* this pass: clear the written slots, else set the read ones */
} comp_ctx;

static void comp_ref(void *ctx, uint32_t reg, uint32_t n, uint32_t bytes, char l)
{
    (void)bytes;
    comp_ctx *c = ctx;
    const bool pred = l == 'P' || l == 'q', def = l == 'd' || l == 'P';
    if (def != c->defs)
        return;
    for (uint32_t i = 0; i < n; i++) {
        const uint32_t v = pred ? c->nvreg + reg : reg + i;
        if (v >= c->nslots || (!pred && v >= c->nvreg))
            break;
        if (def)
            c->set[v / 64] &= ~(UINT64_C(1) << (v % 64));
        else
            set_bit(c->set, v);
    }
}

/* Liveness per component (a block is live where any of its registers is,
 * so writing its components one by one ends its live range at the first
 * write), projected onto units. */
static bool liveness(ra *r)
{
    const uint32_t n = r->n, nw = r->nw, ns = r->nvreg + ISA_MAX_PREDS;
    const uint32_t cw = (ns + 63) / 64;
    free(r->live_in);
    free(r->live_out);
    r->live_in = calloc((size_t)(n + 1) * nw, sizeof *r->live_in);
    r->live_out = calloc((size_t)(n + 1) * nw, sizeof *r->live_out);
    free(r->cin);
    free(r->cout);
    r->cw = cw;
    uint64_t *cin = r->cin = calloc((size_t)(n + 1) * cw, sizeof *cin);
    uint64_t *cout = r->cout = calloc((size_t)(n + 1) * cw, sizeof *cout);
    uint64_t *nin = malloc(cw * sizeof *nin);
    if (!r->live_in || !r->live_out || !cin || !cout || !nin) {
        free(nin);
        return false;
    }
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t pc = n; pc-- > 0;) {
            uint64_t *lo = cout + (size_t)pc * cw, *li = cin + (size_t)pc * cw;
            uint32_t s[2];
            const unsigned nsu = succs(r, pc, s);
            memset(lo, 0, cw * sizeof *lo);
            for (unsigned i = 0; i < nsu; i++) {
                const uint64_t *x = cin + (size_t)s[i] * cw;   /* in[n]: exit, empty */
                for (uint32_t w = 0; w < cw; w++)
                    lo[w] |= x[w];
            }
            memcpy(nin, lo, cw * sizeof *nin);
            comp_ctx c = { r->nvreg, ns, nin, true };
            isa_visit_regs(&r->code[pc], comp_ref, &c);
            c.defs = false;
            isa_visit_regs(&r->code[pc], comp_ref, &c);
            if (memcmp(nin, li, cw * sizeof *nin)) {
                memcpy(li, nin, cw * sizeof *nin);
                changed = true;
            }
        }
    }
    for (uint32_t pc = 0; pc < n; pc++)
        for (int side = 0; side < 2; side++) {
            const uint64_t *cs = (side ? cout : cin) + (size_t)pc * cw;
            uint64_t *us = (side ? r->live_out : r->live_in) + (size_t)pc * nw;
            for (uint32_t w = 0; w < cw; w++)
                for (uint64_t m = cs[w]; m; m &= m - 1) {
                    const uint32_t u = r->unit_of[w * 64 + (uint32_t)__builtin_ctzll(m)];
                    if (u != NONE32)
                        set_bit(us, u);
                }
        }
    free(nin);
    /* pinned units: live everywhere */
    for (uint32_t pc = 0; pc < n; pc++) {
        if (!r->partial[pc] || !reads_inactive_lanes(&r->code[pc]))
            continue;
        /* only what it reads: its result is written in the active lanes
         * and read per lane, as any other instruction's */
        for (uint32_t f = r->ref_first[pc]; f < r->ref_first[pc + 1]; f++)
            if (!r->refs[f].def)
                r->u[r->refs[f].unit].pinned = !r->u[r->refs[f].unit].pred;
    }
    for (uint32_t u = 0; u < r->nu; u++)
        if (r->u[u].pinned)
            for (uint32_t pc = 0; pc <= n; pc++) {
                set_bit(r->live_in + (size_t)pc * nw, u);
                set_bit(r->live_out + (size_t)pc * nw, u);
                for (uint32_t c = 0; c < r->u[u].nregs; c++) {
                    set_bit(r->cin + (size_t)pc * r->cw, r->u[u].reg + c);
                    set_bit(r->cout + (size_t)pc * r->cw, r->u[u].reg + c);
                }
            }
    return true;
}

/* Bytes per lane of the register units in set s, whose live registers are
 * cs (a block counts the bytes of its live registers only, as a compiler
 * that splits vectors into their components would), + what pc writes that
 * is not in s when pc is given; the bytes of uniform values, once per
 * thread, apart in *ubytes; and the predicate count. */
typedef struct dead_ctx {
    const ra *r;
    const uint64_t *cs;
    uint32_t bytes, ubytes;
} dead_ctx;

static void dead_def(void *ctx, uint32_t reg, uint32_t n, uint32_t bytes, char l)
{
    (void)bytes;
    dead_ctx *c = ctx;
    if (l != 'd')
        return;
    for (uint32_t i = 0; i < n && reg + i < c->r->nvreg; i++)
        if (!bit(c->cs, reg + i)) {
            const ra_unit *u = &c->r->u[c->r->unit_of[reg + i]];
            *(u->uni && !u->pinned ? &c->ubytes : &c->bytes) += c->r->nbytes[reg + i];
        }
}

/* Bytes per lane register unit u (not a predicate) counts where its live
 * registers are cs: a block its live registers only; a uniform value its
 * bytes (which set_bytes sums apart, to count once per thread). */
static uint32_t unit_bytes(const ra *r, const ra_unit *u, const uint64_t *cs)
{
    if (u->nregs == 1 || u->pinned || u->uni)
        return u->need;
    uint32_t b = 0;
    for (uint32_t c = 0; c < u->nregs; c++)
        b += bit(cs, u->reg + c) ? r->nbytes[u->reg + c] : 0;
    return b;
}

static uint32_t set_bytes(const ra *r, const uint64_t *s, const uint64_t *cs, uint32_t pc,
                          uint32_t *ubytes, uint32_t *npred)
{
    uint32_t b = 0, ub = 0, p = 0;
    for (uint32_t w = 0; w < r->nw; w++)
        for (uint64_t m = s[w]; m; m &= m - 1) {
            const ra_unit *u = &r->u[w * 64 + (uint32_t)__builtin_ctzll(m)];
            if (u->pred)
                p++;
            else if (u->uni && !u->pinned)
                ub += u->need;
            else
                b += unit_bytes(r, u, cs);
        }
    if (pc != NONE32) {
        for (uint32_t f = r->ref_first[pc]; f < r->ref_first[pc + 1]; f++) {
            const ra_ref *x = &r->refs[f];
            if (x->def && r->u[x->unit].pred && !bit(s, x->unit))
                p++;
        }
        dead_ctx c = { r, cs, 0, 0 };
        isa_visit_regs(&r->code[pc], dead_def, &c);
        b += c.bytes;
        ub += c.ubytes;
    }
    *ubytes = ub;
    *npred = p;
    return b;
}

/* Bytes per lane that a message instruction (memory, atomic, image, block
 * write) needs to send uniform register sources: its payload holds them
 * lane by lane, so a value kept once per thread is spread into a temporary
 * of its per-lane size for the send.  A block message's coordinates go in
 * its header, once per message: only a block write's data counts. */
static uint32_t payload_bytes(const ra *r, uint32_t pc)
{
    const isa_inst *in = &r->code[pc];
    const isa_pipe p = isa_ops[in->op].pipe;
    if (p != ISA_PIPE_MEM && p != ISA_PIPE_ATOMIC && p != ISA_PIPE_BLOCK)
        return 0;
    const isa_shape sh = isa_ops[in->op].shape;
    uint32_t b = 0;
    for (unsigned o = 0; o < in->nopnd && o < ISA_MAX_OPNDS; o++) {
        const isa_operand *op = &in->o[o];
        if (op->kind != ISA_OPND_REG || op->reg >= r->nvreg ||
            isa_shape_letter(sh, in->nopnd, o) != 's' ||
            (p == ISA_PIPE_BLOCK && (sh == ISA_SHAPE_IMG_LD || sh == ISA_SHAPE_MB_LD ||
                                     o + 1u != in->nopnd)))
            continue;
        const ra_unit *u = &r->u[r->unit_of[op->reg]];
        if (u->uni && !u->pinned)
            b += r->nbytes[op->reg];
    }
    return b;
}

/* The narrower float type t (F32, F16) a double elementary function at pc
 * stands for, or ISA_T_F64: sgemu evaluates some float functions (pown,
 * rootn, the *pi forms) as the double function of operands it has just
 * widened (isa/spirv/spirv_math.c); the device compiler runs the float
 * function.  Every source must be written, within the few instructions
 * before, by a conversion, at least one of them from float or half. */
static unsigned widened_from(const ra *r, uint32_t pc)
{
    const isa_inst *in = &r->code[pc];
    unsigned t = ISA_T_F64;
    const unsigned ns = isa_shape_sources(isa_ops[in->op].shape);
    for (unsigned o = 1; o <= ns && o < in->nopnd; o++) {
        if (in->o[o].kind != ISA_OPND_REG)
            return ISA_T_F64;
        const isa_inst *def = NULL;
        for (uint32_t b = pc; b-- > 0 && pc - b <= 4;)
            if (r->code[b].nopnd && r->code[b].o[0].kind == ISA_OPND_REG &&
                r->code[b].o[0].reg == in->o[o].reg) {
                def = &r->code[b];
                break;
            }
        if (!def || def->op != ISA_OP_CVT || def->type != ISA_T_F64)
            return ISA_T_F64;
        if (def->src_type == ISA_T_F32 || def->src_type == ISA_T_F16)
            t = def->src_type;
    }
    return t;
}

/* The float type (0 f16, 1 f32, 2 f64) of the elementary function at pc
 * as the device compiler runs it, or -1 for other instructions. */
static int math_type(const ra *r, uint32_t pc)
{
    const isa_inst *in = &r->code[pc];
    if (!r->mt || !isa_op_math(in->op))
        return -1;
    switch (in->type == ISA_T_F64 ? widened_from(r, pc) : in->type) {
    case ISA_T_F16: return 0;
    case ISA_T_F32: return 1;
    case ISA_T_F64: return 2;
    default: return -1;
    }
}

/* The conversion that wrote register reg at most four instructions before
 * pc (widened_from's window), or NULL. */
static const isa_inst *widening_def(const ra *r, uint32_t pc, uint32_t reg)
{
    for (uint32_t b = pc; b-- > 0 && pc - b <= 4;) {
        const isa_inst *d = &r->code[b];
        if (d->nopnd && d->o[0].kind == ISA_OPND_REG && d->o[0].reg == reg)
            return d->op == ISA_OP_CVT && d->type == ISA_T_F64 ? d : NULL;
    }
    return NULL;
}

/* An elementary function that counts as a narrower type's (widened_from:
 * sgemu's pown, rootn and *pi of float operands run as the double function
 * of widened copies) holds, in the device compiler, the narrow operands
 * and result: it calls the float function on the conversions' sources.
 * Bytes per lane to take off the live set at pc: into it, each widened
 * operand less its source's bytes where that source is not live into pc
 * anyway (x, n of pown(x, n) are usually read later); out of it, the
 * double result less the narrow type's bytes. */
static uint32_t widened_excess(const ra *r, uint32_t pc, bool out)
{
    const isa_inst *in = &r->code[pc];
    if (!r->mt || !isa_op_math(in->op) || in->type != ISA_T_F64)
        return 0;
    const unsigned t = widened_from(r, pc);
    if (t == ISA_T_F64)
        return 0;
    const uint64_t *live = (out ? r->live_out : r->live_in) + (size_t)pc * r->nw;
    uint32_t b = 0;
    if (out) {
        if (in->nopnd && in->o[0].kind == ISA_OPND_REG && in->o[0].reg < r->nvreg) {
            const ra_unit *u = &r->u[r->unit_of[in->o[0].reg]];
            if (u->nregs == 1 && !u->uni && !u->pinned && u->need > isa_types[t].bytes)
                b += u->need - isa_types[t].bytes;
        }
        return b;
    }
    const unsigned ns = isa_shape_sources(isa_ops[in->op].shape);
    for (unsigned o = 1; o <= ns && o < in->nopnd; o++) {
        const uint32_t v = in->o[o].reg;
        bool seen = false;
        for (unsigned q = 1; q < o; q++)
            seen |= in->o[q].kind == ISA_OPND_REG && in->o[q].reg == v;
        if (seen || in->o[o].kind != ISA_OPND_REG || v >= r->nvreg)
            continue;
        const uint32_t uv = r->unit_of[v];
        const ra_unit *u = &r->u[uv];
        const isa_inst *d = widening_def(r, pc, v);
        if (!d || !bit(live, uv) || u->nregs != 1 || u->uni || u->pinned ||
            (unsigned)d->src_type >= ISA_T_COUNT)
            continue;
        uint32_t keep = isa_types[d->src_type].bytes;
        if (d->nopnd >= 2 && d->o[1].kind == ISA_OPND_REG && d->o[1].reg < r->nvreg &&
            bit(live, r->unit_of[d->o[1].reg]))
            keep = 0;
        if (u->need > keep)
            b += u->need - keep;
    }
    return b;
}

/* Bytes per lane an elementary function holds beyond its operands while it
 * runs (the device compiler's inlined library code); 0 for the others. */
static uint32_t math_temp_bytes(const ra *r, uint32_t pc)
{
    const int t = math_type(r, pc);
    return t < 0 ? 0 : r->mt->bytes[r->code[pc].op][t];
}

/* Bytes per lane a two-source shuffle holds while it runs: IGC copies the
 * component of both sources into one temporary of 2 x W lanes and reads
 * the result from it by a dword lane index, built from a vector of 16-bit
 * lane numbers (16 of them, one SIMD16 half's, at SIMD32; docs/regalloc.md,
 * Two-source shuffles): two components, 4 bytes and the lane numbers'
 * share per lane, one component at a time. */
static uint32_t shuffle2_bytes(const ra *r, uint32_t pc)
{
    const isa_inst *in = &r->code[pc];
    const isa_op_info *oi = &isa_ops[in->op];
    if (!r->shuffle2_temps || oi->pipe != ISA_PIPE_COLL ||
        (oi->family != ISA_FAM_SHUFFLE_UP2 && oi->family != ISA_FAM_SHUFFLE_DOWN2) ||
        (unsigned)in->type >= ISA_T_COUNT)
        return 0;
    const uint32_t w = r->width ? r->width : 1, lanes = w < 16 ? w : 16;
    return 2u * isa_types[in->type].bytes + 4u + (2u * lanes + w - 1) / w;
}

/* The value register reg holds when the instruction at pc reads it, as the
 * device compiler's value numbering sees it: followed back through copies,
 * conversions and additions of zero within the block that starts at
 * `start`.  The instruction that computed it (1 << 32 | pc), the spill slot
 * it was filled from (2 << 32 | offset), or reg's value at the block's
 * start (3 << 32 | reg). */
static uint64_t value_root(const ra *r, uint32_t pc, uint32_t reg, uint32_t start)
{
    for (uint32_t b = pc; b-- > start;) {
        const isa_inst *d = &r->code[b];
        if (!d->nopnd || d->o[0].kind != ISA_OPND_REG || d->o[0].reg != reg)
            continue;
        const bool zero_add = d->op == ISA_OP_ADD && d->nopnd == 3 &&
                              d->o[2].kind == ISA_OPND_IMM && d->o[2].imm == 0;
        if ((d->op == ISA_OP_MOV || d->op == ISA_OP_CVT || zero_add) && d->nopnd >= 2 &&
            d->o[1].kind == ISA_OPND_REG && d->vec == 1) {
            reg = d->o[1].reg;
            continue;
        }
        if (d->op == ISA_OP_LD && d->space == ISA_SPACE_PRIVATE &&
            d->o[1].kind == ISA_OPND_ADDR && d->o[1].addr.base_kind == ISA_OPND_NONE)
            return 2ull << 32 | (uint32_t)d->o[1].addr.disp;
        return 1ull << 32 | b;
    }
    return 3ull << 32 | reg;
}

/* The library function the device compiler runs for the elementary
 * function at pc: its opcode, or ISA_MATH_POWN for a pow whose exponent was
 * just converted from an integer (sgemu's pown, isa/spirv/spirv_math.c),
 * which the device compiler's library computes in a body of its own. */
static unsigned math_fn(const ra *r, uint32_t pc)
{
    const isa_inst *in = &r->code[pc];
    if (in->op != ISA_OP_POW || in->nopnd < 3 || in->o[2].kind != ISA_OPND_REG)
        return in->op;
    for (uint32_t b = pc; b-- > 0 && pc - b <= 4;) {
        const isa_inst *d = &r->code[b];
        if (d->nopnd && d->o[0].kind == ISA_OPND_REG && d->o[0].reg == in->o[2].reg)
            return d->op == ISA_OP_CVT && (unsigned)d->src_type < ISA_T_COUNT &&
                   !isa_types[d->src_type].is_float ? ISA_MATH_POWN : in->op;
    }
    return in->op;
}

/* Do the elementary functions at pcs a < b (one block from `start`) read
 * the same operands, as the pairs were measured: the first operand, and
 * the second where both take a second float operand (rootn's and pown's
 * are integers, never compared: the pairs with them were measured with
 * other integers)? */
static bool same_operands(const ra *r, uint32_t a, uint32_t b, uint32_t start)
{
    const isa_inst *x = &r->code[a], *y = &r->code[b];
    const unsigned nx = isa_shape_sources(isa_ops[x->op].shape);
    const unsigned ny = isa_shape_sources(isa_ops[y->op].shape);
    const unsigned fx = math_fn(r, a), fy = math_fn(r, b);
    const bool int_x = fx == ISA_OP_ROOTN || fx == ISA_MATH_POWN;
    const bool int_y = fy == ISA_OP_ROOTN || fy == ISA_MATH_POWN;
    const unsigned n = nx >= 2 && ny >= 2 && !int_x && !int_y ? 2 : 1;
    for (unsigned o = 1; o <= n; o++) {
        if (o >= x->nopnd || o >= y->nopnd || x->o[o].kind != ISA_OPND_REG ||
            y->o[o].kind != ISA_OPND_REG ||
            value_root(r, a, x->o[o].reg, start) != value_root(r, b, y->o[o].reg, start))
            return false;
    }
    return true;
}

/* One value the device compiler keeps live between elementary functions:
 * a term of the table, computed from one operand value (root), live from
 * the first function that computes it up to the last that reads it. */
typedef struct shared_term {
    uint64_t root;
    uint32_t term, lo, hi, bytes;
} shared_term;

/* Add term t of the functions at pcs a < b of operand root `root` to the
 * list (widening its span when it is there). */
static bool note_term(shared_term **v, uint32_t *n, uint32_t *cap, uint64_t root,
                      const isa_math_shared *t, uint32_t a, uint32_t b)
{
    for (uint32_t i = 0; i < *n; i++) {
        shared_term *x = &(*v)[i];
        if (x->root == root && x->term == t->term) {
            x->lo = a < x->lo ? a : x->lo;
            x->hi = b > x->hi ? b : x->hi;
            return true;
        }
    }
    if (*n == *cap) {
        const uint32_t c = *cap ? *cap * 2 : 16;
        shared_term *nv = realloc(*v, c * sizeof *nv);
        if (!nv)
            return false;
        *v = nv;
        *cap = c;
    }
    (*v)[(*n)++] = (shared_term){ root, t->term, a, b, t->bytes };
    return true;
}

/* What elementary functions of the same operands keep live between them:
 * the device compiler computes their common terms once, in the first, and
 * holds each until the last function that reads it.  extra[pc] = the bytes
 * per lane of the terms live across pc (pairs within one block, each term
 * of one operand value counted once).  NULL when there is nothing to add. */
static uint32_t *shared_live(const ra *r)
{
    if (!r->mt || !r->mt->nshared || !r->n)
        return NULL;
    uint32_t *start = malloc(r->n * sizeof *start);
    uint8_t *target = calloc(r->n + 1, 1);
    shared_term *terms = NULL;
    uint32_t nt = 0, cap = 0;
    bool ok = start && target;
    for (uint32_t pc = 0; ok && pc < r->n; pc++)
        if (isa_ops[r->code[pc].op].family == ISA_FAM_BRA)
            target[r->code[pc].target > r->n ? r->n : r->code[pc].target] = 1;
    for (uint32_t pc = 0; ok && pc < r->n; pc++) {
        const isa_family f = pc ? isa_ops[r->code[pc - 1].op].family : ISA_FAM_BRA;
        start[pc] = !pc || target[pc] || f == ISA_FAM_BRA || f == ISA_FAM_RET ? pc
                                                                              : start[pc - 1];
    }
    for (uint32_t a = 0; ok && a < r->n; a++) {
        const int t = math_type(r, a);
        if (t < 0)
            continue;
        const unsigned op_a = math_fn(r, a);
        for (uint32_t b = a + 1; ok && b < r->n && start[b] == start[a]; b++) {
            if (math_type(r, b) != t)
                continue;
            const unsigned op_b = math_fn(r, b);
            bool same = false, checked = false;
            for (uint32_t i = 0; ok && i < r->mt->nshared; i++) {
                const isa_math_shared *s = &r->mt->shared[i];
                if (s->type != t || !((s->op_a == op_a && s->op_b == op_b) ||
                                      (s->op_a == op_b && s->op_b == op_a)))
                    continue;
                if (!checked) {
                    same = same_operands(r, a, b, start[a]);
                    checked = true;
                }
                if (!same)
                    break;
                ok = note_term(&terms, &nt, &cap,
                               value_root(r, a, r->code[a].o[1].reg, start[a]), s, a, b);
            }
        }
    }
    uint32_t *extra = ok && nt ? calloc(r->n + 1, sizeof *extra) : NULL;
    if (extra) {
        /* a difference array over the spans, then its running sum */
        for (uint32_t i = 0; i < nt; i++) {
            extra[terms[i].lo] += terms[i].bytes;
            extra[terms[i].hi] -= terms[i].bytes;
        }
        for (uint32_t pc = 1; pc < r->n; pc++)
            extra[pc] += extra[pc - 1];
    }
    free(start);
    free(target);
    free(terms);
    return extra;
}

/* The demand: most bytes per lane live at once (live into an instruction,
 * or live out of it with what it writes, plus an elementary function's
 * temporaries and a message's uniform payload), predicates a bit per lane
 * each, uniform values their bytes once per thread (a width-th per lane,
 * rounded up over their sum; without a width, per lane). */
static uint32_t side_bytes(const ra *r, uint32_t pc, bool out)
{
    const uint32_t w = r->width ? r->width : 1;     /* no width: no uniform values */
    uint32_t p, u;
    const uint32_t b = set_bytes(r, (out ? r->live_out : r->live_in) + (size_t)pc * r->nw,
                                 (out ? r->cout : r->cin) + (size_t)pc * r->cw,
                                 out ? pc : NONE32, &u, &p);
    return b + (p + 7) / 8 + (u + w - 1) / w;
}

/* at, temps (NULL: not wanted): per instruction in lo..hi, what the demand
 * counts there and the temporaries' part of it. */
static uint32_t demand_in(const ra *r, uint32_t lo, uint32_t hi, uint32_t *peak_pc,
                          uint32_t *at, uint32_t *temps)
{
    uint32_t best = 0;
    *peak_pc = NONE32;
    uint32_t *extra = shared_live(r);
    if (r->payload_dist || (r->payload_copy && r->width >= r->payload_copy)) {
        /* a vector store's unfolded payload copies (regalloc_payload.c) */
        if (!extra)
            extra = calloc(r->n + 1, sizeof *extra);
        if (extra && !isa_payload_twice(r->code, r->n, r->nvreg, r->nbytes, r->uni, r->width,
                                        r->payload_dist, r->payload_copy, extra)) {
            free(extra);
            extra = NULL;
        }
    }
    for (uint32_t pc = lo; pc < hi; pc++) {
        const uint32_t a = side_bytes(r, pc, false) - widened_excess(r, pc, false);
        const uint32_t b = side_bytes(r, pc, true) - widened_excess(r, pc, true);
        const uint32_t t = payload_bytes(r, pc) + math_temp_bytes(r, pc) +
                           shuffle2_bytes(r, pc) + (extra ? extra[pc] : 0);
        const uint32_t m = (a > b ? a : b) + t;
        if (at)
            at[pc] = m;
        if (temps)
            temps[pc] = t;
        if (m > best || *peak_pc == NONE32) {
            best = m;
            *peak_pc = pc;
        }
    }
    free(extra);
    return best;
}

static uint32_t demand(const ra *r, uint32_t *peak_pc)
{
    return demand_in(r, 0, r->n, peak_pc, NULL, NULL);
}

static bool interference(ra *r)
{
    const uint32_t nu = r->nu, nw = r->nw;
    free(r->adj);
    r->adj = calloc((size_t)nu * nw + 1, sizeof *r->adj);
    if (!r->adj)
        return false;
    for (uint32_t pc = 0; pc < r->n; pc++) {
        const uint64_t *lo = r->live_out + (size_t)pc * nw;
        const bool lw = lanewise_scalar(&r->code[pc]);
        for (uint32_t f = r->ref_first[pc]; f < r->ref_first[pc + 1]; f++) {
            const ra_ref *d = &r->refs[f];
            if (!d->def)
                continue;
            uint64_t *row = r->adj + (size_t)d->unit * nw;
            for (uint32_t w = 0; w < nw; w++)
                row[w] |= lo[w];
            for (uint32_t g = r->ref_first[pc]; g < r->ref_first[pc + 1]; g++)
                if (r->refs[g].def || !lw)
                    set_bit(row, r->refs[g].unit);
        }
    }
    /* symmetric, no self edges; pinned units meet every unit */
    for (uint32_t a = 0; a < nu; a++) {
        if (r->u[a].pinned)
            for (uint32_t b = 0; b < nu; b++)
                set_bit(r->adj + (size_t)a * nw, b);
        for (uint32_t w = 0; w < nw; w++)
            for (uint64_t m = r->adj[(size_t)a * nw + w]; m; m &= m - 1) {
                const uint32_t b = w * 64 + (uint32_t)__builtin_ctzll(m);
                set_bit(r->adj + (size_t)b * nw, a);
            }
    }
    for (uint32_t a = 0; a < nu; a++)
        r->adj[(size_t)a * nw + a / 64] &= ~(UINT64_C(1) << (a % 64));
    return true;
}

/* Greedy colouring in order of first appearance (pinned units first):
 * each unit takes the lowest run of free colours of its size. */
static bool colour(ra *r, uint32_t *nreg, uint32_t *npred)
{
    const uint32_t cap = ISA_MAX_REGS + 64;
    uint8_t *busy = malloc(cap);
    if (!busy)
        return false;
    *nreg = *npred = 0;
    for (uint32_t u = 0; u < r->nu; u++)
        r->u[u].colour = NONE32;
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t a = 0; a < r->nu; a++) {
            ra_unit *ua = &r->u[a];
            if ((pass == 0) != (ua->pinned != 0))
                continue;
            memset(busy, 0, cap);
            for (uint32_t w = 0; w < r->nw; w++)
                for (uint64_t m = r->adj[(size_t)a * r->nw + w]; m; m &= m - 1) {
                    const ra_unit *ub = &r->u[w * 64 + (uint32_t)__builtin_ctzll(m)];
                    if (ub->colour == NONE32 || ub->pred != ua->pred)
                        continue;
                    for (uint32_t c = 0; c < ub->nregs && ub->colour + c < cap; c++)
                        busy[ub->colour + c] = 1;
                }
            const uint32_t limit = ua->pred ? ISA_MAX_PREDS : ISA_MAX_REGS;
            uint32_t c = 0;
            for (;; c++) {
                if (c + ua->nregs > limit) {
                    free(busy);
                    return false;
                }
                uint32_t i = 0;
                while (i < ua->nregs && !busy[c + i])
                    i++;
                if (i == ua->nregs)
                    break;
            }
            ua->colour = c;
            uint32_t *top = ua->pred ? npred : nreg;
            if (c + ua->nregs > *top)
                *top = c + ua->nregs;
        }
    free(busy);
    return true;
}

/* ---- spilling ---- */

/* Instructions from `pc` (wrapping once) to the next one that reads unit u. */
static uint32_t next_use(const ra *r, uint32_t u, uint32_t pc)
{
    for (uint32_t d = 0; d < r->n; d++) {
        const uint32_t q = (pc + d) % r->n;
        for (uint32_t f = r->ref_first[q]; f < r->ref_first[q + 1]; f++)
            if (r->refs[f].unit == u && !r->refs[f].def)
                return d;
    }
    return r->n;
}

static isa_type spill_type(uint32_t bytes)
{
    return bytes >= 8 ? ISA_T_U64 : bytes >= 4 ? ISA_T_U32 : bytes == 2 ? ISA_T_U16 : ISA_T_U8;
}

static isa_inst spill_inst(const isa_inst *at, bool store, uint32_t reg, isa_type t,
                           uint32_t offset)
{
    isa_inst s;
    memset(&s, 0, sizeof s);
    s.op = store ? ISA_OP_ST : ISA_OP_LD;
    s.type = s.src_type = (uint8_t)t;
    s.vec = 1;
    s.space = ISA_SPACE_PRIVATE;
    s.nopnd = 2;
    s.reconv = ISA_PC_EXIT;     /* as the assembler leaves a non-branch */
    s.line = at->line;
    s.col = at->col;
    isa_operand *a = &s.o[store ? 0 : 1], *v = &s.o[store ? 1 : 0];
    a->kind = ISA_OPND_ADDR;
    a->addr.base_kind = ISA_OPND_NONE;    /* [offset]: the work-item's private area */
    a->addr.scale = 1;
    a->addr.index_type = ISA_T_I32;
    a->addr.disp = offset;
    v->kind = ISA_OPND_REG;
    v->reg = (uint16_t)reg;
    return s;
}

/* Does operand o of `in` name register reg (read: 's'/'a', written: 'd')? */
static void rename_opnds(isa_inst *in, uint32_t reg, uint32_t tr, uint32_t tw, bool *rd,
                         bool *wr)
{
    const isa_shape sh = isa_ops[in->op].shape;
    for (unsigned o = 0; o < in->nopnd && o < ISA_MAX_OPNDS; o++) {
        isa_operand *op = &in->o[o];
        const char l = isa_shape_letter(sh, in->nopnd, o);
        if (op->kind == ISA_OPND_REG && op->reg == reg && (l == 's' || l == 'd')) {
            if (l == 'd') {
                *wr = true;
                op->reg = (uint16_t)tw;
            } else {
                *rd = true;
                op->reg = (uint16_t)tr;
            }
        } else if (op->kind == ISA_OPND_ADDR) {
            if (op->addr.base_kind == ISA_OPND_REG && op->addr.base == reg) {
                *rd = true;
                op->addr.base = (uint16_t)tr;
            }
            if (op->addr.has_index && op->addr.index == reg) {
                *rd = true;
                op->addr.index = (uint16_t)tr;
            }
        }
    }
}

/* ---- rematerialisation ---- */

#define RA_REMAT_DEPTH 3u   /* instructions in one recomputation chain, at most */

/* The one instruction that writes unit u, writing all of it; else NONE32. */
static uint32_t only_def(const ra *r, uint32_t u)
{
    uint32_t at = NONE32;
    for (uint32_t pc = 0; pc < r->n; pc++)
        for (uint32_t f = r->ref_first[pc]; f < r->ref_first[pc + 1]; f++)
            if (r->refs[f].unit == u && r->refs[f].def) {
                if (!r->refs[f].full || at != NONE32)
                    return NONE32;
                at = pc;
            }
    return at;
}

/* Is unit src live into every instruction that reads unit u? */
static bool live_at_reads(const ra *r, uint32_t src, uint32_t u)
{
    for (uint32_t pc = 0; pc < r->n; pc++)
        for (uint32_t f = r->ref_first[pc]; f < r->ref_first[pc + 1]; f++)
            if (r->refs[f].unit == u && !r->refs[f].def &&
                !bit(r->live_in + (size_t)pc * r->nw, src))
                return false;
    return true;
}

/* Instructions needed to recompute unit u from immediates, kernel
 * arguments and work-item queries alone (a chain through other such
 * values), or 0 when u is not that cheap: u is a scalar register written
 * once, by a pure lane-wise ALU, move or conversion instruction with no
 * predicate operand, and it is not live into the kernel (so the write
 * comes before every read on every path).  With remat_live (vISA's rule)
 * the chain is that one instruction: it reads no work-item query, and each
 * register it reads is written once and live into every read of u. */
static uint32_t remat_chain(const ra *r, uint32_t u, uint32_t room)
{
    const ra_unit *x = &r->u[u];
    if (!room || x->pred || x->pinned || x->nregs != 1 || bit(r->live_in, u))
        return 0;
    const uint32_t pc = only_def(r, u);
    if (pc == NONE32)
        return 0;
    const isa_inst *in = &r->code[pc];
    if (!isa_op_pure(in->op) || !lanewise_scalar(in) || isa_ops[in->op].pipe == ISA_PIPE_TRANS)
        return 0;
    const isa_shape sh = isa_ops[in->op].shape;
    uint32_t len = 1;
    for (unsigned o = 0; o < in->nopnd && o < ISA_MAX_OPNDS; o++) {
        const isa_operand *op = &in->o[o];
        const char l = isa_shape_letter(sh, in->nopnd, o);
        if (l == 'd' && op->kind == ISA_OPND_REG)
            continue;
        if (l != 's')
            return 0;
        if (op->kind == ISA_OPND_REG && r->remat_live) {
            /* one write, so the register still holds the value read here */
            if (op->reg >= r->nvreg || only_def(r, r->unit_of[op->reg]) == NONE32 ||
                !live_at_reads(r, r->unit_of[op->reg], u))
                return 0;
        } else if (op->kind == ISA_OPND_SPECIAL && r->remat_live) {
            return 0;       /* the ids come from the payload, which vISA never extends */
        } else if (op->kind == ISA_OPND_REG) {
            const uint32_t sub = op->reg < r->nvreg ? remat_chain(r, r->unit_of[op->reg],
                                                                  room - len) : 0;
            if (!sub)
                return 0;
            len += sub;
        } else if (op->kind != ISA_OPND_IMM && op->kind != ISA_OPND_ARG &&
                   op->kind != ISA_OPND_SPECIAL) {
            return 0;
        }
    }
    return len <= room ? len : 0;
}

/* Emit the chain that recomputes unit u into fresh temporaries at out[*m..];
 * returns the temporary holding u. */
static uint32_t emit_remat(ra *r, uint32_t u, isa_inst *out, uint32_t *m, isa_ra_stats *st)
{
    isa_inst c = r->code[only_def(r, u)];
    const isa_shape sh = isa_ops[c.op].shape;
    uint32_t dst = 0;
    for (unsigned o = 0; o < c.nopnd && o < ISA_MAX_OPNDS; o++) {
        const char l = isa_shape_letter(sh, c.nopnd, o);
        if (c.o[o].kind != ISA_OPND_REG)
            continue;
        if (l == 's' && !r->remat_live)   /* remat_live: its sources are live here */
            c.o[o].reg = (uint16_t)emit_remat(r, r->unit_of[c.o[o].reg], out, m, st);
        else if (l == 's')
            continue;
        else
            dst = o;
    }
    const uint32_t t = r->nvreg++;
    r->temp_reg[t] = 1;
    c.o[dst].reg = (uint16_t)t;
    out[(*m)++] = c;
    st->remat_insts++;
    return t;
}

static bool names_reg(const isa_inst *in, uint32_t reg)
{
    isa_inst c = *in;
    bool rd = false, wr = false;
    rename_opnds(&c, reg, reg, reg, &rd, &wr);
    return rd || wr;
}

/* The value to take out of the registers at the pressure peak: live
 * there, a scalar register that no cross-lane instruction pins, no spill
 * or recomputation made, and that is not uniform (it holds a width-th of
 * its bytes per lane: taking it out frees next to nothing).  Values that can be recomputed (remat_chain) come
 * first, then the furthest next read wins, then the most bytes, then the
 * earliest.  *remat says whether the one chosen is recomputed. */
static uint32_t pick_spill(const ra *r, uint32_t pc, bool allow_remat, bool *remat)
{
    const uint64_t *li = r->live_in + (size_t)pc * r->nw, *lo = r->live_out + (size_t)pc * r->nw;
    uint32_t best = NONE32, best_d = 0;
    bool best_rm = false;
    for (uint32_t u = 0; u < r->nu; u++) {
        const ra_unit *x = &r->u[u];
        if (x->pred || x->pinned || x->temp || x->uni || x->nregs != 1 || x->bytes == 0 ||
            (!bit(li, u) && !bit(lo, u)))
            continue;
        const uint32_t d = next_use(r, u, pc);
        if (d == 0)
            continue;       /* read here: its fill would be live here too */
        const bool rm = allow_remat && remat_chain(r, u, RA_REMAT_DEPTH) != 0;
        if (best == NONE32 || rm > best_rm ||
            (rm == best_rm && (d > best_d || (d == best_d && x->bytes > r->u[best].bytes)))) {
            best = u;
            best_d = d;
            best_rm = rm;
        }
    }
    *remat = best_rm;
    return best;
}

/* Rewrite the stream for register `reg`.  Spilling (remat == false) puts
 * it in private-memory slot `offset`: a fill into a fresh temporary before
 * each instruction that reads it, a store from a fresh temporary after each
 * that writes it.  Rematerialising drops its one write and puts the chain
 * that recomputes it before each instruction that reads it.  Branches to an
 * instruction go to what now precedes it. */
static bool rewrite_reg(ra *r, uint32_t reg, bool remat, uint32_t bytes, uint32_t offset,
                        isa_ra_stats *st)
{
    const uint32_t u = r->unit_of[reg];
    const uint32_t def = remat ? only_def(r, u) : NONE32;
    const uint32_t each = remat ? remat_chain(r, u, RA_REMAT_DEPTH) : 1;
    uint32_t extra = 0;
    for (uint32_t pc = 0; pc < r->n; pc++)
        for (uint32_t f = r->ref_first[pc]; f < r->ref_first[pc + 1]; f++)
            extra += r->refs[f].unit == u ? each : 0;
    if (r->nvreg + extra + 1 >= RA_MAX_VREG)
        return false;
    isa_inst *out = malloc((r->n + extra + 1) * sizeof *out);
    uint32_t *newpc = malloc((r->n + 1) * sizeof *newpc);
    if (!out || !newpc) {
        free(out);
        free(newpc);
        return false;
    }
    const isa_type t = spill_type(bytes);
    uint32_t m = 0;
    for (uint32_t pc = 0; pc < r->n; pc++) {
        isa_inst in = r->code[pc];
        newpc[pc] = m;
        if (pc == def)
            continue;
        bool rd = false, wr = false;
        if (remat) {
            if (names_reg(&in, reg)) {
                const uint32_t tmp = emit_remat(r, u, out, &m, st);
                rename_opnds(&in, reg, tmp, tmp, &rd, &wr);
            }
            out[m++] = in;
            continue;
        }
        const uint32_t tmp = r->nvreg;
        rename_opnds(&in, reg, tmp, tmp, &rd, &wr);
        if (rd || wr) {
            r->temp_reg[tmp] = 1;
            r->nvreg++;
        }
        if (rd) {
            out[m++] = spill_inst(&in, false, tmp, t, offset);
            st->spill_fills++;
        }
        out[m++] = in;
        if (wr) {
            out[m++] = spill_inst(&in, true, tmp, t, offset);
            st->spill_stores++;
        }
    }
    newpc[r->n] = m;
    for (uint32_t i = 0; i < m; i++)
        if (out[i].op == ISA_OP_BRA) {
            out[i].target = newpc[out[i].target <= r->n ? out[i].target : r->n];
            if (out[i].reconv < r->n)   /* the next round's divergence regions */
                out[i].reconv = newpc[out[i].reconv];
        }
    free(r->code);
    free(newpc);
    r->code = out;
    r->n = m;
    return true;
}

/* ---- the pass ---- */

static bool analyse(ra *r)
{
    return build_units(r) && mark_partial(r) && mark_uniform(r) && liveness(r);
}

/* Scheduling for pressure (presched.c; docs/regalloc.md): each block of at
 * least PRESCHED_MIN_BLOCK instructions whose peak is over o->presched_bytes
 * per lane is reordered, and the new order kept only if that block's peak
 * falls by o->presched_gain_bytes or more; with o->presched_all, every
 * block of that size, kept.  False: out of memory. */
#define PRESCHED_MIN_BLOCK 10u

static bool presched(ra *r, const isa_ra_opts *o, isa_ra_stats *st)
{
    uint32_t *start = malloc(((size_t)r->n + 1) * sizeof *start);
    isa_inst *keep = malloc(((size_t)r->n + 1) * sizeof *keep);
    if (!start || !keep) {
        free(start);
        free(keep);
        return false;
    }
    const uint32_t nb = isa_presched_blocks(r->code, r->n, start);
    bool ok = true;
    for (uint32_t b = 0; ok && b < nb; b++) {
        const uint32_t lo = start[b], hi = start[b + 1];
        uint32_t peak;
        if (hi - lo < PRESCHED_MIN_BLOCK)
            continue;
        const uint32_t before = demand_in(r, lo, hi, &peak, NULL, NULL);
        if (before <= o->presched_bytes && !o->presched_all)
            continue;
        memcpy(keep, r->code + lo, (hi - lo) * sizeof *keep);
        if (!isa_presched_block(r->code, r->n, lo, hi, r->nvreg, r->k->npred))
            continue;
        ok = analyse(r);
        if (ok && (o->presched_all ||
                   demand_in(r, lo, hi, &peak, NULL, NULL) + o->presched_gain_bytes <= before)) {
            st->presched_blocks++;
            continue;
        }
        memcpy(r->code + lo, keep, (hi - lo) * sizeof *keep);
        ok = analyse(r);
    }
    free(start);
    free(keep);
    return ok;
}

static void ra_free(ra *r)
{
    free(r->code);
    free(r->temp_reg);
    free(r->blk);
    free(r->rbytes);
    free(r->nbytes);
    free(r->unit_of);
    free(r->u);
    free(r->refs);
    free(r->ref_first);
    free(r->live_in);
    free(r->live_out);
    free(r->cin);
    free(r->cout);
    free(r->partial);
    free(r->uni);
    free(r->adj);
}

static void apply_colours(ra *r)
{
    for (uint32_t pc = 0; pc < r->n; pc++) {
        isa_inst *in = &r->code[pc];
        const isa_shape sh = isa_ops[in->op].shape;
        for (unsigned o = 0; o < in->nopnd && o < ISA_MAX_OPNDS; o++) {
            isa_operand *op = &in->o[o];
            const char l = isa_shape_letter(sh, in->nopnd, o);
            if (op->kind == ISA_OPND_REG && (l == 'd' || l == 's')) {
                const ra_unit *u = &r->u[r->unit_of[op->reg]];
                op->reg = (uint16_t)(u->colour + op->reg - u->reg);
            } else if (op->kind == ISA_OPND_PRED && (l == 'P' || l == 'q')) {
                op->reg = (uint16_t)r->u[r->unit_of[r->nvreg + op->reg]].colour;
            } else if (op->kind == ISA_OPND_ADDR) {
                if (op->addr.base_kind == ISA_OPND_REG)
                    op->addr.base = (uint16_t)r->u[r->unit_of[op->addr.base]].colour;
                if (op->addr.has_index)
                    op->addr.index = (uint16_t)r->u[r->unit_of[op->addr.index]].colour;
            }
        }
    }
}

/* ---- the pressure report (isa_ra_pressure) ---- */

/* Registers instruction pc writes, for the values it writes that are not
 * live after it (what set_bytes counts as written there). */
typedef struct def_list {
    uint32_t reg[2 * ISA_MAX_OPNDS], n[2 * ISA_MAX_OPNDS], count;
} def_list;

static void note_def(void *ctx, uint32_t reg, uint32_t n, uint32_t bytes, char l)
{
    (void)bytes;
    def_list *d = ctx;
    if (l == 'd' && d->count < 2 * ISA_MAX_OPNDS) {
        d->reg[d->count] = reg;
        d->n[d->count++] = n;
    }
}

/* Source line of the first instruction that writes unit u (0: none). */
static uint32_t unit_line(const ra *r, uint32_t u)
{
    for (uint32_t pc = 0; pc < r->n; pc++)
        for (uint32_t f = r->ref_first[pc]; f < r->ref_first[pc + 1]; f++)
            if (r->refs[f].def && r->refs[f].unit == u)
                return r->code[pc].line;
    return 0;
}

static bool push_live(isa_ra_pressure *pr, uint32_t *n, uint32_t *cap, isa_ra_live_value v)
{
    if (*n == *cap) {
        const uint32_t c = *cap ? *cap * 2 : 64;
        isa_ra_live_value *nv = realloc(pr->peak_live, c * sizeof *nv);
        if (!nv)
            return false;
        pr->peak_live = nv;
        *cap = c;
    }
    pr->peak_live[(*n)++] = v;
    return true;
}

/* The values the demand counts at pc, appended to pr's list: the side of
 * pc that counts more (live into it, or live out of it with what it
 * writes), as demand_in takes it.  Registers are the colours. */
static bool live_values(const ra *r, uint32_t pc, isa_ra_pressure *pr, uint32_t *n,
                        uint32_t *cap)
{
    const bool out = side_bytes(r, pc, true) >= side_bytes(r, pc, false);
    const uint64_t *s = (out ? r->live_out : r->live_in) + (size_t)pc * r->nw;
    const uint64_t *cs = (out ? r->cout : r->cin) + (size_t)pc * r->cw;
    const uint32_t first = *n;
    for (uint32_t w = 0; w < r->nw; w++)
        for (uint64_t m = s[w]; m; m &= m - 1) {
            const uint32_t ui = w * 64 + (uint32_t)__builtin_ctzll(m);
            const ra_unit *u = &r->u[ui];
            const isa_ra_live_value v = {
                u->colour, u->nregs, u->pred ? 0 : unit_bytes(r, u, cs), unit_line(r, ui),
                u->pred, u->uni && !u->pinned && !u->pred, 0 };
            if (!push_live(pr, n, cap, v))
                return false;
        }
    if (!out)
        return true;
    /* what pc writes that is not live after it: its written registers (a
     * block live after it for its other registers counts them as well) */
    def_list d = { .count = 0 };
    isa_visit_regs(&r->code[pc], note_def, &d);
    for (uint32_t f = r->ref_first[pc]; f < r->ref_first[pc + 1]; f++) {
        const ra_ref *x = &r->refs[f];
        const ra_unit *u = &r->u[x->unit];
        if (!x->def || (u->pred && bit(s, x->unit)))
            continue;
        bool seen = false;      /* a unit the instruction names twice: once */
        for (uint32_t g = r->ref_first[pc]; g < f; g++)
            seen |= r->refs[g].def && r->refs[g].unit == x->unit;
        if (seen)
            continue;
        uint32_t b = 0;
        for (uint32_t i = 0; !u->pred && i < d.count; i++)
            for (uint32_t c = 0; c < d.n[i] && d.reg[i] + c < r->nvreg; c++)
                if (r->unit_of[d.reg[i] + c] == x->unit && !bit(cs, d.reg[i] + c))
                    b += r->nbytes[d.reg[i] + c];
        if (!u->pred && !b)
            continue;
        if (bit(s, x->unit)) {
            for (uint32_t i = first; i < *n; i++)
                if (!pr->peak_live[i].pred && pr->peak_live[i].reg == u->colour)
                    pr->peak_live[i].bytes += b;
            continue;
        }
        const isa_ra_live_value v = { u->colour, u->nregs, b, r->code[pc].line, u->pred,
                                      u->uni && !u->pinned && !u->pred, 1 };
        if (!push_live(pr, n, cap, v))
            return false;
    }
    return true;
}

/* Fill pr from the final stream's liveness (after colouring). */
static bool pressure_report(const ra *r, isa_ra_pressure *pr)
{
    pr->ninst = r->n;
    pr->bytes = calloc((size_t)r->n + 1, sizeof *pr->bytes);
    pr->temps = calloc((size_t)r->n + 1, sizeof *pr->temps);
    pr->peak_pc = calloc((size_t)r->n + 1, sizeof *pr->peak_pc);
    pr->peak_first = calloc((size_t)r->n + 2, sizeof *pr->peak_first);
    if (!pr->bytes || !pr->temps || !pr->peak_pc || !pr->peak_first)
        return false;
    uint32_t peak_pc;
    pr->peak = r->n ? demand_in(r, 0, r->n, &peak_pc, pr->bytes, pr->temps) : 0;
    uint32_t n = 0, cap = 0;
    for (uint32_t pc = 0; pc < r->n; pc++) {
        if (pr->bytes[pc] != pr->peak)
            continue;
        pr->peak_pc[pr->npeak] = pc;
        if (!live_values(r, pc, pr, &n, &cap))
            return false;
        pr->peak_first[++pr->npeak] = n;
    }
    return true;
}

void isa_ra_pressure_free(isa_ra_pressure *pr)
{
    free(pr->bytes);
    free(pr->temps);
    free(pr->peak_pc);
    free(pr->peak_first);
    free(pr->peak_live);
    memset(pr, 0, sizeof *pr);
}

static int regalloc(const isa_kernel *in, const isa_ra_opts *opts, isa_kernel *out,
                    isa_ra_stats *st, isa_diags *diags, isa_ra_pressure *pr)
{
    memset(st, 0, sizeof *st);
    *out = *in;
    out->inst = NULL;
    out->reg_bytes = NULL;
    st->regs_before = in->nreg;
    st->preds_before = in->npred;
    st->bytes_before = in->grf_bytes_per_lane;
    ra r;
    memset(&r, 0, sizeof r);
    r.k = in;
    r.mt = opts ? opts->math_temps : NULL;
    r.width = opts ? opts->width : 0;
    r.scalar_broadcast = opts && opts->scalar_broadcast;
    r.payload_dist = opts ? opts->payload_fold_distance : 0;
    r.payload_copy = opts ? opts->payload_copy_width : 0;
    r.buf_offset = opts ? opts->buffer_offset_bytes : 0;
    r.remat_live = opts && opts->remat_live_sources;
    r.shuffle2_temps = opts && opts->shuffle2_temps;
    r.n = in->ninst;
    r.nvreg = in->nreg;
    r.code = malloc((in->ninst + 1) * sizeof *r.code);
    r.temp_reg = calloc(RA_MAX_VREG, 1);
    if (!r.code || !r.temp_reg) {
        ra_free(&r);
        isa_diags_add(diags, 1, 1, "register allocation: out of memory");
        return 1;
    }
    if (in->ninst)
        memcpy(r.code, in->inst, in->ninst * sizeof *r.code);
    const uint32_t slot_base = (in->private_mem + 7u) & ~7u;
    uint32_t slots = 0, peak = 0, d = 0;
    bool ok = analyse(&r);
    if (ok && opts && (opts->presched_bytes || opts->presched_all) && in->compiled)
        ok = presched(&r, opts, st);
    if (ok)
        st->live_bytes_before = d = demand(&r, &peak);
    for (uint32_t round = 0; ok && opts && opts->budget_bytes && d > opts->budget_bytes &&
                             round < RA_MAX_ROUNDS; round++) {
        bool remat = false;
        const uint32_t u = pick_spill(&r, peak, !opts->no_remat, &remat);
        if (u == NONE32)
            break;      /* nothing live at the peak can go: it stays over */
        const uint32_t bytes = r.u[u].bytes, reg = r.u[u].reg;
        if (remat) {
            ok = rewrite_reg(&r, reg, true, bytes, 0, st);
            st->remat_values++;
        } else {
            slots = (slots + bytes - 1) / bytes * bytes;
            ok = rewrite_reg(&r, reg, false, bytes, slot_base + slots, st);
            slots += bytes;
            st->spilled_values++;
        }
        if (ok)
            ok = analyse(&r);
        if (ok)
            d = demand(&r, &peak);
    }
    uint32_t nreg = 0, npred = 0;
    if (ok)
        ok = interference(&r) && colour(&r, &nreg, &npred);
    if (!ok) {
        ra_free(&r);
        isa_diags_add(diags, 1, 1, "register allocation failed (out of memory or more than "
                      "%u registers live at once)", ISA_MAX_REGS);
        return 1;
    }
    if (pr && !pressure_report(&r, pr)) {
        ra_free(&r);
        isa_ra_pressure_free(pr);
        isa_diags_add(diags, 1, 1, "register allocation: out of memory");
        return 1;
    }
    apply_colours(&r);
    for (uint32_t u = 0; u < r.nu; u++)
        st->pinned += r.u[u].pinned;
    out->inst = r.code;
    out->ninst = r.n;
    r.code = NULL;
    if (slots)
        out->private_mem = slot_base + ((slots + 7u) & ~7u);
    ra_free(&r);
    int errs = isa_validate(out, diags);
    if (errs) {
        if (pr)
            isa_ra_pressure_free(pr);
        free(out->inst);
        free(out->reg_bytes);
        out->inst = NULL;
        out->reg_bytes = NULL;
        return errs;
    }
    out->regalloc = ISA_RA_DONE;
    out->grf_bytes_per_lane = d;
    st->regs_after = out->nreg;
    st->preds_after = out->npred;
    st->live_bytes = d;
    st->spill_bytes = slots;
    return 0;
}

int isa_regalloc(const isa_kernel *in, const isa_ra_opts *opts, isa_kernel *out,
                 isa_ra_stats *st, isa_diags *diags)
{
    return regalloc(in, opts, out, st, diags, NULL);
}

int isa_regalloc_pressure(const isa_kernel *in, const isa_ra_opts *opts, isa_kernel *out,
                          isa_ra_stats *st, isa_diags *diags, isa_ra_pressure *pr)
{
    memset(pr, 0, sizeof *pr);
    return regalloc(in, opts, out, st, diags, pr);
}

void isa_regalloc_free(isa_kernel *k)
{
    free(k->inst);
    free(k->reg_bytes);
    k->inst = NULL;
    k->reg_bytes = NULL;
    k->ninst = 0;
}
