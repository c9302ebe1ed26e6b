/* test_engine.c - the functional engine through its public API: sub-group
 * membership (README decision 2), work-item ids in 1-3 dimensions with
 * offsets and trailing partial work-groups, divergence and reconvergence,
 * and the kernel faults (bounds, alignment, constant stores, divergent
 * barriers), and 16-byte vector loads and stores (u16x8, u32x4) at every
 * width, lanes adjacent and apart.  Expected values are computed here
 * directly from the OpenCL definitions. */
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

static void assemble(const char *src, isa_kernel *k)
{
    test_assemble("test.sgasm", src, k);
}

static sgemu_argval buffer(size_t bytes)
{
    sgemu_argval v;
    memset(&v, 0, sizeof v);
    v.kind = SGEMU_VAL_BUFFER;
    v.data = calloc(1, bytes ? bytes : 1);
    v.bytes = bytes;
    return v;
}

static sgemu_launch launch1(uint64_t global, uint64_t local, uint32_t width)
{
    sgemu_launch L = launch_1d(global, local, width);
    L.max_instructions = 10000000;
    return L;
}

/* ---------------------------------------------------------- membership */

static const char membership_src[] =
    ".kernel membership\n"
    ".arg out global u32\n"
    "    mov.u32 r0, %global_linear_id\n"
    "    mul.u32 r0, r0, 6\n"
    "    mov.u32 r1, %sub_group_id\n"
    "    st.global.u32 [%out + r0*4], r1\n"
    "    add.u32 r0, r0, 1\n"
    "    mov.u32 r1, %sub_group_local_id\n"
    "    st.global.u32 [%out + r0*4], r1\n"
    "    add.u32 r0, r0, 1\n"
    "    mov.u32 r1, %sub_group_size\n"
    "    st.global.u32 [%out + r0*4], r1\n"
    "    add.u32 r0, r0, 1\n"
    "    mov.u32 r1, %max_sub_group_size\n"
    "    st.global.u32 [%out + r0*4], r1\n"
    "    add.u32 r0, r0, 1\n"
    "    mov.u32 r1, %num_sub_groups\n"
    "    st.global.u32 [%out + r0*4], r1\n"
    "    add.u32 r0, r0, 1\n"
    "    mov.u32 r1, %enqueued_num_sub_groups\n"
    "    st.global.u32 [%out + r0*4], r1\n"
    "    ret\n";

static void test_membership(void **state)
{
    (void)state;
    isa_kernel k;
    assemble(membership_src, &k);
    const uint32_t wgs[] = { 1, 7, 8, 24, 33, 100, 256 };
    const uint32_t widths[] = { 1, 8, 16, 32, 64 };
    for (size_t a = 0; a < sizeof wgs / sizeof wgs[0]; a++) {
        for (size_t b = 0; b < sizeof widths / sizeof widths[0]; b++) {
            uint32_t L = wgs[a], S = widths[b];
            uint32_t G = 3 * L;                  /* three work-groups */
            sgemu_argval v = buffer((size_t)G * 6 * 4);
            sgemu_launch la = launch1(G, L, S);
            sgemu_stats st;
            sgemu_fault f;
            assert_int_equal(sgemu_run(&k, &cfg, &la, &v, &st, &f), 0);
            const uint32_t *o = (const uint32_t *)v.data;
            uint32_t nsg = (L + S - 1) / S;
            for (uint32_t g = 0; g < G; g++) {
                uint32_t lin = g % L;            /* local linear id */
                uint32_t sgid = lin / S, sglid = lin % S;
                uint32_t size = sgid == nsg - 1 ? L - sgid * S : S;
                assert_int_equal(o[g * 6 + 0], sgid);
                assert_int_equal(o[g * 6 + 1], sglid);
                assert_int_equal(o[g * 6 + 2], size);
                assert_int_equal(o[g * 6 + 3], S);
                assert_int_equal(o[g * 6 + 4], nsg);
                assert_int_equal(o[g * 6 + 5], nsg);
            }
            assert_int_equal(st.subgroups, 3u * nsg);
            free(v.data);
        }
    }
    isa_kernel_free(&k);
}

/* ----------------------------------------------------------- 3-D ids */

static const char ids_src[] =
    ".kernel ids\n"
    ".arg out global u32\n"
    "    mov.u32 r0, %global_linear_id\n"
    "    mul.u32 r0, r0, 20\n"
    "    mov.u32 r1, %global_id.x\n   st.global.u32 [%out + r0*4], r1\n   add.u32 r0, r0, 1\n"
    "    mov.u32 r1, %global_id.y\n   st.global.u32 [%out + r0*4], r1\n   add.u32 r0, r0, 1\n"
    "    mov.u32 r1, %global_id.z\n   st.global.u32 [%out + r0*4], r1\n   add.u32 r0, r0, 1\n"
    "    mov.u32 r1, %local_id.x\n    st.global.u32 [%out + r0*4], r1\n   add.u32 r0, r0, 1\n"
    "    mov.u32 r1, %local_id.y\n    st.global.u32 [%out + r0*4], r1\n   add.u32 r0, r0, 1\n"
    "    mov.u32 r1, %local_id.z\n    st.global.u32 [%out + r0*4], r1\n   add.u32 r0, r0, 1\n"
    "    mov.u32 r1, %group_id.x\n    st.global.u32 [%out + r0*4], r1\n   add.u32 r0, r0, 1\n"
    "    mov.u32 r1, %group_id.y\n    st.global.u32 [%out + r0*4], r1\n   add.u32 r0, r0, 1\n"
    "    mov.u32 r1, %group_id.z\n    st.global.u32 [%out + r0*4], r1\n   add.u32 r0, r0, 1\n"
    "    mov.u32 r1, %local_size.x\n  st.global.u32 [%out + r0*4], r1\n   add.u32 r0, r0, 1\n"
    "    mov.u32 r1, %local_size.y\n  st.global.u32 [%out + r0*4], r1\n   add.u32 r0, r0, 1\n"
    "    mov.u32 r1, %local_size.z\n  st.global.u32 [%out + r0*4], r1\n   add.u32 r0, r0, 1\n"
    "    mov.u32 r1, %enqueued_local_size.x\n st.global.u32 [%out + r0*4], r1\n add.u32 r0, r0, 1\n"
    "    mov.u32 r1, %num_groups.y\n  st.global.u32 [%out + r0*4], r1\n   add.u32 r0, r0, 1\n"
    "    mov.u32 r1, %global_offset.z\n st.global.u32 [%out + r0*4], r1\n add.u32 r0, r0, 1\n"
    "    mov.u32 r1, %work_dim\n      st.global.u32 [%out + r0*4], r1\n   add.u32 r0, r0, 1\n"
    "    mov.u32 r1, %local_linear_id\n st.global.u32 [%out + r0*4], r1\n add.u32 r0, r0, 1\n"
    "    mov.u32 r1, %global_size.z\n st.global.u32 [%out + r0*4], r1\n   add.u32 r0, r0, 1\n"
    "    mov.u32 r1, %sub_group_id\n  st.global.u32 [%out + r0*4], r1\n   add.u32 r0, r0, 1\n"
    "    mov.u32 r1, %sub_group_local_id\n st.global.u32 [%out + r0*4], r1\n"
    "    ret\n";

static void check_ids(const isa_kernel *k, uint32_t dims, const uint64_t G[3],
                      const uint64_t Lsz[3], const uint64_t off[3], uint32_t S)
{
    uint64_t n = G[0] * G[1] * G[2];
    sgemu_argval v = buffer(n * 20 * 4);
    sgemu_launch la;
    memset(&la, 0, sizeof la);
    la.dims = dims;
    for (int d = 0; d < 3; d++) {
        la.global[d] = G[d];
        la.local[d] = Lsz[d];
        la.offset[d] = off[d];
    }
    la.local_given = true;
    la.sg_width = S;
    la.max_instructions = 10000000;
    sgemu_stats st;
    sgemu_fault f;
    int rc = sgemu_run(k, &cfg, &la, &v, &st, &f);
    if (rc)
        fprintf(stderr, "%s\n", f.msg);
    assert_int_equal(rc, 0);
    const uint32_t *o = (const uint32_t *)v.data;
    uint64_t ng[3];
    for (int d = 0; d < 3; d++)
        ng[d] = (G[d] + Lsz[d] - 1) / Lsz[d];
    for (uint64_t z = 0; z < G[2]; z++)
        for (uint64_t y = 0; y < G[1]; y++)
            for (uint64_t x = 0; x < G[0]; x++) {
                uint64_t gl = x + y * G[0] + z * G[0] * G[1];
                const uint32_t *r = o + gl * 20;
                uint64_t grp[3] = { x / Lsz[0], y / Lsz[1], z / Lsz[2] };
                uint64_t lid[3] = { x % Lsz[0], y % Lsz[1], z % Lsz[2] };
                uint64_t lsz[3];
                uint64_t gid[3] = { x, y, z };
                for (int d = 0; d < 3; d++) {
                    /* the trailing group along d holds what is left */
                    uint64_t left = G[d] - grp[d] * Lsz[d];
                    lsz[d] = left < Lsz[d] ? left : Lsz[d];
                }
                uint64_t llin = lid[0] + lid[1] * lsz[0] + lid[2] * lsz[0] * lsz[1];
                for (int d = 0; d < 3; d++) {
                    assert_int_equal(r[d], gid[d] + off[d]);
                    assert_int_equal(r[3 + d], lid[d]);
                    assert_int_equal(r[6 + d], grp[d]);
                    assert_int_equal(r[9 + d], lsz[d]);
                }
                assert_int_equal(r[12], Lsz[0]);
                assert_int_equal(r[13], ng[1]);
                assert_int_equal(r[14], off[2]);
                assert_int_equal(r[15], dims);
                assert_int_equal(r[16], llin);
                assert_int_equal(r[17], G[2]);
                assert_int_equal(r[18], llin / S);
                assert_int_equal(r[19], llin % S);
            }
    free(v.data);
}

static void test_ids_3d(void **state)
{
    (void)state;
    isa_kernel k;
    assemble(ids_src, &k);
    const uint64_t G1[3] = { 6, 4, 4 }, L1[3] = { 3, 2, 2 }, O0[3] = { 0, 0, 0 };
    const uint64_t G2[3] = { 7, 5, 3 }, L2[3] = { 2, 3, 2 }, O2[3] = { 10, 20, 30 };
    const uint64_t G3[3] = { 33, 1, 1 }, L3[3] = { 8, 1, 1 };
    const uint64_t G4[3] = { 9, 7, 1 }, L4[3] = { 4, 4, 1 }, O4[3] = { 5, 0, 0 };
    const uint32_t widths[] = { 1, 4, 8, 16 };
    for (size_t w = 0; w < 4; w++) {
        check_ids(&k, 3, G1, L1, O0, widths[w]);
        check_ids(&k, 3, G2, L2, O2, widths[w]);   /* partial groups in every dimension */
        check_ids(&k, 1, G3, L3, O0, widths[w]);
        check_ids(&k, 2, G4, L4, O4, widths[w]);
    }
    isa_kernel_free(&k);
}

/* ---------------------------------------------- divergence and loops */

/* out[i] = sum of 1..(i % 7) computed in a per-lane loop, plus 1000 for odd
 * i taken through a nested branch; lanes with i % 5 == 0 return early. */
static const char diverge_src[] =
    ".kernel diverge\n"
    ".arg out global i32\n"
    "    mov.u32 r0, %global_id.x\n"
    "    rem.u32 r1, r0, 5\n"
    "    cmp.eq.u32 p0, r1, 0\n"
    "    bra !p0, work\n"
    "    mov.i32 r9, -1\n"
    "    st.global.i32 [%out + r0*4], r9\n"
    "    ret\n"
    "work:\n"
    "    rem.u32 r2, r0, 7\n"
    "    mov.i32 r3, 0\n"
    "loop:\n"
    "    cmp.eq.u32 p1, r2, 0\n"
    "    bra p1, after\n"
    "    add.i32 r3, r3, r2\n"
    "    sub.u32 r2, r2, 1\n"
    "    bra loop\n"
    "after:\n"
    "    and.u32 r4, r0, 1\n"
    "    cmp.ne.u32 p2, r4, 0\n"
    "    bra !p2, store\n"
    "    rem.u32 r5, r0, 3\n"
    "    cmp.eq.u32 p3, r5, 0\n"
    "    bra p3, three\n"
    "    add.i32 r3, r3, 1000\n"
    "    bra store\n"
    "three:\n"
    "    add.i32 r3, r3, 3000\n"
    "store:\n"
    "    st.global.i32 [%out + r0*4], r3\n"
    "    ret\n";

static void test_divergence(void **state)
{
    (void)state;
    isa_kernel k;
    assemble(diverge_src, &k);
    const uint32_t widths[] = { 1, 4, 8, 16, 32, 64 };
    for (size_t w = 0; w < 6; w++) {
        enum { G = 200 };
        sgemu_argval v = buffer(G * 4);
        sgemu_launch la = launch1(G, 100, widths[w]);
        sgemu_stats st;
        sgemu_fault f;
        assert_int_equal(sgemu_run(&k, &cfg, &la, &v, &st, &f), 0);
        const int32_t *o = (const int32_t *)v.data;
        for (int i = 0; i < G; i++) {
            int32_t want;
            if (i % 5 == 0) {
                want = -1;
            } else {
                want = 0;
                for (int j = i % 7; j > 0; j--)
                    want += j;
                if (i & 1)
                    want += (i % 3 == 0) ? 3000 : 1000;
            }
            assert_int_equal(o[i], want);
        }
        /* divergence costs: partial masks mean fewer lane-ops than slots */
        if (widths[w] > 1)
            assert_true(st.lane_ops < st.lane_slots);
        free(v.data);
    }
    isa_kernel_free(&k);
}

/* ------------------------------------------------------------- faults */

static int run_fault(const char *src, sgemu_argval *args, uint32_t nargs, uint64_t G,
                     uint64_t L, uint32_t S, char *msg)
{
    isa_kernel k;
    assemble(src, &k);
    (void)nargs;
    sgemu_launch la = launch1(G, L, S);
    sgemu_stats st;
    sgemu_fault f;
    int rc = sgemu_run(&k, &cfg, &la, args, &st, &f);
    strcpy(msg, f.msg);
    isa_kernel_free(&k);
    return rc;
}

static void test_faults(void **state)
{
    (void)state;
    char msg[1024];
    sgemu_argval args[2];

    /* local memory: a 64-byte local argument, work-item 16 stores past it */
    args[0] = buffer(64);
    int rc = run_fault(".kernel lo\n.arg out global u32\n.arg tmp local u32\n"
                       "    mov.u32 r0, %local_id.x\n"
                       "    st.local.u32 [%tmp + r0*4], r0\n"
                       "    ret\n",
                       (sgemu_argval[]){ args[0], { .kind = SGEMU_VAL_LOCAL, .bytes = 64 } }, 2,
                       32, 32, 8, msg);
    assert_int_equal(rc, SGEMU_EXIT_FAULT);
    assert_non_null(strstr(msg, "out-of-bounds local store of 4 bytes"));
    assert_non_null(strstr(msg, "local address 0x40"));
    assert_non_null(strstr(msg, "test.sgasm:5:"));
    assert_non_null(strstr(msg, "work-item global (16,0,0) local (16,0,0)"));
    free(args[0].data);

    /* private memory: 16 bytes per work-item, index 4 is past it */
    rc = run_fault(".kernel pr\n.private_mem 16\n"
                   "    mov.u32 r0, %local_id.x\n"
                   "    st.private.u32 [r1 + 16], r0\n"
                   "    ret\n", NULL, 0, 8, 8, 8, msg);
    assert_int_equal(rc, SGEMU_EXIT_FAULT);
    assert_non_null(strstr(msg, "out-of-bounds private store"));
    assert_non_null(strstr(msg, "private address 0x10"));

    /* constant buffers are read-only (the assembler rejects a direct store
     * through %c; a pointer copied to a register is caught at run time) */
    args[0] = buffer(32);
    rc = run_fault(".kernel co\n.arg c constant u32\n"
                   "    mov.u32 r0, %global_id.x\n"
                   "    mov.u64 r2, %c\n"
                   "    st.global.u32 [r2 + r0*4], r0\n"
                   "    ret\n", args, 1, 8, 8, 8, msg);
    assert_int_equal(rc, SGEMU_EXIT_FAULT);
    assert_non_null(strstr(msg, "store to constant memory"));
    assert_non_null(strstr(msg, "buffer 'c'"));
    free(args[0].data);

    /* misaligned: a 4-byte load at byte offset 2 */
    args[0] = buffer(64);
    rc = run_fault(".kernel mis\n.arg a global u32\n"
                   "    ld.global.u32 r1, [%a + 2]\n"
                   "    ret\n", args, 1, 8, 8, 8, msg);
    assert_int_equal(rc, SGEMU_EXIT_FAULT);
    assert_non_null(strstr(msg, "misaligned global load"));
    free(args[0].data);

    /* a pointer that is no buffer at all */
    rc = run_fault(".kernel wild\n"
                   "    mov.u64 r1, 12345\n"
                   "    ld.global.u32 r2, [r1]\n"
                   "    ret\n", NULL, 0, 8, 8, 8, msg);
    assert_int_equal(rc, SGEMU_EXIT_FAULT);
    assert_non_null(strstr(msg, "not in any buffer"));

    /* integer division by zero */
    rc = run_fault(".kernel dz\n"
                   "    mov.u32 r0, %local_id.x\n"
                   "    div.u32 r1, 100, r0\n"
                   "    ret\n", NULL, 0, 8, 8, 8, msg);
    assert_int_equal(rc, SGEMU_EXIT_FAULT);
    assert_non_null(strstr(msg, "division by zero"));
    assert_non_null(strstr(msg, "local (0,0,0)"));
}

static void test_divergent_barriers(void **state)
{
    (void)state;
    char msg[1024];
    /* a barrier inside a branch only the even work-items take */
    int rc = run_fault(".kernel db\n"
                       "    mov.u32 r0, %local_id.x\n"
                       "    and.u32 r1, r0, 1\n"
                       "    cmp.eq.u32 p0, r1, 0\n"
                       "    bra !p0, out\n"
                       "    barrier.local\n"
                       "out:\n"
                       "    ret\n", NULL, 0, 16, 16, 8, msg);
    assert_int_equal(rc, SGEMU_EXIT_FAULT);
    assert_non_null(strstr(msg, "divergent barrier"));
    assert_non_null(strstr(msg, "lane 1"));

    /* sub-group 1 returns before the barrier that sub-group 0 waits at */
    rc = run_fault(".kernel db2\n"
                   "    mov.u32 r0, %sub_group_id\n"
                   "    cmp.eq.u32 p0, r0, 1\n"
                   "    bra p0, out\n"
                   "    barrier\n"
                   "out:\n"
                   "    ret\n", NULL, 0, 16, 16, 8, msg);
    assert_int_equal(rc, SGEMU_EXIT_FAULT);
    assert_non_null(strstr(msg, "sub-group 1 finished without reaching"));

    /* a barrier every work-item reaches is fine, even after divergence */
    rc = run_fault(".kernel ok\n"
                   "    mov.u32 r0, %local_id.x\n"
                   "    cmp.lt.u32 p0, r0, 3\n"
                   "    bra p0, skip\n"
                   "    add.u32 r0, r0, 1\n"
                   "skip:\n"
                   "    barrier.local.global\n"
                   "    ret\n", NULL, 0, 16, 16, 8, msg);
    assert_int_equal(rc, 0);
}

static void test_barrier_orders_local_memory(void **state)
{
    (void)state;
    /* every work-item writes its id, the barrier, then reads its mirror:
     * needs the barrier to hold across sub-groups */
    isa_kernel k;
    assemble(".kernel mirror\n.arg out global u32\n.local_mem 1024\n"
             "    mov.u32 r0, %local_id.x\n"
             "    mov.u32 r1, %local_size.x\n"
             "    st.local.u32 [r2 + r0*4], r0\n"      /* r2 = 0: local base */
             "    barrier.local\n"
             "    sub.u32 r3, r1, r0\n"
             "    sub.u32 r3, r3, 1\n"
             "    ld.local.u32 r4, [r2 + r3*4]\n"
             "    mov.u32 r5, %global_id.x\n"
             "    st.global.u32 [%out + r5*4], r4\n"
             "    ret\n", &k);
    const uint32_t widths[] = { 1, 8, 16, 32, 64 };
    for (size_t w = 0; w < 5; w++) {
        sgemu_argval v = buffer(200 * 4);
        sgemu_launch la = launch1(200, 100, widths[w]);
        sgemu_stats st;
        sgemu_fault f;
        assert_int_equal(sgemu_run(&k, &cfg, &la, &v, &st, &f), 0);
        const uint32_t *o = (const uint32_t *)v.data;
        for (int i = 0; i < 200; i++)
            assert_int_equal(o[i], 99 - (uint32_t)(i % 100));
        free(v.data);
    }
    isa_kernel_free(&k);
}

/* ------------------------------------------------- 16-byte vectors */

/* Each work-item loads the vector at element gid x vec of `in` and stores
 * it at element gid x ostep of `out` (ostep = vec: lanes adjacent; more:
 * gaps the store must leave untouched). */
static void vector_case(const char *type, uint32_t esize, uint32_t ostep)
{
    const uint32_t vec = 16 / esize, G = 200;
    char src[512];
    snprintf(src, sizeof src,
             ".kernel vec16\n.arg in global %s\n.arg out global %s\n"
             "    mov.u32 r0, %%global_id.x\n"
             "    mul.u32 r1, r0, %u\n"
             "    ld.global.%sx%u r8, [%%in + r1*%u]\n"
             "    mul.u32 r2, r0, %u\n"
             "    st.global.%sx%u [%%out + r2*%u], r8\n"
             "    ret\n",
             type, type, vec, type, vec, esize, ostep, type, vec, esize);
    isa_kernel k;
    assemble(src, &k);
    const uint32_t widths[] = { 1, 8, 16, 32, 64 };
    for (size_t wi = 0; wi < sizeof widths / sizeof *widths; wi++) {
        sgemu_argval v[2] = { buffer((size_t)G * 16), buffer((size_t)G * ostep * esize) };
        uint8_t *in = v[0].data;
        for (uint32_t i = 0; i < G * 16; i++)
            in[i] = (uint8_t)(i * 37 + 11);
        sgemu_launch la = launch1(G, 100, widths[wi]);   /* a partial sub-group too */
        sgemu_stats st;
        sgemu_fault f;
        assert_int_equal(sgemu_run(&k, &cfg, &la, v, &st, &f), 0);
        const uint8_t *out = v[1].data;
        for (uint32_t g = 0; g < G; g++)
            for (uint32_t b = 0; b < ostep * esize; b++)
                assert_int_equal(out[g * ostep * esize + b], b < 16 ? in[g * 16 + b] : 0);
        free(v[0].data);
        free(v[1].data);
    }
    isa_kernel_free(&k);
}

static void test_vectors_16_bytes(void **state)
{
    (void)state;
    vector_case("u16", 2, 8);
    vector_case("u16", 2, 12);
    vector_case("u32", 4, 4);
    vector_case("u32", 4, 6);
}

static void test_launch_errors(void **state)
{
    (void)state;
    isa_kernel k;
    assemble(".kernel req\n.reqd_sub_group_size 16\n    ret\n", &k);
    sgemu_launch la = launch1(64, 64, 8);
    sgemu_stats st;
    sgemu_fault f;
    assert_int_equal(sgemu_run(&k, &cfg, &la, NULL, &st, &f), SGEMU_EXIT_USER);
    assert_non_null(strstr(f.msg, "requires sub-group size 16"));
    la.sg_width = 0;             /* default: the kernel's required width */
    assert_int_equal(sgemu_run(&k, &cfg, &la, NULL, &st, &f), 0);
    assert_int_equal(st.sg_width, 16);
    la.sg_width = 16;
    la.local[0] = cfg.max_wg_size + 1;
    la.global[0] = la.local[0];
    assert_int_equal(sgemu_run(&k, &cfg, &la, NULL, &st, &f), SGEMU_EXIT_USER);
    isa_kernel_free(&k);
}

static int setup(void **state)
{
    (void)state;
    return load_test_config(&cfg) ? -1 : 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_membership),
        cmocka_unit_test(test_ids_3d),
        cmocka_unit_test(test_divergence),
        cmocka_unit_test(test_faults),
        cmocka_unit_test(test_divergent_barriers),
        cmocka_unit_test(test_barrier_orders_local_memory),
        cmocka_unit_test(test_launch_errors),
        cmocka_unit_test(test_vectors_16_bytes),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
