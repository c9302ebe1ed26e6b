/* test_spirv_opt.c - the SPIR-V front end's clean-up passes (branch
 * inversion, mul+add -> mad, copy coalescing in isa/peephole.c): OpenCL C
 * kernels whose translation exercises each of them (if/else, loops whose
 * phi copies fold, a swap loop whose copies clash, loop counters compared
 * before and after their increment, a multiply with two readers, float arithmetic) give
 * the values computed here in C, the same bytes as the untouched stream
 * (SGEMU_SPV_OPT=0), and fewer static and executed instructions.  Skipped
 * without clang-14 / llvm-spirv-14. */
#include "sgemu.h"
#include "spirv.h"
#include "test_args.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

static emu_config cfg;
static char tmpdir[64];
static uint8_t spv[1 << 16];
static size_t spv_len;

static const char cl_src[] =
    "kernel void mix(global uint *out, global const uint *in, uint n)\n"
    "{\n"
    "    uint i = get_global_id(0);\n"
    "    uint a = in[i], b = in[(i + 1) % n];\n"
    "    uint x = a * 2654435761u + b;\n"          /* one reader: mad */
    "    uint m = a * b;\n"                        /* two readers: stays mul */
    "    uint y = m + 7u, z = m ^ y;\n"
    "    uint p = a, q = b;\n"
    "    for (uint k = 0; k < (a & 15u); k++) {\n"  /* swap-like phi copies */
    "        uint t = p;\n"
    "        p = q + k;\n"
    "        q = t ^ p;\n"
    "    }\n"
    "    uint s = 0, c = 0;\n"
    "    while (c < (b & 7u)) {\n"                 /* counter read after ++ */
    "        c++;\n"
    "        s = s * 3u + c;\n"
    "    }\n"
    "    uint h = a;\n"
    "    for (int k = 0; k < 40; k++) {\n"           /* latch compares k, then k++ */
    "        h = (h ^ (h >> 7)) * 5u + (uint)k;\n"
    "        h ^= h << 3;\n"
    "        h = h * 9u + (h >> 11) + 0x1234567u;\n"
    "    }\n"
    "    uint r;\n"
    "    if (a & 1u)\n"
    "        r = x - z;\n"
    "    else\n"
    "        r = x + p;\n"
    "    float f = (float)(a & 0xffffu) * 0.5f + 2.0f;\n"
    "    out[i * 6 + 0] = x;\n"
    "    out[i * 6 + 1] = z;\n"
    "    out[i * 6 + 2] = p ^ q;\n"
    "    out[i * 6 + 3] = r;\n"
    "    out[i * 6 + 4] = s + c + h;\n"
    "    out[i * 6 + 5] = as_uint(f);\n"
    "}\n"
    /* 64-bit ids narrowed to uint: folded where the wide value is set once,
     * kept for the loop's 64-bit induction variable */
    "kernel void nar(global uint *out, global const uint *in, uint n)\n"
    "{\n"
    "    uint i = get_global_id(0);\n"
    "    if (i < n) {\n"
    "        uint acc = 0;\n"
    "        for (ulong j = get_global_id(0); j < n; j += 37)\n"
    "            acc = acc * 3u + in[(uint)j];\n"
    "        out[i] = acc + in[i] + (uint)get_local_id(0);\n"
    "    }\n"
    "}\n";

enum { N = 200, NOUT = 6 };

static void ref(const uint32_t *in, uint32_t i, uint32_t *o)
{
    const uint32_t a = in[i], b = in[(i + 1) % N];
    const uint32_t x = a * 2654435761u + b, m = a * b, y = m + 7u, z = m ^ y;
    uint32_t p = a, q = b;
    for (uint32_t k = 0; k < (a & 15u); k++) {
        const uint32_t t = p;
        p = q + k;
        q = t ^ p;
    }
    uint32_t s = 0, c = 0;
    while (c < (b & 7u)) {
        c++;
        s = s * 3u + c;
    }
    uint32_t h = a;
    for (int k = 0; k < 40; k++) {
        h = (h ^ (h >> 7)) * 5u + (uint32_t)k;
        h ^= h << 3;
        h = h * 9u + (h >> 11) + 0x1234567u;
    }
    /* exact in binary32: (a & 0xffff) / 2 + 2 needs at most 17 bits */
    const float f = (float)(a & 0xffffu) * 0.5f + 2.0f;
    uint32_t fb;
    memcpy(&fb, &f, 4);
    const uint32_t want[NOUT] = { x, z, p ^ q, (a & 1u) ? x - z : x + p, s + c + h, fb };
    memcpy(o, want, sizeof want);
}

static bool compile(void)
{
    char cmd[1024], path[128];
    snprintf(path, sizeof path, "%s/k.cl", tmpdir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(cl_src, f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "clang-14 -c -cl-std=CL2.0 -target spir64 -emit-llvm -O2 "
             "%s/k.cl -o %s/k.bc && llvm-spirv-14 %s/k.bc -o %s/k.spv",
             tmpdir, tmpdir, tmpdir, tmpdir);
    if (system(cmd) != 0)
        return false;
    snprintf(path, sizeof path, "%s/k.spv", tmpdir);
    f = fopen(path, "rb");
    assert_non_null(f);
    spv_len = fread(spv, 1, sizeof spv, f);
    fclose(f);
    return spv_len > 20;
}

static void translate_entry(const char *entry, bool opt, isa_kernel *k)
{
    if (!opt)
        setenv("SGEMU_SPV_OPT", "0", 1);
    isa_diags d;
    memset(&d, 0, sizeof d);
    int errs = spv_translate("k.spv", spv, spv_len, entry, k, NULL, &d);
    unsetenv("SGEMU_SPV_OPT");
    if (errs)
        isa_diags_print(&d, stderr);
    isa_diags_free(&d);
    assert_int_equal(errs, 0);
}

static void translate(bool opt, isa_kernel *k)
{
    translate_entry("mix", opt, k);
}

/* Run k over N items at width: out (out_words words, zeroed first), in (N
 * words), n as the scalar, work-groups of `local`; the instructions executed. */
static uint64_t launch(const isa_kernel *k, uint32_t width, uint32_t *out, size_t out_words,
                       const uint32_t *in, uint32_t n, uint32_t local)
{
    memset(out, 0, out_words * 4);
    sgemu_argval a[3];
    memset(a, 0, sizeof a);
    a[0].kind = a[1].kind = SGEMU_VAL_BUFFER;
    a[0].data = (uint8_t *)out;
    a[0].bytes = out_words * 4;
    a[1].data = (uint8_t *)(uintptr_t)in;
    a[1].bytes = N * 4;
    a[2].kind = SGEMU_VAL_SCALAR;
    a[2].scalar = n;
    sgemu_launch L = launch_1d(N, local, width);
    L.threads = 1;
    sgemu_stats st;
    sgemu_fault f;
    int rc = sgemu_run(k, &cfg, &L, a, &st, &f);
    if (rc)
        fprintf(stderr, "run: %s\n", f.msg);
    assert_int_equal(rc, 0);
    const uint64_t ninst = st.instructions;
    sgemu_stats_free(&st);
    return ninst;
}

static uint64_t run(const isa_kernel *k, uint32_t width, uint32_t *out, const uint32_t *in)
{
    return launch(k, width, out, N * NOUT, in, N, 40);   /* partial sub-groups at every width */
}

static unsigned count_op(const isa_kernel *k, isa_opcode op, isa_type t)
{
    unsigned n = 0;
    for (uint32_t i = 0; i < k->ninst; i++)
        n += k->inst[i].op == op && (t == ISA_T_NONE || k->inst[i].type == t);
    return n;
}

static void test_same_values_fewer_instructions(void **state)
{
    (void)state;
    if (!compile()) {
        fprintf(stderr, "no clang-14/llvm-spirv-14: skipped\n");
        skip();
    }
    isa_kernel ko, kp;
    translate(true, &ko);
    translate(false, &kp);
    /* static: shorter, the integer mul+add fused, the two-reader mul and
     * the float multiply kept, no `bra p, L; bra M; L:` left */
    assert_true(ko.ninst < kp.ninst);
    assert_true(count_op(&ko, ISA_OP_MAD, ISA_T_U32) > count_op(&kp, ISA_OP_MAD, ISA_T_U32));
    assert_true(count_op(&ko, ISA_OP_MUL, ISA_T_U32) >= 1);
    assert_int_equal(count_op(&ko, ISA_OP_MAD, ISA_T_F32), count_op(&kp, ISA_OP_MAD, ISA_T_F32));
    assert_true(count_op(&ko, ISA_OP_MOV, ISA_T_NONE) < count_op(&kp, ISA_OP_MOV, ISA_T_NONE));
    for (uint32_t i = 0; i + 1 < ko.ninst; i++) {
        const isa_inst *a = &ko.inst[i], *b = &ko.inst[i + 1];
        assert_false(a->op == ISA_OP_BRA && a->nopnd == 2 && a->target == i + 2 &&
                     b->op == ISA_OP_BRA && b->nopnd == 1);
    }
    static uint32_t in[N], o1[N * NOUT], o2[N * NOUT];
    uint64_t r = 0x2545f4914f6cdd1dull;
    for (int i = 0; i < N; i++) {
        r ^= r << 13;
        r ^= r >> 7;
        r ^= r << 17;
        in[i] = (uint32_t)(r >> 11);
    }
    static const uint32_t widths[] = { 8, 16, 32 };
    for (int w = 0; w < 3; w++) {
        const uint64_t no = run(&ko, widths[w], o1, in);
        const uint64_t np = run(&kp, widths[w], o2, in);
        assert_true(no < np);
        assert_memory_equal(o1, o2, sizeof o1);
        for (uint32_t i = 0; i < N; i++) {
            uint32_t want[NOUT];
            ref(in, i, want);
            for (int j = 0; j < NOUT; j++)
                if (o1[i * NOUT + j] != want[j])
                    fail_msg("S=%u item %u slot %d: %#x, want %#x", widths[w], i, j,
                             o1[i * NOUT + j], want[j]);
        }
    }
    isa_kernel_free(&ko);
    isa_kernel_free(&kp);
}

static uint64_t run_nar(const isa_kernel *k, uint32_t width, uint32_t *out, const uint32_t *in)
{
    return launch(k, width, out, N, in, N - 7, 50);       /* the last items skip the body */
}

static void test_narrowed_ids(void **state)
{
    (void)state;
    if (!spv_len && !compile()) {
        fprintf(stderr, "no clang-14/llvm-spirv-14: skipped\n");
        skip();
    }
    isa_kernel ko, kp;
    translate_entry("nar", true, &ko);
    translate_entry("nar", false, &kp);
    assert_true(ko.ninst < kp.ninst);
    static uint32_t in[N], o1[N], o2[N];
    for (uint32_t i = 0; i < N; i++)
        in[i] = 0x9e3779b9u * (i + 3);
    static const uint32_t widths[] = { 8, 16, 32 };
    for (int w = 0; w < 3; w++) {
        assert_true(run_nar(&ko, widths[w], o1, in) < run_nar(&kp, widths[w], o2, in));
        assert_memory_equal(o1, o2, sizeof o1);
        for (uint32_t i = 0; i < N; i++) {
            uint32_t want = 0;
            if (i < N - 7) {
                uint32_t acc = 0;
                for (uint64_t j = i; j < N - 7; j += 37)
                    acc = acc * 3u + in[j];
                want = acc + in[i] + i % 50;
            }
            if (o1[i] != want)
                fail_msg("S=%u item %u: %#x, want %#x", widths[w], i, o1[i], want);
        }
    }
    isa_kernel_free(&ko);
    isa_kernel_free(&kp);
}

static int setup(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/sgemu-spvopt-XXXXXX");
    if (!mkdtemp(tmpdir))
        return -1;
    return load_test_config(&cfg) ? -1 : 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_values_fewer_instructions),
        cmocka_unit_test(test_narrowed_ids),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
