/* launch.c - sgemu_run: checks the launch against the kernel and device,
 * binds arguments, lays out local memory and walks the NDRange work-group
 * by work-group. */
#include "detect.h"
#include "emu_private.h"
#include "timing_model.h"
#include "trace_file.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* How the kernel's file states its required sub-group width, in the words
 * of its source language. */
static const char *reqd_width_source(const isa_kernel *k)
{
    const size_t n = strlen(k->file);
    if (n >= 3 && !strcmp(k->file + n - 3, ".cl"))
        return "__attribute__((intel_reqd_sub_group_size(N))) in the OpenCL C source";
    if (n >= 6 && !strcmp(k->file + n - 6, ".sgasm"))
        return ".reqd_sub_group_size";
    if (n >= 4 && !strcmp(k->file + n - 4, ".spv"))
        return "OpExecutionMode SubgroupSize, intel_reqd_sub_group_size in OpenCL C";
    return ".reqd_sub_group_size";
}

static int user_error(sgemu_fault *f, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static int user_error(sgemu_fault *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->msg, sizeof f->msg, fmt, ap);
    va_end(ap);
    f->code = SGEMU_EXIT_USER;
    return f->code;
}

const char *sgemu_version_string(void)
{
    return SGEMU_VERSION_STRING;
}

uint32_t sgemu_image_elem_bytes(sgemu_channel_order o, sgemu_channel_type t)
{
    static const uint8_t channels[] = {
#define X(E, n, c) c,
        SGEMU_CHANNEL_ORDERS(X)
#undef X
    };
    static const uint8_t bytes[] = {
#define X(E, n, b) b,
        SGEMU_CHANNEL_TYPES(X)
#undef X
    };
    if (o >= SGEMU_ORDER_COUNT || t >= SGEMU_CHTYPE_COUNT)
        return 0;
    return channels[o] * bytes[t];
}

uint32_t sgemu_image_channel_slot(sgemu_channel_order o, uint32_t c)
{
    static const uint8_t bgra[4] = { 2, 1, 0, 3 };
    return o == SGEMU_ORDER_BGRA && c < 4 ? bgra[c] : c;
}

/* Set from signal handlers: only a volatile sig_atomic_t store is safe there. */
static volatile sig_atomic_t stop_flag;

void sgemu_request_stop(void) { stop_flag = 1; }
bool sgemu_stop_requested(void) { return stop_flag != 0; }
void sgemu_clear_stop(void) { stop_flag = 0; }

float sgemu_half_to_float(uint16_t h) { return lanes_f16_to_f32(h); }
uint16_t sgemu_float_to_half(float f) { return lanes_f32_to_f16(f); }
uint16_t sgemu_double_to_half(double d) { return lanes_f64_to_f16(d); }

/* Work-item query values for every lane of a subgroup. */
static void special_values(void *user, const lanes_sg *lsg, isa_special sp,
                           uint32_t dim, uint64_t *out)
{
    emu_run *run = user;
    const emu_sg *sg = (const emu_sg *)lsg;
    const emu_wg *wg = run->wg;
    uint32_t w = lsg->width, d = dim < 3 ? dim : 0;
    uint64_t enq_items = run->local[0] * run->local[1] * run->local[2];
    /* emu_workitem_ids of lane 0, then stepped lane by lane with carries:
     * three 64-bit divisions per lane were a fifth of a memory-bound run */
    const uint64_t ls0 = wg->local_size[0], ls1 = wg->local_size[1];
    const uint64_t lin = (uint64_t)sg->id * run->width;
    uint64_t lid[3] = { lin % ls0, (lin / ls0) % ls1, lin / (ls0 * ls1) };
    for (uint32_t l = 0; l < w; l++) {
        uint64_t gid[3], v = 0;
        for (int k = 0; k < 3; k++)
            gid[k] = wg->group_id[k] * run->local[k] + lid[k] + run->offset[k];
        switch (sp) {
        case ISA_SP_GLOBAL_ID: v = gid[d]; break;
        case ISA_SP_GLOBAL_SIZE: v = run->global[d]; break;
        case ISA_SP_GLOBAL_OFFSET: v = run->offset[d]; break;
        case ISA_SP_LOCAL_ID: v = lid[d]; break;
        case ISA_SP_LOCAL_SIZE: v = wg->local_size[d]; break;
        case ISA_SP_ENQUEUED_LOCAL_SIZE: v = run->local[d]; break;
        case ISA_SP_GROUP_ID: v = wg->group_id[d]; break;
        case ISA_SP_NUM_GROUPS: v = run->num_groups[d]; break;
        case ISA_SP_WORK_DIM: v = run->dims; break;
        case ISA_SP_GLOBAL_LINEAR_ID:
            v = (gid[2] - run->offset[2]) * run->global[1] * run->global[0] +
                (gid[1] - run->offset[1]) * run->global[0] + (gid[0] - run->offset[0]);
            break;
        case ISA_SP_LOCAL_LINEAR_ID: v = (uint64_t)sg->id * w + l; break;
        case ISA_SP_SUB_GROUP_SIZE: v = lsg->size; break;
        case ISA_SP_MAX_SUB_GROUP_SIZE: v = w; break;
        case ISA_SP_NUM_SUB_GROUPS: v = wg->nsg; break;
        case ISA_SP_ENQUEUED_NUM_SUB_GROUPS: v = (enq_items + w - 1) / w; break;
        case ISA_SP_SUB_GROUP_ID: v = sg->id; break;
        case ISA_SP_SUB_GROUP_LOCAL_ID: v = l; break;
        default: v = 0; break;
        }
        out[l] = v;
        if (++lid[0] == ls0) {
            lid[0] = 0;
            if (++lid[1] == ls1) {
                lid[1] = 0;
                lid[2]++;
            }
        }
    }
}

/* Image bytes of a COLL_IMAGE_ADDR access: inside one row of the image. */
static uint8_t *image_ptr(emu_run *run, uint64_t addr, uint32_t n)
{
    uint32_t arg = COLL_IMAGE_ADDR_ARG(addr), y = COLL_IMAGE_ADDR_Y(addr);
    uint64_t x = COLL_IMAGE_ADDR_X(addr);
    if (arg >= run->k->narg || run->args[arg].kind != SGEMU_VAL_IMAGE)
        return NULL;
    const sgemu_image *im = &run->args[arg].image;
    uint64_t row = (uint64_t)im->width * im->elem_bytes;
    if (y >= im->height || x > row || n > row - x)
        return NULL;
    return im->data + (size_t)y * im->pitch + x;
}

/* coll_memory callbacks for block I/O and work-group exchanges */
static int coll_read(void *user, isa_space space, uint64_t addr, void *dst, uint32_t n)
{
    emu_run *run = user;
    const char *why;
    uint8_t *p = space == ISA_SPACE_IMAGE ? image_ptr(run, addr, n)
                                          : emu_mem_ptr(run, space, addr, n, false, 0, &why);
    if (!p)
        return -1;
    memcpy(dst, p, n);
    return 0;
}

static int coll_write(void *user, isa_space space, uint64_t addr, const void *src, uint32_t n)
{
    emu_run *run = user;
    const char *why;
    uint8_t *p = space == ISA_SPACE_IMAGE ? image_ptr(run, addr, n)
                                          : emu_mem_ptr(run, space, addr, n, true, 0, &why);
    if (!p)
        return -1;
    memcpy(p, src, n);
    if (run->det && space == ISA_SPACE_LOCAL)
        emu_detect_block_write(run, addr, n);
    return 0;
}

static int coll_image_info(void *user, uint32_t arg, uint32_t *width, uint32_t *height,
                           uint32_t *elem_bytes, uint32_t *pitch)
{
    emu_run *run = user;
    if (arg >= run->k->narg || run->args[arg].kind != SGEMU_VAL_IMAGE)
        return -1;
    const sgemu_image *im = &run->args[arg].image;
    *width = im->width;
    *height = im->height;
    *elem_bytes = im->elem_bytes;
    *pitch = im->pitch;
    return 0;
}

/* A by-value vector or struct needs a buffer of at least its bytes; the
 * message says how to give them (a short buffer would fault mid-run or,
 * worse, read a neighbour's bytes). */
static int check_byval(emu_run *run, const isa_arg *a, const sgemu_argval *v)
{
    if (v->kind == SGEMU_VAL_BUFFER && v->bytes >= a->byval)
        return 0;
    char got[48];
    if (v->kind == SGEMU_VAL_BUFFER)
        snprintf(got, sizeof got, "got %zu bytes", v->bytes);
    else
        snprintf(got, sizeof got, "got %s", v->kind == SGEMU_VAL_UNSET ? "no value" : "a scalar");
    const char *tn = a->type < ISA_T_COUNT ? isa_types[a->type].cl_name : "?";
    if (!a->byval_vec)
        return user_error(run->fault, "argument '%s' is a %s passed by value: give its %u "
                          "bytes, as clang lays it out for spir64, e.g. --arg %s=u8:@FILE (%s)",
                          a->name, a->cl_type[0] ? a->cl_type : "struct", a->byval, a->name,
                          got);
    /* x,y,z,w up to 4 components (a 3-vector's 4th is padding), s0..sf beyond */
    static const char hex[] = "0123456789abcdef";
    char list[64], name[48];
    size_t n = 0;
    unsigned slots = a->byval_vec == 3 ? 4 : a->byval_vec;
    for (unsigned c = 0; c < slots && c < 16; c++) {
        if (a->byval_vec <= 4)
            n += (size_t)snprintf(list + n, sizeof list - n, "%s%c", c ? "," : "",
                                  c == 3 && a->byval_vec == 3 ? '0' : "xyzw"[c]);
        else
            n += (size_t)snprintf(list + n, sizeof list - n, "%ss%c", c ? "," : "", hex[c]);
    }
    if (a->cl_type[0])
        snprintf(name, sizeof name, "%s", a->cl_type);
    else
        snprintf(name, sizeof name, "%s%u", tn, a->byval_vec);
    return user_error(run->fault, "argument '%s' is a %s passed by value: give its %u bytes, "
                      "e.g. --arg %s=%s:[%s] (%s)", a->name, name, a->byval, a->name, tn,
                      list, got);
}

static int bind_args(emu_run *run)
{
    const isa_kernel *k = run->k;
    uint32_t local = (k->local_mem + 15) & ~15u;
    for (uint32_t i = 0; i < k->narg; i++) {
        const isa_arg *a = &k->args[i];
        sgemu_argval *v = &run->args[i];
        static const uint8_t want[] = {
            [ISA_ARG_SCALAR] = SGEMU_VAL_SCALAR, [ISA_ARG_GLOBAL] = SGEMU_VAL_BUFFER,
            [ISA_ARG_CONSTANT] = SGEMU_VAL_BUFFER, [ISA_ARG_LOCAL] = SGEMU_VAL_LOCAL,
            [ISA_ARG_IMAGE2D] = SGEMU_VAL_IMAGE,
        };
        static const char *const what[] = {
            [ISA_ARG_SCALAR] = "a scalar value", [ISA_ARG_GLOBAL] = "a buffer",
            [ISA_ARG_CONSTANT] = "a buffer", [ISA_ARG_LOCAL] = "a local size (local:BYTES)",
            [ISA_ARG_IMAGE2D] = "an image (image2d:...)",
        };
        if (a->byval && check_byval(run, a, v))
            return run->fault->code;
        if (v->kind == SGEMU_VAL_UNSET)
            return user_error(run->fault, "argument '%s' of kernel '%s' has no value "
                              "(give --arg %s=...)", a->name, k->name, a->name);
        if (v->kind != want[a->kind])
            return user_error(run->fault, "argument '%s' of kernel '%s' needs %s",
                              a->name, k->name, what[a->kind]);
        switch (a->kind) {
        case ISA_ARG_SCALAR: run->arg_values[i] = v->scalar; break;
        case ISA_ARG_GLOBAL:
        case ISA_ARG_CONSTANT: run->arg_values[i] = emu_buffer_base(i); break;
        case ISA_ARG_LOCAL:
            if (v->bytes > UINT32_MAX - local - 256)
                return user_error(run->fault, "local argument '%s' is too large", a->name);
            if (a->align_log2 > 4) {      /* elements aligned wider than 16 bytes */
                const uint32_t al = 1u << a->align_log2;
                local = (local + al - 1) & ~(al - 1);
            }
            run->local_arg_offset[i] = local;
            run->arg_values[i] = local;
            local = (uint32_t)((local + v->bytes + 15) & ~(size_t)15);
            break;
        case ISA_ARG_IMAGE2D: {
            /* elem_bytes is derived here so image code can trust it */
            sgemu_image *im = &v->image;
            im->elem_bytes = sgemu_image_elem_bytes((sgemu_channel_order)im->order,
                                                    (sgemu_channel_type)im->chtype);
            if (!im->elem_bytes)
                return user_error(run->fault, "image '%s': unknown channel order or type",
                                  a->name);
            const unsigned ad = a->dims ? a->dims : 2, id = im->dims ? im->dims : 2;
            if (ad != id || !a->arrayed != !im->arrayed || !a->img_buffer != !im->buffer) {
                const char *in = isa_image_type_name(id, im->arrayed, im->buffer);
                return user_error(run->fault, "image '%s': an %s bound to an %s argument",
                                  a->name, in ? in : "image of no OpenCL type",
                                  isa_image_type_name(ad, a->arrayed, a->img_buffer));
            }
            /* 3D images and 2D arrays have slices (a 2D array's layers) */
            if ((id == 3 || (id == 2 && im->arrayed)) &&
                (!im->depth || im->depth >= (1u << 24) ||
                 im->slice_pitch < (uint64_t)im->height * im->pitch ||
                 (!im->data && im->depth)))
                return user_error(run->fault, "image '%s': bad slice geometry: depth %u, slice "
                                  "pitch %llu (must be >= height x pitch; depth 1 to 2^24)",
                                  a->name, im->depth, (unsigned long long)im->slice_pitch);
            if (im->width >= (1u << 24) || im->height >= (1u << 24) ||
                (uint64_t)im->width * im->elem_bytes > im->pitch ||
                (!im->data && im->height && im->pitch))
                return user_error(run->fault, "image '%s': bad geometry %ux%u, pitch %u "
                                  "(pitch must be >= width x %u bytes; sides < 2^24)",
                                  a->name, im->width, im->height, im->pitch, im->elem_bytes);
            run->arg_values[i] = i;
            break;
        }
        }
    }
    run->local_total = local;
    if (local > run->cfg->local_mem_per_cu)
        return user_error(run->fault, "kernel '%s' needs %u bytes of local memory but "
                          "device '%s' has %u per compute unit", k->name, local,
                          run->cfg->name, run->cfg->local_mem_per_cu);
    return 0;
}

/* A local size sgemu picks when none is given: the largest divisor of the
 * global size along x that is a multiple-friendly value <= the device limit. */
static void pick_local(emu_run *run)
{
    uint64_t limit = run->cfg->max_wg_size < 256 ? run->cfg->max_wg_size : 256;
    /* the subgroups must fit one compute unit's thread slots (timing model) */
    uint32_t w = run->launch->sg_width ? run->launch->sg_width
               : run->k->reqd_sg_size ? run->k->reqd_sg_size : run->cfg->default_width;
    if (w && (uint64_t)run->cfg->threads_per_cu * w < limit)
        limit = (uint64_t)run->cfg->threads_per_cu * w;
    for (int d = 0; d < 3; d++)
        run->local[d] = 1;
    for (uint64_t l = limit; l >= 1; l--) {
        if (run->global[0] % l == 0) {
            run->local[0] = l;
            break;
        }
    }
}

/* The largest NDRange sgemu accepts (2^40 work-items). */
#define EMU_MAX_WORK_ITEMS (1ull << 40)

static int check_launch(emu_run *run)
{
    const sgemu_launch *L = run->launch;
    const emu_config *cfg = run->cfg;
    sgemu_fault *f = run->fault;
    if (L->dims < 1 || L->dims > 3)
        return user_error(f, "work dimension must be 1, 2 or 3 (got %u)", L->dims);
    /* the check and the detectors hook sgemu's own ISA (micro-ops, decoded
     * loads and stores); IGC's code has neither: refused, not silently off */
    if (run->k->gen && (L->check || L->detect))
        return user_error(f, "kernel '%s': --check, --races and --uninitialized are not "
                          "available for IGC's code (they follow sgemu's own ISA; "
                          "docs/gen.md)", run->k->name);
    run->dims = L->dims;
    for (uint32_t d = 0; d < 3; d++) {
        run->global[d] = d < L->dims ? L->global[d] : 1;
        run->offset[d] = d < L->dims ? L->offset[d] : 0;
        if (run->global[d] == 0)
            return user_error(f, "global size in dimension %u is 0", d);
        if (run->offset[d] > UINT64_MAX - run->global[d])
            return user_error(f, "global offset %llu + size %llu in dimension %u wraps "
                              "around 2^64", (unsigned long long)run->offset[d],
                              (unsigned long long)run->global[d], d);
    }
    /* far beyond what an interpreter finishes, and products past 2^64 would
     * wrap in the id arithmetic: refuse before anything is allocated */
    uint64_t nd_items = 1;
    for (uint32_t d = 0; d < 3; d++) {
        if (run->global[d] > EMU_MAX_WORK_ITEMS / nd_items)
            return user_error(f, "NDRange too large: global size %llux%llux%llu is more "
                              "than %llu work-items", (unsigned long long)run->global[0],
                              (unsigned long long)run->global[1],
                              (unsigned long long)run->global[2],
                              (unsigned long long)EMU_MAX_WORK_ITEMS);
        nd_items *= run->global[d];
    }
    if (L->local_given) {
        uint64_t items = 1;
        for (uint32_t d = 0; d < 3; d++) {
            run->local[d] = d < L->dims ? L->local[d] : 1;
            if (run->local[d] == 0)
                return user_error(f, "local size in dimension %u is 0", d);
            items *= run->local[d];
            if (items > cfg->max_wg_size)
                break;
        }
        if (items > cfg->max_wg_size)
            return user_error(f, "work-group of %llu work-items exceeds the device "
                              "limit of %u (max_work_group_size)",
                              (unsigned long long)items, cfg->max_wg_size);
        const uint32_t *r = run->k->reqd_wg;
        if (r[0] && (run->local[0] != r[0] || run->local[1] != r[1] || run->local[2] != r[2]))
            return user_error(f, "kernel '%s' requires work-group size %u,%u,%u "
                              "(reqd_work_group_size) but %llu,%llu,%llu was given",
                              run->k->name, r[0], r[1], r[2],
                              (unsigned long long)run->local[0],
                              (unsigned long long)run->local[1],
                              (unsigned long long)run->local[2]);
    } else if (run->k->reqd_wg[0]) {
        /* the size the kernel was compiled for (OpenCL: without a local size
         * the implementation chooses, and this is the only one that runs) */
        for (int d = 0; d < 3; d++)
            run->local[d] = run->k->reqd_wg[d];
    } else {
        pick_local(run);
    }
    run->wg_total = 1;
    for (int d = 0; d < 3; d++) {
        run->num_groups[d] = (run->global[d] + run->local[d] - 1) / run->local[d];
        if (run->num_groups[d] > UINT64_MAX / run->wg_total)
            return user_error(f, "NDRange too large");
        run->wg_total *= run->num_groups[d];
    }

    uint32_t w = L->sg_width;
    if (!w)
        w = run->k->reqd_sg_size ? run->k->reqd_sg_size : cfg->default_width;
    if (run->k->reqd_sg_size && w != run->k->reqd_sg_size)
        return user_error(f, "kernel '%s' requires sub-group size %u (%s) but %u was "
                          "asked for", run->k->name, run->k->reqd_sg_size,
                          reqd_width_source(run->k), w);
    if (w < 1 || w > LANES_MAX)
        return user_error(f, "sub-group width %u is outside 1..%d", w, LANES_MAX);
    if (!emu_config_supports_width(cfg, w)) {
        char list[128] = "";
        size_t n = 0;
        for (uint32_t i = 0; i < cfg->nwidths && n < sizeof list; i++)
            n += (size_t)snprintf(list + n, sizeof list - n, "%s%u", i ? ", " : "",
                                  cfg->widths[i]);
        return user_error(f, "device '%s' does not support sub-group width %u "
                          "(supported: %s)", cfg->name, w, list);
    }
    run->width = w;
    return 0;
}

/* SGEMU_REGALLOC=0 runs kernels on their value registers, unallocated
 * (A/B comparisons, bisecting). */
bool sgemu_regalloc_enabled(void)
{
    const char *e = getenv("SGEMU_REGALLOC");
    return !e || strcmp(e, "0") != 0;
}

void emu_ra_opts(const emu_config *cfg, uint32_t width, isa_ra_opts *o, isa_math_temps *mt)
{
    const char *e = getenv("SGEMU_REMAT"), *u = getenv("SGEMU_UNIFORM");
    /* SGEMU_PRESCHED=all reorders every block of a compiled kernel on any
     * config: the corpus A/B tests run the scheduler so (docs/regalloc.md) */
    const char *ps = getenv("SGEMU_PRESCHED");
    *o = (isa_ra_opts){ .no_remat = e && strcmp(e, "0") == 0,
                        .width = u && strcmp(u, "0") == 0 ? 0 : width,
                        .presched_all = ps && strcmp(ps, "all") == 0 };
    if (!cfg)
        return;
    if (cfg->timing.allow_spill)
        o->budget_bytes = tm_grf_budget_bytes(cfg, width);
    if (emu_math_temps(cfg, width, mt))
        o->math_temps = mt;
    /* The threshold is in registers of the normal GRF mode; a schedule is
     * kept only if it saves 5 of them, as vISA's pre-RA scheduler asks. */
    const uint32_t regs = width >= 32 ? cfg->presched_pressure_simd32 : cfg->presched_pressure;
    if (regs && width) {
        o->presched_bytes = regs * cfg->grf_bytes_per_reg / width;
        o->presched_gain_bytes = (5 * cfg->grf_bytes_per_reg + width - 1) / width;
    }
    o->scalar_broadcast = cfg->scalar_broadcast;
    /* SGEMU_PAYLOAD=0: a vector store's components are never held twice (A/B) */
    const char *pl = getenv("SGEMU_PAYLOAD");
    o->payload_fold_distance = pl && strcmp(pl, "0") == 0 ? 0 : cfg->payload_fold_distance;
    o->payload_copy_width = pl && strcmp(pl, "0") == 0 ? 0 : cfg->payload_copy_width;
    o->buffer_offset_bytes = cfg->buffer_offset_bytes;
    o->remat_live_sources = cfg->remat_live_sources;
    o->shuffle2_temps = cfg->shuffle2_temps;
}

/* Allocate the registers of a kernel whose registers are values for this
 * launch's width: the live set must fit what the config's GRF holds at
 * that width (docs/regalloc.md); run->k becomes the allocated copy. */
static int allocate(emu_run *run, isa_kernel *out)
{
    isa_ra_opts o;
    isa_math_temps mt;
    emu_ra_opts(run->cfg, run->width, &o, &mt);
    isa_diags d;
    memset(&d, 0, sizeof d);
    int errs = isa_regalloc(run->k, &o, out, &run->stats->regalloc, &d);
    if (errs) {
        snprintf(run->fault->msg, sizeof run->fault->msg, "kernel '%s': %s", run->k->name,
                 d.count ? d.items[0].msg : "register allocation failed");
        isa_diags_free(&d);
        return run->fault->code = SGEMU_EXIT_INTERNAL;
    }
    isa_diags_free(&d);
    run->stats->regalloc_done = true;
    run->k = out;
    return 0;
}

/* A work-group must be resident on one compute unit (thread slots, shared
 * register file), timed or not: the same launches run either way. */
static int check_fit(emu_run *run)
{
    sgemu_timing *t = calloc(1, sizeof *t);
    if (!t) {
        user_error(run->fault, "out of host memory setting up the run");
        return run->fault->code = SGEMU_EXIT_INTERNAL;
    }
    const uint32_t items = (uint32_t)(run->local[0] * run->local[1] * run->local[2]);
    tm_occupancy(run->cfg, run->k, run->width, items, run->local_total, run->wg_total, t);
    char msg[512] = "";
    int rc = tm_check_fit(run->cfg, t, run->width, items, msg, sizeof msg);
    free(t);
    if (rc)
        return user_error(run->fault, "%s", msg);
    return 0;
}

/* Host memory of one work-group's state is capped: a huge .private_mem or
 * local size is a mistake in the kernel or config (a user error, code 1),
 * not an "out of host memory" (code 3) after a giant calloc. */
#define EMU_MAX_WG_BYTES (1ull << 30)

/* The engine's memory per copy of the work-group state (alloc_pools), times
 * the copies alive at once: one per host thread, or, in the timing model,
 * one per resident work-group.  Trace records grow as the kernel runs and
 * are not counted here. */
static int check_memory(emu_run *run)
{
    uint64_t items = run->local[0] * run->local[1] * run->local[2];
    /* NOLINTNEXTLINE(clang-analyzer-core.DivideZero): check_launch set width to 1..64 */
    uint64_t nsg = (items + run->width - 1) / run->width;
    uint64_t priv = items * run->k->private_mem;
    uint64_t regs = nsg * ((uint64_t)(run->k->nreg ? run->k->nreg : 1) * run->width * 8 +
                           (uint64_t)(run->k->npred ? run->k->npred : 1) * 8 +
                           sizeof(emu_sg) + 64 * 12);
    uint64_t per_wg = priv + run->local_total + regs + nsg * 16 * 8 * 4 + 4096;
    if (per_wg > EMU_MAX_WG_BYTES)
        return user_error(run->fault, "kernel '%s' needs %llu bytes of host memory per "
                          "work-group (private %llu x %llu work-items, local %u, register "
                          "files %llu): more than sgemu's limit of %llu",
                          run->k->name, (unsigned long long)per_wg,
                          (unsigned long long)run->k->private_mem,
                          (unsigned long long)items, run->local_total,
                          (unsigned long long)regs, (unsigned long long)EMU_MAX_WG_BYTES);
    uint64_t max = run->launch->max_memory;
    if (!max)
        return 0;
    uint64_t copies = 1;
    if (run->launch->timing || run->launch->record_path) {
        copies = (uint64_t)(run->cfg->compute_units ? run->cfg->compute_units : 1) *
                 (run->cfg->threads_per_cu ? run->cfg->threads_per_cu : 1) /
                 (nsg ? nsg : 1);
    } else if (run->launch->threads) {
        copies = run->launch->threads;
    } else {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        copies = n > 0 ? (uint64_t)n : 1;
    }
    if (copies > run->wg_total)
        copies = run->wg_total;
    if (!copies)
        copies = 1;
    if (per_wg > max / copies) {
        unsigned long long total = copies > UINT64_MAX / per_wg ? UINT64_MAX : per_wg * copies;
        return user_error(run->fault, "kernel '%s' needs about %llu bytes of host memory "
                          "(%llu per work-group x %llu at once: private, local, register "
                          "files), more than the --max-memory limit of %llu bytes left",
                          run->k->name, total,
                          (unsigned long long)per_wg, (unsigned long long)copies,
                          (unsigned long long)max);
    }
    return 0;
}

static int alloc_pools(emu_run *run)
{
    uint64_t items = run->local[0] * run->local[1] * run->local[2];
    /* NOLINTNEXTLINE(clang-analyzer-core.DivideZero): check_launch set width to 1..64 */
    uint32_t nsg = (uint32_t)((items + run->width - 1) / run->width);
    run->sg_pool = calloc(nsg, sizeof *run->sg_pool);
    run->local_pool = calloc(1, run->local_total ? run->local_total : 1);
    run->private_pool = calloc(1, items * run->k->private_mem + 1);
    run->coll_scratch_bytes = nsg * 16 * 8 * 4 + 4096;
    run->coll_scratch = calloc(1, run->coll_scratch_bytes);
    run->coll_shapes = calloc(1, sizeof *run->coll_shapes);
    if (!run->sg_pool || !run->local_pool || !run->private_pool || !run->coll_scratch ||
        !run->coll_shapes)
        return -1;
    run->sg_pool_n = nsg;
    if (emu_decode(&run->dp, run->k, run->width, run->arg_values) != 0)
        return -1;
    for (uint32_t i = 0; i < nsg; i++) {
        if (lanes_sg_init(&run->sg_pool[i].l, run->width, run->width,
                          run->k->nreg, run->k->npred) != 0)
            return -1;
    }
    return 0;
}

static void free_pools(emu_run *run)
{
    for (uint32_t i = 0; i < run->sg_pool_n; i++)
        lanes_sg_free(&run->sg_pool[i].l);
    free(run->sg_pool);
    free(run->local_pool);
    free(run->private_pool);
    free(run->coll_scratch);
    free(run->coll_shapes);
    emu_decode_free(&run->dp);
}

/* The hidden data-block arguments of a run and the copies it owns. */
typedef struct prog_data {
    sgemu_argval *own;     /* the argument list with the blocks bound */
    uint8_t *gcopy;        /* engine-owned .global_data copy, or NULL */
    uint8_t *ccopy;        /* .const_data copy when relocations patch it */
    uint8_t *pbuf;         /* IGC's printf buffer (isa.h printf_arg), or NULL */
} prog_data;

static void free_program_data(prog_data *pd)
{
    free(pd->own);
    free(pd->gcopy);
    free(pd->ccopy);
    free(pd->pbuf);
    memset(pd, 0, sizeof *pd);
}

/* Bind .const_data read-only (the kernel's own bytes, or a patched copy when
 * .data_reloc entries point from it) and .global_data to a fresh copy of
 * its initial bytes: every launch starts from the same state and the
 * kernel's bytes are never written (unless `live`: the caller's buffer
 * holds the program's variables from an earlier launch and is bound as
 * it is, sgemu_launch.globals_live).  A caller that bound a buffer of at
 * least the block's size to the global block gets the copy made in it and
 * sees the final bytes after the run (`sgemu run --out VAR`); otherwise the
 * engine owns the copy.  Relocations write block base + addend: the buffer
 * addresses bind_args gives the arguments (emu_buffer_base). */
static int bind_program_data(const isa_kernel *k, sgemu_argval **args, bool live,
                             prog_data *pd)
{
    memset(pd, 0, sizeof *pd);
    bool has_c = k->const_arg && k->const_arg <= k->narg;
    bool has_g = k->global_arg && k->global_arg <= k->narg;
    const uint32_t parg = emu_gen_printf_arg(k);
    bool has_p = parg && parg <= k->narg;
    if (!has_c && !has_g && !has_p)
        return 0;
    pd->own = malloc(k->narg * sizeof *pd->own);
    if (!pd->own)
        return -1;
    if (*args)
        memcpy(pd->own, *args, k->narg * sizeof *pd->own);
    else                       /* a kernel whose only arguments are hidden ones */
        memset(pd->own, 0, k->narg * sizeof *pd->own);
    bool patch_c = false;
    for (uint32_t i = 0; i < k->nreloc && has_c; i++)
        patch_c |= k->relocs[i].arg == k->const_arg - 1;
    if (has_c) {
        sgemu_argval *cv = &pd->own[k->const_arg - 1];
        memset(cv, 0, sizeof *cv);
        cv->kind = SGEMU_VAL_BUFFER;
        cv->data = k->const_data;
        cv->bytes = k->const_bytes;
        if (patch_c) {
            pd->ccopy = malloc(k->const_bytes ? k->const_bytes : 1);
            if (!pd->ccopy)
                goto fail;
            memcpy(pd->ccopy, k->const_data, k->const_bytes);
            cv->data = pd->ccopy;
        }
    }
    if (has_g) {
        sgemu_argval *gv = &pd->own[k->global_arg - 1];
        uint8_t *dst = gv->kind == SGEMU_VAL_BUFFER && gv->data && gv->bytes >= k->global_bytes
                     ? gv->data : NULL;
        live = live && dst;
        if (!dst && !(dst = pd->gcopy = malloc(k->global_bytes ? k->global_bytes : 1)))
            goto fail;
        memset(gv, 0, sizeof *gv);
        gv->kind = SGEMU_VAL_BUFFER;
        gv->data = dst;
        gv->bytes = k->global_bytes;
        if (k->global_bytes && !live)
            memcpy(dst, k->global_data, k->global_bytes);
    }
    if (has_p) {
        /* IGC's code checks its records against the size it was built
         * for; the first word counts the bytes taken, itself included */
        if (!(pd->pbuf = calloc(1, EMU_IGC_PRINTF_BYTES)))
            goto fail;
        pd->pbuf[0] = 4;
        sgemu_argval *pv = &pd->own[parg - 1];
        memset(pv, 0, sizeof *pv);
        pv->kind = SGEMU_VAL_BUFFER;
        pv->data = pd->pbuf;
        pv->bytes = EMU_IGC_PRINTF_BYTES;
    }
    for (uint32_t i = 0; i < k->nreloc; i++) {
        const isa_reloc *r = &k->relocs[i];
        sgemu_argval *hv = r->arg < k->narg ? &pd->own[r->arg] : NULL;
        /* isa_validate keeps only relocations inside their blocks */
        if (!hv || (r->arg != k->global_arg - 1 && r->arg != k->const_arg - 1) ||
            (uint64_t)r->offset + 8 > hv->bytes || (live && r->arg == k->global_arg - 1))
            continue;
        uint64_t a = emu_buffer_base(r->target) + (uint64_t)r->addend;
        for (int b = 0; b < 8; b++)      /* sgemu memory is little-endian */
            hv->data[r->offset + (uint32_t)b] = (uint8_t)(a >> (8 * b));
    }
    *args = pd->own;
    return 0;
fail:
    free_program_data(pd);
    return -1;
}

emu_host_mark emu_host_now(void)
{
    struct timespec w, c;
    clock_gettime(CLOCK_MONOTONIC, &w);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c);
    return (emu_host_mark){ (double)w.tv_sec + 1e-9 * (double)w.tv_nsec,
                            (double)c.tv_sec + 1e-9 * (double)c.tv_nsec };
}

void emu_host_since(emu_host_mark t0, sgemu_stats *stats)
{
    emu_host_mark t1 = emu_host_now();
    stats->host_wall_s = t1.wall_s - t0.wall_s;
    stats->host_cpu_s = t1.cpu_s - t0.cpu_s;
}

static int run_launch(const isa_kernel *k, const emu_config *cfg,
                      const sgemu_launch *launch, sgemu_argval *args,
                      sgemu_stats *stats, sgemu_fault *fault);

int sgemu_run(const isa_kernel *k, const emu_config *cfg,
              const sgemu_launch *launch, sgemu_argval *args,
              sgemu_stats *stats, sgemu_fault *fault)
{
    emu_host_mark t0 = emu_host_now();
    int rc = run_launch(k, cfg, launch, args, stats, fault);
    emu_host_since(t0, stats);
    return rc;
}

static int run_launch(const isa_kernel *k, const emu_config *cfg,
                      const sgemu_launch *launch, sgemu_argval *args,
                      sgemu_stats *stats, sgemu_fault *fault)
{
    memset(stats, 0, sizeof *stats);
    memset(fault, 0, sizeof *fault);
    emu_run run;
    memset(&run, 0, sizeof run);
    run.k = k;
    run.cfg = cfg;
    run.launch = launch;
    run.stats = stats;
    run.fault = fault;
    /* .const_data / .global_data: hidden arguments, bound in a copy of the
     * argument list (the caller's list stays as given) */
    prog_data pd;
    if (bind_program_data(k, &args, launch->globals_live, &pd) != 0) {
        user_error(fault, "out of host memory setting up the run");
        return fault->code = SGEMU_EXIT_INTERNAL;
    }
    run.args = args;
    isa_kernel ak;     /* the kernel allocated for this launch's width */
    bool allocated = false;
    int rc = check_launch(&run) ? fault->code : 0;
    if (!rc && k->regalloc == ISA_RA_VALUES && sgemu_regalloc_enabled()) {
        rc = allocate(&run, &ak);
        allocated = !rc;
    } else if (!rc && k->nreg > ISA_MAX_REGS) {
        rc = user_error(fault, "kernel '%s' has %u value registers; unallocated "
                        "(SGEMU_REGALLOC=0) a kernel runs with at most %d", k->name, k->nreg,
                        ISA_MAX_REGS);
    } else {
        /* registers as given: the demand is every register's widest use */
        isa_ra_stats *ra = &stats->regalloc;
        ra->regs_before = ra->regs_after = k->nreg;
        ra->preds_before = ra->preds_after = k->npred;
        ra->bytes_before = ra->live_bytes_before = ra->live_bytes = k->grf_bytes_per_lane;
    }
    if (!rc)
        rc = bind_args(&run) || check_memory(&run) || check_fit(&run) ? fault->code : 0;
    if (rc) {
        if (allocated)
            isa_regalloc_free(&ak);
        free_program_data(&pd);
        return rc;
    }
    if (sgemu_stop_requested()) {
        fault->code = SGEMU_EXIT_INTERRUPTED;
        snprintf(fault->msg, sizeof fault->msg, "kernel '%s': interrupted before it started",
                 k->name);
        free_program_data(&pd);
        return fault->code;
    }

    run.lenv.user = &run;
    run.lenv.arg_values = run.arg_values;
    run.lenv.special = special_values;
    run.copt = cfg->coll;
    run.copt.check = launch->check;
    run.copt.undef = (launch->detect & SGEMU_DETECT_UNINIT) != 0;
    run.cmem = (coll_memory){ &run, coll_read, coll_write, coll_image_info };

    stats->sg_width = run.width;
    stats->dims = run.dims;
    for (int d = 0; d < 3; d++) {
        stats->global[d] = run.global[d];
        stats->local[d] = run.local[d];
    }
    stats->work_groups = run.wg_total;
    if (launch->progress)
        atomic_store_explicit(&launch->progress[1], run.wg_total, memory_order_relaxed);
    stats->work_items = run.global[0] * run.global[1] * run.global[2];

    if (alloc_pools(&run) != 0 || (launch->detect && emu_detect_init(&run) != 0) ||
        emu_printf_init(&run) != 0) {
        user_error(fault, "out of host memory setting up the run");   /* the message */
        fault->code = rc = SGEMU_EXIT_INTERNAL;
    }
    if (!rc && k->gen)
        rc = emu_gen_run(&run);       /* Intel Gen ISA (emu/gen/) */
    else if (!rc && launch->record_path)
        rc = emu_record_run(&run);    /* docs/trace-format.md; times it too */
    else if (!rc && launch->timing)
        rc = emu_timing_run(&run);    /* the timing model owns the loop */
    else if (!rc)
        rc = emu_run_workgroups(&run);   /* functional: on launch->threads threads */
    emu_detect_stats(&run, stats);
    emu_detect_free(&run);
    /* what printed up to a fault is kept: it helps find the fault */
    if (rc != SGEMU_EXIT_INTERNAL && emu_printf_finish(&run, stats) != 0) {
        user_error(fault, "out of host memory formatting the printf output");
        fault->code = rc = SGEMU_EXIT_INTERNAL;
    }
    emu_printf_free(&run);
    free_pools(&run);
    free_program_data(&pd);
    if (allocated)
        isa_regalloc_free(&ak);
    return rc;
}
