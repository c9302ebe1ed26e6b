/* test_faults.c - every kernel fault kind ends the run with exit code 2 and
 * a message naming the kernel, the source line, the work-item and (for
 * memory) the address; launch limits end it with exit code 1; a stop request
 * with 130.  Runs go through sgemu_run on the bundled test-simple device. */
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

typedef struct outcome {
    int rc;
    char msg[1024];
} outcome;

typedef struct shape {
    uint32_t dims;
    uint64_t global[3], local[3];
    uint32_t width;
    size_t bytes;              /* every buffer and local argument */
    uint64_t max_instructions;
    uint64_t max_memory;       /* sgemu_launch.max_memory (0: none) */
} shape;

static emu_config device;

static int setup(void **state)
{
    (void)state;
    return load_test_config(&device);
}

static outcome run_shape(const char *src, const shape *s)
{
    outcome o;
    memset(&o, 0, sizeof o);
    isa_kernel k;
    isa_diags d;
    memset(&k, 0, sizeof k);
    memset(&d, 0, sizeof d);
    if (isa_assemble("fault.sgasm", src, strlen(src), &k, &d)) {
        isa_diags_print(&d, stderr);
        fail_msg("kernel did not assemble");
    }
    isa_diags_free(&d);
    sgemu_argval v[ISA_MAX_ARGS];
    memset(v, 0, sizeof v);
    for (uint32_t i = 0; i < k.narg; i++) {
        switch (k.args[i].kind) {
        case ISA_ARG_SCALAR: v[i].kind = SGEMU_VAL_SCALAR; break;
        case ISA_ARG_LOCAL: v[i].kind = SGEMU_VAL_LOCAL; v[i].bytes = s->bytes; break;
        default:
            v[i].kind = SGEMU_VAL_BUFFER;
            v[i].bytes = s->bytes;
            v[i].data = calloc(1, s->bytes ? s->bytes : 1);
            break;
        }
    }
    sgemu_launch L;
    memset(&L, 0, sizeof L);
    L.dims = s->dims ? s->dims : 1;
    for (int i = 0; i < 3; i++) {
        L.global[i] = s->global[i];
        L.local[i] = s->local[i];
    }
    L.local_given = s->local[0] != 0;
    L.sg_width = s->width;
    L.max_instructions = s->max_instructions ? s->max_instructions : 100000;
    L.threads = 1;
    L.max_memory = s->max_memory;
    sgemu_stats st;
    sgemu_fault f;
    o.rc = sgemu_run(&k, &device, &L, v, &st, &f);
    snprintf(o.msg, sizeof o.msg, "%s", f.msg);
    sgemu_stats_free(&st);
    for (uint32_t i = 0; i < k.narg; i++)
        free(v[i].data);
    isa_kernel_free(&k);
    return o;
}

/* 8 work-items, one work-group, SIMD8, 16-byte buffers */
static outcome run8(const char *src)
{
    shape s = { 1, { 8, 1, 1 }, { 8, 1, 1 }, 8, 16, 0, 0 };
    return run_shape(src, &s);
}

static void expect(const outcome *o, int rc, const char *const *parts)
{
    if (o->rc != rc)
        fail_msg("exit code %d, expected %d; message: %s", o->rc, rc, o->msg);
    for (; *parts; parts++)
        if (!strstr(o->msg, *parts))
            fail_msg("message lacks '%s':\n%s", *parts, o->msg);
}

#define EXPECT(o, rc, ...) \
    do { \
        const char *const parts_[] = { __VA_ARGS__, NULL }; \
        expect(&(o), (rc), parts_); \
    } while (0)

static void global_load_out_of_bounds(void **state)
{
    (void)state;
    outcome o = run8(".kernel g_load\n"
                     ".arg a global i32\n"
                     "mov.u32 r0, %global_id.x\n"
                     "ld.global.i32 r1, [%a + r0*4]\n"      /* line 4 */
                     "ret\n");
    /* 16 bytes hold 4 ints: work-item 4 is the first outside */
    EXPECT(o, SGEMU_EXIT_FAULT, "kernel 'g_load'", "out-of-bounds global load of 4 bytes",
           "buffer 'a', offset 16, size 16 bytes", "fault.sgasm:4:",
           "work-item global (4,0,0) local (4,0,0)", "lane 4");
}

static void global_store_out_of_bounds(void **state)
{
    (void)state;
    outcome o = run8(".kernel g_store\n"
                     ".arg a global i32\n"
                     "mov.u32 r0, %global_id.x\n"
                     "add.u32 r1, r0, 2\n"
                     "st.global.i32 [%a + r1*4], r0\n"       /* line 5 */
                     "ret\n");
    EXPECT(o, SGEMU_EXIT_FAULT, "kernel 'g_store'", "out-of-bounds global store of 4 bytes",
           "buffer 'a', offset 16", "fault.sgasm:5:", "work-item global (2,0,0)");
}

/* A halo read or negative index lands below the buffer's base: the message
 * names the buffer and the distance, for the first argument (whose region
 * starts the address space) and for a later one. */
static void global_access_before_buffer(void **state)
{
    (void)state;
    outcome o = run8(".kernel g_before\n"
                     ".arg a global i32\n"
                     "mov.u32 r0, %global_id.x\n"
                     "ld.global.i32 r1, [%a + r0*4 - 8]\n"   /* line 4 */
                     "ret\n");
    EXPECT(o, SGEMU_EXIT_FAULT, "out-of-bounds global load of 4 bytes",
           "(8 bytes before buffer 'a')", "fault.sgasm:4:", "lane 0");
    o = run8(".kernel g_before2\n"
             ".arg a global i32\n"
             ".arg b global i32\n"
             "mov.u32 r0, %global_id.x\n"
             "st.global.i32 [%b + r0*4 - 12], r0\n"          /* line 5 */
             "ret\n");
    EXPECT(o, SGEMU_EXIT_FAULT, "out-of-bounds global store of 4 bytes",
           "(12 bytes before buffer 'b')", "fault.sgasm:5:", "lane 0");
    /* past the end is still an offset into the buffer, not before the next */
    o = run8(".kernel g_after\n"
             ".arg a global i32\n"
             ".arg b global i32\n"
             "mov.u32 r0, %global_id.x\n"
             "ld.global.i32 r1, [%a + r0*4 + 16]\n"
             "ret\n");
    EXPECT(o, SGEMU_EXIT_FAULT, "buffer 'a', offset 16, size 16 bytes");
}

static void local_out_of_bounds(void **state)
{
    (void)state;
    outcome o = run8(".kernel l_oob\n"
                     ".arg s local i32\n"
                     "mov.u32 r0, %local_id.x\n"
                     "st.local.i32 [%s + r0*4], r0\n"        /* line 4 */
                     "ret\n");
    EXPECT(o, SGEMU_EXIT_FAULT, "kernel 'l_oob'", "out-of-bounds local store of 4 bytes",
           "local memory is 16 bytes", "fault.sgasm:4:", "work-item global (4,0,0)");
}

static void private_out_of_bounds(void **state)
{
    (void)state;
    outcome o = run8(".kernel p_oob\n"
                     ".private_mem 12\n"
                     "mov.u32 r0, %global_id.x\n"
                     "mov.u64 r1, 0\n"
                     "ld.private.i32 r2, [r1 + r0*4]\n"      /* line 5 */
                     "ret\n");
    EXPECT(o, SGEMU_EXIT_FAULT, "kernel 'p_oob'", "out-of-bounds private load of 4 bytes",
           "private address 0xc", "private memory is 12 bytes", "fault.sgasm:5:",
           "work-item global (3,0,0)");
}

static void misaligned_access(void **state)
{
    (void)state;
    outcome o = run8(".kernel misal\n"
                     ".arg a global i32\n"
                     "ld.global.i32 r1, [%a + 2]\n"          /* line 3 */
                     "ret\n");
    EXPECT(o, SGEMU_EXIT_FAULT, "kernel 'misal'", "misaligned global load of 4 bytes",
           "offset 2", "fault.sgasm:3:", "work-item global (0,0,0)");
}

static void store_to_constant_buffer(void **state)
{
    (void)state;
    /* the assembler refuses `st` through %c itself; through a register
     * holding its address, the engine must catch it */
    outcome o = run8(".kernel const_st\n"
                     ".arg c constant i32\n"
                     "mov.u64 r1, %c\n"
                     "st.global.i32 [r1], 5\n"               /* line 4 */
                     "ret\n");
    EXPECT(o, SGEMU_EXIT_FAULT, "kernel 'const_st'", "store to constant memory",
           "buffer 'c'", "fault.sgasm:4:");
}

static void unbound_address(void **state)
{
    (void)state;
    outcome o = run8(".kernel wild\n"
                     "mov.u64 r1, 0x1234\n"
                     "ld.global.i32 r2, [r1]\n"              /* line 3 */
                     "ret\n");
    EXPECT(o, SGEMU_EXIT_FAULT, "kernel 'wild'", "global load", "0x1234", "fault.sgasm:3:");
}

static void divergent_barrier_in_subgroup(void **state)
{
    (void)state;
    outcome o = run8(".kernel div_bar\n"
                     "mov.u32 r0, %local_id.x\n"
                     "cmp.lt.u32 p0, r0, 4\n"
                     "bra p0, skip\n"
                     "barrier\n"                             /* line 5 */
                     "skip:\n"
                     "ret\n");
    EXPECT(o, SGEMU_EXIT_FAULT, "kernel 'div_bar'", "divergent", "fault.sgasm:5:");
}

static void divergent_barrier_across_subgroups(void **state)
{
    (void)state;
    /* SIMD4: sub-group 0 skips the barrier, sub-group 1 waits at it */
    shape s = { 1, { 8, 1, 1 }, { 8, 1, 1 }, 4, 16, 0, 0 };
    outcome o = run_shape(".kernel div_wg\n"
                          "mov.u32 r0, %local_id.x\n"
                          "cmp.lt.u32 p0, r0, 4\n"
                          "bra p0, skip\n"
                          "barrier\n"
                          "skip:\n"
                          "ret\n", &s);
    EXPECT(o, SGEMU_EXIT_FAULT, "kernel 'div_wg'", "divergent work-group synchronisation",
           "sub-group");
}

static void divergent_collective(void **state)
{
    (void)state;
    outcome o = run8(".kernel div_coll\n"
                     "mov.u32 r0, %local_id.x\n"
                     "cmp.lt.u32 p0, r0, 3\n"
                     "bra p0, skip\n"
                     "work_group_reduce_add.i32 r1, r0\n"    /* line 5 */
                     "skip:\n"
                     "ret\n");
    EXPECT(o, SGEMU_EXIT_FAULT, "kernel 'div_coll'", "reached by only some work-items",
           "fault.sgasm:5:");
}

static void integer_division_by_zero(void **state)
{
    (void)state;
    outcome o = run8(".kernel divz\n"
                     "mov.u32 r0, %global_id.x\n"
                     "sub.i32 r1, r0, 5\n"
                     "div.i32 r2, 100, r1\n"                 /* line 4: zero in lane 5 */
                     "ret\n");
    EXPECT(o, SGEMU_EXIT_FAULT, "kernel 'divz'", "integer division by zero",
           "fault.sgasm:4:", "work-item global (5,0,0)");
}

static void runaway_loop(void **state)
{
    (void)state;
    shape s = { 1, { 8, 1, 1 }, { 8, 1, 1 }, 8, 16, 500, 0 };
    outcome o = run_shape(".kernel spin\n"
                          "loop:\n"
                          "bra loop\n"                       /* line 3 */
                          "ret\n", &s);
    EXPECT(o, SGEMU_EXIT_FAULT, "kernel 'spin'", "instruction limit of 500",
           "fault.sgasm:3:");
}

static const char trivial[] = ".kernel t\nret\n";

static void ndrange_product_overflows(void **state)
{
    (void)state;
    shape s = { 3, { 1ull << 30, 1ull << 30, 1ull << 30 }, { 1, 1, 1 }, 8, 16, 0, 0 };
    outcome o = run_shape(trivial, &s);
    EXPECT(o, SGEMU_EXIT_USER, "too large");
}

static void ndrange_absurd(void **state)
{
    (void)state;
    shape s = { 1, { 1ull << 62, 1, 1 }, { 0, 0, 0 }, 8, 16, 0, 0 };
    outcome o = run_shape(trivial, &s);
    EXPECT(o, SGEMU_EXIT_USER, "too large");
}

static void ndrange_offset_wraps(void **state)
{
    (void)state;
    shape s = { 1, { 64, 1, 1 }, { 8, 1, 1 }, 8, 16, 0, 0 };
    isa_kernel k;
    isa_diags d;
    memset(&k, 0, sizeof k);
    memset(&d, 0, sizeof d);
    assert_int_equal(isa_assemble("t.sgasm", trivial, strlen(trivial), &k, &d), 0);
    sgemu_launch L = launch_1d(s.global[0], 8, 0);
    L.offset[0] = UINT64_MAX - 10;
    sgemu_stats st;
    sgemu_fault f;
    assert_int_equal(sgemu_run(&k, &device, &L, NULL, &st, &f), SGEMU_EXIT_USER);
    assert_non_null(strstr(f.msg, "offset"));
    sgemu_stats_free(&st);
    isa_kernel_free(&k);
    isa_diags_free(&d);
}

static void work_group_over_device_limit(void **state)
{
    (void)state;
    shape s = { 2, { 64, 64, 1 }, { 64, 32, 1 }, 8, 16, 0, 0 };
    outcome o = run_shape(trivial, &s);
    EXPECT(o, SGEMU_EXIT_USER, "exceeds the device limit of 1024");
}

/* 8 work-items x 1 GiB of private memory each: a user error (code 1) before
 * anything is allocated, not "out of host memory" (code 3). */
static void huge_private_memory(void **state)
{
    (void)state;
    shape s = { 1, { 8, 1, 1 }, { 8, 1, 1 }, 8, 16, 0, 0 };
    outcome o = run_shape(".kernel p\n.private_mem 1073741824\nret\n", &s);
    EXPECT(o, SGEMU_EXIT_USER, "kernel 'p'", "per work-group", "limit");
}

/* The engine's work-group state (64 work-items: at least 64 x 4 bytes of
 * private memory here) against sgemu_launch.max_memory. */
static void max_memory_limit(void **state)
{
    (void)state;
    const char *src = ".kernel m\n.private_mem 64\nret\n";
    shape s = { 1, { 64, 1, 1 }, { 64, 1, 1 }, 8, 16, 0, 1000 };
    outcome o = run_shape(src, &s);
    EXPECT(o, SGEMU_EXIT_USER, "kernel 'm'", "--max-memory", "1000");
    s.max_memory = 1 << 20;        /* 64 x 64 bytes and registers fit in 1 MiB */
    o = run_shape(src, &s);
    EXPECT(o, SGEMU_EXIT_OK, "");
}

static void stop_request_interrupts(void **state)
{
    (void)state;
    sgemu_request_stop();
    shape s = { 1, { 8, 1, 1 }, { 8, 1, 1 }, 8, 16, 0, 0 };
    outcome o = run_shape(".kernel spin\nloop:\nbra loop\n", &s);
    sgemu_clear_stop();
    EXPECT(o, SGEMU_EXIT_INTERRUPTED, "kernel 'spin'", "interrupted");
    /* cleared: the same kernel runs into its instruction limit again */
    s.max_instructions = 100;
    o = run_shape(".kernel spin\nloop:\nbra loop\n", &s);
    EXPECT(o, SGEMU_EXIT_FAULT, "instruction limit of 100");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(global_load_out_of_bounds),
        cmocka_unit_test(global_store_out_of_bounds),
        cmocka_unit_test(global_access_before_buffer),
        cmocka_unit_test(local_out_of_bounds),
        cmocka_unit_test(private_out_of_bounds),
        cmocka_unit_test(misaligned_access),
        cmocka_unit_test(store_to_constant_buffer),
        cmocka_unit_test(unbound_address),
        cmocka_unit_test(divergent_barrier_in_subgroup),
        cmocka_unit_test(divergent_barrier_across_subgroups),
        cmocka_unit_test(divergent_collective),
        cmocka_unit_test(integer_division_by_zero),
        cmocka_unit_test(runaway_loop),
        cmocka_unit_test(ndrange_product_overflows),
        cmocka_unit_test(ndrange_absurd),
        cmocka_unit_test(ndrange_offset_wraps),
        cmocka_unit_test(work_group_over_device_limit),
        cmocka_unit_test(huge_private_memory),
        cmocka_unit_test(max_memory_limit),
        cmocka_unit_test(stop_request_interrupts),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
