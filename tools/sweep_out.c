/* sweep_out.c - result files (CSV is the record; JSON derives from it),
 * the per-kernel tables with a verdict, and gnuplot plots. */
#include "sweep.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_CELLS 128

static size_t put_cell(char *buf, size_t n, size_t len, const char *v, bool first)
{
    if (len >= n)
        return len;
    if (!first)
        len += (size_t)snprintf(buf + len, n - len, ",");
    bool quote = strpbrk(v, ",\"\n") != NULL;
    if (!quote)
        return len + (size_t)snprintf(buf + len, len < n ? n - len : 0, "%s", v);
    if (len < n)
        buf[len++] = '"';
    for (; *v && len + 2 < n; v++) {
        if (*v == '"')
            buf[len++] = '"';
        buf[len++] = *v == '\n' ? ' ' : *v;
    }
    if (len < n)
        buf[len++] = '"';
    if (len < n)
        buf[len] = 0;
    return len;
}

void sw_csv_header(const sw_sweep *s, char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = 0;
    len = put_cell(buf, n, len, "run", true);
    len = put_cell(buf, n, len, "point", false);
    len = put_cell(buf, n, len, "kernel", false);
    for (uint32_t a = 0; a < s->naxes; a++)
        len = put_cell(buf, n, len, s->axes[a].name, false);
    len = put_cell(buf, n, len, "status", false);
    len = put_cell(buf, n, len, "limiter", false);
#define X(name, fmt, type) len = put_cell(buf, n, len, #name, false);
    SW_METRICS(X)
#undef X
    put_cell(buf, n, len, "error", false);
}

void sw_csv_row(const sw_sweep *s, const sw_row *r, char *buf, size_t n)
{
    char v[64];
    size_t len = 0;
    buf[0] = 0;
    snprintf(v, sizeof v, "%llu", (unsigned long long)r->run);
    len = put_cell(buf, n, len, v, true);
    len = put_cell(buf, n, len, r->key, false);
    const sw_point *p = &s->points[r->run];
    len = put_cell(buf, n, len, s->kernels[p->kernel].name, false);
    for (uint32_t a = 0; a < s->naxes; a++) {
        const char *av = sw_value(s, p, a);
        len = put_cell(buf, n, len, av ? av : "", false);
    }
    snprintf(v, sizeof v, "%d", r->status);
    len = put_cell(buf, n, len, v, false);
    len = put_cell(buf, n, len, r->limiter, false);
#define X(name, fmt, type) \
    snprintf(v, sizeof v, fmt, (type)r->name); \
    len = put_cell(buf, n, len, v, false);
    SW_METRICS(X)
#undef X
    put_cell(buf, n, len, r->error, false);
}

size_t sw_csv_split(const char *line, char **cells, size_t max)
{
    size_t nc = 0;
    const char *p = line;
    for (;;) {
        size_t cap = strlen(p) + 1, len = 0;
        char *c = malloc(cap);
        if (!c)
            return nc;
        if (*p == '"') {
            p++;
            while (*p) {
                if (*p == '"' && p[1] == '"') {
                    c[len++] = '"';
                    p += 2;
                } else if (*p == '"') {
                    p++;
                    break;
                } else {
                    c[len++] = *p++;
                }
            }
        }
        while (*p && *p != ',' && *p != '\n' && *p != '\r')
            c[len++] = *p++;
        c[len] = 0;
        if (nc < max)
            cells[nc++] = c;
        else
            free(c);
        if (*p != ',')
            break;
        p++;
    }
    return nc;
}

static void free_cells(char **c, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(c[i]);
}

bool sw_csv_parse(const char *header, const char *line, sw_row *r)
{
    char *h[MAX_CELLS], *c[MAX_CELLS];
    size_t nh = sw_csv_split(header, h, MAX_CELLS), nc = sw_csv_split(line, c, MAX_CELLS);
    bool ok = nh == nc && nh > 3;
    memset(r, 0, sizeof *r);
    for (size_t i = 0; ok && i < nh; i++) {
        if (!strcmp(h[i], "run"))
            r->run = strtoull(c[i], NULL, 10);
        else if (!strcmp(h[i], "point"))
            snprintf(r->key, sizeof r->key, "%s", c[i]);
        else if (!strcmp(h[i], "status"))
            r->status = atoi(c[i]);
        else if (!strcmp(h[i], "limiter"))
            snprintf(r->limiter, sizeof r->limiter, "%s", c[i]);
        else if (!strcmp(h[i], "error"))
            snprintf(r->error, sizeof r->error, "%s", c[i]);
#define X(name, fmt, type) \
        else if (!strcmp(h[i], #name)) \
            r->name = (type)strtod(c[i], NULL);
        SW_METRICS(X)
#undef X
    }
    r->done = ok;
    free_cells(h, nh);
    free_cells(c, nc);
    return ok;
}

uint64_t sw_line_run(const char *line)
{
    return strtoull(line, NULL, 10);
}

/* A cell as JSON: numbers stay numbers. */
static void json_cell(FILE *f, const char *v)
{
    char *end;
    if (*v && (*v == '-' || (*v >= '0' && *v <= '9'))) {
        strtod(v, &end);
        if (!*end && !strchr(v, ',')) {
            fputs(v, f);
            return;
        }
    }
    cli_json_string(f, v);
}

static int write_file_atomic(const char *path, void (*fill)(FILE *, void *), void *user)
{
    char tmp[2200];
    const bool in_place = sgemu_output_in_place(path);     /* /dev/null, a FIFO */
    if (in_place)
        snprintf(tmp, sizeof tmp, "%s", path);
    else
        snprintf(tmp, sizeof tmp, "%s.tmp%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "w");
    if (!f)
        return cli_error("cannot write '%s': %s", path, strerror(errno));
    fill(f, user);
    bool bad = ferror(f);
    if (fclose(f) || bad || (!in_place && rename(tmp, path))) {
        if (!in_place)
            remove(tmp);
        return cli_error("cannot write '%s'", path);
    }
    return 0;
}

typedef struct res_out {
    const char *header;
    char *const *lines;
    uint64_t n;
} res_out;

static void fill_csv(FILE *f, void *user)
{
    res_out *o = user;
    fprintf(f, "%s\n", o->header);
    for (uint64_t i = 0; i < o->n; i++)
        fprintf(f, "%s\n", o->lines[i]);
}

static void fill_json(FILE *f, void *user)
{
    res_out *o = user;
    char *h[MAX_CELLS], *c[MAX_CELLS];
    size_t nh = sw_csv_split(o->header, h, MAX_CELLS);
    fputs("{\"format\": \"sgemu-sweep-results\", \"version\": 1, \"runs\": [", f);
    for (uint64_t i = 0; i < o->n; i++) {
        size_t nc = sw_csv_split(o->lines[i], c, MAX_CELLS);
        fputs(i ? ",\n  {" : "\n  {", f);
        for (size_t j = 0; j < nh && j < nc; j++) {
            fputs(j ? ", " : "", f);
            cli_json_string(f, h[j]);
            fputs(": ", f);
            json_cell(f, c[j]);
        }
        fputc('}', f);
        free_cells(c, nc);
    }
    fputs("\n]}\n", f);
    free_cells(h, nh);
}

int sw_results_write(const char *dir, const char *header, char *const *lines, uint64_t n)
{
    char path[2100];
    res_out o = { header, lines, n };
    snprintf(path, sizeof path, "%s/results.csv", dir);
    if (write_file_atomic(path, fill_csv, &o))
        return SGEMU_EXIT_USER;
    snprintf(path, sizeof path, "%s/results.json", dir);
    return write_file_atomic(path, fill_json, &o) ? SGEMU_EXIT_USER : 0;
}

int sw_results_read(const char *dir, char **header, char ***lines, uint64_t *n)
{
    char path[2100];
    snprintf(path, sizeof path, "%s/results.csv", dir);
    *header = NULL;
    *lines = NULL;
    *n = 0;
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char *buf = NULL;
    size_t cap = 0;
    ssize_t got;
    uint64_t lc = 0;
    while ((got = getline(&buf, &cap, f)) > 0) {
        while (got > 0 && (buf[got - 1] == '\n' || buf[got - 1] == '\r'))
            buf[--got] = 0;
        if (!got)
            continue;
        if (!*header) {
            *header = strdup(buf);
            continue;
        }
        if (*n == lc) {
            lc = lc ? lc * 2 : 64;
            char **nl = realloc(*lines, lc * sizeof *nl);
            if (!nl)
                break;
            *lines = nl;
        }
        (*lines)[(*n)++] = strdup(buf);
    }
    free(buf);
    fclose(f);
    return *header ? 0 : -1;
}

/* ------------------------------------------------------------- tables */

static int axis_of_kind(const sw_sweep *s, sw_axis_kind kind)
{
    for (uint32_t a = 0; a < s->naxes; a++)
        if (s->axes[a].kind == kind)
            return (int)a;
    return -1;
}

static int width_axis(const sw_sweep *s)
{
    return axis_of_kind(s, SW_AX_WIDTH);
}

/* Same series: same kernel and every axis but `wa` equal (wa < 0: one
 * series per kernel over all its points). */
static bool same_group(const sw_sweep *s, const sw_point *a, const sw_point *b, int wa)
{
    if (a->kernel != b->kernel)
        return false;
    for (uint32_t i = 0; wa >= 0 && i < s->naxes; i++)
        if ((int)i != wa && a->v[i] != b->v[i])
            return false;
    return true;
}

/* Same table: as same_group over width, where the compiler axis (ca) also
 * varies within a table, so that sgemu's and IGC's rows of a width stand
 * side by side. */
static bool same_table(const sw_sweep *s, const sw_point *a, const sw_point *b, int wa, int ca)
{
    if (a->kernel != b->kernel)
        return false;
    for (uint32_t i = 0; wa >= 0 && i < s->naxes; i++)
        if ((int)i != wa && (int)i != ca && a->v[i] != b->v[i])
            return false;
    return true;
}

static const char *lim_short(const char *l)
{
    if (!strcmp(l, "grf")) return "GRF";
    if (!strcmp(l, "threads")) return "threads";
    if (!strcmp(l, "local_memory")) return "local memory";
    if (!strcmp(l, "work_group_slots")) return "WG slots";
    if (!strcmp(l, "work_groups")) return "work";
    return l;
}

/* A row's name in its table: SIMDw, or without a width axis the values of
 * all axes joined by '/' (the header names them the same way). */
static const char *label(const sw_sweep *s, const sw_row *r, int wa, char *buf, size_t n)
{
    const sw_point *p = &s->points[r->run];
    if (wa >= 0 && sw_value(s, p, (uint32_t)wa)) {
        int ca = axis_of_kind(s, SW_AX_COMPILER);
        const char *cv = ca >= 0 ? sw_value(s, p, (uint32_t)ca) : NULL;
        snprintf(buf, n, "SIMD%s%s", sw_value(s, p, (uint32_t)wa),
                 !cv ? "" : !strcmp(cv, "igc") ? " IGC" : " sgemu");
        return buf;
    }
    size_t len = 0;
    buf[0] = 0;
    for (uint32_t a = 0; wa < 0 && a < s->naxes && len + 1 < n; a++) {
        const char *v = sw_value(s, p, a);
        len += (size_t)snprintf(buf + len, n - len, "%s%s", len ? "/" : "", v ? v : "-");
    }
    if (!buf[0])
        snprintf(buf, n, "run %llu", (unsigned long long)r->run);
    return buf;
}

static void table_head(const sw_sweep *s, int wa, char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = 0;
    for (uint32_t a = 0; wa < 0 && a < s->naxes && len + 1 < n; a++)
        len += (size_t)snprintf(buf + len, n - len, "%s%s", len ? "/" : "", s->axes[a].name);
    if (!buf[0])
        snprintf(buf, n, "%s", wa >= 0 ? "width" : "run");
}

/* One line on why the best row won against the others. */
static void verdict(const sw_row *const *g, const char (*lab)[SW_TEXT], size_t n, size_t best,
                    const char *who, FILE *f)
{
    const sw_row *b = g[best];
    const char *bl = lab[best];
    /* the runner-up: the closest in cycles among the runs that succeeded
     * (a failed run has no statistics to compare) */
    size_t ru = SIZE_MAX, failed = 0, refused = 0;
    for (size_t i = 0; i < n; i++) {
        failed += g[i]->status != 0 && !g[i]->igc_refused;
        refused += g[i]->igc_refused != 0;
        if (i != best && g[i]->status == 0 && (ru == SIZE_MAX || g[i]->cycles < g[ru]->cycles))
            ru = i;
    }
    if (ru == SIZE_MAX) {
        if (failed && refused)
            fprintf(f, "  %s: %s (the only point that ran; %zu failed, %zu refused by IGC)\n",
                    who, bl, failed, refused);
        else if (failed || refused)
            fprintf(f, "  %s: %s (the only point that ran; %zu %s)\n", who, bl,
                    failed + refused, failed ? "failed" : "refused by IGC");
        else
            fprintf(f, "  %s: %s (only point)\n", who, bl);
        return;
    }
    const sw_row *o = g[ru];
    const char *ol = lab[ru];
    if (o->cycles == b->cycles) {
        fprintf(f, "  %s: %s ties with %s (%llu cycles): what differs between them "
                "does not matter here\n", who, bl, ol, (unsigned long long)b->cycles);
        return;
    }
    double gain = b->cycles ? (double)o->cycles / (double)b->cycles : 0;
    fprintf(f, "  %s: %s is best, %.2fx faster than %s: ", who, bl, gain, ol);
    if (o->occupancy + 0.05 < b->occupancy)
        fprintf(f, "higher occupancy (%.0f%% vs %.0f%%, %s limited by %s)\n",
                100 * b->occupancy, 100 * o->occupancy, ol, lim_short(o->limiter));
    else if (o->simd_efficiency + 0.05 < b->simd_efficiency)
        fprintf(f, "better SIMD efficiency (%.0f%% vs %.0f%%: fewer idle lanes)\n",
                100 * b->simd_efficiency, 100 * o->simd_efficiency);
    else if (b->instructions * 10 < o->instructions * 9)
        fprintf(f, "fewer subgroup instructions (%llu vs %llu)\n",
                (unsigned long long)b->instructions, (unsigned long long)o->instructions);
    else {
        uint64_t sb = b->stall_dependency + b->stall_pipe_busy + b->stall_memory +
                      b->stall_barrier + b->stall_fetch + b->stall_issue;
        uint64_t so = o->stall_dependency + o->stall_pipe_busy + o->stall_memory +
                      o->stall_barrier + o->stall_fetch + o->stall_issue;
        if (sb < so)
            fprintf(f, "fewer stall cycles (%llu vs %llu thread-cycles)\n",
                    (unsigned long long)sb, (unsigned long long)so);
        else
            fprintf(f, "better latency hiding (IPC %.2f vs %.2f)\n", b->ipc, o->ipc);
    }
}

static size_t fastest(const sw_row *const *g, size_t gn)
{
    size_t best = SIZE_MAX;
    for (size_t k = 0; k < gn; k++)
        if (g[k]->status == 0 && (best == SIZE_MAX || g[k]->cycles < g[best]->cycles))
            best = k;
    return best;
}

/* The table's lines; speedups against row `best`.  Rows of IGC's code add
 * a column with its static instruction and send counts. */
static void print_rows(const sw_row *const *g, const char (*lab)[SW_TEXT], size_t gn,
                       const char *head, size_t best, FILE *f)
{
    bool igc = false;
    for (size_t k = 0; k < gn; k++)
        igc |= g[k]->igc_simd != 0;
    char occ[40];
    int lw = (int)strlen(head) > 8 ? (int)strlen(head) : 8;
    for (size_t k = 0; k < gn; k++)
        if ((int)strlen(lab[k]) > lw)
            lw = (int)strlen(lab[k]);
    fprintf(f, "  %-*s %10s %8s %6s %20s %10s %6s %8s %12s %12s%s\n", lw, head, "cycles",
            "speedup", "SIMD%", "occupancy act/max", "regs", "GRF", "spill B", "instructions",
            "mem bytes", igc ? "  IGC code" : "");
    for (size_t k = 0; k < gn; k++) {
        const sw_row *r = g[k];
        if (r->status) {   /* a refusal's error says so itself */
            fprintf(f, "  %-*s %s%s\n", lw, lab[k], r->igc_refused ? "" : "failed: ", r->error);
            continue;
        }
        double sp = r->cycles ? (double)g[best]->cycles / (double)r->cycles : 0;
        snprintf(occ, sizeof occ, "%.0f/%.0f%% (%s)", 100 * r->occupancy,
                 100 * r->theoretical_occupancy, lim_short(r->limiter));
        /* values > registers after allocation; GRF registers (L: large-GRF
         * mode).  IGC reports its register file, not what it allocated in it:
         * its rows leave the first column empty. */
        char regs[48], grf[32];
        if (r->igc_simd)
            snprintf(regs, sizeof regs, "-");
        else
            snprintf(regs, sizeof regs, "%llu>%llu", r->regs_before, r->regs_after);
        snprintf(grf, sizeof grf, "%llu%s", r->grf_regs, r->large_grf ? "L" : "");
        fprintf(f, "  %-*s %10llu %7.2fx %5.1f%% %20s %10s %6s %8llu %12llu %12llu", lw,
                lab[k], (unsigned long long)r->cycles, sp, 100 * r->simd_efficiency, occ, regs,
                grf, r->spill_bytes, (unsigned long long)r->instructions,
                (unsigned long long)(r->bytes_l1 + r->bytes_local));
        if (r->igc_simd)
            fprintf(f, "  %llu inst, %llu sends, %llu B scratch", r->igc_instructions,
                    r->igc_sends, r->igc_scratch_bytes);
        fputc('\n', f);
    }
}

void sw_print_group(const sw_row *const *g, const char (*lab)[SW_TEXT], size_t gn,
                    const char *head, FILE *f)
{
    size_t best = fastest(g, gn);
    print_rows(g, lab, gn, head, best, f);
    if (best != SIZE_MAX)
        verdict(g, lab, gn, best, "verdict", f);
}

/* A table whose rows come from both compilers: speedups against the fastest
 * row of either, a verdict per compiler (which width is best for that code). */
static void print_compilers(const sw_sweep *s, const sw_row **g, char (*lab)[SW_TEXT],
                            size_t gn, int ca, const char *head, FILE *f)
{
    print_rows(g, (const char (*)[SW_TEXT])lab, gn, head, fastest(g, gn), f);
    const sw_row **sub = calloc(gn + 1, sizeof *sub);   // NOLINT(bugprone-sizeof-expression): an array of pointers
    char (*sl)[SW_TEXT] = calloc(gn + 1, sizeof *sl);
    for (uint32_t v = 0; sub && sl && v < s->axes[ca].nvals; v++) {
        size_t n = 0;
        for (size_t k = 0; k < gn; k++) {
            if (s->points[g[k]->run].v[ca] == v) {
                sub[n] = g[k];
                memcpy(sl[n++], lab[k], SW_TEXT);
            }
        }
        size_t best = fastest(sub, n);
        if (best == SIZE_MAX)
            continue;
        char who[64];
        snprintf(who, sizeof who, "verdict (%s)",
                 !strcmp(s->axes[ca].vals[v], "igc") ? "IGC" : s->axes[ca].vals[v]);
        verdict(sub, (const char (*)[SW_TEXT])sl, n, best, who, f);
    }
    free(sub);
    free(sl);
}

void sw_print_tables(const sw_sweep *s, const sw_row *rows, uint64_t n, FILE *f)
{
    int wa = width_axis(s), ca = wa >= 0 ? axis_of_kind(s, SW_AX_COMPILER) : -1;
    bool *seen = calloc(n + 1, 1);
    const sw_row **g = calloc(n + 1, sizeof *g);   // NOLINT(bugprone-sizeof-expression): an array of pointers
    char (*lab)[SW_TEXT] = calloc(n + 1, sizeof *lab);
    if (!seen || !g || !lab) {
        free(seen);
        free(g);
        free(lab);
        return;
    }
    for (uint64_t i = 0; i < n; i++) {
        if (seen[i] || !rows[i].done)
            continue;
        const sw_point *p = &s->points[rows[i].run];
        size_t gn = 0;
        for (uint64_t j = i; j < n; j++)
            if (!seen[j] && rows[j].done && same_table(s, p, &s->points[rows[j].run], wa, ca)) {
                seen[j] = true;
                g[gn++] = &rows[j];
            }
        /* per width, its compilers' rows together, in axis order */
        for (size_t x = 1; ca >= 0 && x < gn; x++)
            for (size_t y = x; y > 0 && s->points[g[y - 1]->run].v[wa] >
                                            s->points[g[y]->run].v[wa]; y--) {
                const sw_row *t = g[y];
                g[y] = g[y - 1];
                g[y - 1] = t;
            }
        for (size_t x = 0; x < gn; x++)
            label(s, g[x], wa, lab[x], sizeof lab[x]);
        fprintf(f, "\n== %s", s->kernels[p->kernel].name);
        for (uint32_t a = 0; wa >= 0 && a < s->naxes; a++)
            if ((int)a != wa && (int)a != ca && sw_value(s, p, a))
                fprintf(f, ", %s=%s", s->axes[a].name, sw_value(s, p, a));
        fprintf(f, " ==\n");
        char head[SW_TEXT];
        table_head(s, wa, head, sizeof head);
        if (ca >= 0 && s->points[rows[i].run].v[ca] != UINT32_MAX)
            print_compilers(s, g, lab, gn, ca, head, f);
        else
            sw_print_group(g, (const char (*)[SW_TEXT])lab, gn, head, f);
    }
    free(seen);
    free(g);
    free(lab);
}

/* ------------------------------------------------------------- plots */

static bool numeric(const sw_axis *a)
{
    for (uint32_t i = 0; i < a->nvals; i++) {
        char *end;
        strtod(a->vals[i], &end);
        if (*end || !*a->vals[i])
            return false;
    }
    return a->kind != SW_AX_GLOBAL && a->kind != SW_AX_LOCAL && a->kind != SW_AX_ARG;
}

static void safe_name(const char *in, char *out, size_t n)
{
    size_t i = 0;
    for (; *in && i + 1 < n; in++)
        out[i++] = ((*in >= 'a' && *in <= 'z') || (*in >= 'A' && *in <= 'Z') ||
                    (*in >= '0' && *in <= '9') || *in == '-') ? *in : '_';
    out[i] = 0;
}

/* One data file for axis `ax` (by value): one block per series (kernel and
 * the other axes), columns value and cycles; returns the series count. */
static int write_data(const sw_sweep *s, const sw_row *rows, uint64_t n, uint32_t ax,
                      int only_kernel, const char *path, char titles[][160], int maxt)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    bool *seen = calloc(n + 1, 1);
    int ns = 0;
    for (uint64_t i = 0; seen && i < n; i++) {
        if (seen[i] || !rows[i].done || rows[i].status)
            continue;
        const sw_point *p = &s->points[rows[i].run];
        if ((only_kernel >= 0 && (int)p->kernel != only_kernel) || p->v[ax] == UINT32_MAX)
            continue;
        if (ns == maxt)
            break;
        size_t tl = (size_t)snprintf(titles[ns], 160, "%s", s->kernels[p->kernel].name);
        for (uint32_t a = 0; a < s->naxes; a++)
            if (a != ax && sw_value(s, p, a) && tl < 160)
                tl += (size_t)snprintf(titles[ns] + tl, 160 - tl, " %s=%s", s->axes[a].name,
                                       sw_value(s, p, a));
        fprintf(f, "%s# %s\n", ns ? "\n\n" : "", titles[ns]);
        ns++;
        /* values in axis order */
        for (uint32_t v = 0; v < s->axes[ax].nvals; v++)
            for (uint64_t j = i; j < n; j++) {
                const sw_point *q = &s->points[rows[j].run];
                if (seen[j] || !rows[j].done || rows[j].status || q->v[ax] != v ||
                    !same_group(s, p, q, (int)ax))
                    continue;
                seen[j] = true;
                fprintf(f, "%s %llu\n", s->axes[ax].vals[v], (unsigned long long)rows[j].cycles);
            }
    }
    free(seen);
    fclose(f);
    return ns;
}

static void plot_block(FILE *gp, const char *base, const char *title, const char *xlabel,
                       const char *data, char titles[][160], int ns, bool logx)
{
    static const char *const term[2][2] = { { "png size 900,560", "png" },
                                            { "svg size 900,560", "svg" } };
    for (int t = 0; t < 2; t++) {
        /* noenhanced: '_' in kernel and key names is text, not a subscript */
        fprintf(gp, "set terminal %s noenhanced\nset output '%s.%s'\n", term[t][0], base,
                term[t][1]);
        fprintf(gp, "set title '%s'\nset xlabel '%s'\nset ylabel 'cycles'\n", title, xlabel);
        fprintf(gp, "%s", logx ? "set logscale x 2\n" : "unset logscale x\n");
        fprintf(gp, "plot ");
        for (int i = 0; i < ns; i++)
            fprintf(gp, "%s'%s' index %d using 1:2 with linespoints title '%s'", i ? ", " : "",
                    data, i, titles[i]);
        fprintf(gp, "\nset output\n");
    }
}

int sw_write_plots(const sw_sweep *s, const char *dir, const sw_row *rows, uint64_t n,
                   bool render)
{
    char path[2200], data[300], base[300], nm[100];
    static char titles[64][160];
    snprintf(path, sizeof path, "%s/plot.gp", dir);
    FILE *gp = fopen(path, "w");
    if (!gp)
        return cli_error("cannot write '%s': %s", path, strerror(errno));
    fprintf(gp, "# sgemu sweep plots: run 'gnuplot plot.gp' in this folder\n"
                "set grid\nset key outside bottom center horizontal\n");
    int wa = width_axis(s);
    for (uint32_t k = 0; wa >= 0 && k < s->nkernels; k++) {   /* cycles vs width */
        safe_name(s->kernels[k].name, nm, sizeof nm);
        snprintf(data, sizeof data, "width-%s.dat", nm);
        snprintf(path, sizeof path, "%s/%s", dir, data);
        int ns = write_data(s, rows, n, (uint32_t)wa, (int)k, path, titles, 64);
        if (ns <= 0)
            continue;
        snprintf(base, sizeof base, "width-%s", nm);
        char t[200];
        snprintf(t, sizeof t, "%s: cycles vs sub-group width", s->kernels[k].name);
        plot_block(gp, base, t, "sub-group width", data, titles, ns, true);
    }
    for (uint32_t a = 0; a < s->naxes; a++) {                 /* one chart per numeric axis */
        if ((int)a == wa || !numeric(&s->axes[a]))
            continue;
        safe_name(s->axes[a].name, nm, sizeof nm);
        snprintf(data, sizeof data, "axis-%s.dat", nm);
        snprintf(path, sizeof path, "%s/%s", dir, data);
        int ns = write_data(s, rows, n, a, -1, path, titles, 64);
        if (ns <= 0)
            continue;
        snprintf(base, sizeof base, "axis-%s", nm);
        char t[200];
        snprintf(t, sizeof t, "cycles vs %s", s->axes[a].name);
        plot_block(gp, base, t, s->axes[a].name, data, titles, ns, false);
    }
    if (fclose(gp))
        return cli_error("cannot write plot.gp");
    if (!render)
        return 0;
    pid_t pid = fork();
    if (pid == 0) {
        if (chdir(dir) == 0) {
            int null = open("/dev/null", O_WRONLY);
            if (null >= 0)
                dup2(null, 1);
            execlp("gnuplot", "gnuplot", "plot.gp", (char *)NULL);
        }
        _exit(127);
    }
    int st = 0;
    if (pid < 0 || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st)) {
        fprintf(stderr, "sgemu: warning: %s (plot.gp and the data are written; "
                "install gnuplot-nox to render PNG and SVG)\n",
                pid > 0 && WIFEXITED(st) && WEXITSTATUS(st) == 127 ? "gnuplot not found"
                                                                   : "gnuplot failed");
        return 1;
    }
    return 0;
}
