/* test_composite_twins.c - the unrolled OpenCL C twins of the composites in
 * examples/calibration (tests/timing/composites.cl) on nvidia-h100, SIMD32:
 *  - allocated, they need the registers of their live sets (worked out by
 *    hand below) and spill nothing, however many rounds are unrolled;
 *  - cycles per composite, (cycles(R) - cycles(0)) / R, are within 2% of the
 *    hand-written .sgasm twin's loop body unrolled R times (the loop counter
 *    and branch removed: the OpenCL twins have none); the .sgasm loop's own
 *    figure is printed beside them;
 *  - the 1024-work-item block composites launch, which they cannot with
 *    their value registers unallocated (SGEMU_REGALLOC=0): 32 warps of more
 *    than 64 registers overflow the SM's 64 K registers. */
#include "sgemu.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "test_file.h"
#include "timing.h"

enum { ROUNDS = 16 };

static emu_config cfg;
static bool have_clang;

typedef struct twin {
    const char *name;
    uint32_t items;
    uint32_t regs;      /* registers of the live set (hand count, see test_twins) */
} twin;

/* Live sets at the peak, all u32 values (4 B per lane, index registers read
 * as i64 by the local accesses: 8 B):
 *   warp_reduce_shfl  x and the shuffled t                         2
 *   warp_scan_shfl    the five deltas min(l, k), x, t; l dies once
 *                     they and the l >= k compares are made         7
 *   block_reduce_*    33 l + w (store index), l & (WARPS-1) (load
 *                     index), x, t                                 4
 *   block_scan_*      the five deltas, the store and load indices,
 *                     prev, x, y and t; l and w die once the deltas
 *                     and the compares (w != 0 too) are made       11 */
static const twin twins[] = {
    { "warp_reduce_shfl", 32, 2 },
    { "warp_scan_shfl", 32, 7 },
    { "block_reduce_256", 256, 4 },
    { "block_scan_256", 256, 11 },
    { "block_reduce_1024", 1024, 4 },
    { "block_scan_1024", 1024, 11 },
};

static uint64_t run(const isa_kernel *k, uint32_t items, uint32_t n, sgemu_stats *st,
                    int want_rc)
{
    static uint32_t out[1024];   /* one word per work-item */
    sgemu_argval args[ISA_MAX_ARGS];
    memset(args, 0, sizeof args);
    for (uint32_t i = 0; i < k->narg; i++) {
        const isa_arg *a = &k->args[i];
        if (a->kind == ISA_ARG_SCALAR)
            args[i] = (sgemu_argval){ .kind = SGEMU_VAL_SCALAR, .scalar = n };
        else if (a->kind == ISA_ARG_LOCAL)
            args[i] = (sgemu_argval){ .kind = SGEMU_VAL_LOCAL, .bytes = 8192 };
        else
            args[i] = (sgemu_argval){ .kind = SGEMU_VAL_BUFFER, .data = (uint8_t *)out,
                                      .bytes = sizeof out };
    }
    sgemu_launch L = { .dims = 1, .global = { items }, .local = { items },
                       .local_given = true, .sg_width = 32, .timing = true };
    sgemu_fault f;
    int rc = sgemu_run(k, &cfg, &L, args, st, &f);
    if (rc != want_rc)
        fprintf(stderr, "%s: %s\n", k->name, f.msg);
    assert_int_equal(rc, want_rc);
    return rc ? 0 : st->timing->cycles;
}

static void load_cl(const char *name, int rounds, isa_kernel *k)
{
    char path[1024], def[32];
    snprintf(path, sizeof path, "%s/tests/timing/composites.cl", getenv("SGEMU_SRC"));
    snprintf(def, sizeof def, "-DROUNDS=%d", rounds);
    const char *opts[] = { "-cl-std=CL3.0", def };
    sgemu_load_opts o = { .entry = name, .cl_options = opts, .ncl_options = 2 };
    isa_diags d = { 0 };
    sgemu_fault f;
    int rc = sgemu_kernel_load(path, &o, k, NULL, &d, &f);
    if (rc) {
        isa_diags_print(&d, stderr);
        fprintf(stderr, "%s\n", f.msg);
    }
    isa_diags_free(&d);
    assert_int_equal(rc, 0);
}

/* The .sgasm twin: as written (looped over %n), or with the loop body
 * repeated `unroll` times and its counter (r5, p0) and branches dropped. */
static void load_sgasm(const char *name, int unroll, isa_kernel *k)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/examples/calibration/%s.sgasm", getenv("SGEMU_SRC"), name);
    char *src = test_slurp(path, NULL);
    size_t cap = strlen(src) * (size_t)(unroll + 2) + 1, n = 0;
    char *text = malloc(cap), *body = malloc(strlen(src) + 1);
    assert_non_null(text);
    assert_non_null(body);
    body[0] = 0;
    int part = 0;   /* 0 before loop:, 1 in the body, 2 from done: */
    for (char *line = strtok(src, "\n"); line; line = strtok(NULL, "\n")) {
        if (unroll < 0) {
            n += (size_t)snprintf(text + n, cap - n, "%s\n", line);
            continue;
        }
        const bool counter = strstr(line, "r5") || strstr(line, "p0");
        if (!strcmp(line, "loop:")) {
            part = 1;
        } else if (!strcmp(line, "done:")) {
            for (int r = 0; r < unroll; r++)
                n += (size_t)snprintf(text + n, cap - n, "%s", body);
            part = 2;
        } else if (part == 1 && !counter) {
            strcat(body, line);
            strcat(body, "\n");
        } else if (part != 1 && !counter) {
            n += (size_t)snprintf(text + n, cap - n, "%s\n", line);
        }
    }
    isa_diags d = { 0 };
    int errs = isa_assemble(path, text, n, k, &d);
    if (errs)
        isa_diags_print(&d, stderr);
    isa_diags_free(&d);
    assert_int_equal(errs, 0);
    free(src);
    free(text);
    free(body);
}

static double per_composite(uint64_t c0, uint64_t c1)
{
    return (double)(c1 - c0) / ROUNDS;
}

static void test_twins(void **state)
{
    (void)state;
    if (!have_clang) {
        fprintf(stderr, "no clang-14/llvm-spirv-14: skipped\n");
        skip();
    }
    for (size_t i = 0; i < sizeof twins / sizeof *twins; i++) {
        const twin *t = &twins[i];
        isa_kernel k0, k1, s0, s1, loop;
        sgemu_stats st;
        load_cl(t->name, 0, &k0);
        load_cl(t->name, ROUNDS, &k1);
        assert_int_equal(k1.regalloc, ISA_RA_VALUES);
        const uint64_t c0 = run(&k0, t->items, 0, &st, 0);
        sgemu_stats_free(&st);
        const uint64_t c1 = run(&k1, t->items, 0, &st, 0);
        assert_true(st.regalloc_done);
        assert_true(st.regalloc.regs_before > 10 * t->regs);
        if (st.regalloc.regs_after != t->regs)
            fprintf(stderr, "%s: %u registers, %u expected\n", t->name,
                    st.regalloc.regs_after, t->regs);
        assert_int_equal(st.regalloc.regs_after, t->regs);
        assert_int_equal(st.regalloc.spilled_values, 0);
        assert_false(st.timing->grf_overflow);
        sgemu_stats_free(&st);
        load_sgasm(t->name, 0, &s0);
        load_sgasm(t->name, ROUNDS, &s1);
        load_sgasm(t->name, -1, &loop);
        const uint64_t u0 = run(&s0, t->items, 0, &st, 0);
        sgemu_stats_free(&st);
        const uint64_t u1 = run(&s1, t->items, 0, &st, 0);
        sgemu_stats_free(&st);
        const uint64_t l0 = run(&loop, t->items, 0, &st, 0);
        sgemu_stats_free(&st);
        const uint64_t l1 = run(&loop, t->items, ROUNDS, &st, 0);
        sgemu_stats_free(&st);
        const double cl = per_composite(c0, c1), sg = per_composite(u0, u1),
                     lp = per_composite(l0, l1);
        printf("%-18s %4u items: OpenCL C %.1f, .sgasm unrolled %.1f (%+.2f%%), "
               ".sgasm loop %.1f cycles per composite\n", t->name, t->items, cl, sg,
               100 * (cl - sg) / sg, lp);
        assert_true(fabs(cl - sg) <= 0.02 * sg);
        if (t->items == 1024) {
            /* the same launch with the value registers is refused */
            setenv("SGEMU_REGALLOC", "0", 1);
            run(&k1, t->items, 0, &st, SGEMU_EXIT_USER);
            unsetenv("SGEMU_REGALLOC");
        }
        isa_kernel_free(&k0);
        isa_kernel_free(&k1);
        isa_kernel_free(&s0);
        isa_kernel_free(&s1);
        isa_kernel_free(&loop);
    }
}

static int setup(void **state)
{
    (void)state;
    have_clang = system("clang-14 --version >/dev/null 2>&1 && "
                        "llvm-spirv-14 --version >/dev/null 2>&1") == 0;
    isa_diags d = { 0 };
    int errs = emu_config_load_bundled("nvidia-h100", &cfg, &d);
    isa_diags_free(&d);
    return errs ? -1 : 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_twins),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
