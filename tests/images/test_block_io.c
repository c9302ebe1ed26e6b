/* test_block_io.c - sub-group block reads and writes on buffers, local
 * memory and images, run end to end (assembler + engine + collectives) and
 * compared with references written here from the spec text:
 *   buffers: value k of sub-group local id i is p[i + k * S];
 *   images:  value k of lane i is the element-size chunk at byte x + i * E
 *            of row y + k (no format conversion); 4-byte-element images
 *            clamp reads to the edge element and drop writes outside. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "test_kernel.h"
#include "test_image_run.h"
#include "test_args.h"

#include "sgemu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static emu_config cfg;

static int setup(void **state)
{
    (void)state;
    return load_test_config(&cfg);
}

static void assemble(const char *src, isa_kernel *k)
{
    test_assemble("test.sgasm", src, k);
}

static int run(const char *src, uint64_t global, uint32_t S, sgemu_argval *args,
               sgemu_fault *f, sgemu_stats *st)
{
    isa_kernel k;
    assemble(src, &k);
    sgemu_launch L = launch_1d(global, global, S);
    L.max_instructions = 1000000;
    sgemu_stats s0;
    int rc = sgemu_run(&k, &cfg, &L, args, st ? st : &s0, f);
    isa_kernel_free(&k);
    return rc;
}

/* The spellings: mnemonic suffix, asm type, element bytes, max vector. */
typedef struct variant {
    const char *suffix, *type;
    uint32_t es, maxvec;
} variant;

static const variant variants[] = {
    { "", "u32", 4, 8 }, { "_ui", "u32", 4, 8 }, { "_us", "u16", 2, 16 },
    { "_uc", "u8", 1, 16 }, { "_ul", "u64", 8, 8 },
};
static const uint32_t widths[] = { 1, 4, 8, 16, 32, 64 };
static const uint32_t vecs[] = { 1, 2, 4, 8, 16 };

static void tmod(char *b, size_t n, const variant *v, uint32_t vec)
{
    if (vec > 1)
        snprintf(b, n, "%sx%u", v->type, vec);
    else
        snprintf(b, n, "%s", v->type);
}

/* Append formatted text to a kernel source. */
static void add(char *src, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void add(char *src, size_t n, const char *fmt, ...)
{
    size_t l = strlen(src);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(src + l, n - l, fmt, ap);
    va_end(ap);
}

/* Sub-group j's block starts at byte off + j * stride (stride: the block
 * size rounded up to 16 so every block is aligned for reads and writes). */
static uint32_t stride_of(uint32_t blk) { return (blk + 15) & ~15u; }

/* ------------------------------------------------------- buffer reads */

static void buffer_read_case(const variant *v, uint32_t S, uint32_t vec, bool local)
{
    char t[16], src[8192] = "";
    tmod(t, sizeof t, v, vec);
    uint32_t nsg = 2, n = nsg * S, es = v->es, blk = S * vec * es, stride = stride_of(blk);
    uint32_t off = local ? 16 : 4;          /* a non-zero aligned offset */
    const char *sp = local ? "local" : "global", *base = local ? "%lm" : "%src";
    add(src, sizeof src, ".kernel br\n.arg src global %s\n.arg dst global %s\n.arg off i32\n"
        ".arg lm local %s\n"
        "  mov.u32 r0, %%sub_group_id\n"
        "  mul.u32 r1, r0, %u\n"
        "  add.u32 r1, r1, %%off\n", v->type, v->type, v->type, stride);
    if (local) {
        /* copy this sub-group's span of src into local memory, element by
         * element with ordinary loads and stores */
        add(src, sizeof src, "  mov.u32 r2, %%sub_group_local_id\n"
            "  mad.u32 r2, r2, %u, r1\n", es);
        for (uint32_t k = 0; k < vec; k++)
            add(src, sizeof src, "  ld.global.%s r30, [%%src + r2 + %u]\n"
                "  st.local.%s [%%lm + r2 + %u], r30\n", v->type, k * S * es, v->type, k * S * es);
    }
    add(src, sizeof src, "  intel_sub_group_block_read%s.%s.%s r8, [%s + r1]\n"
        "  mov.u32 r2, %%global_id.x\n"
        "  mul.u32 r2, r2, %u\n"
        "  st.global.%s [%%dst + r2*%u], r8\n"
        "  ret\n", v->suffix, sp, t, base, vec, t, es);
    size_t sbytes = (size_t)off + (size_t)nsg * stride, dbytes = (size_t)n * vec * es;
    uint8_t *s = bytes_pattern(sbytes, S * 31 + vec + es);
    uint8_t *d = calloc(1, dbytes);
    sgemu_argval a[4] = { arg_buffer(s, sbytes), arg_buffer(d, dbytes), arg_scalar(off), { 0 } };
    a[3].kind = SGEMU_VAL_LOCAL;
    a[3].bytes = sbytes;
    sgemu_fault f;
    sgemu_stats st;
    int rc = run(src, n, S, a, &f, &st);
    if (rc)
        fprintf(stderr, "%s\n%s\n", f.msg, src);
    assert_int_equal(rc, 0);
    /* reference: work-item i of sub-group j, value k = p[i + k*S] with
     * p = that sub-group's pointer */
    for (uint32_t j = 0; j < nsg; j++)
        for (uint32_t i = 0; i < S; i++)
            for (uint32_t k = 0; k < vec; k++) {
                const uint8_t *p = s + off + (size_t)j * stride;
                const uint8_t *want = p + ((size_t)i + (size_t)k * S) * es;
                const uint8_t *got = d + (((size_t)j * S + i) * vec + k) * es;
                if (memcmp(want, got, es)) {
                    fprintf(stderr, "read%s S=%u vec=%u local=%d: sg %u lane %u value %u\n",
                            v->suffix, S, vec, local, j, i, k);
                    fail();
                }
            }
    if (!local) {
        uint32_t msgs = (blk + 127) / 128;
        assert_int_equal(st.uops, (uint64_t)nsg * msgs);
    }
    free(s);
    free(d);
}

typedef void buffer_case(const variant *v, uint32_t S, uint32_t vec, bool local);

/* fn for every spelling x width x vector size the spelling allows. */
static void each_shape(buffer_case *fn, bool local)
{
    for (size_t vi = 0; vi < sizeof variants / sizeof variants[0]; vi++)
        for (size_t wi = 0; wi < sizeof widths / sizeof widths[0]; wi++)
            for (size_t ci = 0; ci < sizeof vecs / sizeof vecs[0]; ci++)
                if (vecs[ci] <= variants[vi].maxvec)
                    fn(&variants[vi], widths[wi], vecs[ci], local);
}

static void test_buffer_reads(void **state)
{
    (void)state;
    each_shape(buffer_read_case, false);
}

static void test_local_reads(void **state)
{
    (void)state;
    each_shape(buffer_read_case, true);
}

/* ------------------------------------------------------ buffer writes */

static void buffer_write_case(const variant *v, uint32_t S, uint32_t vec, bool local)
{
    char t[16], src[8192] = "";
    tmod(t, sizeof t, v, vec);
    uint32_t nsg = 2, n = nsg * S, es = v->es, blk = S * vec * es, stride = stride_of(blk);
    uint32_t off = 16;
    add(src, sizeof src, ".kernel bw\n.arg src global %s\n.arg dst global %s\n.arg off i32\n"
        ".arg lm local %s\n"
        "  mov.u32 r2, %%global_id.x\n"
        "  mul.u32 r2, r2, %u\n"
        "  ld.global.%s r8, [%%src + r2*%u]\n"
        "  mov.u32 r0, %%sub_group_id\n"
        "  mul.u32 r1, r0, %u\n"
        "  add.u32 r1, r1, %%off\n"
        "  intel_sub_group_block_write%s.%s.%s [%s + r1], r8\n",
        v->type, v->type, v->type, vec, t, es, stride, v->suffix,
        local ? "local" : "global", t, local ? "%lm" : "%dst");
    if (local) {
        /* read the block back in memory order: lane i takes elements
         * i*vec .. i*vec+vec-1 of its sub-group's block */
        add(src, sizeof src, "  mov.u32 r3, %%sub_group_local_id\n"
            "  mad.u32 r3, r3, %u, r1\n"
            "  mov.u32 r4, %%global_id.x\n"
            "  mul.u32 r4, r4, %u\n"
            "  add.u32 r4, r4, %%off\n", vec * es, vec * es);
        for (uint32_t k = 0; k < vec; k++)
            add(src, sizeof src, "  ld.local.%s r30, [%%lm + r3 + %u]\n"
                "  st.global.%s [%%dst + r4 + %u], r30\n", v->type, k * es, v->type, k * es);
    }
    add(src, sizeof src, "  ret\n");
    size_t sbytes = (size_t)n * vec * es, dbytes = (size_t)off + (size_t)nsg * stride;
    if (dbytes < off + sbytes)
        dbytes = off + sbytes;
    uint8_t *s = bytes_pattern(sbytes, S * 7 + vec * 3 + es);
    uint8_t *d = calloc(1, dbytes);
    sgemu_argval a[4] = { arg_buffer(s, sbytes), arg_buffer(d, dbytes), arg_scalar(off), { 0 } };
    a[3].kind = SGEMU_VAL_LOCAL;
    a[3].bytes = dbytes;
    sgemu_fault f;
    int rc = run(src, n, S, a, &f, NULL);
    if (rc)
        fprintf(stderr, "%s\n%s\n", f.msg, src);
    assert_int_equal(rc, 0);
    for (size_t e = 0; e < off; e++)
        assert_int_equal(d[e], 0);
    for (uint32_t j = 0; j < nsg; j++)
        for (uint32_t i = 0; i < S; i++)
            for (uint32_t k = 0; k < vec; k++) {
                const uint8_t *want, *got;
                if (!local) {
                    /* element i + k*S of the block = value k of lane i */
                    want = s + (((size_t)j * S + i) * vec + k) * es;
                    got = d + off + (size_t)j * stride + ((size_t)i + (size_t)k * S) * es;
                } else {
                    /* dst element (j*S + i)*vec + k = block element e */
                    size_t e = (size_t)i * vec + k;
                    want = s + (((size_t)j * S + e % S) * vec + e / S) * es;
                    got = d + off + (((size_t)j * S + i) * vec + k) * es;
                }
                if (memcmp(want, got, es)) {
                    fprintf(stderr, "write%s S=%u vec=%u local=%d: sg %u lane %u value %u\n",
                            v->suffix, S, vec, local, j, i, k);
                    fail();
                }
            }
    free(s);
    free(d);
}

static void test_buffer_writes(void **state)
{
    (void)state;
    each_shape(buffer_write_case, false);
    each_shape(buffer_write_case, true);
}

/* ------------------------------------------------------ buffer errors */

static int run_simple(const char *body, uint64_t global, uint32_t S, sgemu_fault *f)
{
    char src[2048];
    snprintf(src, sizeof src,
             ".kernel e\n.arg p global u32\n.arg lm local u32\n%s  ret\n", body);
    uint8_t *d = calloc(1, 4096);
    sgemu_argval a[2] = { arg_buffer(d, 4096), { 0 } };
    a[1].kind = SGEMU_VAL_LOCAL;
    a[1].bytes = 1024;
    int rc = run(src, global, S, a, f, NULL);
    free(d);
    return rc;
}

static void expect_fault(const char *body, uint64_t global, uint32_t S, const char *const *needles)
{
    sgemu_fault f;
    int rc = run_simple(body, global, S, &f);
    if (rc != SGEMU_EXIT_FAULT)
        fprintf(stderr, "expected a fault for:\n%s\ngot rc %d: %s\n", body, rc, f.msg);
    assert_int_equal(rc, SGEMU_EXIT_FAULT);
    for (; *needles; needles++) {
        if (!strstr(f.msg, *needles))
            fprintf(stderr, "missing '%s' in: %s\n", *needles, f.msg);
        assert_non_null(strstr(f.msg, *needles));
    }
}

static void test_buffer_errors(void **state)
{
    (void)state;
    sgemu_fault f;
    /* aligned forms work */
    assert_int_equal(run_simple("  intel_sub_group_block_read.u32 r1, [%p + 4]\n", 16, 8, &f), 0);
    assert_int_equal(run_simple("  intel_sub_group_block_write.u32 [%p + 16], r1\n", 16, 8, &f), 0);
    /* reads need 4-byte alignment, writes 16, local both 16 */
    expect_fault("  intel_sub_group_block_read_us.u16 r1, [%p + 2]\n", 16, 8,
                 (const char *[]){ "misaligned", "kernel 'e'", "test.sgasm:4", "offset 2", NULL });
    expect_fault("  intel_sub_group_block_write.u32 [%p + 8], r1\n", 16, 8,
                 (const char *[]){ "misaligned", "test.sgasm:4", "offset 8", NULL });
    expect_fault("  intel_sub_group_block_read.local.u32 r1, [%lm + 4]\n", 16, 8,
                 (const char *[]){ "misaligned", "local address 0x4", NULL });
    /* pointer differs between work-items */
    expect_fault("  mov.u32 r0, %sub_group_local_id\n  shl.u32 r0, r0, 4\n"
                 "  intel_sub_group_block_read.u32 r1, [%p + r0]\n", 16, 8,
                 (const char *[]){ "differs", "lane 1", NULL });
    /* partial sub-group: 12 work-items at width 8 */
    expect_fault("  intel_sub_group_block_read.u32 r1, [%p]\n", 12, 8,
                 (const char *[]){ "partial sub-group", NULL });
    /* reached by only some work-items */
    expect_fault("  mov.u32 r0, %sub_group_local_id\n  cmp.lt.u32 p0, r0, 3\n"
                 "  bra p0, skip\n  intel_sub_group_block_read.u32 r1, [%p]\nskip:\n", 16, 8,
                 (const char *[]){ "only some", "lane 0", NULL });
    /* past the end of the buffer */
    expect_fault("  intel_sub_group_block_read.u32x8 r1, [%p + 4000]\n", 16, 8,
                 (const char *[]){ "out-of-bounds", "buffer 'p'", NULL });
}

/* -------------------------------------------------------------- images */

typedef struct fmt {
    sgemu_channel_order order;
    sgemu_channel_type type;
    uint32_t eb;
} fmt;

static const fmt fmts[] = {
    { SGEMU_ORDER_R, SGEMU_CHTYPE_UNSIGNED_INT8, 1 },
    { SGEMU_ORDER_R, SGEMU_CHTYPE_UNSIGNED_INT16, 2 },
    { SGEMU_ORDER_RG, SGEMU_CHTYPE_UNSIGNED_INT16, 4 },
    { SGEMU_ORDER_RGBA, SGEMU_CHTYPE_UNORM_INT8, 4 },
    { SGEMU_ORDER_R, SGEMU_CHTYPE_FLOAT, 4 },
};

static sgemu_argval image(const fmt *fm, uint32_t w, uint32_t h, uint32_t pad, uint32_t seed)
{
    sgemu_argval v;
    memset(&v, 0, sizeof v);
    v.kind = SGEMU_VAL_IMAGE;
    v.image.width = w;
    v.image.height = h;
    v.image.pitch = w * fm->eb + pad;
    v.image.order = (uint8_t)fm->order;
    v.image.chtype = (uint8_t)fm->type;
    v.image.elem_bytes = fm->eb;
    v.image.data = bytes_pattern((size_t)v.image.pitch * h, seed);
    return v;
}

/* Byte (X, Y) of the image as the note prescribes for 4-byte elements:
 * the edge element, same byte within it. */
static uint8_t ref_byte_clamped(const sgemu_image *im, long X, long Y)
{
    long e = X >= 0 ? X / 4 : -((-X + 3) / 4), o = X - e * 4;
    if (e < 0) e = 0;
    if (e >= (long)im->width) e = (long)im->width - 1;
    if (Y < 0) Y = 0;
    if (Y >= (long)im->height) Y = (long)im->height - 1;
    return im->data[(size_t)Y * im->pitch + (size_t)(e * 4 + o)];
}

static const char *img_read_src(const variant *v, const char *t, uint32_t vec, char *src, size_t n)
{
    snprintf(src, n,
        ".kernel ir\n.arg img image2d read_only\n.arg dst global %s\n.arg x0 i32\n.arg y0 i32\n"
        "  mov.u32 r0, %%x0\n"
        "  mov.u32 r1, %%y0\n"
        "  intel_sub_group_block_read_image%s.%s r8, %%img, r0, r1\n"
        "  mov.u32 r2, %%global_id.x\n"
        "  mul.u32 r2, r2, %u\n"
        "  st.global.%s [%%dst + r2*%u], r8\n"
        "  ret\n", v->type, v->suffix, t, vec, t, v->es);
    return src;
}

/* One image block read at (x, y) by a single sub-group; returns rc. */
static int image_read_case(const variant *v, const fmt *fm, uint32_t S, uint32_t vec,
                           uint32_t w, uint32_t h, int x, int y, sgemu_fault *f)
{
    char t[16], src[2048];
    tmod(t, sizeof t, v, vec);
    img_read_src(v, t, vec, src, sizeof src);
    size_t dbytes = (size_t)S * vec * v->es;
    uint8_t *d = calloc(1, dbytes);
    sgemu_argval a[4] = { image(fm, w, h, 3, S + vec + (uint32_t)x), arg_buffer(d, dbytes),
                          arg_scalar((uint32_t)x), arg_scalar((uint32_t)y) };
    sgemu_stats st;
    int rc = run(src, S, S, a, f, &st);
    if (rc == 0) {
        for (uint32_t i = 0; i < S; i++)
            for (uint32_t k = 0; k < vec; k++)
                for (uint32_t b = 0; b < v->es; b++) {
                    long X = (long)x + (long)i * v->es + b, Y = (long)y + k;
                    uint8_t want = ref_byte_clamped(&a[0].image, X, Y);
                    uint8_t got = d[((size_t)i * vec + k) * v->es + b];
                    if (want != got) {
                        fprintf(stderr, "image read%s S=%u vec=%u eb=%u at (%d,%d): lane %u "
                                "value %u byte %u: want %u got %u\n", v->suffix, S, vec,
                                fm->eb, x, y, i, k, b, want, got);
                        fail();
                    }
                }
        uint32_t msgs = (S * v->es + 31) / 32;
        assert_int_equal(st.uops, msgs);
    }
    free(a[0].image.data);
    free(d);
    return rc;
}

typedef int image_case(const variant *v, const fmt *fm, uint32_t S, uint32_t vec, uint32_t w,
                       uint32_t h, int x, int y, sgemu_fault *f);

/* fn inside the image for every format, variant (not _ul), width and vector
 * size: S * es + 8 bytes wide, vec + 2 rows, at (x, 1) where x is 4 for
 * 4-byte elements and x_narrow for narrower ones; each must succeed. */
static void each_image_shape(image_case *fn, int x_narrow)
{
    for (size_t fi = 0; fi < sizeof fmts / sizeof fmts[0]; fi++)
        for (size_t vi = 0; vi < 4; vi++)          /* _ul: 8-byte data, tested apart */
            for (size_t wi = 0; wi < sizeof widths / sizeof widths[0]; wi++)
                for (size_t ci = 0; ci < sizeof vecs / sizeof vecs[0]; ci++) {
                    const variant *v = &variants[vi];
                    uint32_t S = widths[wi], vec = vecs[ci];
                    if (vec > v->maxvec)
                        continue;
                    uint32_t wb = S * v->es + 8;
                    uint32_t w = (wb + fmts[fi].eb - 1) / fmts[fi].eb;
                    sgemu_fault f;
                    int x = fmts[fi].eb == 4 ? 4 : x_narrow;
                    int rc = fn(v, &fmts[fi], S, vec, w, vec + 2, x, 1, &f);
                    if (rc)
                        fprintf(stderr, "%s\n", f.msg);
                    assert_int_equal(rc, 0);
                }
}

static void test_image_reads(void **state)
{
    (void)state;
    each_image_shape(image_read_case, 3);      /* reads: any byte x */
    /* _ul on a 4-byte-element image */
    sgemu_fault f;
    assert_int_equal(image_read_case(&variants[4], &fmts[4], 8, 2, 20, 4, 0, 0, &f), 0);
}

static void test_image_read_edges(void **state)
{
    (void)state;
    /* 4-byte elements: every edge and corner clamps */
    const int W = 10, H = 6;
    const int xs[] = { -12, -3, 0, 16, 36, 44 };
    const int ys[] = { -3, 0, 2, 5, 8 };
    for (size_t fi = 2; fi < sizeof fmts / sizeof fmts[0]; fi++)
        for (size_t a = 0; a < sizeof xs / sizeof xs[0]; a++)
            for (size_t b = 0; b < sizeof ys / sizeof ys[0]; b++)
                for (uint32_t S = 4; S <= 16; S *= 4) {
                    sgemu_fault f;
                    int rc = image_read_case(&variants[0], &fmts[fi], S, 4, W, H, xs[a], ys[b], &f);
                    if (rc)
                        fprintf(stderr, "%s\n", f.msg);
                    assert_int_equal(rc, 0);
                    rc = image_read_case(&variants[2], &fmts[fi], S, 2, W, H, xs[a] + 2, ys[b], &f);
                    assert_int_equal(rc, 0);
                }
    /* smaller elements: past any edge is an error naming image and coordinate */
    struct { int x, y; const char *coord; } bad[] = {
        { -1, 0, "(-1,0)" }, { 0, -1, "(0,-1)" }, { 9, 0, "(16,0)" }, { 0, 5, "(0,6)" },
        { -2, -2, "(-2,-2)" }, { 12, 5, "(16,5)" },
    };
    for (size_t fi = 0; fi < 2; fi++)
        for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
            sgemu_fault f;
            uint32_t w = 16 / fmts[fi].eb;
            int rc = image_read_case(&variants[3], &fmts[fi], 8, 2, w, 6, bad[i].x, bad[i].y, &f);
            if (rc != SGEMU_EXIT_FAULT || !strstr(f.msg, bad[i].coord) || !strstr(f.msg, "'img'"))
                fprintf(stderr, "case %zu eb %u: rc %d msg %s\n", i, fmts[fi].eb, rc, f.msg);
            assert_int_equal(rc, SGEMU_EXIT_FAULT);
            assert_non_null(strstr(f.msg, "'img'"));
            assert_non_null(strstr(f.msg, bad[i].coord));
        }
}

/* One image block write at (x, y) by one sub-group; checks the result
 * against a reference copy; returns rc. */
static int image_write_case(const variant *v, const fmt *fm, uint32_t S, uint32_t vec,
                            uint32_t w, uint32_t h, int x, int y, sgemu_fault *f)
{
    char t[16], src[2048];
    tmod(t, sizeof t, v, vec);
    snprintf(src, sizeof src,
        ".kernel iw\n.arg img image2d write_only\n.arg s global %s\n.arg x0 i32\n.arg y0 i32\n"
        "  mov.u32 r2, %%global_id.x\n"
        "  mul.u32 r2, r2, %u\n"
        "  ld.global.%s r8, [%%s + r2*%u]\n"
        "  mov.u32 r0, %%x0\n"
        "  mov.u32 r1, %%y0\n"
        "  intel_sub_group_block_write_image%s.%s %%img, r0, r1, r8\n"
        "  ret\n", v->type, vec, t, v->es, v->suffix, t);
    size_t sbytes = (size_t)S * vec * v->es;
    uint8_t *s = bytes_pattern(sbytes, S * 5 + vec);
    sgemu_argval a[4] = { image(fm, w, h, 5, 99), arg_buffer(s, sbytes), arg_scalar((uint32_t)x),
                          arg_scalar((uint32_t)y) };
    size_t ib = (size_t)a[0].image.pitch * h;
    uint8_t *ref = malloc(ib);
    memcpy(ref, a[0].image.data, ib);
    /* reference: byte b of value k of lane i goes to (x + i*E + b, y + k)
     * when inside the rows' element bytes; elsewhere dropped */
    for (uint32_t i = 0; i < S; i++)
        for (uint32_t k = 0; k < vec; k++)
            for (uint32_t b = 0; b < v->es; b++) {
                long X = (long)x + (long)i * v->es + b, Y = (long)y + k;
                if (X >= 0 && X < (long)(w * fm->eb) && Y >= 0 && Y < (long)h)
                    ref[(size_t)Y * a[0].image.pitch + (size_t)X] =
                        s[((size_t)i * vec + k) * v->es + b];
            }
    int rc = run(src, S, S, a, f, NULL);
    if (rc == 0 && memcmp(ref, a[0].image.data, ib)) {
        fprintf(stderr, "image write%s S=%u vec=%u eb=%u at (%d,%d) differs\n", v->suffix, S,
                vec, fm->eb, x, y);
        fail();
    }
    free(ref);
    free(a[0].image.data);
    free(s);
    return rc;
}

static void test_image_writes(void **state)
{
    (void)state;
    each_image_shape(image_write_case, 4);
    /* 4-byte elements: writes past each edge and corner are dropped */
    const int xs[] = { -16, -4, 0, 24, 40 };
    const int ys[] = { -3, 0, 4, 6 };
    for (size_t fi = 2; fi < sizeof fmts / sizeof fmts[0]; fi++)
        for (size_t a = 0; a < sizeof xs / sizeof xs[0]; a++)
            for (size_t b = 0; b < sizeof ys / sizeof ys[0]; b++) {
                sgemu_fault f;
                assert_int_equal(image_write_case(&variants[0], &fmts[fi], 8, 4, 10, 6,
                                                  xs[a], ys[b], &f), 0);
                assert_int_equal(image_write_case(&variants[3], &fmts[fi], 16, 2, 10, 6,
                                                  xs[a], ys[b], &f), 0);
            }
    /* smaller elements: an error naming the image and coordinate */
    sgemu_fault f;
    assert_int_equal(image_write_case(&variants[2], &fmts[1], 8, 2, 8, 4, 4, 0, &f),
                     SGEMU_EXIT_FAULT);
    assert_non_null(strstr(f.msg, "'img'"));
    assert_non_null(strstr(f.msg, "(16,0)"));
    assert_int_equal(image_write_case(&variants[3], &fmts[0], 8, 2, 32, 4, 0, 3, &f),
                     SGEMU_EXIT_FAULT);
    assert_non_null(strstr(f.msg, "(0,4)"));
    /* unaligned x */
    assert_int_equal(image_write_case(&variants[0], &fmts[3], 8, 1, 16, 4, 2, 0, &f),
                     SGEMU_EXIT_FAULT);
    assert_non_null(strstr(f.msg, "multiple of 4"));
    assert_non_null(strstr(f.msg, "(2,0)"));
    assert_non_null(strstr(f.msg, "test.sgasm:11"));
}

static void test_image_errors(void **state)
{
    (void)state;
    char src[2048];
    /* coordinate differs between work-items */
    snprintf(src, sizeof src,
        ".kernel ie\n.arg img image2d read_only\n"
        "  mov.u32 r0, %%sub_group_local_id\n"
        "  shl.u32 r0, r0, 2\n"
        "  intel_sub_group_block_read_image.u32 r8, %%img, r0, 0\n"
        "  ret\n");
    sgemu_argval a[1] = { image(&fmts[3], 64, 4, 0, 1) };
    sgemu_fault f;
    assert_int_equal(run(src, 8, 8, a, &f, NULL), SGEMU_EXIT_FAULT);
    assert_non_null(strstr(f.msg, "differs"));
    assert_non_null(strstr(f.msg, "(4,0)"));
    /* partial sub-group */
    snprintf(src, sizeof src,
        ".kernel ip\n.arg img image2d read_only\n"
        "  intel_sub_group_block_read_image.u32 r8, %%img, 0, 0\n"
        "  ret\n");
    assert_int_equal(run(src, 12, 8, a, &f, NULL), SGEMU_EXIT_FAULT);
    assert_non_null(strstr(f.msg, "partial sub-group"));
    /* reached by some work-items only */
    snprintf(src, sizeof src,
        ".kernel id\n.arg img image2d read_only\n"
        "  mov.u32 r0, %%sub_group_local_id\n"
        "  cmp.eq.u32 p0, r0, 5\n"
        "  bra p0, skip\n"
        "  intel_sub_group_block_read_image.u32 r8, %%img, 0, 0\n"
        "skip:\n"
        "  ret\n");
    assert_int_equal(run(src, 8, 8, a, &f, NULL), SGEMU_EXIT_FAULT);
    assert_non_null(strstr(f.msg, "only some"));
    assert_non_null(strstr(f.msg, "lane 5"));
    free(a[0].image.data);
    /* elements wider than 4 bytes */
    fmt wide = { SGEMU_ORDER_RGBA, SGEMU_CHTYPE_FLOAT, 16 };
    a[0] = image(&wide, 8, 4, 0, 2);
    snprintf(src, sizeof src,
        ".kernel iw\n.arg img image2d read_only\n"
        "  intel_sub_group_block_read_image.u32 r8, %%img, 0, 0\n"
        "  ret\n");
    assert_int_equal(run(src, 8, 8, a, &f, NULL), SGEMU_EXIT_FAULT);
    assert_non_null(strstr(f.msg, "at most 4 bytes"));
    free(a[0].image.data);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_buffer_reads),
        cmocka_unit_test(test_local_reads),
        cmocka_unit_test(test_buffer_writes),
        cmocka_unit_test(test_buffer_errors),
        cmocka_unit_test(test_image_reads),
        cmocka_unit_test(test_image_read_edges),
        cmocka_unit_test(test_image_writes),
        cmocka_unit_test(test_image_errors),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
