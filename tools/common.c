/* common.c - file, kernel and config loading and output helpers shared by
 * the subcommands. */
#include "cli.h"
#include "spirv.h"

#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

char *cli_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        cli_error("cannot open '%s': %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (n < cap) {
            if (ferror(f)) {
                cli_error("cannot read '%s': %s", path, strerror(errno));
                free(buf);
                buf = NULL;
            }
            break;
        }
        if (cap > ((size_t)1 << 34)) {
            cli_error("'%s' is too large", path);
            free(buf);
            buf = NULL;
            break;
        }
        char *nb = realloc(buf, cap * 2 + 1);
        if (!nb) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = nb;
        cap *= 2;
    }
    fclose(f);
    if (!buf)
        return NULL;
    buf[n] = 0;
    if (len)
        *len = n;
    return buf;
}

bool cli_kernel_args_unnamed;

static bool ends_with(const char *s, const char *suf)
{
    size_t n = strlen(s), m = strlen(suf);
    return n >= m && !strcmp(s + n - m, suf);
}

/* Is `prog` an executable in $PATH? */
static bool in_path(const char *prog)
{
    const char *path = getenv("PATH");
    char buf[1024];
    for (const char *p = path ? path : "/usr/bin:/bin"; *p;) {
        const char *e = strchr(p, ':');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        snprintf(buf, sizeof buf, "%.*s/%s", (int)n, p, prog);
        if (access(buf, X_OK) == 0)
            return true;
        p += n + (e ? 1 : 0);
    }
    return false;
}

/* Run argv[0] (found in $PATH) and wait; its diagnostics go straight to our
 * stderr, or into the file err_path when one is given.  Returns its exit
 * status (or -1). */
static int run_tool(char *const argv[], const char *err_path)
{
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        if (err_path) {
            int fd = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
            if (fd < 0 || dup2(fd, 2) < 0)
                _exit(127);
            close(fd);
        }
        execvp(argv[0], argv);
        _exit(127);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Does s[0..n) contain the string w? */
static bool has_text(const char *s, size_t n, const char *w)
{
    const size_t k = strlen(w);
    for (size_t i = 0; i + k <= n; i++)
        if (!memcmp(s + i, w, k))
            return true;
    return false;
}

/* Give the LLVM IR file `ll` native integer widths (n8:16:32:64) in its
 * data layout.  clang-14's spir64 layout names none, so the optimiser may
 * narrow a switch on `x % 4` to an i2 value, which llvm-spirv-14 rejects
 * ("InvalidBitWidth"); with native widths it keeps the switch in i32. */
static bool add_native_ints(const char *ll)
{
    size_t len;
    char *text = cli_read_file(ll, &len);
    if (!text)
        return false;
    static const char key[] = "target datalayout = \"";
    char *at = strstr(text, key), *end = at ? strchr(at + sizeof key - 1, '"') : NULL;
    bool ok = false;
    FILE *f = end && !has_text(at, (size_t)(end - at), "-n") ? fopen(ll, "wb") : NULL;
    if (f) {
        const size_t head = (size_t)(end - text);
        ok = fwrite(text, 1, head, f) == head && fputs("-n8:16:32:64", f) >= 0 &&
             fwrite(end, 1, len - head, f) == len - head;
        ok = fclose(f) == 0 && ok;
    }
    free(text);
    return ok;
}

/* OpenCL C -> LLVM bitcode with clang-14 -O2.  With native_ints, in two
 * steps: clang's front end alone (-disable-llvm-passes) to IR text, native
 * integer widths added to its data layout, then clang's -O2 pipeline on
 * that IR without the loop and SLP vectorisers (they turn short loops into
 * llvm.vector.reduce.* intrinsics, which llvm-spirv-14 cannot translate). */
static int clang_to_bc(const char *path, const char *const *opts, int nopts, bool native_ints,
                       const char *ll, const char *bc)
{
    const char *argv[100];
    int n = 0;
    bool std_given = false;
    for (int i = 0; i < nopts; i++)
        std_given |= !strncmp(opts[i], "-cl-std=", 8);
    argv[n++] = "clang-14";
    if (!std_given)
        argv[n++] = "-cl-std=CL2.0";
    argv[n++] = "-target";
    argv[n++] = "spir64";
    argv[n++] = "-emit-llvm";
    argv[n++] = native_ints ? "-S" : "-c";
    argv[n++] = "-include";
    argv[n++] = "opencl-c.h";
    argv[n++] = "-cl-kernel-arg-info";
    argv[n++] = "-O2";
    if (native_ints) {
        argv[n++] = "-Xclang";
        argv[n++] = "-disable-llvm-passes";
    }
    for (int i = 0; i < nopts && n < 90; i++)
        argv[n++] = opts[i];
    argv[n++] = path;
    argv[n++] = "-o";
    argv[n++] = native_ints ? ll : bc;
    argv[n] = NULL;
    int rc = run_tool((char *const *)argv, NULL);
    if (rc != 0 || !native_ints)
        return rc;
    if (!add_native_ints(ll))
        return -1;
    const char *opt[] = { "clang-14", "-target", "spir64", "-O2", "-fno-vectorize",
                          "-fno-slp-vectorize", "-emit-llvm", "-c", ll, "-o", bc, NULL };
    return run_tool((char *const *)opt, NULL);
}

/* .cl -> .spv with clang-14 + llvm-spirv-14 in a fresh temporary directory;
 * returns the module bytes (malloc'd) or NULL after printing why.  When
 * llvm-spirv-14 rejects what clang's optimiser made (an integer width, see
 * add_native_ints, or a vector-reduction intrinsic), the kernel is compiled
 * again with native widths and no vectorisers. */
static char *compile_cl(const char *path, const char *const *opts, int nopts, size_t *len)
{
    static const char *const tools[] = { "clang-14", "llvm-spirv-14" };
    for (int i = 0; i < 2; i++)
        if (!in_path(tools[i])) {
            cli_error("'%s' is OpenCL C: compiling it needs clang-14 and llvm-spirv-14, and "
                      "'%s' is not installed (Debian: apt-get install clang-14 llvm-spirv-14; "
                      "or compile to SPIR-V yourself and run the .spv)", path, tools[i]);
            return NULL;
        }
    const char *tmp = getenv("TMPDIR");
    char dir[1024], ll[1100], bc[1100], spv[1100], err[1100];
    snprintf(dir, sizeof dir, "%s/sgemu-cl-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        cli_error("cannot create a temporary directory: %s", strerror(errno));
        return NULL;
    }
    snprintf(ll, sizeof ll, "%s/kernel.ll", dir);
    snprintf(bc, sizeof bc, "%s/kernel.bc", dir);
    snprintf(spv, sizeof spv, "%s/kernel.spv", dir);
    snprintf(err, sizeof err, "%s/llvm-spirv.err", dir);
    char *data = NULL;
    for (int native_ints = 0; native_ints < 2; native_ints++) {
        int rc = clang_to_bc(path, opts, nopts, native_ints, ll, bc);
        if (rc != 0) {
            cli_error("clang-14 could not compile '%s'%s", path,
                      rc < 0 ? " (it could not be run)" : " (its messages are above)");
            break;
        }
        const char *av2[] = { "llvm-spirv-14", "--spirv-ext=+SPV_INTEL_subgroups",
                              "--preserve-ocl-kernel-arg-type-metadata-through-string", bc, "-o",
                              spv, NULL };
        rc = run_tool((char *const *)av2, err);
        if (rc == 0) {
            data = cli_read_file(spv, len);
            break;
        }
        size_t elen = 0;
        char *etext = cli_read_file(err, &elen);
        const bool retry = etext && (has_text(etext, elen, "InvalidBitWidth") ||
                                     has_text(etext, elen, "llvm.vector.reduce"));
        if (!retry || native_ints) {
            if (etext)      /* its messages, as it printed them */
                fwrite(etext, 1, elen, stderr);
            free(etext);
            cli_error("llvm-spirv-14 could not translate '%s' to SPIR-V", path);
            break;
        }
        free(etext);
    }
    unlink(ll);
    unlink(bc);
    unlink(spv);
    unlink(err);
    rmdir(dir);
    return data;
}

int cli_load_kernel_ex(const char *path, const char *entry, const char *const *clopts,
                       int nclopts, isa_kernel *k)
{
    bool cl = ends_with(path, ".cl");
    size_t len;
    char *src = cl ? compile_cl(path, clopts, nclopts, &len) : cli_read_file(path, &len);
    memset(k, 0, sizeof *k);
    cli_kernel_args_unnamed = false;
    if (!src)
        return SGEMU_EXIT_USER;
    isa_diags d;
    memset(&d, 0, sizeof d);
    int errs;
    if (cl || ends_with(path, ".spv") || spv_is_module(src, len)) {
        errs = spv_translate(path, src, len, entry, k, &cli_kernel_args_unnamed, &d);
    } else {
        if (entry && entry[0]) {
            free(src);
            return cli_error("--kernel applies to SPIR-V modules and OpenCL C files; '%s' "
                             "holds one .sgasm kernel", path);
        }
        errs = isa_assemble(path, src, len, k, &d);
    }
    free(src);
    if (errs) {
        isa_diags_print(&d, stderr);
        isa_diags_free(&d);
        return SGEMU_EXIT_USER;
    }
    isa_diags_free(&d);
    return 0;
}

int cli_load_kernel(const char *path, isa_kernel *k)
{
    return cli_load_kernel_ex(path, NULL, NULL, 0, k);
}

int cli_load_config(const char *path, emu_config *cfg)
{
    isa_diags d;
    memset(&d, 0, sizeof d);
    int errs = path ? emu_config_load_file(path, cfg, &d) : emu_config_load_default(cfg, &d);
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

int cli_write_atomic(const char *path, const void *data, size_t n)
{
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
