/* test_images_cli.c - image arguments through the CLI: a PGM in, the box
 * filter, a PGM out per width (with the .sgW suffix before the extension),
 * compared with a 3x3 mean computed here from the same PGM. */
#include "cli_harness.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

/* Read a binary 8-bit PGM (P5, maxval 255; comments allowed in the header). */
static uint8_t *read_pgm(const char *path, int *w, int *h)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char tok[4][32];
    int n = 0, c;
    while (n < 4) {
        c = fgetc(f);
        if (c == '#') {
            while ((c = fgetc(f)) != '\n' && c != EOF)
                ;
            continue;
        }
        if (c == EOF)
            break;
        if (c == ' ' || c == '\n' || c == '\t' || c == '\r')
            continue;
        int k = 0;
        tok[n][k++] = (char)c;
        while ((c = fgetc(f)) != EOF && c != ' ' && c != '\n' && c != '\t' && c != '\r' && k < 31)
            tok[n][k++] = (char)c;
        tok[n][k] = 0;
        n++;
    }
    if (n < 4 || strcmp(tok[0], "P5") || strcmp(tok[3], "255")) {
        fclose(f);
        return NULL;
    }
    *w = atoi(tok[1]);
    *h = atoi(tok[2]);
    uint8_t *px = malloc((size_t)*w * *h);
    if (fread(px, 1, (size_t)*w * *h, f) != (size_t)*w * *h) {
        free(px);
        px = NULL;
    }
    fclose(f);
    return px;
}

static void test_box_filter_pgm(void **state)
{
    (void)state;
    char in[512];
    snprintf(in, sizeof in, "%s/examples/images/pattern.pgm", cli_src());
    int w, h;
    uint8_t *src = read_pgm(in, &w, &h);
    assert_non_null(src);
    char dir[] = "/tmp/sgemu-img-XXXXXX";
    assert_non_null(mkdtemp(dir));
    cli_result r = cli_run("run examples/images/box_filter.sgasm --sg 8,16,32 --global %d,%d "
                           "--arg src=image2d:@examples/images/pattern.pgm "
                           "--arg dst=image2d:%dx%d:CL_R:CL_UNSIGNED_INT8:zeros "
                           "--out dst=%s/blur.pgm", w, h, w, h, dir);
    if (r.status)
        fprintf(stderr, "%s\n", r.err);
    assert_int_equal(r.status, 0);
    cli_result_free(&r);
    const unsigned widths[] = { 8, 16, 32 };
    for (int i = 0; i < 3; i++) {
        char out[256];
        snprintf(out, sizeof out, "%s/blur.sg%u.pgm", dir, widths[i]);
        int ow, oh;
        uint8_t *dst = read_pgm(out, &ow, &oh);
        assert_non_null(dst);
        assert_int_equal(ow, w);
        assert_int_equal(oh, h);
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                unsigned sum = 4;
                for (int dy = -1; dy <= 1; dy++)
                    for (int dx = -1; dx <= 1; dx++) {
                        int xx = x + dx < 0 ? 0 : x + dx >= w ? w - 1 : x + dx;
                        int yy = y + dy < 0 ? 0 : y + dy >= h ? h - 1 : y + dy;
                        sum += src[yy * w + xx];
                    }
                assert_int_equal(dst[y * w + x], sum / 9);
            }
        free(dst);
        unlink(out);
    }
    rmdir(dir);
    free(src);
}

static void test_image_printing(void **state)
{
    (void)state;
    /* iota fills element i with i (per channel); --out prints rows */
    cli_result r = cli_run("run examples/images/box_filter.sgasm --global 4,2 --sg 8 "
                           "--arg src=image2d:4x2:CL_R:CL_UNSIGNED_INT8:iota "
                           "--arg dst=image2d:4x2:CL_R:CL_UNSIGNED_INT8:zeros --out src");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "0 1 2 3\n4 5 6 7\n"));
    cli_result_free(&r);
    r = cli_run("run examples/images/box_filter.sgasm --global 4,2 "
                "--arg src=image2d:4x2:CL_R:CL_BOGUS:zeros "
                "--arg dst=image2d:4x2:CL_R:CL_UNSIGNED_INT8:zeros");
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "CL_BOGUS"));
    cli_result_free(&r);
}

/* An OpenCL C kernel's read_imagei and write_imagei on CL_SIGNED_INT8
 * images (OpenCL 1.2, 6.12.14.4: write_imagei converts to the channel
 * type with saturation): iota gives channel c of texel i the value
 * 4 i + c, the kernel writes 9 v - 100, saturated to [-128, 127]. */
static void test_signed_image_cl(void **state)
{
    (void)state;
    cli_result r = cli_run("run tests/images/signed_image.cl --global 8 --no-timing "
                           "--arg s=image2d:8x1:CL_RGBA:CL_SIGNED_INT8:iota "
                           "--arg d=image2d:8x1:CL_RGBA:CL_SIGNED_INT8:zeros --out d");
    if (r.status != 0)
        fprintf(stderr, "%s\n", r.err);
    assert_int_equal(r.status, 0);
    char want[512];
    size_t n = 0;
    for (int i = 0; i < 8; i++)
        for (int c = 0; c < 4; c++) {
            int v = 9 * (4 * i + c) - 100;
            v = v < -128 ? -128 : v > 127 ? 127 : v;
            n += (size_t)snprintf(want + n, sizeof want - n, "%d%s", v,
                                  c < 3 ? "," : i < 7 ? " " : "\n");
        }
    assert_non_null(strstr(r.out, want));
    cli_result_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_box_filter_pgm),
        cmocka_unit_test(test_image_printing),
        cmocka_unit_test(test_signed_image_cl),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
