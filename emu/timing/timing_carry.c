/* timing_carry.c - the L2's contents carried from one launch to the next on
 * a device (memory.l2.keep_across_launches; docs/timing-model.md, "Cache
 * state across launches").
 *
 * Between launches a line is named by the buffer it belongs to (an identity
 * the caller gives, stable from launch to launch) and its line number in
 * that buffer, since a launch places buffer argument i at (i + 1) << 40 and
 * the same buffer may be another argument next time.  The state lists the
 * lines oldest first.  A launch installs them into its L2 in that order (the
 * last one most recently used); lines of buffers the launch does not bind
 * go to a range of their own, so that they still take their ways and age,
 * and are never hit.  When the launch ends, its L2's lines of carried
 * buffers become the state, in the order of their last use.  The L1s are
 * not carried: they start every launch empty (the H200's L1 is invalidated
 * at a launch, examples/calibration/cuda/l1_across_launches.cu). */
#include "timing_private.h"

#include <stdlib.h>
#include <string.h>

/* Buffer i of a launch is at (i + 1) << TM_ARG_SHIFT (emu_buffer_base); a
 * carried buffer the launch does not bind, the k-th, at
 * (TM_CARRY_UNBOUND + k) << TM_ARG_SHIFT, apart from images (0x1000),
 * private memory (0x2000) and scratch (0x3000). */
#define TM_ARG_SHIFT 40
#define TM_CARRY_UNBOUND 0x4000u
#define TM_CARRY_UNBOUND_MAX 0x4000u

typedef struct carried_line {
    uint64_t buffer;        /* the caller's identity, not 0 */
    uint64_t line;          /* line number in the buffer */
    uint64_t sectors;       /* valid sectors (1: a whole line without sectors) */
    uint64_t stamp;         /* order of last use while sorting */
} carried_line;

struct sgemu_cache_state {
    carried_line *l2;       /* oldest first */
    size_t n, cap;
    uint32_t line_bytes;    /* of the config it was built under (0: none yet) */
};

sgemu_cache_state *sgemu_cache_state_new(void)
{
    return calloc(1, sizeof(sgemu_cache_state));
}

void sgemu_cache_state_free(sgemu_cache_state *s)
{
    if (s)
        free(s->l2);
    free(s);
}

uint64_t sgemu_cache_state_lines(const sgemu_cache_state *s)
{
    return s ? s->n : 0;
}

/* The line and sector geometry of the launch's caches. */
typedef struct geometry {
    uint32_t line, line_shift, sector_shift, nsectors;
    uint64_t capacity;      /* L2 lines */
} geometry;

static uint32_t log2u(uint32_t v)
{
    uint32_t s = 0;
    while ((1u << (s + 1)) <= v)
        s++;
    return s;
}

static geometry geometry_of(const emu_timing_cfg *tc)
{
    geometry g;
    g.line = tm_line_bytes(tc);
    uint32_t sector = tm_sector_bytes(tc);
    g.line_shift = log2u(g.line);
    g.sector_shift = log2u(sector);
    g.nsectors = g.line / sector;
    g.capacity = tc->l2.size / g.line;
    return g;
}

/* A state built under another line size is emptied: its lines mean nothing
 * on this device. */
static void state_bind(sgemu_cache_state *s, const geometry *g)
{
    if (s->line_bytes != g->line) {
        s->n = 0;
        s->line_bytes = g->line;
    }
}

/* Sectors of line `ln` that bytes [lo, hi) cover. */
static uint64_t sectors_of(const geometry *g, uint64_t ln, uint64_t lo, uint64_t hi)
{
    if (g->nsectors == 1)
        return 1;
    uint64_t first = ln << g->line_shift, last = first + g->line;
    uint64_t a = lo > first ? lo : first, b = hi < last ? hi : last;
    uint64_t s0 = (a - first) >> g->sector_shift, s1 = (b - first - 1) >> g->sector_shift;
    uint64_t m = 0;
    for (uint64_t i = s0; i <= s1; i++)
        m |= 1ull << i;
    return m;
}

/* Drop the lines of buffer `buffer` that meet bytes [lo, hi). */
static void drop_range(sgemu_cache_state *s, const geometry *g, uint64_t buffer, uint64_t lo,
                       uint64_t hi)
{
    uint64_t l0 = lo >> g->line_shift, l1 = (hi - 1) >> g->line_shift;
    size_t k = 0;
    for (size_t i = 0; i < s->n; i++)
        if (!(s->l2[i].buffer == buffer && s->l2[i].line >= l0 && s->l2[i].line <= l1))
            s->l2[k++] = s->l2[i];
    s->n = k;
}

void sgemu_cache_host_write(sgemu_cache_state *s, const emu_config *cfg, uint64_t buffer,
                            uint64_t offset, uint64_t bytes)
{
    if (!s || !bytes || !buffer)
        return;
    geometry g = geometry_of(&cfg->timing);
    state_bind(s, &g);
    drop_range(s, &g, buffer, offset, offset + bytes);
}

int sgemu_cache_device_write(sgemu_cache_state *s, const emu_config *cfg, uint64_t buffer,
                             uint64_t offset, uint64_t bytes)
{
    if (!s || !bytes || !buffer)
        return 0;
    const emu_timing_cfg *tc = &cfg->timing;
    geometry g = geometry_of(tc);
    state_bind(s, &g);
    uint64_t hi = offset + bytes;
    drop_range(s, &g, buffer, offset, hi);      /* partial lines come back below */
    if (!tc->l2_keep || !tc->l2_device_writes || !g.capacity)
        return 0;
    uint64_t l0 = offset >> g.line_shift, l1 = (hi - 1) >> g.line_shift;
    /* only the last `capacity` lines written can stay */
    if (l1 - l0 + 1 > g.capacity)
        l0 = l1 + 1 - g.capacity;
    size_t add = (size_t)(l1 - l0 + 1);
    if (s->n + add > s->cap) {
        size_t cap = s->n + add;
        carried_line *p = realloc(s->l2, cap * sizeof *p);
        if (!p)
            return -1;
        s->l2 = p;
        s->cap = cap;
    }
    for (uint64_t ln = l0; ln <= l1; ln++)
        s->l2[s->n++] = (carried_line){ buffer, ln, sectors_of(&g, ln, offset, hi), 0 };
    if (s->n > g.capacity) {        /* least recently used first out */
        size_t cut = s->n - (size_t)g.capacity;
        memmove(s->l2, s->l2 + cut, (size_t)g.capacity * sizeof *s->l2);
        s->n = (size_t)g.capacity;
    }
    return 0;
}

/* ---- at a launch's start and end (tm_run) ---- */

/* The launch-space line of buffer line `cl`, or UINT64_MAX when it has
 * none (more unbound buffers than their ranges hold). */
static uint64_t launch_line(const tm_carry *c, const geometry *g, const carried_line *cl,
                            uint64_t *unbound, uint32_t *nunbound)
{
    uint32_t per_range = TM_ARG_SHIFT - g->line_shift;
    for (uint32_t i = 0; i < c->narg; i++) {
        if (c->buffer[i] != cl->buffer || c->offset[i] & (g->line - 1))
            continue;
        uint64_t first = c->offset[i] >> g->line_shift;
        uint64_t n = (c->bytes[i] + g->line - 1) >> g->line_shift;
        if (cl->line >= first && cl->line - first < n)
            return ((uint64_t)(i + 1) << per_range) + (cl->line - first);
    }
    uint32_t k = 0;
    while (k < *nunbound && unbound[k] != cl->buffer)
        k++;
    if (k == *nunbound) {
        if (k == TM_CARRY_UNBOUND_MAX)
            return UINT64_MAX;
        unbound[(*nunbound)++] = cl->buffer;
    }
    if (cl->line >> per_range)
        return UINT64_MAX;
    return ((uint64_t)(TM_CARRY_UNBOUND + k) << per_range) + cl->line;
}

int tm_carry_install(tm_mem *m, const tm_carry *c, uint64_t **unbound_out, uint32_t *nunbound)
{
    sgemu_cache_state *s = c->state;
    geometry g = geometry_of(m->tc);
    state_bind(s, &g);
    *nunbound = 0;
    *unbound_out = NULL;
    if (!m->tc->l2_keep || !m->l2.sets || !s->n)
        return 0;
    uint64_t *unbound = malloc(TM_CARRY_UNBOUND_MAX * sizeof *unbound);
    if (!unbound)
        return -1;
    for (size_t i = 0; i < s->n; i++) {
        uint64_t ln = launch_line(c, &g, &s->l2[i], unbound, nunbound);
        if (ln == UINT64_MAX)
            continue;
        tm_way *w;
        tm_mem_carry_fill(m, ln, s->l2[i].sectors, &w);
        w->ready = 0;       /* there before the launch */
    }
    *unbound_out = unbound;
    return 0;
}

static int by_line(const void *a, const void *b)
{
    const carried_line *x = a, *y = b;
    if (x->buffer != y->buffer)
        return x->buffer < y->buffer ? -1 : 1;
    if (x->line != y->line)
        return x->line < y->line ? -1 : 1;
    return x->stamp < y->stamp ? -1 : x->stamp > y->stamp;
}

static int by_stamp(const void *a, const void *b)
{
    const carried_line *x = a, *y = b;
    return x->stamp < y->stamp ? -1 : x->stamp > y->stamp;
}

int tm_carry_save(const tm_mem *m, const tm_carry *c, const uint64_t *unbound, uint32_t nunbound)
{
    sgemu_cache_state *s = c->state;
    geometry g = geometry_of(m->tc);
    state_bind(s, &g);
    s->n = 0;
    if (!m->tc->l2_keep || !m->l2.sets)
        return 0;
    const tm_cache *l2 = &m->l2;
    size_t used = 0;
    for (uint32_t set = 0; set < l2->sets; set++)
        used += l2->used[set];
    if (used > s->cap) {
        carried_line *p = realloc(s->l2, used * sizeof *p);
        if (!p)
            return -1;
        s->l2 = p;
        s->cap = used;
    }
    uint32_t per_range = TM_ARG_SHIFT - g.line_shift;
    uint64_t in_range = (1ull << per_range) - 1;
    for (uint32_t set = 0; set < l2->sets; set++)
        for (uint32_t w = 0; w < l2->used[set]; w++) {
            const tm_way *way = &l2->way[(size_t)set * l2->ways + w];
            uint64_t ln = way->tag - 1, range = ln >> per_range, line = ln & in_range;
            carried_line cl = { 0, 0, way->sectors, way->stamp };
            if (range >= 1 && range <= c->narg && c->buffer[range - 1] &&
                !(c->offset[range - 1] & (g.line - 1))) {
                cl.buffer = c->buffer[range - 1];
                cl.line = line + (c->offset[range - 1] >> g.line_shift);
            } else if (range >= TM_CARRY_UNBOUND && range - TM_CARRY_UNBOUND < nunbound) {
                cl.buffer = unbound[range - TM_CARRY_UNBOUND];
                cl.line = line;
            } else {
                continue;   /* images, private memory, scratch: not carried */
            }
            s->l2[s->n++] = cl;
        }
    /* one entry per buffer line where two arguments bind one buffer: the
     * latest use, with the sectors of both */
    bool shared = false;
    for (uint32_t i = 0; i < c->narg && !shared; i++)
        for (uint32_t j = i + 1; j < c->narg && !shared; j++)
            shared = c->buffer[i] && c->buffer[i] == c->buffer[j];
    if (shared)
        qsort(s->l2, s->n, sizeof *s->l2, by_line);
    size_t k = 0;
    for (size_t i = 0; shared && i < s->n; i++) {
        if (k && s->l2[k - 1].buffer == s->l2[i].buffer && s->l2[k - 1].line == s->l2[i].line) {
            s->l2[i].sectors |= s->l2[k - 1].sectors;
            s->l2[k - 1] = s->l2[i];
        } else {
            s->l2[k++] = s->l2[i];
        }
    }
    if (shared)
        s->n = k;
    qsort(s->l2, s->n, sizeof *s->l2, by_stamp);
    return 0;
}
