/* cmd_exec.c - `sgemu exec`: run an unmodified OpenCL program with sgemu's
 * platform (tools/icd/) as its only OpenCL platform, without installing
 * it, then print a table per kernel from the statistics the platform
 * writes at exit (docs/opencl-platform.md). */
#include "cli.h"

#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char exec_help[] =
    "usage: sgemu exec [options] -- PROGRAM [ARGS...]\n"
    "\n"
    "Runs PROGRAM with sgemu as its only OpenCL platform (the system's loader is\n"
    "pointed at sgemu's ICD through OCL_ICD_VENDORS; nothing is installed). Every\n"
    "kernel it launches runs on sgemu with the timing model. At exit, a table per\n"
    "kernel goes to stderr: launches, total and mean modelled time, cycles, SIMD\n"
    "efficiency, occupancy limiter, sub-group instructions.\n"
    "\n"
    "options:\n"
    "  --config FILE|NAME   device config: a YAML file or a bundled name (default: the\n"
    "                       bundled default); several, comma-separated, give one\n"
    "                       OpenCL device each\n"
    "  --sg N               sub-group width where the kernel does not require one\n"
    "  --check              compare every collective with the reference model\n"
    "  --no-timing          skip the timing model (faster; kernels' profiling times\n"
    "                       are then zero-length and the table has no times)\n"
    "  --report FILE.json   write the table as JSON\n"
    "  --record DIR         write one kernel trace per launch into DIR\n"
    "                       (NNNN-KERNEL.sgtrace) for 'sgemu replay' and sweeps\n"
    "  --quiet              no table\n"
    "  --help               this text\n"
    "\n"
    "environment: SGEMU_ICD names the platform library to use (default: the one\n"
    "beside this sgemu, in the build tree or installed)\n"
    "\n"
    "exit status: PROGRAM's (128 + N when signal N ended it); 1 bad usage or no\n"
    "platform library; 3 internal error\n";

typedef struct exec_row {
    char kernel[64], device[64];
    unsigned width;
    unsigned long long launches, ns, cycles, instructions, lane_ops, lane_slots;
    double occupancy;
    bool timed;
    char limiter[32];
} exec_row;

static bool is_file(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* The platform library: $SGEMU_ICD, the build tree's (tools/icd/ beside
 * tools/sgemu), or the installed one. */
static bool find_icd(char *out, size_t n)
{
    const char *env = getenv("SGEMU_ICD");
    if (env && *env) {
        snprintf(out, n, "%s", env);
        return is_file(out);
    }
    char exe[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len > 0) {
        exe[len] = 0;
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = 0;
            if ((size_t)snprintf(out, n, "%s/icd/libsgemu-icd.so", exe) < n && is_file(out))
                return true;
        }
    }
    snprintf(out, n, "%s", SGEMU_ICD_INSTALLED);
    return is_file(out);
}

/* Fold the statistics file's lines (one per kernel, device and width per
 * process that loaded the platform) into rows. */
static exec_row *read_stats(const char *path, size_t *nrows)
{
    *nrows = 0;
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    exec_row *rows = NULL;
    char line[1024];
    while (fgets(line, sizeof line, f)) {
        exec_row r;
        memset(&r, 0, sizeof r);
        int timed = 0;
        if (sscanf(line, "%63[^\t]\t%63[^\t]\t%u\t%llu\t%d\t%llu\t%llu\t%llu\t%llu\t%llu\t%lf\t%31s",
                   r.kernel, r.device, &r.width, &r.launches, &timed, &r.ns, &r.cycles,
                   &r.instructions, &r.lane_ops, &r.lane_slots, &r.occupancy, r.limiter) != 12)
            continue;
        r.timed = timed;
        exec_row *same = NULL;
        for (size_t i = 0; i < *nrows && !same; i++)
            if (!strcmp(rows[i].kernel, r.kernel) && !strcmp(rows[i].device, r.device) &&
                rows[i].width == r.width)
                same = &rows[i];
        if (same) {
            same->launches += r.launches;
            same->ns += r.ns;
            same->cycles += r.cycles;
            same->instructions += r.instructions;
            same->lane_ops += r.lane_ops;
            same->lane_slots += r.lane_slots;
            same->occupancy += r.occupancy;
            same->timed |= r.timed;
            if (r.timed)
                snprintf(same->limiter, sizeof same->limiter, "%s", r.limiter);
            continue;
        }
        exec_row *nr = realloc(rows, (*nrows + 1) * sizeof *nr);
        if (!nr)
            break;
        rows = nr;
        rows[(*nrows)++] = r;
    }
    fclose(f);
    return rows;
}

static double efficiency(const exec_row *r)
{
    return r->lane_slots ? (double)r->lane_ops / (double)r->lane_slots : 0.0;
}

static void print_table(FILE *f, const exec_row *rows, size_t n)
{
    if (!n) {
        fprintf(f, "sgemu exec: no kernel ran on sgemu\n");
        return;
    }
    fprintf(f, "sgemu exec: per kernel (modelled time = cycles at the config's clock)\n");
    fprintf(f, "  %-24s %-5s %8s %12s %12s %12s %7s %-16s %14s\n", "kernel", "SIMD", "launches",
            "total us", "mean us", "cycles", "SIMD eff", "limiter", "instructions");
    for (size_t i = 0; i < n; i++) {
        const exec_row *r = &rows[i];
        char total[32] = "-", mean[32] = "-", cycles[32] = "-";
        if (r->timed) {
            snprintf(total, sizeof total, "%.3f", (double)r->ns / 1000.0);
            snprintf(mean, sizeof mean, "%.3f", (double)r->ns / 1000.0 / (double)r->launches);
            snprintf(cycles, sizeof cycles, "%llu", r->cycles);
        }
        fprintf(f, "  %-24s %-5u %8llu %12s %12s %12s %6.1f%% %-16s %14llu\n", r->kernel,
                r->width, r->launches, total, mean, cycles, 100.0 * efficiency(r),
                r->timed ? r->limiter : "-", r->instructions);
    }
}

static int write_report(const char *path, const exec_row *rows, size_t n, int status)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return SGEMU_EXIT_INTERNAL;
    fprintf(f, "{\"exit_status\": %d, \"kernels\": [", status);
    for (size_t i = 0; i < n; i++) {
        const exec_row *r = &rows[i];
        fprintf(f, "%s\n  {\"kernel\": ", i ? "," : "");
        cli_json_string(f, r->kernel);
        fprintf(f, ", \"device\": ");
        cli_json_string(f, r->device);
        fprintf(f, ", \"sg_width\": %u, \"launches\": %llu, \"timed\": %s", r->width, r->launches,
                r->timed ? "true" : "false");
        if (r->timed)
            fprintf(f, ", \"total_ns\": %llu, \"mean_ns\": %.3f, \"cycles\": %llu, "
                       "\"mean_achieved_occupancy\": %.6f, \"limiter\": \"%s\"",
                    r->ns, (double)r->ns / (double)r->launches, r->cycles,
                    r->occupancy / (double)r->launches, r->limiter);
        fprintf(f, ", \"instructions\": %llu, \"lane_ops\": %llu, \"lane_slots\": %llu, "
                   "\"simd_efficiency\": %.6f}",
                r->instructions, r->lane_ops, r->lane_slots, efficiency(r));
    }
    fprintf(f, "%s]}\n", n ? "\n" : "");
    fclose(f);
    int rc = buf ? cli_write_atomic(path, buf, len) : SGEMU_EXIT_INTERNAL;
    free(buf);
    return rc;
}

int cli_cmd_exec(int argc, char **argv)
{
    const char *config = NULL, *sg = NULL, *report = NULL, *record = NULL;
    bool check = false, no_timing = false, quiet = false;
    int i = 1;
    for (; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--")) {
            i++;
            break;
        }
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(exec_help, stdout);
            return SGEMU_EXIT_OK;
        }
        const char **val = !strcmp(a, "--config") ? &config : !strcmp(a, "--sg") ? &sg
                         : !strcmp(a, "--report") ? &report : !strcmp(a, "--record") ? &record
                                                                                     : NULL;
        if (val) {
            if (i + 1 >= argc)
                return cli_error("option %s needs a value", a);
            *val = argv[++i];
        } else if (!strcmp(a, "--check")) {
            check = true;
        } else if (!strcmp(a, "--no-timing")) {
            no_timing = true;
        } else if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) {
            quiet = true;
        } else if (a[0] == '-') {
            return cli_error("exec: unknown option '%s' (see 'sgemu exec --help')", a);
        } else {
            break;            /* the program, without "--" */
        }
    }
    if (i >= argc)
        return cli_error("exec: no program given (sgemu exec [options] -- PROGRAM ARGS...)");
    if (sg) {
        char *end;
        long w = strtol(sg, &end, 10);
        if (*end || end == sg || w < 1 || w > 64)
            return cli_error("--sg: expected a width 1..64, got '%s'", sg);
    }
    char icd[PATH_MAX];
    if (!find_icd(icd, sizeof icd))
        return cli_error("exec: sgemu's OpenCL platform library is not at '%s' (build it: it "
                         "needs the OpenCL headers, Debian opencl-headers; or set SGEMU_ICD)",
                         icd);
    if (config && !strchr(config, '/') && !strstr(config, ".yaml") && !strchr(config, ',') &&
        !emu_config_bundled(config))
        return cli_error("--config: '%s' is neither a file nor a bundled config", config);
    if (record && mkdir(record, 0777) != 0 && errno != EEXIST)
        return cli_error("--record: cannot create '%s': %s", record, strerror(errno));
    const char *tmp = getenv("TMPDIR");
    char stats[1024];
    snprintf(stats, sizeof stats, "%s/sgemu-exec-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    int fd = mkstemp(stats);
    if (fd < 0)
        return cli_error("exec: cannot create a temporary file: %s", strerror(errno));
    close(fd);

    pid_t pid = fork();
    if (pid < 0) {
        unlink(stats);
        return cli_error("exec: cannot start '%s': %s", argv[i], strerror(errno));
    }
    if (pid == 0) {
        /* the loader opens exactly this library (ocl-icd takes a library
         * path in OCL_ICD_VENDORS) */
        setenv("OCL_ICD_VENDORS", icd, 1);
        setenv("SGEMU_STATS_FILE", stats, 1);
        if (config)
            setenv("SGEMU_DEVICES", config, 1);
        if (sg)
            setenv("SGEMU_SG", sg, 1);
        if (check)
            setenv("SGEMU_CHECK", "1", 1);
        if (no_timing)
            setenv("SGEMU_TIMING", "0", 1);
        if (record)
            setenv("SGEMU_RECORD", record, 1);
        execvp(argv[i], argv + i);
        fprintf(stderr, "sgemu: error: exec: cannot run '%s': %s\n", argv[i], strerror(errno));
        _exit(127);
    }
    int st = 0;
    while (waitpid(pid, &st, 0) < 0) {
        if (errno != EINTR) {
            unlink(stats);
            return cli_error("exec: waiting for '%s': %s", argv[i], strerror(errno));
        }
    }
    int status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    size_t nrows;
    exec_row *rows = read_stats(stats, &nrows);
    unlink(stats);
    if (!quiet)
        print_table(stderr, rows, nrows);
    int rc = report ? write_report(report, rows, nrows, status) : 0;
    free(rows);
    return rc ? rc : status;
}
