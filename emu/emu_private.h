/*
 * emu_private.h - the functional engine's internal state, shared by the
 * files of emu/ (launch, work-group scheduling, the interpreter, memory).
 */
#ifndef SGEMU_EMU_PRIVATE_H
#define SGEMU_EMU_PRIVATE_H

#include "coll.h"
#include "config.h"
#include "decode.h"
#include "isa.h"
#include "lanes.h"
#include "record.h"
#include "sgemu.h"

#include <stdarg.h>
#include <string.h>

/* Global and constant buffers live at (argument index + 1) << 40 so that a
 * pointer identifies its buffer and no overflow walks into another one. */
#define EMU_BUF_SHIFT 40
#define EMU_BUF_OFFSET_MASK ((UINT64_C(1) << EMU_BUF_SHIFT) - 1)

/* Active lanes of mask at width w: a full mask (the common case) needs no
 * bit count, which on the baseline x86-64 target is a libgcc call. */
static inline uint32_t emu_active_lanes(uint64_t mask, uint32_t w)
{
    uint64_t full = w >= 64 ? ~0ull : (1ull << w) - 1;
    return mask == full ? w : (uint32_t)__builtin_popcountll(mask);
}

static inline uint64_t emu_buffer_base(uint32_t arg)
{
    return (uint64_t)(arg + 1) << EMU_BUF_SHIFT;
}

/* n slots from p cleared by libc's memset: out of line, so that GCC does
 * not expand it at each use into a `rep stos`, slower for these sizes. */
static __attribute__((noinline, unused)) void emu_zero_slots(uint64_t *p, size_t n)
{
    memset(p, 0, n * sizeof *p);
}

/* Zero the registers a sub-group's entry must (decode.h's zero_run: the
 * rows of zero_regs and those at 64 and above), traced or not. */
static inline __attribute__((always_inline)) void
emu_zero_regs(uint64_t *regs, const emu_dprog *dp, const uint32_t w)
{
    for (uint32_t i = 0; i < dp->nzero_runs; i++)
        emu_zero_slots(regs + (size_t)dp->zero_run[i][0] * w, (size_t)dp->zero_run[i][1] * w);
}

/* The same for the predicates: z is decode.h's zero_preds cut to the
 * first min(npred, 64) (emu_zero_preds_mask, once per work-group). */
static inline uint64_t emu_zero_preds_mask(uint64_t zero_preds, uint32_t npred)
{
    return zero_preds & lanes_mask_first(npred < 64 ? npred : 64);
}

static inline __attribute__((always_inline)) void
emu_zero_preds(lanes_mask *preds, uint32_t npred, uint64_t z)
{
    for (; z; z &= z - 1)
        preds[__builtin_ctzll(z)] = 0;
    for (uint32_t p = 64; p < npred; p++)
        preds[p] = 0;
}

typedef enum emu_sg_state {
    EMU_SG_RUNNING,
    EMU_SG_BLOCKED,        /* waiting at a barrier or work-group collective */
    EMU_SG_DONE
} emu_sg_state;

typedef struct emu_sg {
    lanes_sg l;            /* first: lanes callbacks cast back to emu_sg */
    uint32_t id;           /* sub-group id in the work-group */
    emu_sg_state state;
    uint32_t block_pc;     /* pc of the barrier / collective it waits at */
    uint32_t block_rec;    /* index of that instruction's record, if recording */
    uint64_t resume_ramp;  /* exec.c's ramp bits when its turn ended (EMU_SG_QUANTUM) */
} emu_sg;

/* A running sub-group's turn ends after this many instructions: the next
 * running sub-group of its work-group takes over (workgroup.c), so one that
 * spins on another's store sees it (independent forward progress). */
#define EMU_SG_QUANTUM 16384u

/* One work-group in flight. */
typedef struct emu_wg {
    uint64_t group_id[3];
    uint64_t local_size[3];     /* actual size (smaller in a trailing group) */
    uint32_t items;             /* work-items */
    uint32_t nsg;
    emu_sg *sg;
    uint8_t *local_mem;         /* static local + local arguments */
    uint32_t local_bytes;
    uint8_t *private_mem;       /* items * kernel private bytes */
    emu_wg_trace *trace;        /* records for the timing model, or NULL */
    /* --- appended (vector_add per-sub-group overhead) --- */
    uint64_t gid_base[3];       /* global id of local id 0: group * local + offset */
} emu_wg;

/* One run of sgemu_run. */
typedef struct emu_run {
    const isa_kernel *k;
    const emu_config *cfg;
    const sgemu_launch *launch;
    sgemu_argval *args;
    uint32_t width;             /* S */
    uint32_t dims;
    uint64_t global[3], local[3], offset[3], num_groups[3];
    uint64_t wg_total;
    uint32_t local_arg_offset[ISA_MAX_ARGS];  /* local arguments in local memory */
    uint32_t local_total;
    uint64_t arg_values[ISA_MAX_ARGS];
    lanes_env lenv;
    coll_options copt;
    coll_memory cmem;
    emu_wg *wg;                 /* the work-group being executed */
    sgemu_stats *stats;
    sgemu_fault *fault;
    uint64_t instructions;
    uint32_t cur_pc;            /* instruction whose micro-ops are being emitted */
    emu_sg *sg_pool;            /* subgroups, reused across work-groups */
    uint32_t sg_pool_n;
    uint8_t *local_pool;
    uint8_t *private_pool;
    uint8_t *coll_scratch;
    uint32_t coll_scratch_bytes;
    coll_shapes *coll_shapes;   /* scans' and reductions' micro-ops by shape */
    emu_dprog dp;               /* decoded form (decode.h); shared, read-only */
    struct emu_detect *det;     /* launch->detect's shadow state (detect.h), or NULL */
    struct emu_printf *pf;      /* the printf buffer (printf.c), or NULL */
    emu_trace_hint trace_hint;  /* sizes the next work-group's records */
} emu_run;

/* fault.c: fill run->fault and return its code.  `sg`/`lane` name the
 * work-item (lane UINT32_MAX: the whole subgroup). */
int emu_fault(emu_run *run, int code, const emu_sg *sg, uint32_t lane,
              uint32_t pc, const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/* launch.c: the host's wall-clock (monotonic) and process CPU seconds at a
 * point, and the time since then written to sgemu_stats.host_wall_s /
 * host_cpu_s (after the run, which clears stats first). */
typedef struct emu_host_mark { double wall_s, cpu_s; } emu_host_mark;
emu_host_mark emu_host_now(void);
void emu_host_since(emu_host_mark t0, sgemu_stats *stats);
/* fault.c: record the address of the memory fault about to be raised with
 * emu_fault (for sgemu_fault.addr); returns 0. */
int emu_fault_at(emu_run *run, uint64_t addr);
void emu_workitem_ids(const emu_run *run, const emu_sg *sg, uint32_t lane,
                      uint64_t gid[3], uint64_t lid[3]);

/* memory.c */
int emu_mem_exec(emu_run *run, emu_sg *sg, const isa_inst *in, lanes_mask mask,
                 uint32_t pc, emu_rec *rec);
/* Translate (space, addr, n) into a host pointer, or NULL when out of
 * bounds; *why explains.  `store` rejects constant memory. */
uint8_t *emu_mem_ptr(emu_run *run, isa_space space, uint64_t addr, uint32_t n,
                     bool store, uint32_t lane, const char **why);
void emu_mem_describe(const emu_run *run, isa_space space, uint64_t addr,
                      char *buf, size_t n);
/* The address of `o` (an ISA_OPND_ADDR) for every lane of sg. */
void emu_mem_lane_addresses(const emu_run *run, emu_sg *sg, const isa_operand *o,
                            uint64_t *out);

/* exec.c: run one subgroup until it blocks, finishes or faults. */
int emu_exec_subgroup(emu_run *run, emu_sg *sg);

/* exec.c: the first pass over work-group wg of an untraced run: sets
 * every sub-group up, then runs each (in id order) until it blocks,
 * finishes or faults; *ndone: how many finished.  0 or the fault code. */
int emu_exec_workgroup(emu_run *run, emu_wg *wg, uint32_t *ndone);

/* exec.c: a collective or block-I/O instruction over group g. */
int emu_exec_collective(emu_run *run, coll_group *g, const isa_inst *in, uint32_t pc);

/* image.c: image element reads/writes and queries. */
int emu_image_exec(emu_run *run, emu_sg *sg, const isa_inst *in, lanes_mask mask,
                   uint32_t pc);

/* image.c: the image model, shared with the Gen path (emu/gen/gen_image.c).
 * load: texel (x, y) as four 32-bit channels in the register form of its
 * channel type (missing channels 0, alpha 1; outside the image the border
 * colour); store: converts and writes the image's channels (nothing outside
 * it); inside: (x, y) is in the image; outside_text: the fault text of an
 * access outside it; sample: see image.c; texel_addr: the trace address of
 * a texel, clamped into the image, in the timing model's flat space
 * (tm_image_addr); query_value: the SPIR-V enum of the
 * channel order (or data type), the CLK_* value less 0x10B0 (0x10D0). */
void emu_image_load(const sgemu_image *im, int64_t x, int64_t y, uint32_t out[4]);
void emu_image_store(const sgemu_image *im, int64_t x, int64_t y, const uint32_t v[4]);
bool emu_image_inside(const sgemu_image *im, int64_t x, int64_t y);
void emu_image_outside_text(char *buf, size_t cap, const char *op, int64_t x, int64_t y,
                            const char *name, const sgemu_image *im);
int emu_image_sample(const sgemu_image *im, uint32_t smp, float s, float t, const char *op,
                     const char *name, uint32_t out[4], int64_t first[2], char *why,
                     size_t cap);
uint64_t emu_image_texel_addr(const sgemu_image *im, uint32_t arg, int64_t x, int64_t y);
uint32_t emu_image_query_value(const sgemu_image *im, bool order);
/* One byte at byte coordinate (x, y) of an image block access, moved
 * between the image and *b: outside the image, reads of 4-byte elements
 * clamp to the nearest edge element and writes are dropped (as the image
 * block I/O of collectives/block_io.c); -1 for other element sizes. */
int emu_image_block_byte(const sgemu_image *im, int64_t x, int64_t y, bool write,
                         uint8_t *b);

/* printf.c: the launch's printf buffer.  init: when the kernel has formats
 * (-1: out of host memory); exec: the printf instruction; finish: sort and
 * format the output into stats (-1: out of host memory); free: drop it. */
typedef struct emu_printf emu_printf;
/* The printf buffer of a kernel IGC compiled: the size IGC's code assumes
 * (its DriverInfo printf buffer size, 4 MiB for OpenCL), and its hidden
 * argument (index + 1; 0: none; gen/gen_run.c) */
/* The temporaries each elementary function holds at `width` on the config's
 * device.ocloc_target (emu/math_temps.def: measured from IGC's inlined
 * math library; none for other targets or widths).  True if any. */
bool emu_math_temps(const emu_config *cfg, uint32_t width, isa_math_temps *out);

#define EMU_IGC_PRINTF_BYTES (4u << 20)
uint32_t emu_gen_printf_arg(const isa_kernel *k);
int emu_printf_init(emu_run *run);
int emu_printf_exec(emu_run *run, emu_sg *sg, const isa_inst *in, lanes_mask mask,
                    uint32_t pc);
int emu_printf_finish(emu_run *run, sgemu_stats *stats);
void emu_printf_free(emu_run *run);

/* gen/gen_run.c: the NDRange of a Gen program (run->k->gen). */
int emu_gen_run(emu_run *run);

/* workgroup.c */
int emu_run_workgroup(emu_run *run, uint64_t wg_linear, emu_wg_trace *trace);
/* Work-group wg_linear's ID, size (smaller at the NDRange's edge), first
 * global ID and sub-group count into wg (the Gen engine's too). */
void emu_wg_place(const emu_run *run, uint64_t wg_linear, emu_wg *wg);
/* The whole NDRange in functional mode on launch->threads host threads
 * (0: all cores); results are those of one thread for race-free kernels.
 * Adds work-group statistics to run->stats. */
int emu_run_workgroups(emu_run *run);
/* Host threads for `asked` (0: every online core), at most 256. */
uint32_t emu_host_threads(uint32_t asked);

#endif
