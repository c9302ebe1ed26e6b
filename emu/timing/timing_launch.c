/* timing_launch.c - the glue between sgemu_run and the timing model: the
 * model pulls each work-group's records from the functional engine when it
 * dispatches it (in work-group order, so values are exactly those of the
 * plain run). */
#include "emu_private.h"
#include "timing_model.h"

#include <stdlib.h>
#include <string.h>

static int pull_wg(void *user, uint64_t wg_linear, emu_wg_trace *out)
{
    emu_run *run = user;
    int rc = emu_run_workgroup(run, wg_linear, out);
    if (!rc)
        run->stats->subgroups += run->wg->nsg;
    return rc;
}

const tm_carry *emu_timing_carry(const emu_run *run, tm_carry *c)
{
    const sgemu_launch *l = run->launch;
    if (!l->caches)
        return NULL;
    memset(c, 0, sizeof *c);
    c->state = l->caches;
    c->narg = run->k->narg;
    for (uint32_t i = 0; i < c->narg; i++) {
        if (run->args[i].kind != SGEMU_VAL_BUFFER)
            continue;
        c->buffer[i] = l->cache_buffer ? l->cache_buffer[i] : i + 1;
        c->offset[i] = l->cache_offset ? l->cache_offset[i] : 0;
        c->bytes[i] = run->args[i].bytes;
    }
    return c;
}

int emu_timing_run(emu_run *run)
{
    sgemu_timing *t = calloc(1, sizeof *t);
    if (!t) {
        snprintf(run->fault->msg, sizeof run->fault->msg, "out of host memory");
        return run->fault->code = SGEMU_EXIT_INTERNAL;
    }
    run->stats->timing = t;
    tm_launch L = {
        .k = run->k, .cfg = run->cfg, .width = run->width,
        .wg_items = (uint32_t)(run->local[0] * run->local[1] * run->local[2]),
        .local_bytes = run->local_total, .wg_total = run->wg_total,
        .next_wg = pull_wg, .user = run,
        .trace_path = run->launch->trace_path, .trace_limit = run->launch->trace_limit,
        .threads = run->launch->threads,     /* 0: one (see tm_launch.threads) */
    };
    tm_carry carry;
    L.carry = emu_timing_carry(run, &carry);
    char msg[512] = "";
    int rc = tm_run(&L, t, msg, sizeof msg);
    if (rc && !run->fault->code) {
        snprintf(run->fault->msg, sizeof run->fault->msg, "%s", msg);
        run->fault->code = rc;
    }
    return rc ? run->fault->code : 0;
}

void sgemu_stats_free(sgemu_stats *stats)
{
    free(stats->printf_text);
    stats->printf_text = NULL;
    stats->printf_len = 0;
    if (stats->timing) {
        tm_timing_free(stats->timing);
        free(stats->timing);
        stats->timing = NULL;
    }
}
