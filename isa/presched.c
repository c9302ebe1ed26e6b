/*
 * presched.c - reorder a basic block before register allocation so that
 * fewer values are live at once (docs/regalloc.md, "Scheduling for
 * pressure").
 *
 * Intel's compiler does this in vISA before allocating registers: where a
 * block's pressure is over a threshold it list-schedules the block bottom
 * up, picking among the ready instructions the one whose operand tree needs
 * the fewest registers (Sethi-Ullman numbers generalised to DAGs, Appel and
 * Supowit), and keeps the new order only if the block's pressure fell by
 * enough.  This file builds the block's dependence graph and the order; the
 * allocator (regalloc.c) decides when to run it and whether to keep it.
 *
 * The order keeps every dependence: a register or predicate read after the
 * write it reads, a write after the reads and writes of that register before
 * it, a store after every load and store before it and a load after the
 * stores before it.  The Sethi-Ullman numbers follow only the reads and
 * overwrites of values (vISA's RAW and WAW edges): an overwrite of what
 * earlier instructions read, and memory order, constrain the order and
 * nothing else.  Anything that is not lane-wise arithmetic that cannot
 * fault (division and remainder stay), a move, a conversion, a plain load
 * or a plain store stays where it is, and the
 * stretches between such fixed instructions are scheduled apart: nothing
 * moves across a collective, a barrier, an atomic (or an atomic load or
 * store), block I/O, an image access, printf, an elementary function (whose
 * device temporaries depend on the conversions just before it,
 * regalloc.c) or a branch.  Blocks hold no branch target, so every
 * instruction of a block runs with the same lanes.
 */
#include "presched.h"

#include "isa_priv.h"

#include <stdlib.h>
#include <string.h>

#define PS_MAX_STRETCH 2048u    /* longer stretches are left as they are (cost) */
#define PS_NONE 0xffffffffu

/* A register range an instruction reads or writes (predicates numbered
 * after the registers). */
typedef struct ps_ref {
    uint32_t reg, n, bytes;
    uint8_t write;
} ps_ref;

#define PS_MAX_REFS 16

typedef struct ps_node {
    ps_ref ref[PS_MAX_REFS];
    unsigned nref;
    uint8_t load, store;
    uint32_t size;          /* bytes per lane it writes that die in the block */
} ps_node;

uint32_t isa_presched_blocks(const isa_inst *code, uint32_t n, uint32_t *start)
{
    uint8_t *lead = calloc((size_t)n + 1, 1);
    if (!lead) {
        start[0] = 0;
        start[1] = n;
        return n ? 1 : 0;
    }
    lead[0] = 1;
    for (uint32_t pc = 0; pc < n; pc++) {
        const isa_inst *in = &code[pc];
        if (in->op != ISA_OP_BRA && in->op != ISA_OP_RET)
            continue;
        lead[pc + 1] = 1;
        if (in->op == ISA_OP_BRA) {
            if (in->target < n)
                lead[in->target] = 1;
            if (in->reconv < n)
                lead[in->reconv] = 1;
        }
    }
    uint32_t count = 0;
    for (uint32_t pc = 0; pc < n; pc++)
        if (lead[pc])
            start[count++] = pc;
    start[count] = n;
    free(lead);
    return count;
}

/* May the instruction move within its block? */
static bool movable(const isa_inst *in)
{
    if (in->op >= ISA_OP_COUNT || in->op == ISA_OP_NOP)
        return false;
    if (in->op == ISA_OP_LD || in->op == ISA_OP_ST)
        return !(in->flags & (ISA_F_ATOMIC | ISA_F_ACQUIRE | ISA_F_RELEASE));
    return isa_op_lanewise(in->op) && isa_op_pure(in->op) && !isa_op_math(in->op);
}

/* What refs() collects: the node, the register count (predicates are
 * numbered after the registers) and how many ranges were named. */
typedef struct ps_refs_ctx {
    ps_node *nd;
    uint32_t nreg;
    unsigned want;
} ps_refs_ctx;

static void add_ref(void *ctx, uint32_t reg, uint32_t n, uint32_t bytes, char l)
{
    ps_refs_ctx *c = ctx;
    const bool pred = l == 'P' || l == 'q';
    c->want++;
    if (c->nd->nref < PS_MAX_REFS)
        c->nd->ref[c->nd->nref++] = (ps_ref){ pred ? c->nreg + reg : reg, n ? n : 1,
                                              pred ? 1 : bytes, l == 'd' || l == 'P' };
}

/* The registers and predicates `in` reads and writes; false when it names
 * more ranges than a node holds (then it stays fixed). */
static bool refs(const isa_inst *in, uint32_t nreg, ps_node *nd)
{
    memset(nd, 0, sizeof *nd);
    ps_refs_ctx c = { nd, nreg, 0 };
    isa_visit_regs(in, add_ref, &c);
    nd->load = in->op == ISA_OP_LD;
    nd->store = in->op == ISA_OP_ST;
    return c.want <= PS_MAX_REFS;
}

/* Must b (later) stay after a (earlier)?  PS_ORDER: only its place (it
 * overwrites what a reads, or memory orders them); PS_FLOW: it reads or
 * overwrites what a writes, which is what the Sethi-Ullman numbers follow. */
#define PS_ORDER 1u
#define PS_FLOW 2u

static unsigned depends(const ps_node *a, const ps_node *b)
{
    unsigned d = 0;
    if ((a->store && (b->load || b->store)) || (a->load && b->store))
        d = PS_ORDER;
    for (unsigned i = 0; i < a->nref; i++)
        for (unsigned j = 0; j < b->nref; j++) {
            const ps_ref *x = &a->ref[i], *y = &b->ref[j];
            if ((x->write || y->write) && x->reg < y->reg + y->n && y->reg < x->reg + x->n)
                d |= x->write ? PS_FLOW : PS_ORDER;
        }
    return d;
}

/* Schedule stretch code[a..b) (all movable) into order[0..b-a) (indices
 * relative to a).  live_out[r], r <= nreg_all: register r is read outside
 * the block. */
static bool schedule(const isa_inst *code, uint32_t a, uint32_t b, uint32_t nreg,
                     uint32_t nreg_all, const uint8_t *live_out, uint32_t *order)
{
    const uint32_t m = b - a;
    const size_t words = (m + 63) / 64;
    ps_node *nd = malloc(m * sizeof *nd);
    uint64_t *pred = calloc((size_t)m * words, sizeof *pred);   /* pred[j] bit i: i -> j */
    uint64_t *flow = calloc((size_t)m * words, sizeof *flow);   /* the PS_FLOW ones */
    uint32_t *su = calloc(m, sizeof *su), *left = calloc(m, sizeof *left);
    uint32_t *tmp = malloc(m * sizeof *tmp);
    uint8_t *done = calloc(m, 1);
    bool ok = nd && pred && flow && su && left && tmp && done;
    unsigned d;
    for (uint32_t i = 0; ok && i < m; i++) {
        refs(&code[a + i], nreg, &nd[i]);
        for (unsigned k = 0; k < nd[i].nref; k++) {
            const ps_ref *x = &nd[i].ref[k];
            bool out = false;
            for (uint32_t c = 0; c < x->n && !out; c++)
                out = x->reg + c > nreg_all || live_out[x->reg + c];
            if (x->write && !out)
                nd[i].size += x->n * x->bytes;
        }
    }
    for (uint32_t j = 0; ok && j < m; j++)
        for (uint32_t i = 0; i < j; i++)
            if ((d = depends(&nd[i], &nd[j])) != 0) {
                pred[(size_t)j * words + i / 64] |= 1ull << (i % 64);
                if (d & PS_FLOW)
                    flow[(size_t)j * words + i / 64] |= 1ull << (i % 64);
                left[i]++;
            }
    /* Sethi-Ullman numbers, in stream order (predecessors first): the
     * predecessors' numbers ascending, each later one adding the bytes of
     * the values already held; a leaf needs what it writes. */
    for (uint32_t j = 0; ok && j < m; j++) {
        uint32_t np = 0;
        for (uint32_t i = 0; i < j; i++)
            if (flow[(size_t)j * words + i / 64] >> (i % 64) & 1)
                tmp[np++] = i;
        for (uint32_t x = 1; x < np; x++)          /* insertion sort by number */
            for (uint32_t y = x; y > 0 && su[tmp[y - 1]] > su[tmp[y]]; y--) {
                const uint32_t t = tmp[y];
                tmp[y] = tmp[y - 1];
                tmp[y - 1] = t;
            }
        if (!np) {
            su[j] = nd[j].size ? nd[j].size : 1;
            continue;
        }
        uint32_t cur = su[tmp[0]];
        for (uint32_t x = 1; x < np; x++) {
            const uint32_t c = cur + nd[tmp[x]].size;
            cur = c > su[tmp[x]] ? c : su[tmp[x]];
        }
        su[j] = cur + nd[j].size;
    }
    /* Bottom up: of the instructions whose successors are all placed, the
     * one with the smallest number goes last; ties keep the later one last. */
    for (uint32_t slot = m; ok && slot-- > 0;) {
        uint32_t best = PS_NONE;
        for (uint32_t i = m; i-- > 0;)
            if (!done[i] && !left[i] && (best == PS_NONE || su[i] < su[best]))
                best = i;
        if (best == PS_NONE) {
            ok = false;     /* cannot happen: the graph follows the stream */
            break;
        }
        done[best] = 1;
        order[slot] = best;
        for (uint32_t i = 0; i < best; i++)
            if (pred[(size_t)best * words + i / 64] >> (i % 64) & 1)
                left[i]--;
    }
    free(nd);
    free(pred);
    free(flow);
    free(su);
    free(left);
    free(tmp);
    free(done);
    return ok;
}

bool isa_presched_block(isa_inst *code, uint32_t n, uint32_t lo, uint32_t hi, uint32_t nreg,
                        uint32_t npred)
{
    const uint32_t nr = nreg + npred;
    uint8_t *live_out = calloc((size_t)nr + 1, 1);
    uint32_t *order = malloc(((size_t)(hi - lo) + 1) * sizeof *order);
    isa_inst *copy = malloc(((size_t)(hi - lo) + 1) * sizeof *copy);
    if (!live_out || !order || !copy) {
        free(live_out);
        free(order);
        free(copy);
        return false;
    }
    for (uint32_t pc = 0; pc < n; pc++) {
        if (pc == lo)
            pc = hi;
        if (pc >= n)
            break;
        ps_node nd;
        refs(&code[pc], nreg, &nd);
        for (unsigned k = 0; k < nd.nref; k++)
            for (uint32_t c = 0; c < nd.ref[k].n; c++)
                if (!nd.ref[k].write && nd.ref[k].reg + c < nr)
                    live_out[nd.ref[k].reg + c] = 1;
    }
    bool changed = false;
    for (uint32_t a = lo; a < hi;) {
        ps_node nd;
        if (!movable(&code[a]) || !refs(&code[a], nreg, &nd)) {
            a++;
            continue;
        }
        uint32_t b = a + 1;
        while (b < hi && movable(&code[b]) && refs(&code[b], nreg, &nd))
            b++;
        if (b - a > 2 && b - a <= PS_MAX_STRETCH &&
            schedule(code, a, b, nreg, nr, live_out, order)) {
            memcpy(copy, &code[a], (b - a) * sizeof *copy);
            for (uint32_t i = 0; i < b - a; i++) {
                changed |= order[i] != i;
                code[a + i] = copy[order[i]];
            }
        }
        a = b;
    }
    free(live_out);
    free(order);
    free(copy);
    return changed;
}
