/* gen_ocloc.c - compile OpenCL C with Intel's offline compiler, ocloc
 * (Debian package intel-opencl-icd), into a zebin.  ocloc runs as a child
 * process in a private temporary folder; its messages are kept for the
 * error (they carry IGC's reason when it refuses a kernel or a width).  A
 * width is asked for through IGC's IGC_ForceOCLSIMDWidth setting (read from
 * the environment by this IGC; a kernel's intel_reqd_sub_group_size wins). */
#include "gen.h"

#include <fcntl.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#define FAIL(code, ...) (snprintf(err, errcap, __VA_ARGS__), (code))

static uint8_t *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    uint8_t *b = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n == cap) {
            cap = cap ? cap * 2 : 65536;
            uint8_t *nb = realloc(b, cap);
            if (!nb) {
                free(b);
                fclose(f);
                return NULL;
            }
            b = nb;
        }
        size_t r = fread(b + n, 1, cap - n, f);
        if (r == 0)
            break;
        n += r;
    }
    fclose(f);
    *len = n;
    return b;
}

/* environ plus IGC's SIMD-width override (malloc'd array, NULL on failure). */
static char **env_with_width(uint32_t simd, char *buf, size_t cap)
{
    size_t n = 0;
    while (environ[n])
        n++;
    char **env = calloc(n + 2, sizeof *env);
    if (!env)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (strncmp(environ[i], "IGC_ForceOCLSIMDWidth=", 22) != 0)
            env[k++] = environ[i];
    if (simd) {
        snprintf(buf, cap, "IGC_ForceOCLSIMDWidth=%u", simd);
        env[k++] = buf;
    }
    env[k] = NULL;
    return env;
}

int gen_compile_cl(const char *cl, const char *device, const char *options, uint32_t simd,
                   uint8_t **bin, size_t *len, char *err, size_t errcap)
{
    *bin = NULL;
    *len = 0;
    const char *tmp = getenv("TMPDIR");
    char dir[512];
    snprintf(dir, sizeof dir, "%s/sgemu-ocloc-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir))
        return FAIL(3, "cannot create a temporary folder for ocloc in %s", dir);
    char out[600], log[600], opts[1024];
    snprintf(out, sizeof out, "%s/k", dir);
    snprintf(log, sizeof log, "%s/log", dir);
    bool has_std = options && strstr(options, "-cl-std=");
    snprintf(opts, sizeof opts, "%s%s%s", has_std ? "" : "-cl-std=CL2.0",
             options && *options && !has_std ? " " : "", options ? options : "");
    char *argv[] = { "ocloc", "compile", "-file", (char *)cl, "-device", (char *)device,
                     "-options", opts, "-output", out, "-output_no_suffix",
                     "--format", "zebin", NULL };
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    pid_t pid;
    char wbuf[64];
    char **env = env_with_width(simd, wbuf, sizeof wbuf);
    int rc = env ? posix_spawnp(&pid, "ocloc", &fa, NULL, argv, env) : -1;
    free(env);
    posix_spawn_file_actions_destroy(&fa);
    int status = 0;
    if (rc == 0 && waitpid(pid, &status, 0) < 0)
        rc = -1;
    int ret = 0;
    if (rc != 0) {
        ret = FAIL(3, "cannot run ocloc (Debian package intel-opencl-icd)");
    } else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        size_t n = 0;
        char *m = (char *)slurp(log, &n);
        /* the lines that say why, without ocloc's build banner */
        ret = FAIL(1, "ocloc refused %s for %s: %.*s", cl, device,
                   m ? (int)(n > 1500 ? 1500 : n) : 0, m ? m : "");
        free(m);
        for (char *c = err; *c; c++)
            if (*c == '\n' && c[1] == 0)
                *c = 0;
    } else if (!(*bin = slurp(out, len))) {
        ret = FAIL(3, "ocloc wrote no %s", out);
    }
    unlink(out);
    unlink(log);
    char spv[620];
    snprintf(spv, sizeof spv, "%s.spv", out);
    unlink(spv);
    rmdir(dir);
    return ret;
}
