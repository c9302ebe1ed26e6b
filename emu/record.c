/* record.c - growable per-work-group record streams for the timing model. */
#include "record.h"

#include <stdlib.h>
#include <string.h>

int emu_trace_init(emu_wg_trace *t, uint32_t nsg)
{
    memset(t, 0, sizeof *t);
    t->sg = calloc(nsg ? nsg : 1, sizeof *t->sg);
    if (!t->sg)
        return -1;
    t->nsg = nsg;
    t->sg_cap = nsg ? nsg : 1;
    return 0;
}

/* The bytes of cap records and their pcs (one stream's storage). */
static size_t stream_bytes(uint32_t cap)
{
    return (size_t)cap * (sizeof(emu_rec) + sizeof(uint32_t));
}

static void stream_place(emu_sg_stream *s, void *at, uint32_t cap, bool in_block)
{
    if (!at) {
        *s = (emu_sg_stream){ .n = s->n };
        return;
    }
    s->recs = at;
    s->pcs = (uint32_t *)(s->recs + cap);
    s->cap = cap;
    s->in_block = in_block;
}

/* Room for recs records in every stream of t below nsg, when one of them
 * has less: one new block shared by the streams without room.  The old
 * block goes, and with it the room of the streams in it (empty after a
 * reset); on failure those streams are left without room and the push
 * grows them one by one. */
static void streams_reserve(emu_wg_trace *t, uint32_t nsg, uint32_t recs)
{
    bool short_of = false;
    for (uint32_t i = 0; i < nsg && !short_of; i++)
        short_of = t->sg[i].cap < recs;
    if (!short_of)
        return;
    uint32_t need = 0;
    for (uint32_t i = 0; i < t->sg_cap; i++) {
        emu_sg_stream *s = &t->sg[i];
        if (s->in_block || (i < nsg && s->cap < recs)) {
            if (!s->in_block)
                free(s->recs);
            stream_place(s, NULL, 0, false);
        }
        if (i < nsg && !s->recs)
            need++;
    }
    free(t->block);
    t->block = NULL;
    if (!need)
        return;
    /* slices of whole 16-byte units: each one's records aligned */
    size_t slice = (stream_bytes(recs) + 15) & ~(size_t)15;
    char *b = malloc(slice * need);
    t->block = b;
    for (uint32_t i = 0; b && i < nsg; i++)
        if (!t->sg[i].recs) {
            stream_place(&t->sg[i], b, recs, true);
            b += slice;
        }
}

void emu_trace_reset(emu_wg_trace *t, uint32_t nsg, const emu_trace_hint *h)
{
    if (nsg > t->sg_cap) {
        emu_sg_stream *s = realloc(t->sg, nsg * sizeof *s);
        if (s) {
            memset(s + t->sg_cap, 0, (nsg - t->sg_cap) * sizeof *s);
            t->sg = s;
            t->sg_cap = nsg;
        }
    }
    t->nsg = nsg <= t->sg_cap ? nsg : t->sg_cap;
    for (uint32_t i = 0; i < t->sg_cap; i++)
        t->sg[i].n = 0;
    t->naddrs = 0;
    t->nuops = 0;
    if (!h)
        return;
    if (h->recs)
        streams_reserve(t, t->nsg, h->recs);
    if (t->addrs_cap < h->addrs) {
        free(t->addrs);
        t->addrs = malloc(h->addrs * sizeof *t->addrs);
        t->addrs_cap = t->addrs ? h->addrs : 0;
    }
    if (t->uops_cap < h->uops) {
        free(t->uops);
        t->uops = malloc(h->uops * sizeof *t->uops);
        t->uops_cap = t->uops ? h->uops : 0;
    }
}

void emu_trace_note(emu_trace_hint *h, const emu_wg_trace *t)
{
    for (uint32_t i = 0; i < t->nsg; i++)
        if (t->sg[i].n > h->recs)
            h->recs = t->sg[i].n;
    if (t->naddrs > h->addrs)
        h->addrs = t->naddrs;
    if (t->nuops > h->uops)
        h->uops = t->nuops;
}

void emu_trace_free(emu_wg_trace *t)
{
    if (!t->sg)
        return;
    for (uint32_t i = 0; i < t->sg_cap; i++)
        if (!t->sg[i].in_block)
            free(t->sg[i].recs);     /* and the pcs after them */
    free(t->block);
    free(t->sg);
    free(t->addrs);
    free(t->uops);
    memset(t, 0, sizeof *t);
}

int emu_trace_grow(emu_sg_stream *s)
{
    uint32_t cap = s->cap ? s->cap * 2 : 256;
    if (s->in_block) {
        /* out of its slice of the block: storage of its own from now on */
        emu_rec *r = malloc(stream_bytes(cap));
        if (!r)
            return -1;
        memcpy(r, s->recs, s->n * sizeof *r);
        memcpy((uint32_t *)(r + cap), s->pcs, s->n * sizeof *s->pcs);
        stream_place(s, r, cap, false);
        return 0;
    }
    /* one block, the records then their pcs: a stream costs one
     * allocation, as it did before the pcs were kept */
    emu_rec *r = realloc(s->recs, stream_bytes(cap));
    if (!r)
        return -1;
    uint32_t *p = (uint32_t *)(r + cap);
    /* the pcs were after the old cap records: past the new end of those */
    if (s->n)
        memcpy(p, (uint32_t *)(r + s->cap), s->n * sizeof *p);
    s->recs = r;
    s->pcs = p;
    s->cap = cap;
    return 0;
}

uint64_t emu_trace_addrs(emu_wg_trace *t, uint32_t n)
{
    if (t->naddrs + n > t->addrs_cap) {
        uint64_t cap = t->addrs_cap ? t->addrs_cap * 2 : 4096;
        while (cap < t->naddrs + n)
            cap *= 2;
        uint64_t *a = realloc(t->addrs, cap * sizeof *a);
        if (!a)
            return UINT64_MAX;
        t->addrs = a;
        t->addrs_cap = cap;
    }
    uint64_t first = t->naddrs;
    t->naddrs += n;
    return first;
}

/* Room for n more micro-ops in t: 256, then doubling. */
static int uops_grow(emu_wg_trace *t, uint32_t n)
{
    uint32_t cap = t->uops_cap ? t->uops_cap : 256;
    while (cap - t->nuops < n)
        cap *= 2;
    coll_uop *p = realloc(t->uops, cap * sizeof *p);
    if (!p)
        return -1;
    t->uops = p;
    t->uops_cap = cap;
    return 0;
}

int emu_trace_uops(emu_wg_trace *t, const coll_uop *u, uint32_t n)
{
    if (t->uops_cap - t->nuops < n && uops_grow(t, n))
        return -1;
    memcpy(t->uops + t->nuops, u, n * sizeof *u);
    t->nuops += n;
    return 0;
}

int emu_trace_uop(emu_wg_trace *t, const coll_uop *u)
{
    if (t->nuops == t->uops_cap && uops_grow(t, 1))
        return -1;
    t->uops[t->nuops++] = *u;
    return 0;
}
