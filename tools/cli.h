/* cli.h - pieces shared by the sgemu subcommands. */
#ifndef SGEMU_CLI_H
#define SGEMU_CLI_H

#include <sgemu/sgemu.h>

#include <stdbool.h>
#include <stdio.h>

/* Subcommands: one row each (name, function, one-line summary). */
#define CLI_COMMANDS(X) \
    X(run,        "run a kernel over an NDRange and print outputs and statistics") \
    X(asm,        "assemble a kernel and report errors") \
    X(disasm,     "print a kernel as canonical .sgasm") \
    X(collective, "run one collective on one work-group and list its micro-ops") \
    X(replay,     "re-time a recorded kernel trace on another device config") \
    X(trace,      "summarise a recorded kernel trace (trace info FILE)") \
    X(sweep,      "run a YAML sweep of kernels, widths and config keys in parallel") \
    X(spv2asm,    "translate a SPIR-V module (or OpenCL C file) and print it as .sgasm") \
    X(exec,       "run an OpenCL program with sgemu as its OpenCL platform")

#define X(name, summary) int cli_cmd_##name(int argc, char **argv);
CLI_COMMANDS(X)
#undef X

/* Report a usage/user error on stderr ("sgemu: error: ...") and return 1. */
int cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Read a whole file (NUL-terminated); NULL with a message on failure. */
char *cli_read_file(const char *path, size_t *len);

/* Assemble a kernel file; prints diagnostics; returns 0 or an exit code. */
int cli_load_kernel(const char *path, isa_kernel *k);

/* Load a .sgasm, SPIR-V (.spv) or OpenCL C (.cl, compiled with clang-14 and
 * llvm-spirv-14 and the given -D/-I/-cl-std options) kernel; `entry` picks
 * the SPIR-V entry point (NULL: the only one). */
/* OpenCL C options of `run` and `spv2asm` (docs/cli.md): is argv[*i] one
 * (a clBuildProgram build option, -D/-I/-include with their values,
 * --build-options 'TEXT', --clang-arg OPT)?  1: added to clopts[*n..max)
 * in clang-14's spelling, *i past its value; 0: not one; -1: an error was
 * printed (an unknown -cl- option, a missing value, too many). */
int cli_cl_option(int argc, char **argv, int *i, const char **clopts, int *n, int max);
int cli_load_kernel_ex(const char *path, const char *entry, const char *const *clopts,
                       int nclopts, isa_kernel *k);
/* Set by the last load: the SPIR-V module had no OpName for some parameters
 * (they are named arg0, arg1, ...). */
extern bool cli_kernel_args_unnamed;

/* Load --config FILE, or the bundled default when path is NULL. */
int cli_load_config(const char *path, emu_config *cfg);

/* Parse "X[,Y[,Z]]" into v[0..2]; returns the count (1..3) or 0. */
int cli_parse_dims(const char *s, uint64_t v[3]);

/* One --arg NAME=VALUE as given (materialised once per run). */
typedef struct cli_argspec {
    char name[64];
    const char *value;       /* text after '=' */
    char file[1024];         /* @FILE input, for the no-overwrite check */
} cli_argspec;

/* Build the value of kernel argument `a` from `spec` (NULL: unset).
 * Allocates buffer/image storage into *v.  Returns 0 or prints an error and
 * returns 1. */
int cli_make_value(const isa_arg *a, const char *spec, sgemu_argval *v);
void cli_free_value(sgemu_argval *v);
/* Check `spec` for argument `a` as cli_make_value would, without building
 * large buffers (zeros/iota/random are not filled; @FILE is opened, not
 * read).  Returns 0, or 1 with the message in err. */
int cli_check_value(const isa_arg *a, const char *spec, char *err, size_t n);
/* A buffer value of another element type than the kernel's (float data for
 * an int buffer; same-size integers and byte buffers are fine): true with a
 * warning's text in msg.  The bytes are used as given. */
bool cli_value_type_mismatch(const isa_arg *a, const char *spec, char *msg, size_t n);
/* Send this thread's cli_make_value messages to buf (NULL: stderr, the
 * default); a sweep puts them in its error column. */
void cli_value_errors_to(char *buf, size_t n);
/* values.c: an argument-value error (to stderr or the thread's buffer);
 * returns 1.  cli_value_read_file reads an @FILE input the same way. */
int cli_value_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *cli_value_read_file(const char *path, size_t *len);
/* images.c: image2d:WxH:ORDER:TYPE:(zeros|iota|random:SEED|@FILE) */
int cli_make_image(const isa_arg *a, const char *spec, sgemu_argval *v);
/* images.c: print an image row by row */
void cli_print_image(FILE *f, const isa_arg *a, const sgemu_argval *v);
/* images.c: --out NAME=FILE for an image: raw packed rows, or PGM/PPM when
 * FILE ends in .pgm/.ppm (through cli_write_atomic); 0 or an exit code. */
int cli_write_image(const char *path, const isa_arg *a, const sgemu_argval *v);

/* Format one element of type t at p as text. */
void cli_format_value(isa_type t, const void *p, char *buf, size_t n);

/* Write `n` bytes to path through a temporary file and rename. */
int cli_write_atomic(const char *path, const void *data, size_t n);

/* Minimal JSON string escaping to a stream. */
void cli_json_string(FILE *f, const char *s);

/* The line of IGC's message that says why it refused a kernel or a width
 * (ocloc's "error:" line, else the first line), for a width study's row. */
void cli_igc_reason(const char *err, char *out, size_t n);
/* The host cost of a run or replay: wall and CPU seconds and the simulation
 * rate (subgroup instructions per wall-clock second), as a summary line and
 * as JSON keys host_wall_s, host_cpu_s, sim_rate (no braces). */
void cli_print_host_time(FILE *f, const sgemu_stats *s);
void cli_json_host_time(FILE *f, const sgemu_stats *s);
/* After a timed run with --trace: warn when --trace-limit cut the trace
 * short (the events past it are dropped, slices included). */
void cli_warn_trace_dropped(const char *trace_path, uint64_t written, uint64_t dropped);
/* A failed run as the JSON object of --json's "error" key (docs/cli.md):
 * code, kind, message, kernel, line, work_item, address. */
void cli_json_fault(FILE *f, int code, const sgemu_fault *e);

/* Install SIGINT/SIGTERM handlers: the first signal asks the engine to stop
 * (sgemu_request_stop, exit status 130); a signal while cli_write_atomic holds
 * a temporary file removes it and exits 130 at once; a second signal exits. */
void cli_install_signal_handlers(void);

/* detect_out.c: the detectors' counts (launch.detect's) in the run summary
 * and, after the statistics, in the JSON ("detectors": {...}). */
void cli_detect_print(FILE *f, uint32_t detect, const sgemu_stats *s);
void cli_detect_json(FILE *f, uint32_t detect, const sgemu_stats *s);

/* width_compare.c: `run --sg A,B,... --compare` (docs/cli.md, "Width
 * dependence").  Each run's global buffers and images are kept, then
 * compared element by element; report prints a line per buffer (text)
 * and/or the JSON "compare" key, and returns 0 or CLI_EXIT_DIFFERS. */
#define CLI_COMPARE_MAX 16
#define CLI_EXIT_DIFFERS 4
typedef struct cli_compare cli_compare;
cli_compare *cli_compare_new(void);
int cli_compare_add(cli_compare *c, const isa_kernel *k, const sgemu_argval *v,
                    uint32_t width);
int cli_compare_report(const cli_compare *c, const isa_kernel *k, FILE *text, FILE *json);
void cli_compare_free(cli_compare *c);

#endif
