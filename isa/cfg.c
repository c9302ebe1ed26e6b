/*
 * cfg.c - reconvergence points.  The CFG is built over instructions with one
 * virtual exit node (index ninst).  Post-dominators come from the
 * Cooper-Harvey-Kennedy iteration run on the reverse CFG: exit is the root,
 * nodes are visited in reverse post-order of a DFS over predecessors, and
 * "intersect" walks up the current ipdom tree by post-order number.  Works
 * for any CFG, structured or not; nodes that cannot reach the exit (endless
 * loops) have no post-dominator and their branches reconverge at exit.
 */
#include "isa.h"

#include <stdlib.h>
#include <string.h>

#define UNDEF 0xffffffffu

/* Successors of instruction pc (up to 2); the exit is node n. */
static unsigned succs(const isa_kernel *k, uint32_t pc, uint32_t s[2])
{
    const isa_inst *in = &k->inst[pc];
    uint32_t n = k->ninst;
    uint32_t next = pc + 1;   /* pc+1 == n: falls off the end to exit */
    if (in->op < ISA_OP_COUNT) {
        isa_family f = isa_ops[in->op].family;
        if (f == ISA_FAM_RET) {
            s[0] = n;
            return 1;
        }
        if (f == ISA_FAM_BRA) {
            uint32_t t = in->target > n ? n : in->target;
            if (in->nopnd >= 2) {           /* conditional: per lane */
                s[0] = t;
                s[1] = next;
                return t == next ? 1 : 2;
            }
            s[0] = t;
            return 1;
        }
    }
    s[0] = next;
    return 1;
}

static uint32_t intersect(const uint32_t *ipdom, const uint32_t *po, uint32_t a, uint32_t b)
{
    while (a != b) {
        while (po[a] < po[b])
            a = ipdom[a];
        while (po[b] < po[a])
            b = ipdom[b];
    }
    return a;
}

void isa_compute_reconvergence(isa_kernel *k)
{
    uint32_t n = k->ninst;
    if (!n || !k->inst)
        return;
    uint32_t N = n + 1;
    /* predecessor lists in CSR form */
    uint32_t *pstart = calloc((size_t)N + 1, sizeof *pstart);
    uint32_t *plist = malloc((size_t)2 * n * sizeof *plist);
    uint32_t *po = malloc((size_t)N * sizeof *po);       /* post-order number */
    uint32_t *order = malloc((size_t)N * sizeof *order); /* nodes by post-order */
    uint32_t *ipdom = malloc((size_t)N * sizeof *ipdom);
    uint32_t *stack = malloc((size_t)N * sizeof *stack);
    uint32_t *it = calloc((size_t)N, sizeof *it);         /* DFS edge cursor */
    uint32_t *fill = calloc((size_t)N, sizeof *fill);
    if (!pstart || !plist || !po || !order || !ipdom || !stack || !it || !fill)
        goto out;
    for (uint32_t pc = 0; pc < n; pc++) {
        uint32_t s[2];
        unsigned c = succs(k, pc, s);
        for (unsigned j = 0; j < c; j++)
            pstart[s[j] + 1]++;
    }
    for (uint32_t i = 0; i < N; i++)
        pstart[i + 1] += pstart[i];
    for (uint32_t pc = 0; pc < n; pc++) {
        uint32_t s[2];
        unsigned c = succs(k, pc, s);
        for (unsigned j = 0; j < c; j++)
            plist[pstart[s[j]] + fill[s[j]]++] = pc;
    }
    /* iterative DFS from exit over predecessor edges */
    for (uint32_t i = 0; i < N; i++) {
        po[i] = UNDEF;
        ipdom[i] = UNDEF;
    }
    uint32_t npo = 0, sp = 0;
    memset(fill, 0, (size_t)N * sizeof *fill);   /* reused as "visited" */
    stack[sp++] = n;
    fill[n] = 1;
    while (sp) {
        uint32_t v = stack[sp - 1];
        if (pstart[v] + it[v] < pstart[v + 1]) {
            uint32_t p = plist[pstart[v] + it[v]++];   // NOLINT(clang-analyzer-core.uninitialized.Assign): entries below pstart[v + 1] were all filled above
            if (!fill[p]) {
                fill[p] = 1;
                stack[sp++] = p;
            }
        } else {
            sp--;
            po[v] = npo;
            order[npo++] = v;
        }
    }
    ipdom[n] = n;
    for (bool changed = true; changed;) {
        changed = false;
        /* reverse post-order, skipping the root (last in post-order) */
        for (uint32_t i = npo - 1; i-- > 0;) {
            uint32_t b = order[i];
            uint32_t s[2], nd = UNDEF;
            unsigned c = succs(k, b, s);
            for (unsigned j = 0; j < c; j++) {
                if (ipdom[s[j]] == UNDEF)
                    continue;
                nd = nd == UNDEF ? s[j] : intersect(ipdom, po, s[j], nd);
            }
            if (nd != ipdom[b]) {
                ipdom[b] = nd;
                changed = true;
            }
        }
    }
    for (uint32_t pc = 0; pc < n; pc++) {
        isa_inst *in = &k->inst[pc];
        if (in->op >= ISA_OP_COUNT || isa_ops[in->op].family != ISA_FAM_BRA)
            continue;
        uint32_t r = ipdom[pc];
        in->reconv = (in->nopnd >= 2 && r != UNDEF && r != n) ? r : ISA_PC_EXIT;
    }
out:
    free(pstart);
    free(plist);
    free(po);
    free(order);
    free(ipdom);
    free(stack);
    free(it);
    free(fill);
}
