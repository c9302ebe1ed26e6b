/* test_ocloc_agree.c - the Intel configs' features agree with Intel's
 * OpenCL compiler for their device (device.ocloc_target): for each width
 * 8, 16, 32 and each probe kernel (plain, double precision, sub-group block
 * I/O on global and on local memory, image reads and writes), ocloc builds the kernel at that width exactly when sgemu takes the
 * width (device.subgroup_widths) and finds nothing the device's compiler
 * refuses (device.fp64, device.block_io_max_width, device.local_block_io:
 * emu_target_refusals).
 * Skipped (exit 77) where ocloc is not installed. */
#include "sgemu.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

static const struct probe {
    const char *name, *prelude, *body;
} probes[] = {
    { "plain", "", "(__global uint *a) { a[get_global_id(0)] += 1; }" },
    { "fp64", "", "(__global double *a) { a[get_global_id(0)] *= 2.5; }" },
    { "block_io", "", "(__global uint *a) { uint v = intel_sub_group_block_read(a);"
                      " intel_sub_group_block_write(a + 64, v + 1); }" },
    /* read_imageui / write_imageui: no block I/O, built at every width */
    { "image", "", "(read_only image2d_t a, write_only image2d_t b) {"
                   " int2 c = (int2)(get_global_id(0), get_global_id(1));"
                   " write_imageui(b, c, read_imageui(a, c) + 1); }" },
    /* cl_intel_subgroup_local_block_io: neither clang-14 nor this IGC
     * declares these overloads */
    { "local_block_io",
      "uint __attribute__((overloadable)) intel_sub_group_block_read(const __local uint *p);\n"
      "void __attribute__((overloadable)) intel_sub_group_block_write(__local uint *p, uint v);\n",
      "(__global uint *a) { __local uint s[128]; s[get_local_id(0)] = a[get_global_id(0)];"
      " barrier(CLK_LOCAL_MEM_FENCE); uint v = intel_sub_group_block_read(s);"
      " intel_sub_group_block_write(s + 64, v + 1); barrier(CLK_LOCAL_MEM_FENCE);"
      " a[get_global_id(0)] = s[64 + get_local_id(0) % 64]; }" },
};

static char dir[] = "/tmp/sgemu-ocloc-XXXXXX";

#define NPROBES (sizeof probes / sizeof probes[0])
#define NWIDTHS 3   /* 8, 16, 32 */

/* Whether ocloc builds each probe at each width for `target`: the compiles
 * run in parallel, each leaving its exit status in a file. */
static void ocloc_builds(const char *target, bool builds[NPROBES][NWIDTHS])
{
    char cmd[16384], path[512];
    size_t n = (size_t)snprintf(cmd, sizeof cmd, "cd %s && {", dir);
    for (size_t i = 0; i < NPROBES; i++) {
        for (uint32_t wi = 0; wi < NWIDTHS; wi++) {
            uint32_t w = 8u << wi;
            snprintf(path, sizeof path, "%s/%s_%s_%u.cl", dir, probes[i].name, target, w);
            FILE *f = fopen(path, "w");
            assert_non_null(f);
            fprintf(f, "%s__attribute__((intel_reqd_sub_group_size(%u))) __kernel void k%s\n",
                    probes[i].prelude, w, probes[i].body);
            fclose(f);
            n += (size_t)snprintf(cmd + n, sizeof cmd - n,
                                  " (ocloc compile -file %s_%s_%u.cl -device %s -options "
                                  "-cl-std=CL2.0 -output o_%s_%s_%u -output_no_suffix -q "
                                  ">/dev/null 2>&1; echo $? >rc_%s_%s_%u) &",
                                  probes[i].name, target, w, target, probes[i].name, target, w,
                                  probes[i].name, target, w);
            assert_true(n < sizeof cmd);
        }
    }
    n += (size_t)snprintf(cmd + n, sizeof cmd - n, " wait; }");
    assert_true(n < sizeof cmd);
    assert_int_equal(system(cmd), 0);
    for (size_t i = 0; i < NPROBES; i++) {
        for (uint32_t wi = 0; wi < NWIDTHS; wi++) {
            snprintf(path, sizeof path, "%s/rc_%s_%s_%u", dir, probes[i].name, target, 8u << wi);
            FILE *f = fopen(path, "r");
            assert_non_null(f);
            int rc = -1;
            assert_int_equal(fscanf(f, "%d", &rc), 1);
            fclose(f);
            builds[i][wi] = rc == 0;
        }
    }
}

/* sgemu's translation of probe p (the width is chosen at launch). */
static void load_probe(const struct probe *p, isa_kernel *k)
{
    char src[1024], name[64];
    snprintf(src, sizeof src, "%s__kernel void k%s\n", p->prelude, p->body);
    snprintf(name, sizeof name, "%s.cl", p->name);   /* clang picks the language by suffix */
    isa_diags d = { 0 };
    sgemu_fault err;
    sgemu_load_opts opts = { .entry = "k" };
    int rc = sgemu_kernel_from_memory(name, SGEMU_SOURCE_OPENCL_C, src, strlen(src), &opts, k,
                                      NULL, &d, &err);
    if (rc)
        fprintf(stderr, "%s: %s\n", p->name, d.count ? d.items[0].msg : err.msg);
    assert_int_equal(rc, 0);
    isa_diags_free(&d);
}

static void test_configs_agree_with_ocloc(void **state)
{
    (void)state;
    isa_kernel k[NPROBES];
    for (size_t i = 0; i < NPROBES; i++)
        load_probe(&probes[i], &k[i]);
    unsigned checked = 0, failed = 0;
    for (const emu_bundled_config *b = emu_bundled_configs; b->name; b++) {
        emu_config cfg;
        isa_diags d = { 0 };
        assert_int_equal(emu_config_load_bundled(b->name, &cfg, &d), 0);
        isa_diags_free(&d);
        if (!strcmp(cfg.ocloc_target, "none") || !strcmp(b->name, "default"))
            continue;
        bool igc[NPROBES][NWIDTHS];
        ocloc_builds(cfg.ocloc_target, igc);
        for (uint32_t wi = 0; wi < NWIDTHS; wi++) {
            uint32_t w = 8u << wi;
            for (size_t i = 0; i < NPROBES; i++) {
                /* sgemu takes the launch without a warning */
                bool sg = emu_config_supports_width(&cfg, w) &&
                          !emu_target_refusals(&cfg, &k[i], w);
                printf("%-16s %-8s SIMD%-2u %-15s ocloc %-7s sgemu %s\n", b->name,
                       cfg.ocloc_target, w, probes[i].name, igc[i][wi] ? "builds" : "refuses",
                       sg ? "takes" : "refuses/warns");
                failed += igc[i][wi] != sg;
                checked++;
            }
        }
    }
    for (size_t i = 0; i < NPROBES; i++)
        isa_kernel_free(&k[i]);
    assert_true(checked >= 4 * NWIDTHS * NPROBES);   /* four Intel configs */
    assert_int_equal(failed, 0);
}

int main(void)
{
    if (system("command -v ocloc >/dev/null 2>&1") != 0) {
        printf("ocloc not installed: skipped\n");
        return 77;
    }
    if (!mkdtemp(dir))
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_configs_agree_with_ocloc),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return rc;
}
