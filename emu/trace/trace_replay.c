/* trace_replay.c - recording and replaying: sgemu_run's loop that writes
 * each work-group's records to a trace as the timing model pulls them
 * (emu_record_run), and sgemu_replay, which feeds the timing model from a
 * trace instead of the functional engine.  The only trace file that uses
 * the engine's own state (emu_private.h). */
#include "trace_file.h"
#include "emu_private.h"
#include "timing_model.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct rec_ctx {
    emu_run *run;
    emu_trace_writer *w;
} rec_ctx;

static int pull_and_write(void *user, uint64_t wg_linear, emu_wg_trace *out)
{
    rec_ctx *c = user;
    int rc = emu_run_workgroup(c->run, wg_linear, out);
    if (rc)
        return rc;
    c->run->stats->subgroups += c->run->wg->nsg;
    if (emu_tracew_wg(c->w, out)) {
        snprintf(c->run->fault->msg, sizeof c->run->fault->msg, "cannot write trace '%s'",
                 c->run->launch->record_path);
        return c->run->fault->code = SGEMU_EXIT_USER;
    }
    return 0;
}

int emu_record_run(emu_run *run)
{
    sgemu_trace_info info;
    memset(&info, 0, sizeof info);
    snprintf(info.sgemu_version, sizeof info.sgemu_version, "%s", SGEMU_VERSION_STRING);
    snprintf(info.kernel, sizeof info.kernel, "%s", run->k->name);
    info.sg_width = run->width;
    info.dims = run->dims;
    for (int d = 0; d < 3; d++) {
        info.global[d] = run->global[d];
        info.local[d] = run->local[d];
        info.offset[d] = run->offset[d];
    }
    info.work_groups = run->wg_total;
    info.wg_items = (uint32_t)(run->local[0] * run->local[1] * run->local[2]);
    info.local_bytes = run->local_total;
    sgemu_trace_coll_key(run->cfg, info.coll);
    info.max_wg_size = run->cfg->max_wg_size;
    char msg[512] = "";
    rec_ctx c = { run, NULL };
    int rc = emu_tracew_open(&c.w, run->launch->record_path, run->k, &info, msg, sizeof msg);
    if (rc) {
        snprintf(run->fault->msg, sizeof run->fault->msg, "%s", msg);
        return run->fault->code = rc;
    }
    if (run->launch->timing) {
        sgemu_timing *t = calloc(1, sizeof *t);
        if (!t) {
            emu_tracew_close(c.w, NULL, false, NULL, 0);
            snprintf(run->fault->msg, sizeof run->fault->msg, "out of host memory");
            return run->fault->code = SGEMU_EXIT_INTERNAL;
        }
        run->stats->timing = t;
        tm_launch L = {
            .k = run->k, .cfg = run->cfg, .width = run->width,
            .wg_items = info.wg_items, .local_bytes = run->local_total,
            .wg_total = run->wg_total, .next_wg = pull_and_write, .user = &c,
            .trace_path = run->launch->trace_path, .trace_limit = run->launch->trace_limit,
            .threads = run->launch->threads,
        };
        rc = tm_run(&L, t, msg, sizeof msg);
        if (rc && !run->fault->code) {
            snprintf(run->fault->msg, sizeof run->fault->msg, "%s", msg);
            run->fault->code = rc;
        }
    } else {
        emu_wg_trace tr;
        if (emu_trace_init(&tr, 1))
            rc = SGEMU_EXIT_INTERNAL;
        for (uint64_t wg = 0; !rc && wg < run->wg_total; wg++)
            rc = pull_and_write(&c, wg, &tr);
        emu_trace_free(&tr);
    }
    if (rc) {
        emu_tracew_close(c.w, NULL, false, NULL, 0);
        return run->fault->code ? run->fault->code : rc;
    }
    rc = emu_tracew_close(c.w, run->stats, true, msg, sizeof msg);
    if (rc) {
        snprintf(run->fault->msg, sizeof run->fault->msg, "%s", msg);
        run->fault->code = rc;
    }
    return rc;
}

typedef struct replay_ctx {
    emu_trace_reader *r;
    char msg[300];
    int rc;
} replay_ctx;

static int pull_from_file(void *user, uint64_t wg_linear, emu_wg_trace *out)
{
    replay_ctx *c = user;
    if (sgemu_stop_requested()) {       /* Ctrl-C: stop between work-groups */
        snprintf(c->msg, sizeof c->msg, "interrupted");
        return c->rc = SGEMU_EXIT_INTERRUPTED;
    }
    c->rc = emu_tracer_wg(c->r, wg_linear, out, c->msg, sizeof c->msg);
    return c->rc;
}

static int fault_set(sgemu_fault *f, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fault_set(sgemu_fault *f, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->msg, sizeof f->msg, fmt, ap);
    va_end(ap);
    return f->code = code;
}

int sgemu_trace_read_info(const char *path, bool verify, sgemu_trace_info *info,
                          sgemu_fault *fault)
{
    memset(fault, 0, sizeof *fault);
    emu_trace_reader *r;
    char msg[700] = "";
    int rc = emu_tracer_open(&r, path, info, NULL, verify, msg, sizeof msg);
    if (rc)
        return fault_set(fault, rc, "%s", msg);
    if (verify) {
        emu_wg_trace t;
        memset(&t, 0, sizeof t);
        for (uint64_t wg = 0; !rc && wg < info->work_groups; wg++)
            rc = emu_tracer_wg(r, wg, &t, msg, sizeof msg);
        if (!rc)
            rc = emu_tracer_finish(r, info, msg, sizeof msg);
        emu_trace_free(&t);
        if (rc)
            fault_set(fault, rc, "'%s': %s", path, msg);
    }
    emu_tracer_close(r);
    return rc;
}

static int replay_trace(const char *path, const emu_config *cfg,
                        const sgemu_replay_opts *opts, isa_kernel *kernel_out,
                        sgemu_stats *stats, sgemu_fault *fault);

int sgemu_replay(const char *path, const emu_config *cfg, const sgemu_replay_opts *opts,
                 isa_kernel *kernel_out, sgemu_stats *stats, sgemu_fault *fault)
{
    emu_host_mark t0 = emu_host_now();
    int rc = replay_trace(path, cfg, opts, kernel_out, stats, fault);
    emu_host_since(t0, stats);
    return rc;
}

static int replay_trace(const char *path, const emu_config *cfg,
                        const sgemu_replay_opts *opts, isa_kernel *kernel_out,
                        sgemu_stats *stats, sgemu_fault *fault)
{
    memset(stats, 0, sizeof *stats);
    memset(fault, 0, sizeof *fault);
    if (kernel_out)
        memset(kernel_out, 0, sizeof *kernel_out);
    sgemu_trace_info info;
    isa_kernel k;
    replay_ctx c;
    memset(&c, 0, sizeof c);
    char msg[700] = "";
    /* no FNV pass here (15% of a replay): zstd's content checksum, which the
     * decompressor checks anyway, the payload length and the structure
     * checks catch corruption; `sgemu trace info` checks the FNV too */
    int rc = emu_tracer_open(&c.r, path, &info, &k, false, msg, sizeof msg);
    if (rc)
        return fault_set(fault, rc, "%s", msg);
    uint32_t key[8];
    sgemu_trace_coll_key(cfg, key);
    if (opts && opts->sg_width && opts->sg_width != info.sg_width)
        rc = fault_set(fault, SGEMU_EXIT_USER, "trace '%s' was recorded at sub-group width "
                       "%u and cannot be replayed at width %u: a width changes the executed "
                       "instruction stream, so record it again with --sg %u",
                       path, info.sg_width, opts->sg_width, opts->sg_width);
    else if (!emu_config_supports_width(cfg, info.sg_width))
        rc = fault_set(fault, SGEMU_EXIT_USER, "trace '%s' was recorded at sub-group width "
                       "%u, which device '%s' does not support", path, info.sg_width,
                       cfg->name);
    else if (memcmp(key, info.coll, sizeof key))
        rc = fault_set(fault, SGEMU_EXIT_USER, "trace '%s' was recorded with other "
                       "collective options (collectives.*) than device '%s' uses: its "
                       "micro-ops would differ, so record it on this config", path, cfg->name);
    else if (info.wg_items > cfg->max_wg_size)
        rc = fault_set(fault, SGEMU_EXIT_USER, "trace '%s': work-group of %u work-items "
                       "exceeds device '%s' limit of %u", path, info.wg_items, cfg->name,
                       cfg->max_wg_size);
    else if (info.local_bytes > cfg->local_mem_per_cu)
        rc = fault_set(fault, SGEMU_EXIT_USER, "trace '%s': kernel needs %u bytes of local "
                       "memory but device '%s' has %u per compute unit", path,
                       info.local_bytes, cfg->name, cfg->local_mem_per_cu);
    sgemu_timing *t = rc ? NULL : calloc(1, sizeof *t);
    if (!rc && !t)
        rc = fault_set(fault, SGEMU_EXIT_INTERNAL, "out of host memory");
    if (!rc) {
        stats->timing = t;
        tm_launch L = {
            .k = &k, .cfg = cfg, .width = info.sg_width, .wg_items = info.wg_items,
            .local_bytes = info.local_bytes, .wg_total = info.work_groups,
            .next_wg = pull_from_file, .user = &c,
            .trace_path = opts ? opts->trace_path : NULL,
            .trace_limit = opts ? opts->trace_limit : 0,
            .threads = opts ? opts->threads : 1,
        };
        rc = tm_run(&L, t, msg, sizeof msg);
        if (rc)
            fault_set(fault, rc, "'%s': %s", path, c.rc ? c.msg : msg);
    }
    if (!rc && (rc = emu_tracer_finish(c.r, &info, msg, sizeof msg)))
        fault_set(fault, rc, "'%s': %s", path, msg);
    emu_tracer_close(c.r);
    if (!rc) {
        stats->sg_width = info.sg_width;
        stats->dims = info.dims;
        for (int d = 0; d < 3; d++) {
            stats->global[d] = info.global[d];
            stats->local[d] = info.local[d];
        }
        stats->work_groups = info.work_groups;
        stats->subgroups = info.subgroups;
        stats->work_items = info.work_items;
        stats->instructions = info.instructions;
        stats->lane_ops = info.lane_ops;
        stats->lane_slots = info.lane_slots;
        stats->uops = info.uops;
    }
    if (kernel_out && !rc)
        *kernel_out = k;
    else
        isa_kernel_free(&k);
    return rc;
}
