/* detect.c - the detectors of the functional engine (detect.h,
 * docs/cli.md "Detectors").
 *
 * Races.  Two accesses to one byte by different work-items, at least one a
 * write and not both atomic, race unless something orders them.  In local
 * memory and within one work-group in global memory, a work-group barrier
 * whose fence flags name the space orders every pair; a sub_group_barrier
 * with that fence orders the pairs of its own sub-group.  Nothing orders
 * global accesses of two work-groups (OpenCL 1.x memory model: "no
 * guarantees of memory consistency between different work-groups") but
 * both being atomic.
 *
 * Each access keeps the counts of those orderings at the time it ran: the
 * fenced work-group barriers of its space (`fint`) and all of them
 * (`aint`), its sub-group's fenced and all sub-group barriers.  The
 * counters grow over the whole launch (a work-group start counts as a
 * barrier), so two accesses of one work-group are ordered when their
 * `fint`s differ.  A pair ordered only by a barrier without the space's
 * fence is a race reported with a "missing fence flag" note.
 *
 * Accesses keep, instead of those counts, the serial of their sub-group's
 * epoch: an interval without a barrier, whose counts (det_epoch) live in
 * a table of the space that a work-group start or a fenced work-group
 * barrier empties.  A serial no longer in the table is an access ordered
 * before every later one of its work-group (its `fint` differs).  The
 * table holds one entry per sub-group and barrier interval of the
 * running work-group that accessed the space.
 *
 * Atomics with release and acquire semantics (and fences around relaxed
 * ones) order too: the launch runs in one order, so an acquire that
 * reads what a release (or its release sequence) wrote orders every
 * access that ran before the release, by any work-item, before the
 * acquirer's later ones.  A release ends every sub-group's epoch, so
 * those accesses have lower epoch serials than any later one; the
 * location keeps the serials (det_sync) and the acquirer the highest it
 * took (det_order.acq).
 *
 * Images share the global shadow and ordering: an image's rows are its
 * argument's bytes there.
 *
 * Shadow: per cell, the last writer and two readers (the first reader and
 * the latest other one), so a write racing with reads of two or more
 * work-items finds one of them.  Local memory has one cell per byte of
 * the work-group's local memory.  Global buffers have one per 4-byte word
 * (each access keeps which of its bytes it touched: two accesses conflict
 * only where their bytes meet), in pages of DET_PAGE bytes of buffer whose
 * writer and reader arrays are each allocated zeroed (empty) when first
 * written, up to DET_GLOBAL_CAP bytes of shadow per launch; accesses past
 * that are counted as unchecked.  A word's cell keeps one writer:
 * work-items writing neighbouring bytes of one word can hide an earlier
 * writer (a race missed, never one made up).
 *
 * Uninitialised reads.  One flag per local byte, set by every store,
 * atomic or block write of the work-group, and one per byte of each
 * work-item's private memory (its arrays and the register allocator's
 * spill slots), set by its stores; a load or atomic of a byte without it
 * is reported.
 *
 * Undefined collective results (with --uninitialized, in kernels with a
 * cross-lane instruction).  A collective's undefined result (a shuffle
 * index out of range, a broadcast from a missing lane: the --check notes)
 * taints its destination lanes; every instruction passes the taint of its
 * sources to its destination, lane by lane (a select only from the source
 * it picks), and clears it where it writes a defined value (loads,
 * collectives).  A tainted lane that gives a memory access its address or
 * stored value, or a branch its condition, is a use and is reported.
 */
#include "detect.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ATOMIC_BIT (1u << 31)      /* in det_acc.pc: an atomic access */
#define MASK_SHIFT 27              /* det_acc.pc bits 27-30: the bytes of the cell's
                                      word it touched (all four in local memory) */
#define BLOCK_BIT (1u << 26)       /* a sub-group block read or write */
#define PC_MASK (BLOCK_BIT - 1)
#define ALL_BYTES (0xfu << MASK_SHIFT)
#define DET_PAGE 4096u             /* global bytes per shadow page */
#define DET_WORDS (DET_PAGE / 4)
#define DET_RUN 8u                 /* words per run record (det_slot) */
#define DET_RUNS (DET_WORDS / DET_RUN)
#define DET_GLOBAL_CAP (1ull << 30) /* bytes of global shadow per launch */

/* An access as the shadow keeps it. */
typedef struct det_acc {
    uint32_t item;         /* linear local id + 1; 0: no access */
    uint32_t wg;           /* linear work-group id */
    uint32_t pc;           /* | byte mask << MASK_SHIFT | ATOMIC_BIT */
    uint32_t ep;           /* its sub-group's epoch (det_order) */
} det_acc;

/* The counts of one sub-group's barrier interval in one space. */
typedef struct det_epoch {
    uint32_t aint;         /* work-group barriers of the work-group so far */
    uint32_t fsg, asg;     /* the sub-group's fenced and all sub_group_barriers */
} det_epoch;

typedef struct det_cell {
    det_acc w, r[2];
} det_cell;

/* One of a global shadow page's writer, first reader and other reader
 * arrays: per run of DET_RUN words, the record of one sub-group access
 * that covered the run lane by lane (`item` is the first word's
 * work-item, item + j the j-th's), or item 0: then the records are per
 * word in `word`.  Either is NULL (empty) until first written. */
typedef struct det_slot {
    det_acc *run;
    det_acc *word;
} det_slot;

/* The shadow of DET_WORDS words of a global buffer. */
typedef struct det_gpage {
    det_slot slot[3];
} det_gpage;

/* A pair of lines already reported (each pair once). */
typedef struct det_pair {
    uint32_t pc_a, pc_b, kind;
} det_pair;

#define MAX_PAIRS 256

/* Ordering counters of one address space (local, global). */
typedef struct det_order {
    uint32_t aint;         /* the running work-group's barriers (all) */
    uint32_t *fsg, *asg;   /* per sub-group */
    uint32_t *cur;         /* per sub-group: the serial of its epoch */
    det_epoch *ep;         /* the epochs since the last fenced barrier */
    uint32_t base, nep, cap;   /* the serial of ep[0], entries, allocated */
    uint32_t cut;          /* epochs below this serial end (a release): the
                              accesses after it get higher serials */
    uint32_t *acq;         /* per work-item of the running work-group: the
                              accesses with a lower epoch serial happened
                              before its later ones (what it acquired), or
                              NULL (no acquire or release in the kernel) */
} det_order;

/* A location that an atomic release (or a release fence before an atomic
 * write) made a synchronisation point: acquiring it orders the accesses
 * of the launch with an epoch serial below stamp[space] before the
 * acquirer's later ones (0: that space is not ordered). */
typedef struct det_sync {
    uint64_t key;          /* the address, | SYNC_LOCAL for local memory; 0: empty */
    uint32_t stamp[2];
    uint32_t wg, sg;       /* the releasing work-item's work-group and sub-group */
    uint32_t scope;        /* ISA_F_SCOPE_* of the release */
} det_sync;

/* What one work-item saw of releases: by relaxed atomic reads, for a
 * later acquire fence (any work-group's, its own work-group's), and the
 * release fence it passed, for its next atomic writes. */
typedef struct det_item {
    uint32_t obs[2], obs_wg[2], pend[2];
    uint32_t pend_scope;
} det_item;

#define SYNC_LOCAL (1ull << 63)

enum { SP_LOCAL, SP_GLOBAL, SP_PRIVATE };

struct emu_detect {
    uint32_t bytes;
    det_cell *cell;        /* races: one per local byte */
    uint8_t *init;         /* uninitialized: one flag per local byte */
    uint8_t *pinit;        /* uninitialized: one flag per private byte of the
                              work-group's work-items, or NULL */
    size_t pbytes;
    det_gpage **gpage;     /* races: per argument, its shadow pages (or NULL) */
    emu_dinst *decoded;    /* the decoded program as it was before marking */
    uint64_t gshadow;      /* bytes of global shadow allocated */
    bool gcap_noted;
    det_order ord[2];
    det_sync *sync;        /* the release/acquire map (open addressing), or NULL */
    uint32_t sync_cap, sync_n;
    det_item *items;       /* per work-item of the work-group, with sync */
    uint32_t nsg;
    uint32_t wg;           /* the running work-group's linear id */
    det_pair pairs[MAX_PAIRS];
    uint32_t npairs;
    uint64_t race_checked, race_global, race_unchecked, races;
    uint64_t uninit_checked, uninit_private, uninit_reads;
    /* undefined collective results: per sub-group, a mask of tainted lanes
     * per register and predicate, and the collective each taint came from */
    lanes_mask *utaint, *ptaint;
    struct det_origin *uorig, *porig;
    uint32_t nreg, npred;
    uint64_t undef_checked, undef_uses;
};

/* Where a tainted value came from: the collective and why. */
typedef struct det_origin {
    uint32_t pc, lane, status;
    int64_t value;
} det_origin;

/* The arguments with a global shadow: buffers, and images (their rows,
 * pitch bytes each: an image element is checked as the bytes it has in
 * them, in the global space's ordering). */
static bool global_arg(const isa_kernel *k, const sgemu_argval *v, uint32_t i)
{
    return (k->args[i].kind == ISA_ARG_GLOBAL && v[i].kind == SGEMU_VAL_BUFFER) ||
           (k->args[i].kind == ISA_ARG_IMAGE2D && v[i].kind == SGEMU_VAL_IMAGE);
}

/* Whether an instruction writes image argument i: an image no work-item
 * writes (a read_only one) races with nothing, and gets no shadow. */
static bool image_written(const isa_kernel *k, uint32_t i)
{
    for (uint32_t j = 0; j < k->ninst; j++)
        if (isa_ops[k->inst[j].op].family == ISA_FAM_IMG_WRITE &&
            k->inst[j].o[0].kind == ISA_OPND_ARG && k->inst[j].o[0].reg == i)
            return true;
    return false;
}

static uint64_t shadow_bytes(const emu_run *run, uint64_t i)
{
    const sgemu_argval *v = &run->args[i];
    return v->kind == SGEMU_VAL_IMAGE ? (uint64_t)v->image.pitch * v->image.height : v->bytes;
}

int emu_detect_init(emu_run *run)
{
    emu_detect *d = calloc(1, sizeof *d);
    if (!d)
        return -1;
    run->det = d;
    const bool races = run->launch->detect & SGEMU_DETECT_RACES;
    d->bytes = run->local_total;
    const size_t n = d->bytes ? d->bytes : 1;
    if (races)
        d->cell = calloc(n, sizeof *d->cell);
    if (run->launch->detect & SGEMU_DETECT_UNINIT)
        d->init = calloc(n, 1);
    d->nsg = run->sg_pool_n;
    const size_t nsg = d->nsg ? d->nsg : 1;
    if (run->launch->detect & SGEMU_DETECT_UNINIT && run->k->private_mem) {
        d->pbytes = (size_t)d->nsg * run->width * run->k->private_mem;
        d->pinit = calloc(d->pbytes ? d->pbytes : 1, 1);
        if (!d->pinit)
            return -1;
    }
    bool ok = !(races && !d->cell) && !(run->launch->detect & SGEMU_DETECT_UNINIT && !d->init);
    for (int s = 0; s < 2; s++) {
        d->ord[s].fsg = calloc(nsg, sizeof(uint32_t));
        d->ord[s].asg = calloc(nsg, sizeof(uint32_t));
        d->ord[s].cur = calloc(nsg, sizeof(uint32_t));
        d->ord[s].cap = 64;     /* grown by epoch_now, never empty */
        d->ord[s].ep = malloc(d->ord[s].cap * sizeof *d->ord[s].ep);
        ok = ok && d->ord[s].fsg && d->ord[s].asg && d->ord[s].cur && d->ord[s].ep;
    }
    const isa_kernel *k = run->k;
    if (races && k->narg) {
        /* NOLINTNEXTLINE(bugprone-sizeof-expression): per argument, its page table */
        d->gpage = calloc(k->narg, sizeof *d->gpage);
        ok = ok && d->gpage;
        for (uint32_t i = 0; ok && i < k->narg; i++) {
            if (!global_arg(k, run->args, i) ||
                (run->args[i].kind == SGEMU_VAL_IMAGE && !image_written(k, i)))
                continue;
            const size_t np = (shadow_bytes(run, i) + DET_PAGE - 1) / DET_PAGE;
            d->gpage[i] = calloc(np ? np : 1, sizeof(det_gpage));
            ok = d->gpage[i] != NULL;
        }
    }
    bool sync = false;
    for (uint32_t i = 0; i < k->ninst; i++)
        sync = sync || (k->inst[i].flags & (ISA_F_ACQUIRE | ISA_F_RELEASE));
    if (ok && races && sync) {
        const size_t items = nsg * run->width;
        d->sync_cap = 64;
        d->sync = calloc(d->sync_cap, sizeof *d->sync);
        d->items = calloc(items, sizeof *d->items);
        for (int s = 0; s < 2; s++)
            ok = ok && (d->ord[s].acq = calloc(items, sizeof(uint32_t)));
        ok = ok && d->sync && d->items;
    }
    if (!ok)
        return -1;
    bool xlane = false;
    for (uint32_t i = 0; i < k->ninst; i++)
        xlane = xlane || isa_op_cross_lane(k->inst[i].op);
    if (run->launch->detect & SGEMU_DETECT_UNINIT && xlane && d->nsg) {
        d->nreg = run->sg_pool[0].l.nreg;
        d->npred = run->sg_pool[0].l.npred;
        const size_t nr = (size_t)d->nsg * (d->nreg ? d->nreg : 1);
        const size_t np = (size_t)d->nsg * (d->npred ? d->npred : 1);
        d->utaint = calloc(nr, sizeof *d->utaint);
        d->ptaint = calloc(np, sizeof *d->ptaint);
        d->uorig = calloc(nr, sizeof *d->uorig);
        d->porig = calloc(np, sizeof *d->porig);
        if (!d->utaint || !d->ptaint || !d->uorig || !d->porig)
            return -1;
    }
    /* the instructions to check leave the decoded fast paths (all of them
     * when undefined results are followed); a load, store or atomic runs
     * its own decoded form after the check (exec.c) */
    d->decoded = malloc((k->ninst ? k->ninst : 1) * sizeof *d->decoded);
    if (!d->decoded)
        return -1;
    if (k->ninst)
        memcpy(d->decoded, run->dp.d, k->ninst * sizeof *d->decoded);
    for (uint32_t i = 0; i < k->ninst; i++) {
        const isa_inst *in = &k->inst[i];
        const isa_family f = isa_ops[in->op].family;
        const bool mem = f == ISA_FAM_LD || f == ISA_FAM_ST || f == ISA_FAM_ATOM ||
                         f == ISA_FAM_BLOCK_READ || f == ISA_FAM_BLOCK_WRITE;
        if ((mem && in->space == ISA_SPACE_LOCAL) ||
            (mem && races && in->space == ISA_SPACE_GLOBAL) ||
            (mem && d->pinit && in->space == ISA_SPACE_PRIVATE) || in->op == ISA_OP_SG_BARRIER ||
            (d->sync && in->op == ISA_OP_NOP && (in->flags & (ISA_F_ACQUIRE | ISA_F_RELEASE))) ||
            (races && (f == ISA_FAM_IMG_READ || f == ISA_FAM_IMG_WRITE) &&
             isa_ops[in->op].shape != ISA_SHAPE_IMG_SMP) ||
            d->utaint)
            run->dp.d[i].kind = EMU_D_DETECT;
    }
    return 0;
}

void emu_detect_free(emu_run *run)
{
    emu_detect *d = run->det;
    if (!d)
        return;
    if (d->gpage) {
        for (uint32_t i = 0; i < run->k->narg; i++) {
            if (!d->gpage[i])
                continue;
            const size_t np = (shadow_bytes(run, i) + DET_PAGE - 1) / DET_PAGE;
            for (size_t p = 0; p < np; p++)
                for (int a = 0; a < 3; a++) {
                    free(d->gpage[i][p].slot[a].run);
                    free(d->gpage[i][p].slot[a].word);
                }
            free(d->gpage[i]);
        }
        free(d->gpage);
    }
    for (int s = 0; s < 2; s++) {
        free(d->ord[s].fsg);
        free(d->ord[s].asg);
        free(d->ord[s].cur);
        free(d->ord[s].ep);
        free(d->ord[s].acq);
    }
    free(d->decoded);
    free(d->sync);
    free(d->items);
    free(d->cell);
    free(d->init);
    free(d->pinit);
    free(d->utaint);
    free(d->ptaint);
    free(d->uorig);
    free(d->porig);
    free(d);
    run->det = NULL;
}

void emu_detect_wg_start(emu_run *run, uint64_t wg_linear)
{
    emu_detect *d = run->det;
    d->wg = (uint32_t)wg_linear;
    for (int s = 0; s < 2; s++) {
        d->ord[s].base += d->ord[s].nep;   /* every epoch ends */
        d->ord[s].nep = 0;
        d->ord[s].aint = 0;
        memset(d->ord[s].fsg, 0, (size_t)d->nsg * sizeof(uint32_t));
        memset(d->ord[s].asg, 0, (size_t)d->nsg * sizeof(uint32_t));
        if (d->ord[s].acq)
            memset(d->ord[s].acq, 0, (size_t)d->nsg * run->width * sizeof(uint32_t));
    }
    if (d->items)
        memset(d->items, 0, (size_t)d->nsg * run->width * sizeof *d->items);
    if (d->init)
        memset(d->init, 0, d->bytes);
    if (d->pinit)
        memset(d->pinit, 0, d->pbytes);
    if (d->utaint) {
        memset(d->utaint, 0, (size_t)d->nsg * (d->nreg ? d->nreg : 1) * sizeof *d->utaint);
        memset(d->ptaint, 0, (size_t)d->nsg * (d->npred ? d->npred : 1) * sizeof *d->ptaint);
    }
}

/* The fence flags of a barrier as the spaces it orders: a barrier
 * without any (the .sgasm `barrier` of before fence flags) orders both. */
static bool fences(const isa_inst *in, int space)
{
    const unsigned all = ISA_F_FENCE_LOCAL | ISA_F_FENCE_GLOBAL | ISA_F_FENCE_IMAGE;
    if (!(in->flags & all))
        return true;
    return in->flags & (space == SP_LOCAL ? ISA_F_FENCE_LOCAL
                                          : ISA_F_FENCE_GLOBAL | ISA_F_FENCE_IMAGE);
}

void emu_detect_wg_barrier(emu_run *run, uint32_t pc)
{
    const isa_inst *in = &run->k->inst[pc];
    if (in->op != ISA_OP_BARRIER)
        return;
    for (int s = 0; s < 2; s++) {
        det_order *o = &run->det->ord[s];
        o->aint++;
        if (fences(in, s)) {
            o->base += o->nep;    /* the accesses before are ordered */
            o->nep = 0;
        }
    }
}

void emu_detect_block_write(emu_run *run, uint64_t addr, uint32_t n)
{
    emu_detect *d = run->det;
    if (d->init && addr <= d->bytes && n <= d->bytes - addr)
        memset(d->init + addr, 1, n);
}

const emu_dinst *emu_detect_decoded(const emu_run *run, uint32_t pc)
{
    return &run->det->decoded[pc];
}

void emu_detect_stats(const emu_run *run, sgemu_stats *stats)
{
    const emu_detect *d = run->det;
    if (!d)
        return;
    stats->race_checked = d->race_checked;
    stats->race_global_checked = d->race_global;
    stats->race_unchecked = d->race_unchecked;
    stats->races = d->races;
    stats->uninit_checked = d->uninit_checked;
    stats->uninit_private_checked = d->uninit_private;
    stats->undef_checked = d->undef_checked;
    stats->undef_uses = d->undef_uses;
    stats->uninit_reads = d->uninit_reads;
}

/* ------------------------------------------------------------ reports */

/* What local address a is: a local argument's bytes or the kernel's
 * static __local data. */
static void describe_local(const emu_run *run, uint64_t a, char *buf, size_t n)
{
    const isa_kernel *k = run->k;
    for (uint32_t i = 0; i < k->narg; i++) {
        if (k->args[i].kind != ISA_ARG_LOCAL)
            continue;
        const uint64_t lo = run->local_arg_offset[i];
        if (a >= lo && a - lo < run->args[i].bytes) {
            snprintf(buf, n, "local address 0x%" PRIx64 " (argument '%s', offset %" PRIu64 ")",
                     a, k->args[i].name, a - lo);
            return;
        }
    }
    if (a < k->local_mem)
        snprintf(buf, n, "local address 0x%" PRIx64 " (the kernel's __local variables, "
                 "offset %" PRIu64 ")", a, a);
    else
        snprintf(buf, n, "local address 0x%" PRIx64, a);
}

static void describe_global(const emu_run *run, uint64_t a, char *buf, size_t n)
{
    const uint64_t i = (a >> EMU_BUF_SHIFT) - 1, off = a & EMU_BUF_OFFSET_MASK;
    const sgemu_image *im = &run->args[i].image;
    if (run->args[i].kind == SGEMU_VAL_IMAGE && im->pitch && im->elem_bytes)
        snprintf(buf, n, "image '%s' element (%" PRIu64 ",%" PRIu64 ")", run->k->args[i].name,
                 off % im->pitch / im->elem_bytes, off / im->pitch);
    else
        snprintf(buf, n, "address 0x%" PRIx64 " (buffer '%s', offset %" PRIu64 ")", a,
                 run->k->args[i].name, off);
}

static const char *acc_kind(const isa_inst *in)
{
    switch (isa_ops[in->op].family) {
    case ISA_FAM_LD: return in->flags & ISA_F_ATOMIC ? "atomic load" : "load";
    case ISA_FAM_ST: return in->flags & ISA_F_ATOMIC ? "atomic store" : "store";
    case ISA_FAM_BLOCK_READ: return "block read";
    case ISA_FAM_BLOCK_WRITE: return "block write";
    case ISA_FAM_IMG_READ: return isa_op_block_io(in->op) ? "image block read" : "image read";
    case ISA_FAM_IMG_WRITE: return isa_op_block_io(in->op) ? "image block write" : "image write";
    default:         return "atomic";
    }
}

/* The group coordinates and local size of work-group wg. */
static void group_of(const emu_run *run, uint32_t wg, uint64_t g[3], uint64_t size[3])
{
    g[0] = wg % run->num_groups[0];
    g[1] = (wg / run->num_groups[0]) % run->num_groups[1];
    g[2] = wg / (run->num_groups[0] * run->num_groups[1]);
    for (int d = 0; d < 3; d++) {
        const uint64_t left = run->global[d] - g[d] * run->local[d];
        size[d] = left < run->local[d] ? left : run->local[d];
    }
}

/* "work-item local (x,y,z) global (x,y,z) sub-group s lane l" of item of
 * work-group wg */
static void describe_item(const emu_run *run, uint32_t wg, uint32_t item, char *buf, size_t n)
{
    const uint32_t S = run->width;
    uint64_t g[3], size[3], lid[3], gid[3];
    group_of(run, wg, g, size);
    lid[0] = item % size[0];
    lid[1] = (item / size[0]) % size[1];
    lid[2] = item / (size[0] * size[1]);
    for (int d = 0; d < 3; d++)
        gid[d] = g[d] * run->local[d] + lid[d] + run->offset[d];
    snprintf(buf, n, "work-item local (%llu,%llu,%llu) global (%llu,%llu,%llu) "
             "sub-group %u lane %u",
             (unsigned long long)lid[0], (unsigned long long)lid[1],
             (unsigned long long)lid[2], (unsigned long long)gid[0],
             (unsigned long long)gid[1], (unsigned long long)gid[2], item / S, item % S);
}

/* Kinds of finding; a race's `why` says what (not) ordered the pair. */
enum { KIND_RACE, KIND_LOCKSTEP, KIND_UNINIT, KIND_UNDEF };
enum { WHY_OTHER_SG, WHY_SAME_INST, WHY_NO_SG_BARRIER, WHY_FENCE_WG, WHY_FENCE_SG,
       WHY_OTHER_WG };

/* true the first time the pair (kind, pc_a, pc_b) is seen */
static bool first_time(emu_detect *d, uint32_t kind, uint32_t pc_a, uint32_t pc_b)
{
    for (uint32_t i = 0; i < d->npairs; i++)
        if (d->pairs[i].kind == kind && d->pairs[i].pc_a == pc_a && d->pairs[i].pc_b == pc_b)
            return false;
    if (d->npairs == MAX_PAIRS)
        return false;     /* enough to read: later pairs are counted only */
    d->pairs[d->npairs++] = (det_pair){ pc_a, pc_b, kind };
    return true;
}

static void report_race(emu_run *run, int space, int why, const det_acc *prev,
                        const det_acc *me, uint64_t addr)
{
    emu_detect *d = run->det;
    d->races++;
    const uint32_t kind = why == WHY_NO_SG_BARRIER ? KIND_LOCKSTEP : KIND_RACE;
    const uint32_t pc = me->pc & PC_MASK, ppc = prev->pc & PC_MASK;
    if (!first_time(d, kind, ppc, pc))
        return;
    FILE *f = emu_note_file();
    const isa_kernel *k = run->k;
    const isa_inst *in = &k->inst[pc], *pin = &k->inst[ppc];
    char where[192], who[160], pwho[160], whytext[160];
    if (space == SP_LOCAL)
        describe_local(run, addr, where, sizeof where);
    else
        describe_global(run, addr, where, sizeof where);
    describe_item(run, me->wg, me->item - 1, who, sizeof who);
    describe_item(run, prev->wg, prev->item - 1, pwho, sizeof pwho);
    const bool image = space == SP_GLOBAL &&
                       run->args[(addr >> EMU_BUF_SHIFT) - 1].kind == SGEMU_VAL_IMAGE;
    const char *flag = space == SP_LOCAL ? "CLK_LOCAL_MEM_FENCE"
                       : image ? "CLK_IMAGE_MEM_FENCE" : "CLK_GLOBAL_MEM_FENCE";
    switch (why) {
    case WHY_OTHER_SG:
        snprintf(whytext, sizeof whytext, "in another sub-group, no work-group barrier between");
        break;
    case WHY_SAME_INST:
        snprintf(whytext, sizeof whytext, "in the same sub-group and instruction");
        break;
    case WHY_NO_SG_BARRIER:
        snprintf(whytext, sizeof whytext, "in the same sub-group, no sub_group_barrier between");
        break;
    case WHY_FENCE_WG:
    case WHY_FENCE_SG:
        snprintf(whytext, sizeof whytext, "in %s sub-group; missing fence flag: the %s "
                 "between has no %s",
                 (prev->item - 1) / run->width == (me->item - 1) / run->width ? "the same"
                                                                               : "another",
                 why == WHY_FENCE_WG ? "barrier" : "sub_group_barrier", flag);
        break;
    default: {
        uint64_t g[3], size[3];
        group_of(run, prev->wg, g, size);
        snprintf(whytext, sizeof whytext, "in another work-group (%llu,%llu,%llu): only "
                 "atomics order work-groups", (unsigned long long)g[0],
                 (unsigned long long)g[1], (unsigned long long)g[2]);
        break;
    }
    }
    fprintf(f, "%s:%u: error: kernel '%s': %s on %s memory: %s at %s by %s\n"
               "%s:%u: note: conflicts with the %s by %s, %s\n",
            k->file, in->line, k->name,
            kind == KIND_LOCKSTEP ? "lockstep assumption" : "data race",
            space == SP_LOCAL ? "local" : image ? "image" : "global", acc_kind(in), where, who,
            k->file,
            pin->line, acc_kind(pin), pwho, whytext);
}

static void report_uninit(emu_run *run, int space, uint32_t item, uint32_t pc, uint64_t addr)
{
    emu_detect *d = run->det;
    d->uninit_reads++;
    if (!first_time(d, KIND_UNINIT, pc, pc))
        return;
    const isa_kernel *k = run->k;
    char where[192], who[160];
    if (space == SP_LOCAL)
        describe_local(run, addr, where, sizeof where);
    else
        snprintf(where, sizeof where, "private address 0x%" PRIx64, addr);
    describe_item(run, d->wg, item, who, sizeof who);
    fprintf(emu_note_file(), "%s:%u: error: kernel '%s': uninitialised %s memory: "
            "%s at %s by %s reads a byte %s\n", k->file, k->inst[pc].line, k->name,
            space == SP_LOCAL ? "local" : "private", acc_kind(&k->inst[pc]), where, who,
            space == SP_LOCAL ? "no work-item of its work-group wrote"
                              : "the work-item never wrote (a private variable or spill slot)");
}

/* ------------------------------------------------------------- checks */

/* Whether epoch serial ep is still in o's table: no work-group start nor
 * fenced work-group barrier of the space since the access. */
static inline bool live(const det_order *o, uint32_t ep)
{
    return ep - o->base < o->nep;
}

static inline const det_epoch *epoch_of(const det_order *o, uint32_t ep)
{
    return &o->ep[ep - o->base];
}

#define MAX_EPOCHS (1u << 22)   /* entries of one space's epoch table */

/* The serial of sub-group sg's epoch in the space of o: its last one while
 * no barrier changed its counts, else a new entry. */
static uint32_t epoch_now(const emu_run *run, det_order *o, uint32_t sg)
{
    const uint32_t cur = o->cur[sg];
    if (live(o, cur) && cur >= o->cut) {
        const det_epoch *e = epoch_of(o, cur);
        if (e->aint == o->aint && e->fsg == o->fsg[sg] && e->asg == o->asg[sg])
            return cur;
    }
    if (o->nep == o->cap) {
        const uint32_t cap = 2 * o->cap;
        det_epoch *ep = cap <= MAX_EPOCHS ? realloc(o->ep, cap * sizeof *ep) : NULL;
        if (!ep) {
            /* forget the intervals so far: their accesses count as
             * ordered (races missed, never made up) */
            fprintf(emu_note_file(), "%s: note: kernel '%s': --races: more than %u barrier "
                    "intervals in one work-group; accesses before this one are taken as "
                    "ordered\n", run->k->file, run->k->name, o->nep);
            o->base += o->nep;
            o->nep = 0;
        } else {
            o->ep = ep;
            o->cap = cap;
        }
    }
    o->ep[o->nep] = (det_epoch){ o->aint, o->fsg[sg], o->asg[sg] };
    o->cur[sg] = o->base + o->nep++;
    return o->cur[sg];
}

/* Why an earlier access p and `me` race (WHY_*), or -1 when they are
 * ordered, the same work-item's, on other bytes or both atomic. */
static int conflict(const det_order *o, const det_acc *p, const det_acc *me, int space,
                    uint32_t S)
{
    if (!p->item || (p->pc & me->pc & ATOMIC_BIT) || !(p->pc & me->pc & ALL_BYTES))
        return -1;
    if (o->acq && p->ep < o->acq[me->item - 1])
        return -1;      /* it acquired a release that p happened before */
    if (p->wg != me->wg)
        return space == SP_GLOBAL ? WHY_OTHER_WG : -1;   /* local: another copy */
    if (p->item == me->item || !live(o, p->ep))
        return -1;
    const det_epoch *pe = epoch_of(o, p->ep), *e = epoch_of(o, me->ep);
    if ((p->item - 1) / S != (me->item - 1) / S)
        return pe->aint != e->aint ? WHY_FENCE_WG : WHY_OTHER_SG;
    if ((p->pc | me->pc) & BLOCK_BIT)
        return -1;      /* a block access is its whole sub-group's */
    if (pe->fsg != e->fsg)
        return -1;      /* a fenced sub_group_barrier between */
    if (pe->aint != e->aint)
        return WHY_FENCE_WG;
    if (pe->asg != e->asg)
        return WHY_FENCE_SG;
    return (p->pc & PC_MASK) == (me->pc & PC_MASK) ? WHY_SAME_INST : WHY_NO_SG_BARRIER;
}

/* An access that no later access of its work-group can race with any
 * more (ordered by a fenced barrier since) and that no other work-group
 * can either (local memory): the slot may be reused. */
static inline bool stale(const det_order *o, const det_acc *p, const det_acc *me, int space)
{
    return !p->item || p->item == me->item || (p->wg == me->wg && !live(o, p->ep)) ||
           (space == SP_LOCAL && p->wg != me->wg);
}

/* Whether earlier access p may race with `me` in global memory
 * (conflict() decides): the fast test of the common cases, an empty cell,
 * the same work-item's access, one ordered by a fenced barrier since. */
static inline bool may_race(const det_order *o, const det_acc *p, const det_acc *me)
{
    return p->item && !(p->pc & me->pc & ATOMIC_BIT) &&
           (p->wg != me->wg || (p->item != me->item && live(o, p->ep)));
}

/* The same in local memory, where another work-group's access is another
 * copy of the memory. */
static inline bool may_race_local(const det_order *o, const det_acc *p, const det_acc *me)
{
    return p->item && p->wg == me->wg && p->item != me->item && live(o, p->ep) &&
           !(p->pc & me->pc & ATOMIC_BIT);
}

/* Check one lane's access `me` against the cell whose writer and readers
 * are w, r0, r1, whose first byte is at addr, and report a race; whether
 * it found none (then its next cell is checked: one report per access). */
static bool check_cell(emu_run *run, int space, const det_acc *w, const det_acc *r0,
                       const det_acc *r1, const det_acc *me, bool writes, uint64_t addr)
{
    const det_order *o = &run->det->ord[space];
    /* the writer, for any access; the readers, for a write */
    const det_acc *with = w;
    int why = conflict(o, w, me, space, run->width);
    if (why < 0 && writes) {
        with = r0;
        why = conflict(o, r0, me, space, run->width);
    }
    if (why < 0 && writes) {
        with = r1;
        why = conflict(o, r1, me, space, run->width);
    }
    if (why < 0)
        return true;
    const uint32_t both = (with->pc & me->pc) >> MASK_SHIFT & 0xfu;
    report_race(run, space, why, with, me,
                addr + (space == SP_GLOBAL ? (uint32_t)__builtin_ctz(both) : 0));
    return false;
}

static void check_local(emu_run *run, const det_acc *me, uint64_t addr, uint32_t n, bool reads,
                        bool writes)
{
    emu_detect *d = run->det;
    if (d->init && reads) {
        d->uninit_checked++;
        for (uint32_t b = 0; b < n; b++)
            if (!d->init[addr + b]) {
                report_uninit(run, SP_LOCAL, me->item - 1, me->pc & PC_MASK, addr + b);
                break;
            }
    }
    if (d->init && writes)
        memset(d->init + addr, 1, n);
    if (!d->cell)
        return;
    d->race_checked++;
    const det_order *o = &d->ord[SP_LOCAL];
    bool report = true;    /* one report per access at most */
    for (uint32_t b = 0; b < n; b++) {
        det_cell *c = d->cell + addr + b;
        if (report && (may_race_local(o, &c->w, me) ||
                       (writes && (may_race_local(o, &c->r[0], me) ||
                                   may_race_local(o, &c->r[1], me)))))
            report = check_cell(run, SP_LOCAL, &c->w, &c->r[0], &c->r[1], me, writes, addr + b);
        if (writes)
            c->w = *me;
        else
            c->r[stale(o, &c->r[0], me, SP_LOCAL) ? 0 : 1] = *me;
    }
}

static const det_acc no_acc;

/* Zeroed (empty) records of the global shadow, counted against its cap:
 * NULL past it (noted once) or out of host memory. */
static det_acc *shadow_alloc(emu_run *run, size_t n)
{
    emu_detect *d = run->det;
    det_acc *p = d->gshadow + n * sizeof *p <= DET_GLOBAL_CAP ? calloc(n, sizeof *p) : NULL;
    if (p) {
        d->gshadow += n * sizeof *p;
        return p;
    }
    if (!d->gcap_noted) {
        d->gcap_noted = true;
        fprintf(emu_note_file(), "%s: note: kernel '%s': --races: the global-memory "
                "shadow reached its %llu MiB; accesses to further global bytes are "
                "not checked\n", run->k->file, run->k->name,
                (unsigned long long)(DET_GLOBAL_CAP >> 20));
    }
    return NULL;
}

/* The record of word i of a page's slot s. */
static inline det_acc slot_get(const det_slot *s, uint32_t i)
{
    if (s->run && s->run[i / DET_RUN].item) {
        det_acc a = s->run[i / DET_RUN];
        a.item += i % DET_RUN;
        return a;
    }
    return s->word ? s->word[i] : no_acc;
}

/* Record `me` for word i of slot s (its run's record spelt out word by
 * word first); false when the shadow is full. */
static bool slot_put(emu_run *run, det_slot *s, uint32_t i, const det_acc *me)
{
    if (!s->word && !(s->word = shadow_alloc(run, DET_WORDS)))
        return false;
    det_acc *r = s->run ? &s->run[i / DET_RUN] : NULL;
    if (r && r->item) {
        det_acc *w = s->word + i / DET_RUN * DET_RUN;
        for (uint32_t j = 0; j < DET_RUN; j++) {
            w[j] = *r;
            w[j].item = r->item + j;
        }
        r->item = 0;
    }
    s->word[i] = *me;
    return true;
}

static void check_global(emu_run *run, det_acc *me, uint64_t addr, uint32_t n,
                         bool writes)
{
    emu_detect *d = run->det;
    const uint64_t hi = addr >> EMU_BUF_SHIFT, off = addr & EMU_BUF_OFFSET_MASK;
    /* an access out of bounds is emu_mem_exec's fault to report */
    if (hi == 0 || hi > run->k->narg || !d->gpage || !d->gpage[hi - 1] ||
        off > shadow_bytes(run, hi - 1) || n > shadow_bytes(run, hi - 1) - off)
        return;
    d->race_checked++;
    d->race_global++;
    const det_order *ord = &d->ord[SP_GLOBAL];
    /* word by word (an access may straddle words and pages) */
    bool report = true;
    const uint32_t pc = me->pc & ~ALL_BYTES;
    for (uint64_t o = off; o < off + n;) {
        const uint64_t word = o & ~(uint64_t)3, end = off + n < word + 4 ? off + n : word + 4;
        const uint32_t mask = ((1u << (end - o)) - 1) << (o - word);
        det_gpage *pg = &d->gpage[hi - 1][o / DET_PAGE];
        const uint32_t i = (uint32_t)(word % DET_PAGE / 4);
        me->pc = pc | mask << MASK_SHIFT;
        const det_acc w = slot_get(&pg->slot[0], i), r0 = slot_get(&pg->slot[1], i),
                      r1 = slot_get(&pg->slot[2], i);
        const int a = writes ? 0 : stale(ord, &r0, me, SP_GLOBAL) ? 1 : 2;
        if (report)
            report = check_cell(run, SP_GLOBAL, &w, &r0, &r1, me, writes, addr - off + word);
        if (!slot_put(run, &pg->slot[a], i, me)) {
            d->race_unchecked++;
            return;
        }
        o = end;
    }
}

/* Check one whole aligned word (a 32-bit lane) at word i of page pg;
 * which slot its record goes to. */
static inline int check_word(emu_run *run, const det_gpage *pg, uint32_t i, const det_acc *me,
                             bool writes, uint64_t addr)
{
    const det_order *o = &run->det->ord[SP_GLOBAL];
    const det_acc w = slot_get(&pg->slot[0], i), r0 = slot_get(&pg->slot[1], i);
    const int a = writes ? 0 : stale(o, &r0, me, SP_GLOBAL) ? 1 : 2;
    if (may_race(o, &w, me) || writes) {
        const det_acc r1 = slot_get(&pg->slot[2], i);
        if (may_race(o, &w, me) || (writes && (may_race(o, &r0, me) || may_race(o, &r1, me))))
            check_cell(run, SP_GLOBAL, &w, &r0, &r1, me, writes, addr);
    }
    return a;
}

/* The global page and word of a whole aligned n-byte access at addr, or
 * NULL when it is not one (or out of bounds: emu_mem_exec's fault). */
static det_gpage *global_at(const emu_run *run, uint64_t addr, uint64_t n, uint32_t *word)
{
    const emu_detect *d = run->det;
    const uint64_t hi = addr >> EMU_BUF_SHIFT, off = addr & EMU_BUF_OFFSET_MASK;
    if ((addr & 3) || hi == 0 || hi > run->k->narg || !d->gpage || !d->gpage[hi - 1] ||
        off >= shadow_bytes(run, hi - 1) || shadow_bytes(run, hi - 1) - off < n ||
        off / DET_PAGE != (off + n - 1) / DET_PAGE)
        return NULL;
    *word = (uint32_t)(off % DET_PAGE / 4);
    return &d->gpage[hi - 1][off / DET_PAGE];
}

/* The common global access, one whole aligned word (a 32-bit scalar);
 * false, having done nothing, for any other (check_global's then). */
static bool global_word(emu_run *run, det_acc *me, uint64_t addr, bool writes)
{
    emu_detect *d = run->det;
    uint32_t i;
    det_gpage *pg = global_at(run, addr, 4, &i);
    if (!pg)
        return false;
    d->race_checked++;
    d->race_global++;
    me->pc |= ALL_BYTES;
    if (!slot_put(run, &pg->slot[check_word(run, pg, i, me, writes, addr)], i, me))
        d->race_unchecked++;
    return true;
}

/* A whole sub-group's access of consecutive aligned words of one shadow
 * page (lane l at addr[0] + 4l): the lanes checked in order as
 * global_word checks them, the bounds and page found once, and recorded
 * as run records where they cover whole runs into one slot.  false,
 * having done nothing, for any other access. */
static bool global_run(emu_run *run, det_acc *me, uint32_t first_item, uint64_t addr0,
                       uint32_t width, bool writes);

static bool global_block(emu_run *run, det_acc *me, uint32_t first_item, const uint64_t *addr,
                         uint32_t width, bool writes)
{
    uint64_t diff = 0;          /* no branch per lane */
    for (uint32_t l = 1; l < width; l++)
        diff |= (addr[l] - addr[l - 1]) ^ 4;
    return !diff && global_run(run, me, first_item, addr[0], width, writes);
}

/* The same access known to be one (lane l at addr0 + 4l). */
static bool global_run(emu_run *run, det_acc *me, uint32_t first_item, uint64_t addr0,
                       uint32_t width, bool writes)
{
    emu_detect *d = run->det;
    uint32_t i0;
    det_gpage *pg = global_at(run, addr0, 4ull * width, &i0);
    if (!pg)
        return false;
    me->pc |= ALL_BYTES;
    d->race_checked += width;
    d->race_global += width;
    const det_order *o = &d->ord[SP_GLOBAL];
    const bool runs = i0 % DET_RUN == 0 && width % DET_RUN == 0;
    int slot[LANES_MAX];
    slot[0] = 0;
    bool one = true;       /* every lane's record goes to one slot */
    for (uint32_t l = 0; l < width; l++) {
        if (runs && l % DET_RUN == 0) {
            /* a run whose earlier records are run records (or none) is
             * checked whole: their work-items are its lanes' in order */
            const uint32_t r = (i0 + l) / DET_RUN;
            const det_acc *p[3];
            bool whole = true;
            for (int a = 0; a < 3; a++) {
                const det_slot *ps = &pg->slot[a];
                p[a] = ps->run && ps->run[r].item ? &ps->run[r] : ps->word ? NULL : &no_acc;
                whole = whole && p[a];
            }
            me->item = first_item + l;
            if (whole && !may_race(o, p[0], me) &&
                !(writes && (may_race(o, p[1], me) || may_race(o, p[2], me)))) {
                const int a = writes ? 0 : stale(o, p[1], me, SP_GLOBAL) ? 1 : 2;
                for (uint32_t j = 0; j < DET_RUN; j++)
                    slot[l + j] = a;
                one = one && a == slot[0];
                l += DET_RUN - 1;
                continue;
            }
        }
        me->item = first_item + l;
        slot[l] = check_word(run, pg, i0 + l, me, writes, addr0 + 4ull * l);
        one = one && slot[l] == slot[0];
    }
    det_slot *s = &pg->slot[slot[0]];
    if (one && runs && (s->run || (s->run = shadow_alloc(run, DET_RUNS)))) {
        for (uint32_t r = 0; r < width / DET_RUN; r++) {
            s->run[i0 / DET_RUN + r] = *me;
            s->run[i0 / DET_RUN + r].item = first_item + r * DET_RUN;
        }
        return true;
    }
    for (uint32_t l = 0; l < width; l++) {
        me->item = first_item + l;
        if (!slot_put(run, &pg->slot[slot[l]], i0 + l, me))
            d->race_unchecked++;
    }
    return true;
}

/* A private load or store of work-item `item`: its own bytes only. */
static void check_private(emu_run *run, uint32_t item, uint32_t pc, uint64_t addr,
                          uint32_t n, bool reads, bool writes)
{
    emu_detect *d = run->det;
    const uint32_t size = run->k->private_mem;
    /* an access out of bounds is emu_mem_exec's fault to report */
    if (addr > size || n > size - addr || item >= run->wg->items)
        return;
    uint8_t *f = d->pinit + (size_t)item * size + addr;
    if (reads) {
        d->uninit_checked++;
        d->uninit_private++;
        for (uint32_t b = 0; b < n; b++)
            if (!f[b]) {
                report_uninit(run, SP_PRIVATE, item, pc, addr + b);
                break;
            }
    }
    if (writes)
        memset(f, 1, n);
}

/* ------------------------------------------ undefined collective results */

static const char *const shape_pat[ISA_SHAPE_COUNT] = {
#define X(e, pat, min, nsrc) pat,
    ISA_SHAPES(X)
#undef X
};

void emu_detect_undefined(emu_run *run, const emu_sg *sg, uint32_t lane, lanes_mask active,
                          uint32_t pc, uint32_t status, int64_t value)
{
    emu_detect *d = run->det;
    if (!d || !d->utaint)
        return;
    const isa_inst *in = &run->k->inst[pc];
    if (in->o[0].kind != ISA_OPND_REG)
        return;
    /* a broadcast's value is one for all its lanes: all are undefined */
    const isa_family f = isa_ops[in->op].family;
    const lanes_mask lanes = f == ISA_FAM_BCAST || f == ISA_FAM_BCAST_FIRST
                                 ? active : (lanes_mask)1 << lane;
    for (uint32_t c = 0; c < (in->vec ? in->vec : 1u); c++) {
        const uint32_t r = in->o[0].reg + c;
        if (r >= d->nreg)
            break;
        const size_t i = (size_t)sg->id * d->nreg + r;
        /* the notes come in lane order: keep the lowest lane's */
        if (!(d->utaint[i] & (((lanes_mask)1 << lane) - 1) & active))
            d->uorig[i] = (det_origin){ pc, lane, status, value };
        d->utaint[i] |= lanes;
    }
}

/* The tainted lanes of operand o (vec registers of a register operand)
 * of sub-group sg; *from: the origin of one of them. */
static lanes_mask opnd_taint(const emu_detect *d, uint32_t sg, const isa_operand *o,
                             uint32_t vec, const det_origin **from)
{
    lanes_mask t = 0;
    uint32_t regs[2], n = 0;
    if (o->kind == ISA_OPND_PRED) {
        const size_t i = (size_t)sg * d->npred + o->reg;
        if (o->reg < d->npred && d->ptaint[i]) {
            *from = &d->porig[i];
            return d->ptaint[i];
        }
        return 0;
    }
    if (o->kind == ISA_OPND_REG) {
        for (uint32_t c = 0; c < vec; c++) {
            const size_t i = (size_t)sg * d->nreg + o->reg + c;
            if (o->reg + c < d->nreg && d->utaint[i]) {
                t |= d->utaint[i];
                *from = &d->uorig[i];
            }
        }
        return t;
    }
    if (o->kind == ISA_OPND_ADDR) {
        if (o->addr.base_kind == ISA_OPND_REG)
            regs[n++] = o->addr.base;
        if (o->addr.has_index)
            regs[n++] = o->addr.index;
        for (uint32_t j = 0; j < n; j++) {
            const size_t i = (size_t)sg * d->nreg + regs[j];
            if (regs[j] < d->nreg && d->utaint[i]) {
                t |= d->utaint[i];
                *from = &d->uorig[i];
            }
        }
    }
    return t;
}

static void report_undef(emu_run *run, uint32_t sg, lanes_mask used, uint32_t pc,
                         const det_origin *from, const char *how)
{
    emu_detect *d = run->det;
    d->undef_uses += (uint64_t)__builtin_popcountll(used);     /* one per work-item */
    if (!first_time(d, KIND_UNDEF, from->pc, pc))
        return;
    const isa_kernel *k = run->k;
    const uint32_t lane = (uint32_t)__builtin_ctzll(used);
    char who[160];
    describe_item(run, d->wg, sg * run->width + lane, who, sizeof who);
    fprintf(emu_note_file(), "%s:%u: error: kernel '%s': undefined value used: %s by %s\n"
            "%s:%u: note: it is the undefined result of %s (lane %u: %s, value %lld)\n",
            k->file, k->inst[pc].line, k->name, how, who, k->file, k->inst[from->pc].line,
            isa_ops[k->inst[from->pc].op].mnemonic, from->lane, coll_status_text[from->status],
            (long long)from->value);
}

/* Follow the taint through instruction `in` on the lanes of mask. */
static void undef_inst(emu_run *run, const emu_sg *sg, const isa_inst *in, lanes_mask mask,
                       uint32_t pc)
{
    emu_detect *d = run->det;
    const isa_op_info *oi = &isa_ops[in->op];
    const char *pat = shape_pat[oi->shape];
    const uint32_t vec = in->vec ? in->vec : 1u;
    const isa_family f = oi->family;
    const bool mem = f == ISA_FAM_LD || f == ISA_FAM_ST || f == ISA_FAM_ATOM;
    const det_origin *from = NULL;
    lanes_mask src = 0;
    if (f == ISA_FAM_SEL) {
        /* the predicate's taint and that of the source each lane picks */
        lanes_mask p = sg->l.preds[in->o[1].reg];
        if (in->o[1].negate)
            p = ~p;
        src = opnd_taint(d, sg->id, &in->o[1], 1, &from) |
              (opnd_taint(d, sg->id, &in->o[2], vec, &from) & p) |
              (opnd_taint(d, sg->id, &in->o[3], vec, &from) & ~p);
    } else {
        for (uint32_t i = 0; i < in->nopnd && pat[i]; i++)
            if (pat[i] == 's' || pat[i] == 'q' || pat[i] == 'a')
                src |= opnd_taint(d, sg->id, &in->o[i], pat[i] == 's' ? vec : 1, &from);
    }
    src &= mask;
    const bool xlane = isa_op_cross_lane(in->op);
    /* moved (mov, sel, the value of a store) is not used: a kernel may
     * write every lane's result and read only the defined ones */
    const bool moves = f == ISA_FAM_MOV || f == ISA_FAM_SEL;
    const bool uses = mem || f == ISA_FAM_BRA || (!xlane && !moves && pat[0] != 0 &&
                                                  !isa_op_block_io(in->op) &&
                                                  f != ISA_FAM_IMG_READ && f != ISA_FAM_IMG_WRITE &&
                                                  f != ISA_FAM_IMG_QUERY);
    if (uses)
        d->undef_checked += (uint64_t)__builtin_popcountll(mask);
    if (src && uses) {
        /* which operand: the address is o[0] of a store, o[1] of a load or atomic */
        const det_origin *af = NULL;
        const lanes_mask at = mem ? opnd_taint(d, sg->id, &in->o[f == ISA_FAM_ST ? 0 : 1], 1,
                                               &af) & mask : 0;
        char how[96];
        if (f == ISA_FAM_BRA)
            snprintf(how, sizeof how, "the condition of a branch");
        else if (at)
            snprintf(how, sizeof how, "the address of %s",
                     f == ISA_FAM_LD ? "a load" : f == ISA_FAM_ST ? "a store" : "an atomic");
        else if (f == ISA_FAM_ATOM)
            snprintf(how, sizeof how, "an operand of an atomic");
        else
            snprintf(how, sizeof how, "an operand of %s", oi->mnemonic);
        if (at || !mem || f == ISA_FAM_ATOM)
            report_undef(run, sg->id, at ? at : src, pc, at ? af : from, how);
        src = 0;     /* reported once: what it computes is not followed */
    }
    /* the destination: tainted lanes from the sources (ALU), clean where
     * written otherwise (loads, atomics, collectives: a collective's own
     * undefined lanes come from emu_detect_undefined as it runs) */
    if (xlane || mem)
        src = 0;
    if (pat[0] == 'd' && in->o[0].kind == ISA_OPND_REG) {
        for (uint32_t c = 0; c < vec && in->o[0].reg + c < d->nreg; c++) {
            const size_t i = (size_t)sg->id * d->nreg + in->o[0].reg + c;
            d->utaint[i] = (d->utaint[i] & ~mask) | src;
            if (src && from)
                d->uorig[i] = *from;
        }
    } else if (pat[0] == 'P' && in->o[0].kind == ISA_OPND_PRED && in->o[0].reg < d->npred) {
        const size_t i = (size_t)sg->id * d->npred + in->o[0].reg;
        d->ptaint[i] = (d->ptaint[i] & ~mask) | src;
        if (src && from)
            d->porig[i] = *from;
    }
}

/* A sub-group block read or write of a buffer or local memory: element
 * c * S + l of the block at the sub-group's pointer is lane l's
 * component c (collectives/block_io.c), each checked as that work-item's
 * access against other sub-groups' (within its own sub-group a block
 * access is the whole sub-group's: conflict()).  Only a block that will run is checked: every lane active, one
 * pointer (else the block faults). */
static void check_block(emu_run *run, emu_sg *sg, const isa_inst *in, lanes_mask mask,
                        uint32_t pc)
{
    emu_detect *d = run->det;
    const uint32_t S = sg->l.width, es = isa_types[in->type].bytes;
    const uint32_t vec = in->vec ? in->vec : 1;
    const bool writes = isa_ops[in->op].family == ISA_FAM_BLOCK_WRITE;
    uint64_t addr[LANES_MAX];
    if (mask != lanes_mask_first(S))
        return;
    emu_mem_lane_addresses(run, sg, writes ? &in->o[0] : &in->o[1], addr);
    for (uint32_t l = 1; l < S; l++)
        if (addr[l] != addr[0])
            return;
    const int space = in->space == ISA_SPACE_LOCAL ? SP_LOCAL : SP_GLOBAL;
    if (space == SP_GLOBAL && !d->gpage)
        return;
    det_acc me = { .wg = d->wg, .pc = pc | ALL_BYTES | BLOCK_BIT,
                   .ep = d->cell ? epoch_now(run, &d->ord[space], sg->id) : 0 };
    for (uint32_t l = 0; l < S; l++) {
        me.item = sg->id * run->width + l + 1;
        for (uint32_t c = 0; c < vec; c++) {
            const uint64_t a = addr[0] + ((uint64_t)c * S + l) * es;
            if (space == SP_GLOBAL)
                check_global(run, &me, a, es, writes);
            else if (a <= d->bytes && es <= d->bytes - a)
                check_local(run, &me, a, es, !writes, writes);
        }
    }
}

/* An image element read or write (read_image*, write_image*: lane l's
 * element at its (x, y), a read clamped to the edge with .clamp), or an
 * image block read or write: lane l's component r is the es bytes at
 * byte x + l * es of row y + r, the bytes inside the image (a block
 * read clamps, a write drops, the rest).  An access that faults is not
 * checked: emu/image.c reports it.  Sampled reads are not checked: a
 * sampler reads a read_only image, which no work-item writes. */
static void check_image(emu_run *run, emu_sg *sg, const isa_inst *in, lanes_mask mask,
                        uint32_t pc)
{
    emu_detect *d = run->det;
    const bool writes = isa_ops[in->op].family == ISA_FAM_IMG_WRITE;
    const isa_operand *io = writes ? &in->o[0] : &in->o[1];
    if (!d->gpage || io->kind != ISA_OPND_ARG || io->reg >= run->k->narg || !d->gpage[io->reg])
        return;
    const sgemu_image *im = &run->args[io->reg].image;
    const uint64_t base = (uint64_t)(io->reg + 1) << EMU_BUF_SHIFT;
    const int64_t w = im->width, h = im->height, wb = w * im->elem_bytes;
    uint64_t sx[LANES_MAX], sy[LANES_MAX];
    const uint64_t *xs = lanes_src(&run->lenv, &sg->l, io + 1, 0, ISA_T_I32, sx);
    const uint64_t *ys = lanes_src(&run->lenv, &sg->l, io + 2, 0, ISA_T_I32, sy);
    det_acc me = { .wg = d->wg, .pc = pc | ALL_BYTES,
                   .ep = epoch_now(run, &d->ord[SP_GLOBAL], sg->id) };
    const isa_shape sh = isa_ops[in->op].shape;
    if (sh == ISA_SHAPE_MB_LD || sh == ISA_SHAPE_MB_ST) {
        /* media block: element e of the w x h block (row-major, the first
         * S * vec) is lane e % S's, at byte x + (e % w) * es of row y + e / w;
         * xs, ys above are the coordinate pair's x and the width */
        const uint32_t S = sg->l.width, es = isa_types[in->type].bytes;
        const uint32_t vec = in->vec ? in->vec : 1;
        uint64_t sh0[LANES_MAX], sw[LANES_MAX];
        const uint64_t *yv = lanes_src(&run->lenv, &sg->l, io + 1, 1, ISA_T_I32, sh0);
        const uint64_t *hv = lanes_src(&run->lenv, &sg->l, io + 3, 0, ISA_T_I32, sw);
        const int64_t x = (int32_t)(uint32_t)xs[0], y = (int32_t)(uint32_t)yv[0];
        const int64_t bw = (int32_t)(uint32_t)ys[0], bh = (int32_t)(uint32_t)hv[0];
        if (mask != lanes_mask_first(S) || bw < 1 || bw > 32 || bh < 1 || bh > 64)
            return;
        const uint64_t n = (uint64_t)bw * (uint64_t)bh < (uint64_t)S * vec
                               ? (uint64_t)bw * (uint64_t)bh : (uint64_t)S * vec;
        me.pc |= BLOCK_BIT;
        for (uint64_t e = 0; e < n; e++) {
            const int64_t yr = y + (int64_t)(e / (uint64_t)bw);
            const int64_t xb = x + (int64_t)(e % (uint64_t)bw) * es;
            me.item = sg->id * run->width + (uint32_t)(e % S) + 1;
            if (yr >= 0 && yr < h && xb >= 0 && xb + es <= wb)
                check_global(run, &me, base + (uint64_t)yr * im->pitch + (uint64_t)xb, es,
                             writes);
        }
        return;
    }
    if (isa_op_block_io(in->op)) {
        const uint32_t S = sg->l.width, es = isa_types[in->type].bytes;
        const uint32_t rows = in->vec ? in->vec : 1;
        if (mask != lanes_mask_first(S))
            return;
        for (uint32_t l = 1; l < S; l++)
            if (xs[l] != xs[0] || ys[l] != ys[0])
                return;
        const int64_t x = (int32_t)(uint32_t)xs[0], y = (int32_t)(uint32_t)ys[0];
        me.pc |= BLOCK_BIT;
        for (uint32_t l = 0; l < S; l++) {
            me.item = sg->id * run->width + l + 1;
            for (uint32_t r = 0; r < rows; r++) {
                const int64_t yr = y + r, xb = x + (int64_t)l * es;
                if (yr >= 0 && yr < h && xb >= 0 && xb + es <= wb)
                    check_global(run, &me, base + (uint64_t)yr * im->pitch + (uint64_t)xb, es,
                                 writes);
            }
        }
        return;
    }
    for (uint32_t l = 0; l < sg->l.width; l++) {
        if (!(mask >> l & 1))
            continue;
        int64_t x = (int32_t)(uint32_t)xs[l], y = (int32_t)(uint32_t)ys[l];
        if (!writes && (in->flags & ISA_F_CLAMP)) {
            x = x < 0 ? 0 : x >= w ? w - 1 : x;
            y = y < 0 ? 0 : y >= h ? h - 1 : y;
        }
        if (x < 0 || x >= w || y < 0 || y >= h)
            continue;
        me.item = sg->id * run->width + l + 1;
        check_global(run, &me, base + (uint64_t)y * im->pitch + (uint64_t)x * im->elem_bytes,
                     im->elem_bytes, writes);
    }
}

/* The lanes of mask of one access, one by one. */
static void check_lanes(emu_run *run, const emu_sg *sg, det_acc *me, int space,
                        const uint64_t *addr, lanes_mask mask, uint32_t n, bool reads,
                        bool writes)
{
    const emu_detect *d = run->det;
    for (uint32_t l = 0; l < sg->l.width; l++) {
        if (!(mask >> l & 1))
            continue;
        me->item = sg->id * run->width + l + 1;
        if (space == SP_GLOBAL) {
            if (n != 4 || !global_word(run, me, addr[l], writes))
                check_global(run, me, addr[l], n, writes);
            continue;
        }
        /* an access out of bounds is emu_mem_exec's fault to report */
        if (addr[l] > d->bytes || n > d->bytes - addr[l])
            continue;
        check_local(run, me, addr[l], n, reads, writes);
    }
}

/* --------------------------------------------- release and acquire */

/* The entry of location key in the sync map: its own, or the empty one
 * it would take (the map grows before it is half full). */
static det_sync *sync_slot(det_sync *map, uint32_t cap, uint64_t key)
{
    uint64_t h = key * 0x9e3779b97f4a7c15ull;
    for (uint32_t i = (uint32_t)(h >> 40) & (cap - 1);; i = (i + 1) & (cap - 1))
        if (map[i].key == key || !map[i].key)
            return &map[i];
}

/* The entry of key, made when `make` (NULL out of host memory), or NULL
 * when there is none. */
static det_sync *sync_find(emu_detect *d, uint64_t key, bool make)
{
    det_sync *e = sync_slot(d->sync, d->sync_cap, key);
    if (e->key || !make)
        return e->key ? e : NULL;
    if (2 * (d->sync_n + 1) > d->sync_cap) {
        const uint32_t cap = 2 * d->sync_cap;
        det_sync *map = calloc(cap, sizeof *map);
        if (!map)
            return NULL;
        for (uint32_t i = 0; i < d->sync_cap; i++)
            if (d->sync[i].key)
                *sync_slot(map, cap, d->sync[i].key) = d->sync[i];
        free(d->sync);
        d->sync = map;
        d->sync_cap = cap;
        e = sync_slot(map, cap, key);
    }
    d->sync_n++;
    *e = (det_sync){ .key = key };
    return e;
}

/* The spaces an atomic or a fence orders: the atomic's own, those the
 * fence names (none: both). */
static unsigned sync_spaces(const isa_inst *in)
{
    unsigned m = (in->flags & ISA_F_FENCE_LOCAL ? 1u << SP_LOCAL : 0) |
                 (in->flags & ISA_F_FENCE_GLOBAL ? 1u << SP_GLOBAL : 0);
    if (in->op == ISA_OP_NOP)
        return m ? m : 1u << SP_LOCAL | 1u << SP_GLOBAL;
    return m | 1u << (in->space == ISA_SPACE_LOCAL ? SP_LOCAL : SP_GLOBAL);
}

/* Whether a release by a work-item of work-group wg, sub-group sg and an
 * acquire by `item` of the running work-group are each in the other's
 * scope (scope: the narrower of the two). */
static bool sync_scope_ok(const emu_run *run, uint32_t wg, uint32_t sg, uint32_t scope,
                          uint32_t item)
{
    if (scope & ISA_F_SCOPE_SG)
        return wg == run->det->wg && sg == item / run->width;
    return !(scope & ISA_F_SCOPE_WG) || wg == run->det->wg;
}

/* A release now, in the spaces of mask: the epochs so far end, and the
 * serials the accesses before it have are below what it returns. */
static void sync_cut(emu_detect *d, unsigned mask, uint32_t stamp[2])
{
    for (int s = 0; s < 2; s++) {
        det_order *o = &d->ord[s];
        o->cut = o->base + o->nep;
        stamp[s] = mask >> s & 1 ? o->cut : 0;
    }
}

static inline uint32_t umax(uint32_t a, uint32_t b)
{
    return a > b ? a : b;
}

/* An atomic access of work-item `item` to addr (after its check): an
 * acquire takes what the location's release sequence orders, a relaxed
 * read keeps it for a later acquire fence; a release (or the item's
 * release fence before) heads a new sequence, an RMW continues one and
 * a relaxed store ends it (OpenCL 3.0 API, "Memory Ordering Rules:
 * Atomic Operations"). */
static void sync_access(emu_run *run, const isa_inst *in, uint32_t item, uint64_t addr)
{
    emu_detect *d = run->det;
    const isa_family f = isa_ops[in->op].family;
    const bool local = in->space == ISA_SPACE_LOCAL;
    const uint64_t key = (addr & ~SYNC_LOCAL) | (local ? SYNC_LOCAL : 0);
    det_sync *e = sync_find(d, key, false);
    if (e && local && e->wg != d->wg)
        e = NULL;       /* another work-group's copy of local memory */
    det_item *it = &d->items[item];
    const uint32_t scope = in->flags & (ISA_F_SCOPE_WG | ISA_F_SCOPE_SG);
    if (f != ISA_FAM_ST && e) {
        const unsigned sp = sync_spaces(in);
        for (int s = 0; s < 2; s++) {
            if (!(sp >> s & 1) || !e->stamp[s])
                continue;
            if (in->flags & ISA_F_ACQUIRE) {
                if (sync_scope_ok(run, e->wg, e->sg, e->scope | scope, item))
                    d->ord[s].acq[item] = umax(d->ord[s].acq[item], e->stamp[s]);
                continue;
            }
            if (sync_scope_ok(run, e->wg, e->sg, e->scope, item))
                it->obs[s] = umax(it->obs[s], e->stamp[s]);
            if (e->wg == d->wg)
                it->obs_wg[s] = umax(it->obs_wg[s], e->stamp[s]);
        }
    }
    if (f == ISA_FAM_LD)
        return;
    uint32_t stamp[2] = { 0, 0 };
    if (in->flags & ISA_F_RELEASE)
        sync_cut(d, sync_spaces(in), stamp);
    const bool fenced = it->pend[0] || it->pend[1];
    if (!stamp[0] && !stamp[1] && !fenced) {
        if (e && f == ISA_FAM_ST)
            e->stamp[0] = e->stamp[1] = 0;
        return;
    }
    uint32_t sc = scope | (fenced ? it->pend_scope : 0);
    const bool cont = e && f == ISA_FAM_ATOM && (e->stamp[0] || e->stamp[1]);
    if (!e && !(e = sync_find(d, key, true)))
        return;     /* out of host memory: an ordering missed */
    if (cont) {
        /* a release RMW inside another release's sequence: an acquire
         * reading it synchronises with both; one entry keeps the later
         * serials and a scope holding both releasers (the wider one;
         * the device when they differ in work-group or sub-group), so an
         * ordering may be taken too widely, never missed */
        if (e->wg != d->wg || e->sg != item / run->width)
            sc = 0;
        else
            sc &= e->scope;
        for (int s = 0; s < 2; s++)
            stamp[s] = umax(stamp[s], e->stamp[s]);
    }
    for (int s = 0; s < 2; s++)
        e->stamp[s] = umax(stamp[s], it->pend[s]);
    e->wg = d->wg;
    e->sg = item / run->width;
    e->scope = sc;
}

/* A fence (nop.acquire/.release) of work-item `item`: an acquire fence
 * takes what its relaxed reads saw, a release fence makes its next
 * atomic writes carry the accesses so far (OpenCL 3.0 API, "Memory
 * Ordering Rules: Fence Operations"). */
static void sync_fence(emu_run *run, const isa_inst *in, uint32_t item)
{
    emu_detect *d = run->det;
    det_item *it = &d->items[item];
    const unsigned sp = sync_spaces(in);
    if (in->flags & ISA_F_ACQUIRE)
        for (int s = 0; s < 2; s++)
            if (sp >> s & 1)
                d->ord[s].acq[item] = umax(d->ord[s].acq[item],
                                           in->flags & (ISA_F_SCOPE_WG | ISA_F_SCOPE_SG)
                                               ? it->obs_wg[s] : it->obs[s]);
    if (in->flags & ISA_F_RELEASE) {
        uint32_t stamp[2];
        sync_cut(d, sp, stamp);
        for (int s = 0; s < 2; s++)
            it->pend[s] = umax(it->pend[s], stamp[s]);
        it->pend_scope = in->flags & (ISA_F_SCOPE_WG | ISA_F_SCOPE_SG);
    }
}

bool emu_detect_ramp4(emu_run *run, emu_sg *sg, const isa_inst *in, uint32_t pc,
                      uint64_t addr0)
{
    emu_detect *d = run->det;
    const bool atomic = in->flags & ISA_F_ATOMIC;
    if (d->utaint || !d->gpage || in->space != ISA_SPACE_GLOBAL || (atomic && d->sync))
        return false;
    det_acc me = { .wg = d->wg, .pc = pc | (atomic ? ATOMIC_BIT : 0),
                   .ep = epoch_now(run, &d->ord[SP_GLOBAL], sg->id) };
    return global_run(run, &me, sg->id * run->width + 1, addr0, sg->l.width,
                      isa_ops[in->op].family == ISA_FAM_ST);
}

void emu_detect_inst(emu_run *run, emu_sg *sg, const isa_inst *in,
                     lanes_mask mask, uint32_t pc)
{
    emu_detect *d = run->det;
    if (d->utaint) {
        undef_inst(run, sg, in, mask, pc);
        const isa_family fam = isa_ops[in->op].family;
        const bool watched = ((fam == ISA_FAM_LD || fam == ISA_FAM_ST || fam == ISA_FAM_ATOM ||
                               fam == ISA_FAM_BLOCK_READ || fam == ISA_FAM_BLOCK_WRITE) &&
                              (in->space == ISA_SPACE_LOCAL ||
                               (in->space == ISA_SPACE_GLOBAL && d->gpage) ||
                               (in->space == ISA_SPACE_PRIVATE && d->pinit))) ||
                             in->op == ISA_OP_SG_BARRIER ||
                             (d->sync && in->op == ISA_OP_NOP) ||
                             ((fam == ISA_FAM_IMG_READ || fam == ISA_FAM_IMG_WRITE) && d->gpage);
        if (!watched)
            return;
    }
    if (in->op == ISA_OP_NOP) {
        for (uint32_t l = 0; l < sg->l.width; l++)
            if (mask >> l & 1)
                sync_fence(run, in, sg->id * run->width + l);
        return;
    }
    if (in->op == ISA_OP_SG_BARRIER) {
        for (int s = 0; s < 2; s++) {
            d->ord[s].asg[sg->id]++;
            if (fences(in, s))
                d->ord[s].fsg[sg->id]++;
        }
        return;
    }
    const isa_family f = isa_ops[in->op].family;
    if (f == ISA_FAM_BLOCK_READ || f == ISA_FAM_BLOCK_WRITE) {
        check_block(run, sg, in, mask, pc);
        return;
    }
    if (f == ISA_FAM_IMG_READ || f == ISA_FAM_IMG_WRITE) {
        if (isa_ops[in->op].shape != ISA_SHAPE_IMG_SMP)
            check_image(run, sg, in, mask, pc);
        return;
    }
    const uint32_t n = isa_types[in->type].bytes * (in->vec ? in->vec : 1);
    const bool reads = f != ISA_FAM_ST, writes = f != ISA_FAM_LD;
    uint64_t addr[LANES_MAX];
    emu_mem_lane_addresses(run, sg, f == ISA_FAM_ST ? &in->o[0] : &in->o[1], addr);
    if (in->space == ISA_SPACE_PRIVATE) {
        for (uint32_t l = 0; l < sg->l.width; l++)
            if (mask >> l & 1)
                check_private(run, sg->id * run->width + l, pc, addr[l], n, reads, writes);
        return;
    }
    const int space = in->space == ISA_SPACE_LOCAL ? SP_LOCAL : SP_GLOBAL;
    const bool atomic = f == ISA_FAM_ATOM || (in->flags & ISA_F_ATOMIC);
    det_acc me = { .wg = d->wg, .pc = pc | ALL_BYTES | (atomic ? ATOMIC_BIT : 0),
                   .ep = d->cell || d->gpage ? epoch_now(run, &d->ord[space], sg->id) : 0 };
    if (atomic && d->sync) {
        /* the accesses first (an acquire orders what comes after it) */
        check_lanes(run, sg, &me, space, addr, mask, n, reads, writes);
        for (uint32_t l = 0; l < sg->l.width; l++)
            if (mask >> l & 1)
                sync_access(run, in, sg->id * run->width + l, addr[l]);
        return;
    }
    if (space == SP_GLOBAL && n == 4 && mask == lanes_mask_first(sg->l.width) && d->gpage &&
        global_block(run, &me, sg->id * run->width + 1, addr, sg->l.width, writes))
        return;
    check_lanes(run, sg, &me, space, addr, mask, n, reads, writes);
}

