/* kernel_harness.c - see kernel_harness.h */
#include "kernel_harness.h"

#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

char cli_tmpdir[64];

int cli_tmpdir_make(const char *tag)
{
    snprintf(cli_tmpdir, sizeof cli_tmpdir, "/tmp/sgemu-%s-XXXXXX", tag);
    return mkdtemp(cli_tmpdir) ? 0 : -1;
}

int cli_tmpdir_remove(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", cli_tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

void cli_put(const char *name, const void *p, size_t n)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", cli_tmpdir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(p, 1, n, f), n);
    fclose(f);
}

void cli_get(const char *name, void *p, size_t n)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", cli_tmpdir, name);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    assert_int_equal(fread(p, 1, n, f), n);
    fclose(f);
}

void cli_compile(const char *name, const char *std)
{
    if (system("command -v clang-14 >/dev/null && command -v llvm-spirv-14 >/dev/null && "
               "command -v spirv-val >/dev/null") != 0)
        fail_msg("clang-14, llvm-spirv-14 and spirv-val (spirv-tools) are needed for the "
                 "kernel corpus (bash tools/dev.sh installs them)");
    const char *src = cli_src(), *tmp = cli_tmpdir;
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "clang-14 -cl-std=%s -target spir64 -emit-llvm -c "
             "-include %s/load/sgemu_opencl.h "
             "-cl-kernel-arg-info -O2 -mllvm -simplifycfg-sink-common=false "
             "-mllvm -simplifycfg-hoist-common=false -I %s/tests/kernels "
             "%s/tests/kernels/%s.cl -o %s/%s.bc && "
             "llvm-spirv-14 --spirv-ext=+SPV_INTEL_subgroups,+SPV_EXT_shader_atomic_float_add,"
             "+SPV_EXT_shader_atomic_float_min_max "
             "--preserve-ocl-kernel-arg-type-metadata-through-string %s/%s.bc -o %s/%s.spv && "
             "spirv-val %s/%s.spv", std, src, src, src, name, tmp, name, tmp, name, tmp, name, tmp,
             name);
    if (system(cmd) != 0)
        fail_msg("compiling or validating %s.cl failed: %s", name, cmd);
}

/* Bytes of file `path` (malloc'd, *n its size), NULL if unreadable. */
static unsigned char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    unsigned char *b = NULL;
    size_t cap = 0;
    *n = 0;
    for (;;) {
        if (*n == cap) {
            unsigned char *nb = realloc(b, cap = cap ? cap * 2 : 4096);
            if (!nb)
                break;
            b = nb;
        }
        size_t got = fread(b + *n, 1, cap - *n, f);
        *n += got;
        if (!got)
            break;
    }
    fclose(f);
    return b;
}

/* SGEMU_TEST_REGALLOC_AB set: every `run` is first run with SGEMU_REGALLOC=0
 * (value registers, unallocated), and the allocated run must write the same
 * bytes to every --out NAME=FILE and, without --json, to stdout. */
static void regalloc_ab_first(const char *cmd, unsigned char **saved, size_t *sizes,
                              char paths[][512], unsigned *npaths, cli_result *plain)
{
    *npaths = 0;
    setenv("SGEMU_REGALLOC", "0", 1);
    *plain = cli_run("%s", cmd);
    unsetenv("SGEMU_REGALLOC");
    for (const char *p = strstr(cmd, "--out "); p && *npaths < 16; p = strstr(p + 1, "--out ")) {
        const char *eq = strchr(p + 6, '='), *sp = strchr(p + 6, ' ');
        if (!eq || (sp && sp < eq))
            continue;
        size_t len = sp ? (size_t)(sp - eq - 1) : strlen(eq + 1);
        if (len >= 512)
            continue;
        memcpy(paths[*npaths], eq + 1, len);
        paths[*npaths][len] = 0;
        saved[*npaths] = slurp(paths[*npaths], &sizes[*npaths]);
        (*npaths)++;
    }
}

static void regalloc_ab_check(const char *cmd, const cli_result *r, const cli_result *plain,
                              unsigned char **saved, const size_t *sizes,
                              char paths[][512], unsigned npaths)
{
    if (r->status != plain->status)
        fail_msg("sgemu %s: exit %d allocated, %d with SGEMU_REGALLOC=0", cmd, r->status,
                 plain->status);
    if (!strstr(cmd, "--json") && strcmp(r->out, plain->out) != 0)
        fail_msg("sgemu %s: stdout differs with SGEMU_REGALLOC=0", cmd);
    for (unsigned i = 0; i < npaths; i++) {
        size_t n = 0;
        unsigned char *now = slurp(paths[i], &n);
        if (!now != !saved[i] || n != sizes[i] || (n && memcmp(now, saved[i], n) != 0))
            fail_msg("sgemu %s: %s differs with SGEMU_REGALLOC=0", cmd, paths[i]);
        free(now);
        free(saved[i]);
    }
}

cli_result cli_vrun_logged(const char *fmt, va_list ap)
{
    char cmd[8192];
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    const bool ab = getenv("SGEMU_TEST_REGALLOC_AB") && !strncmp(cmd, "run ", 4);
    unsigned char *saved[16];
    size_t sizes[16];
    static char paths[16][512];
    unsigned npaths = 0;
    cli_result plain;
    if (ab)
        regalloc_ab_first(cmd, saved, sizes, paths, &npaths, &plain);
    cli_result r = cli_run("%s", cmd);
    if (ab) {
        regalloc_ab_check(cmd, &r, &plain, saved, sizes, paths, npaths);
        cli_result_free(&plain);
    }
    if (r.status != 0)
        fprintf(stderr, "sgemu %s failed (%d): %s\n", cmd, r.status, r.err);
    return r;
}

cli_result cli_run_checked(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cli_result r = cli_vrun_logged(fmt, ap);
    va_end(ap);
    assert_int_equal(r.status, 0);
    return r;
}

void cli_run_ok(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cli_result r = cli_vrun_logged(fmt, ap);
    va_end(ap);
    assert_int_equal(r.status, 0);
    cli_result_free(&r);
}
