/* cmd_run.c - `sgemu run`: run a kernel over an NDRange at one or more
 * sub-group widths, print outputs and statistics. */
#include "cli.h"
#include "sweep.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#define MAX_WIDTHS 16
#define MAX_OUTS 64

static const char run_help[] =
    "usage: sgemu run KERNEL.sgasm|KERNEL.spv|KERNEL.cl --global X[,Y[,Z]] [options]\n"
    "\n"
    "Runs KERNEL over the NDRange and prints the requested outputs; a summary goes\n"
    "to stderr (or to stdout as JSON with --json).  The kernel's printf output goes\n"
    "to stdout when the run ends, by work-group, sub-group, lane and program order\n"
    "(buffer: the config's device.printf_buffer_size; docs/opencl.md).\n"
    "\n"
    "options:\n"
    "  --config FILE|NAME      device config file, or a bundled config by name\n"
    "                          (nvidia-h100, intel-xe-hpc, ...; default: default)\n"
    "  --sg N[,N...]           sub-group width(s); several widths run one after another\n"
    "                          on fresh inputs (default: kernel's required or config's);\n"
    "                          --widths N,N[,...] is the same\n"
    "  --compare               with several widths: compare every global buffer and image\n"
    "                          of the runs; the first differing element of each, exit\n"
    "                          status 4 when one differs (floats: within a tolerance)\n"
    "  --global X[,Y[,Z]]      global size (its count of values sets the work dimension)\n"
    "  --local X[,Y[,Z]]       work-group size (default: the kernel's\n"
    "                          reqd_work_group_size, else sgemu picks one)\n"
    "  --offset X[,Y[,Z]]      global offset\n"
    "  --kernel NAME           entry point of a SPIR-V module / OpenCL C file\n"
    "  --compiler sgemu|igc    KERNEL.cl through sgemu's own ISA (default), or as\n"
    "                          Intel's compiler builds it: ocloc for the config's\n"
    "                          device.ocloc_target, IGC's Gen ISA executed\n"
    "                          (docs/gen.md), timed from its records; --per-line and\n"
    "                          --trace name IGA's instructions\n"
    "  -DNAME[=V] -IDIR -include FILE -cl-std=CLx.y  and OpenCL build options\n"
    "                          (-cl-mad-enable, -cl-fast-relaxed-math, -w, ...: docs/cli.md)\n"
    "                          go to clang-14 for KERNEL.cl; an unknown -cl- option is an\n"
    "                          error\n"
    "  --build-options 'OPTS'  clBuildProgram's options string, checked word by word\n"
    "  --clang-arg OPT         OPT goes to clang-14 as it is (repeatable)\n"
    "  -g0                     KERNEL.cl without line tables (by default errors, faults\n"
    "                          and --per-line name its source lines; -g is accepted)\n"
    "  --arg NAME=VALUE        bind an argument (NAME may be its position: 0, 1, ...);\n"
    "                          VALUE is\n"
    "                            a number for scalars:  7  -3  0x10  1.5\n"
    "                            TYPE:[v0,v1,...] | TYPE:zeros:N | TYPE:iota:N |\n"
    "                            TYPE:random:N:SEED | TYPE:@FILE   for buffers\n"
    "                            its bytes as a buffer for a by-value vector or\n"
    "                            struct: float:[1,2,3,4]  u8:@params.bin\n"
    "                            local:BYTES           for __local pointers\n"
    "                            image2d:WxH:ORDER:TYPE[:pitch=P]:(zeros|iota|random:SEED|@FILE)\n"
    "                            image2d:@FILE.pgm|.ppm  for images (docs/images.md)\n"
    "  --out NAME[=FILE]       print buffer NAME after the run (one value per line), or\n"
    "                          write it raw to FILE (through a temporary file + rename);\n"
    "                          NAME may be a program-scope __global variable\n"
    "  --json                  print the summary and outputs as JSON on stdout\n"
    "  --check                 compare every collective with the reference model\n"
    "  --races                 report data races on local and global memory\n"
    "  --uninitialized         report loads of unwritten local and private memory and\n"
    "                          uses of undefined collective results\n"
    "  --check-all             --check and every detector\n"
    "  --max-instructions N    stop a runaway kernel after N subgroup instructions\n"
    "                          (default 100000000000)\n"
    "  --max-memory BYTES      refuse a run whose buffers, images and engine state\n"
    "                          (local, private, register files) need more host memory\n"
    "                          (suffix K, M or G: binary units)\n"
    "  -j N, -jN, --threads N  host threads for functional execution (default 0: all\n"
    "                          cores) and, when N > 1 is given, for the timing model\n"
    "                          (else one); outputs, cycles and statistics are the\n"
    "                          same for any N\n"
    "  --no-timing             skip the cycle-level timing model (it runs by default)\n"
    "  --timing                run the timing model (the default)\n"
    "  --launches N            launch the kernel N times back to back on the same buffers\n"
    "                          (default 1), each launch's caches as the one before left\n"
    "                          them (memory.l2.keep_across_launches); the summary and\n"
    "                          outputs are the last launch's, and the first and last\n"
    "                          launches' cycles are printed\n"
    "  --per-line              print per-instruction timing (count, lanes, cycles,\n"
    "                          stalls per source line) in the summary\n"
    "  --trace FILE.json       write a Chrome/Perfetto trace of the timed run\n"
    "  --trace-limit N         at most N trace events (default 1000000)\n"
    "  --record FILE           record the executed record stream as a trace for\n"
    "                          'sgemu replay' (docs/trace-format.md; FILE.sgN per width\n"
    "                          when several widths run)\n"
    "  --quiet                 no summary on stderr\n"
    "  --help                  this text\n"
    "\n"
    "exit status: 0 ok, 1 bad input or usage, 2 kernel fault, 3 internal error,\n"
    "4 --compare found widths that disagree\n";

typedef struct run_opts {
    const char *kernel_path, *config_path;
    uint32_t widths[MAX_WIDTHS];
    uint32_t nwidths;
    sgemu_launch launch;
    bool have_global;
    cli_argspec *argspecs;
    uint32_t nargspecs;
    struct { char name[64]; const char *file; } outs[MAX_OUTS];
    uint32_t nouts;
    bool json, quiet, per_line, no_timing;
    bool compare;                 /* --compare */
    bool igc, timing_given;       /* --compiler igc; --timing asked for */
    const char *entry;            /* --kernel NAME (SPIR-V / OpenCL C) */
    const char *clopts[64];       /* -D / -I / -cl-std for .cl files */
    int nclopts;
    const char *record;       /* --record FILE */
    uint64_t max_memory;      /* --max-memory BYTES (0: none) */
    uint32_t launches;        /* --launches N (0 or 1: one) */
} run_opts;

static const char *opt_value(int argc, char **argv, int *i, const char *name)
{
    size_t n = strlen(name);
    if (argv[*i][n] == '=')
        return argv[*i] + n + 1;
    if (*i + 1 >= argc) {
        cli_error("option %s needs a value", name);
        return NULL;
    }
    return argv[++*i];
}

static bool is_opt(const char *arg, const char *name)
{
    size_t n = strlen(name);
    return !strncmp(arg, name, n) && (arg[n] == 0 || arg[n] == '=');
}

static int parse_widths(const char *s, run_opts *o)
{
    const char *p = s;
    o->nwidths = 0;
    while (*p) {
        char *end;
        long v = strtol(p, &end, 10);
        if (end == p || v < 1 || v > 64 || o->nwidths == MAX_WIDTHS)
            return cli_error("--sg: expected widths 1..64 separated by commas, got '%s'", s);
        o->widths[o->nwidths++] = (uint32_t)v;
        if (*end == ',')
            end++;
        else if (*end)
            return cli_error("--sg: expected widths 1..64 separated by commas, got '%s'", s);
        p = end;
    }
    return o->nwidths ? 0 : cli_error("--sg needs a width");
}

static int parse_args(int argc, char **argv, run_opts *o)
{
    o->launch.max_instructions = 100000000000ULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
        int cl;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(run_help, stdout);
            exit(SGEMU_EXIT_OK);
        } else if (is_opt(a, "--config")) {
            if (!(o->config_path = opt_value(argc, argv, &i, "--config"))) return 1;
        } else if (is_opt(a, "--sg") || is_opt(a, "--widths")) {
            if (!(v = opt_value(argc, argv, &i, a[2] == 's' ? "--sg" : "--widths")) ||
                parse_widths(v, o))
                return 1;
        } else if (!strcmp(a, "--compare")) {
            o->compare = true;
        } else if (is_opt(a, "--global")) {
            if (!(v = opt_value(argc, argv, &i, "--global"))) return 1;
            o->launch.dims = (uint32_t)cli_parse_dims(v, o->launch.global);
            if (!o->launch.dims)
                return cli_error("--global: expected X[,Y[,Z]], got '%s'", v);
            o->have_global = true;
        } else if (is_opt(a, "--local")) {
            if (!(v = opt_value(argc, argv, &i, "--local"))) return 1;
            if (!cli_parse_dims(v, o->launch.local))
                return cli_error("--local: expected X[,Y[,Z]], got '%s'", v);
            o->launch.local_given = true;
        } else if (is_opt(a, "--offset")) {
            if (!(v = opt_value(argc, argv, &i, "--offset"))) return 1;
            if (!cli_parse_dims(v, o->launch.offset))
                return cli_error("--offset: expected X[,Y[,Z]], got '%s'", v);
        } else if (is_opt(a, "--arg")) {
            if (!(v = opt_value(argc, argv, &i, "--arg"))) return 1;
            const char *eq = strchr(v, '=');
            if (!eq || eq == v || (size_t)(eq - v) >= sizeof o->argspecs[0].name)
                return cli_error("--arg: expected NAME=VALUE, got '%s'", v);
            cli_argspec *sp = &o->argspecs[o->nargspecs++];
            memset(sp, 0, sizeof *sp);
            memcpy(sp->name, v, (size_t)(eq - v));
            sp->value = eq + 1;
            const char *at = strchr(sp->value, '@');
            if (at)
                snprintf(sp->file, sizeof sp->file, "%s", at + 1);
        } else if (is_opt(a, "--out")) {
            if (!(v = opt_value(argc, argv, &i, "--out"))) return 1;
            if (o->nouts == MAX_OUTS)
                return cli_error("too many --out options");
            const char *eq = strchr(v, '=');
            size_t n = eq ? (size_t)(eq - v) : strlen(v);
            if (n == 0 || n >= sizeof o->outs[0].name || (eq && !eq[1]))
                return cli_error("--out: expected NAME or NAME=FILE, got '%s'", v);
            memcpy(o->outs[o->nouts].name, v, n);
            o->outs[o->nouts].name[n] = 0;
            o->outs[o->nouts].file = eq ? eq + 1 : NULL;
            o->nouts++;
        } else if (is_opt(a, "--max-instructions")) {
            if (!(v = opt_value(argc, argv, &i, "--max-instructions"))) return 1;
            char *end;
            o->launch.max_instructions = strtoull(v, &end, 0);
            if (*end || end == v || v[0] == '-')
                return cli_error("--max-instructions: expected a count, got '%s'", v);
        } else if (is_opt(a, "--max-memory")) {
            if (!(v = opt_value(argc, argv, &i, "--max-memory"))) return 1;
            char *end;
            errno = 0;
            unsigned long long m = strtoull(v, &end, 0);
            unsigned shift = *end == 'K' || *end == 'k' ? 10 : *end == 'M' || *end == 'm' ? 20
                           : *end == 'G' || *end == 'g' ? 30 : 0;
            if (shift)
                end++;
            if (*end || end == v || v[0] == '-' || errno || m == 0 || m > (UINT64_MAX >> shift))
                return cli_error("--max-memory: expected a byte count (suffix K, M or G), "
                                 "got '%s'", v);
            o->max_memory = (uint64_t)m << shift;
        } else if (is_opt(a, "--threads") || !strncmp(a, "-j", 2)) {
            /* -j N, -jN (getopt's attached form), --threads N, --threads=N */
            if (a[1] == 'j' && a[2])
                v = a + 2;
            else if (!(v = opt_value(argc, argv, &i, a[1] == 'j' ? "-j" : "--threads")))
                return 1;
            char *end;
            unsigned long t = strtoul(v, &end, 10);
            if (*end || end == v || v[0] == '-' || t > 1024)
                return cli_error("--threads: expected a count 0..1024, got '%s'", v);
            o->launch.threads = (uint32_t)t;
        } else if (!strcmp(a, "--no-timing")) {
            o->no_timing = true;
        } else if (!strcmp(a, "--timing")) {
            o->no_timing = false;
            o->timing_given = true;
        } else if (is_opt(a, "--compiler")) {
            if (!(v = opt_value(argc, argv, &i, "--compiler"))) return 1;
            if (strcmp(v, "igc") && strcmp(v, "sgemu"))
                return cli_error("--compiler: expected sgemu or igc, got '%s'", v);
            o->igc = !strcmp(v, "igc");
        } else if (is_opt(a, "--launches")) {
            if (!(v = opt_value(argc, argv, &i, "--launches"))) return 1;
            char *end;
            unsigned long n = strtoul(v, &end, 10);
            if (*end || end == v || n < 1 || n > 1000000)
                return cli_error("--launches: expected a count 1..1000000, got '%s'", v);
            o->launches = (uint32_t)n;
        } else if (!strcmp(a, "--per-line")) {
            o->per_line = true;
        } else if (is_opt(a, "--trace")) {
            if (!(v = opt_value(argc, argv, &i, "--trace"))) return 1;
            o->launch.trace_path = v;
        } else if (is_opt(a, "--record")) {
            if (!(o->record = opt_value(argc, argv, &i, "--record"))) return 1;
        } else if (is_opt(a, "--trace-limit")) {
            if (!(v = opt_value(argc, argv, &i, "--trace-limit"))) return 1;
            char *end;
            o->launch.trace_limit = strtoull(v, &end, 0);
            if (*end || end == v || v[0] == '-' || !o->launch.trace_limit)
                return cli_error("--trace-limit: expected a positive count, got '%s'", v);
        } else if (!strcmp(a, "--json")) {
            o->json = true;
        } else if (!strcmp(a, "--check")) {
            o->launch.check = true;
        } else if (!strcmp(a, "--races")) {
            o->launch.detect |= SGEMU_DETECT_RACES;
        } else if (!strcmp(a, "--uninitialized")) {
            o->launch.detect |= SGEMU_DETECT_UNINIT;
        } else if (!strcmp(a, "--check-all")) {
            o->launch.check = true;
            o->launch.detect |= SGEMU_DETECT_RACES | SGEMU_DETECT_UNINIT;
        } else if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) {
            o->quiet = true;
        } else if (is_opt(a, "--kernel")) {
            if (!(o->entry = opt_value(argc, argv, &i, "--kernel"))) return 1;
        } else if ((cl = cli_cl_option(argc, argv, &i, o->clopts, &o->nclopts, 64)) != 0) {
            if (cl < 0)
                return 1;
        } else if (a[0] == '-' && a[1]) {
            return cli_error("run: unknown option '%s' (see 'sgemu run --help')", a);
        } else if (!o->kernel_path) {
            o->kernel_path = a;
        } else {
            return cli_error("run: unexpected argument '%s'", a);
        }
    }
    if (o->compare && o->nwidths < 2)
        return cli_error("--compare needs two or more widths (--sg 8,16,32)");
    if (o->igc && o->record)   /* the trace format holds sgemu's ISA only */
        return cli_error("--compiler igc: --record is not available (kernel traces hold "
                         "sgemu's own ISA)");
    o->launch.timing = !o->no_timing;
    if (o->launches > 1 && o->no_timing)
        return cli_error("--launches needs the timing model (drop --no-timing)");
    if (o->launches > 1 && o->record)
        return cli_error("--launches: not with --record (a trace holds one launch)");
    if (o->no_timing && o->launch.trace_path)
        return cli_error("--trace needs the timing model (drop --no-timing)");
    if (!o->kernel_path)
        return cli_error("run: no kernel file given (see 'sgemu run --help')");
    if (!o->have_global)
        return cli_error("run: --global is required");
    return 0;
}

/* A program-scope global variable (.global_var) by its OpenCL C name; an
 * argument of the same name wins (sgemu_kernel_arg_index first). */
static const isa_gvar *find_gvar(const isa_kernel *k, const char *name)
{
    if (!k->global_arg)
        return NULL;
    for (uint32_t i = 0; i < k->ngvar; i++)
        if (!strcmp(k->gvars[i].name, name))
            return &k->gvars[i];
    return NULL;
}

static bool same_file(const char *a, const char *b)
{
    char ra[PATH_MAX], rb[PATH_MAX];
    if (!realpath(a, ra) || !realpath(b, rb))
        return false;
    return !strcmp(ra, rb);
}

/* `--arg 0=...` / `--out 1`: positions become the parameter's name; a name
 * that a SPIR-V module without parameter names cannot have gets a message
 * listing the parameters by position and type. */
static int resolve_positions(run_opts *o, const isa_kernel *k)
{
    static const char *const kinds[] = { "", "global ", "constant ", "local ", "image2d" };
    for (uint32_t n = 0; n < o->nargspecs + o->nouts; n++) {
        char *name = n < o->nargspecs ? o->argspecs[n].name : o->outs[n - o->nargspecs].name;
        char *end;
        unsigned long pos = strtoul(name, &end, 10);
        if (name[0] >= '0' && name[0] <= '9' && !*end) {
            if (pos >= k->narg)
                return cli_error("kernel '%s' has %u parameters; there is no parameter %lu",
                                 k->name, k->narg, pos);
            snprintf(name, 64, "%s", k->args[pos].name);
        } else if (cli_kernel_args_unnamed && sgemu_kernel_arg_index(k, name) < 0 &&
                   (n < o->nargspecs || !find_gvar(k, name))) {
            fprintf(stderr, "sgemu: error: kernel '%s' has no parameter named '%s': the SPIR-V "
                    "module carries no parameter names (compile with -cl-kernel-arg-info or "
                    "-fno-discard-value-names), so address them by position:\n", k->name, name);
            for (uint32_t i = 0; i < k->narg; i++) {
                const isa_arg *a = &k->args[i];
                if (i + 1 == k->const_arg || i + 1 == k->global_arg)
                    continue;      /* program-scope data: sgemu binds it */
                if (a->byval) {    /* a vector or struct: its bytes */
                    fprintf(stderr, "  --arg %u=...   %s (by value, %u bytes)\n", i,
                            a->cl_type[0] ? a->cl_type : a->byval_vec ? "vector" : "struct",
                            a->byval);
                    continue;
                }
                fprintf(stderr, "  --arg %u=...   %s%s%s\n", i,
                        a->kind < 5 ? kinds[a->kind] : "",
                        a->kind == ISA_ARG_IMAGE2D ? "" : isa_types[a->type].cl_name,
                        a->kind == ISA_ARG_SCALAR || a->kind == ISA_ARG_IMAGE2D ? "" : " *");
            }
            return SGEMU_EXIT_USER;
        }
    }
    return 0;
}

/* Names must exist; an output file must not be one of the inputs. */
static int check_names(const run_opts *o, const isa_kernel *k)
{
    for (uint32_t i = 0; i < o->nargspecs; i++) {
        int ai = sgemu_kernel_arg_index(k, o->argspecs[i].name);
        if (ai < 0)
            return cli_error("--arg: kernel '%s' has no argument '%s'", k->name,
                             o->argspecs[i].name);
        char why[300];
        if (cli_value_type_mismatch(&k->args[ai], o->argspecs[i].value, why, sizeof why))
            fprintf(stderr, "sgemu: warning: %s\n", why);
        if ((uint32_t)ai + 1 == k->const_arg || (uint32_t)ai + 1 == k->global_arg)
            return cli_error("--arg: '%s' is the kernel's program-scope %s data, which sgemu "
                             "binds itself", o->argspecs[i].name,
                             (uint32_t)ai + 1 == k->global_arg ? "global" : "constant");
        for (uint32_t j = 0; j < i; j++)
            if (!strcmp(o->argspecs[i].name, o->argspecs[j].name))
                return cli_error("--arg: argument '%s' given twice", o->argspecs[i].name);
    }
    for (uint32_t i = 0; i < o->nouts; i++) {
        int ai = sgemu_kernel_arg_index(k, o->outs[i].name);
        if (ai < 0 && !find_gvar(k, o->outs[i].name))
            return cli_error("--out: kernel '%s' has no argument or program-scope global "
                             "variable '%s'", k->name, o->outs[i].name);
        uint8_t kind = ai < 0 ? ISA_ARG_GLOBAL : k->args[ai].kind;
        if (kind != ISA_ARG_GLOBAL && kind != ISA_ARG_CONSTANT && kind != ISA_ARG_IMAGE2D)
            return cli_error("--out: argument '%s' is not a buffer or image", o->outs[i].name);
        const char *f = o->outs[i].file;
        if (!f)
            continue;
        bool clash = same_file(f, o->kernel_path) ||
                     (o->config_path && same_file(f, o->config_path));
        for (uint32_t j = 0; j < o->nargspecs && !clash; j++)
            clash = o->argspecs[j].file[0] && same_file(f, o->argspecs[j].file);
        if (clash)
            return cli_error("--out: refusing to overwrite input file '%s'", f);
    }
    return 0;
}

static void print_summary(FILE *f, const isa_kernel *k, const emu_config *cfg,
                          const sgemu_stats *s)
{
    double util = s->lane_slots ? 100.0 * (double)s->lane_ops / (double)s->lane_slots : 0;
    fprintf(f, "sgemu: kernel %s on %s, SIMD%u\n", k->name, cfg->name, s->sg_width);
    fprintf(f, "  NDRange      global %llux%llux%llu, local %llux%llux%llu, "
               "%llu work-groups, %llu sub-groups\n",
            (unsigned long long)s->global[0], (unsigned long long)s->global[1],
            (unsigned long long)s->global[2], (unsigned long long)s->local[0],
            (unsigned long long)s->local[1], (unsigned long long)s->local[2],
            (unsigned long long)s->work_groups, (unsigned long long)s->subgroups);
    fprintf(f, "  executed     %llu subgroup instructions, %llu lane operations, "
               "%llu micro-ops\n",
            (unsigned long long)s->instructions, (unsigned long long)s->lane_ops,
            (unsigned long long)s->uops);
    fprintf(f, "  lane util.   %.1f%% (active lanes / (instructions x width))\n", util);
    cli_print_host_time(f, s);
    if (s->notes)
        fprintf(f, "  notes        %llu undefined-result notes (check mode)\n",
                (unsigned long long)s->notes);
    const isa_ra_stats *ra = &s->regalloc;
    if (s->regalloc_done)
        fprintf(f, "  regalloc     %u values (%u B/lane) -> %u registers, %u B/lane live at "
                "once; spilled %u values (%u B per work-item: %u stores, %u fills); "
                "recomputed %u values (%u instructions)\n",
                ra->regs_before, ra->bytes_before, ra->regs_after, ra->live_bytes,
                ra->spilled_values, ra->spill_bytes, ra->spill_stores, ra->spill_fills,
                ra->remat_values, ra->remat_insts);
}

/* IGC's facts about a Gen kernel (--compiler igc). */
static void print_igc(FILE *f, const isa_kernel *k, bool json)
{
    sgemu_igc_info gi;
    if (!sgemu_igc_info_of(k, &gi))
        return;
    if (json)
        fprintf(f, ", \"igc\": {\"simd\": %u, \"instructions\": %u, \"sends\": %u, "
                   "\"grf_count\": %u, \"scratch_bytes\": %u, \"slm_bytes\": %u}",
                gi.simd, gi.instructions, gi.sends, gi.grf_count, gi.scratch_bytes,
                gi.slm_bytes);
    else
        fprintf(f, "  IGC code     SIMD%u, %u instructions (%u sends), %u GRFs, "
                   "%u bytes scratch per thread\n",
                gi.simd, gi.instructions, gi.sends, gi.grf_count, gi.scratch_bytes);
}

/* Kernel `o->kernel_path` compiled by ocloc for cfg's target at `width`
 * (0: IGC's choice); on failure err holds why (IGC's reason when it
 * refuses the kernel or the width). */
static int load_igc_err(const run_opts *o, const emu_config *cfg, uint32_t width,
                        isa_kernel *k, char *err, size_t errn)
{
    if (!cfg->ocloc_target[0] || !strcmp(cfg->ocloc_target, "none")) {
        snprintf(err, errn, "--compiler igc: config '%s' names no Intel target "
                 "(device.ocloc_target)", cfg->name);
        return SGEMU_EXIT_USER;
    }
    char opts[2048] = "";
    size_t n = 0;
    for (int i = 0; i < o->nclopts; i++)
        if (strcmp(o->clopts[i], "-gline-tables-only") != 0)
            n += (size_t)snprintf(opts + n, n < sizeof opts ? sizeof opts - n : 0, "%s%s",
                                  n ? " " : "", o->clopts[i]);
    if (n >= sizeof opts) {
        snprintf(err, errn, "--compiler igc: build options too long");
        return SGEMU_EXIT_USER;
    }
    return sgemu_load_igc(o->kernel_path, cfg->ocloc_target, opts, width, o->entry, k, err,
                          errn);
}

/* The first width of --sg that IGC compiles, into k and *first; the widths
 * before it that IGC refuses get their reason in why[] (rows of the study,
 * not errors).  When IGC refuses them all, the last refusal is the error. */
static int load_igc_first(const run_opts *o, const emu_config *cfg, isa_kernel *k,
                          char (*why)[200], uint32_t *first)
{
    uint32_t n = o->nwidths ? o->nwidths : 1;
    char err[4096];
    for (uint32_t wi = 0; wi < n; wi++) {
        int rc = load_igc_err(o, cfg, o->widths[wi], k, err, sizeof err);
        if (!rc) {
            *first = wi;
            return 0;
        }
        if (wi + 1 == n || !strstr(err, "ocloc refused"))
            return cli_error("%s", err);
        cli_igc_reason(err, why[wi], sizeof why[wi]);
    }
    return SGEMU_EXIT_INTERNAL;   /* not reached: the last width returns */
}

/* A width IGC refused, as a row of the study: a line on stderr, the run's
 * JSON object, and the comparison table's failed row. */
static void igc_refused_row(const run_opts *o, uint32_t wi, const char *why, sw_row *cmp,
                            char *label, uint32_t *ncmp)
{
    if (!o->quiet && !o->json)
        fprintf(stderr, "sgemu: IGC refused SIMD%u: %s\n", o->widths[wi], why);
    if (o->json) {
        printf("%s{\"sg_width\": %u, \"igc_refused\": ", wi ? ", " : "", o->widths[wi]);
        cli_json_string(stdout, why);
        printf("}");
    }
    if (*ncmp < MAX_WIDTHS) {
        memset(&cmp[*ncmp], 0, sizeof cmp[*ncmp]);
        cmp[*ncmp].status = 1;
        snprintf(cmp[*ncmp].error, sizeof cmp[*ncmp].error, "IGC refused: %s", why);
        snprintf(label + (size_t)*ncmp * SW_TEXT, SW_TEXT, "IGC SIMD%u", o->widths[wi]);
        (*ncmp)++;
    }
}

/* What the modelled device's own compiler would refuse (emu/target_check.c):
 * sgemu runs the kernel anyway, so a width study says so instead of silently
 * timing a launch the real toolchain cannot build. */
static void warn_refusals(const isa_kernel *k, const emu_config *cfg, uint32_t width,
                          unsigned refused)
{
    for (unsigned bit = 1; refused; bit <<= 1) {
        if (!(refused & bit))
            continue;
        refused &= ~bit;
        if (strcmp(cfg->ocloc_target, "none"))
            fprintf(stderr, "sgemu: warning: kernel '%s' at SIMD%u on %s: %s; Intel's compiler "
                            "(ocloc -device %s) refuses it\n",
                    k->name, width, cfg->name, emu_refusal_text(bit), cfg->ocloc_target);
        else
            fprintf(stderr, "sgemu: warning: kernel '%s' at SIMD%u on %s: %s\n", k->name, width,
                    cfg->name, emu_refusal_text(bit));
    }
}

static void json_refusals(FILE *f, unsigned refused)
{
    static const struct { unsigned bit; const char *name; } names[] = {
        { EMU_REFUSE_FP64, "fp64" },
        { EMU_REFUSE_BLOCK_IO_WIDTH, "block_io_width" },
        { EMU_REFUSE_LOCAL_BLOCK_IO, "local_block_io" },
    };
    const char *sep = "";
    fprintf(f, ", \"device_compiler_refuses\": [");
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (refused & names[i].bit) {
            fprintf(f, "%s\"%s\"", sep, names[i].name);
            sep = ", ";
        }
    }
    fprintf(f, "]");
}

static void json_stats(FILE *f, const sgemu_stats *s)
{
    double util = s->lane_slots ? (double)s->lane_ops / (double)s->lane_slots : 0;
    fprintf(f, "\"sg_width\": %u, \"dims\": %u, "
               "\"global\": [%llu, %llu, %llu], \"local\": [%llu, %llu, %llu], "
               "\"work_groups\": %llu, \"subgroups\": %llu, \"work_items\": %llu, "
               "\"instructions\": %llu, \"lane_ops\": %llu, \"lane_slots\": %llu, "
               "\"simd_efficiency\": %.6f, \"uops\": %llu, \"notes\": %llu, ",
            s->sg_width, s->dims, (unsigned long long)s->global[0],
            (unsigned long long)s->global[1], (unsigned long long)s->global[2],
            (unsigned long long)s->local[0], (unsigned long long)s->local[1],
            (unsigned long long)s->local[2], (unsigned long long)s->work_groups,
            (unsigned long long)s->subgroups, (unsigned long long)s->work_items,
            (unsigned long long)s->instructions, (unsigned long long)s->lane_ops,
            (unsigned long long)s->lane_slots, util, (unsigned long long)s->uops,
            (unsigned long long)s->notes);
    cli_json_host_time(f, s);
    const isa_ra_stats *ra = &s->regalloc;
    fprintf(f, ", \"regalloc\": {\"allocated\": %s, \"registers_before\": %u, "
               "\"registers_after\": %u, \"predicates_before\": %u, \"predicates_after\": %u, "
               "\"bytes_per_lane_before\": %u, \"live_bytes_per_lane_before\": %u, "
               "\"live_bytes_per_lane\": %u, \"spilled_values\": %u, \"spill_bytes\": %u, "
               "\"spill_stores\": %u, \"spill_fills\": %u, \"remat_values\": %u, "
               "\"remat_insts\": %u, \"pinned\": %u}",
            s->regalloc_done ? "true" : "false", ra->regs_before, ra->regs_after,
            ra->preds_before, ra->preds_after, ra->bytes_before, ra->live_bytes_before,
            ra->live_bytes, ra->spilled_values, ra->spill_bytes, ra->spill_stores,
            ra->spill_fills, ra->remat_values, ra->remat_insts, ra->pinned);
}

/* Element type and bytes of an output argument's storage. */
static const uint8_t *out_bytes(const isa_arg *a, const sgemu_argval *v, size_t *n, isa_type *t)
{
    if (v->kind == SGEMU_VAL_IMAGE) {
        *n = (size_t)v->image.pitch * v->image.height;
        *t = ISA_T_U8;
        return v->image.data;
    }
    *n = v->bytes;
    *t = (isa_type)a->type;
    return v->data;
}

/* --launches N: launches 1..N-1 with a cache state the last one then starts
 * from (o->launch.caches); *first: the first one's cycles.  Their outputs
 * and statistics are not shown; a fault stops there. */
static int run_earlier_launches(run_opts *o, const isa_kernel *k, const emu_config *cfg,
                                sgemu_argval *vals, uint64_t *first, sgemu_fault *fault)
{
    if (o->launches <= 1)
        return 0;
    if (!(o->launch.caches = sgemu_cache_state_new()))
        return cli_error("out of memory for the cache state");
    sgemu_launch l = o->launch;
    l.trace_path = NULL;
    l.progress = NULL;
    for (uint32_t i = 0; i + 1 < o->launches; i++) {
        sgemu_stats st;
        int rc = sgemu_run(k, cfg, &l, vals, &st, fault);
        if (!rc && i == 0 && st.timing)
            *first = st.timing->cycles;
        sgemu_stats_free(&st);
        if (rc)
            return rc;
    }
    return 0;
}

static int emit_outputs(const run_opts *o, const isa_kernel *k, sgemu_argval *vals,
                        uint32_t width, FILE *json)
{
    bool headers = o->nwidths > 1 || o->nouts > 1;
    int first = 1;
    for (uint32_t i = 0; i < o->nouts; i++) {
        int ai = sgemu_kernel_arg_index(k, o->outs[i].name);
        const isa_gvar *gv = ai < 0 ? find_gvar(k, o->outs[i].name) : NULL;
        if (gv)                    /* a variable: its bytes of the global block */
            ai = (int)k->global_arg - 1;
        if (ai < 0 || (uint32_t)ai >= k->narg)
            continue;              /* check_names refused it */
        const isa_arg *a = &k->args[ai];
        const char *oname = gv ? gv->name : a->name;
        size_t n;
        isa_type t;
        const uint8_t *p = out_bytes(a, &vals[ai], &n, &t);
        if (gv) {
            bool in = p && (uint64_t)gv->offset + gv->bytes <= n;
            p = in ? p + gv->offset : NULL;
            n = in ? gv->bytes : 0;
            t = (isa_type)gv->type;
        }
        if (o->outs[i].file) {
            char path[1200];
            const char *f = o->outs[i].file, *dot = strrchr(f, '.'), *slash = strrchr(f, '/');
            if (o->nwidths == 1)
                snprintf(path, sizeof path, "%s", f);
            else if (dot && dot != f && (!slash || dot > slash + 1))
                /* out.pgm -> out.sg8.pgm: the extension still names the format */
                snprintf(path, sizeof path, "%.*s.sg%u%s", (int)(dot - f), f, width, dot);
            else
                snprintf(path, sizeof path, "%s.sg%u", f, width);
            if (vals[ai].kind == SGEMU_VAL_IMAGE ? cli_write_image(path, a, &vals[ai])
                                                 : cli_write_atomic(path, p, n))
                return SGEMU_EXIT_USER;
            continue;
        }
        size_t es = isa_types[t].bytes;
        char buf[64];
        if (json) {
            fprintf(json, "%s", first ? "" : ", ");
            cli_json_string(json, oname);
            fputs(": [", json);
            for (size_t e = 0; e + es <= n; e += es) {
                cli_format_value(t, p + e, buf, sizeof buf);
                bool num = strcmp(buf, "nan") && strcmp(buf, "-nan") && strcmp(buf, "inf") &&
                           strcmp(buf, "-inf");
                fprintf(json, "%s%s%s%s", e ? ", " : "", num ? "" : "\"", buf, num ? "" : "\"");
            }
            fputc(']', json);
            first = 0;
            continue;
        }
        if (headers)
            printf("# %s sg=%u\n", oname, width);
        if (vals[ai].kind == SGEMU_VAL_IMAGE) {
            cli_print_image(stdout, a, &vals[ai]);
            continue;
        }
        for (size_t e = 0; e + es <= n; e += es) {
            cli_format_value(t, p + e, buf, sizeof buf);
            puts(buf);
        }
    }
    return 0;
}

/* A progress line on stderr for runs longer than a second, when stderr is a
 * terminal: a thread polls the engine's work-group counters. */
typedef struct progress_line {
    _Atomic uint64_t counts[2];      /* finished, total (sgemu_launch.progress) */
    atomic_int stop;
    uint32_t width;
    pthread_t tid;
    bool started;
} progress_line;

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void *progress_main(void *arg)
{
    progress_line *pl = arg;
    double t0 = now_seconds();
    bool shown = false;
    while (!atomic_load(&pl->stop)) {
        usleep(200000);
        double elapsed = now_seconds() - t0;
        uint64_t done = atomic_load_explicit(&pl->counts[0], memory_order_relaxed);
        uint64_t total = atomic_load_explicit(&pl->counts[1], memory_order_relaxed);
        if (elapsed < 1.0 || total == 0 || atomic_load(&pl->stop))
            continue;
        double left = done ? elapsed * (double)(total - done) / (double)done : 0.0;
        char simd[16] = "";
        if (pl->width)
            snprintf(simd, sizeof simd, "SIMD%u ", pl->width);
        fprintf(stderr, "\rsgemu: %s%llu/%llu work-groups (%.0f%%), %.1f s elapsed, ~%.0f s left ",
                simd, (unsigned long long)done, (unsigned long long)total,
                100.0 * (double)done / (double)total, elapsed, left);
        shown = true;
    }
    if (shown)
        fprintf(stderr, "\r%79s\r", "");
    return NULL;
}

static void progress_start(progress_line *pl, sgemu_launch *L, uint32_t width, bool quiet)
{
    memset(pl, 0, sizeof *pl);
    L->progress = NULL;
    if (quiet || !isatty(STDERR_FILENO))
        return;
    pl->width = width;
    L->progress = pl->counts;
    pl->started = pthread_create(&pl->tid, NULL, progress_main, pl) == 0;
    if (!pl->started)
        L->progress = NULL;
}

static void progress_stop(progress_line *pl)
{
    if (!pl->started)
        return;
    atomic_store(&pl->stop, 1);
    pthread_join(pl->tid, NULL);
}

int cli_cmd_run(int argc, char **argv)
{
    run_opts o;
    memset(&o, 0, sizeof o);
    o.argspecs = calloc((size_t)argc + 1, sizeof *o.argspecs);
    if (!o.argspecs)
        return SGEMU_EXIT_INTERNAL;
    int rc = parse_args(argc, argv, &o);
    isa_kernel k;
    memset(&k, 0, sizeof k);
    emu_config cfg;
    char igc_why[MAX_WIDTHS][200];          /* --compiler igc: why it refused a width */
    uint32_t igc_first = 0;                 /* the first width IGC compiled */
    if (rc || (!o.igc && (rc = cli_load_kernel_ex(o.kernel_path, o.entry, o.clopts,
                                                  o.nclopts, &k))) ||
        (rc = cli_load_config(o.config_path, &cfg)) ||
        (o.igc && (rc = load_igc_first(&o, &cfg, &k, igc_why, &igc_first))) ||
        (rc = resolve_positions(&o, &k)) ||
        (rc = check_names(&o, &k))) {
        isa_kernel_free(&k);
        free(o.argspecs);
        return rc;
    }
    if (o.nwidths == 0) {
        o.widths[0] = 0;      /* kernel's required width or the config default */
        o.nwidths = 1;
    }

    sgemu_fault fault;
    memset(&fault, 0, sizeof fault);
    char *fault_printf = NULL;              /* --json: the failed run's printf output */
    sw_row cmp[MAX_WIDTHS];                 /* --sg A,B,...: the comparison table */
    char cmp_label[MAX_WIDTHS][SW_TEXT];
    uint32_t ncmp = 0;
    sgemu_argval *vals = calloc(k.narg + 1, sizeof *vals);
    cli_compare *cmpw = o.compare ? cli_compare_new() : NULL;
    if (!vals || (o.compare && !cmpw)) {
        free(vals);
        cli_compare_free(cmpw);
        isa_kernel_free(&k);
        free(o.argspecs);
        return SGEMU_EXIT_INTERNAL;
    }
    if (o.json) {
        printf("{\"kernel\": ");
        cli_json_string(stdout, k.name);
        printf(", \"config\": ");
        cli_json_string(stdout, cfg.name);
        printf(", \"runs\": [");
    }
    for (uint32_t wi = 0; wi < o.nwidths && !rc; wi++) {
        if (o.igc && wi < igc_first) {   /* refused while looking for the first */
            igc_refused_row(&o, wi, igc_why[wi], cmp, cmp_label[0], &ncmp);
            continue;
        }
        if (o.igc && wi > igc_first) {   /* IGC compiles each width */
            uint32_t narg = k.narg;
            char err[4096];
            isa_kernel k2;
            memset(&k2, 0, sizeof k2);
            if (load_igc_err(&o, &cfg, o.widths[wi], &k2, err, sizeof err)) {
                /* IGC refuses this width: a row of the study, with why */
                char why[200];
                cli_igc_reason(err, why, sizeof why);
                igc_refused_row(&o, wi, why, cmp, cmp_label[0], &ncmp);
                continue;
            }
            isa_kernel_free(&k);
            k = k2;
            if (k.narg != narg) {
                rc = cli_error("IGC's SIMD%u kernel has other arguments", o.widths[wi]);
                break;
            }
        }
        for (uint32_t i = 0; i < k.narg && !rc; i++) {
            const char *spec = NULL;
            for (uint32_t j = 0; j < o.nargspecs; j++)
                if (!strcmp(o.argspecs[j].name, k.args[i].name))
                    spec = o.argspecs[j].value;
            rc = cli_make_value(&k.args[i], spec, &vals[i]);
            if (!rc && i + 1 == k.global_arg) {
                /* program-scope globals: sgemu_run fills this buffer with the
                 * initial bytes, so --out sees the final ones */
                vals[i].kind = SGEMU_VAL_BUFFER;
                vals[i].bytes = k.global_bytes;
                if (!(vals[i].data = calloc(1, k.global_bytes ? k.global_bytes : 1)))
                    rc = cli_error("out of memory for the program-scope global data");
            }
        }
        if (rc) {
            for (uint32_t i = 0; i < k.narg; i++)
                cli_free_value(&vals[i]);
            break;
        }
        if (o.max_memory) {     /* the engine gets what the arguments leave */
            uint64_t args = 0;
            for (uint32_t i = 0; i < k.narg; i++)
                args += vals[i].kind == SGEMU_VAL_BUFFER ? vals[i].bytes
                      : vals[i].kind == SGEMU_VAL_IMAGE
                          ? (uint64_t)vals[i].image.pitch * vals[i].image.height : 0;
            if (args >= o.max_memory) {
                rc = cli_error("the arguments' buffers and images take %llu bytes of host "
                               "memory, more than --max-memory %llu",
                               (unsigned long long)args, (unsigned long long)o.max_memory);
                for (uint32_t i = 0; i < k.narg; i++)
                    cli_free_value(&vals[i]);
                break;
            }
            o.launch.max_memory = o.max_memory - args;
        }
        o.launch.sg_width = o.widths[wi];
        /* without --sg, the width the launch takes: the kernel's required
         * one, else the config's default (emu/launch.c) */
        const uint32_t run_width = o.widths[wi]   ? o.widths[wi]
                                   : k.reqd_sg_size ? k.reqd_sg_size
                                                    : cfg.default_width;
        unsigned refused = emu_target_refusals(&cfg, &k, run_width);
        warn_refusals(&k, &cfg, run_width, refused);
        char record[4200];
        if (o.record) {
            snprintf(record, sizeof record, o.nwidths > 1 ? "%s.sg%u" : "%s", o.record,
                     o.widths[wi]);
            o.launch.record_path = record;
        }
        sgemu_stats st;
        uint64_t first_cycles = 0;
        rc = run_earlier_launches(&o, &k, &cfg, vals, &first_cycles, &fault);
        progress_line pl;
        progress_start(&pl, &o.launch, o.widths[wi], o.quiet || o.json);
        if (rc)
            memset(&st, 0, sizeof st);
        else
            rc = sgemu_run(&k, &cfg, &o.launch, vals, &st, &fault);
        progress_stop(&pl);
        sgemu_cache_state_free(o.launch.caches);
        o.launch.caches = NULL;
        if (!rc && st.timing)
            cli_warn_trace_dropped(o.launch.trace_path, st.timing->trace_events,
                                   st.timing->trace_dropped);
        /* printf output: on stdout, the run's own, also what came before a
         * fault; in --json the run object's "printf" */
        if (o.nwidths > 1 && st.printf_len && !o.json)
            printf("# printf sg=%u\n", o.widths[wi]);
        sgemu_printf_flush(&st, k.name, o.json ? NULL : stdout, stderr);
        if (rc) {
            fprintf(stderr, "sgemu: %s: %s\n",
                    rc == SGEMU_EXIT_FAULT ? "kernel fault" : "error", fault.msg);
            if (o.json)
                fault_printf = strdup(st.printf_text ? st.printf_text : "");
        } else {
            if (st.timing && ncmp < MAX_WIDTHS) {
                memset(&cmp[ncmp], 0, sizeof cmp[ncmp]);
                sw_row_from_stats(&cmp[ncmp], &st);
                sgemu_igc_info gi;
                if (sgemu_igc_info_of(&k, &gi)) {
                    /* IGC's registers and spill space, not sgemu's allocation */
                    cmp[ncmp].regs_before = cmp[ncmp].regs_after = gi.grf_count;
                    cmp[ncmp].spill_bytes = gi.scratch_bytes;
                    snprintf(cmp_label[ncmp++], SW_TEXT, "IGC SIMD%u (%u inst, %u sends)",
                             st.sg_width, gi.instructions, gi.sends);
                } else {
                    snprintf(cmp_label[ncmp++], SW_TEXT, "SIMD%u", st.sg_width);
                }
            }
            if (!o.quiet && !o.json) {
                print_summary(stderr, &k, &cfg, &st);
                if (o.launches > 1 && st.timing)
                    fprintf(stderr, "launches:     %u, first %llu cycles, last %llu "
                            "(memory.l2.keep_across_launches %u)\n", o.launches,
                            (unsigned long long)first_cycles,
                            (unsigned long long)st.timing->cycles, cfg.timing.l2_keep);
                cli_detect_print(stderr, o.launch.detect, &st);
                print_igc(stderr, &k, false);
                if (st.timing)
                    tm_print(stderr, st.timing, &k, &cfg, o.per_line);
            }
            if (o.json) {
                printf("%s{", wi ? ", " : "");
                json_stats(stdout, &st);
                cli_detect_json(stdout, o.launch.detect, &st);
                print_igc(stdout, &k, true);
                json_refusals(stdout, refused);
                printf(", \"printf\": ");
                cli_json_string(stdout, st.printf_text ? st.printf_text : "");
                printf(", \"printf_dropped\": %llu", (unsigned long long)st.printf_dropped);
                if (o.launches > 1 && st.timing)
                    printf(", \"launches\": %u, \"first_launch_cycles\": %llu", o.launches,
                           (unsigned long long)first_cycles);
                if (st.timing) {
                    printf(", \"timing\": ");
                    tm_print_json(stdout, st.timing, &k);
                }
                printf(", \"outputs\": {");
            }
            rc = emit_outputs(&o, &k, vals, st.sg_width, o.json ? stdout : NULL);
            if (o.json)
                printf("}}");
            if (!rc && cmpw)
                rc = cli_compare_add(cmpw, &k, vals, st.sg_width);
        }
        sgemu_stats_free(&st);
        for (uint32_t i = 0; i < k.narg; i++)
            cli_free_value(&vals[i]);
    }
    if (!rc && ncmp > 1 && !o.quiet && !o.json) {   /* side by side, as a sweep shows it */
        const sw_row *g[MAX_WIDTHS];
        for (uint32_t i = 0; i < ncmp; i++)
            g[i] = &cmp[i];
        fprintf(stderr, "\nsgemu: kernel %s on %s, widths compared\n", k.name, cfg.name);
        sw_print_group(g, (const char (*)[SW_TEXT])cmp_label, ncmp, "width", stderr);
    }
    if (o.json && rc && fault.code) {   /* the run that failed, as data */
        printf("], \"error\": ");
        cli_json_fault(stdout, rc, &fault);
        if (fault_printf) {
            printf(", \"printf\": ");
            cli_json_string(stdout, fault_printf);
        }
        printf("}\n");
    } else if (o.json) {
        printf("]");
        if (!rc && cmpw)
            rc = cli_compare_report(cmpw, &k, NULL, stdout);
        printf("}\n");
    } else if (!rc && cmpw) {
        rc = cli_compare_report(cmpw, &k, stderr, NULL);
    }
    cli_compare_free(cmpw);
    free(fault_printf);
    free(vals);
    isa_kernel_free(&k);
    free(o.argspecs);
    return rc;
}
