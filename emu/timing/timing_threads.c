/* timing_threads.c - the issue loop on several host threads, with the
 * cycles and statistics of the one-thread loop. */
#include "timing_private.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>

/* ---- several host threads ----
 * CU ci belongs to thread ci mod T.  A step that touches only its CU (no
 * global memory, micro-ops, barrier, last record: nshared == 0) commutes
 * with every other CU's steps, so owners run those freely.  A step that may
 * touch shared state (L2/DRAM, work-group dispatch and the functional
 * engine behind it, the shared statistics) runs only when its (time, CU)
 * is below every other thread's published (next_time, CU): exactly the
 * order the one-thread loop gives them, so cycles and statistics are the
 * same for any thread count.  The global minimum's owner can always go on,
 * so no thread waits forever. */
#define TM_PUB_STRIDE 8            /* one cache line per CU's published time */

static bool key_less(uint64_t ta, uint32_t a, uint64_t tb, uint32_t b)
{
    return ta < tb || (ta == tb && a < b);
}

typedef struct tm_worker {
    tm_model *m;
    uint32_t id;
    pthread_t tid;
    bool started;
} tm_worker;

/* May CU x (owned by thread w) take its shared step at t? */
static bool shared_turn(tm_model *m, uint32_t w, uint32_t x, uint64_t t)
{
    for (uint32_t y = 0; y < m->ncu; y++) {
        if (y % m->nthreads == w)
            continue;
        uint64_t ty = atomic_load_explicit(&m->pub[y * TM_PUB_STRIDE], memory_order_acquire);
        if (!key_less(t, x, ty, y))
            return false;
    }
    return true;
}

/* Step CU ci at its next time, then on through steps that stay inside it. */
static void run_cu(tm_model *m, uint32_t ci)
{
    tm_cu *c = &m->cu[ci];
    _Atomic uint64_t *pub = &m->pub[ci * TM_PUB_STRIDE];
    tm_step(m, ci, c->next_time);
    atomic_store_explicit(pub, c->next_time, memory_order_release);
}

static void *worker_main(void *arg)
{
    tm_worker *w = arg;
    tm_model *m = w->m;
    uint32_t idle = 0;
    while (!m->err) {
        uint32_t best = UINT32_MAX, local = UINT32_MAX;
        uint64_t bt = TM_NEVER, lt = TM_NEVER;
        for (uint32_t ci = w->id; ci < m->ncu; ci += m->nthreads) {
            uint64_t t = m->cu[ci].next_time;
            if (t == TM_NEVER)
                continue;
            if (key_less(t, ci, bt, best)) {
                bt = t;
                best = ci;
            }
            if (m->cu[ci].nshared == 0 && key_less(t, ci, lt, local)) {
                lt = t;
                local = ci;
            }
        }
        if (best == UINT32_MAX)
            break;                  /* no CU of this thread gets work again */
        if (m->cu[best].nshared == 0 || shared_turn(m, w->id, best, bt)) {
            run_cu(m, best);
            idle = 0;
        } else if (local != UINT32_MAX) {
            run_cu(m, local);       /* while the shared step waits its turn */
            idle = 0;
        } else if (++idle > 4096) {
            sched_yield();          /* the other threads' CUs are behind */
        }
    }
    return NULL;
}

/* The issue loop on nthreads host threads (the caller is thread 0). */
int tm_run_threads(tm_model *m)
{
    m->pub = calloc((size_t)m->ncu * TM_PUB_STRIDE, sizeof *m->pub);
    tm_worker *ws = calloc(m->nthreads, sizeof *ws);
    if (!m->pub || !ws) {
        free(ws);
        return -1;
    }
    for (uint32_t ci = 0; ci < m->ncu; ci++)
        atomic_init(&m->pub[ci * TM_PUB_STRIDE], m->cu[ci].next_time);
    int rc = 0;
    for (uint32_t i = 0; i < m->nthreads; i++) {
        ws[i].m = m;
        ws[i].id = i;
    }
    for (uint32_t i = 1; i < m->nthreads; i++) {
        if (pthread_create(&ws[i].tid, NULL, worker_main, &ws[i]) != 0) {
            /* fewer threads than asked: no CU may be left without its owner */
            m->err = SGEMU_EXIT_INTERNAL;
            m->oom = true;
            rc = -1;
            break;
        }
        ws[i].started = true;
    }
    if (!rc)
        worker_main(&ws[0]);
    for (uint32_t i = 1; i < m->nthreads; i++)
        if (ws[i].started)
            pthread_join(ws[i].tid, NULL);
    free(ws);
    return 0;
}
