/* exec.c - the interpreter: runs one subgroup's instruction stream until it
 * blocks at a work-group barrier or collective, finishes, faults, or its
 * turn ends (EMU_SG_QUANTUM instructions).  One
 * dispatch per instruction; lane loops live in lanes/ and collectives/. */
#include "detect.h"
#include "emu_private.h"

#include <stdio.h>
#include <string.h>

static void emit_uop(void *user, const coll_uop *u)
{
    emu_run *run = user;
    run->stats->uops++;
    if (run->launch->uop_listener)
        run->launch->uop_listener(run->launch->uop_user, run->cur_pc, u);
    if (run->wg->trace && emu_trace_uop(run->wg->trace, u) != 0)
        emu_fault(run, SGEMU_EXIT_INTERNAL, NULL, UINT32_MAX, UINT32_MAX,
                  "out of host memory recording micro-ops");
}

static void emit_uops(void *user, const coll_uop *u, uint32_t n)
{
    emu_run *run = user;
    if (run->launch->uop_listener) {
        for (uint32_t i = 0; i < n; i++)
            emit_uop(user, &u[i]);
        return;
    }
    run->stats->uops += n;
    if (run->wg->trace && emu_trace_uops(run->wg->trace, u, n) != 0)
        emu_fault(run, SGEMU_EXIT_INTERNAL, NULL, UINT32_MAX, UINT32_MAX,
                  "out of host memory recording micro-ops");
}

static void *note_stream;

void sgemu_set_note_stream(void *stdio_file)
{
    note_stream = stdio_file;
}

FILE *emu_note_file(void)
{
    return note_stream ? note_stream : stderr;
}

typedef struct note_ctx {
    emu_run *run;
    coll_group *g;
    uint32_t pc;
} note_ctx;

static void print_note(void *user, const coll_report *r)
{
    note_ctx *nc = user;
    emu_run *run = nc->run;
    FILE *f = note_stream ? note_stream : stderr;
    const uint32_t gi = r->sg < nc->g->nsg ? r->sg : 0;
    const emu_sg *sg = (const emu_sg *)nc->g->sg[gi];
    if (run->det)      /* --uninitialized follows the undefined lanes */
        emu_detect_undefined(run, sg, r->lane, nc->g->active[gi], nc->pc, r->status, r->value);
    if (!run->launch->check)
        return;
    run->stats->notes++;
    uint64_t gid[3], lid[3];
    emu_workitem_ids(run, sg, r->lane, gid, lid);
    const isa_inst *in = &run->k->inst[nc->pc];
    char pos[320];
    isa_inst_where(run->k, in, pos, sizeof pos);
    fprintf(f, "%s: note: kernel '%s': %s (value %lld): undefined result, "
            "work-item global (%llu,%llu,%llu) sub-group %u lane %u\n",
            pos, run->k->name, coll_status_text[r->status],
            (long long)r->value, (unsigned long long)gid[0],
            (unsigned long long)gid[1], (unsigned long long)gid[2], sg->id, r->lane);
}

/* Run a collective or block-I/O instruction over group g. */
int emu_exec_collective(emu_run *run, coll_group *g, const isa_inst *in, uint32_t pc)
{
    coll_sink sink = { run, emit_uop, emit_uops };
    note_ctx nc = { run, g, pc };
    coll_env env = {
        .lanes = &run->lenv, .opt = &run->copt, .mem = &run->cmem, .sink = &sink,
        .scratch_slm = run->coll_scratch, .scratch_slm_bytes = run->coll_scratch_bytes,
        .note = print_note, .note_user = &nc, .shapes = run->coll_shapes,
    };
    coll_report rep = { 0 };
    run->cur_pc = pc;
    coll_status st = coll_execute(&env, in, g, &rep);
    if (run->fault->code)
        return run->fault->code;
    if (st == COLL_OK)
        return 0;
    const emu_sg *sg = (const emu_sg *)g->sg[rep.sg < g->nsg ? rep.sg : 0];
    int code = st == COLL_NO_MEMORY ? SGEMU_EXIT_INTERNAL : SGEMU_EXIT_FAULT;
    if (st == COLL_OUT_OF_BOUNDS || st == COLL_MISALIGNED || st == COLL_NONUNIFORM_PTR) {
        char desc[256];
        emu_mem_describe(run, (isa_space)in->space, (uint64_t)rep.value, desc, sizeof desc);
        emu_fault_at(run, (uint64_t)rep.value);
        return emu_fault(run, code, sg, rep.lane, pc, "%s: %s",
                         coll_status_text[st], desc);
    }
    return emu_fault(run, code, sg, rep.lane, pc, "%s (value %lld)",
                     coll_status_text[st], (long long)rep.value);
}

static bool whole_subgroup(const emu_sg *sg, lanes_mask mask)
{
    return mask == sg->l.exists && !(sg->l.simt.exited & sg->l.exists);
}

static int first_missing_lane(const emu_sg *sg, lanes_mask mask)
{
    lanes_mask miss = sg->l.exists & ~mask;
    return miss ? __builtin_ctzll(miss) : 0;
}

/* Active-lane count for the statistics: without -mpopcnt the builtin is a
 * libgcc call, which showed up at 5% of an ALU-bound profile. */
static inline uint64_t lane_count(lanes_mask m)
{
    m = m - ((m >> 1) & 0x5555555555555555ull);
    m = (m & 0x3333333333333333ull) + ((m >> 2) & 0x3333333333333333ull);
    m = (m + (m >> 4)) & 0x0f0f0f0f0f0f0f0full;
    return (m * 0x0101010101010101ull) >> 56;
}

/* 0, 1, ..., 63: subtracting or adding this row keeps a lane loop free of
 * index conversions, so the compiler vectorises it */
#define LID4(b) (b), (b) + 1, (b) + 2, (b) + 3
#define LID16(b) LID4(b), LID4((b) + 4), LID4((b) + 8), LID4((b) + 12)
static const uint64_t lane_id[LANES_MAX] = { LID16(0), LID16(16), LID16(32), LID16(48) };
#undef LID4
#undef LID16

/* What special_value found: lane l's value is *v (SP_ROW) or *v + l
 * (SP_RAMP), or the launch's callback has to compute the row. */
enum { SP_CALLBACK, SP_ROW, SP_RAMP };

/* Work-item query of a decoded mov (launch.c's special_values gives the
 * same values): the queries that are uniform over the sub-group, the
 * sub-group local and local linear ids, and global/local ids while the
 * sub-group's lanes stay inside one row of the work-group. */
static inline __attribute__((always_inline)) int
special_value(const emu_run *run, const emu_sg *sg, uint32_t sp, uint32_t dim,
              const uint32_t w, uint64_t *out)
{
    const emu_wg *wg = run->wg;
    uint64_t v;
    switch ((isa_special)sp) {
    case ISA_SP_GLOBAL_ID:
    case ISA_SP_LOCAL_ID: {
        const uint64_t ls0 = wg->local_size[0];
        const uint64_t lin = (uint64_t)sg->id * w;   /* w = S: a shift where constant */
        uint64_t lid[3] = { lin, 0, 0 };
        if (lin >= ls0) {
            const uint64_t ls1 = wg->local_size[1];
            lid[0] = lin % ls0;
            lid[1] = (lin / ls0) % ls1;
            lid[2] = lin / (ls0 * ls1);
        }
        if (lid[0] + w > ls0)
            return SP_CALLBACK;
        v = lid[dim];
        if (sp == ISA_SP_GLOBAL_ID)
            v += wg->gid_base[dim];
        *out = v;
        return dim == 0 ? SP_RAMP : SP_ROW;
    }
    case ISA_SP_LOCAL_SIZE:          v = wg->local_size[dim]; break;
    case ISA_SP_GROUP_ID:            v = wg->group_id[dim]; break;
    case ISA_SP_GLOBAL_SIZE:         v = run->global[dim]; break;
    case ISA_SP_NUM_GROUPS:          v = run->num_groups[dim]; break;
    case ISA_SP_ENQUEUED_LOCAL_SIZE: v = run->local[dim]; break;
    case ISA_SP_GLOBAL_OFFSET:       v = run->offset[dim]; break;
    case ISA_SP_WORK_DIM:            v = run->dims; break;
    case ISA_SP_SUB_GROUP_SIZE:      v = sg->l.size; break;
    case ISA_SP_MAX_SUB_GROUP_SIZE:  v = w; break;
    case ISA_SP_NUM_SUB_GROUPS:      v = wg->nsg; break;
    case ISA_SP_SUB_GROUP_ID:        v = sg->id; break;
    /* lane l's own: the lanes of a sub-group are consecutive items */
    case ISA_SP_SUB_GROUP_LOCAL_ID:
        *out = 0;
        return SP_RAMP;
    case ISA_SP_LOCAL_LINEAR_ID:
        *out = (uint64_t)sg->id * w;
        return SP_RAMP;
    default:
        return SP_CALLBACK;
    }
    *out = v;
    return SP_ROW;
}

/* How a load/store index register reads lane value v (memory.c's
 * lane_addresses). */
static inline __attribute__((always_inline)) uint64_t
index_value(emu_didx k, uint64_t v)
{
    switch (k) {
    case EMU_IDX_U32: return v & 0xffffffffu;
    case EMU_IDX_S32: return (uint64_t)(int64_t)(int32_t)(uint32_t)v;
    default:          return v;
    }
}

/* emu_mem_ptr's answer for a decoded access that it would accept, inline
 * (a call and a switch per access cost as much as a 16-lane copy): the
 * host pointer of n bytes at address a, or NULL for anything else, which
 * the caller hands to emu_mem_exec to find and report. */
static inline __attribute__((always_inline)) uint8_t *
ldst_ptr(const emu_run *run, uint32_t space, uint64_t a, uint64_t n, bool store)
{
    if (space == ISA_SPACE_LOCAL) {
        const emu_wg *wg = run->wg;
        return a <= wg->local_bytes && n <= wg->local_bytes - a ? wg->local_mem + a : NULL;
    }
    /* global or constant (decode_mem admits no other space): buffer i
     * lives at (i + 1) << EMU_BUF_SHIFT; address 0 wraps to a huge i */
    const uint64_t i = (a >> EMU_BUF_SHIFT) - 1;
    if (i >= run->k->narg)
        return NULL;
    const uint8_t kind = run->k->args[i].kind;
    const sgemu_argval *v = &run->args[i];
    if ((kind != ISA_ARG_GLOBAL && (kind != ISA_ARG_CONSTANT || store)) ||
        v->kind != SGEMU_VAL_BUFFER)
        return NULL;
    const uint64_t off = a & EMU_BUF_OFFSET_MASK;
    return off <= v->bytes && n <= v->bytes - off ? v->data + off : NULL;
}

/* The copy of a coalesced access: a load's w elements of es bytes at p
 * into row d, or a store's row v to them. */
static inline __attribute__((always_inline)) void
ldst_copy(uint8_t *p, bool store, uint64_t es, uint64_t *d, const uint64_t *v,
          const uint32_t w)
{
    if (!store) {
        if (es == 4) {
            lanes_fast_widen32(d, p, w);
        } else if (es == 8) {
            memcpy(d, p, (size_t)w * 8);   /* little-endian host */
        } else {
            for (uint32_t l = 0; l < w; l++) {
                uint64_t x = 0;
                memcpy(&x, p + es * l, es);
                d[l] = x;
            }
        }
        return;
    }
    if (es == 4) {
        lanes_fast_narrow32(p, v, w);
    } else if (es == 8) {
        memcpy(p, v, (size_t)w * 8);
    } else {
        for (uint32_t l = 0; l < w; l++)
            memcpy(p + es * l, &v[l], es);
    }
}

/* A decoded scalar load or store (decode.h's emu_dmem).  The common case,
 * every lane active and lane l at address(0) + l * size inside one buffer,
 * is one bounds check and a straight copy; everything else (a partial
 * mask, a gather, a fault to report, a recorded run) goes to emu_mem_exec,
 * which recomputes the access from the instruction. */
static inline __attribute__((always_inline)) int
exec_ldst(emu_run *run, emu_sg *sg, const emu_dmem *m, const isa_inst *in,
          lanes_mask mask, lanes_mask full, uint32_t pc, emu_rec *rec,
          uint64_t *regs, const uint64_t *consts, const uint32_t w, const bool idx_ramp)
{
    const uint64_t es = m->esize;
    if (rec || mask != full)
        return emu_mem_exec(run, sg, in, mask, pc, rec);
    const uint64_t *b = regs + m->base_row, *x = regs + m->idx_row;
    const uint64_t sc = m->scale, disp = m->disp;
    const uint64_t b0 = m->base_reg ? b[0] : m->base;
    uint64_t a0, acc = 0;
    /* lane l at a0 + l * size: an index that steps by one per lane over a
     * uniform base (scale = size), or a base register that steps by size;
     * each test is one OR-reduction the compiler vectorises.  Any other
     * form is checked address by address.  An index register known to be
     * a lane ramp (idx_ramp: m->ramp_idx and its bit) needs only its first and last
     * lanes: read as the index type they are w - 1 apart exactly when no
     * lane wrapped around 2^32 (u32) or 2^31 (i32). */
    if (idx_ramp) {
        const emu_didx k = (emu_didx)m->idx;
        const uint64_t x0 = index_value(k, x[0]);
        acc = index_value(k, x[w - 1]) - x0 - (w - 1);
        a0 = b0 + x0 * sc + disp;
    } else if (m->idx == EMU_IDX_NONE && m->base_reg) {
        for (uint32_t l = 0; l < w; l++)
            acc |= (b[l] - lane_id[l] * es) ^ b0;
        a0 = b0 + disp;
    } else if (m->idx != EMU_IDX_NONE && sc == es) {
        uint64_t x0;
        switch ((emu_didx)m->idx) {
        case EMU_IDX_U32:
            x0 = x[0] & 0xffffffffu;
            for (uint32_t l = 0; l < w; l++)
                acc |= ((x[l] & 0xffffffffu) - lane_id[l]) ^ x0;
            break;
        case EMU_IDX_64:
            x0 = x[0];
            for (uint32_t l = 0; l < w; l++)
                acc |= (x[l] - lane_id[l]) ^ x0;
            break;
        default:
            x0 = (uint64_t)(int64_t)(int32_t)(uint32_t)x[0];
            for (uint32_t l = 0; l < w; l++)
                acc |= ((uint64_t)(int64_t)(int32_t)(uint32_t)x[l] - lane_id[l]) ^ x0;
            break;
        }
        if (m->base_reg)
            for (uint32_t l = 0; l < w; l++)
                acc |= b[l] ^ b0;
        a0 = b0 + x0 * sc + disp;
    } else {
        uint64_t addr[LANES_MAX];
        addr[0] = 0;    /* w >= 1; this only tells the compiler so */
#define ADDR_LOOP(BASE, IDX) \
    for (uint32_t l = 0; l < w; l++) \
        addr[l] = (BASE) + (IDX) * sc + disp;
        if (m->base_reg) {
            switch ((emu_didx)m->idx) {
            default:           ADDR_LOOP(b[l], 0) break;
            case EMU_IDX_U32:  ADDR_LOOP(b[l], (x[l] & 0xffffffffu)) break;
            case EMU_IDX_64:   ADDR_LOOP(b[l], x[l]) break;
            case EMU_IDX_S32:  ADDR_LOOP(b[l], (uint64_t)(int64_t)(int32_t)(uint32_t)x[l]) break;
            }
        } else {
            switch ((emu_didx)m->idx) {
            default:           ADDR_LOOP(b0, 0) break;
            case EMU_IDX_U32:  ADDR_LOOP(b0, (x[l] & 0xffffffffu)) break;
            case EMU_IDX_64:   ADDR_LOOP(b0, x[l]) break;
            case EMU_IDX_S32:  ADDR_LOOP(b0, (uint64_t)(int64_t)(int32_t)(uint32_t)x[l]) break;
            }
        }
#undef ADDR_LOOP
        a0 = addr[0];
        for (uint32_t l = 1; l < w; l++)
            acc |= addr[l] ^ (a0 + l * es);
    }
    const bool ok = acc == 0 && (a0 & (es - 1)) == 0;   /* es: 1, 2, 4 or 8 */
    uint8_t *p = NULL;
    if (ok && m->buf && a0 >> EMU_BUF_SHIFT == m->buf) {
        /* the argument's buffer (decode checked its kind): its bounds */
        const sgemu_argval *v = &run->args[m->buf - 1];
        const uint64_t off = a0 & EMU_BUF_OFFSET_MASK, nb = w * es;
        if (v->kind == SGEMU_VAL_BUFFER && off <= v->bytes && nb <= v->bytes - off)
            p = v->data + off;
    } else if (ok) {
        p = ldst_ptr(run, m->space, a0, w * es, m->store);
    }
    if (!p)
        return emu_mem_exec(run, sg, in, mask, pc, rec);
    ldst_copy(p, m->store, es, regs + m->val_row,
              (m->val_sel ? consts : regs) + m->val_row, w);
    return 0;
}

/* The interpreter proper.  It runs in stints: a stint reads the top SIMT
 * entry once and keeps pc, mask and the reconvergence point in registers
 * while decoded instructions run (they never touch the SIMT stack); only a
 * divergent branch, reaching the reconvergence point or an instruction of
 * the generic path writes the pc back and starts a new stint.  Instruction
 * and lane counts stay in registers too (*ninst, *nlanes, flushed by the
 * caller): read-modify-writes of the statistics on every instruction were
 * a loop-carried store-load chain that cost more than a small instruction's
 * lane work; they are handed back at every exit (LEAVE). */
#define LEAVE(rc) do { *ninst = n; *nlanes = lanes + nl * (n - n0); return (rc); } while (0)

/* the next local count at which the limit, the end of the turn or a stop
 * request is checked: the limit itself, EMU_SG_QUANTUM, or the next
 * multiple of 1024 instructions overall */
static inline uint64_t next_check(uint64_t icount0, uint64_t n, uint64_t budget)
{
    const uint64_t stop_at = n + ((1024 - ((icount0 + n) & 1023)) & 1023);
    const uint64_t end = budget < EMU_SG_QUANTUM ? budget : EMU_SG_QUANTUM;
    return stop_at < end ? stop_at : end;
}

/* What exec_loop reads of the run that no instruction changes: loaded
 * once per work-group by exec_group (locals, so the calls of the lane
 * kernels do not force them to be read again) instead of per sub-group. */
typedef struct exec_inv {
    const isa_kernel *k;
    const emu_dinst *dec;
    const uint64_t *consts;
    const emu_dmem *mem;
    uint64_t limit;       /* launch->max_instructions */
    uint32_t kinst;
} exec_inv;

static inline __attribute__((always_inline)) exec_inv exec_inv_of(const emu_run *run)
{
    return (exec_inv){ .k = run->k, .dec = run->dp.d, .consts = run->dp.consts,
                       .mem = run->dp.mem, .limit = run->launch->max_instructions,
                       .kinst = run->k->ninst };
}

/* `traced` is a constant in each of the two copies emu_exec_subgroup
 * calls, so the untraced one carries no record keeping at all */
static inline __attribute__((always_inline)) int
exec_loop(emu_run *run, emu_sg *sg, const exec_inv inv, const uint64_t icount0,
          uint64_t *ninst, uint64_t *nlanes, const bool traced, const uint32_t W)
{
    const isa_kernel *k = inv.k;
    const uint32_t kinst = inv.kinst;
    lanes_simt *s = &sg->l.simt;
    emu_wg_trace *tr = traced ? run->wg->trace : NULL;
    const uint64_t limit = inv.limit;
    /* instructions this call may run before the limit */
    const uint64_t budget = !limit ? UINT64_MAX
                          : limit > icount0 ? limit - icount0 : 0;
    /* lanes: active-lane count of the finished stints; a stint's own
     * instructions (n - n0) share its mask, so its nl lanes each are added
     * once when it ends instead of on every instruction */
    uint64_t n = 0, lanes = 0, n0 = 0, nl = 0;
    /* one compare per instruction covers the limit and the stop requests */
    uint64_t check = next_check(icount0, 0, budget);
    const uint32_t w = W ? W : sg->l.width;
    const lanes_mask full = lanes_mask_first(w);
    const emu_dinst *dec = inv.dec;
    uint64_t *const regs = sg->l.regs;
    /* operand rows: a source's sel picks the register file or the
     * pre-broadcast constants */
    const uint64_t *const base[2] = { regs, inv.consts };
    /* bit r: register r holds a lane ramp (r[l] = r[0] + l).  Only the
     * work-item id queries write the registers of dp.ramp_regs (decode.c
     * checks every writer), so a bit stays true until one of them runs
     * again.  Tracked in the untraced copies of the loop, from all clear
     * at each entry: a sub-group resuming after a barrier takes the
     * general paths until its next id query (looking at the rows again
     * cost local_reduce more than its few whole-sub-group uses gained).
     * A turn that ended at EMU_SG_QUANTUM keeps them: nothing wrote the
     * sub-group's registers in between. */
    const bool track = !traced && W != 0;
    uint64_t ramp = track ? sg->resume_ramp : 0;
    sg->resume_ramp = 0;

    while (s->depth) {
        lanes_simt_entry *top = &s->e[s->depth - 1];
        uint32_t pc = top->pc;
        const uint32_t rpc = top->rpc;
        const lanes_mask mask = top->mask & ~s->exited;
        nl = mask == full ? w : lane_count(mask);
        n0 = n;
        const emu_dinst *d;
        emu_rec *rec;

        /* past the end is the end (a branch target the generic path
         * took): the decoded form's sentinel there returns */
        if (pc > kinst)
            pc = kinst;

        for (;;) {
            /* falling off the end returns; the untraced copies find the
             * end through the sentinel instruction (EMU_D_END) instead of
             * a compare per instruction, and here when the limit or stop
             * check below would come first */
            if ((traced || n >= check) && pc >= kinst) {
                top->pc = pc;
                lanes_fast_simt_ret(s);
                goto next_stint;
            }
            if (n >= check) {
                if (n >= budget) {
                    top->pc = pc;
                    LEAVE(emu_fault(run, SGEMU_EXIT_FAULT, sg, UINT32_MAX, pc,
                                    "instruction limit of %llu subgroup instructions reached "
                                    "(runaway kernel? raise --max-instructions)",
                                    (unsigned long long)limit));
                }
                /* the end of its turn: it stays running and resumes here
                 * when workgroup.c's next pass comes back to it */
                if (n >= EMU_SG_QUANTUM) {
                    top->pc = pc;
                    sg->resume_ramp = ramp;
                    LEAVE(0);
                }
                /* a signal handler's stop request: checked every 1024
                 * instructions, so a long work-group stops too, at little cost */
                if (((icount0 + n) & 1023) == 0 && sgemu_stop_requested()) {
                    top->pc = pc;
                    LEAVE(emu_fault(run, SGEMU_EXIT_INTERRUPTED, sg, UINT32_MAX, pc,
                                    "interrupted (stop requested by a signal)"));
                }
                check = next_check(icount0, n + 1, budget);
            }
            n++;
            rec = NULL;
            if (traced && tr) {
                rec = emu_trace_push(tr, sg->id, pc);
                if (!rec) {
                    top->pc = pc;
                    LEAVE(emu_fault(run, SGEMU_EXIT_INTERNAL, sg, UINT32_MAX, pc,
                                     "out of host memory recording the run"));
                }
                rec->mask = mask;
                rec->uop_first = tr->nuops;
            }

            d = &dec[pc];
            /* the common case first, as a plain test: a jump table's single
             * indirect jump mispredicted on most instructions */
            if (__builtin_expect(d->kind == EMU_D_ALU, 1)) {
                const uint64_t *a = base[d->sel[0]] + d->src[0];
                const uint64_t *b = base[d->sel[1]] + d->src[1];
                const uint64_t *c = base[d->sel[2]] + d->src[2];
                if (mask == full) {
                    d->fn(regs + d->dst, a, b, c, w);
                } else {
                    uint64_t tmp[LANES_MAX];
                    d->fn(tmp, a, b, c, w);
                    lanes_fast_blend(regs + d->dst, tmp, mask, w);
                }
                pc++;
            } else if (d->kind == EMU_D_CMP) {
                const uint64_t *a = base[d->sel[0]] + d->src[0];
                const uint64_t *b = base[d->sel[1]] + d->src[1];
                lanes_mask v;
                /* a ramp against a constant: the lanes below (or at) the
                 * constant are a prefix, counted instead of compared */
                if (!(track && d->ramp && (ramp >> d->src[2] & 1) &&
                      lanes_fast_cmp_ramp((isa_binop)(d->dst & 0xff), (isa_type)(d->dst >> 8),
                                          a[0], a[w - 1], b[0], w, &v)))
                    v = d->cmp(a, b, w);
                lanes_mask *p = &sg->l.preds[d->pred];
                *p = (*p & ~mask) | (v & mask);
                pc++;
                /* the branch on this predicate right after it (decode.h):
                 * no dispatch of its own, still counted as an instruction;
                 * only where the loop top would not stop before it */
                if (!traced && d->has_pred && pc != rpc && n < check) {
                    n++;
                    d = &dec[pc];
                    goto branch;
                }
            } else switch ((emu_dkind)d->kind) {
            case EMU_D_ALU:
            case EMU_D_CMP:
                break;
            case EMU_D_MOV: {
                const uint64_t *a = base[d->sel[0]] + d->src[0];
                uint64_t *r = regs + d->dst;
                const uint64_t m = d->m;
                if (mask == full) {
                    for (uint32_t l = 0; l < w; l++)
                        r[l] = a[l] & m;
                } else {
                    for (uint32_t l = 0; l < w; l++) {
                        const uint64_t lm = (uint64_t)0 - ((mask >> l) & 1);
                        r[l] = (a[l] & m & lm) | (r[l] & ~lm);
                    }
                }
                pc++;
                break;
            }
            case EMU_D_NOP:
                pc++;
                break;
            case EMU_D_END:
                /* the end of the kernel, not an instruction */
                n--;
                /* fall through: it returns */
                __attribute__((fallthrough));
            case EMU_D_RET:
                /* as the generic path's: the lanes leave, the stint ends */
                top->pc = pc;
                lanes_fast_simt_ret(s);
                goto next_stint;
            case EMU_D_SPECIAL: {
                uint64_t *r = regs + d->dst;
                const uint64_t m = d->m;
                /* the x id (decode's sel[0]; sel[1]: global) of a whole
                 * sub-group inside the work-group's first row: special_value's
                 * SP_RAMP without its switch and row arithmetic */
                if (d->sel[0] && mask == full) {
                    const emu_wg *wg = run->wg;
                    const uint64_t lin = (uint64_t)sg->id * w;
                    if (lin + w <= wg->local_size[0]) {
                        const uint64_t vm = (lin + (d->sel[1] ? wg->gid_base[0] : 0)) & m;
                        const bool nowrap = vm + (w - 1) <= m;
                        if (track && d->ramp) {
                            const uint64_t bit = UINT64_C(1) << d->pred;
                            ramp = (ramp & ~bit) | (nowrap ? bit : 0);
                        }
                        if (nowrap)
                            lanes_fast_ramp(r, vm, w);
                        else
                            for (uint32_t l = 0; l < w; l++)
                                r[l] = (vm + lane_id[l]) & m;
                        pc++;
                        break;
                    }
                }
                uint64_t v = 0;
                const int got = special_value(run, sg, d->src[0], d->src[1], w, &v);
                if (track && d->ramp) {
                    /* a tracked register: still a ramp after the type's
                     * mask unless that wrapped a lane */
                    const uint64_t bit = UINT64_C(1) << d->pred;
                    ramp &= ~bit;
                    if (got == SP_RAMP && mask == full && (v & m) + (w - 1) <= m)
                        ramp |= bit;
                }
                if (got != SP_CALLBACK && mask == full) {
                    const uint64_t vm = v & m;
                    if (got == SP_RAMP && vm + (w - 1) <= m)   /* no lane wraps */
                        lanes_fast_ramp(r, vm, w);
                    else if (got == SP_RAMP)
                        for (uint32_t l = 0; l < w; l++)
                            r[l] = (v + lane_id[l]) & m;
                    else
                        for (uint32_t l = 0; l < w; l++)
                            r[l] = v & m;
                    pc++;
                    break;
                }
                uint64_t row[LANES_MAX];
                if (got == SP_RAMP) {
                    for (uint32_t l = 0; l < w; l++)
                        row[l] = v + lane_id[l];
                } else if (got == SP_ROW) {
                    for (uint32_t l = 0; l < w; l++)
                        row[l] = v;
                } else if (run->lenv.special) {
                    run->lenv.special(run->lenv.user, &sg->l, (isa_special)d->src[0],
                                      d->src[1], row);
                } else {
                    memset(row, 0, sizeof row);
                }
                if (mask == full) {
                    for (uint32_t l = 0; l < w; l++)
                        r[l] = row[l] & m;
                } else {
                    for (uint32_t l = 0; l < w; l++) {
                        const uint64_t lm = (uint64_t)0 - ((mask >> l) & 1);
                        r[l] = (row[l] & m & lm) | (r[l] & ~lm);
                    }
                }
                pc++;
                break;
            }
            case EMU_D_LDST_RAMP:
                /* the whole sub-group over a ramp index that stays one
                 * row in the index type: one block inside the buffer.
                 * emu_decode_bind turned the checks (no lane wraps in the
                 * index type, alignment, the argument's buffer and its
                 * bounds) into one range of lane 0's index.  The slot is
                 * compared as it is: inside that range (below 2^31 for
                 * i32, 2^32 for u32) reading it as the index type changes
                 * nothing, and a slot outside (a negative i32, high bits
                 * above a u32) takes the general path. */
                if (track && (ramp >> d->pred & 1) && mask == full) {
                    const emu_dmem *rm = &inv.mem[d->src[0]];
                    const uint64_t es = d->sel[2];
                    const uint64_t x0 = regs[d->src[1]];
                    if (x0 - rm->ramp_lo < rm->ramp_n) {
                        ldst_copy((uint8_t *)(rm->ramp_ptr + x0 * es), d->has_pred, es,
                                  regs + d->dst, base[d->sel[0]] + d->dst, w);
                        pc++;
                        goto moved;
                    }
                }
                goto ldst;
            /* the same for 4-byte elements, load or store known at decode */
            case EMU_D_LD_RAMP4:
                if (track && (ramp >> d->pred & 1) && mask == full) {
                    const emu_dmem *rm = &inv.mem[d->src[0]];
                    const uint64_t x0 = regs[d->src[1]];
                    if (x0 - rm->ramp_lo < rm->ramp_n) {
                        lanes_fast_widen32(regs + d->dst,
                                           (const uint8_t *)(rm->ramp_ptr + x0 * 4), w);
                        pc++;
                        goto moved;
                    }
                }
                goto ldst;
            case EMU_D_ST_RAMP4:
                if (track && (ramp >> d->pred & 1) && mask == full) {
                    const emu_dmem *rm = &inv.mem[d->src[0]];
                    const uint64_t x0 = regs[d->src[1]];
                    if (x0 - rm->ramp_lo < rm->ramp_n) {
                        lanes_fast_narrow32((uint8_t *)(rm->ramp_ptr + x0 * 4),
                                            base[d->sel[0]] + d->dst, w);
                        pc++;
                        goto moved;
                    }
                }
                goto ldst;
            case EMU_D_LDST:
            ldst: {
                /* every other case of the kinds above too */
                const emu_dmem *m = &inv.mem[d->src[0]];
                const bool ir = track && m->ramp_idx && (ramp >> m->idx_reg & 1);
                if (exec_ldst(run, sg, m, &k->inst[pc], mask, full,
                              pc, rec, regs, inv.consts, w, ir)) {
                    top->pc = pc;
                    LEAVE(run->fault->code);
                }
                pc++;
                goto moved;
            }
            case EMU_D_MEM:
                if (emu_mem_exec(run, sg, &k->inst[pc], mask, pc, rec)) {
                    top->pc = pc;
                    LEAVE(run->fault->code);
                }
                pc++;
                goto moved;   /* as the generic path: no micro-op count */
            case EMU_D_XALU:
                if (lanes_exec_alu(&run->lenv, &sg->l, &k->inst[pc], mask) != 0) {
                    top->pc = pc;
                    LEAVE(emu_fault(run, SGEMU_EXIT_FAULT, sg, sg->l.fault_lane, pc,
                                     "integer division by zero"));
                }
                pc++;
                break;
            case EMU_D_BRA:
            branch: {
                const uint32_t target = d->src[0];
                if (!d->has_pred) {
                    pc = target;
                    goto moved;
                }
                lanes_mask p = sg->l.preds[d->pred];
                if (d->negate)
                    p = ~p;
                p &= mask;
                /* a uniform branch stays in the stint */
                if (p == mask) {
                    pc = target;
                    goto moved;
                }
                if (p == 0) {
                    pc++;
                    goto moved;
                }
                top->pc = pc;
                lanes_simt_branch(s, p, target, pc + 1, d->src[1]);
                goto next_stint;
            }
            case EMU_D_DETECT: {
                const isa_inst *in = &k->inst[pc];
                /* a coalesced 32-bit access of the whole sub-group: the
                 * detector takes its first address, then the plain run's
                 * copy runs (EMU_D_LD_RAMP4 / _ST_RAMP4 above) */
                const emu_dinst *pd = emu_detect_decoded(run, pc);
                if ((pd->kind == EMU_D_LD_RAMP4 || pd->kind == EMU_D_ST_RAMP4) && track &&
                    (ramp >> pd->pred & 1) && mask == full) {
                    const emu_dmem *rm = &inv.mem[pd->src[0]];
                    const uint64_t x0 = regs[pd->src[1]];
                    if (x0 - rm->ramp_lo < rm->ramp_n &&
                        emu_detect_ramp4(run, sg, in, pc, rm->base + rm->disp + x0 * 4)) {
                        if (pd->kind == EMU_D_LD_RAMP4)
                            lanes_fast_widen32(regs + pd->dst,
                                               (const uint8_t *)(rm->ramp_ptr + x0 * 4), w);
                        else
                            lanes_fast_narrow32((uint8_t *)(rm->ramp_ptr + x0 * 4),
                                                base[pd->sel[0]] + pd->dst, w);
                        pc++;
                        goto moved;
                    }
                }
                emu_detect_inst(run, sg, in, mask, pc);
                const isa_family fam = isa_ops[in->op].family;
                /* a load, store or atomic then runs as in the plain run's
                 * stint (a resolved one without the coalesced copy) */
                if ((fam == ISA_FAM_LD || fam == ISA_FAM_ST || fam == ISA_FAM_ATOM) &&
                    !isa_op_cross_lane(in->op)) {
                    d = emu_detect_decoded(run, pc);
                    if (d->kind == EMU_D_LDST || d->kind == EMU_D_LDST_RAMP ||
                        d->kind == EMU_D_LD_RAMP4 || d->kind == EMU_D_ST_RAMP4)
                        goto ldst;
                    if (emu_mem_exec(run, sg, in, mask, pc, rec)) {
                        top->pc = pc;
                        LEAVE(run->fault->code);
                    }
                    pc++;
                    goto moved;
                }
                top->pc = pc;
                goto generic;
            }
            case EMU_D_GENERIC:
            default:
                top->pc = pc;
                goto generic;
            }
            /* the decoded non-branch instructions record no micro-ops */
            if (rec)
                rec->nuops = tr->nuops - rec->uop_first;
        moved:
            /* only reaching the reconvergence point pops the stack (these
             * instructions never empty the active mask) */
            if (pc == rpc) {
                lanes_simt_goto(s, pc);
                goto next_stint;
            }
        }

    generic: ;
        const isa_inst *in = &k->inst[pc];
        const isa_op_info *oi = &isa_ops[in->op];
        switch (oi->family) {
        case ISA_FAM_LD:
        case ISA_FAM_ST:
        case ISA_FAM_ATOM:
            if (emu_mem_exec(run, sg, in, mask, pc, rec))
                LEAVE(run->fault->code);
            lanes_simt_goto(s, pc + 1);
            break;
        case ISA_FAM_BRA:
            if (in->o[0].kind == ISA_OPND_PRED) {
                lanes_mask p = sg->l.preds[in->o[0].reg];
                if (in->o[0].negate)
                    p = ~p;
                lanes_simt_branch(s, p & mask, in->target, pc + 1, in->reconv);
            } else {
                lanes_simt_goto(s, in->target);
            }
            break;
        case ISA_FAM_RET:
            lanes_fast_simt_ret(s);
            break;
        case ISA_FAM_BARRIER:
            if (!whole_subgroup(sg, mask))
                LEAVE(emu_fault(run, SGEMU_EXIT_FAULT, sg, (uint32_t)first_missing_lane(sg, mask), pc,
                                 "divergent barrier: %s reached by only some work-items "
                                 "(the work-item below did not reach it)", oi->mnemonic));
            if (oi->scope == ISA_SCOPE_WG) {
                sg->state = EMU_SG_BLOCKED;
                sg->block_pc = pc;
                LEAVE(0);
            }
            lanes_simt_goto(s, pc + 1);
            break;
        case ISA_FAM_IMG_READ:
        case ISA_FAM_IMG_WRITE:
        case ISA_FAM_IMG_QUERY:
            if (emu_image_exec(run, sg, in, mask, pc))
                LEAVE(run->fault->code);
            lanes_simt_goto(s, pc + 1);
            break;
        case ISA_FAM_PRINTF:
            if (emu_printf_exec(run, sg, in, mask, pc))
                LEAVE(run->fault->code);
            lanes_simt_goto(s, pc + 1);
            break;
        default:
            if (isa_op_cross_lane(in->op)) {
                if (isa_op_wg_sync(in->op)) {
                    sg->state = EMU_SG_BLOCKED;
                    sg->block_pc = pc;
                    LEAVE(0);
                }
                lanes_sg *one = &sg->l;
                coll_group g = { .nsg = 1, .sg = &one, .active = &mask,
                                 .wg_items = run->wg->items, .first_sg = sg->id };
                for (int dim = 0; dim < 3; dim++)
                    g.local_size[dim] = (uint32_t)run->wg->local_size[dim];
                if (emu_exec_collective(run, &g, in, pc))
                    LEAVE(run->fault->code);
            } else {
                if (lanes_exec_alu(&run->lenv, &sg->l, in, mask) != 0)
                    LEAVE(emu_fault(run, SGEMU_EXIT_FAULT, sg, sg->l.fault_lane, pc,
                                     "integer division by zero"));
            }
            if (rec)
                rec->nuops = tr->nuops - rec->uop_first;
            lanes_simt_goto(s, pc + 1);
            break;
        }
    next_stint:
        lanes += nl * (n - n0);
        n0 = n;
    }
    sg->state = EMU_SG_DONE;
    LEAVE(0);
}

#undef LEAVE

int emu_exec_subgroup(emu_run *run, emu_sg *sg)
{
    uint64_t ninst = 0, nlanes = 0;
    /* untraced runs at the common widths get copies whose lane loops have
     * a constant trip count (unrolled, no loop overhead) */
    int rc;
    const uint64_t ic = run->instructions;
    const exec_inv inv = exec_inv_of(run);
    if (run->wg->trace)
        rc = exec_loop(run, sg, inv, ic, &ninst, &nlanes, true, 0);
    else switch (sg->l.width) {
        case 8:  rc = exec_loop(run, sg, inv, ic, &ninst, &nlanes, false, 8); break;
        case 16: rc = exec_loop(run, sg, inv, ic, &ninst, &nlanes, false, 16); break;
        case 32: rc = exec_loop(run, sg, inv, ic, &ninst, &nlanes, false, 32); break;
        default: rc = exec_loop(run, sg, inv, ic, &ninst, &nlanes, false, 0); break;
    }
    sgemu_stats *st = run->stats;
    run->instructions += ninst;
    st->instructions += ninst;
    st->lane_ops += nlanes;
    st->lane_slots += ninst * sg->l.width;
    return rc;
}

/* emu_exec_workgroup for one width (W 0: any).  The set-up is
 * emu_run_workgroup's for every sub-group before any runs; then each runs
 * its first turn in id order, its instruction count starting where the
 * previous one's ended, and the statistics are added once. */
static inline __attribute__((always_inline)) int
exec_group(emu_run *run, emu_wg *wg, uint32_t *ndone, const uint32_t W)
{
    const uint32_t S = run->width, w = W ? W : S;
    const uint32_t nsg = wg->nsg, items = wg->items;
    const uint32_t npred = run->k->npred;
    const uint64_t zp = emu_zero_preds_mask(run->dp.zero_preds, npred);
    emu_sg *const sgs = wg->sg;
    for (uint32_t i = 0; i < nsg; i++) {
        emu_sg *sg = &sgs[i];
        const uint32_t size = i + 1 < nsg ? S : items - i * S;
        sg->id = i;
        sg->state = EMU_SG_RUNNING;
        sg->resume_ramp = 0;
        sg->l.size = size;
        sg->l.exists = lanes_mask_first(size);
        emu_zero_regs(sg->l.regs, &run->dp, w);
        emu_zero_preds(sg->l.preds, npred, zp);
        if (lanes_fast_simt_enter(&sg->l.simt, sg->l.exists) != 0)
            return emu_fault(run, SGEMU_EXIT_INTERNAL, NULL, UINT32_MAX, UINT32_MAX,
                             "out of host memory for the SIMT stack");
    }
    const uint64_t ic = run->instructions;
    const exec_inv inv = exec_inv_of(run);
    uint64_t n = 0, lanes = 0;
    uint32_t done = 0;
    int rc = 0;
    for (uint32_t i = 0; i < nsg; i++) {
        emu_sg *sg = &sgs[i];
        uint64_t ni = 0, nl = 0;
        rc = exec_loop(run, sg, inv, ic + n, &ni, &nl, false, W);
        n += ni;
        lanes += nl;
        if (rc) {
            rc = run->fault->code;
            break;
        }
        if (sg->l.simt.oom) {
            rc = emu_fault(run, SGEMU_EXIT_INTERNAL, NULL, UINT32_MAX, UINT32_MAX,
                           "out of host memory growing the SIMT stack");
            break;
        }
        done += sg->state == EMU_SG_DONE;
    }
    sgemu_stats *st = run->stats;
    run->instructions += n;
    st->instructions += n;
    st->lane_ops += lanes;
    st->lane_slots += n * S;
    *ndone = done;
    return rc;
}

int emu_exec_workgroup(emu_run *run, emu_wg *wg, uint32_t *ndone)
{
    switch (run->width) {
    case 8:  return exec_group(run, wg, ndone, 8);
    case 16: return exec_group(run, wg, ndone, 16);
    case 32: return exec_group(run, wg, ndone, 32);
    default: return exec_group(run, wg, ndone, 0);
    }
}
