/* test_threads.c - functional execution on several host threads gives the
 * bytes, statistics and faults of one thread: a local-memory reduction with
 * sub-group collectives, a kernel that faults in two work-groups (the lower
 * one is reported), and a kernel with global atomics (run on one thread).
 * Expected sums are computed here directly. */
#include "sgemu.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "test_kernel.h"
#include "test_args.h"

static emu_config cfg;
static const uint32_t thread_counts[] = { 1, 2, 3, 4, 7, 0 };
#define NTC (sizeof thread_counts / sizeof thread_counts[0])

static void assemble(const char *src, isa_kernel *k)
{
    test_assemble("threads.sgasm", src, k);
}

static sgemu_launch launch1(uint64_t global, uint64_t local, uint32_t width, uint32_t threads)
{
    sgemu_launch L = launch_1d(global, local, width);
    L.threads = threads;
    L.max_instructions = 100000000;
    return L;
}

/* out[g] = sum of in over work-group g (local tree) + per-item sub-group sum */
static const char reduce_src[] =
    ".kernel red\n"
    ".arg in global u32\n"
    ".arg out global u32\n"
    ".arg sg global u32\n"
    ".arg scratch local u32\n"
    "    mov.u32 r0, %global_id.x\n"
    "    mov.u32 r1, %local_id.x\n"
    "    ld.global.u32 r3, [%in + r0*4]\n"
    "    sub_group_reduce_add.u32 r10, r3\n"
    "    st.global.u32 [%sg + r0*4], r10\n"
    "    st.local.u32 [%scratch + r1*4], r3\n"
    "    barrier.local\n"
    "    cmp.ne.u32 p0, r1, 0\n"
    "    bra p0, done\n"
    "    mov.u32 r4, 0\n"
    "    mov.u32 r5, 0\n"
    "    mov.u32 r2, %local_size.x\n"
    "loop:\n"
    "    ld.local.u32 r6, [%scratch + r5*4]\n"
    "    add.u32 r4, r4, r6\n"
    "    add.u32 r5, r5, 1\n"
    "    cmp.lt.u32 p1, r5, r2\n"
    "    bra p1, loop\n"
    "    mov.u32 r8, %group_id.x\n"
    "    st.global.u32 [%out + r8*4], r4\n"
    "done:\n"
    "    ret\n";

static void reduction_same_for_any_thread_count(void **state)
{
    isa_kernel k;
    assemble(reduce_src, &k);
    const uint32_t N = 64 * 37 + 20, L = 64, G = (N + L - 1) / L, S = 16;
    uint32_t *in = malloc(N * 4);
    for (uint32_t i = 0; i < N; i++)
        in[i] = i * 2654435761u;
    uint32_t want[64];
    for (uint32_t g = 0; g < G; g++) {
        want[g] = 0;
        for (uint32_t i = g * L; i < (g + 1) * L && i < N; i++)
            want[g] += in[i];
    }
    sgemu_stats first;
    for (uint32_t t = 0; t < NTC; t++) {
        sgemu_argval a[4];
        memset(a, 0, sizeof a);
        a[0].kind = a[1].kind = a[2].kind = SGEMU_VAL_BUFFER;
        a[0].data = (uint8_t *)in;
        a[0].bytes = N * 4;
        a[1].data = calloc(G, 4);
        a[1].bytes = G * 4;
        a[2].data = calloc(N, 4);
        a[2].bytes = N * 4;
        a[3].kind = SGEMU_VAL_LOCAL;
        a[3].bytes = L * 4;
        sgemu_launch la = launch1(N, L, S, thread_counts[t]);
        sgemu_stats st;
        sgemu_fault f;
        assert_int_equal(sgemu_run(&k, &cfg, &la, a, &st, &f), 0);
        const uint32_t *out = (const uint32_t *)a[1].data, *sg = (const uint32_t *)a[2].data;
        for (uint32_t g = 0; g < G; g++)
            assert_int_equal(out[g], want[g]);
        for (uint32_t i = 0; i < N; i++) {
            uint32_t base = i / S * S, s = 0;
            for (uint32_t j = base; j < base + S && j < N; j++)
                s += in[j];
            assert_int_equal(sg[i], s);
        }
        if (t == 0) {
            first = st;
        } else {
            assert_int_equal(st.instructions, first.instructions);
            assert_int_equal(st.lane_ops, first.lane_ops);
            assert_int_equal(st.lane_slots, first.lane_slots);
            assert_int_equal(st.uops, first.uops);
            assert_int_equal(st.subgroups, first.subgroups);
        }
        assert_int_equal(st.subgroups, (N / L) * (L / S) + (N % L + S - 1) / S);
        sgemu_stats_free(&st);
        free(a[1].data);
        free(a[2].data);
    }
    free(in);
    isa_kernel_free(&k);
}

/* work-items 1000 and 3000 store out of bounds: work-group 15 (local 64)
 * faults first whatever the thread count */
static const char fault_src[] =
    ".kernel f\n"
    ".arg out global u32\n"
    "    mov.u32 r0, %global_id.x\n"
    "    mov.u32 r1, r0\n"
    "    cmp.eq.u32 p0, r0, 1000\n"
    "    bra !p0, a\n"
    "    mov.u32 r1, 100000\n"
    "a:\n"
    "    cmp.eq.u32 p1, r0, 3000\n"
    "    bra !p1, b\n"
    "    mov.u32 r1, 200000\n"
    "b:\n"
    "    st.global.u32 [%out + r1*4], r0\n"
    "    ret\n";

static void lowest_fault_reported(void **state)
{
    isa_kernel k;
    assemble(fault_src, &k);
    char first[1024] = "";
    for (uint32_t t = 0; t < NTC; t++) {
        sgemu_argval a[1];
        memset(a, 0, sizeof a);
        a[0].kind = SGEMU_VAL_BUFFER;
        a[0].data = calloc(4096, 4);
        a[0].bytes = 4096 * 4;
        sgemu_launch la = launch1(4096, 64, 8, thread_counts[t]);
        sgemu_stats st;
        sgemu_fault f;
        assert_int_equal(sgemu_run(&k, &cfg, &la, a, &st, &f), SGEMU_EXIT_FAULT);
        assert_non_null(strstr(f.msg, "(1000,0,0)"));
        if (t == 0)
            snprintf(first, sizeof first, "%s", f.msg);
        else
            assert_string_equal(f.msg, first);
        /* every work-group before the faulting one ran */
        const uint32_t *out = (const uint32_t *)a[0].data;
        for (uint32_t i = 0; i < 960; i++)
            assert_int_equal(out[i], i);
        sgemu_stats_free(&st);
        free(a[0].data);
    }
    isa_kernel_free(&k);
}

/* a global counter: the same total (and, on one thread, the same order) */
static const char atomic_src[] =
    ".kernel at\n"
    ".arg cnt global u32\n"
    ".arg out global u32\n"
    "    mov.u32 r0, %global_id.x\n"
    "    atom_add.global.u32 r1, [%cnt], 1\n"
    "    st.global.u32 [%out + r0*4], r1\n"
    "    ret\n";

static void global_atomics_identical(void **state)
{
    isa_kernel k;
    assemble(atomic_src, &k);
    const uint32_t N = 2048;
    uint32_t *first = calloc(N, 4);
    for (uint32_t t = 0; t < NTC; t++) {
        sgemu_argval a[2];
        memset(a, 0, sizeof a);
        a[0].kind = a[1].kind = SGEMU_VAL_BUFFER;
        a[0].data = calloc(1, 4);
        a[0].bytes = 4;
        a[1].data = calloc(N, 4);
        a[1].bytes = N * 4;
        sgemu_launch la = launch1(N, 64, 16, thread_counts[t]);
        sgemu_stats st;
        sgemu_fault f;
        assert_int_equal(sgemu_run(&k, &cfg, &la, a, &st, &f), 0);
        assert_int_equal(*(uint32_t *)a[0].data, N);
        if (t == 0)
            memcpy(first, a[1].data, N * 4);
        else
            assert_memory_equal(first, a[1].data, N * 4);
        sgemu_stats_free(&st);
        free(a[0].data);
        free(a[1].data);
    }
    free(first);
    isa_kernel_free(&k);
}

int main(void)
{
    isa_diags d;
    memset(&d, 0, sizeof d);
    if (emu_config_load_default(&cfg, &d)) {
        isa_diags_print(&d, stderr);
        return 1;
    }
    isa_diags_free(&d);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reduction_same_for_any_thread_count),
        cmocka_unit_test(lowest_fault_reported),
        cmocka_unit_test(global_atomics_identical),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
