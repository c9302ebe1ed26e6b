/* cmd_sweep.c - `sgemu sweep SWEEP.yaml` and `sgemu sweep merge DIR...`
 * (docs/sweeps.md). */
#include "sweep.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const char sweep_help[] =
    "usage: sgemu sweep SWEEP.yaml [-j N] [--shard K/N] [-o DIR] [--resume] [--plot]\n"
    "       sgemu sweep merge DIR... -o OUT [--partial]\n"
    "\n"
    "Runs every point of the sweep's run set (kernels x axes, docs/sweeps.md): each\n"
    "distinct (kernel, arguments, width, NDRange) executes once and records a trace;\n"
    "the other points replay it on their config.  Writes DIR/results.csv (rows appended\n"
    "as runs finish, sorted at the end) and DIR/results.json, then prints a table per\n"
    "kernel with a verdict.\n"
    "\n"
    "options:\n"
    "  -j N             parallel workers (default: all cores); results do not depend on N\n"
    "  --shard K/N      run only the K-th of N disjoint slices (1 <= K <= N)\n"
    "  -o DIR           output folder (default: sweep-out)\n"
    "  --resume         keep rows already in DIR/results.csv and run the rest\n"
    "  --plot           write DIR/plot.gp and data; render PNG + SVG with gnuplot\n"
    "  --quiet          no tables on stdout\n"
    "  merge DIR...     join shard folders into -o OUT (same files as an unsharded run);\n"
    "                   a merge that lacks runs fails unless --partial is given\n"
    "\n"
    "exit status: 0 ok, 1 bad input or a failed run, 130 interrupted\n";

static int mkdir_p(const char *dir)
{
    char p[2048];
    snprintf(p, sizeof p, "%s", dir);
    for (char *c = p + 1; *c; c++)
        if (*c == '/') {
            *c = 0;
            mkdir(p, 0777);
            *c = '/';
        }
    if (mkdir(p, 0777) && errno != EEXIST)
        return cli_error("cannot create '%s': %s", dir, strerror(errno));
    return 0;
}

/* A new sweep (not --resume) in an old folder: the old sweep's plots and
 * their data would sit beside the new results, so they go. */
static void remove_old_plots(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    const struct dirent *e;
    while ((e = readdir(d))) {
        const char *n = e->d_name, *dot = strrchr(n, '.');
        bool ours = !strcmp(n, "plot.gp") ||
                    ((!strncmp(n, "width-", 6) || !strncmp(n, "axis-", 5)) && dot &&
                     (!strcmp(dot, ".dat") || !strcmp(dot, ".png") || !strcmp(dot, ".svg")));
        if (!ours)
            continue;
        char p[2400];
        snprintf(p, sizeof p, "%s/%s", dir, n);
        remove(p);
    }
    closedir(d);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

typedef struct sweep_state {
    sw_sweep *s;
    FILE *csv;                /* appended as rows finish */
    char **lines;             /* by todo index */
    uint64_t done, total;
    double t0;
    bool progress;
} sweep_state;

static void on_row(void *user, const sw_row *r)
{
    sweep_state *st = user;
    char line[4096];
    sw_csv_row(st->s, r, line, sizeof line);
    fprintf(st->csv, "%s\n", line);
    fflush(st->csv);
    st->done++;
    if (st->progress) {
        double el = now_s() - st->t0;
        double eta = st->done ? el * (double)(st->total - st->done) / (double)st->done : 0;
        fprintf(stderr, "\rsweep: %llu/%llu runs, %.1fs elapsed, ~%.1fs left   ",
                (unsigned long long)st->done, (unsigned long long)st->total, el, eta);
    }
}

static int cmp_lines(const void *a, const void *b)
{
    uint64_t x = sw_line_run(*(char *const *)a), y = sw_line_run(*(char *const *)b);
    return x < y ? -1 : x > y;
}

static void free_lines(char **l, uint64_t n)
{
    for (uint64_t i = 0; l && i < n; i++)
        free(l[i]);
    free(l);
}

static int cmd_merge(int argc, char **argv)
{
    const char *out = NULL;
    const char *dirs[256];
    int nd = 0;
    bool partial = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-o") && i + 1 < argc)
            out = argv[++i];
        else if (!strcmp(argv[i], "--partial"))
            partial = true;
        else if (argv[i][0] == '-')
            return cli_error("sweep merge: unknown option '%s'", argv[i]);
        else if (nd < 256)
            dirs[nd++] = argv[i];
    }
    if (!out || !nd)
        return cli_error("usage: sgemu sweep merge DIR... -o OUT [--partial]");
    char *header = NULL, **all = NULL;
    uint64_t nall = 0, total = 0;
    int rc = 0;
    for (int d = 0; d < nd && !rc; d++) {
        char *h, **l;
        uint64_t n;
        if (sw_results_read(dirs[d], &h, &l, &n)) {
            rc = cli_error("sweep merge: no results.csv in '%s'", dirs[d]);
            break;
        }
        char mp[2100];
        snprintf(mp, sizeof mp, "%s/meta.txt", dirs[d]);
        FILE *m = fopen(mp, "r");
        unsigned long long t = 0;
        if (m) {
            if (fscanf(m, "runs %llu", &t) != 1)
                t = 0;
            fclose(m);
        }
        if (total && t && t != total)
            rc = cli_error("sweep merge: '%s' belongs to a sweep of %llu runs, not %llu",
                           dirs[d], t, (unsigned long long)total);
        if (t)
            total = t;
        if (header && strcmp(header, h))
            rc = cli_error("sweep merge: '%s' has other columns (a different sweep?)", dirs[d]);
        if (!header)
            header = h;
        else
            free(h);
        char **na = realloc(all, (nall + n + 1) * sizeof *na);
        if (!na) {
            free_lines(l, n);
            rc = SGEMU_EXIT_INTERNAL;
            break;
        }
        all = na;
        memcpy(all + nall, l, n * sizeof *l);
        nall += n;
        free(l);
    }
    if (!rc) {
        if (nall)   /* all is NULL when empty; qsort's pointer is nonnull */
            qsort(all, nall, sizeof *all, cmp_lines);
        uint64_t w = 0;
        for (uint64_t i = 0; i < nall; i++) {       /* the same run twice: keep one */
            if (w && sw_line_run(all[w - 1]) == sw_line_run(all[i])) {
                if (strcmp(all[w - 1], all[i]))
                    rc = cli_error("sweep merge: run %llu differs between shards",
                                   (unsigned long long)sw_line_run(all[i]));
                free(all[i]);
                continue;
            }
            all[w++] = all[i];
        }
        nall = w;
        if (!rc && total && nall != total && !partial)
            rc = cli_error("sweep merge: the folders hold %llu of the sweep's %llu runs "
                           "(shards missing?); --partial merges them anyway",
                           (unsigned long long)nall, (unsigned long long)total);
        else if (!rc && total && nall != total)
            fprintf(stderr, "sgemu: warning: merged %llu of %llu runs (--partial)\n",
                    (unsigned long long)nall, (unsigned long long)total);
        if (!rc && !(rc = mkdir_p(out)))
            rc = sw_results_write(out, header, all, nall);
        if (!rc) {
            char mp[2100];
            snprintf(mp, sizeof mp, "%s/meta.txt", out);
            FILE *m = fopen(mp, "w");
            if (m) {
                fprintf(m, "runs %llu\nshard 1/1\n", (unsigned long long)total);
                fclose(m);
            }
            fprintf(stderr, "sgemu: merged %llu runs from %d folders into %s\n",
                    (unsigned long long)nall, nd, out);
        }
    }
    free(header);
    free_lines(all, nall);
    return rc;
}

/* The options of `sgemu sweep FILE`. */
typedef struct sweep_opts {
    const char *file, *out;
    long jobs;
    unsigned shard_k, shard_n;
    bool resume, plot, quiet;
} sweep_opts;

/* The command line into *o; *help when --help was printed.  0, or the CLI
 * error. */
static int parse_sweep_args(int argc, char **argv, sweep_opts *o, bool *help)
{
    *o = (sweep_opts){ .out = "sweep-out", .jobs = sysconf(_SC_NPROCESSORS_ONLN),
                       .shard_k = 1, .shard_n = 1 };
    *help = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(sweep_help, stdout);
            *help = true;
            return 0;
        } else if (!strcmp(a, "-j") || !strncmp(a, "-j", 2)) {
            const char *v = a[2] ? a + 2 : (i + 1 < argc ? argv[++i] : "");
            char *end;
            o->jobs = strtol(v, &end, 10);
            if (*end || end == v || o->jobs < 1 || o->jobs > 1024)
                return cli_error("-j: expected 1..1024 workers, got '%s'", v);
        } else if (!strcmp(a, "--shard") && i + 1 < argc) {
            char tail;
            if (sscanf(argv[++i], "%u/%u%c", &o->shard_k, &o->shard_n, &tail) != 2 ||
                o->shard_n < 1 || o->shard_k < 1 || o->shard_k > o->shard_n)
                return cli_error("--shard: expected K/N with 1 <= K <= N, got '%s'", argv[i]);
        } else if (!strcmp(a, "-o") && i + 1 < argc) {
            o->out = argv[++i];
        } else if (!strcmp(a, "--resume")) {
            o->resume = true;
        } else if (!strcmp(a, "--plot")) {
            o->plot = true;
        } else if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) {
            o->quiet = true;
        } else if (a[0] == '-') {
            return cli_error("sweep: unknown option '%s' (see 'sgemu sweep --help')", a);
        } else if (!o->file) {
            o->file = a;
        } else {
            return cli_error("sweep: unexpected argument '%s'", a);
        }
    }
    if (!o->file)
        return cli_error("sweep: no sweep file given (see 'sgemu sweep --help')");
    return 0;
}

/* --resume: the finished rows of OUT/results.csv that still belong to this
 * sweep (same columns, same point, no error) into kept[], their runs marked
 * in have[].  0, or the CLI error. */
static int keep_finished(const sw_sweep *s, const char *out, const char *header, bool *have,
                         char **kept, uint64_t *nkept)
{
    char *h, **l;
    uint64_t n;
    int rc = 0;
    if (sw_results_read(out, &h, &l, &n))
        return 0;
    if (strcmp(h, header))
        rc = cli_error("--resume: '%s/results.csv' has other columns (another sweep?)", out);
    for (uint64_t i = 0; !rc && i < n; i++) {
        sw_row r;
        uint64_t run = sw_line_run(l[i]);
        char key[1024];
        if (run >= s->npoints || have[run] || !sw_csv_parse(header, l[i], &r))
            continue;
        sw_point_key(s, &s->points[run], key, sizeof key);
        if (strcmp(key, r.key) || (r.status && !r.igc_refused))
            continue;           /* another point, or failed: run again */
        have[run] = true;
        kept[(*nkept)++] = l[i];
        l[i] = NULL;
    }
    free(h);
    free_lines(l, n);
    return rc;
}

/* OUT/meta.txt, and OUT/results.csv started with the header and the kept
 * rows (rows are appended as runs finish).  0, or the CLI error. */
static int open_results(const sw_sweep *s, const sweep_opts *o, const char *header,
                        char *const *kept, uint64_t nkept, FILE **csv)
{
    char p[2100];
    snprintf(p, sizeof p, "%s/meta.txt", o->out);
    FILE *m = fopen(p, "w");
    if (m) {
        fprintf(m, "runs %llu\nshard %u/%u\n", (unsigned long long)s->npoints, o->shard_k,
                o->shard_n);
        fclose(m);
    }
    snprintf(p, sizeof p, "%s/results.csv", o->out);
    *csv = fopen(p, "w");
    if (!*csv)
        return cli_error("cannot write '%s': %s", p, strerror(errno));
    fprintf(*csv, "%s\n", header);
    for (uint64_t i = 0; i < nkept; i++)
        fprintf(*csv, "%s\n", kept[i]);
    fflush(*csv);
    return 0;
}

/* The final files over every finished row, in run order: results.csv and
 * results.json, the tables (unless quiet), the plots (--plot).  Takes the
 * kept lines (*nkept becomes 0); *failed counts the failed new rows.
 * Returns rc, or the write error when rc is 0. */
static int write_final(const sw_sweep *s, const sweep_opts *o, const char *header,
                       char **kept, uint64_t *nkept, const sw_row *rows, uint64_t ntodo,
                       int rc, uint64_t *failed)
{
    char **all = calloc(*nkept + ntodo + 1, sizeof *all);
    uint64_t nall = 0;
    *failed = 0;
    for (uint64_t i = 0; all && i < *nkept; i++)
        all[nall++] = kept[i];
    for (uint64_t i = 0; all && i < ntodo; i++) {
        if (!rows[i].done)
            continue;
        *failed += rows[i].status != 0 && !rows[i].igc_refused;   /* a refusal is a result */
        char line[4096];
        sw_csv_row(s, &rows[i], line, sizeof line);
        all[nall++] = strdup(line);
    }
    if (!all)
        return rc;
    qsort(all, nall, sizeof *all, cmp_lines);
    int wrc = sw_results_write(o->out, header, all, nall);
    if (!rc)
        rc = wrc;
    /* tables and plots over every finished row */
    sw_row *tr = calloc(nall + 1, sizeof *tr);
    uint64_t nt = 0;
    for (uint64_t i = 0; tr && i < nall; i++)
        if (sw_csv_parse(header, all[i], &tr[nt]) && tr[nt].run < s->npoints)
            nt++;
    if (tr && !o->quiet)
        sw_print_tables(s, tr, nt, stdout);
    if (tr && o->plot)
        sw_write_plots(s, o->out, tr, nt, true);
    free(tr);
    free_lines(all, nall);
    *nkept = 0;
    return rc;
}

int cli_cmd_sweep(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "merge"))
        return cmd_merge(argc - 1, argv + 1);
    sweep_opts o;
    bool help;
    int rc = parse_sweep_args(argc, argv, &o, &help);
    if (rc || help)
        return rc;
    sw_sweep *s = calloc(1, sizeof *s);
    if (!s)
        return SGEMU_EXIT_INTERNAL;
    rc = sw_load(o.file, s);
    if (rc || (rc = mkdir_p(o.out))) {
        sw_free(s);
        free(s);
        return rc;
    }
    if (!o.resume)
        remove_old_plots(o.out);
    /* this shard's runs, in run-set order */
    uint64_t *todo = calloc(s->npoints + 1, sizeof *todo), ntodo = 0;
    sw_row *rows = calloc(s->npoints + 1, sizeof *rows);
    char **kept = calloc(s->npoints + 1, sizeof *kept);
    bool *have = calloc(s->npoints + 1, 1);
    char header[8192];
    sw_csv_header(s, header, sizeof header);
    uint64_t nkept = 0;
    if (!todo || !rows || !kept || !have)
        rc = SGEMU_EXIT_INTERNAL;
    if (!rc && o.resume)
        rc = keep_finished(s, o.out, header, have, kept, &nkept);
    for (uint64_t i = 0; !rc && i < s->npoints; i++)
        if (i % o.shard_n == o.shard_k - 1 && !have[i])
            todo[ntodo++] = i;
    FILE *csv = NULL;
    if (!rc)
        rc = open_results(s, &o, header, kept, nkept, &csv);
    if (!rc) {
        if (!o.quiet)
            fprintf(stderr, "sgemu: sweep %s: %llu runs%s, %llu to do, %ld workers\n", o.file,
                    (unsigned long long)s->npoints,
                    o.shard_n > 1 ? " (this shard: every Nth)" : "",
                    (unsigned long long)ntodo, o.jobs);
        sweep_state st = { s, csv, NULL, 0, ntodo, now_s(), isatty(2) != 0 };
        rc = sw_execute(s, todo, ntodo, (uint32_t)o.jobs, o.out, rows, on_row, &st);
        if (st.progress && ntodo)
            fputc('\n', stderr);
        fclose(csv);
        uint64_t failed;
        rc = write_final(s, &o, header, kept, &nkept, rows, ntodo, rc, &failed);
        if (rc == SGEMU_EXIT_INTERRUPTED)
            fprintf(stderr, "sgemu: sweep interrupted: %llu finished rows kept in %s "
                    "(--resume continues)\n", (unsigned long long)st.done, o.out);
        else if (!rc && failed)
            rc = cli_error("%llu of %llu runs failed (see the error column of %s/results.csv)",
                           (unsigned long long)failed, (unsigned long long)ntodo, o.out);
        else if (!o.quiet)
            fprintf(stderr, "sgemu: results in %s/results.csv and results.json\n", o.out);
    }
    free_lines(kept, nkept);
    free(have);
    free(rows);
    free(todo);
    sw_free(s);
    free(s);
    return rc;
}
