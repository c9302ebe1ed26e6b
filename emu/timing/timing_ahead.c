/* timing_ahead.c - the functional engine running ahead of the timing model
 * on its own host thread (`-j N`, N > 1).
 *
 * The model pulls work-groups in dispatch order, one at a time, and their
 * records never depend on the model.  So one producer thread can call the
 * launch's next_wg for work-groups 0, 1, 2, ... in that same order into a
 * ring of traces, while the model consumes them: the values, faults and
 * records are those of the one-thread run, and the functional work overlaps
 * the model's.  A consumed trace is swapped with the slot's old one, so
 * nothing is copied.
 *
 * The ring is single-producer, single-consumer: each side publishes its
 * count with an atomic store, and a work-group that is there (or a slot
 * that is free) costs no lock.  Only a side that must wait takes the mutex
 * and sleeps on a condition variable (no spinning on a busy host), and it
 * asks to be woken for a batch, not for each work-group: the producer,
 * finding the ring full, sleeps until half of it is free; the model, while
 * it takes the first wave (every slot of every CU is filled at time 0,
 * before its first step), sleeps until half a ring more is ready.  The
 * other side wakes it only when its count reaches what was asked, so a
 * wait costs two system calls per batch instead of per work-group. */
#include "timing_private.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

struct tm_ahead {
    tm_next_wg_fn next_wg;    /* the launch's own */
    void *user;
    uint64_t total;
    uint64_t wave;            /* work-groups taken before the model's first step */
    uint32_t depth;           /* ring entries */
    uint32_t batch;           /* entries a sleeping side waits for */
    emu_wg_trace *ring;       /* work-group w in ring[w % depth] */
    int *rc;                  /* its next_wg result */
    _Atomic uint64_t produced;   /* work-groups 0..produced-1 are in the ring or taken */
    _Atomic uint64_t consumed;   /* next work-group the model takes */
    _Atomic uint64_t cons_want;  /* the model sleeps until produced >= this (0: awake) */
    _Atomic uint64_t prod_want;  /* the producer sleeps until consumed >= this (0: awake) */
    atomic_bool stop;            /* the model asks the producer to end */
    atomic_bool ended;           /* the producer ended (fault, stop or all done) */
    pthread_mutex_t mu;          /* only for sleeping and waking */
    pthread_cond_t more, room;
    pthread_t tid;
};

/* Wake the side sleeping on cv if it asked for a count <= now.  The
 * sleeper stores its *want and then reads the count, both seq_cst, and the
 * waker stores the count and then reads *want: one of them sees the other,
 * so no wake-up is lost. */
static void wake_if(tm_ahead *a, _Atomic uint64_t *want, uint64_t now, pthread_cond_t *cv)
{
    uint64_t w = atomic_load(want);
    if (w && now >= w) {
        pthread_mutex_lock(&a->mu);
        pthread_cond_signal(cv);
        pthread_mutex_unlock(&a->mu);
    }
}

/* Sleep until *count >= need or *flag is set. */
static void sleep_for(tm_ahead *a, _Atomic uint64_t *want, _Atomic uint64_t *count,
                      uint64_t need, atomic_bool *flag, pthread_cond_t *cv)
{
    pthread_mutex_lock(&a->mu);
    atomic_store(want, need);
    while (atomic_load(count) < need && !atomic_load(flag))
        pthread_cond_wait(cv, &a->mu);
    atomic_store(want, 0);
    pthread_mutex_unlock(&a->mu);
}

static void *producer_main(void *arg)
{
    tm_ahead *a = arg;
    for (uint64_t w = 0; w < a->total; w++) {
        if (w - atomic_load_explicit(&a->consumed, memory_order_acquire) >= a->depth)
            sleep_for(a, &a->prod_want, &a->consumed, w - a->depth + a->batch, &a->stop,
                      &a->room);
        if (atomic_load_explicit(&a->stop, memory_order_relaxed))
            break;
        int rc = a->next_wg(a->user, w, &a->ring[w % a->depth]);
        a->rc[w % a->depth] = rc;
        atomic_store(&a->produced, w + 1);
        wake_if(a, &a->cons_want, w + 1, &a->more);
        if (rc)
            break;      /* the model stops at this work-group too */
    }
    atomic_store(&a->ended, true);
    pthread_mutex_lock(&a->mu);
    pthread_cond_signal(&a->more);
    pthread_mutex_unlock(&a->mu);
    return NULL;
}

/* tm_next_wg_fn over the ring: wait for work-group w, swap its trace in. */
static int ahead_next(void *user, uint64_t w, emu_wg_trace *out)
{
    tm_ahead *a = user;
    if (w != atomic_load_explicit(&a->consumed, memory_order_relaxed))
        return SGEMU_EXIT_INTERNAL;     /* out of order */
    if (atomic_load_explicit(&a->produced, memory_order_acquire) <= w) {
        uint64_t need = w + 1;
        if (w + a->batch < a->wave)     /* the first wave: all of it is needed now */
            need = w + a->batch;
        sleep_for(a, &a->cons_want, &a->produced, need, &a->ended, &a->more);
        if (atomic_load_explicit(&a->produced, memory_order_acquire) <= w)
            return SGEMU_EXIT_INTERNAL; /* never produced */
    }
    emu_wg_trace tmp = *out;
    *out = a->ring[w % a->depth];
    a->ring[w % a->depth] = tmp;
    int rc = a->rc[w % a->depth];
    atomic_store(&a->consumed, w + 1);
    wake_if(a, &a->prod_want, w + 1, &a->room);
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

tm_ahead *tm_ahead_start(tm_launch *L, uint32_t depth, uint64_t wave, uint32_t nsg)
{
    tm_ahead *a = calloc(1, sizeof *a);
    if (!a)
        return NULL;
    a->next_wg = L->next_wg;
    a->user = L->user;
    a->total = L->wg_total;
    a->wave = wave;
    a->depth = depth ? depth : 1;
    a->batch = a->depth / 2 ? a->depth / 2 : 1;
    atomic_init(&a->produced, 0);
    atomic_init(&a->consumed, 0);
    atomic_init(&a->cons_want, 0);
    atomic_init(&a->prod_want, 0);
    atomic_init(&a->stop, false);
    atomic_init(&a->ended, false);
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
    atomic_store(&a->stop, true);
    pthread_mutex_lock(&a->mu);
    pthread_cond_signal(&a->room);
    pthread_mutex_unlock(&a->mu);
    pthread_join(a->tid, NULL);
    pthread_cond_destroy(&a->more);
    pthread_cond_destroy(&a->room);
    pthread_mutex_destroy(&a->mu);
    ahead_free(a, a->depth);
}
