/* sweep.h - `sgemu sweep` (docs/sweeps.md): the sweep file, its run set,
 * the worker pool, result rows and their writers. */
#ifndef SGEMU_SWEEP_H
#define SGEMU_SWEEP_H

#include "cli.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SW_MAX_AXES 32
#define SW_MAX_KERNELS 64
#define SW_MAX_ARGS 64
#define SW_TEXT 256

/* What an axis changes. */
typedef enum sw_axis_kind {
    SW_AX_WIDTH,      /* "width": sub-group width */
    SW_AX_GLOBAL,     /* "global": NDRange */
    SW_AX_LOCAL,      /* "local": work-group size */
    SW_AX_ARG,        /* "arg.NAME": a kernel argument's value */
    SW_AX_CONFIG,     /* any dotted config key */
    SW_AX_COMPILER    /* "compiler": sgemu or igc (OpenCL C kernels only) */
} sw_axis_kind;

typedef struct sw_axis {
    char name[96];
    uint8_t kind;             /* sw_axis_kind */
    uint32_t nvals;
    char **vals;              /* values as text */
    uint32_t line, col;
    int zip;                  /* zip group index or -1 */
} sw_axis;

typedef struct sw_kernel {
    char name[64];            /* label in results */
    char path[1024];          /* .sgasm file */
    char global[64], local[64];
    uint32_t nargs;
    char arg_name[SW_MAX_ARGS][64];
    char *arg_val[SW_MAX_ARGS];
    isa_kernel k;
    bool loaded;
    bool opencl_c;            /* a .cl file: the compiler axis applies */
} sw_kernel;

/* A rule: run points matching every (axis, value) pair. */
typedef struct sw_rule {
    uint32_t n;
    char axis[SW_MAX_AXES + 1][96];   /* "kernel" or an axis name */
    char *val[SW_MAX_AXES + 1];
    uint32_t line, col;
} sw_rule;

/* One point of the run set: value index per axis (UINT32_MAX: not applicable). */
typedef struct sw_point {
    uint32_t kernel;
    uint32_t v[SW_MAX_AXES];
} sw_point;

typedef struct sw_sweep {
    char path[1024], dir[1024];
    char base[1024];          /* config file path or bundled name */
    emu_config base_cfg;
    uint32_t nkernels;
    sw_kernel kernels[SW_MAX_KERNELS];
    uint32_t naxes;
    sw_axis axes[SW_MAX_AXES];
    uint32_t nexclude, ninclude;
    sw_rule *exclude, *include;
    sw_point *points;
    uint64_t npoints;
} sw_sweep;

/* sweep_load.c: parse the file and expand the run set; errors are printed
 * as file:line:col.  Returns 0 or an exit code. */
int sw_load(const char *path, sw_sweep *s);
/* The same from TEXT (LEN bytes) already in memory; PATH names it in
 * messages and anchors its relative paths. */
int sw_load_text(const char *path, const char *text, size_t len, sw_sweep *s);
void sw_free(sw_sweep *s);
/* The text of point p's value for axis a (NULL: none). */
const char *sw_value(const sw_sweep *s, const sw_point *p, uint32_t a);
/* A stable text naming the point ("kernel=x;width=8;..."). */
void sw_point_key(const sw_sweep *s, const sw_point *p, char *buf, size_t n);

/* One finished run. */
#define SW_METRICS(X) \
    X(cycles, "%llu", unsigned long long) X(time_us, "%.6f", double) \
    X(ipc, "%.6f", double) X(simd_efficiency, "%.6f", double) \
    X(occupancy, "%.6f", double) X(theoretical_occupancy, "%.6f", double) \
    X(wg_per_cu, "%llu", unsigned long long) X(grf_regs, "%llu", unsigned long long) \
    X(instructions, "%llu", unsigned long long) X(uops, "%llu", unsigned long long) \
    X(lane_ops, "%llu", unsigned long long) \
    X(stall_dependency, "%llu", unsigned long long) X(stall_pipe_busy, "%llu", unsigned long long) \
    X(stall_memory, "%llu", unsigned long long) X(stall_barrier, "%llu", unsigned long long) \
    X(stall_fetch, "%llu", unsigned long long) X(stall_issue, "%llu", unsigned long long) \
    X(bytes_l1, "%llu", unsigned long long) X(bytes_l2, "%llu", unsigned long long) \
    X(bytes_dram, "%llu", unsigned long long) X(bytes_local, "%llu", unsigned long long) \
    X(regs_before, "%llu", unsigned long long) X(regs_after, "%llu", unsigned long long) \
    X(large_grf, "%llu", unsigned long long) X(spill_bytes, "%llu", unsigned long long) \
    X(igc_simd, "%llu", unsigned long long) X(igc_instructions, "%llu", unsigned long long) \
    X(igc_sends, "%llu", unsigned long long) X(igc_grf, "%llu", unsigned long long) \
    X(igc_scratch_bytes, "%llu", unsigned long long) X(igc_refused, "%llu", unsigned long long)

typedef struct sw_row {
    uint64_t run;             /* index in the run set */
    bool done;
    int status;               /* 0 ok, else the run's exit code */
    char limiter[32];
    char key[1024];
#define X(name, fmt, type) type name;
    SW_METRICS(X)
#undef X
    char error[256];
} sw_row;

/* sweep_run.c: run the points of `todo` (indices into s->points) with
 * `jobs` workers; rows[i] filled for each.  Records traces under tmpdir.
 * on_row (may be NULL) is called, serialised, as each row finishes. */
typedef void (*sw_row_fn)(void *user, const sw_row *row);
int sw_execute(sw_sweep *s, const uint64_t *todo, uint64_t ntodo, uint32_t jobs,
               const char *tmpdir, sw_row *rows, sw_row_fn on_row, void *user);

/* sweep_out.c: results are CSV lines (the source of truth, so shards merge
 * byte for byte); results.json is derived from them. */
void sw_csv_header(const sw_sweep *s, char *buf, size_t n);
void sw_csv_row(const sw_sweep *s, const sw_row *r, char *buf, size_t n);
/* Parse a line written by sw_csv_row under `header`; false if it does not fit. */
bool sw_csv_parse(const char *header, const char *line, sw_row *r);
/* Split one CSV line into at most max cells (malloc'd); returns the count. */
size_t sw_csv_split(const char *line, char **cells, size_t max);
/* Write DIR/results.csv and DIR/results.json (lines in the given order). */
int sw_results_write(const char *dir, const char *header, char *const *lines, uint64_t n);
/* Read DIR/results.csv: header and lines (malloc'd); -1 when missing. */
int sw_results_read(const char *dir, char **header, char ***lines, uint64_t *n);
/* Run index of a result line (its first cell). */
uint64_t sw_line_run(const char *line);
/* One table of rows (labels: each row's name; head: the first column's
 * title) with speedups against the fastest and a one-line verdict; failed
 * rows are shown and left out of the comparison. */
void sw_print_group(const sw_row *const *g, const char (*labels)[SW_TEXT], size_t n,
                    const char *head, FILE *f);
/* sweep_run.c: a row's metrics from a run's statistics. */
void sw_row_from_stats(sw_row *r, const sgemu_stats *st);
/* Per-kernel tables and verdicts. */
void sw_print_tables(const sw_sweep *s, const sw_row *rows, uint64_t n, FILE *f);
/* DIR/plot.gp and data files; render PNG and SVG with gnuplot when `render`
 * (returns 0, or 1 when gnuplot is missing or fails). */
int sw_write_plots(const sw_sweep *s, const char *dir, const sw_row *rows, uint64_t n,
                   bool render);

#endif
