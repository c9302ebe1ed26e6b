/* timing_ahead.c - the functional engine running ahead of the timing model
 * on its own host thread (`-j N`, N > 1).
 *
 * The model pulls work-groups in dispatch order, one at a time, and their
 * records never depend on the model.  So one producer thread can call the
 * launch's next_wg for work-groups 0, 1, 2, ... in that same order into a
 * ring of traces, while the model consumes them: the values, faults and
 * records are those of the one-thread run, and the functional work overlaps
 * the model's.  Both sides sleep on condition variables while they wait (no
 * spinning on a busy host).  A consumed trace is swapped with the slot's
 * old one, so nothing is copied. */
#include "timing_private.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct tm_ahead {
    tm_next_wg_fn next_wg;    /* the launch's own */
    void *user;
    uint64_t total;
    uint32_t depth;           /* ring entries */
    emu_wg_trace *ring;       /* work-group w in ring[w % depth] */
    int *rc;                  /* its next_wg result */
    uint64_t produced;        /* work-groups 0..produced-1 are in the ring or taken */
    uint64_t consumed;        /* next work-group the model takes */
    bool stop;                /* the model asks the producer to end */
    bool ended;               /* the producer ended (fault, stop or all done) */
    pthread_mutex_t mu;
    pthread_cond_t more, room;
    pthread_t tid;
};

static void *producer_main(void *arg)
{
    tm_ahead *a = arg;
    for (uint64_t w = 0; w < a->total; w++) {
        pthread_mutex_lock(&a->mu);
        while (w - a->consumed >= a->depth && !a->stop)
            pthread_cond_wait(&a->room, &a->mu);
        bool stop = a->stop;
        pthread_mutex_unlock(&a->mu);
        if (stop)
            break;
        int rc = a->next_wg(a->user, w, &a->ring[w % a->depth]);
        pthread_mutex_lock(&a->mu);
        a->rc[w % a->depth] = rc;
        a->produced = w + 1;
        pthread_cond_signal(&a->more);
        pthread_mutex_unlock(&a->mu);
        if (rc)
            break;      /* the model stops at this work-group too */
    }
    pthread_mutex_lock(&a->mu);
    a->ended = true;
    pthread_cond_signal(&a->more);
    pthread_mutex_unlock(&a->mu);
    return NULL;
}

/* tm_next_wg_fn over the ring: wait for work-group w, swap its trace in. */
static int ahead_next(void *user, uint64_t w, emu_wg_trace *out)
{
    tm_ahead *a = user;
    pthread_mutex_lock(&a->mu);
    while (a->produced <= w && !a->ended)
        pthread_cond_wait(&a->more, &a->mu);
    int rc = SGEMU_EXIT_INTERNAL;       /* out of order, or never produced */
    if (w == a->consumed && a->produced > w) {
        emu_wg_trace tmp = *out;
        *out = a->ring[w % a->depth];
        a->ring[w % a->depth] = tmp;
        rc = a->rc[w % a->depth];
        a->consumed = w + 1;
        pthread_cond_signal(&a->room);
    }
    pthread_mutex_unlock(&a->mu);
    return rc;
}

static void ahead_free(tm_ahead *a, uint32_t inited)
{
    for (uint32_t i = 0; i < inited; i++)
        emu_trace_free(&a->ring[i]);
    free(a->ring);
    free(a->rc);
    free(a);
}

tm_ahead *tm_ahead_start(tm_launch *L, uint32_t depth, uint32_t nsg)
{
    tm_ahead *a = calloc(1, sizeof *a);
    if (!a)
        return NULL;
    a->next_wg = L->next_wg;
    a->user = L->user;
    a->total = L->wg_total;
    a->depth = depth ? depth : 1;
    a->ring = calloc(a->depth, sizeof *a->ring);
    a->rc = calloc(a->depth, sizeof *a->rc);
    uint32_t inited = 0;
    if (a->ring && a->rc)
        for (; inited < a->depth; inited++)
            if (emu_trace_init(&a->ring[inited], nsg))
                break;
    if (inited < a->depth || pthread_mutex_init(&a->mu, NULL)) {
        ahead_free(a, inited);
        return NULL;
    }
    pthread_cond_init(&a->more, NULL);
    pthread_cond_init(&a->room, NULL);
    if (pthread_create(&a->tid, NULL, producer_main, a)) {
        pthread_cond_destroy(&a->more);
        pthread_cond_destroy(&a->room);
        pthread_mutex_destroy(&a->mu);
        ahead_free(a, inited);
        return NULL;
    }
    L->next_wg = ahead_next;
    L->user = a;
    return a;
}

void tm_ahead_end(tm_ahead *a)
{
    if (!a)
        return;
    pthread_mutex_lock(&a->mu);
    a->stop = true;
    pthread_cond_signal(&a->room);
    pthread_mutex_unlock(&a->mu);
    pthread_join(a->tid, NULL);
    pthread_cond_destroy(&a->more);
    pthread_cond_destroy(&a->room);
    pthread_mutex_destroy(&a->mu);
    ahead_free(a, a->depth);
}
