/* test_spirv_module.c - spv_translate on valid, corrupt and fuzzed modules:
 * clear errors, never a crash. */
#include "spirv.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

static uint32_t *load(const char *rel, size_t *len)
{
    char path[1024];
    const char *src = getenv("SGEMU_SRC");
    snprintf(path, sizeof path, "%s/%s", src ? src : ".", rel);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    static uint32_t buf[8192];
    *len = fread(buf, 1, sizeof buf, f);
    fclose(f);
    assert_true(*len > 20 && *len % 4 == 0);
    uint32_t *p = malloc(*len);
    memcpy(p, buf, *len);
    return p;
}

/* Translate; returns the error count and the first message in msg. */
static int xlate(const void *w, size_t len, const char *entry, char *msg, size_t n)
{
    isa_kernel k;
    isa_diags d;
    memset(&d, 0, sizeof d);
    int errs = spv_translate("t.spv", w, len, entry, &k, NULL, &d);
    if (msg)
        snprintf(msg, n, "%s", d.count ? d.items[0].msg : "");
    isa_diags_free(&d);
    if (!errs)
        isa_kernel_free(&k);
    return errs;
}

static void test_valid(void **state)
{
    (void)state;
    size_t len;
    uint32_t *w = load("examples/opencl/vector_add.spv", &len);
    isa_kernel k;
    isa_diags d;
    memset(&d, 0, sizeof d);
    bool unnamed = true;
    assert_int_equal(spv_translate("v.spv", w, len, NULL, &k, &unnamed, &d), 0);
    assert_false(unnamed);
    assert_string_equal(k.name, "vector_add");
    assert_int_equal(k.narg, 4);
    assert_string_equal(k.args[0].name, "a");
    assert_int_equal(k.args[0].kind, ISA_ARG_GLOBAL);
    assert_int_equal(k.args[0].type, ISA_T_F32);
    assert_int_equal(k.args[3].kind, ISA_ARG_SCALAR);
    assert_int_equal(k.args[3].type, ISA_T_U32);
    assert_true(k.ninst > 4);
    isa_kernel_free(&k);
    isa_diags_free(&d);
    /* the same module byte-swapped is read too */
    uint32_t *sw = malloc(len);
    for (size_t i = 0; i < len / 4; i++)
        sw[i] = __builtin_bswap32(w[i]);
    assert_int_equal(xlate(sw, len, "vector_add", NULL, 0), 0);
    free(sw);
    free(w);
}

static void test_unnamed(void **state)
{
    (void)state;
    size_t len;
    uint32_t *w = load("tests/spirv/vector_add_unnamed.spv", &len);
    isa_kernel k;
    isa_diags d;
    memset(&d, 0, sizeof d);
    bool unnamed = false;
    assert_int_equal(spv_translate("v.spv", w, len, NULL, &k, &unnamed, &d), 0);
    assert_true(unnamed);
    assert_string_equal(k.args[0].name, "arg0");
    assert_string_equal(k.args[3].name, "arg3");
    isa_kernel_free(&k);
    isa_diags_free(&d);
    free(w);
}

static void test_corrupt(void **state)
{
    (void)state;
    char msg[256];
    size_t len;
    uint32_t *w = load("examples/opencl/vector_add.spv", &len);
    uint32_t *c = malloc(len);

    memcpy(c, w, len);
    c[0] = 0x12345678;
    assert_int_equal(xlate(c, len, NULL, msg, sizeof msg), 1);
    assert_non_null(strstr(msg, "bad magic number"));

    assert_true(xlate(w, 12, NULL, msg, sizeof msg) > 0);
    assert_non_null(strstr(msg, "shorter than the 5-word header"));

    assert_true(xlate(w, len - 2, NULL, msg, sizeof msg) > 0);
    assert_non_null(strstr(msg, "not a whole number of words"));

    assert_true(xlate(w, len - 8, NULL, msg, sizeof msg) > 0);   /* cut mid-instruction */

    memcpy(c, w, len);
    c[5] = 0;      /* word count 0 */
    assert_true(xlate(c, len, NULL, msg, sizeof msg) > 0);
    assert_non_null(strstr(msg, "word count 0"));

    memcpy(c, w, len);
    c[3] = 5;      /* id bound too small for the ids used */
    assert_true(xlate(c, len, NULL, msg, sizeof msg) > 0);
    assert_non_null(strstr(msg, "out of bounds"));

    assert_true(xlate(w, len, "nope", msg, sizeof msg) > 0);
    assert_non_null(strstr(msg, "no kernel 'nope'"));
    free(c);
    free(w);
}

/* Random word and bit damage: any result is fine, crashing is not (run
 * under the sanitizers in CI). */
static void test_fuzz(void **state)
{
    (void)state;
    static const char *const files[] = { "examples/opencl/local_reduce.spv",
                                         "examples/opencl/stream_compaction.spv",
                                         "examples/opencl/wg_scan.spv" };
    uint64_t s = 12345;
    for (size_t fi = 0; fi < 3; fi++) {
        size_t len;
        uint32_t *w = load(files[fi], &len);
        uint32_t *c = malloc(len);
        for (int iter = 0; iter < 300; iter++) {
            memcpy(c, w, len);
            int nmut = 1 + iter % 4;
            for (int m = 0; m < nmut; m++) {
                s = s * 6364136223846793005ULL + 1442695040888963407ULL;
                size_t wi = 5 + (size_t)(s >> 33) % (len / 4 - 5);
                switch ((s >> 20) % 4) {
                case 0: c[wi] ^= 1u << ((s >> 8) % 32); break;
                case 1: c[wi] = (uint32_t)(s >> 13) % 64; break;
                case 2: c[wi] = (uint32_t)(s >> 7); break;
                default: c[wi] = (c[wi] & 0xffff) | ((uint32_t)((s >> 40) % 8) << 16); break;
                }
            }
            size_t cut = (iter % 7 == 0) ? len - 4 * ((s >> 50) % 8) : len;
            (void)xlate(c, cut, NULL, NULL, 0);
        }
        free(c);
        free(w);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_valid),
        cmocka_unit_test(test_unnamed),
        cmocka_unit_test(test_corrupt),
        cmocka_unit_test(test_fuzz),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
