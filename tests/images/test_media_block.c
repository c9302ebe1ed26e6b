/* test_media_block.c - cl_intel_media_block_io's media block reads and writes
 * (intel_sub_group_media_block_read/write_{uc,us,ui}), run end to end
 * (assembler + engine + collectives) and compared with a reference written
 * here from the extension's text, lane by lane:
 *   the block is `width` elements (of the builtin's size E) by `height` rows
 *   at byte x, row y; its elements taken in row-major order are laid out
 *   in rows of S, so component k of sub-group local id i is block element
 *   e = k * S + i, at byte x + (e % width) * E of row y + e / width;
 *   elements past width * height are undefined (sgemu: 0); out of the
 *   image a read gives the nearest edge element's byte at the same place in
 *   the element (image elements no wider than E), a write is dropped.
 * Also: the errors, the assembler's diagnostics, one block's exact cycles
 * and the OpenCL C path (header, llvm-spirv-14, the SPIR-V front end). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "test_kernel.h"
#include "test_image_run.h"
#include "test_args.h"

#include "sgemu.h"
#include "timing.h"   /* TM_LEVEL_* */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static emu_config cfg;

static int setup(void **state)
{
    (void)state;
    return load_test_config(&cfg);
}

/* The builtins: suffix, asm type, element bytes E, largest vector. */
typedef struct variant {
    const char *suffix, *type;
    uint32_t es, maxvec;
} variant;

static const variant variants[] = {
    { "_uc", "u8", 1, 16 }, { "_us", "u16", 2, 16 }, { "_ui", "u32", 4, 8 },
};

/* Image formats by element size. */
typedef struct fmt {
    sgemu_channel_order order;
    sgemu_channel_type type;
    uint32_t eb;
} fmt;

static const fmt fmts[] = {
    { SGEMU_ORDER_R, SGEMU_CHTYPE_UNSIGNED_INT8, 1 },
    { SGEMU_ORDER_R, SGEMU_CHTYPE_UNSIGNED_INT16, 2 },
    { SGEMU_ORDER_RGBA, SGEMU_CHTYPE_UNORM_INT8, 4 },
};

static sgemu_argval image(const fmt *fm, uint32_t w, uint32_t h, uint32_t seed)
{
    sgemu_argval v;
    memset(&v, 0, sizeof v);
    v.kind = SGEMU_VAL_IMAGE;
    v.image.width = w;
    v.image.height = h;
    v.image.pitch = w * fm->eb + 12;           /* padded rows */
    v.image.order = (uint8_t)fm->order;
    v.image.chtype = (uint8_t)fm->type;
    v.image.elem_bytes = fm->eb;
    v.image.data = bytes_pattern((size_t)v.image.pitch * h, seed);
    return v;
}

/* Byte (X, Y) of the image a read returns: inside, the byte; outside, the
 * nearest edge element's byte at the same place within the element. */
static uint8_t ref_byte(const sgemu_image *im, long X, long Y)
{
    long eb = im->elem_bytes;
    long e = X >= 0 ? X / eb : -((-X + eb - 1) / eb), o = X - e * eb;
    if (e < 0) e = 0;
    if (e >= (long)im->width) e = (long)im->width - 1;
    if (Y < 0) Y = 0;
    if (Y >= (long)im->height) Y = (long)im->height - 1;
    return im->data[(size_t)Y * im->pitch + (size_t)(e * eb + o)];
}

static void tmod(char *b, size_t n, const variant *v, uint32_t vec)
{
    if (vec > 1)
        snprintf(b, n, "%sx%u", v->type, vec);
    else
        snprintf(b, n, "%s", v->type);
}

static int run_src(const char *src, uint32_t S, sgemu_argval *args, sgemu_fault *f)
{
    isa_kernel k;
    test_assemble("mb.sgasm", src, &k);
    sgemu_launch L = launch_1d(S, S, S);
    L.max_instructions = 100000;
    sgemu_stats st;
    int rc = sgemu_run(&k, &cfg, &L, args, &st, f);
    if (rc == 0)
        sgemu_stats_free(&st);
    isa_kernel_free(&k);
    return rc;
}

/* One media block read of w x h at (x, y) by one sub-group of S; the
 * values every lane got are checked against the definition. */
static int read_case(const variant *v, const fmt *fm, uint32_t S, uint32_t vec, uint32_t w,
                     uint32_t h, int x, int y, uint32_t iw, uint32_t ih, sgemu_fault *f)
{
    char t[16], src[1024];
    tmod(t, sizeof t, v, vec);
    snprintf(src, sizeof src,
        ".kernel mr\n.arg img image2d read_only\n.arg dst global %s\n.arg x0 i32\n.arg y0 i32\n"
        "  mov.i32 r0, %%x0\n"
        "  mov.i32 r1, %%y0\n"
        "  intel_sub_group_media_block_read%s.%s r8, %%img, r0, %u, %u\n"
        "  mov.u32 r2, %%global_id.x\n"
        "  mul.u32 r2, r2, %u\n"
        "  st.global.%s [%%dst + r2*%u], r8\n"
        "  ret\n", v->type, v->suffix, t, w, h, vec, t, v->es);
    size_t dbytes = (size_t)S * vec * v->es;
    uint8_t *d = bytes_pattern(dbytes, 99);
    sgemu_argval a[4] = { image(fm, iw, ih, S * 7 + vec + w + (uint32_t)x), arg_buffer(d, dbytes),
                          arg_scalar((uint32_t)x), arg_scalar((uint32_t)y) };
    int rc = run_src(src, S, a, f);
    if (rc == 0)
        for (uint32_t i = 0; i < S; i++)
            for (uint32_t k = 0; k < vec; k++) {
                const uint32_t e = k * S + i;
                for (uint32_t b = 0; b < v->es; b++) {
                    uint8_t want = e < w * h
                        ? ref_byte(&a[0].image, (long)x + (long)(e % w) * v->es + b,
                                   (long)y + e / w)
                        : 0;
                    uint8_t got = d[((size_t)i * vec + k) * v->es + b];
                    if (want != got) {
                        fprintf(stderr, "media read%s.x%u S=%u %ux%u eb=%u at (%d,%d): lane %u "
                                "component %u byte %u: want %u got %u\n", v->suffix, vec, S, w,
                                h, fm->eb, x, y, i, k, b, want, got);
                        fail();
                    }
                }
            }
    free(a[0].image.data);
    free(d);
    return rc;
}

/* One media block write: lane i's component k is s[i * vec + k]; the image
 * afterwards must equal its old bytes with block element e = k * S + i
 * (e < w * h) stored at byte x + (e % w) * E of row y + e / w where that
 * is inside. */
static int write_case(const variant *v, const fmt *fm, uint32_t S, uint32_t vec, uint32_t w,
                      uint32_t h, int x, int y, uint32_t iw, uint32_t ih, sgemu_fault *f)
{
    char t[16], src[1024];
    tmod(t, sizeof t, v, vec);
    snprintf(src, sizeof src,
        ".kernel mw\n.arg img image2d write_only\n.arg s global %s\n.arg x0 i32\n.arg y0 i32\n"
        "  mov.u32 r2, %%global_id.x\n"
        "  mul.u32 r2, r2, %u\n"
        "  ld.global.%s r8, [%%s + r2*%u]\n"
        "  mov.i32 r0, %%x0\n"
        "  mov.i32 r1, %%y0\n"
        "  intel_sub_group_media_block_write%s.%s %%img, r0, %u, %u, r8\n"
        "  ret\n", v->type, vec, t, v->es, v->suffix, t, w, h);
    size_t sbytes = (size_t)S * vec * v->es;
    uint8_t *s = bytes_pattern(sbytes, 5 + vec);
    sgemu_argval a[4] = { image(fm, iw, ih, S + 3 * vec + w), arg_buffer(s, sbytes),
                          arg_scalar((uint32_t)x), arg_scalar((uint32_t)y) };
    const sgemu_image *im = &a[0].image;
    size_t ibytes = (size_t)im->pitch * ih;
    uint8_t *want = malloc(ibytes);
    memcpy(want, im->data, ibytes);
    for (uint32_t i = 0; i < S; i++)
        for (uint32_t k = 0; k < vec; k++) {
            const uint32_t e = k * S + i;
            if (e >= w * h)
                continue;
            for (uint32_t b = 0; b < v->es; b++) {
                long X = (long)x + (long)(e % w) * v->es + b, Y = (long)y + e / w;
                if (X >= 0 && X < (long)(iw * fm->eb) && Y >= 0 && Y < (long)ih)
                    want[(size_t)Y * im->pitch + (size_t)X] = s[((size_t)i * vec + k) * v->es + b];
            }
        }
    int rc = run_src(src, S, a, f);
    if (rc == 0 && memcmp(want, im->data, ibytes) != 0) {
        for (size_t j = 0; j < ibytes; j++)
            if (want[j] != im->data[j]) {
                fprintf(stderr, "media write%s.x%u S=%u %ux%u eb=%u at (%d,%d): image byte "
                        "(%zu,%zu): want %u got %u\n", v->suffix, vec, S, w, h, fm->eb, x, y,
                        j % im->pitch, j / im->pitch, want[j], im->data[j]);
                break;
            }
        fail();
    }
    free(a[0].image.data);
    free(s);
    free(want);
    return rc;
}

typedef int mb_case(const variant *v, const fmt *fm, uint32_t S, uint32_t vec, uint32_t w,
                    uint32_t h, int x, int y, uint32_t iw, uint32_t ih, sgemu_fault *f);

/* Every builtin and vector size at SIMD8, 16 and 32, over block shapes of
 * every allowed width (4 to 32 bytes) at its largest height and at 1 row,
 * on images of each element size no wider than the builtin's, at origins
 * inside, across each edge and wholly outside. */
static void each_case(mb_case *fn)
{
    static const uint32_t Ss[] = { 8, 16, 32 };
    static const uint32_t vecs[] = { 1, 2, 4, 8, 16 };
    static const uint32_t wbytes[] = { 4, 8, 12, 16, 20, 32 };
    const uint32_t IW = 40, IH = 20;          /* image bytes per row, rows */
    static const int org[][2] = { { 4, 2 }, { -8, -3 }, { 28, 15 }, { 36, 19 }, { -40, 30 } };
    unsigned n = 0;
    for (size_t vi = 0; vi < 3; vi++)
        for (size_t fi = 0; fi < 3; fi++) {
            const variant *v = &variants[vi];
            if (fmts[fi].eb > v->es)
                continue;
            for (size_t si = 0; si < 3; si++)
                for (size_t ci = 0; ci < 5; ci++) {
                    const uint32_t S = Ss[si], vec = vecs[ci];
                    if (vec > v->maxvec)
                        continue;
                    for (size_t wi = 0; wi < 6; wi++)
                        for (int tall = 0; tall < 2; tall++) {
                            const uint32_t w = wbytes[wi] / v->es;
                            const uint32_t h = tall ? isa_media_block_max_rows(wbytes[wi]) : 1;
                            const size_t oi = (si * 5 + ci + wi * 2 + (size_t)tall) % 5;
                            const int ox[2] = { org[0][0], org[oi][0] };
                            const int oy[2] = { org[0][1], org[oi][1] };
                            for (int o = 0; o < (oi ? 2 : 1); o++) {
                                sgemu_fault f;
                                int rc = fn(v, &fmts[fi], S, vec, w, h, ox[o], oy[o],
                                            IW / fmts[fi].eb, IH, &f);
                                if (rc)
                                    fprintf(stderr, "%s\n", f.msg);
                                assert_int_equal(rc, 0);
                                n++;
                            }
                        }
                }
        }
    assert_true(n > 500);
}

static void test_reads(void **state)
{
    (void)state;
    each_case(read_case);
}

static void test_writes(void **state)
{
    (void)state;
    each_case(write_case);
}

/* Every edge and corner of the image for a small block (6 x 4 words at
 * SIMD8, us4: 24 of the 32 elements), and image elements wider than the
 * builtin's, which the extension defines inside the image only. */
static void test_edges(void **state)
{
    (void)state;
    const int xs[] = { -12, -4, 0, 8, 16, 24, 40 };
    const int ys[] = { -5, -1, 0, 3, 6, 9 };
    for (size_t fi = 0; fi < 2; fi++)
        for (size_t a = 0; a < sizeof xs / sizeof xs[0]; a++)
            for (size_t b = 0; b < sizeof ys / sizeof ys[0]; b++) {
                sgemu_fault f;
                assert_int_equal(read_case(&variants[1], &fmts[fi], 8, 4, 6, 4, xs[a], ys[b],
                                           24 / fmts[fi].eb, 7, &f), 0);
                assert_int_equal(write_case(&variants[1], &fmts[fi], 8, 4, 6, 4, xs[a], ys[b],
                                            24 / fmts[fi].eb, 7, &f), 0);
            }
    sgemu_fault f;
    /* _uc on 4-byte elements: inside is defined */
    assert_int_equal(read_case(&variants[0], &fmts[2], 16, 4, 16, 4, 8, 1, 8, 6, &f), 0);
    assert_int_equal(write_case(&variants[0], &fmts[2], 16, 4, 16, 4, 8, 1, 8, 6, &f), 0);
    /* ... and outside an error naming the image and the byte */
    assert_int_equal(read_case(&variants[0], &fmts[2], 16, 4, 16, 4, 24, 1, 8, 6, &f),
                     SGEMU_EXIT_FAULT);
    assert_non_null(strstr(f.msg, "byte (32,1) is outside the image 'img'") ||
                    strstr(f.msg, "'img' byte (32,1) is outside the image"));
    assert_int_equal(write_case(&variants[0], &fmts[2], 16, 4, 16, 4, 8, -1, 8, 6, &f),
                     SGEMU_EXIT_FAULT);
    assert_non_null(strstr(f.msg, "(8,-1) is outside the image"));
}

/* Run a kernel whose block shape or coordinate is wrong; its fault text. */
static int fault_of(const char *body, uint32_t S, sgemu_fault *f)
{
    char src[1024];
    snprintf(src, sizeof src,
             ".kernel e\n.arg img image2d read_only\n.arg n i32\n"
             "  mov.u32 r4, %%sub_group_local_id\n"
             "%s"
             "  ret\n", body);
    uint8_t pix[64 * 8];
    memset(pix, 0, sizeof pix);
    sgemu_argval a[2] = { arg_image(SGEMU_ORDER_R, SGEMU_CHTYPE_UNSIGNED_INT8, 64, 8, pix),
                          arg_scalar(12) };
    return run_src(src, S, a, f);
}

static void test_errors(void **state)
{
    (void)state;
    sgemu_fault f;
    /* a width given in a register: checked when it runs (12 dwords = 48 bytes) */
    assert_int_equal(fault_of("  mov.i32 r0, 0\n  mov.i32 r1, 0\n"
                              "  intel_sub_group_media_block_read_ui.u32 r8, %img, r0, %n, 1\n",
                              8, &f), SGEMU_EXIT_FAULT);
    assert_non_null(strstr(f.msg, "a block 12 elements of 4 bytes wide and 1 rows high is not "
                                  "allowed"));
    /* a uniform register width that is allowed runs (12 bytes x 16 rows) */
    assert_int_equal(fault_of("  mov.i32 r0, 0\n  mov.i32 r1, 0\n"
                              "  intel_sub_group_media_block_read_uc.u8x2 r8, %img, r0, %n, 16\n",
                              16, &f), 0);
    /* a width that differs between work-items */
    assert_int_equal(fault_of("  mov.i32 r0, 0\n  mov.i32 r1, 0\n  shl.u32 r5, r4, 2\n"
                              "  intel_sub_group_media_block_read_uc.u8 r8, %img, r0, r5, 1\n",
                              8, &f), SGEMU_EXIT_FAULT);
    assert_non_null(strstr(f.msg, "the same in every work-item"));
    /* x not a multiple of 4 */
    assert_int_equal(fault_of("  mov.i32 r0, 6\n  mov.i32 r1, 0\n"
                              "  intel_sub_group_media_block_read_uc.u8 r8, %img, r0, 8, 1\n",
                              8, &f), SGEMU_EXIT_FAULT);
    assert_non_null(strstr(f.msg, "coordinate (6,0): x must be a multiple of 4 bytes"));
    /* a coordinate that differs between work-items */
    assert_int_equal(fault_of("  mov.i32 r0, 0\n  mov.i32 r1, r4\n"
                              "  intel_sub_group_media_block_read_uc.u8 r8, %img, r0, 8, 1\n",
                              8, &f), SGEMU_EXIT_FAULT);
    assert_non_null(strstr(f.msg, "coordinate (0,1) of this work-item differs"));
    /* a partial sub-group */
    char src[512];
    snprintf(src, sizeof src, ".kernel p\n.arg img image2d read_only\n"
             "  mov.i32 r0, 0\n  mov.i32 r1, 0\n"
             "  intel_sub_group_media_block_read_uc.u8 r8, %%img, r0, 8, 1\n  ret\n");
    isa_kernel k;
    test_assemble("p.sgasm", src, &k);
    uint8_t pix[64];
    sgemu_argval a[1] = { arg_image(SGEMU_ORDER_R, SGEMU_CHTYPE_UNSIGNED_INT8, 8, 8, pix) };
    sgemu_launch L = launch_1d(12, 12, 8);
    sgemu_stats st;
    assert_int_equal(sgemu_run(&k, &cfg, &L, a, &st, &f), SGEMU_EXIT_FAULT);
    assert_non_null(strstr(f.msg, "media block I/O in a partial sub-group (4 of 8"));
    isa_kernel_free(&k);
}

/* The assembler refuses what the extension does not allow, at the
 * mnemonic (file:line:col: error: ...). */
static void test_asm_diagnostics(void **state)
{
    (void)state;
    static const struct { const char *inst, *frag; } bad[] = {
        { "intel_sub_group_media_block_read_ui.u32 r8, %img, r0, 9, 1",
          "media block width 9 (elements of 4 bytes) is not allowed" },
        { "intel_sub_group_media_block_read_uc.u8 r8, %img, r0, 6, 1",
          "media block width 6 (elements of 1 bytes) is not allowed" },
        { "intel_sub_group_media_block_read_us.u16 r8, %img, r0, 8, 17",
          "media block height 17 is not allowed: a block 16 bytes wide has 1 to 16 rows" },
        { "intel_sub_group_media_block_write_uc.u8 %img, r0, 4, 0, r8",
          "media block height 0 is not allowed: a block 4 bytes wide has 1 to 64 rows" },
        { "intel_sub_group_media_block_read_ui.u32x16 r8, %img, r0, 8, 1",
          "takes 1, 2, 4, 8 components, not 16" },
        { "intel_sub_group_media_block_read_uc.u8 r8, %img, 0, 4, 1",
          "the (x, y) coordinate must be a register pair" },
        { "intel_sub_group_media_block_read_uc.u8 r8, %img, r0, 4",
          "takes 5 operands, got 4" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char src[512];
        snprintf(src, sizeof src, ".kernel d\n.arg img image2d read_write\n"
                 "  mov.i32 r0, 0\n  %s\n  ret\n", bad[i].inst);
        isa_diags d;
        memset(&d, 0, sizeof d);
        isa_kernel k;
        int errs = isa_assemble("d.sgasm", src, strlen(src), &k, &d);
        char *buf = NULL;
        size_t blen = 0;
        FILE *fp = open_memstream(&buf, &blen);
        isa_diags_print(&d, fp);
        fclose(fp);
        if (errs != 1 || strncmp(buf, "d.sgasm:4:3: error: ", 20) || !strstr(buf, bad[i].frag))
            fprintf(stderr, "%s\nwant d.sgasm:4:3: error: ...%s\ngot  %s", bad[i].inst,
                    bad[i].frag, buf);
        assert_int_equal(errs, 1);
        assert_memory_equal(buf, "d.sgasm:4:3: error: ", 20);
        assert_non_null(strstr(buf, bad[i].frag));
        free(buf);
        isa_diags_free(&d);
    }
    /* the allowed extremes assemble */
    static const char *const good[] = {
        "intel_sub_group_media_block_read_ui.u32 r8, %img, r0, 1, 64",
        "intel_sub_group_media_block_read_ui.u32x8 r8, %img, r0, 8, 8",
        "intel_sub_group_media_block_read_uc.u8x16 r8, %img, r0, 32, 8",
        "intel_sub_group_media_block_write_us.u16x16 %img, r0, 6, 16, r8",
        "intel_sub_group_media_block_write_ui.u32x2 %img, r0, %n, %n, r8",
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        char src[512];
        snprintf(src, sizeof src, ".kernel g\n.arg img image2d read_write\n.arg n i32\n"
                 "  mov.i32 r0, 0\n  %s\n  ret\n", good[i]);
        isa_kernel k;
        test_assemble("g.sgasm", src, &k);
        isa_kernel_free(&k);
    }
}

/* One 8 x 2 dword block read at SIMD8 (ui2: 16 elements) at (0, 0) of a
 * 16 x 16 R32 image with pitch 64, test-simple's timing: one MEDIA_LOAD
 * of 2 rows of 32 bytes (32 <= media_block_width), its rows requested
 * together at its start, row r at r x 64: two lines.
 *   mov r0 (mov pipe, P 1): 0 -> 2; mov r1: 1 -> 3 (unit free at 2).
 *   The read waits for r0..r1: issues at 3: row 0: L1 3, miss, L2 3,
 *   miss, DRAM 3 (busy 2) -> 303; row 1: L1 4, L2 4, DRAM max(4, 5) = 5
 *   -> 305.  Result 305.
 *   add r10 (r8, r9) at 305 -> 309; ret at 306 -> 310.  Total 310. */
static void test_cycles(void **state)
{
    (void)state;
    const char *src = ".kernel c\n.arg img image2d read_only\n"
                      "mov.i32 r0, 0\nmov.i32 r1, 0\n"
                      "intel_sub_group_media_block_read_ui.u32x2 r8, %img, r0, 8, 2\n"
                      "add.u32 r10, r8, r9\nret\n";
    isa_kernel k;
    emu_config tc;
    isa_diags d;
    memset(&d, 0, sizeof d);
    assert_int_equal(isa_assemble("c.sgasm", src, strlen(src), &k, &d), 0);
    assert_int_equal(emu_config_load_bundled("test-simple", &tc, &d), 0);
    isa_diags_free(&d);
    static uint32_t pix[16 * 16];
    sgemu_argval a[1];
    memset(a, 0, sizeof a);
    a[0].kind = SGEMU_VAL_IMAGE;
    a[0].image = (sgemu_image){ .width = 16, .height = 16, .pitch = 64,
                                .order = SGEMU_ORDER_R, .chtype = SGEMU_CHTYPE_UNSIGNED_INT32,
                                .elem_bytes = 4, .data = (uint8_t *)pix };
    sgemu_launch L = launch_1d(8, 8, 8);
    L.timing = true;
    sgemu_stats st;
    sgemu_fault f;
    int rc = sgemu_run(&k, &tc, &L, a, &st, &f);
    if (rc)
        fprintf(stderr, "%s\n", f.msg);
    assert_int_equal(rc, 0);
    assert_non_null(st.timing);
    assert_int_equal(st.uops, 1);
    assert_int_equal(st.timing->misses[TM_LEVEL_L2], 2);
    assert_int_equal(st.timing->cycles, 310);
    sgemu_stats_free(&st);
    isa_kernel_free(&k);
}

/* OpenCL C through sgemu's header, llvm-spirv-14 (SPV_INTEL_media_block_io)
 * and the SPIR-V front end: read_only, write_only and read_write images,
 * a coordinate computed per work-group, at SIMD8. */
static void test_opencl_c(void **state)
{
    (void)state;
    static const char cl[] =
        "__attribute__((intel_reqd_sub_group_size(8)))\n"
        "kernel void mb(read_only image2d_t src, write_only image2d_t dst,\n"
        "               read_write image2d_t rw, global uint *out)\n"
        "{\n"
        "    int2 c = (int2)(get_group_id(0) * 16, 1);\n"
        "    ushort4 v = intel_sub_group_media_block_read_us4(c, 8, 4, src);\n"
        "    intel_sub_group_media_block_write_us4(c, 8, 4, v + (ushort)1, dst);\n"
        "    int2 r = (int2)(0, get_group_id(0));\n"
        "    uint u = intel_sub_group_media_block_read_ui(r, 8, 1, rw);\n"
        "    intel_sub_group_media_block_write_ui(r, 8, 1, u * 2, rw);\n"
        "    out[get_global_id(0)] = v.s2;\n"
        "}\n";
    const char *opts[] = { "-cl-std=CL2.0" };
    sgemu_load_opts lo = { .cl_options = opts, .ncl_options = 1 };
    isa_kernel k;
    isa_diags d;
    memset(&d, 0, sizeof d);
    sgemu_fault f;
    int rc = sgemu_kernel_from_memory("mb.cl", SGEMU_SOURCE_OPENCL_C, cl, sizeof cl - 1, &lo, &k,
                                      NULL, &d, &f);
    if (rc) {
        isa_diags_print(&d, stderr);
        fprintf(stderr, "%s\n", f.msg);
    }
    isa_diags_free(&d);
    assert_int_equal(rc, 0);
    enum { W = 16, H = 8 };
    static uint16_t src[H][W], dst[H][W];
    static uint32_t rw[2][8], rw0[2][8], out[16];
    uint8_t *pat = bytes_pattern(sizeof src + sizeof rw, 3);
    memcpy(src, pat, sizeof src);
    memcpy(rw, pat + sizeof src, sizeof rw);
    memcpy(rw0, rw, sizeof rw);
    free(pat);
    memset(dst, 0, sizeof dst);
    sgemu_argval a[4] = {
        arg_image(SGEMU_ORDER_R, SGEMU_CHTYPE_UNSIGNED_INT16, W, H, src),
        arg_image(SGEMU_ORDER_R, SGEMU_CHTYPE_UNSIGNED_INT16, W, H, dst),
        arg_image(SGEMU_ORDER_R, SGEMU_CHTYPE_UNSIGNED_INT32, 8, 2, rw),
        arg_buffer(out, sizeof out),
    };
    sgemu_launch L = launch_1d(16, 8, 8);
    sgemu_stats st;
    rc = sgemu_run(&k, &cfg, &L, a, &st, &f);
    if (rc)
        fprintf(stderr, "%s\n", f.msg);
    assert_int_equal(rc, 0);
    sgemu_stats_free(&st);
    isa_kernel_free(&k);
    for (int g = 0; g < 2; g++) {
        /* work-group g's block: words 8g .. 8g + 7 of rows 1..4; lane i's
         * component 2 is element 16 + i: row 1 + 2, word 8g + i */
        for (int y = 0; y < H; y++)
            for (int x = 8 * g; x < 8 * g + 8; x++)
                assert_int_equal(dst[y][x], y >= 1 && y <= 4 ? (uint16_t)(src[y][x] + 1) : 0);
        for (int i = 0; i < 8; i++) {
            assert_int_equal(out[8 * g + i], src[3][8 * g + i]);
            assert_int_equal(rw[g][i], rw0[g][i] * 2);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reads),
        cmocka_unit_test(test_writes),
        cmocka_unit_test(test_edges),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_asm_diagnostics),
        cmocka_unit_test(test_cycles),
        cmocka_unit_test(test_opencl_c),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
