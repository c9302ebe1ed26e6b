/*
 * config.h - the device: sub-group widths, register file, local memory,
 * collective algorithms and the timing model's numbers, loaded from YAML
 * (a bundled config by name, or a file) through one table of keys
 * (emu/config_keys.def).  Every key is documented in docs/config.md.
 */
#ifndef SGEMU_CONFIG_H
#define SGEMU_CONFIG_H

#include "collectives.h"
#include "isa.h"
#include "timing_config.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define EMU_MAX_WIDTHS 8

typedef struct emu_config {
    /* device */
    char name[64];
    uint32_t widths[EMU_MAX_WIDTHS];   /* supported subgroup widths */
    uint32_t nwidths;
    uint32_t default_width;
    uint32_t compute_units;
    uint32_t threads_per_cu;           /* hardware thread slots per compute unit */
    uint32_t grf_regs_per_thread;      /* GRF registers per hardware thread */
    uint32_t grf_bytes_per_reg;        /* bytes per GRF register */
    uint32_t large_grf_regs;           /* large-GRF mode: registers (0: none) */
    uint32_t large_grf_threads;        /* large-GRF mode: threads per compute unit */
    uint32_t local_mem_per_cu;         /* bytes of local memory per compute unit */
    uint32_t max_wg_size;
    double clock_mhz;
    uint32_t fp64;                     /* 1: double precision executes */
    char ocloc_target[32];             /* Intel offline compiler's -device name, or "none" */
    uint32_t block_io_max_width;       /* widest sub-group block I/O compiles at */
    uint32_t local_block_io;           /* 1: block I/O on local memory compiles */
    uint32_t presched_pressure;        /* registers: schedule for pressure above (0: never) */
    uint32_t presched_pressure_simd32; /* the same at SIMD32 and wider */
    uint32_t scalar_broadcast;         /* 1: broadcast from a uniform lane is a scalar */
    uint32_t payload_fold_distance;    /* vISA instructions: unfolded store copies (0: none) */
    uint32_t payload_copy_width;       /* lanes: shuffle results copied into a store's block (0: never) */
    uint32_t buffer_offset_bytes;      /* bytes of a buffer index (4: surface offsets; 0: type) */
    uint32_t remat_live_sources;       /* 1: recompute one instruction of live sources only */
    uint32_t shuffle2_temps;           /* 1: a two-source shuffle holds its temporaries */
    uint32_t printf_buffer_size;       /* bytes of a launch's printf buffer */
    /* collectives: algorithm per family (collectives.h) */
    coll_options coll;
    /* the timing model's numbers (timing_config.h) */
    emu_timing_cfg timing;
} emu_config;

/* Every loader returns the number of errors (0 on success), each recorded
 * in *diags as file:line:col. */

/* Load the YAML file at name_or_path when one exists, else the bundled
 * config of that name ("intel-xe-hpc"; the names are in
 * emu_bundled_configs), as `sgemu run --config` does. */
int emu_config_load_named(const char *name_or_path, emu_config *cfg, isa_diags *diags);
/* Load a bundled config by base name. */
int emu_config_load_bundled(const char *name, emu_config *cfg, isa_diags *diags);
/* The bundled configs/default.yaml. */
int emu_config_load_default(emu_config *cfg, isa_diags *diags);
/* Load a config from a file; `extends:` is resolved relative to the file's
 * folder, then against the bundled configs. */
int emu_config_load_file(const char *path, emu_config *cfg, isa_diags *diags);
/* Load from text (name used in messages). */
int emu_config_load_text(const char *name, const char *text, size_t len,
                         emu_config *cfg, isa_diags *diags);

/* The YAML files of configs/, compiled into the library; the list ends
 * with {NULL, NULL, 0}. */
typedef struct emu_bundled_config {
    const char *name;
    const char *text;
    size_t len;
} emu_bundled_config;
extern const emu_bundled_config emu_bundled_configs[];
/* Text of a bundled config by base name ("default", "test-simple"), or NULL. */
const char *emu_config_bundled(const char *name);
/* The bundled config whose name is a close typo of `name` (edit distance
 * under 4), or NULL: for did-you-mean messages. */
const char *emu_config_bundled_nearest(const char *name);

/* Fill every key with its default (emu/config_keys.def); name stays empty. */
void emu_config_init(emu_config *cfg);
/* Set one key by dotted path ("memory.l2.size") from its YAML text ("512",
 * "[8, 16]", "tree"), with the loader's range checks.  0, or -1 with a
 * message in err. */
int emu_config_set(emu_config *cfg, const char *path, const char *value, char *err,
                   size_t errn);
/* Print the effective config as YAML that loads back to the same values. */
void emu_config_dump(const emu_config *cfg, FILE *f);

bool emu_config_supports_width(const emu_config *cfg, uint32_t width);

/* What the device's own compiler refuses in kernel k at `width`
 * (emu/target_check.c): a mask of EMU_REFUSE_*; emu_refusal_text names one. */
enum { EMU_REFUSE_FP64 = 1u, EMU_REFUSE_BLOCK_IO_WIDTH = 2u, EMU_REFUSE_LOCAL_BLOCK_IO = 4u };
unsigned emu_target_refusals(const emu_config *cfg, const isa_kernel *k, uint32_t width);
const char *emu_refusal_text(unsigned refusal);

#endif
