/* sweep_run.c - running a run set: points that share (kernel, arguments,
 * width, NDRange, collective options) form a group.  A group of one point is
 * a plain full run.  A larger group executes functionally once, recording a
 * trace, and its other points replay the trace on their own config (the same
 * cycles as a full run).  With several workers the record skips the timing
 * model and the first point replays too: the longest chain of dependent work
 * is then one functional run plus one timing run instead of two timing runs
 * (the timing model is most of a run), which is what bounds a sweep on many
 * cores; with one worker the chain does not matter and the record is timed.
 * One pool of threads: records are taken first, and a group's replays become
 * ready the moment its record finishes (no barrier between the phases).
 * Every row depends only on its point, so results are the same for any -j. */
#include "sweep.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct sw_group {
    char key[2048];
    uint64_t first;           /* todo index that records */
    bool shared;              /* several points: keep a trace for replays */
    bool split;               /* record without timing (no row); all replay */
    char trace[1100];
    int status;               /* recording's exit code */
    char error[256];
    /* the recording's register allocation, which its replays share */
    unsigned long long regs_before, regs_after, spill_bytes;
} sw_group;

/* One IGC build (kernel, ocloc target, width), shared by the points that
 * differ only in timing keys: ocloc takes about a second, a run often less.
 * The first worker to need it compiles; others wait for it. */
typedef struct sw_igc_build {
    uint32_t kernel, width;
    char target[32];
    int state;                /* 0 compiling, 1 done */
    int rc;                   /* sgemu_load_igc's code */
    bool refused;             /* rc != 0 because ocloc refused the kernel or width */
    isa_kernel k;             /* rc == 0 */
    char reason[200];         /* rc != 0: IGC's line that says why */
} sw_igc_build;

typedef struct sw_job {
    uint64_t todo;            /* index into todo/rows */
    uint32_t group;
    bool record;
} sw_job;

typedef struct sw_ctx {
    sw_sweep *s;
    const uint64_t *todo;
    sw_row *rows;
    sw_group *groups;
    /* the schedule, under `lock`: records in order, then ready replays */
    pthread_mutex_t lock;
    pthread_cond_t wake;
    const sw_job *rec;
    uint64_t nrec, next_rec, recs_done;
    const sw_job *rep;        /* replays sorted by group */
    const uint64_t *rep_of;   /* group g's replays: rep[rep_of[g] .. rep_of[g+1]) */
    uint64_t *ready;          /* indices into rep, in the order they became ready */
    uint64_t nready, next_ready;
    pthread_mutex_t out_lock; /* serialises on_row */
    pthread_mutex_t igc_lock; /* igc[] and igc_done */
    pthread_cond_t igc_done;
    sw_igc_build *igc;
    uint64_t nigc;
    sw_row_fn on_row;
    void *user;
} sw_ctx;

/* The point's config, width and NDRange. */
typedef struct sw_setup {
    emu_config cfg;
    uint32_t width;           /* 0: kernel's or config default */
    bool igc;                 /* compiler: igc (the kernel as ocloc builds it) */
    const char *global, *local;
    const char *argv[SW_MAX_ARGS];   /* per kernel argument (NULL: unset) */
} sw_setup;

static int setup_point(const sw_sweep *s, const sw_point *p, sw_setup *u, char *err, size_t n)
{
    const sw_kernel *k = &s->kernels[p->kernel];
    u->cfg = s->base_cfg;
    u->width = 0;
    u->igc = false;
    u->global = k->global;
    u->local = k->local[0] ? k->local : NULL;
    for (uint32_t i = 0; i < k->k.narg; i++) {
        u->argv[i] = NULL;
        for (uint32_t j = 0; j < k->nargs; j++)
            if (!strcmp(k->arg_name[j], k->k.args[i].name))
                u->argv[i] = k->arg_val[j];
    }
    for (uint32_t a = 0; a < s->naxes; a++) {
        const char *v = sw_value(s, p, a);
        const sw_axis *ax = &s->axes[a];
        if (!v)
            continue;
        switch (ax->kind) {
        case SW_AX_WIDTH: u->width = (uint32_t)atoi(v); break;
        case SW_AX_COMPILER: u->igc = !strcmp(v, "igc"); break;
        case SW_AX_GLOBAL: u->global = v; break;
        case SW_AX_LOCAL: u->local = v; break;
        case SW_AX_ARG:
            for (uint32_t i = 0; i < k->k.narg; i++)
                if (!strcmp(k->k.args[i].name, ax->name + 4))
                    u->argv[i] = v;
            break;
        case SW_AX_CONFIG:
            if (emu_config_set(&u->cfg, ax->name, v, err, n))
                return -1;
            break;
        }
    }
    return 0;
}

static void functional_key(const sw_sweep *s, const sw_point *p, const sw_setup *u,
                           char *buf, size_t n)
{
    const sw_kernel *k = &s->kernels[p->kernel];
    uint32_t w = u->width ? u->width : k->k.reqd_sg_size ? k->k.reqd_sg_size
                                                         : u->cfg.default_width;
    uint32_t coll[8];
    sgemu_trace_coll_key(&u->cfg, coll);
    size_t len = (size_t)snprintf(buf, n, "%u|%u|%s|%s|%u", p->kernel, w, u->global,
                                  u->local ? u->local : "auto",
                                  u->local ? 0 : u->cfg.max_wg_size);
    for (int i = 0; i < 8 && len < n; i++)
        len += (size_t)snprintf(buf + len, n - len, "|%u", coll[i]);
    /* the trace holds the kernel allocated for this GRF (docs/regalloc.md) */
    if (k->k.regalloc == ISA_RA_VALUES && len < n)
        len += (size_t)snprintf(buf + len, n - len, "|ra%u|%s",
                                u->cfg.timing.allow_spill ? tm_grf_budget_bytes(&u->cfg, w) : 0,
                                u->cfg.ocloc_target);
    for (uint32_t i = 0; i < k->k.narg && len < n; i++)
        len += (size_t)snprintf(buf + len, n - len, "|%s", u->argv[i] ? u->argv[i] : "-");
}

void sw_row_from_stats(sw_row *r, const sgemu_stats *st)
{
    const sgemu_timing *t = st->timing;
    r->instructions = st->instructions;
    r->uops = st->uops;
    r->lane_ops = st->lane_ops;
    r->regs_before = st->regalloc.regs_before;
    r->regs_after = st->regalloc.regs_after;
    r->spill_bytes = st->regalloc.spill_bytes;
    if (!t)
        return;
    r->large_grf = t->large_grf;
    r->cycles = t->cycles;
    r->time_us = t->time_us;
    r->ipc = t->ipc;
    r->simd_efficiency = t->simd_efficiency;
    r->occupancy = t->achieved_occupancy;
    r->theoretical_occupancy = t->theoretical_occupancy;
    r->wg_per_cu = t->wg_per_cu;
    r->grf_regs = t->grf_regs_needed;
    snprintf(r->limiter, sizeof r->limiter, "%s", tm_limiter_names[t->limiter]);
    r->stall_dependency = t->stall[TM_STALL_DEP];
    r->stall_pipe_busy = t->stall[TM_STALL_PIPE];
    r->stall_memory = t->stall[TM_STALL_MEM];
    r->stall_barrier = t->stall[TM_STALL_BARRIER];
    r->stall_fetch = t->stall[TM_STALL_FETCH];
    r->stall_issue = t->stall[TM_STALL_ISSUE];
    r->bytes_l1 = t->bytes[TM_LEVEL_L1];
    r->bytes_l2 = t->bytes[TM_LEVEL_L2];
    r->bytes_dram = t->bytes[TM_LEVEL_DRAM];
    r->bytes_local = t->bytes[TM_LEVEL_LOCAL];
}

static void fail_row(sw_row *r, int code, const char *msg)
{
    r->status = code ? code : SGEMU_EXIT_INTERNAL;
    size_t n = strlen(msg) < sizeof r->error - 1 ? strlen(msg) : sizeof r->error - 1;
    memcpy(r->error, msg, n);
    r->error[n] = 0;
    for (char *c = r->error; *c; c++)
        if (*c == '\n' || *c == '\r')
            *c = ' ';
}

/* IGC's build of point p's kernel at u's width (compiled once per kernel,
 * target and width); NULL with the row failed when ocloc refuses it. */
static const sw_igc_build *igc_build(sw_ctx *c, const sw_point *p, const sw_setup *u,
                                     sw_row *r)
{
    const sw_kernel *sk = &c->s->kernels[p->kernel];
    const char *target = u->cfg.ocloc_target;
    if (!target[0] || !strcmp(target, "none")) {
        fail_row(r, SGEMU_EXIT_USER, "compiler igc: the config names no Intel target "
                 "(device.ocloc_target)");
        return NULL;
    }
    pthread_mutex_lock(&c->igc_lock);
    sw_igc_build *b = NULL;
    for (uint64_t i = 0; i < c->nigc && !b; i++)
        if (c->igc[i].kernel == p->kernel && c->igc[i].width == u->width &&
            !strcmp(c->igc[i].target, target))
            b = &c->igc[i];
    bool compile = !b;
    if (compile) {                      /* nigc < points: one build per point at most */
        b = &c->igc[c->nigc++];
        b->kernel = p->kernel;
        b->width = u->width;
        snprintf(b->target, sizeof b->target, "%s", target);
    }
    while (!compile && b->state == 0)
        pthread_cond_wait(&c->igc_done, &c->igc_lock);
    pthread_mutex_unlock(&c->igc_lock);
    if (compile) {
        char err[4096];
        int rc = sgemu_load_igc(sk->path, target, NULL, u->width, sk->k.name, &b->k, err,
                                sizeof err);
        b->refused = rc && strstr(err, "ocloc refused") != NULL;
        if (b->refused)
            cli_igc_reason(err, b->reason, sizeof b->reason);
        else if (rc)             /* no ocloc, or code sgemu does not load: as it says */
            snprintf(b->reason, sizeof b->reason, "compiler igc: %.*s",
                     (int)strcspn(err, "\n"), err);
        pthread_mutex_lock(&c->igc_lock);
        b->rc = rc;
        b->state = 1;
        pthread_cond_broadcast(&c->igc_done);
        pthread_mutex_unlock(&c->igc_lock);
    }
    if (b->rc && !b->refused) {
        fail_row(r, b->rc, b->reason);
        return NULL;
    }
    if (b->rc) {
        char m[256];
        if (u->width)
            snprintf(m, sizeof m, "IGC refused SIMD%u: %s", u->width, b->reason);
        else
            snprintf(m, sizeof m, "IGC refused: %s", b->reason);
        fail_row(r, b->rc, m);
        r->igc_refused = 1;
        return NULL;
    }
    return b;
}

/* A functional run of point p (recording when record_path). */
static void run_functional(sw_ctx *c, const sw_point *p, sw_setup *u, const char *record_path,
                           bool timing, sw_row *r)
{
    const sw_kernel *sk = &c->s->kernels[p->kernel];
    const isa_kernel *k = &sk->k;
    const char *argv[SW_MAX_ARGS];
    memcpy(argv, u->argv, sizeof argv);
    if (u->igc) {
        const sw_igc_build *b = igc_build(c, p, u, r);
        if (!b)
            return;
        k = &b->k;
        /* IGC's kernel takes the arguments by name as the SPIR-V one declares them */
        for (uint32_t i = 0; i < k->narg; i++) {
            int si = sgemu_kernel_arg_index(&sk->k, k->args[i].name);
            if (si < 0 || k->narg != sk->k.narg) {
                fail_row(r, SGEMU_EXIT_USER, "IGC's kernel has other arguments than clang's");
                return;
            }
            argv[i] = u->argv[si];
        }
    }
    sgemu_argval vals[ISA_MAX_ARGS];
    memset(vals, 0, sizeof vals);
    int rc = 0;
    char why[256];
    cli_value_errors_to(why, sizeof why);     /* into the row, not stderr */
    for (uint32_t i = 0; i < k->narg && !rc; i++)
        rc = cli_make_value(&k->args[i], argv[i], &vals[i]);
    cli_value_errors_to(NULL, 0);
    if (rc) {
        fail_row(r, SGEMU_EXIT_USER, why[0] ? why : "bad argument value");
    } else {
        sgemu_launch L;
        memset(&L, 0, sizeof L);
        L.dims = (uint32_t)cli_parse_dims(u->global, L.global);
        if (u->local) {
            cli_parse_dims(u->local, L.local);
            L.local_given = true;
        }
        L.sg_width = u->width;
        L.max_instructions = 100000000000ULL;
        L.timing = timing;
        L.threads = 1;
        L.record_path = record_path;
        sgemu_stats st;
        sgemu_fault f;
        rc = sgemu_run(k, &u->cfg, &L, vals, &st, &f);
        if (rc)
            fail_row(r, rc, f.msg);
        else
            sw_row_from_stats(r, &st);
        sgemu_stats_free(&st);
        sgemu_igc_info gi;
        if (!rc && sgemu_igc_info_of(k, &gi)) {
            /* IGC's registers and scratch, not sgemu's allocation */
            r->igc_simd = gi.simd;
            r->igc_instructions = gi.instructions;
            r->igc_sends = gi.sends;
            r->igc_grf = gi.grf_count;
            r->igc_scratch_bytes = gi.scratch_bytes;
            r->regs_before = r->regs_after = gi.grf_count;
            r->large_grf = gi.grf_count > 128;
            r->spill_bytes = gi.simd ? gi.scratch_bytes / gi.simd : 0;
        }
    }
    for (uint32_t i = 0; i < k->narg; i++)
        cli_free_value(&vals[i]);
}

static void do_job(sw_ctx *c, const sw_job *j)
{
    sw_row *r = &c->rows[j->todo];
    const sw_point *p = &c->s->points[c->todo[j->todo]];
    sw_group *g = &c->groups[j->group];
    sw_setup u;
    char err[256];
    if (setup_point(c->s, p, &u, err, sizeof err)) {
        fail_row(r, SGEMU_EXIT_USER, err);
    } else if (j->record && g->split) {
        sw_row tmp;                     /* the trace only: rows come from replays */
        memset(&tmp, 0, sizeof tmp);
        run_functional(c, p, &u, g->trace, false, &tmp);
        g->regs_before = tmp.regs_before;
        g->regs_after = tmp.regs_after;
        g->spill_bytes = tmp.spill_bytes;
        g->status = tmp.status;
        snprintf(g->error, sizeof g->error, "%s", tmp.error);
        return;
    } else if (j->record) {
        run_functional(c, p, &u, g->shared ? g->trace : NULL, true, r);
        g->regs_before = r->regs_before;
        g->regs_after = r->regs_after;
        g->spill_bytes = r->spill_bytes;
        g->status = r->status;
        snprintf(g->error, sizeof g->error, "%s", r->error);
    } else if (g->status) {
        fail_row(r, g->status, g->error);
    } else {
        sgemu_replay_opts o;
        memset(&o, 0, sizeof o);
        o.threads = 1;              /* the pool runs one replay per thread */
        sgemu_stats st;
        sgemu_fault f;
        int rc = sgemu_replay(g->trace, &u.cfg, &o, NULL, &st, &f);
        /* the scratch trace's path is no part of a result (shards differ) */
        size_t tl = strlen(g->trace);
        const char *m = f.msg;
        if (m[0] == '\'' && !strncmp(m + 1, g->trace, tl) && !strncmp(m + 1 + tl, "': ", 3))
            m += tl + 4;
        if (rc) {
            fail_row(r, rc, m);
        } else {
            sw_row_from_stats(r, &st);
            r->regs_before = g->regs_before;   /* allocated when it was recorded */
            r->regs_after = g->regs_after;
            r->spill_bytes = g->spill_bytes;
        }
        sgemu_stats_free(&st);
    }
    /* a run cut short by Ctrl-C is not a result: leave it for --resume */
    if (r->status == SGEMU_EXIT_INTERRUPTED || (r->status && sgemu_stop_requested()))
        return;
    r->done = true;
    pthread_mutex_lock(&c->out_lock);
    if (c->on_row)
        c->on_row(c->user, r);
    pthread_mutex_unlock(&c->out_lock);
}

/* The next job under c->lock: a record, else a ready replay, else wait for
 * a record in flight; NULL when all is taken (or Ctrl-C). */
static const sw_job *take(sw_ctx *c)
{
    for (;;) {
        if (sgemu_stop_requested())
            return NULL;
        if (c->next_rec < c->nrec)
            return &c->rec[c->next_rec++];
        if (c->next_ready < c->nready)
            return &c->rep[c->ready[c->next_ready++]];
        if (c->recs_done == c->nrec)
            return NULL;
        /* bounded wait: a Ctrl-C is noticed even if no record finishes */
        struct timespec t;
        clock_gettime(CLOCK_REALTIME, &t);
        t.tv_nsec += 100000000;
        if (t.tv_nsec >= 1000000000) {
            t.tv_sec++;
            t.tv_nsec -= 1000000000;
        }
        pthread_cond_timedwait(&c->wake, &c->lock, &t);
    }
}

static void *worker(void *arg)
{
    sw_ctx *c = arg;
    pthread_mutex_lock(&c->lock);
    const sw_job *j;
    while ((j = take(c))) {
        pthread_mutex_unlock(&c->lock);
        do_job(c, j);
        pthread_mutex_lock(&c->lock);
        if (j->record) {
            for (uint64_t i = c->rep_of[j->group]; i < c->rep_of[j->group + 1]; i++)
                c->ready[c->nready++] = i;
            c->recs_done++;
            pthread_cond_broadcast(&c->wake);
        }
    }
    pthread_cond_broadcast(&c->wake);   /* others may be waiting for the end */
    pthread_mutex_unlock(&c->lock);
    return NULL;
}

static void run_pool(sw_ctx *c, uint64_t njobs, uint32_t nthreads)
{
    if (nthreads > njobs)
        nthreads = (uint32_t)njobs;
    if (nthreads <= 1) {
        worker(c);
        return;
    }
    pthread_t *t = calloc(nthreads, sizeof *t);
    uint32_t started = 0;
    for (uint32_t i = 0; t && i < nthreads; i++)
        if (!pthread_create(&t[i], NULL, worker, c))
            started++;
    if (!started)
        worker(c);
    for (uint32_t i = 0; i < started; i++)
        pthread_join(t[i], NULL);
    free(t);
}

static uint64_t key_hash(const char *k)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (; *k; k++)
        h = (h ^ (uint8_t)*k) * 0x100000001b3ull;
    return h;
}

int sw_execute(sw_sweep *s, const uint64_t *todo, uint64_t ntodo, uint32_t jobs,
               const char *tmpdir, sw_row *rows, sw_row_fn on_row, void *user)
{
    sw_ctx c;
    memset(&c, 0, sizeof c);
    c.s = s;
    c.todo = todo;
    c.rows = rows;
    c.on_row = on_row;
    c.user = user;
    uint64_t hcap = 16;                 /* open addressing, load <= 1/2 */
    while (hcap < 2 * (ntodo + 1))
        hcap *= 2;
    sw_group *groups = calloc(ntodo + 1, sizeof *groups);
    uint32_t *gof = calloc(ntodo + 1, sizeof *gof), *slot = malloc(hcap * sizeof *slot);
    sw_job *rec = calloc(ntodo + 1, sizeof *rec), *rep = calloc(ntodo + 1, sizeof *rep);
    uint64_t *rep_of = calloc(ntodo + 2, sizeof *rep_of), *ready = calloc(ntodo + 1, sizeof *ready);
    sw_igc_build *igc = calloc(ntodo + 1, sizeof *igc);
    int rc = 0;
    if (!groups || !gof || !slot || !rec || !rep || !rep_of || !ready || !igc) {
        rc = SGEMU_EXIT_INTERNAL;
        goto out;
    }
    memset(slot, 0xff, hcap * sizeof *slot);
    c.groups = groups;
    uint32_t ng = 0;
    uint64_t nrec = 0;
    for (uint64_t i = 0; i < ntodo; i++) {
        sw_row *r = &rows[i];
        memset(r, 0, sizeof *r);
        r->run = todo[i];
        sw_point_key(s, &s->points[todo[i]], r->key, sizeof r->key);
        sw_setup u;
        char err[256], key[2048];
        if (setup_point(s, &s->points[todo[i]], &u, err, sizeof err)) {
            snprintf(key, sizeof key, "bad#%llu", (unsigned long long)i);
        } else if (u.igc) {   /* a trace holds sgemu's ISA only: a full run each */
            snprintf(key, sizeof key, "igc#%llu", (unsigned long long)i);
        } else {
            functional_key(s, &s->points[todo[i]], &u, key, sizeof key);
        }
        uint64_t h = key_hash(key) & (hcap - 1);
        while (slot[h] != UINT32_MAX && strcmp(groups[slot[h]].key, key))
            h = (h + 1) & (hcap - 1);
        uint32_t g = slot[h];
        if (g == UINT32_MAX) {
            g = slot[h] = ng++;
            snprintf(groups[g].key, sizeof groups[g].key, "%s", key);
            groups[g].first = i;
            snprintf(groups[g].trace, sizeof groups[g].trace, "%s/trace-%u.sgt", tmpdir, g);
            rec[nrec++] = (sw_job){ i, g, true };
        } else {
            groups[g].shared = true;
            rep_of[g + 1]++;
        }
        gof[i] = g;
    }
    for (uint32_t g = 0; g < ng; g++) { /* split: the first point replays too */
        groups[g].split = groups[g].shared && jobs > 1;
        rep_of[g + 1] += groups[g].split;
    }
    /* replays sorted by group (counting sort), in run order within one */
    for (uint32_t g = 0; g < ng; g++)
        rep_of[g + 1] += rep_of[g];
    uint64_t *fill = ready;             /* scratch until the pool starts */
    memcpy(fill, rep_of, (size_t)ng * sizeof *fill);
    for (uint64_t i = 0; i < ntodo; i++)
        if (groups[gof[i]].split || (groups[gof[i]].shared && groups[gof[i]].first != i))
            rep[fill[gof[i]]++] = (sw_job){ i, gof[i], false };
    c.rec = rec;
    c.nrec = nrec;
    c.rep = rep;
    c.rep_of = rep_of;
    c.ready = ready;
    c.igc = igc;
    pthread_mutex_init(&c.lock, NULL);
    pthread_mutex_init(&c.igc_lock, NULL);
    pthread_cond_init(&c.igc_done, NULL);
    pthread_mutex_init(&c.out_lock, NULL);
    pthread_cond_init(&c.wake, NULL);
    run_pool(&c, ntodo, jobs);
    pthread_cond_destroy(&c.igc_done);
    pthread_mutex_destroy(&c.igc_lock);
    for (uint64_t i = 0; i < c.nigc; i++)
        if (!igc[i].rc)
            isa_kernel_free(&igc[i].k);
    pthread_cond_destroy(&c.wake);
    pthread_mutex_destroy(&c.out_lock);
    pthread_mutex_destroy(&c.lock);
    for (uint32_t g = 0; g < ng; g++)
        if (groups[g].shared)
            remove(groups[g].trace);
    rc = sgemu_stop_requested() ? SGEMU_EXIT_INTERRUPTED : 0;
out:
    free(groups);
    free(gof);
    free(slot);
    free(rec);
    free(rep);
    free(rep_of);
    free(ready);
    free(igc);
    return rc;
}
