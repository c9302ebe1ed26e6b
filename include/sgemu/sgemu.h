/*
 * sgemu.h - the public API of libsgemu.  A program includes this header
 * alone, as <sgemu/sgemu.h>, and links `pkg-config --libs sgemu`;
 * docs/api.md walks through it and states what stays compatible.
 *
 * What a program does, in order, and where it is declared:
 *   load a kernel       sgemu_kernel_load (.sgasm, SPIR-V, OpenCL C), below;
 *                       the kernel's form (arguments, instructions): isa.h
 *   pick a device       emu_config_load_named (a bundled config or a file),
 *                       emu_config_set: config.h
 *   bind arguments      one sgemu_argval per kernel argument, below
 *   run                 sgemu_run over an NDRange at a sub-group width, below
 *   read results        buffers in place; sgemu_stats; cycles and the rest
 *                       of the timing model's results: timing.h; faults:
 *                       sgemu_fault
 *   record and replay   sgemu_launch.record_path, sgemu_replay, below
 *
 * Prefixes name the part of sgemu a declaration belongs to: sgemu_ (this
 * header), isa_ (the program form), emu_config (the device), coll_
 * (collective micro-ops and their options), tm_ (timing results).
 */
#ifndef SGEMU_H
#define SGEMU_H

#include "collectives.h"
#include "config.h"
#include "isa.h"
#include "timing.h"
#include "version.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ------------------------------------------------------------ errors */

/* Return codes of the API, and exit codes of the sgemu command
 * (docs/cli.md). */
enum {
    SGEMU_EXIT_OK = 0,
    SGEMU_EXIT_USER = 1,      /* bad input: kernel, config, arguments, options */
    SGEMU_EXIT_FAULT = 2,     /* the kernel faulted (bounds, divergence, limits) */
    SGEMU_EXIT_INTERNAL = 3   /* a bug in sgemu or out of host memory */
};
/* A run stopped by sgemu_request_stop (the status of a process killed by
 * SIGINT). */
#define SGEMU_EXIT_INTERRUPTED 130

/* Why a call failed: its return code and one message.  A kernel fault's
 * message names the kernel, source line, work-item and address; the fields
 * after msg say the same field by field, for machine-readable output (zero
 * for other errors). */
typedef struct sgemu_fault {
    int code;                  /* SGEMU_EXIT_* */
    char msg[1024];
    char what[512];            /* the message without kernel, line and work-item */
    char kernel[64];           /* "" when no kernel was running */
    uint32_t line;             /* source line of the faulting instruction; 0: none */
    bool has_item;             /* group_id and subgroup are set */
    bool has_lane;             /* global_id, local_id and lane are set too */
    uint64_t global_id[3], local_id[3], group_id[3];
    uint32_t subgroup, lane;
    bool has_addr;             /* the faulting address */
    uint64_t addr;
} sgemu_fault;

/* The version of the library linked in (SGEMU_VERSION_STRING of its build). */
const char *sgemu_version_string(void);

/* ---------------------------------------------------- loading a kernel */

typedef enum sgemu_source_kind {
    SGEMU_SOURCE_SGASM,        /* sgemu's assembly (docs/isa.md) */
    SGEMU_SOURCE_SPIRV,        /* an OpenCL SPIR-V module (docs/spirv.md) */
    SGEMU_SOURCE_OPENCL_C      /* compiled to SPIR-V by clang-14 and llvm-spirv-14 */
} sgemu_source_kind;

/* How to load; zero-initialise, every field is optional. */
typedef struct sgemu_load_opts {
    const char *entry;               /* SPIR-V, OpenCL C: the kernel's name (NULL: the
                                        module's only kernel) */
    const char *const *cl_options;   /* OpenCL C: clang options (-D, -I, -cl-std=, -g...) */
    uint32_t ncl_options;
    void *log;                       /* FILE * the compilers' messages go to (NULL: stderr) */
} sgemu_load_opts;

/* What a load found out besides the kernel. */
typedef struct sgemu_load_info {
    sgemu_source_kind kind;
    bool args_unnamed;               /* SPIR-V without OpName for some parameters: they
                                        are named arg0, arg1, ... */
} sgemu_load_info;

/* Load the kernel in file `path` into *k (free with isa_kernel_free); the
 * kind comes from sgemu_source_kind_of.  Returns SGEMU_EXIT_OK, or an exit
 * code with positioned errors in *diags (file:line:col, print them with
 * isa_diags_print) or, when diags holds none, one message in err.  info and
 * err may be NULL. */
int sgemu_kernel_load(const char *path, const sgemu_load_opts *opts, isa_kernel *k,
                      sgemu_load_info *info, isa_diags *diags, sgemu_fault *err);
/* The same from bytes in memory; `name` names them in messages. */
int sgemu_kernel_from_memory(const char *name, sgemu_source_kind kind, const void *data,
                             size_t len, const sgemu_load_opts *opts, isa_kernel *k,
                             sgemu_load_info *info, isa_diags *diags, sgemu_fault *err);

/* The kind of a file by its name (.cl, .spv) or its bytes (the SPIR-V magic
 * number); .sgasm otherwise.  path or data may be NULL. */
sgemu_source_kind sgemu_source_kind_of(const char *path, const void *data, size_t len);

/* Link SPIR-V modules mods[0..n) (lens in bytes) into one with spirv-link
 * (SPIRV-Tools), as clLinkProgram does.  Returns 0 with the module in *spv
 * (malloc'd, *spv_len bytes), 1 when they do not link, 2 when spirv-link
 * is not installed, -1 on a system error; *log (malloc'd, may be NULL)
 * holds spirv-link's messages. */
int sgemu_link_spirv(const uint8_t *const *mods, const size_t *lens, unsigned n, uint8_t **spv,
                     size_t *spv_len, char **log);

/* OpenCL C to a SPIR-V module (*spv, malloc'd, *len bytes): from a file, or
 * from source text written under `name` into a temporary directory.  The
 * compilers' messages go to opts->log; returns SGEMU_EXIT_OK or
 * SGEMU_EXIT_USER with err set. */
int sgemu_compile_opencl_c_file(const char *path, const sgemu_load_opts *opts, void **spv,
                                size_t *len, sgemu_fault *err);
int sgemu_compile_opencl_c(const char *name, const void *text, size_t len,
                           const sgemu_load_opts *opts, void **spv, size_t *spv_len,
                           sgemu_fault *err);

/* OpenCL C build options (clBuildProgram's, docs/opencl.md), for the
 * cl_options of sgemu_load_opts.  sgemu_cl_option_words: how many words the
 * option starting with word w takes (2 for "-D NAME", "-I DIR",
 * "-include FILE"; 1 for the others), 0 when sgemu does not know it.
 * sgemu_cl_option_clang: the word to give clang-14 for a known one-word
 * option (NULL: accepted, no effect); other words are given as they are.
 * sgemu_cl_option_names: the list, for messages. */
int sgemu_cl_option_words(const char *w);
const char *sgemu_cl_option_clang(const char *w);
const char *sgemu_cl_option_names(void);

/* The whole file at path, NUL-terminated (malloc'd), its size in *len (may
 * be NULL); NULL with err set (SGEMU_EXIT_USER; SGEMU_EXIT_INTERNAL when out
 * of memory). */
char *sgemu_read_file(const char *path, size_t *len, sgemu_fault *err);

/* Index of the kernel argument called `name`, or -1. */
int sgemu_kernel_arg_index(const isa_kernel *k, const char *name);

/* -------------------------------------------------- binding arguments */

/* OpenCL image channel orders and types (image2d_t arguments).
 * X(ENUM, OpenCL name, channels or bytes per channel).  CL_BGRA stores the
 * kernel's (r, g, b, a) as b, g, r, a (sgemu_image_channel_slot). */
#define SGEMU_CHANNEL_ORDERS(X) \
    X(R, "CL_R", 1) X(RG, "CL_RG", 2) X(RGBA, "CL_RGBA", 4) X(BGRA, "CL_BGRA", 4)
#define SGEMU_CHANNEL_TYPES(X) \
    X(UNSIGNED_INT8, "CL_UNSIGNED_INT8", 1) X(UNSIGNED_INT16, "CL_UNSIGNED_INT16", 2) \
    X(UNSIGNED_INT32, "CL_UNSIGNED_INT32", 4) X(SIGNED_INT8, "CL_SIGNED_INT8", 1) \
    X(SIGNED_INT16, "CL_SIGNED_INT16", 2) X(SIGNED_INT32, "CL_SIGNED_INT32", 4) \
    X(UNORM_INT8, "CL_UNORM_INT8", 1) X(UNORM_INT16, "CL_UNORM_INT16", 2) \
    X(HALF_FLOAT, "CL_HALF_FLOAT", 2) X(FLOAT, "CL_FLOAT", 4) \
    X(SNORM_INT8, "CL_SNORM_INT8", 1) X(SNORM_INT16, "CL_SNORM_INT16", 2)

typedef enum sgemu_channel_order {
#define X(E, n, c) SGEMU_ORDER_##E,
    SGEMU_CHANNEL_ORDERS(X)
#undef X
    SGEMU_ORDER_COUNT
} sgemu_channel_order;

typedef enum sgemu_channel_type {
#define X(E, n, b) SGEMU_CHTYPE_##E,
    SGEMU_CHANNEL_TYPES(X)
#undef X
    SGEMU_CHTYPE_COUNT
} sgemu_channel_type;

typedef struct sgemu_image {
    uint32_t width, height;   /* in elements */
    uint32_t pitch;           /* bytes per row (>= width * elem_bytes) */
    uint8_t dims;             /* coordinates besides the layer: 1, 2 (0 reads
                               * as 2) or 3 (isa.h, ISA_IMAGE_TYPES) */
    uint8_t arrayed;          /* an image array: the layers are the rows of a
                               * 1D array (height = layers, pitch = a layer's
                               * bytes) or the slices of a 2D array (depth =
                               * layers) */
    uint8_t buffer;           /* image1d_buffer_t: data is a buffer's bytes */
    uint32_t depth;           /* 3D, 2D array: slices (>= 1); others: unused */
    uint64_t slice_pitch;     /* 3D, 2D array: bytes per slice (>= height * pitch) */
    uint8_t order;            /* sgemu_channel_order */
    uint8_t chtype;           /* sgemu_channel_type */
    uint32_t elem_bytes;      /* derived: channels x channel bytes */
    uint8_t *data;            /* height * pitch bytes (3D: depth * slice_pitch),
                               * caller-owned */
} sgemu_image;

uint32_t sgemu_image_elem_bytes(sgemu_channel_order o, sgemu_channel_type t);

/* Where channel c (0 r, 1 g, 2 b, 3 a: the kernel's order) of an element of
 * order o is stored, in channels from the element's start; c must be below
 * the order's channel count. */
uint32_t sgemu_image_channel_slot(sgemu_channel_order o, uint32_t c);

typedef enum sgemu_val_kind {
    SGEMU_VAL_UNSET = 0,
    SGEMU_VAL_SCALAR,
    SGEMU_VAL_BUFFER,
    SGEMU_VAL_LOCAL,
    SGEMU_VAL_IMAGE
} sgemu_val_kind;

/* The value bound to one kernel argument (isa_arg): a scalar for
 * ISA_ARG_SCALAR; a buffer for global and constant pointers and for
 * by-value vectors and structs (isa_arg.byval: their bytes in the OpenCL
 * host layout); a size for local pointers; an image for image2d_t. */
typedef struct sgemu_argval {
    uint8_t kind;             /* sgemu_val_kind */
    uint64_t scalar;          /* SCALAR: bits in the argument's type */
    uint8_t *data;            /* BUFFER: bytes, caller-owned, updated in place */
    size_t bytes;             /* BUFFER: size; LOCAL: bytes of local memory */
    sgemu_image image;        /* IMAGE */
} sgemu_argval;

static inline sgemu_argval sgemu_arg_buffer(void *data, size_t bytes)
{
    sgemu_argval v = { .kind = SGEMU_VAL_BUFFER, .data = (uint8_t *)data, .bytes = bytes };
    return v;
}

static inline sgemu_argval sgemu_arg_scalar(uint64_t bits)
{
    sgemu_argval v = { .kind = SGEMU_VAL_SCALAR, .scalar = bits };
    return v;
}

static inline sgemu_argval sgemu_arg_local(size_t bytes)
{
    sgemu_argval v = { .kind = SGEMU_VAL_LOCAL, .bytes = bytes };
    return v;
}

/* IEEE binary16 conversions (round to nearest even), for half values. */
float sgemu_half_to_float(uint16_t h);
uint16_t sgemu_float_to_half(float f);
uint16_t sgemu_double_to_half(double d);

/* --------------------------------------------------------------- running */

/* What to run: the NDRange, the sub-group width, what to measure and record,
 * and limits.  Zero-initialise (designated initialisers); 0 and NULL mean
 * the default everywhere. */
typedef struct sgemu_launch {
    uint32_t dims;                         /* 1..3 */
    uint64_t global[3], local[3], offset[3];
    bool local_given;                      /* false: sgemu picks a local size */
    uint32_t sg_width;                     /* 0: kernel's required or config default */
    uint64_t max_instructions;             /* runaway limit, subgroup instructions */
    bool check;                            /* --check: compare collectives to the reference */
    bool timing;                           /* run the cycle-level timing model */
    uint32_t threads;                      /* host threads (0: all cores) */
    /* optional: sees every micro-op of collectives and block I/O as it runs
     * (`sgemu collective` lists them) */
    void (*uop_listener)(void *user, uint32_t pc, const coll_uop *u);
    void *uop_user;
    /* timing outputs */
    const char *trace_path;                /* Chrome trace JSON, or NULL */
    uint64_t trace_limit;                  /* trace events (0: 1000000) */
    /* recording */
    const char *record_path;               /* write the record stream here
                                              (docs/trace-format.md), or NULL */
    /* host limits */
    uint64_t max_memory;                   /* host bytes the engine may take for
                                              work-group state (local, private,
                                              register files) over all its copies;
                                              0: only the 1 GiB per work-group cap */
    /* optional: two counters for a progress display: progress[1] is set to
     * the number of work-groups when the run starts, progress[0] counts
     * finished ones (relaxed increments from any host thread) */
    _Atomic uint64_t *progress;
    uint32_t detect;                       /* SGEMU_DETECT_* bits (docs/cli.md) */
    /* program-scope globals: true when the buffer bound to the kernel's
     * .global_data argument already holds the program's variables (an
     * earlier launch of the same program filled it): it is used as it is,
     * without its initial bytes or relocations, so values persist from
     * launch to launch as OpenCL C 2.0 asks.  false: the initial bytes. */
    bool globals_live;
    /* cache state across launches (memory.l2.keep_across_launches): the L2
     * starts as the launches before on this device left it, and holds what
     * this one leaves when it ends; NULL: the caches start empty */
    struct sgemu_cache_state *caches;
    /* per argument: the identity of the buffer it binds in `caches` (0: not
     * carried), stable from launch to launch, and the offset of its first
     * byte in that buffer (a sub-buffer's origin); NULL: argument i is
     * buffer i + 1 at offset 0 */
    const uint64_t *cache_buffer, *cache_offset;
} sgemu_launch;

/* The opt-in detectors of sgemu_launch.detect; their reports go to the
 * note stream (sgemu_set_note_stream), their counts to sgemu_stats. */
enum {
    SGEMU_DETECT_RACES = 1u << 0,          /* --races: local and global data races */
    SGEMU_DETECT_UNINIT = 1u << 1          /* --uninitialized: unwritten local and
                                              private loads */
};

/* What a run did.  timing is set when launch->timing was. */
typedef struct sgemu_stats {
    uint32_t sg_width;
    uint64_t global[3], local[3];
    uint32_t dims;
    uint64_t work_groups;
    uint64_t subgroups;
    uint64_t work_items;
    uint64_t instructions;     /* subgroup instructions executed */
    uint64_t lane_ops;         /* sum of active lanes over executed instructions */
    uint64_t lane_slots;       /* sum of subgroup width over executed instructions */
    uint64_t uops;             /* collective and block-I/O micro-ops */
    uint64_t notes;            /* undefined-result notes reported in check mode */
    sgemu_timing *timing;      /* cycles, occupancy, stalls, memory (timing.h);
                                  free with sgemu_stats_free */
    /* host cost of the call: wall-clock and process CPU seconds of
     * sgemu_run / sgemu_replay, all host threads' CPU summed */
    double host_wall_s, host_cpu_s;
    /* the detectors (sgemu_launch.detect) */
    uint64_t race_checked;     /* --races: local and global accesses (one per
                                  lane) checked */
    uint64_t races;            /* racing access pairs found (each pair of lines
                                  is reported once, every pair counted) */
    uint64_t uninit_checked;   /* --uninitialized: local and private loads checked */
    uint64_t uninit_reads;     /* loads of a byte no work-item wrote */
    uint64_t race_global_checked; /* --races: of race_checked, global accesses */
    uint64_t race_unchecked;   /* global accesses past the shadow's cap */
    uint64_t uninit_private_checked; /* of uninit_checked, private loads */
    uint64_t undef_checked;    /* --uninitialized: lanes of the instructions that
                                  could use an undefined collective result */
    uint64_t undef_uses;       /* uses of one found */
    bool regalloc_done;        /* the kernel's registers were allocated for the launch */
    isa_ra_stats regalloc;     /* registers before/after, demand, spills (isa.h) */
    /* printf (docs/opencl.md#printf) */
    char *printf_text;         /* the launch's printf output, NUL-terminated, in
                                  work-group, sub-group, lane, program order;
                                  NULL when nothing printed (free with
                                  sgemu_stats_free) */
    size_t printf_len;         /* its bytes */
    uint64_t printf_calls;     /* printf calls (one per work-item) that printed */
    uint64_t printf_dropped;   /* calls that found the buffer full: returned -1 */
    uint64_t printf_buffer;    /* the buffer's size in bytes (device.printf_buffer_size) */
    bool printf_igc;           /* the buffer was IGC's (a Gen kernel): it keeps no count
                                  of the calls that found it full, so printf_dropped
                                  is then 1 when any did */
} sgemu_stats;

/* False when the environment sets SGEMU_REGALLOC=0: kernels whose registers
 * are values then run unallocated (A/B comparisons, bisecting). */
bool sgemu_regalloc_enabled(void);

/* Write a launch's printf output to `out` (a FILE *, e.g. stdout) and, when
 * calls were dropped because the buffer was full, say so on `err` (a FILE *,
 * may be NULL) naming kernel `kernel`.  Returns the bytes written. */
size_t sgemu_printf_flush(const sgemu_stats *stats, const char *kernel, void *out, void *err);

/* Run `k` over the NDRange in `launch` on device `cfg` with `args`
 * (one per kernel argument, in order).  Buffers are updated in place.
 * Returns SGEMU_EXIT_OK or the code stored in fault->code; free *stats
 * with sgemu_stats_free either way. */
int sgemu_run(const isa_kernel *k, const emu_config *cfg,
              const sgemu_launch *launch, sgemu_argval *args,
              sgemu_stats *stats, sgemu_fault *fault);

/* The L2's lines one launch leaves to the next on a device, named by buffer
 * identity (sgemu_launch.caches; docs/timing-model.md, "Cache state across
 * launches").  One state per device: its lines are of that device's config.
 * sgemu_cache_device_write: a device-side fill or copy of bytes [offset,
 * offset + bytes) of buffer `buffer` (memory.l2.device_writes_fill: its
 * lines become the most recently used, in address order; else the range's
 * lines are dropped); 0, or -1 when out of memory.  sgemu_cache_host_write:
 * the host wrote the range: its lines are dropped.  sgemu_cache_state_lines:
 * lines held. */
typedef struct sgemu_cache_state sgemu_cache_state;
sgemu_cache_state *sgemu_cache_state_new(void);
void sgemu_cache_state_free(sgemu_cache_state *s);
int sgemu_cache_device_write(sgemu_cache_state *s, const emu_config *cfg, uint64_t buffer,
                             uint64_t offset, uint64_t bytes);
void sgemu_cache_host_write(sgemu_cache_state *s, const emu_config *cfg, uint64_t buffer,
                            uint64_t offset, uint64_t bytes);
uint64_t sgemu_cache_state_lines(const sgemu_cache_state *s);

/* Free what sgemu_run allocated into *stats (the timing results). */
void sgemu_stats_free(sgemu_stats *stats);

/* Ask every sgemu_run in progress (and the next one) to stop: the engine
 * checks the flag before each subgroup instruction and returns
 * SGEMU_EXIT_INTERRUPTED.  Async-signal-safe (it only sets a flag), so a
 * SIGINT handler may call it.  sgemu_stop_requested reads the flag;
 * sgemu_clear_stop resets it. */
void sgemu_request_stop(void);
bool sgemu_stop_requested(void);
void sgemu_clear_stop(void);

/* True when output path exists and is not a regular file or a directory (a
 * device such as /dev/null, a FIFO): sgemu writes it in place instead of
 * renaming a temporary over it (emu/output_path.c). */
bool sgemu_output_in_place(const char *path);

/* Where check mode's undefined-result notes go (a FILE *; default stderr). */
void sgemu_set_note_stream(void *stdio_file);

/* ---------------------------------------------------- record and replay */

/* What a kernel trace's header says (docs/trace-format.md). */
typedef struct sgemu_trace_info {
    uint32_t version;             /* format version */
    char sgemu_version[16];       /* sgemu that recorded it */
    char kernel[64];
    uint32_t sg_width, dims;
    uint64_t global[3], local[3], offset[3];
    uint64_t work_groups;
    uint32_t wg_items;            /* work-items of a full work-group */
    uint32_t local_bytes;         /* local memory per work-group */
    uint32_t coll[8];             /* collective options the micro-ops depend on */
    uint32_t max_wg_size;         /* of the recording config */
    uint64_t instructions, lane_ops, lane_slots, uops, subgroups, work_items;
    uint64_t records, addresses, trace_uops;   /* totals in the stream */
    uint64_t payload_bytes;       /* uncompressed */
    uint64_t file_bytes;
    uint64_t checksum;            /* FNV-1a 64 of the uncompressed payload */
} sgemu_trace_info;

/* Read a trace's header; verify: also decompress and check every work-group
 * and the checksum (fills the totals).  0 or SGEMU_EXIT_USER with fault set. */
int sgemu_trace_read_info(const char *path, bool verify, sgemu_trace_info *info,
                          sgemu_fault *fault);

typedef struct sgemu_replay_opts {
    uint32_t sg_width;            /* 0: the trace's; else must equal it */
    const char *trace_path;       /* Chrome trace JSON, or NULL */
    uint64_t trace_limit;
    uint32_t threads;             /* host threads for the timing model (0 or 1: one) */
} sgemu_replay_opts;

/* Re-time a recorded trace on device cfg without executing the kernel: the
 * same cycles a full sgemu_run with timing gives on cfg.  stats as sgemu_run
 * (free with sgemu_stats_free); kernel_out (may be NULL) receives the kernel
 * stored in the trace (free with isa_kernel_free). */
int sgemu_replay(const char *path, const emu_config *cfg, const sgemu_replay_opts *opts,
                 isa_kernel *kernel_out, sgemu_stats *stats, sgemu_fault *fault);

/* Copy the fields of cfg that change the record stream (collective options)
 * into info-style coll[8]; equal arrays: a trace replays on both configs. */
void sgemu_trace_coll_key(const emu_config *cfg, uint32_t out[8]);

/* ------------------------------- Intel's compiler (IGC, Gen ISA) */
/* Compile OpenCL C file `cl` with Intel's offline compiler (ocloc) for
 * `device` (an Intel config's device.ocloc_target, e.g. "tgllp") with extra
 * build `options` (may be NULL) at SIMD width `simd` (0: IGC's choice; a
 * kernel's intel_reqd_sub_group_size wins) and load kernel `name` (NULL:
 * the first) as IGC built it: sgemu_run then executes IGC's Gen ISA
 * (docs/gen.md).  Returns 0, SGEMU_EXIT_USER (ocloc refused the kernel: err
 * holds IGC's reason; or the binary uses what sgemu does not load yet) or
 * SGEMU_EXIT_INTERNAL. */
int sgemu_load_igc(const char *cl, const char *device, const char *options, uint32_t simd,
                   const char *name, isa_kernel *k, char *err, size_t errcap);

/* IGC's facts about a kernel loaded by sgemu_load_igc. */
typedef struct sgemu_igc_info {
    uint32_t simd;                /* the width IGC compiled */
    uint32_t instructions;        /* Gen instructions in the kernel's code */
    uint32_t sends;               /* of which send messages */
    uint32_t grf_count;           /* GRFs per thread (128; 256 in large-GRF mode) */
    uint32_t scratch_bytes;       /* per-thread private and spill memory */
    uint32_t slm_bytes;           /* static local memory */
} sgemu_igc_info;

/* Fill *info for a Gen kernel; false when k is not one. */
bool sgemu_igc_info_of(const isa_kernel *k, sgemu_igc_info *info);

#endif
