/*
 * timing_barrier.c - the barrier unit of a compute unit (docs/timing-model.md,
 * "Barriers").  One unit serves every work-group resident on the CU: each
 * subgroup's arrival is one message to it (Intel: a gateway message;
 * NVIDIA: BAR.SYNC), and it counts one message every
 * `scheduler.barrier_arrival_interval` cycles, in arrival-time order,
 * whichever work-group the message belongs to.
 *
 * Messages wait in the CU's queue, sorted by arrival time (ties in the
 * order sent), until a work-group's last arrival asks for its count; the
 * unit then counts every queued message up to that arrival's time.  A
 * plain barrier sends at its issue time, which never decreases within a
 * CU, so the count follows arrival-time order exactly; a micro-op barrier
 * sends ahead (at the completion of the micro-op before it), and a message
 * sent later with an earlier time than one already counted is counted
 * after it.
 */
#include "timing_private.h"

void tm_barrier_send(tm_cu *c, uint32_t wg, uint64_t t)
{
    /* stable insertion: after every queued message of time <= t */
    uint32_t i = c->nbarq;
    while (i > 0 && c->barq[i - 1].t > t) {
        c->barq[i] = c->barq[i - 1];
        i--;
    }
    c->barq[i] = (tm_barmsg){ .t = t, .wg = wg };
    c->nbarq++;
}

void tm_barrier_count(tm_cu *c, uint64_t upto, uint32_t interval)
{
    uint32_t n = 0;
    while (n < c->nbarq && c->barq[n].t <= upto) {
        const tm_barmsg *msg = &c->barq[n++];
        uint64_t at = msg->t > c->bar_free ? msg->t : c->bar_free;
        c->bar_free = at + interval;
        tm_wgslot *w = &c->wg[msg->wg];
        if (at > w->bar_counted)
            w->bar_counted = at;
    }
    c->nbarq -= n;
    for (uint32_t i = 0; i < c->nbarq; i++)
        c->barq[i] = c->barq[i + n];
}
