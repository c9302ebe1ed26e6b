/*
 * simt.c - the reconvergence stack (immediate post-dominator rule).
 *
 * Invariant after every call: the top entry has live lanes and has not
 * reached its reconvergence point, or the stack is empty (all lanes done).
 */
#include "lanes.h"

#include <stdlib.h>

#define SIMT_INITIAL_CAP 64

static int simt_grow(lanes_simt *s, uint32_t need)
{
    if (need <= s->cap)
        return 0;
    uint32_t cap = s->cap ? s->cap : SIMT_INITIAL_CAP;
    while (cap < need)
        cap *= 2;
    lanes_simt_entry *e = realloc(s->e, (size_t)cap * sizeof *e);
    if (!e)
        return -1;
    s->e = e;
    s->cap = cap;
    return 0;
}

/* Pop entries that reached their reconvergence point or whose lanes have
 * all returned; the entry below waits at exactly that point. */
static void simt_settle(lanes_simt *s)
{
    while (s->depth > 0) {
        const lanes_simt_entry *t = &s->e[s->depth - 1];
        if ((t->mask & ~s->exited) != 0 && t->pc != t->rpc)
            break;
        s->depth--;
    }
}

void lanes_simt_init(lanes_simt *s, lanes_mask lanes, uint32_t entry_pc)
{
    s->e = NULL;
    s->depth = 0;
    s->cap = 0;
    s->exited = 0;
    s->oom = false;
    if (simt_grow(s, SIMT_INITIAL_CAP) != 0) {
        /* no error path in this contract: an empty stack with oom set;
         * the engine uses lanes_simt_reset, which returns the failure */
        s->oom = true;
        return;
    }
    s->e[0] = (lanes_simt_entry){ .pc = entry_pc, .rpc = ISA_PC_EXIT,
                                  .mask = lanes };
    s->depth = 1;
    simt_settle(s);
}

int lanes_simt_reset(lanes_simt *s, lanes_mask lanes, uint32_t entry_pc)
{
    s->depth = 0;
    s->exited = 0;
    s->oom = false;
    if (simt_grow(s, SIMT_INITIAL_CAP) != 0)
        return -1;
    s->e[0] = (lanes_simt_entry){ .pc = entry_pc, .rpc = ISA_PC_EXIT,
                                  .mask = lanes };
    s->depth = 1;
    /* the usual entry (some lanes, a pc before exit) is settled already */
    if (lanes == 0 || entry_pc == ISA_PC_EXIT)
        simt_settle(s);
    return 0;
}

void lanes_simt_free(lanes_simt *s)
{
    free(s->e);
    s->e = NULL;
    s->depth = 0;
    s->cap = 0;
}

bool lanes_simt_done(const lanes_simt *s)
{
    return s->depth == 0;
}

uint32_t lanes_simt_pc(const lanes_simt *s)
{
    return s->depth ? s->e[s->depth - 1].pc : ISA_PC_EXIT;
}

lanes_mask lanes_simt_active(const lanes_simt *s)
{
    return s->depth ? s->e[s->depth - 1].mask & ~s->exited : 0;
}

void lanes_simt_goto(lanes_simt *s, uint32_t next_pc)
{
    if (s->depth == 0)
        return;
    s->e[s->depth - 1].pc = next_pc;
    simt_settle(s);
}

void lanes_simt_branch(lanes_simt *s, lanes_mask taken, uint32_t target,
                       uint32_t fallthrough, uint32_t reconv)
{
    const lanes_mask act = lanes_simt_active(s);
    const lanes_mask t = taken & act, nt = act & ~taken;

    if (s->depth == 0)
        return;
    if (nt == 0) {
        lanes_simt_goto(s, target);
        return;
    }
    if (t == 0) {
        lanes_simt_goto(s, fallthrough);
        return;
    }
    if (simt_grow(s, s->depth + 2) != 0) {
        /* dropping a path would silently lose lanes: stop the sub-group
         * and let the engine report it (lanes_simt.oom) */
        s->oom = true;
        s->depth = 0;
        return;
    }
    lanes_simt_entry *top = &s->e[s->depth - 1];
    if (top->rpc == reconv) {
        /* the entry below already waits at reconv with these lanes (or
         * reconv is exit): reuse the top instead of stacking a waiter, so
         * a divergent loop keeps a constant depth */
        s->depth--;
    } else {
        /* the current entry waits at the reconvergence point with its
         * mask; with reconv == ISA_PC_EXIT it pops once its lanes return */
        top->pc = reconv;
    }
    /* a path that starts at the reconvergence point has nothing to run:
     * its lanes just wait below */
    if (fallthrough != reconv)
        s->e[s->depth++] = (lanes_simt_entry){ fallthrough, reconv, nt };
    if (target != reconv)
        s->e[s->depth++] = (lanes_simt_entry){ target, reconv, t };
    simt_settle(s);
}

void lanes_simt_ret(lanes_simt *s)
{
    if (s->depth == 0)
        return;
    s->exited |= s->e[s->depth - 1].mask;   /* lanes_simt_active, inline */
    simt_settle(s);
}
