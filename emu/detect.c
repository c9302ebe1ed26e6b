/* detect.c - the local-memory detectors (detect.h, docs/cli.md).
 *
 * Races.  Within a work-group, two accesses to one local byte by
 * different work-items, at least one a write and not both atomic, race
 * unless a barrier orders them.  A work-group barrier orders every pair
 * (sgemu's barrier always fences local memory), so the shadow of each
 * byte only holds the accesses of the current barrier interval: a cell
 * whose interval number is not the current one is empty.  A
 * sub_group_barrier orders the work-items of one sub-group only: each
 * access remembers its sub-group's sub-group-barrier count, and a pair in
 * one sub-group with the same count has no barrier between.  That pair is
 * reported as a "lockstep assumption" (the code works only where the
 * sub-group's work-items run in lockstep); pairs across sub-groups, and
 * two lanes of one instruction, are "data race"s.
 *
 * Each byte keeps its last writer and two readers (the first reader of
 * the interval and the latest other one): any write racing with a read of
 * two or more work-items finds one of them.
 *
 * Uninitialised reads.  One bit per byte, set by every store, atomic or
 * block write of the work-group; a load or atomic of a byte without it
 * is reported.
 */
#include "detect.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NONE UINT32_MAX

/* An access as the shadow keeps it. */
typedef struct det_acc {
    uint32_t item;         /* linear local id, NONE: no access */
    uint32_t pc;
    uint32_t sgep;         /* its sub-group's sub_group_barrier count then */
    uint32_t atomic;
} det_acc;

typedef struct det_cell {
    uint32_t interval;     /* the barrier interval these accesses are from */
    det_acc w, r[2];
} det_cell;

/* A pair of lines already reported (each pair once). */
typedef struct det_pair {
    uint32_t pc_a, pc_b, kind;
} det_pair;

#define MAX_PAIRS 256

struct emu_detect {
    uint32_t bytes;
    det_cell *cell;        /* races: one per local byte */
    uint8_t *init;         /* uninitialized: one flag per local byte */
    uint32_t *sgep;        /* per sub-group: sub_group_barrier count */
    uint32_t nsg;
    uint32_t interval;     /* increases at each work-group start and barrier */
    det_pair pairs[MAX_PAIRS];
    uint32_t npairs;
    uint64_t race_checked, races, uninit_checked, uninit_reads;
};

int emu_detect_init(emu_run *run)
{
    emu_detect *d = calloc(1, sizeof *d);
    if (!d)
        return -1;
    run->det = d;
    d->bytes = run->local_total;
    const size_t n = d->bytes ? d->bytes : 1;
    if (run->launch->detect & SGEMU_DETECT_RACES)
        d->cell = calloc(n, sizeof *d->cell);
    if (run->launch->detect & SGEMU_DETECT_UNINIT)
        d->init = calloc(n, 1);
    d->nsg = run->sg_pool_n;
    d->sgep = calloc(d->nsg ? d->nsg : 1, sizeof *d->sgep);
    if ((run->launch->detect & SGEMU_DETECT_RACES && !d->cell) ||
        (run->launch->detect & SGEMU_DETECT_UNINIT && !d->init) || !d->sgep)
        return -1;
    /* the instructions to check leave the decoded fast paths */
    for (uint32_t i = 0; i < run->k->ninst; i++) {
        const isa_inst *in = &run->k->inst[i];
        const isa_family f = isa_ops[in->op].family;
        const bool local = (f == ISA_FAM_LD || f == ISA_FAM_ST || f == ISA_FAM_ATOM) &&
                           in->space == ISA_SPACE_LOCAL;
        if (local || in->op == ISA_OP_SG_BARRIER)
            run->dp.d[i].kind = EMU_D_DETECT;
    }
    return 0;
}

void emu_detect_free(emu_run *run)
{
    emu_detect *d = run->det;
    if (!d)
        return;
    free(d->cell);
    free(d->init);
    free(d->sgep);
    free(d);
    run->det = NULL;
}

void emu_detect_wg_start(emu_run *run)
{
    emu_detect *d = run->det;
    d->interval++;
    if (d->init)
        memset(d->init, 0, d->bytes);
    memset(d->sgep, 0, (size_t)d->nsg * sizeof *d->sgep);
}

void emu_detect_wg_barrier(emu_run *run, uint32_t pc)
{
    if (run->k->inst[pc].op == ISA_OP_BARRIER)
        run->det->interval++;
}

void emu_detect_block_write(emu_run *run, uint64_t addr, uint32_t n)
{
    emu_detect *d = run->det;
    if (d->init && addr <= d->bytes && n <= d->bytes - addr)
        memset(d->init + addr, 1, n);
}

void emu_detect_stats(const emu_run *run, sgemu_stats *stats)
{
    const emu_detect *d = run->det;
    if (!d)
        return;
    stats->race_checked = d->race_checked;
    stats->races = d->races;
    stats->uninit_checked = d->uninit_checked;
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

static const char *acc_kind(const isa_inst *in)
{
    switch (isa_ops[in->op].family) {
    case ISA_FAM_LD: return "load";
    case ISA_FAM_ST: return "store";
    default:         return "atomic";
    }
}

/* "work-item local (x,y,z) global (x,y,z) sub-group s lane l" of item */
static void describe_item(const emu_run *run, uint32_t item, char *buf, size_t n)
{
    const uint32_t S = run->width;
    const emu_sg sg = { .id = item / S };
    uint64_t gid[3], lid[3];
    emu_workitem_ids(run, &sg, item % S, gid, lid);
    snprintf(buf, n, "work-item local (%llu,%llu,%llu) global (%llu,%llu,%llu) "
             "sub-group %u lane %u",
             (unsigned long long)lid[0], (unsigned long long)lid[1],
             (unsigned long long)lid[2], (unsigned long long)gid[0],
             (unsigned long long)gid[1], (unsigned long long)gid[2], item / S, item % S);
}

enum { KIND_RACE, KIND_LOCKSTEP, KIND_UNINIT };

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

static void report_race(emu_run *run, uint32_t kind, const det_acc *prev,
                        uint32_t item, uint32_t pc, uint64_t addr)
{
    emu_detect *d = run->det;
    d->races++;
    if (!first_time(d, kind, prev->pc, pc))
        return;
    FILE *f = emu_note_file();
    const isa_kernel *k = run->k;
    const isa_inst *in = &k->inst[pc], *pin = &k->inst[prev->pc];
    char where[192], who[160], pwho[160];
    describe_local(run, addr, where, sizeof where);
    describe_item(run, item, who, sizeof who);
    describe_item(run, prev->item, pwho, sizeof pwho);
    const bool same_sg = prev->item / run->width == item / run->width;
    fprintf(f, "%s:%u: error: kernel '%s': %s on local memory: %s at %s by %s\n"
               "%s:%u: note: conflicts with the %s by %s, %s\n",
            k->file, in->line, k->name,
            kind == KIND_LOCKSTEP ? "lockstep assumption" : "data race",
            acc_kind(in), where, who, k->file, pin->line, acc_kind(pin), pwho,
            !same_sg ? "in another sub-group, no work-group barrier between"
            : kind == KIND_LOCKSTEP ? "in the same sub-group, no sub_group_barrier between"
            : "in the same sub-group and instruction");
}

static void report_uninit(emu_run *run, uint32_t item, uint32_t pc, uint64_t addr)
{
    emu_detect *d = run->det;
    d->uninit_reads++;
    if (!first_time(d, KIND_UNINIT, pc, pc))
        return;
    const isa_kernel *k = run->k;
    char where[192], who[160];
    describe_local(run, addr, where, sizeof where);
    describe_item(run, item, who, sizeof who);
    fprintf(emu_note_file(), "%s:%u: error: kernel '%s': uninitialised local memory: "
            "%s at %s by %s reads a byte no work-item of its work-group wrote\n",
            k->file, k->inst[pc].line, k->name, acc_kind(&k->inst[pc]), where, who);
}

/* ------------------------------------------------------------- checks */

/* The kind of race between an earlier access `p` and one by `item`
 * (sub-group count sgep), or -1 when they are ordered or the same
 * work-item's. */
static int conflict(const det_acc *p, uint32_t item, uint32_t sgep, uint32_t S,
                    uint32_t pc)
{
    if (p->item == NONE || p->item == item)
        return -1;
    if (p->item / S != item / S)
        return KIND_RACE;
    if (p->sgep != sgep)
        return -1;      /* a sub_group_barrier between */
    return p->pc == pc ? KIND_RACE : KIND_LOCKSTEP;
}

/* One lane's access of n bytes at addr (one race report at most). */
static void check_access(emu_run *run, uint32_t item, uint32_t pc, uint64_t addr,
                         uint32_t n, bool reads, bool writes, bool atomic)
{
    emu_detect *d = run->det;
    const uint32_t S = run->width, sgep = d->sgep[item / S];
    if (d->init && reads) {
        d->uninit_checked++;
        for (uint32_t b = 0; b < n; b++)
            if (!d->init[addr + b]) {
                report_uninit(run, item, pc, addr + b);
                break;
            }
    }
    if (d->init && writes)
        memset(d->init + addr, 1, n);
    if (!d->cell)
        return;
    d->race_checked++;
    bool reported = false;
    const det_acc me = { item, pc, sgep, atomic };
    for (uint32_t b = 0; b < n; b++) {
        det_cell *c = &d->cell[addr + b];
        if (c->interval != d->interval) {
            c->interval = d->interval;
            c->w.item = c->r[0].item = c->r[1].item = NONE;
        }
        if (!reported) {
            /* the writer, for any access; the readers, for a write */
            int kind = conflict(&c->w, item, sgep, S, pc);
            const det_acc *with = &c->w;
            if (kind >= 0 && atomic && c->w.atomic)
                kind = -1;
            for (int r = 0; kind < 0 && writes && r < 2; r++) {
                kind = conflict(&c->r[r], item, sgep, S, pc);
                with = &c->r[r];
                if (kind >= 0 && atomic && c->r[r].atomic)
                    kind = -1;
            }
            if (kind >= 0) {
                report_race(run, (uint32_t)kind, with, item, pc, addr + b);
                reported = true;
            }
        }
        if (writes) {
            c->w = me;
        } else if (c->r[0].item == NONE || c->r[0].item == item) {
            c->r[0] = me;
        } else {
            c->r[1] = me;
        }
    }
}

void emu_detect_inst(emu_run *run, emu_sg *sg, const isa_inst *in,
                     lanes_mask mask, uint32_t pc)
{
    emu_detect *d = run->det;
    if (in->op == ISA_OP_SG_BARRIER) {
        d->sgep[sg->id]++;
        return;
    }
    const isa_family f = isa_ops[in->op].family;
    const uint32_t n = isa_types[in->type].bytes * (in->vec ? in->vec : 1);
    uint64_t addr[LANES_MAX];
    emu_mem_lane_addresses(run, sg, f == ISA_FAM_ST ? &in->o[0] : &in->o[1], addr);
    for (uint32_t l = 0; l < sg->l.width; l++) {
        /* an access out of bounds is emu_mem_exec's fault to report */
        if (!(mask >> l & 1) || addr[l] > d->bytes || n > d->bytes - addr[l])
            continue;
        check_access(run, sg->id * run->width + l, pc, addr[l], n,
                     f != ISA_FAM_ST, f != ISA_FAM_LD, f == ISA_FAM_ATOM);
    }
}
