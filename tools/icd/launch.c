/* launch.c - clEnqueueNDRangeKernel: a snapshot of the arguments becomes a
 * command that calls sgemu_run on the queue's device config.  With the
 * timing model on (the default), the command lasts the modelled device time
 * (cycles at the config's clock), which is what the profiling info reports.
 * A kernel fault prints sgemu run's message on stderr and fails the event.
 * Per-kernel totals are written at exit for `sgemu exec`. */
#include "icd.h"
#include "kernel_args.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct launch_cmd {
    cl_kernel kernel;               /* retained */
    sgemu_launch L;
    sgemu_argval vals[ISA_MAX_ARGS];
    cl_mem mems[ISA_MAX_ARGS];      /* retained */
    uint64_t cache_buffer[ISA_MAX_ARGS], cache_offset[ISA_MAX_ARGS];
} launch_cmd;

/* ---- per-kernel totals ---- */

typedef struct kstat {
    char kernel[64], device[64];
    uint32_t width;
    uint64_t launches, ns, cycles, instructions, lane_ops, lane_slots;
    double occupancy;               /* sum of achieved occupancy */
    uint32_t limiter;               /* of the last timed launch */
    bool timed;
} kstat;

static kstat *stats;
static size_t nstats;
static uint32_t launch_seq;

static void account(const isa_kernel *k, cl_device_id d, const sgemu_stats *st)
{
    kstat *s = NULL;
    for (size_t i = 0; i < nstats && !s; i++)
        if (!strcmp(stats[i].kernel, k->name) && !strcmp(stats[i].device, d->cfg.name) &&
            stats[i].width == st->sg_width)
            s = &stats[i];
    if (!s) {
        kstat *ns = realloc(stats, (nstats + 1) * sizeof *ns);
        if (!ns)
            return;
        stats = ns;
        s = &stats[nstats++];
        memset(s, 0, sizeof *s);
        snprintf(s->kernel, sizeof s->kernel, "%s", k->name);
        snprintf(s->device, sizeof s->device, "%s", d->cfg.name);
        s->width = st->sg_width;
    }
    s->launches++;
    s->instructions += st->instructions;
    s->lane_ops += st->lane_ops;
    s->lane_slots += st->lane_slots;
    if (st->timing) {
        s->timed = true;
        s->cycles += st->timing->cycles;
        s->ns += (uint64_t)llround((double)st->timing->cycles * 1000.0 / d->cfg.clock_mhz);
        s->occupancy += st->timing->achieved_occupancy;
        s->limiter = st->timing->limiter;
    }
}

/* One line per kernel, tab-separated (docs/opencl-platform.md): appended to
 * $SGEMU_STATS_FILE at exit; `sgemu exec` reads it. */
void icd_stats_flush(void)
{
    const char *path = getenv("SGEMU_STATS_FILE");
    if (!path || !*path || !nstats)
        return;
    FILE *f = fopen(path, "a");
    if (!f)
        return;
    for (size_t i = 0; i < nstats; i++) {
        const kstat *s = &stats[i];
        fprintf(f, "%s\t%s\t%u\t%llu\t%d\t%llu\t%llu\t%llu\t%llu\t%llu\t%.6f\t%s\n", s->kernel,
                s->device, s->width, (unsigned long long)s->launches, s->timed ? 1 : 0,
                (unsigned long long)s->ns, (unsigned long long)s->cycles,
                (unsigned long long)s->instructions, (unsigned long long)s->lane_ops,
                (unsigned long long)s->lane_slots, s->occupancy,
                s->limiter < TM_LIMIT_COUNT ? tm_limiter_names[s->limiter] : "none");
    }
    fclose(f);
}

__attribute__((destructor)) static void at_unload(void)
{
    icd_stats_flush();
    free(stats);
    stats = NULL;
    nstats = 0;
}

/* ---- the command ---- */

static cl_int launch_run(icd_cmd *c)
{
    launch_cmd *lc = c->payload;
    const isa_kernel *k = &lc->kernel->e->k;
    cl_device_id d = c->q->dev;
    char record[4200];
    const char *dir = icd_record_dir();
    if (dir) {
        snprintf(record, sizeof record, "%s/%04u-%s.sgtrace", dir, launch_seq++, k->name);
        lc->L.record_path = record;
    }
    if (k->global_arg) {     /* program-scope globals: the program's block on d */
        cl_program p = lc->kernel->prog;
        icd_globals *gb = p->globals;
        while (gb && gb->dev != d)
            gb = gb->next;
        lc->L.globals_live = gb != NULL;   /* else sgemu_run fills the initial bytes */
        if (!gb) {
            gb = calloc(1, sizeof *gb);
            if (!gb || !(gb->data = calloc(1, k->global_bytes ? k->global_bytes : 1))) {
                free(gb);
                return CL_OUT_OF_HOST_MEMORY;
            }
            gb->dev = d;
            gb->bytes = k->global_bytes;
            gb->next = p->globals;
            p->globals = gb;
        }
        if (gb->bytes < k->global_bytes)
            return CL_INVALID_OPERATION;    /* one module: the same layout everywhere */
        sgemu_argval *g = &lc->vals[k->global_arg - 1];
        g->kind = SGEMU_VAL_BUFFER;
        g->data = gb->data;
        g->bytes = gb->bytes;
    }
    /* the device's L2 as its earlier kernels and transfers left it (NULL
     * when out of memory: this launch starts empty) */
    if (!d->caches)
        d->caches = sgemu_cache_state_new();
    lc->L.caches = d->caches;
    lc->L.cache_buffer = lc->cache_buffer;
    lc->L.cache_offset = lc->cache_offset;
    sgemu_stats st;
    sgemu_fault fault;
    memset(&st, 0, sizeof st);
    int rc = sgemu_run(k, &d->cfg, &lc->L, lc->vals, &st, &fault);
    lc->L.record_path = NULL;
    /* printf output: on the program's stdout when the launch ends, so it is
     * there by the time its event completes (what came before a fault too) */
    sgemu_printf_flush(&st, k->name, stdout, stderr);
    if (rc) {
        fprintf(stderr, "sgemu: %s: %s\n", rc == SGEMU_EXIT_FAULT ? "kernel fault" : "error",
                fault.msg);
        sgemu_stats_free(&st);
        return rc == SGEMU_EXIT_FAULT ? CL_OUT_OF_RESOURCES : CL_INVALID_OPERATION;
    }
    if (st.timing)
        c->ev->run_ns = (uint64_t)llround((double)st.timing->cycles * 1000.0 / d->cfg.clock_mhz);
    else
        c->ev->untimed = true;
    account(k, d, &st);
    sgemu_stats_free(&st);
    return CL_SUCCESS;
}

static void launch_done(icd_cmd *c)
{
    launch_cmd *lc = c->payload;
    for (int i = 0; i < ISA_MAX_ARGS; i++) {
        if (lc->mems[i])
            icd_mem_release(lc->mems[i]);
        if (lc->vals[i].kind == SGEMU_VAL_BUFFER && !lc->mems[i] &&
            !(lc->kernel->e->k.global_arg == (uint32_t)i + 1))
            free(lc->vals[i].data);      /* by-value bytes */
    }
    icd_ReleaseKernel(lc->kernel);
    free(lc);
}

/* The engine's value of each argument; buffers are used in place. */
static cl_int snapshot_args(launch_cmd *lc, cl_context ctx)
{
    const isa_kernel *k = &lc->kernel->e->k;
    for (uint32_t i = 0; i < k->narg; i++) {
        if (i + 1 == k->const_arg || i + 1 == k->global_arg)
            continue;
        const icd_arg *a = &lc->kernel->args[i];
        sgemu_argval *v = &lc->vals[i];
        if (!a->set)
            return CL_INVALID_KERNEL_ARGS;
        if (a->mem && a->mem->ctx != ctx)
            return CL_INVALID_CONTEXT;
        switch (k->args[i].kind) {
        case ISA_ARG_LOCAL:
            v->kind = SGEMU_VAL_LOCAL;
            v->bytes = a->local_bytes;
            break;
        case ISA_ARG_SCALAR:
            v->kind = SGEMU_VAL_SCALAR;
            v->scalar = a->scalar;
            break;
        case ISA_ARG_IMAGE2D:
            if (!a->mem)           /* clSetKernelArg refuses a NULL image */
                return CL_INVALID_KERNEL_ARGS;
            v->kind = SGEMU_VAL_IMAGE;
            v->image = a->mem->img;
            lc->mems[i] = a->mem;
            icd_mem_retain(a->mem);
            break;
        default:
            v->kind = SGEMU_VAL_BUFFER;
            if (a->bytes) {
                if (!(v->data = malloc(a->nbytes)))
                    return CL_OUT_OF_HOST_MEMORY;
                memcpy(v->data, a->bytes, a->nbytes);
                v->bytes = a->nbytes;
            } else if (a->mem) {
                v->data = a->mem->data;
                v->bytes = a->mem->size;
                lc->cache_buffer[i] = icd_mem_cache_id(a->mem, &lc->cache_offset[i]);
                lc->mems[i] = a->mem;
                icd_mem_retain(a->mem);
            }
            break;
        }
    }
    return CL_SUCCESS;
}

static cl_int check_ndrange(const launch_cmd *lc, cl_device_id d, cl_uint dims,
                            const size_t *global, const size_t *local, bool *empty)
{
    const isa_kernel *k = &lc->kernel->e->k;
    if (dims < 1 || dims > 3)
        return CL_INVALID_WORK_DIMENSION;
    if (!global)
        return CL_INVALID_GLOBAL_WORK_SIZE;
    *empty = false;
    for (cl_uint i = 0; i < dims; i++)
        *empty |= global[i] == 0;
    if (k->reqd_sg_size && !emu_config_supports_width(&d->cfg, k->reqd_sg_size))
        return CL_INVALID_KERNEL;
    if (local) {
        size_t items = 1;
        for (cl_uint i = 0; i < dims; i++) {
            if (local[i] == 0 || local[i] > d->cfg.max_wg_size)
                return CL_INVALID_WORK_ITEM_SIZE;
            items *= local[i];
            if (items > icd_kernel_max_wg(k, &d->cfg))
                return CL_INVALID_WORK_GROUP_SIZE;
        }
        /* a local size other than the kernel's reqd_work_group_size */
        for (cl_uint i = 0; i < 3 && k->reqd_wg[0]; i++)
            if ((i < dims ? local[i] : 1) != k->reqd_wg[i])
                return CL_INVALID_WORK_GROUP_SIZE;
    }
    return CL_SUCCESS;
}

cl_int icd_EnqueueNDRangeKernel(cl_command_queue command_queue, cl_kernel kernel, cl_uint work_dim,
                                const size_t *global_work_offset, const size_t *global_work_size,
                                const size_t *local_work_size, cl_uint num_events_in_wait_list,
                                const cl_event *event_wait_list, cl_event *event)
{
    cl_command_queue q = command_queue;
    if (!icd_queue_valid(q))
        return CL_INVALID_COMMAND_QUEUE;
    if (!icd_valid(kernel, ICD_KERNEL))
        return CL_INVALID_KERNEL;
    if (kernel->prog->ctx != q->ctx)
        return CL_INVALID_CONTEXT;
    cl_int rc = icd_check_wait_list(q->ctx, num_events_in_wait_list, event_wait_list);
    if (rc)
        return rc;
    icd_cmd *c = icd_cmd_new(q, CL_COMMAND_NDRANGE_KERNEL);
    launch_cmd *lc = c ? calloc(1, sizeof *lc) : NULL;
    if (!lc) {
        if (c) {
            icd_event_release(c->ev);
            free(c);
        }
        return CL_OUT_OF_HOST_MEMORY;
    }
    lc->kernel = kernel;
    icd_RetainKernel(kernel);
    c->payload = lc;
    c->done = launch_done;
    bool empty = false;
    rc = check_ndrange(lc, q->dev, work_dim, global_work_size, local_work_size, &empty);
    if (!rc)
        rc = snapshot_args(lc, q->ctx);
    if (rc) {
        launch_done(c);
        icd_event_release(c->ev);
        free(c);
        return rc;
    }
    sgemu_launch *L = &lc->L;
    L->dims = work_dim;
    for (cl_uint i = 0; i < work_dim; i++) {
        L->global[i] = global_work_size[i];
        L->offset[i] = global_work_offset ? global_work_offset[i] : 0;
        L->local[i] = local_work_size ? local_work_size[i] : 1;
    }
    L->local_given = local_work_size != NULL;
    L->sg_width = icd_kernel_width(&kernel->e->k, &q->dev->cfg);
    L->max_instructions = 100000000000ULL;
    L->check = icd_check_enabled();
    L->timing = icd_timing_enabled();
    c->run = empty ? NULL : launch_run;    /* a zero-sized NDRange does nothing */
    return icd_submit(c, q, num_events_in_wait_list, event_wait_list, event, false);
}

cl_int icd_EnqueueTask(cl_command_queue command_queue, cl_kernel kernel,
                       cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                       cl_event *event)
{
    static const size_t one[1] = { 1 };
    return icd_EnqueueNDRangeKernel(command_queue, kernel, 1, NULL, one, one,
                                    num_events_in_wait_list, event_wait_list, event);
}
