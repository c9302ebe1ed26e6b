/* kernel_harness.c - see kernel_harness.h */
#include "kernel_harness.h"

#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
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
             "llvm-spirv-14 --spirv-ext=+SPV_INTEL_subgroups "
             "--preserve-ocl-kernel-arg-type-metadata-through-string %s/%s.bc -o %s/%s.spv && "
             "spirv-val %s/%s.spv", std, src, src, src, name, tmp, name, tmp, name, tmp, name, tmp,
             name);
    if (system(cmd) != 0)
        fail_msg("compiling or validating %s.cl failed: %s", name, cmd);
}

cli_result cli_vrun_logged(const char *fmt, va_list ap)
{
    char cmd[8192];
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    cli_result r = cli_run("%s", cmd);
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
