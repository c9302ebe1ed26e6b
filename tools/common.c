/* common.c - file, kernel and config loading and output helpers shared by
 * the subcommands. */
#include "cli.h"

#include <sys/stat.h>

#include <errno.h>
#include <signal.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

char *cli_read_file(const char *path, size_t *len)
{
    sgemu_fault err;
    char *text = sgemu_read_file(path, len, &err);
    if (!text)
        cli_error("%s", err.msg);
    return text;
}

bool cli_kernel_args_unnamed;

/* Add OpenCL C option word w (known to sgemu_cl_option_words) in clang-14's
 * spelling. */
static int add_cl_word(const char *w, const char **clopts, int *n, int max)
{
    const char *c = sgemu_cl_option_clang(w);
    if (!c)
        return 0;
    if (*n >= max)
        return cli_error("too many OpenCL C options (at most %d)", max);
    clopts[(*n)++] = c;
    return 0;
}

/* --build-options 'TEXT': split at blanks in place (argv's strings are
 * ours to write), every word a known build option. */
static int add_build_options(char *text, const char **clopts, int *n, int max)
{
    char *words[64];
    int nw = 0;
    for (char *p = text; *p;) {
        while (*p == ' ' || *p == '\t' || *p == '\n')
            *p++ = 0;
        if (!*p)
            break;
        if (nw == 64)
            return cli_error("--build-options: more than 64 words");
        words[nw++] = p;
        while (*p && *p != ' ' && *p != '\t' && *p != '\n')
            p++;
    }
    for (int i = 0; i < nw; i++) {
        const int k = sgemu_cl_option_words(words[i]);
        if (!k)
            return cli_error("--build-options: unknown OpenCL build option '%s' (sgemu takes "
                             "%s; give other clang-14 options with --clang-arg OPT)", words[i],
                             sgemu_cl_option_names());
        if (k == 2 && i + 1 == nw)
            return cli_error("--build-options: '%s' needs a value", words[i]);
        if (add_cl_word(words[i], clopts, n, max) ||
            (k == 2 && add_cl_word(words[++i], clopts, n, max)))
            return 1;
    }
    return 0;
}

int cli_cl_option(int argc, char **argv, int *i, const char **clopts, int *n, int max)
{
    const char *a = argv[*i];
    const bool eq = !strncmp(a, "--build-options=", 16) || !strncmp(a, "--clang-arg=", 12);
    if (eq || !strcmp(a, "--build-options") || !strcmp(a, "--clang-arg")) {
        const bool build = a[2] == 'b';
        char *v = eq ? strchr(argv[*i], '=') + 1 : *i + 1 < argc ? argv[++*i] : NULL;
        if (!v)
            return cli_error("option %s needs a value", a);
        if (build)
            return add_build_options(v, clopts, n, max) ? -1 : 1;
        if (*n >= max)
            return cli_error("too many OpenCL C options (at most %d)", max), -1;
        clopts[(*n)++] = v;    /* as it is: clang-14 judges it */
        return 1;
    }
    const int k = sgemu_cl_option_words(a);
    if (!k) {
        if (!strncmp(a, "-cl-", 4))
            return cli_error("unknown OpenCL build option '%s' (sgemu takes %s; give other "
                             "clang-14 options with --clang-arg OPT)", a,
                             sgemu_cl_option_names()), -1;
        return 0;
    }
    if (k == 2 && *i + 1 >= argc)
        return cli_error("option %s needs a value", a), -1;
    if (add_cl_word(a, clopts, n, max) || (k == 2 && add_cl_word(argv[++*i], clopts, n, max)))
        return -1;
    return 1;
}

int cli_load_kernel_ex(const char *path, const char *entry, const char *const *clopts,
                       int nclopts, isa_kernel *k)
{
    const sgemu_load_opts opts = { .entry = entry, .cl_options = clopts,
                                   .ncl_options = (uint32_t)nclopts };
    sgemu_load_info info;
    isa_diags d;
    sgemu_fault err;
    memset(&d, 0, sizeof d);
    int rc = sgemu_kernel_load(path, &opts, k, &info, &d, &err);
    cli_kernel_args_unnamed = !rc && info.args_unnamed;
    if (rc) {
        if (d.count)
            isa_diags_print(&d, stderr);
        else
            cli_error("%s", err.msg);
    }
    isa_diags_free(&d);
    return rc;
}

int cli_load_kernel(const char *path, isa_kernel *k)
{
    return cli_load_kernel_ex(path, NULL, NULL, 0, k);
}

static bool ends_with(const char *s, const char *suf)
{
    size_t n = strlen(s), m = strlen(suf);
    return n >= m && !strcmp(s + n - m, suf);
}

/* `--config X` where X is no file: a bundled name, or an error that says
 * what X could have been (docs/config.md, "Bundled configs"). */
static int missing_config(const char *path, emu_config *cfg, isa_diags *d)
{
    if (emu_config_bundled(path))
        return emu_config_load_bundled(path, cfg, d);
    const bool looks_like_name = !strchr(path, '/') && !ends_with(path, ".yaml");
    char stem[128];
    const char *base = strrchr(path, '/');
    snprintf(stem, sizeof stem, "%s", base ? base + 1 : path);
    if (ends_with(stem, ".yaml"))
        stem[strlen(stem) - 5] = 0;
    const char *near = emu_config_bundled_nearest(stem);
    if (looks_like_name)
        fprintf(stderr, "sgemu: error: no config file or bundled config named '%s'", path);
    else
        fprintf(stderr, "sgemu: error: cannot read config '%s': %s", path, strerror(ENOENT));
    if (near)
        fprintf(stderr, " (did you mean %s'%s'?)", looks_like_name ? "" : "the bundled ",
                near);
    fputs("\n  bundled configs:", stderr);
    for (const emu_bundled_config *c = emu_bundled_configs; c->name; c++)
        fprintf(stderr, " %s", c->name);
    fputc('\n', stderr);
    return -1;
}

int cli_load_config(const char *path, emu_config *cfg)
{
    isa_diags d;
    memset(&d, 0, sizeof d);
    struct stat st;
    int errs;
    if (!path)
        errs = emu_config_load_default(cfg, &d);
    else if (stat(path, &st) != 0 && errno == ENOENT) {
        if ((errs = missing_config(path, cfg, &d)) < 0)
            return SGEMU_EXIT_USER;
    } else
        errs = emu_config_load_file(path, cfg, &d);
    if (errs) {
        isa_diags_print(&d, stderr);
        isa_diags_free(&d);
        return SGEMU_EXIT_USER;
    }
    isa_diags_free(&d);
    return 0;
}

int cli_parse_dims(const char *s, uint64_t v[3])
{
    int n = 0;
    const char *p = s;
    while (n < 3) {
        char *end;
        errno = 0;
        if (*p < '0' || *p > '9')
            return 0;
        unsigned long long x = strtoull(p, &end, 0);
        if (errno || end == p)
            return 0;
        v[n++] = x;
        if (*end == 0)
            return n;
        if (*end != ',')
            return 0;
        p = end + 1;
    }
    return 0;
}

void cli_format_value(isa_type t, const void *p, char *buf, size_t n)
{
    uint64_t bits = 0;
    memcpy(&bits, p, isa_types[t].bytes);
    switch (t) {
    case ISA_T_I8: snprintf(buf, n, "%d", (int8_t)bits); break;
    case ISA_T_U8: snprintf(buf, n, "%u", (uint8_t)bits); break;
    case ISA_T_I16: snprintf(buf, n, "%d", (int16_t)bits); break;
    case ISA_T_U16: snprintf(buf, n, "%u", (uint16_t)bits); break;
    case ISA_T_I32: snprintf(buf, n, "%" PRId32, (int32_t)bits); break;
    case ISA_T_U32: snprintf(buf, n, "%" PRIu32, (uint32_t)bits); break;
    case ISA_T_I64: snprintf(buf, n, "%" PRId64, (int64_t)bits); break;
    case ISA_T_U64: snprintf(buf, n, "%" PRIu64, bits); break;
    case ISA_T_F16: snprintf(buf, n, "%.5g", (double)sgemu_half_to_float((uint16_t)bits)); break;
    case ISA_T_F32: {
        float f;
        memcpy(&f, &bits, 4);
        snprintf(buf, n, "%.9g", (double)f);
        break;
    }
    case ISA_T_F64: {
        double d;
        memcpy(&d, &bits, 8);
        snprintf(buf, n, "%.17g", d);
        break;
    }
    default: snprintf(buf, n, "?"); break;
    }
}

/* The temporary file cli_write_atomic holds, for the signal handler: the
 * path is filled in with signals blocked, then tmp_live is set. */
static char tmp_path[4096 + 16];
static volatile sig_atomic_t tmp_live;
static volatile sig_atomic_t signals_seen;

static void on_signal(int sig)
{
    (void)sig;
    if (tmp_live) {
        unlink(tmp_path);            /* async-signal-safe */
        _exit(SGEMU_EXIT_INTERRUPTED);
    }
    if (signals_seen++)
        _exit(SGEMU_EXIT_INTERRUPTED);
    sgemu_request_stop();
}

void cli_install_signal_handlers(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

static void block_signals(sigset_t *old)
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigprocmask(SIG_BLOCK, &set, old);
}

/* A device or FIFO (sgemu_output_in_place): written as it is. */
static int write_in_place(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return cli_error("cannot write '%s': %s", path, strerror(errno));
    bool bad = fwrite(data, 1, n, f) != n;
    if (fclose(f) != 0 || bad)
        return cli_error("cannot write '%s'", path);
    return 0;
}

int cli_write_atomic(const char *path, const void *data, size_t n)
{
    if (sgemu_output_in_place(path))
        return write_in_place(path, data, n);
    size_t plen = strlen(path);
    if (plen + 16 > sizeof tmp_path)
        return cli_error("output path '%s' is too long", path);
    if (sgemu_stop_requested())
        return SGEMU_EXIT_INTERRUPTED;
    sigset_t old;
    /* mkstemp and the registration happen with SIGINT/SIGTERM held back, so
     * no signal can leave a temporary file nobody knows about */
    block_signals(&old);
    snprintf(tmp_path, sizeof tmp_path, "%s.tmp.XXXXXX", path);
    int fd = mkstemp(tmp_path);
    if (fd < 0) {
        int e = errno;
        sigprocmask(SIG_SETMASK, &old, NULL);
        return cli_error("cannot create a temporary file beside '%s': %s", path, strerror(e));
    }
    tmp_live = 1;
    sigprocmask(SIG_SETMASK, &old, NULL);
    /* mkstemp makes the file 0600: give it the mode fopen would */
    mode_t um = umask(0);
    umask(um);
    (void)fchmod(fd, 0666 & ~um);
    const uint8_t *p = data;
    size_t left = n;
    int rc = 0, e = 0;
    while (left) {
        ssize_t w = write(fd, p, left);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            e = errno;
            rc = 1;
            break;
        }
        p += w;
        left -= (size_t)w;
    }
    if (close(fd) != 0 && !rc) {
        e = errno;
        rc = 1;
    }
    block_signals(&old);
    if (!rc && rename(tmp_path, path) != 0) {
        e = errno;
        rc = 1;
    }
    if (rc)
        unlink(tmp_path);
    tmp_live = 0;
    sigprocmask(SIG_SETMASK, &old, NULL);
    if (rc)
        return cli_error("cannot write '%s': %s", path, strerror(e));
    return 0;
}

void cli_json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c == '\n')
            fputs("\\n", f);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

void cli_json_fault(FILE *f, int code, const sgemu_fault *e)
{
    fprintf(f, "{\"code\": %d, \"kind\": \"%s\", \"message\": ", code,
            code == SGEMU_EXIT_FAULT ? "kernel fault" : code == SGEMU_EXIT_USER ? "bad input"
            : code == SGEMU_EXIT_INTERRUPTED ? "interrupted" : "internal error");
    cli_json_string(f, e->what[0] ? e->what : e->msg);
    fputs(", \"kernel\": ", f);
    if (e->kernel[0])
        cli_json_string(f, e->kernel);
    else
        fputs("null", f);
    if (e->line)
        fprintf(f, ", \"line\": %u", e->line);
    else
        fputs(", \"line\": null", f);
    fputs(", \"work_item\": ", f);
    if (e->has_item) {
        fprintf(f, "{\"group\": [%llu, %llu, %llu], \"subgroup\": %u",
                (unsigned long long)e->group_id[0], (unsigned long long)e->group_id[1],
                (unsigned long long)e->group_id[2], e->subgroup);
        if (e->has_lane)
            fprintf(f, ", \"lane\": %u, \"global\": [%llu, %llu, %llu], "
                    "\"local\": [%llu, %llu, %llu]", e->lane,
                    (unsigned long long)e->global_id[0], (unsigned long long)e->global_id[1],
                    (unsigned long long)e->global_id[2], (unsigned long long)e->local_id[0],
                    (unsigned long long)e->local_id[1], (unsigned long long)e->local_id[2]);
        fputc('}', f);
    } else {
        fputs("null", f);
    }
    if (e->has_addr)
        fprintf(f, ", \"address\": \"0x%llx\"", (unsigned long long)e->addr);
    else
        fputs(", \"address\": null", f);
    fputc('}', f);
}

void cli_warn_trace_dropped(const char *trace_path, uint64_t written, uint64_t dropped)
{
    if (trace_path && dropped)
        fprintf(stderr, "sgemu: warning: trace '%s' holds only the first %llu events; "
                "%llu more were dropped (raise --trace-limit)\n", trace_path,
                (unsigned long long)written, (unsigned long long)dropped);
}

static double sim_rate(const sgemu_stats *s)
{
    return s->host_wall_s > 0 ? (double)s->instructions / s->host_wall_s : 0;
}

void cli_print_host_time(FILE *f, const sgemu_stats *s)
{
    fprintf(f, "  host time    %.3f s wall, %.3f s CPU, %.3g subgroup instructions/s "
            "(simulation rate)\n", s->host_wall_s, s->host_cpu_s, sim_rate(s));
}

void cli_json_host_time(FILE *f, const sgemu_stats *s)
{
    fprintf(f, "\"host_wall_s\": %.6f, \"host_cpu_s\": %.6f, \"sim_rate\": %.1f",
            s->host_wall_s, s->host_cpu_s, sim_rate(s));
}

void cli_igc_reason(const char *err, char *out, size_t n)
{
    const char *e = strstr(err, "error:");
    const char *p = e ? e : err;
    size_t len = strcspn(p, "\n");
    snprintf(out, n, "%.*s", (int)len, p);
}
