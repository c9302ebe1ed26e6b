/*
 * record.h - what the functional engine tells the timing model.
 *
 * For every subgroup instruction executed the engine appends one emu_rec to
 * its subgroup's stream in the work-group trace: which instruction, which
 * lanes, the addresses it touched and the micro-ops of a collective or block
 * operation.  The timing model reads these and never sees a value.
 */
#ifndef SGEMU_RECORD_H
#define SGEMU_RECORD_H

#include "coll.h"
#include "lanes.h"

#include <stdbool.h>
#include <stdint.h>
#if defined(__SSE2__) && defined(__x86_64__)
#include <emmintrin.h>
#endif

typedef struct emu_rec {
    uint32_t pc;               /* instruction index in the kernel */
    uint16_t naddr;            /* memory ops: one address per active lane (<= 64) */
    uint16_t strided;          /* 1: the addresses are lane i at addr[0] + i x
                                * (addr[1] - addr[0]) (emu_addrs_strided); 0:
                                * not known, the timing model looks */
    uint64_t addr_first;       /* index into emu_wg_trace.addrs */
    uint32_t uop_first;        /* index into emu_wg_trace.uops */
    uint32_t nuops;
    lanes_mask mask;           /* active lanes */
} emu_rec;

typedef struct emu_sg_stream {
    emu_rec *recs;
    /* the records' pcs again, packed (in recs' block, after cap records):
     * the timing model's issue path reads 4 bytes per record instead of a
     * whole record */
    uint32_t *pcs;
    uint32_t n, cap;
    /* the storage is a slice of its trace's block (emu_wg_trace.block),
     * not an allocation of its own */
    bool in_block;
} emu_sg_stream;

/* All records of one work-group. */
typedef struct emu_wg_trace {
    uint64_t wg_linear;        /* work-group index in dispatch order */
    uint32_t nsg;
    uint32_t sg_cap;           /* streams allocated (>= nsg) */
    uint32_t sg_size[64];      /* real lanes per subgroup (first 64 kept) */
    emu_sg_stream *sg;         /* nsg streams */
    /* the streams sized from a hint share one allocation (a work-group's
     * streams cost one malloc and one free, not one per sub-group) */
    void *block;
    uint64_t *addrs;           /* access addresses (space per instruction) */
    uint64_t naddrs, addrs_cap;
    coll_uop *uops;
    uint32_t nuops, uops_cap;
} emu_wg_trace;

/* The most a launch's work-groups have recorded so far, per stream and
 * per work-group.  A trace is sized from it when a work-group starts, so
 * that a slot's streams are allocated once at their final size instead of
 * doubling (a realloc copy of every record) the first time each slot
 * fills; work-groups of one kernel usually record alike. */
typedef struct emu_trace_hint {
    uint32_t recs;             /* records in one stream */
    uint32_t uops;
    uint64_t addrs;
} emu_trace_hint;

int emu_trace_init(emu_wg_trace *t, uint32_t nsg);
/* Empty t for a work-group of nsg subgroups, keeping its storage; with a
 * hint (or NULL), give each stream and array at least the hint's room. */
void emu_trace_reset(emu_wg_trace *t, uint32_t nsg, const emu_trace_hint *h);
/* Raise h to what the work-group in t recorded. */
void emu_trace_note(emu_trace_hint *h, const emu_wg_trace *t);
void emu_trace_free(emu_wg_trace *t);
/* Make room for one more record in stream s (0: done, -1: out of memory). */
int emu_trace_grow(emu_sg_stream *s);

/* Append a record of instruction pc to subgroup sg's stream, its other
 * fields zero; returns it (NULL: out of memory).  Inline: the engine
 * pushes once per subgroup instruction it records. */
static inline emu_rec *emu_trace_push(emu_wg_trace *t, uint32_t sg, uint32_t pc)
{
    emu_sg_stream *s = &t->sg[sg];
    if (__builtin_expect(s->n == s->cap, 0) && emu_trace_grow(s))
        return NULL;
    uint32_t i = s->n++;
    s->pcs[i] = pc;
    emu_rec *r = &s->recs[i];
    *r = (emu_rec){ .pc = pc };
    return r;
}
/* Whether addresses a[0..n) step by one stride, a[1] - a[0] (modulo
 * 2^64; true below three).  The engine asks when it records them (one
 * pass, and for whole-sub-group accesses the same pass its coalesced fast
 * path needs), so that the timing model does not test every lane again. */
static inline bool emu_addrs_strided(const uint64_t *a, uint32_t n)
{
    if (n < 3)
        return true;
    uint64_t d = a[1] - a[0], diff = 0;
    uint32_t i = 0;
#if defined(__SSE2__) && defined(__x86_64__)
    /* the same test as a[i] == a[0] + i x d (modulo 2^64, by induction):
     * one load a lane instead of two, four lanes a step (from lane 0, so
     * that a width of a multiple of four leaves no lanes after) */
    const uint64_t a1 = a[0] + d, d2 = 2 * d, d4u = 4 * d;   /* modulo 2^64 */
    const __m128i d4 = _mm_set1_epi64x((long long)d4u);
    __m128i e0 = _mm_set_epi64x((long long)a1, (long long)a[0]);
    __m128i e1 = _mm_add_epi64(e0, _mm_set1_epi64x((long long)d2));
    __m128i acc = _mm_setzero_si128();
    for (; i + 4 <= n; i += 4) {
        acc = _mm_or_si128(acc, _mm_xor_si128(_mm_loadu_si128((const __m128i *)(a + i)), e0));
        acc = _mm_or_si128(acc,
                           _mm_xor_si128(_mm_loadu_si128((const __m128i *)(a + i + 2)), e1));
        e0 = _mm_add_epi64(e0, d4);
        e1 = _mm_add_epi64(e1, d4);
    }
    acc = _mm_or_si128(acc, _mm_unpackhi_epi64(acc, acc));
    diff = (uint64_t)_mm_cvtsi128_si64(acc);
#endif
    for (i = i < 2 ? 2 : i; i < n; i++)
        diff |= (a[i] - a[i - 1]) ^ d;
    return !diff;
}

/* Reserve n address slots; returns the first index or UINT64_MAX. */
uint64_t emu_trace_addrs(emu_wg_trace *t, uint32_t n);
int emu_trace_uop(emu_wg_trace *t, const coll_uop *u);
/* n records at once (as n calls of emu_trace_uop). */
int emu_trace_uops(emu_wg_trace *t, const coll_uop *u, uint32_t n);

#endif
