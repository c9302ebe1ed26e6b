/* timing_mem.c - the memory hierarchy: per-subgroup coalescing into lines,
 * per-CU L1 and link to the L2, a shared L2, DRAM, local memory banks.
 * Every level is a bandwidth port (a "free at" time) plus a latency;
 * caches are set associative with LRU.  Latencies are end-to-end from
 * issue (a load that hits L2 takes memory.l2.latency, not L1 + L2). */
#include "timing_private.h"

#include <stdlib.h>
#include <string.h>

const char *const tm_level_names[TM_LEVEL_COUNT] = {
#define X(E, n) n,
    TM_LEVELS(X)
#undef X
};

static uint32_t ilog2(uint32_t v)
{
    uint32_t s = 0;
    while ((1u << (s + 1)) <= v)
        s++;
    return s;
}

static int cache_init(tm_cache *c, const tm_cache_cfg *cc, uint32_t line)
{
    memset(c, 0, sizeof *c);
    c->line_shift = ilog2(line);
    if (!cc->size)
        return 0;
    c->ways = cc->assoc ? cc->assoc : 1;
    c->sets = cc->size / (line * c->ways);
    if (c->sets == 0)
        c->sets = 1;
    c->pow2 = (c->sets & (c->sets - 1)) == 0;
    c->set_mask = c->sets - 1;
    /* not cleared: a set's ways [used, ways) are never read (see
     * cache_lookup), and clearing the L1s of every CU was a tenth of a
     * short timing run */
    c->way = malloc((size_t)c->sets * c->ways * sizeof *c->way);
    c->used = calloc(c->sets, sizeof *c->used);
    return c->way && c->used ? 0 : -1;
}

static void cache_free(tm_cache *c)
{
    free(c->way);
    free(c->used);
}

/* Look up sectors `want` of line number ln; returns those that were not
 * there (0: a hit), now filled, and the line's way in *wp (its `ready`,
 * the fill's data time, is the caller's to set once the fill's time is
 * known; a way filled anew has ready 0).  A line not present is filled
 * over the least recently used way, with the wanted sectors only.  Without sectors
 * `want` is 1, the whole line.  A set's ways are adjacent {tag, stamp,
 * sectors, ready}; the set index is a mask when the set count is a power of two
 * (no division per lookup).  Ways fill in index order and never empty, so
 * ways [0, used) hold lines and the rest are empty: a lookup searches the
 * used ones, and a miss in a set not yet full takes the next empty way
 * (the way the least-stamp rule picks: empty ways have stamp 0, the first
 * wins) without a scan. */
static inline __attribute__((always_inline)) uint64_t
cache_lookup(tm_cache *c, uint64_t ln, uint64_t want, uint64_t now, tm_way **wp)
{
    uint64_t set = c->pow2 ? (ln & c->set_mask) : ln % c->sets;
    tm_way *way = c->way + (size_t)set * c->ways;
    uint32_t used = c->used[set];
    uint64_t tag = ln + 1;
    for (uint32_t w = 0; w < used; w++)
        if (way[w].tag == tag) {
            uint64_t missing = want & ~way[w].sectors;
            way[w].sectors |= want;
            way[w].stamp = now;
            *wp = &way[w];
            return missing;
        }
    uint32_t victim = used;
    if (used < c->ways) {
        c->used[set] = (uint16_t)(used + 1);
    } else {
        /* the least recently used way (stamps differ: one clock tick each) */
        victim = 0;
        uint64_t oldest = way[0].stamp;
        for (uint32_t w = 1; w < c->ways; w++)
            if (way[w].stamp < oldest) {
                oldest = way[w].stamp;
                victim = w;
            }
    }
    way[victim].tag = tag;
    way[victim].stamp = now;
    way[victim].sectors = want;
    way[victim].ready = 0;
    *wp = &way[victim];
    return want;
}

/* A lookup ticks the cache's clock (the cache has sets: its size is not
 * 0, which the callers check). */
static inline __attribute__((always_inline)) uint64_t cache_access(tm_cache *c, uint64_t ln,
                                                                   uint64_t want, tm_way **wp)
{
    return cache_lookup(c, ln, want, ++c->clock, wp);
}

void tm_mem_carry_fill(tm_mem *m, uint64_t ln, uint64_t sectors, tm_way **wp)
{
    cache_access(&m->l2, ln, sectors, wp);
}

/* Port times are fixed point, PORT_FRAC bits below the cycle, so that a
 * port moving more than a line a cycle (a device-wide L2 or DRAM) carries
 * its bytes_per_cycle and not one line a cycle; a request starts in the
 * cycle its port frees up.  The occupancy of a line rounds up to the next
 * 1/65536 cycle, so a ratio that is a whole number stays exact. */
#define PORT_FRAC 16

/* Entries of the L2's per-line atomic state (a power of two). */
#define TM_ATOM_LINES 4096u

static uint64_t occ(uint32_t bytes, uint32_t bw)
{
    return bw ? (bytes + bw - 1) / bw : 0;
}

static uint64_t occ_fx(uint32_t bytes, uint32_t bw)
{
    return bw ? (((uint64_t)bytes << PORT_FRAC) + bw - 1) / bw : 0;
}

/* A request arriving at cycle t at a port free at *free: its start cycle. */
static inline uint64_t port_take(uint64_t *free, uint64_t t, uint64_t occ_fx)
{
    uint64_t s = max64(t << PORT_FRAC, *free);
    *free = s + occ_fx;
    return s >> PORT_FRAC;
}

uint32_t tm_line_bytes(const emu_timing_cfg *tc)
{
    return tc->line_bytes ? tc->line_bytes : 64;
}

/* sectors: at most 64 a line (one bit each in a way's mask) */
uint32_t tm_sector_bytes(const emu_timing_cfg *tc)
{
    uint32_t line = tm_line_bytes(tc);
    uint32_t sector = tc->sector_bytes && tc->sector_bytes < line ? tc->sector_bytes : line;
    return line / sector > 64 ? line / 64 : sector;
}

int tm_mem_init(tm_mem *m, const emu_timing_cfg *tc, uint32_t ncu, sgemu_timing *st)
{
    memset(m, 0, sizeof *m);
    m->tc = tc;
    m->ncu = ncu;
    m->st = st;
    m->l1_occ = occ_fx(tc->line_bytes, tc->l1.bw);
    uint32_t line = tm_line_bytes(tc), sector = tm_sector_bytes(tc);
    m->sector_shift = ilog2(sector);
    m->l2_sector_occ = occ_fx(sector, tc->l2.bw);
    m->dram_sector_occ = occ_fx(sector, tc->dram_bw);
    if (tc->l2_cu_bw) {
        m->link_sector_occ = occ_fx(sector, tc->l2_cu_bw);
        m->link_free = calloc(ncu, sizeof *m->link_free);
        if (!m->link_free)
            return -1;
    }
    m->l1 = calloc(ncu, sizeof *m->l1);
    m->l1_free = calloc(ncu, sizeof *m->l1_free);
    m->slm_free = calloc(ncu, sizeof *m->slm_free);
    m->slm = calloc(ncu, sizeof *m->slm);
    m->atom_free = calloc(ncu, sizeof *m->atom_free);
    if (!m->l1 || !m->l1_free || !m->slm_free || !m->slm || !m->atom_free)
        return -1;
    if (tc->atomic_l2_contended) {
        m->atom_line = calloc(TM_ATOM_LINES, sizeof *m->atom_line);
        if (!m->atom_line)
            return -1;
        m->atom_switch_fx = (uint64_t)tc->atomic_l2_contended << PORT_FRAC;
        m->atom_word_fx = (uint64_t)(tc->atomic_l2_word * (double)(1u << PORT_FRAC) + 0.5);
    }
    for (uint32_t i = 0; i < ncu; i++)
        if (cache_init(&m->l1[i], &tc->l1, line))
            return -1;
    return cache_init(&m->l2, &tc->l2, line);
}

uint64_t tm_mem_local_bytes(const tm_mem *m)
{
    uint64_t b = 0;
    for (uint32_t i = 0; m->slm && i < m->ncu; i++)
        b += m->slm[i].bytes;
    return b;
}

void tm_mem_fold(tm_mem *m)
{
    for (uint32_t i = 0; m->slm && i < m->ncu; i++) {
        m->st->bytes[TM_LEVEL_LOCAL] += m->slm[i].bytes;
        m->st->requests[TM_LEVEL_LOCAL] += m->slm[i].requests;
        m->st->bank_conflict_cycles += m->slm[i].conflict_cycles;
    }
}

void tm_mem_free(tm_mem *m)
{
    if (m->l1)
        for (uint32_t i = 0; i < m->ncu; i++)
            cache_free(&m->l1[i]);
    free(m->l1);
    free(m->l1_free);
    free(m->slm_free);
    free(m->slm);
    free(m->atom_free);
    free(m->link_free);
    free(m->atom_line);
    cache_free(&m->l2);
    memset(m, 0, sizeof *m);
}

/* The most lanes of an access on one address (1 for n = 0): an atomic
 * unit updates one address once per lane, in turn. */
static uint32_t most_on_one_address(const uint64_t *addr, uint32_t n)
{
    uint32_t most = 1;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t c = 0;
        for (uint32_t j = 0; j < n; j++)
            c += addr[j] == addr[i];
        if (c > most)
            most = c;
    }
    return most;
}

/* Of the lanes on line ln: the most on one address (*k) and the distinct
 * addresses (*words). */
static void line_lanes(const uint64_t *addr, uint32_t n, uint64_t ln, uint32_t shift,
                       uint32_t *k, uint32_t *words)
{
    *k = 1;
    *words = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (addr[i] >> shift != ln)
            continue;
        uint32_t c = 0, first = 1;
        for (uint32_t j = 0; j < n; j++) {
            c += addr[j] == addr[i];
            first &= !(j < i && addr[j] == addr[i]);
        }
        *k = c > *k ? c : *k;
        *words += first;
    }
    if (!*words)
        *words = 1;
}

/* The packets a global atomic leaves its CU in: per line, one for each
 * lane on that line's busiest address (a packet carries at most one lane
 * of an address).  Lanes on distinct words of one line share packets. */
static uint32_t atomic_packets(const uint64_t *addr, uint32_t n, uint32_t shift)
{
    uint32_t packets = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t ln = addr[i] >> shift;
        bool first = true;            /* counted at the line's first lane */
        for (uint32_t j = 0; j < i && first; j++)
            first = addr[j] >> shift != ln;
        if (first) {
            uint32_t k, words;
            line_lanes(addr, n, ln, shift, &k, &words);
            packets += k;
        }
    }
    return packets;
}

/* A mask of one sector (every mask without sectors) is counted without
 * the popcount, a library call on a baseline x86-64 build. */
static inline uint32_t count_sectors(uint64_t mask)
{
    if (!(mask & (mask - 1)))
        return mask != 0;
    return (uint32_t)__builtin_popcountll(mask);
}

/* The L2's atomic unit on line ln, for an atomic of CU cu arriving at t
 * with k lanes on the line's busiest word and `words` words of the line:
 * the cycles from t until that word's last lane is done.  One CU's lanes
 * follow each other memory.atomic.interval apart, and so do its atomics
 * (its path already spaces them).  An atomic that finds the line still
 * busy with another CU's lanes queues behind them, and then each of its
 * lanes takes l2_contended_interval, or l2_word_cycles a word of its
 * packet if that is more (docs/timing-model.md: the packets of many CUs
 * interleave there, and cost more than one CU's own). */
static uint64_t atom_line_wait(tm_mem *m, uint32_t cu, uint64_t t, uint64_t ln, uint32_t k,
                               uint32_t words)
{
    struct tm_atom_line *e = &m->atom_line[ln & (TM_ATOM_LINES - 1)];
    if (e->tag != ln + 1)
        *e = (struct tm_atom_line){ .tag = ln + 1, .free = 0, .cu = cu };
    const uint64_t t_fx = t << PORT_FRAC;
    const bool contended = e->cu != cu && e->free > t_fx;
    uint64_t op = (uint64_t)m->tc->atomic_ii << PORT_FRAC, start = t_fx;
    if (contended) {
        op = max64(m->atom_switch_fx, words * m->atom_word_fx);
        start = e->free;
    }
    e->free = max64(e->free, start + k * op);
    e->cu = cu;
    const uint64_t last = start + (uint64_t)(k - 1) * op;
    return ((last + (1u << PORT_FRAC) - 1) >> PORT_FRAC) - t;
}

/* One line request for sectors `want` of line ln arriving at the CU's L1
 * at t; returns data time.  The L1 port is held per line (one tag); the
 * CU's link to the L2 (loads only), the L2 and DRAM ports per sector
 * moved: the L1's missing sectors go to the L2, the L2's missing ones to
 * DRAM.  Without sectors `want` is 1 and a
 * sector is the line.  Inlined into each access's loop over its lines. */
static inline __attribute__((always_inline)) uint64_t
line_request(tm_mem *m, uint32_t cu, uint64_t t, uint64_t ln, uint64_t want, bool store,
             bool atomic, uint32_t same_addr, uint32_t words)
{
    const emu_timing_cfg *tc = m->tc;
    sgemu_timing *st = m->st;
    uint32_t sb = 1u << m->sector_shift;
    uint64_t s = t;
    tm_way *w1 = NULL, *w2 = NULL;
    if (tc->l1.size && !atomic) {
        s = port_take(&m->l1_free[cu], t, m->l1_occ);
        st->bytes[TM_LEVEL_L1] += (uint64_t)count_sectors(want) * sb;
        st->requests[TM_LEVEL_L1]++;
        if (!store) {
            uint64_t missing = cache_access(&m->l1[cu], ln, want, &w1);
            if (!missing) {
                /* a hit, or a merge into the line's fill in flight */
                st->hits[TM_LEVEL_L1]++;
                return max64(s + tc->l1.latency, w1 ? w1->ready : 0);
            }
            st->misses[TM_LEVEL_L1]++;
            want = missing;
        }
    }
    uint32_t n2 = count_sectors(want);
    /* a load's sectors come back over its CU's link to the L2 */
    if (m->link_free && !store && !atomic)
        s = port_take(&m->link_free[cu], s, n2 * m->link_sector_occ);
    uint64_t s2 = port_take(&m->l2_free, s, n2 * m->l2_sector_occ);
    st->bytes[TM_LEVEL_L2] += (uint64_t)n2 * sb;
    st->requests[TM_LEVEL_L2]++;
    uint64_t done;
    uint64_t missing = tc->l2.size ? cache_access(&m->l2, ln, want, &w2) : want;
    if (!missing) {
        /* w2 is NULL only with no L2 and a request of no sectors (none made) */
        st->hits[TM_LEVEL_L2]++;
        done = max64(s2 + tc->l2.latency, w2 ? w2->ready : 0);
    } else {
        st->misses[TM_LEVEL_L2]++;
        uint32_t n3 = count_sectors(missing);
        uint64_t s3 = port_take(&m->dram_free, s2, n3 * m->dram_sector_occ);
        st->bytes[TM_LEVEL_DRAM] += (uint64_t)n3 * sb;
        st->requests[TM_LEVEL_DRAM]++;
        done = s3 + tc->dram_latency;
        if (w2) {
            /* a store's bytes are there at its own time (an L2 hit's);
             * a load waits also for sectors of the line still in flight */
            if (store)
                w2->ready = max64(w2->ready, s2 + tc->l2.latency);
            else
                w2->ready = done = max64(done, w2->ready);
        }
    }
    if (store)
        return s + (tc->l1.size ? tc->l1.latency : tc->l2.latency);
    if (w1)
        w1->ready = done = max64(done, w1->ready);
    if (atomic) {
        /* the atomic unit sits at the L2: its latency replaces the hit latency */
        if (tc->atomic_latency > tc->l2.latency)
            done += tc->atomic_latency - tc->l2.latency;
        done += m->atom_line ? atom_line_wait(m, cu, s2, ln, same_addr, words)
                             : (uint64_t)(same_addr - 1) * tc->atomic_ii;
    }
    return done;
}

/* The line requests of one access without sectors or atomics (each line
 * whole, `want` 1), as line_request makes them, with what they read and
 * write kept in locals for the access: the caches' geometry and clocks
 * and the ports' free times are read once and written back once
 * (plain_end), and the statistics follow from the access's line and miss
 * counts, without a count per line.  Below PLAIN_MIN_LINES lines the
 * copies in and out cost more than they save (vector_add's one- and
 * two-line accesses): those go line by line. */
#define PLAIN_MIN_LINES 4

typedef struct plain {
    tm_cache l1, l2;               /* copies: clocks written back */
    tm_cache *l1_home, *l2_home;   /* l1_home NULL: no L1; l2 of size 0: all miss */
    uint64_t l1_free, l2_free, dram_free, link_free;
    uint64_t l1_occ, l2_occ, dram_occ, link_occ;   /* link_occ 0: no CU link */
    uint64_t l1_lat, l2_lat, dram_lat, store_lat;
    uint64_t lines, l1_misses, l2_misses;
} plain;

static inline __attribute__((always_inline)) void plain_begin(plain *p, tm_mem *m, uint32_t cu)
{
    const emu_timing_cfg *tc = m->tc;
    p->l1_home = tc->l1.size ? &m->l1[cu] : NULL;
    p->l2_home = &m->l2;
    p->l1 = m->l1[cu];
    p->l2 = m->l2;
    p->l1_free = m->l1_free[cu];
    p->link_free = m->link_free ? m->link_free[cu] : 0;
    p->link_occ = m->link_free ? m->link_sector_occ : 0;
    p->l2_free = m->l2_free;
    p->dram_free = m->dram_free;
    p->l1_occ = m->l1_occ;
    p->l2_occ = m->l2_sector_occ;
    p->dram_occ = m->dram_sector_occ;
    p->l1_lat = tc->l1.latency;
    p->l2_lat = tc->l2.latency;
    p->dram_lat = tc->dram_latency;
    p->store_lat = tc->l1.size ? tc->l1.latency : tc->l2.latency;
    p->lines = p->l1_misses = p->l2_misses = 0;
}

static inline __attribute__((always_inline)) uint64_t plain_line(plain *p, uint64_t t,
                                                                 uint64_t ln, bool store)
{
    uint64_t s = t;
    tm_way *w1 = NULL, *w2;
    p->lines++;
    if (p->l1_home) {
        s = port_take(&p->l1_free, t, p->l1_occ);
        if (!store) {
            if (!cache_lookup(&p->l1, ln, 1, ++p->l1.clock, &w1))
                return max64(s + p->l1_lat, w1->ready);
            p->l1_misses++;
        }
    }
    if (p->link_occ && !store)
        s = port_take(&p->link_free, s, p->link_occ);
    uint64_t s2 = port_take(&p->l2_free, s, p->l2_occ), done;
    if (p->l2.sets && !cache_lookup(&p->l2, ln, 1, ++p->l2.clock, &w2)) {
        done = max64(s2 + p->l2_lat, w2->ready);
    } else {
        p->l2_misses++;
        done = port_take(&p->dram_free, s2, p->dram_occ) + p->dram_lat;
        /* a way filled anew (whole lines): its data time is this fill's,
         * a store's its own (an L2 hit's) */
        if (p->l2.sets)
            w2->ready = store ? s2 + p->l2_lat : done;
    }
    if (store)
        return s + p->store_lat;
    if (w1)
        w1->ready = done;
    return done;
}

static inline __attribute__((always_inline)) void plain_end(const plain *p, tm_mem *m,
                                                            uint32_t cu, bool store)
{
    sgemu_timing *st = m->st;
    uint32_t lb = m->sector_shift;   /* the line's bytes, log2: no sectors */
    uint64_t n2 = p->lines;          /* requests reaching the L2 */
    if (p->l1_home) {
        p->l1_home->clock = p->l1.clock;
        m->l1_free[cu] = p->l1_free;
        st->requests[TM_LEVEL_L1] += p->lines;
        st->bytes[TM_LEVEL_L1] += p->lines << lb;
        if (!store) {
            st->hits[TM_LEVEL_L1] += p->lines - p->l1_misses;
            st->misses[TM_LEVEL_L1] += p->l1_misses;
            n2 = p->l1_misses;
        }
    }
    p->l2_home->clock = p->l2.clock;
    if (m->link_free)
        m->link_free[cu] = p->link_free;
    m->l2_free = p->l2_free;
    m->dram_free = p->dram_free;
    st->requests[TM_LEVEL_L2] += n2;
    st->bytes[TM_LEVEL_L2] += n2 << lb;
    st->hits[TM_LEVEL_L2] += n2 - p->l2_misses;
    st->misses[TM_LEVEL_L2] += p->l2_misses;
    st->requests[TM_LEVEL_DRAM] += p->l2_misses;
    st->bytes[TM_LEVEL_DRAM] += p->l2_misses << lb;
}

/* A whole plain access of n lines: list[j], or without a list ln + j x dl
 * (a range, dl = 1, or lines a stride apart).  Made for loads and for
 * stores apart (plain_load, plain_store), so that neither tests which it
 * is per line nor computes a data time a store does not return. */
static inline __attribute__((always_inline)) uint64_t
plain_access(tm_mem *m, uint32_t cu, uint64_t t, const uint64_t *list, uint64_t ln,
             uint64_t dl, uint32_t n, bool store)
{
    plain p;
    uint64_t done = t;
    plain_begin(&p, m, cu);
    for (uint32_t j = 0; j < n; j++, ln += dl)
        done = max64(done, plain_line(&p, t, list ? list[j] : ln, store));
    plain_end(&p, m, cu, store);
    return done;
}

static __attribute__((noinline)) uint64_t
plain_load(tm_mem *m, uint32_t cu, uint64_t t, const uint64_t *list, uint32_t n)
{
    return plain_access(m, cu, t, list, 0, 0, n, false);
}

static __attribute__((noinline)) uint64_t
plain_store(tm_mem *m, uint32_t cu, uint64_t t, const uint64_t *list, uint32_t n)
{
    return plain_access(m, cu, t, list, 0, 0, n, true);
}

static __attribute__((noinline)) uint64_t
plain_load_step(tm_mem *m, uint32_t cu, uint64_t t, uint64_t ln, uint64_t dl, uint32_t n)
{
    return plain_access(m, cu, t, NULL, ln, dl, n, false);
}

static __attribute__((noinline)) uint64_t
plain_store_step(tm_mem *m, uint32_t cu, uint64_t t, uint64_t ln, uint64_t dl, uint32_t n)
{
    return plain_access(m, cu, t, NULL, ln, dl, n, true);
}

static inline uint64_t plain_lines(tm_mem *m, uint32_t cu, uint64_t t, const uint64_t *list,
                                   uint64_t ln, uint64_t dl, uint32_t n, bool store)
{
    if (list)
        return store ? plain_store(m, cu, t, list, n) : plain_load(m, cu, t, list, n);
    return store ? plain_store_step(m, cu, t, ln, dl, n) : plain_load_step(m, cu, t, ln, dl, n);
}

/* The sectors of line ln that bytes [lo, hi] touch. */
static inline uint64_t sector_mask(uint64_t lo, uint64_t hi, uint64_t ln, uint32_t line_shift,
                                   uint32_t sector_shift)
{
    uint64_t base = ln << line_shift, end = base + (1ull << line_shift) - 1;
    uint32_t a = (uint32_t)((max64(lo, base) - base) >> sector_shift);
    uint32_t b = (uint32_t)(((hi < end ? hi : end) - base) >> sector_shift);
    uint64_t upto = b >= 63 ? ~0ull : (2ull << b) - 1;
    return upto & ~((1ull << a) - 1);
}

static uint64_t range_access(tm_mem *m, uint32_t cu, uint64_t t, uint64_t lo, uint64_t hi,
                             bool store);
static uint64_t strided_access(tm_mem *m, uint32_t cu, uint64_t t, uint64_t a0, uint64_t d,
                               uint32_t n, uint64_t span, bool store);

/* Adds v to the distinct values set[0..*n) unless it is there already;
 * *top is the largest so far, and a value above it is new without a
 * search (addresses mostly ascend).  Whether v was added. */
static inline bool distinct_add(uint64_t *set, uint32_t *n, uint64_t *top, uint64_t v)
{
    if (*n && v <= *top)
        for (uint32_t j = 0; j < *n; j++)
            // cppcheck-suppress uninitvar ; set[0..*n) are the values added before
            if (set[j] == v)
                return false;
    set[(*n)++] = v;
    if (v > *top)
        *top = v;
    return true;
}

/* tm_mem_global without the engine's form: the lines found from the
 * lanes' addresses (not inlined: its frame of line lists stays out of
 * the strided path). */
static __attribute__((noinline)) uint64_t
global_lanes(tm_mem *m, uint32_t cu, uint64_t t, const uint64_t *addr, uint32_t n,
             uint32_t bytes, bool store, bool atomic)
{
    uint32_t shift = m->l2.line_shift;
    uint64_t span = (bytes ? bytes : 1) - 1;
    /* The distinct lines in order of first touch (at most 2 x 64).  Lanes
     * mostly touch the line the previous lane touched or one past every
     * line so far (ascending addresses), so those two cases skip the
     * search; the list and its order are those of a search per line. */
    uint64_t lines[2 * 64];
    uint32_t nl = 0;
    /* Common cases first, where the lines are the range from lane 0's
     * first line to the last lane's last, in order, with no list to
     * search: lane i at addr[0] + i x bytes (a ramp: one pass without a
     * branch per lane), or each lane starting in the line where the
     * previous lane ended or in the next one.  An address range that wraps
     * takes the general path. */
    bool range = false;
    uint64_t end = 0;
    if (n) {
        uint64_t a0 = addr[0], diff = 0, step = bytes;
        for (uint32_t i = 1; i < n; i++)    /* vectorises: no multiply */
            diff |= (addr[i] - addr[i - 1]) ^ step;
        uint64_t hi = a0 + (uint64_t)(n - 1) * step + span;
        if (!diff && hi >= a0) {
            range = true;
            end = hi >> shift;
        } else {
            uint32_t i = 0;
            end = a0 >> shift;
            for (; i < n; i++) {
                uint64_t a = addr[i], e = a + span;
                if ((a >> shift) - end > 1 || e < a)
                    break;
                end = e >> shift;
            }
            range = i == n;
        }
    }
    if (range)
        for (uint64_t ln = addr[0] >> shift; ln <= end && nl < 2 * 64; ln++)
            lines[nl++] = ln;
    uint64_t prev = UINT64_MAX, top = 0;
    for (uint32_t i = 0; !range && i < n && nl < 2 * 64; i++) {
        uint64_t first = addr[i] >> shift, last = (addr[i] + span) >> shift;
        for (uint64_t ln = first; ln <= last && nl < 2 * 64; ln++) {
            if (ln == prev)
                continue;
            prev = ln;
            distinct_add(lines, &nl, &top, ln);
        }
    }
    /* same-address atomics serialise at the atomic unit (per line, below,
     * where the L2 keeps line state) */
    uint32_t same = atomic && !m->atom_line ? most_on_one_address(addr, n) : 1;
    /* A global atomic leaves its CU through one atomic path, which sends a
     * packet every atomic.cu_interval cycles; its lines leave when the
     * path is free. */
    if (atomic && m->tc->atomic_cu_ii && n <= 64) {
        t = max64(t, m->atom_free[cu]);
        m->atom_free[cu] = t + (uint64_t)m->tc->atomic_cu_ii * atomic_packets(addr, n, shift);
    }
    /* per line of an atomic: the lanes on its busiest word and its words
     * (the L2's per-line state), else the access's busiest address */
    uint32_t lk[2 * 64], lw[2 * 64];
    for (uint32_t j = 0; atomic && j < nl; j++) {
        lk[j] = same;
        lw[j] = 1;
        if (m->atom_line)
            line_lanes(addr, n, lines[j], shift, &lk[j], &lw[j]);
    }
    uint64_t done = t;
    if (m->sector_shift == shift && !atomic && nl >= PLAIN_MIN_LINES) {
        done = plain_lines(m, cu, t, lines, 0, 0, nl, store);
    } else if (m->sector_shift == shift) {   /* all of each line */
        for (uint32_t j = 0; j < nl; j++)
            done = max64(done, line_request(m, cu, t, lines[j], 1, store, atomic,
                                            atomic ? lk[j] : 1, atomic ? lw[j] : 1));
    } else {
        /* the sectors each line is asked for */
        uint64_t want[2 * 64];
        for (uint32_t j = 0; j < nl; j++)
            want[j] = 0;
        for (uint32_t i = 0; i < n; i++) {
            uint64_t lo = addr[i], hi = lo + span;
            for (uint64_t ln = lo >> shift; ln <= hi >> shift; ln++) {
                uint32_t j = range && nl ? (uint32_t)(ln - lines[0]) : 0;
                while (!range && j < nl && lines[j] != ln)
                    j++;
                if (j < nl)
                    want[j] |= sector_mask(lo, hi, ln, shift, m->sector_shift);
            }
        }
        for (uint32_t j = 0; j < nl; j++)
            done = max64(done, line_request(m, cu, t, lines[j], want[j], store, atomic,
                                            atomic ? lk[j] : 1, atomic ? lw[j] : 1));
    }
    return done;
}

/* A record whose addresses step by one stride d (the engine says so:
 * emu_rec.strided), ascending without wrapping, has its lines without a
 * look at every lane: lanes whose bytes meet or overlap (d <= bytes: a
 * unit-stride ramp, or one address) touch the range from the first byte
 * to the last; lanes apart touch each its own lines, a line shared with
 * the previous lane's last once.  Either way the lines and their order
 * are those global_lanes finds (first touch is ascending here), and so are
 * the sectors of a range (the lanes' sectors together are the range's);
 * atomics, strides apart with sectors, and a range that wraps take
 * global_lanes. */
uint64_t tm_mem_global(tm_mem *m, uint32_t cu, uint64_t t, const uint64_t *addr,
                       uint32_t n, uint32_t bytes, bool store, bool atomic, bool strided)
{
    uint64_t span = (bytes ? bytes : 1) - 1, last, hi;
    if (strided && n && !atomic) {
        uint64_t a0 = addr[0], d = n > 1 ? addr[1] - a0 : 0;
        if (!__builtin_mul_overflow((uint64_t)(n - 1), d, &last) &&
            !__builtin_add_overflow(a0, last, &last) && !__builtin_add_overflow(last, span, &hi)) {
            if (d <= span + 1)
                return range_access(m, cu, t, a0, hi, store);
            if (m->sector_shift == m->l2.line_shift)
                return strided_access(m, cu, t, a0, d, n, span, store);
        }
    }
    return global_lanes(m, cu, t, addr, n, bytes, store, atomic);
}

uint64_t tm_mem_local(tm_mem *m, uint32_t cu, uint64_t t, const uint64_t *addr,
                      uint32_t n, uint32_t bytes, bool store, bool atomic)
{
    const emu_timing_cfg *tc = m->tc;
    uint32_t nb = tc->slm_banks ? tc->slm_banks : 1;
    uint32_t bb = tc->slm_bank_bytes ? tc->slm_bank_bytes : 4;
    /* distinct words per bank: the same word is a broadcast, not a
     * conflict.  A word above every word so far is new without a search
     * (ascending addresses), the list keeps the order of first touch. */
    uint64_t words[256];
    uint32_t nw = 0, degree = 1;
    uint32_t per = (bytes + bb - 1) / bb;
    if (!per)
        per = 1;
    /* up to 64 banks: each new word counted on its bank as it is found */
    uint32_t cnt[64] = { 0 };
    uint64_t top = 0;
    if (per == 1 && n <= 256 && !(bb & (bb - 1)) && !(nb & (nb - 1)) && nb <= 64) {
        /* a word a lane, banks and words a power of two (all bundled
         * configs): a shift and a mask instead of a division per lane */
        const uint32_t bsh = (uint32_t)__builtin_ctz(bb);
        const uint64_t bm = nb - 1;
        for (uint32_t i = 0; i < n; i++) {
            uint64_t w = addr[i] >> bsh;
            if (!distinct_add(words, &nw, &top, w))
                continue;
            uint32_t c = ++cnt[w & bm];
            if (c > degree)
                degree = c;
        }
    } else {
        for (uint32_t i = 0; i < n; i++) {
            for (uint32_t k = 0; k < per && nw < 256; k++) {
                distinct_add(words, &nw, &top, addr[i] / bb + k);
            }
        }
        if (nb <= 64) {
            uint32_t bm = (nb & (nb - 1)) == 0 ? nb - 1 : 0;
            for (uint32_t j = 0; j < nw; j++) {
                uint32_t c = ++cnt[bm || nb == 1 ? words[j] & bm : words[j] % nb];
                if (c > degree)
                    degree = c;
            }
        }
    }
    if (nb > 64) {
        for (uint32_t b = 0; b < nb; b++) {
            uint32_t c = 0;
            for (uint32_t j = 0; j < nw; j++)
                c += words[j] % nb == b;
            if (c > degree)
                degree = c;
        }
    }
    /* An atomic is a read-modify-write per lane at its word's bank: a bank
     * takes one a cycle, so the port is busy for the most lanes on one bank
     * (on the H100: 8 lanes on each of 4 words, 8 cycles a warp), and the
     * lanes on one word return atomic.interval apart (32 on one word, 62
     * cycles after the first). */
    uint64_t serial = 0, lanes_on_bank = degree;
    if (atomic) {
        serial = (uint64_t)(most_on_one_address(addr, n) - 1) * tc->atomic_ii;
        uint32_t per_bank[256] = { 0 };
        for (uint32_t i = 0; i < n; i++) {
            uint32_t c = ++per_bank[(addr[i] / bb) % nb % 256];
            if (c > lanes_on_bank)
                lanes_on_bank = c;
        }
    }
    uint64_t total = (uint64_t)n * bytes;
    uint64_t busy = max64(lanes_on_bank, occ((uint32_t)total, tc->slm_bw));
    uint64_t s = max64(t, m->slm_free[cu]);
    m->slm_free[cu] = s + busy;
    tm_slm_stats *ls = &m->slm[cu];
    ls->bytes += total;
    ls->requests++;
    ls->conflict_cycles += degree - 1;
    (void)store;
    return s + (atomic ? tc->slm_atomic_latency : tc->slm_latency) + (degree - 1) + serial;
}

/* The lines of a range [addr, hi] that does not wrap, in order, at most
 * 2 x 64 (tm_mem_global's lines for one address): without sectors, into
 * an access begun with plain_begin. */
static inline __attribute__((always_inline)) uint64_t
range_plain(plain *p, uint32_t shift, uint64_t t, uint64_t addr, uint64_t hi, bool store)
{
    uint64_t done = t, last = hi >> shift;
    uint32_t nl = 0;
    for (uint64_t ln = addr >> shift; ln <= last && nl < 2 * 64; ln++, nl++)
        done = max64(done, plain_line(p, t, ln, store));
    return done;
}

/* Line by line, each line asked for the sectors the range covers (1, the
 * whole line, without sectors: a loop of its own, where the mask's count
 * and merges fold away). */
static inline __attribute__((always_inline)) uint64_t
range_lines(tm_mem *m, uint32_t cu, uint64_t t, uint64_t addr, uint64_t hi, bool store)
{
    uint32_t shift = m->l2.line_shift;
    uint64_t done = t, last = hi >> shift;
    uint32_t nl = 0;
    if (m->sector_shift == shift) {
        for (uint64_t ln = addr >> shift; ln <= last && nl < 2 * 64; ln++, nl++)
            done = max64(done, line_request(m, cu, t, ln, 1, store, false, 1, 1));
        return done;
    }
    for (uint64_t ln = addr >> shift; ln <= last && nl < 2 * 64; ln++, nl++) {
        uint64_t want = sector_mask(addr, hi, ln, shift, m->sector_shift);
        done = max64(done, line_request(m, cu, t, ln, want, store, false, 1, 1));
    }
    return done;
}

/* The lines of [lo, hi] (not wrapping) as one access: whole lines into a
 * plain access from PLAIN_MIN_LINES lines on, else line by line. */
static uint64_t range_access(tm_mem *m, uint32_t cu, uint64_t t, uint64_t lo, uint64_t hi,
                             bool store)
{
    uint32_t shift = m->l2.line_shift;
    if (m->sector_shift != shift || (hi >> shift) - (lo >> shift) + 1 < PLAIN_MIN_LINES)
        return range_lines(m, cu, t, lo, hi, store);
    /* at most 2 x 64 lines, as range_plain */
    uint64_t first = lo >> shift, nl = (hi >> shift) - first + 1;
    return plain_lines(m, cu, t, NULL, first, 1, nl < 2 * 64 ? (uint32_t)nl : 2 * 64, store);
}

/* n lanes of span + 1 bytes at a0 + i x d, d > span + 1 and no wrapping,
 * without sectors: each lane's lines after those listed, at most 2 x 64
 * lines, then as global_lanes requests them. */
static __attribute__((noinline)) uint64_t
strided_access(tm_mem *m, uint32_t cu, uint64_t t, uint64_t a0, uint64_t d, uint32_t n,
               uint64_t span, bool store)
{
    uint32_t shift = m->l2.line_shift;
    uint64_t lines[2 * 64], next = 0, a = a0, done = t, lmask = (1ull << shift) - 1;
    uint32_t nl = 0;
    if (!(d & lmask) && (a0 & lmask) + span <= lmask) {
        /* whole lines apart, each lane inside one: line i is the first's
         * plus i x d's lines, none shared (at most 2 x 64 as above) */
        uint64_t ln = a0 >> shift, dl = d >> shift;
        for (; nl < n && nl < 2 * 64; ln += dl)
            lines[nl++] = ln;
    } else {
        for (uint32_t i = 0; i < n && nl < 2 * 64; i++, a += d) {
            uint64_t ln = a >> shift, last = (a + span) >> shift;
            for (ln = ln < next ? next : ln; ln <= last && nl < 2 * 64; ln++)
                lines[nl++] = ln;
            next = last + 1;
        }
    }
    if (nl >= PLAIN_MIN_LINES) {
        done = plain_lines(m, cu, t, lines, 0, 0, nl, store);
    } else {
        for (uint32_t j = 0; j < nl; j++)
            done = max64(done, line_request(m, cu, t, lines[j], 1, store, false, 1, 1));
    }
    return done;
}

uint64_t tm_mem_block(tm_mem *m, uint32_t cu, uint64_t t, isa_space space,
                      uint64_t addr, uint32_t bytes, bool store)
{
    if (space == ISA_SPACE_LOCAL) {
        /* consecutive words: one per bank until the banks wrap */
        uint32_t bb = m->tc->slm_bank_bytes ? m->tc->slm_bank_bytes : 4;
        uint64_t a[256];
        uint32_t n = 0;
        for (uint64_t o = 0; o < bytes && n < 256; o += bb)
            a[n++] = addr + o;
        return tm_mem_local(m, cu, t, a, n, bb, store, false);
    }
    return tm_mem_rows(m, cu, t, addr, 0, 1, bytes, store);
}

/* Each row is one range, with the lines tm_mem_global finds for one
 * address: a row whose range wraps touches none. */
uint64_t tm_mem_rows(tm_mem *m, uint32_t cu, uint64_t t, uint64_t addr, uint32_t pitch,
                     uint32_t rows, uint32_t bytes, bool store)
{
    uint32_t shift = m->l2.line_shift;
    uint64_t span = (bytes ? bytes : 1) - 1, done = t;
    if (m->sector_shift != shift || rows < PLAIN_MIN_LINES) {
        for (uint32_t r = 0; r < rows; r++) {
            uint64_t a = addr + (uint64_t)r * pitch;
            if (a + span >= a)
                done = max64(done, range_lines(m, cu, t, a, a + span, store));
        }
        return done;
    }
    uint64_t lmask = (1ull << shift) - 1, top;
    if (!(pitch & lmask) && (addr & lmask) + span <= lmask &&
        !__builtin_add_overflow(addr, (uint64_t)(rows - 1) * pitch + span, &top)) {
        /* each row inside one line, rows whole lines apart (an image
         * block's rows, mostly): a line a row, without the row's range */
        return plain_lines(m, cu, t, NULL, addr >> shift, pitch >> shift, rows, store);
    }
    plain p;
    plain_begin(&p, m, cu);
    for (uint32_t r = 0; r < rows; r++) {
        uint64_t a = addr + (uint64_t)r * pitch;
        if (a + span >= a)
            done = max64(done, range_plain(&p, shift, t, a, a + span, store));
    }
    plain_end(&p, m, cu, store);
    return done;
}
