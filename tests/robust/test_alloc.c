/* test_alloc.c - allocation failure anywhere is handled.  The executable is
 * linked with -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc, so every
 * allocation libsgemu makes goes through the wrappers below, which fail the
 * Nth one.  For N = 0, 1, 2, ... until an operation completes without
 * reaching its Nth allocation, the operation must either fail cleanly (an
 * error code and message) or succeed with exactly the normal result; it
 * must never crash, and under ASan never leak.  (libyaml is a shared library:
 * its own allocations are not wrapped.) */
#include "lanes.h"
#include "sgemu.h"
#include "test_args.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t m);
void *__real_realloc(void *p, size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t m);
void *__wrap_realloc(void *p, size_t n);

static long fail_at = -1;   /* index of the allocation to fail; -1: none */
static long seen;           /* allocations since arm() */
static int injected;

static int should_fail(void)
{
    if (fail_at < 0)
        return 0;
    if (seen++ == fail_at) {
        injected = 1;
        return 1;
    }
    return 0;
}

void *__wrap_malloc(size_t n) { return should_fail() ? NULL : __real_malloc(n); }
void *__wrap_calloc(size_t n, size_t m) { return should_fail() ? NULL : __real_calloc(n, m); }
void *__wrap_realloc(void *p, size_t n) { return should_fail() ? NULL : __real_realloc(p, n); }

static void arm(long n)
{
    fail_at = n;
    seen = 0;
    injected = 0;
}

static void disarm(void) { fail_at = -1; }

static const char kernel_src[] =
    "; a bit of everything the assembler builds tables for\n"
    ".kernel mix\n"
    ".arg in global i32\n"
    ".arg out global i32\n"
    ".arg scratch local i32\n"
    ".arg n u32\n"
    ".reqd_sub_group_size 8\n"
    "    mov.u32 r0, %global_id.x\n"
    "    mov.u32 r9, %local_id.x\n"
    "    cmp.ge.u32 p0, r0, %n\n"
    "    bra p0, done\n"
    "    ld.global.i32 r1, [%in + r0*4]\n"
    "    sub_group_reduce_add.i32 r2, r1\n"
    "    sub_group_scan_inclusive_add.i32 r3, r1\n"
    "    st.local.i32 [%scratch + r9*4], r3\n"
    "    barrier.local\n"
    "    work_group_reduce_max.i32 r4, r2\n"
    "    ld.local.i32 r5, [%scratch + r9*4]\n"
    "    add.i32 r6, r5, r4\n"
    "loop:\n"
    "    sub.i32 r1, r1, 1\n"
    "    cmp.gt.i32 p1, r1, 0\n"
    "    bra p1, loop\n"
    "    st.global.i32 [%out + r0*4], r6\n"
    "done:\n"
    "    ret\n";

static const char config_src[] =
    "extends: test-simple\n"
    "device:\n"
    "  name: \"alloc-test\"\n"
    "  subgroup_widths: [8, 16]\n"
    "  default_subgroup_width: 16\n"
    "collectives:\n"
    "  reduce: tree\n";

static int assemble(isa_kernel *k, isa_diags *d)
{
    memset(k, 0, sizeof *k);
    memset(d, 0, sizeof *d);
    return isa_assemble("mix.sgasm", kernel_src, strlen(kernel_src), k, d);
}

static void assembler_survives_every_failure(void **state)
{
    (void)state;
    isa_kernel k;
    isa_diags d;
    assert_int_equal(assemble(&k, &d), 0);
    char *want = isa_disassemble(&k);
    assert_non_null(want);
    isa_kernel_free(&k);
    isa_diags_free(&d);

    long n;
    for (n = 0;; n++) {
        arm(n);
        int errs = assemble(&k, &d);
        char *got = errs ? NULL : isa_disassemble(&k);
        int hit = injected;
        disarm();
        if (!errs && got) {
            assert_string_equal(got, want);         /* success means the right program */
        } else if (errs) {
            assert_true(hit);                       /* errors only from the failure */
            assert_true(d.count > 0 || d.cap == 0); /* a message, unless that failed too */
        }
        free(got);
        isa_kernel_free(&k);
        isa_diags_free(&d);
        if (!hit)
            break;
    }
    free(want);
    assert_true(n > 3);   /* the wrappers really saw the assembler allocate */
}

static void config_loader_survives_every_failure(void **state)
{
    (void)state;
    emu_config want, got;
    isa_diags d;
    memset(&d, 0, sizeof d);
    assert_int_equal(emu_config_load_text("a.yaml", config_src, strlen(config_src), &want, &d), 0);
    isa_diags_free(&d);
    assert_string_equal(want.name, "alloc-test");

    for (long n = 0;; n++) {
        memset(&d, 0, sizeof d);
        arm(n);
        int errs = emu_config_load_text("a.yaml", config_src, strlen(config_src), &got, &d);
        int hit = injected;
        disarm();
        if (!errs) {
            assert_string_equal(got.name, want.name);
            assert_int_equal(got.default_width, want.default_width);
            assert_int_equal(got.nwidths, want.nwidths);
        } else {
            assert_true(hit);
        }
        isa_diags_free(&d);
        if (!hit)
            break;
    }
}

/* One run of `mix` over 64 work-items; returns the exit code, fills out[]. */
static int run_mix(const isa_kernel *k, const emu_config *cfg, bool check, bool timing,
                   int32_t out[64], sgemu_fault *f)
{
    int32_t in[64];
    for (int i = 0; i < 64; i++)
        in[i] = (i * 7) % 5;
    memset(out, 0, 64 * sizeof *out);
    sgemu_argval v[4];
    memset(v, 0, sizeof v);
    v[0].kind = SGEMU_VAL_BUFFER;
    v[0].data = (uint8_t *)in;
    v[0].bytes = sizeof in;
    v[1].kind = SGEMU_VAL_BUFFER;
    v[1].data = (uint8_t *)out;
    v[1].bytes = 64 * sizeof *out;
    v[2].kind = SGEMU_VAL_LOCAL;
    v[2].bytes = 32 * 4;
    v[3].kind = SGEMU_VAL_SCALAR;
    v[3].scalar = 64;
    sgemu_launch L = launch_1d(64, 32, 0);
    L.max_instructions = 100000;
    L.check = check;
    L.timing = timing;
    L.threads = 1;
    sgemu_stats st;
    int rc = sgemu_run(k, cfg, &L, v, &st, f);
    sgemu_stats_free(&st);
    return rc;
}

static void run_survives_every_failure_mode(bool check, bool timing)
{
    isa_kernel k;
    isa_diags d;
    assert_int_equal(assemble(&k, &d), 0);
    isa_diags_free(&d);
    emu_config cfg;
    memset(&d, 0, sizeof d);
    assert_int_equal(emu_config_load_bundled("test-simple", &cfg, &d), 0);
    isa_diags_free(&d);
    int32_t want[64], got[64];
    sgemu_fault f;
    int rc = run_mix(&k, &cfg, check, timing, want, &f);
    if (rc)
        fail_msg("reference run failed: %s", f.msg);

    long n;
    for (n = 0;; n++) {
        arm(n);
        rc = run_mix(&k, &cfg, check, timing, got, &f);
        int hit = injected;
        disarm();
        if (rc == SGEMU_EXIT_OK) {
            assert_memory_equal(got, want, sizeof want);
        } else {
            assert_true(hit);
            assert_int_equal(rc, SGEMU_EXIT_INTERNAL);
            if (!strstr(f.msg, "memory"))
                fail_msg("allocation %ld failed: message does not say so: %s", n, f.msg);
        }
        if (!hit)
            break;
    }
    assert_true(n > 2);
    isa_kernel_free(&k);
}

static void run_survives_every_failure(void **state)
{
    (void)state;
    run_survives_every_failure_mode(false, false);
}

static void checked_run_survives_every_failure(void **state)
{
    (void)state;
    run_survives_every_failure_mode(true, false);
}

static void timed_run_survives_every_failure(void **state)
{
    (void)state;
    run_survives_every_failure_mode(false, true);
}

/* Nested divergence: at level i lane i branches away and finishes at once,
 * the other lanes wait below the new level, so the stack grows one entry per
 * level past its initial 64.  Returns the deepest depth seen. */
static uint32_t nest(lanes_simt *s, uint32_t levels)
{
    uint32_t deepest = s->depth;
    for (uint32_t i = 0; i < levels && !lanes_simt_done(s); i++) {
        lanes_simt_branch(s, (lanes_mask)1 << i, 1000 + i, 2000 + i, 3000 + i);
        if (s->depth > deepest)
            deepest = s->depth;
        if (lanes_simt_done(s))
            break;
        lanes_simt_goto(s, 3000 + i);     /* lane i reaches its join */
    }
    return deepest;
}

static void simt_growth_failure_is_reported(void **state)
{
    (void)state;
    lanes_simt s;
    memset(&s, 0, sizeof s);
    assert_int_equal(lanes_simt_reset(&s, ~(lanes_mask)0, 0), 0);
    assert_true(nest(&s, 63) > 64);           /* it really grows */
    assert_false(s.oom);

    assert_int_equal(lanes_simt_reset(&s, ~(lanes_mask)0, 0), 0);
    lanes_simt_free(&s);
    memset(&s, 0, sizeof s);
    assert_int_equal(lanes_simt_reset(&s, ~(lanes_mask)0, 0), 0);
    arm(0);                                   /* the growth past 64 fails */
    nest(&s, 63);
    int hit = injected;
    disarm();
    assert_true(hit);
    assert_true(s.oom);
    assert_true(lanes_simt_done(&s));         /* stopped, not half-run */
    assert_int_equal(lanes_simt_reset(&s, 1, 0), 0);
    assert_false(s.oom);                      /* a reset clears it */
    lanes_simt_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(assembler_survives_every_failure),
        cmocka_unit_test(config_loader_survives_every_failure),
        cmocka_unit_test(run_survives_every_failure),
        cmocka_unit_test(checked_run_survives_every_failure),
        cmocka_unit_test(timed_run_survives_every_failure),
        cmocka_unit_test(simt_growth_failure_is_reported),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
