/* build.c - OpenCL C to SPIR-V for clBuildProgram: the pipeline of
 * `sgemu run K.cl` (clang-14 -O2 for spir64, then llvm-spirv-14; once more
 * with native integer widths and no vectorisers when llvm-spirv-14 rejects
 * what the optimiser made), with the tools' messages captured for the
 * build log instead of printed. */
#include "build.h"

#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static bool has_text(const char *s, size_t n, const char *w)
{
    const size_t k = strlen(w);
    for (size_t i = 0; i + k <= n; i++)
        if (!memcmp(s + i, w, k))
            return true;
    return false;
}

/* Run argv (found in $PATH); its stdout and stderr are appended to log_path. */
static int run_logged(char *const argv[], const char *log_path)
{
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        int fd = open(log_path, O_WRONLY | O_CREAT | O_APPEND, 0600);
        if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
            _exit(127);
        close(fd);
        execvp(argv[0], argv);
        _exit(127);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap + 1);
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap)
            break;
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
    if (buf) {
        buf[n] = 0;
        if (len)
            *len = n;
    }
    return buf;
}

static bool write_all(const char *path, const char *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return false;
    bool ok = fwrite(data, 1, n, f) == n;
    return fclose(f) == 0 && ok;
}

/* clang-14's spir64 data layout names no native integer widths, so the
 * optimiser may narrow a switch to i2, which llvm-spirv-14 rejects; the
 * second pass adds n8:16:32:64 to the IR's layout. */
static bool add_native_ints(const char *ll)
{
    size_t len;
    char *text = read_all(ll, &len);
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

int icd_build_spirv(const char *source, char *const *opts, int nopts, uint8_t **spv,
                    size_t *spv_len, char **log)
{
    *spv = NULL;
    *log = NULL;
    const char *tmp = getenv("TMPDIR");
    char dir[1024], cl[1100], ll[1100], bc[1100], out[1100], lg[1100], lg2[1100];
    snprintf(dir, sizeof dir, "%s/sgemu-icd-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir))
        return -1;
    snprintf(cl, sizeof cl, "%s/program.cl", dir);
    snprintf(ll, sizeof ll, "%s/program.ll", dir);
    snprintf(bc, sizeof bc, "%s/program.bc", dir);
    snprintf(out, sizeof out, "%s/program.spv", dir);
    snprintf(lg, sizeof lg, "%s/build.log", dir);
    snprintf(lg2, sizeof lg2, "%s/spirv.log", dir);
    int rc = write_all(cl, source, strlen(source)) ? 1 : -1;
    bool std_given = false;
    for (int i = 0; i < nopts; i++)
        std_given |= !strncmp(opts[i], "-cl-std=", 8);
    for (int native = 0; native < 2 && rc == 1; native++) {
        unlink(lg2);
        const char *av[128];
        int n = 0;
        av[n++] = "clang-14";
        if (!std_given)
            av[n++] = "-cl-std=CL2.0";
        const char *fixed[] = { "-target", "spir64", "-emit-llvm", native ? "-S" : "-c",
                                "-include", "opencl-c.h", "-cl-kernel-arg-info", "-O2" };
        for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
            av[n++] = fixed[i];
        if (native) {
            av[n++] = "-Xclang";
            av[n++] = "-disable-llvm-passes";
        }
        for (int i = 0; i < nopts && n < 118; i++)
            av[n++] = opts[i];
        av[n++] = cl;
        av[n++] = "-o";
        av[n++] = native ? ll : bc;
        av[n] = NULL;
        /* the first pass's messages are the log; a retry's go to a scratch file */
        if (run_logged((char *const *)av, native ? lg2 : lg) != 0) {
            rc = 1;
            break;
        }
        if (native) {
            const char *opt[] = { "clang-14", "-target", "spir64", "-O2", "-fno-vectorize",
                                  "-fno-slp-vectorize", "-emit-llvm", "-c", ll, "-o", bc, NULL };
            if (!add_native_ints(ll) || run_logged((char *const *)opt, lg2) != 0) {
                rc = 1;
                break;
            }
        }
        const char *tr[] = { "llvm-spirv-14", "--spirv-ext=+SPV_INTEL_subgroups",
                             "--preserve-ocl-kernel-arg-type-metadata-through-string", bc, "-o",
                             out, NULL };
        if (run_logged((char *const *)tr, lg2) == 0) {
            *spv = (uint8_t *)read_all(out, spv_len);
            rc = *spv ? 0 : -1;
            break;
        }
        size_t elen = 0;
        char *etext = read_all(lg2, &elen);
        bool retry = etext && (has_text(etext, elen, "InvalidBitWidth") ||
                               has_text(etext, elen, "llvm.vector.reduce"));
        if (!retry || native) {
            FILE *f = fopen(lg, "ab");
            if (f && etext)
                fwrite(etext, 1, elen, f);
            if (f)
                fclose(f);
            free(etext);
            rc = 1;
            break;
        }
        free(etext);
    }
    *log = read_all(lg, NULL);
    const char *files[] = { cl, ll, bc, out, lg, lg2 };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        unlink(files[i]);
    rmdir(dir);
    return rc;
}
