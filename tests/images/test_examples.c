/* test_examples.c - the kernels of examples/images/ through sgemu_run,
 * compared with plain C references computed here. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "sgemu.h"
#include "test_args.h"
#include "test_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static emu_config cfg;

static int setup(void **state)
{
    (void)state;
    return load_test_config(&cfg);
}

static char *slurp(const char *rel, size_t *len)
{
    const char *root = getenv("SGEMU_SRC");
    char path[1024];
    snprintf(path, sizeof path, "%s/examples/images/%s", root ? root : ".", rel);
    return test_slurp(path, len);
}

static void load(const char *rel, isa_kernel *k)
{
    size_t n;
    char *src = slurp(rel, &n);
    isa_diags d;
    memset(&d, 0, sizeof d);
    int rc = isa_assemble(rel, src, n, k, &d);
    if (rc)
        isa_diags_print(&d, stderr);
    isa_diags_free(&d);
    free(src);
    assert_int_equal(rc, 0);
}

static void launch2(sgemu_launch *L, uint64_t gx, uint64_t gy, uint64_t lx, uint64_t ly)
{
    memset(L, 0, sizeof *L);
    L->dims = 2;
    L->global[0] = gx;
    L->global[1] = gy;
    L->local[0] = lx;
    L->local[1] = ly;
    L->local_given = lx != 0;
    L->max_instructions = 100000000;
}

static void expect_run(const isa_kernel *k, const sgemu_launch *L, sgemu_argval *a)
{
    sgemu_stats st;
    sgemu_fault f;
    int rc = sgemu_run(k, &cfg, L, a, &st, &f);
    if (rc)
        fprintf(stderr, "%s\n", f.msg);
    assert_int_equal(rc, 0);
}

static void test_transpose16(void **state)
{
    (void)state;
    isa_kernel k;
    load("transpose16.sgasm", &k);
    for (uint32_t N = 8; N <= 40; N += 16) {
        uint16_t *in = malloc((size_t)N * N * 2), *out = calloc((size_t)N * N, 2);
        for (uint32_t i = 0; i < N * N; i++)
            in[i] = (uint16_t)(i * 2654435761u >> 7);
        sgemu_argval a[4] = {
            arg_image(SGEMU_ORDER_R, SGEMU_CHTYPE_UNSIGNED_INT16, N, N, (uint8_t *)in),
            arg_buffer(out, (size_t)N * N * 2), arg_scalar(N), { 0 },
        };
        a[3].kind = SGEMU_VAL_LOCAL;
        a[3].bytes = 128;
        sgemu_launch L;
        launch2(&L, N, N / 8, 8, 1);
        expect_run(&k, &L, a);
        for (uint32_t r = 0; r < N; r++)
            for (uint32_t c = 0; c < N; c++)
                assert_int_equal(out[r * N + c], in[c * N + r]);
        free(in);
        free(out);
    }
    isa_kernel_free(&k);
}

static void test_gemm_tile(void **state)
{
    (void)state;
    isa_kernel k;
    load("gemm_tile.sgasm", &k);
    const uint32_t M = 16, K = 24, N = 32;
    float *A = malloc(M * K * 4), *B = malloc(K * N * 4), *C = calloc(M * N, 4);
    /* small integers: every product and sum is exact in f32 */
    for (uint32_t i = 0; i < M * K; i++)
        A[i] = (float)((i * 7 + 3) % 9) - 4.0f;
    for (uint32_t i = 0; i < K * N; i++)
        B[i] = (float)((i * 5 + 1) % 7) - 3.0f;
    sgemu_argval a[5] = { arg_buffer(A, M * K * 4), arg_buffer(B, K * N * 4),
                          arg_buffer(C, M * N * 4), arg_scalar(K), arg_scalar(N) };
    sgemu_launch L;
    launch2(&L, N, M / 8, 8, 1);
    expect_run(&k, &L, a);
    for (uint32_t r = 0; r < M; r++)
        for (uint32_t c = 0; c < N; c++) {
            float s = 0;
            for (uint32_t i = 0; i < K; i++)
                s += A[r * K + i] * B[i * N + c];
            assert_true(C[r * N + c] == s);
        }
    free(A);
    free(B);
    free(C);
    isa_kernel_free(&k);
}

/* The example's PGM, parsed here (P5, one comment line allowed). */
static uint8_t *load_pgm(uint32_t *w, uint32_t *h)
{
    size_t n;
    char *p = slurp("pattern.pgm", &n);
    char *s = p + 2;
    unsigned vals[3], got = 0;
    while (got < 3) {
        while (*s == ' ' || *s == '\n' || *s == '\r' || *s == '\t')
            s++;
        if (*s == '#') {
            while (*s != '\n')
                s++;
            continue;
        }
        vals[got++] = (unsigned)strtoul(s, &s, 10);
    }
    s++;
    assert_int_equal(vals[2], 255);
    *w = vals[0];
    *h = vals[1];
    uint8_t *img = malloc((size_t)*w * *h);
    memcpy(img, s, (size_t)*w * *h);
    free(p);
    return img;
}

static void test_box_filter(void **state)
{
    (void)state;
    isa_kernel k;
    load("box_filter.sgasm", &k);
    uint32_t w, h;
    uint8_t *src = load_pgm(&w, &h);
    uint8_t *dst = calloc((size_t)w * h, 1);
    sgemu_argval a[2] = { arg_image(SGEMU_ORDER_R, SGEMU_CHTYPE_UNSIGNED_INT8, w, h, src),
                          arg_image(SGEMU_ORDER_R, SGEMU_CHTYPE_UNSIGNED_INT8, w, h, dst) };
    sgemu_launch L;
    launch2(&L, w, h, 0, 0);
    expect_run(&k, &L, a);
    for (int y = 0; y < (int)h; y++)
        for (int x = 0; x < (int)w; x++) {
            unsigned s = 4;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    int xx = x + dx < 0 ? 0 : x + dx >= (int)w ? (int)w - 1 : x + dx;
                    int yy = y + dy < 0 ? 0 : y + dy >= (int)h ? (int)h - 1 : y + dy;
                    s += src[yy * (int)w + xx];
                }
            assert_int_equal(dst[y * (int)w + x], s / 9);
        }
    free(src);
    free(dst);
    isa_kernel_free(&k);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_transpose16),
        cmocka_unit_test(test_gemm_tile),
        cmocka_unit_test(test_box_filter),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
