/* test_gen_diff.c - the Gen path against the SPIR-V path (docs/gen.md,
 * "Differential test"): on each Intel config (its device.ocloc_target),
 * every kernel of tests/kernels, examples/opencl and examples/bench that
 * ocloc compiles runs through both with the same generated inputs (buffers
 * of pseudo-random values, images of pseudo-random texels in the formats
 * the kernels need, small scalars); where both complete, every buffer and
 * image must be equal: integers bit for bit,
 * floats within 4 ulps, halves within 2 (IGC may contract and reorder where
 * OpenCL allows, and its half built-ins round differently within bounds).
 * Kernels and widths that ocloc refuses are listed with IGC's reason, those
 * the Gen path does not execute yet with what it refused.  Every kernel
 * runs at SIMD8, 16 and 32.
 * Skips (77) when ocloc or libiga64.so.1 is missing. */
#include "compile_cache.h"
#include "sgemu.h"
#include "gen/gen.h"

#include <dirent.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#define ITEMS 64          /* global size; work-groups of 32 */
#define PARTIAL 20        /* the second launch's work-groups: a partial sub-group at every width */
#define ELEMS 16384       /* elements of every buffer: room for strided kernels (112 a
                           * work-item) and offset ones (blockio reads from 8192 on) */

/* The Intel configs, each compiled for its device.ocloc_target. */
static const char *const configs[] = { "intel-gen9-gt2", "intel-xe-lp", "intel-xe-hpg",
                                       "intel-xe-hpc" };
static emu_config cfg;
static const char *src_root = ".";

typedef struct tally {
    uint32_t compared, mismatched;
    uint32_t refused_ocloc;   /* IGC refused the kernel or the width (its reason listed) */
    uint32_t refused_gen;     /* sgemu's Gen path does not execute it (what, listed) */
    uint32_t refused_spirv, skipped, faulted;
    uint32_t igc_differs;     /* both ran, outputs not compared: IGC's code differs (listed) */
} tally;

static uint32_t lcg(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

/* The arguments a caller passes (program-scope data blocks and IGC's
 * printf buffer are hidden arguments after them, bound by sgemu_run). */
static uint32_t user_args(const isa_kernel *k)
{
    return k->narg - (k->const_arg != 0) - (k->global_arg != 0) -
           (k->gen && k->gen->printf_arg != 0);
}

/* The format of each image argument, from the built-ins the kernel applies
 * to it: read_imageui / write_imageui an unsigned integer format,
 * read_imagef a float one (sampled reads also through a sampler), image
 * block I/O a single-channel one of the block's element size.  An image
 * not listed is CL_R CL_UNSIGNED_INT32 (block I/O on 32-bit elements and
 * the queries). */
static const struct image_format {
    const char *kernel, *arg;
    sgemu_channel_order order;
    sgemu_channel_type type;
} image_formats[] = {
    { "images", "src", SGEMU_ORDER_RGBA, SGEMU_CHTYPE_UNSIGNED_INT8 },
    { "images", "dst", SGEMU_ORDER_RGBA, SGEMU_CHTYPE_UNSIGNED_INT8 },
    { "images", "fsrc", SGEMU_ORDER_RGBA, SGEMU_CHTYPE_UNORM_INT8 },
    { "images", "fdst", SGEMU_ORDER_RGBA, SGEMU_CHTYPE_UNORM_INT8 },
    { "images", "ri", SGEMU_ORDER_RGBA, SGEMU_CHTYPE_UNSIGNED_INT32 },
    { "images", "wi", SGEMU_ORDER_RGBA, SGEMU_CHTYPE_UNSIGNED_INT32 },
    { "sampf", "fim", SGEMU_ORDER_RGBA, SGEMU_CHTYPE_FLOAT },
    { "sampu", "uim", SGEMU_ORDER_RGBA, SGEMU_CHTYPE_UNSIGNED_INT32 },
    { "image", "src", SGEMU_ORDER_RGBA, SGEMU_CHTYPE_UNSIGNED_INT16 },
    { "image", "dst", SGEMU_ORDER_RGBA, SGEMU_CHTYPE_UNSIGNED_INT16 },
    { "image", "fs", SGEMU_ORDER_RGBA, SGEMU_CHTYPE_FLOAT },
    { "sampler_xyz", "img", SGEMU_ORDER_RGBA, SGEMU_CHTYPE_FLOAT },
    { "imgquery", "a", SGEMU_ORDER_RGBA, SGEMU_CHTYPE_UNORM_INT8 },
    { "imgquery", "b", SGEMU_ORDER_RG, SGEMU_CHTYPE_FLOAT },
    { "imgquery", "c", SGEMU_ORDER_R, SGEMU_CHTYPE_SIGNED_INT16 },
    { "blk_image", "a16", SGEMU_ORDER_R, SGEMU_CHTYPE_UNSIGNED_INT16 },
    { "blk_image", "a8", SGEMU_ORDER_R, SGEMU_CHTYPE_UNSIGNED_INT8 },
    { "blk_img", "o16", SGEMU_ORDER_R, SGEMU_CHTYPE_UNSIGNED_INT16 },
    { "blk_img", "o8", SGEMU_ORDER_R, SGEMU_CHTYPE_UNSIGNED_INT8 },
    { "img_lin", "lsrc", SGEMU_ORDER_RGBA, SGEMU_CHTYPE_UNORM_INT8 },
    { "img_box", "bsrc", SGEMU_ORDER_RGBA, SGEMU_CHTYPE_UNSIGNED_INT8 },
    { "img_box", "bdst", SGEMU_ORDER_RGBA, SGEMU_CHTYPE_UNSIGNED_INT8 },
    { "img_tone", "tsrc", SGEMU_ORDER_RGBA, SGEMU_CHTYPE_FLOAT },
    { "img_tone", "tdst", SGEMU_ORDER_RGBA, SGEMU_CHTYPE_UNORM_INT8 },
    { "img_mirror", "msrc", SGEMU_ORDER_RGBA, SGEMU_CHTYPE_UNORM_INT16 },
    { "img_rw", "rw", SGEMU_ORDER_RGBA, SGEMU_CHTYPE_UNSIGNED_INT16 },
};

#define IMG_W 256   /* image elements a row: room for every sub-group's block */
#define IMG_H 16    /* rows: the highest block (16 rows) at y = 0 */

/* Image argument `arg` of kernel `kernel`: IMG_W x IMG_H elements of its
 * format, pseudo-random (floats in [0.5, 2.5]), the same on both paths. */
static int make_image(const char *kernel, const char *arg, sgemu_argval *v, uint32_t *seed)
{
    sgemu_channel_order o = SGEMU_ORDER_R;
    sgemu_channel_type t = SGEMU_CHTYPE_UNSIGNED_INT32;
    for (size_t f = 0; f < sizeof image_formats / sizeof *image_formats; f++)
        if (strcmp(image_formats[f].kernel, kernel) == 0 &&
            strcmp(image_formats[f].arg, arg) == 0) {
            o = image_formats[f].order;
            t = image_formats[f].type;
        }
    sgemu_image *im = &v->image;
    v->kind = SGEMU_VAL_IMAGE;
    im->width = IMG_W;
    im->height = IMG_H;
    im->order = (uint8_t)o;
    im->chtype = (uint8_t)t;
    im->elem_bytes = sgemu_image_elem_bytes(o, t);
    im->pitch = IMG_W * im->elem_bytes;
    size_t bytes = (size_t)im->pitch * IMG_H;
    im->data = malloc(bytes);
    if (!im->data)
        return -1;
    for (size_t b = 0; b < bytes; b += 4) {
        uint32_t r = lcg(seed);
        if (t == SGEMU_CHTYPE_FLOAT) {
            float f = 0.5f + (float)(r % 1000) / 500.0f;
            memcpy(&r, &f, 4);
        } else if (t == SGEMU_CHTYPE_HALF_FLOAT) {
            r = 0x3c003c00u | (r & 0x03ff03ffu);   /* two halves in [1, 2) */
        }
        memcpy(im->data + b, &r, 4);
    }
    return 0;
}

/* Inputs for the arguments of kernel k: the same bytes for both paths
 * (names: the kernel whose argument names pick image formats, the SPIR-V
 * one; IGC's zebin names no arguments). */
static int make_args(const isa_kernel *k, const isa_kernel *names, sgemu_argval *v, uint32_t seed)
{
    for (uint32_t i = 0; i < k->narg; i++)
        memset(&v[i], 0, sizeof v[i]);
    for (uint32_t i = 0; i < user_args(k); i++) {
        const isa_arg *a = &k->args[i];
        if (a->kind == ISA_ARG_SCALAR) {
            v[i].kind = SGEMU_VAL_SCALAR;
            if (a->type == ISA_T_F32) {
                float f = 1.5f;
                uint32_t b;
                memcpy(&b, &f, 4);
                v[i].scalar = b;
            } else {
                v[i].scalar = 2;
            }
        } else if (a->byval) {
            /* a vector or struct by value, its bytes on both paths: dword
             * q is 0x3F80 << 16 | q, a float near 1 and as a double's high
             * half one near 1/128, so that every piece IGC passes is seen */
            v[i].kind = SGEMU_VAL_BUFFER;
            v[i].bytes = a->byval;
            v[i].data = calloc(1, a->byval);
            if (!v[i].data)
                return -1;
            for (uint32_t q = 0; 4 * q < a->byval; q++) {
                uint32_t w = 0x3F800000u | q;
                memcpy(v[i].data + 4 * q, &w, a->byval - 4 * q < 4 ? a->byval - 4 * q : 4);
            }
        } else if (a->kind == ISA_ARG_GLOBAL || a->kind == ISA_ARG_CONSTANT) {
            uint32_t eb = isa_types[a->type].bytes;
            v[i].kind = SGEMU_VAL_BUFFER;
            v[i].bytes = (size_t)ELEMS * eb;
            v[i].data = malloc(v[i].bytes);
            for (size_t e = 0; e < ELEMS; e++) {
                uint32_t r = lcg(&seed);
                if (a->type == ISA_T_F32) {
                    float f = 0.5f + (float)(r % 1000) / 500.0f;
                    memcpy(v[i].data + e * 4, &f, 4);
                } else {
                    uint64_t x = r % PARTIAL;   /* below both work-group sizes: valid local ids */
                    memcpy(v[i].data + e * eb, &x, eb);
                }
            }
        } else if (a->kind == ISA_ARG_LOCAL) {
            v[i].kind = SGEMU_VAL_LOCAL;
            v[i].bytes = 32 * 32;   /* a work-group of 32 items, up to 32 bytes each */
        } else if (a->kind == ISA_ARG_IMAGE2D) {
            if (make_image(names->name, names->args[i].name, &v[i], &seed))
                return -1;
        } else {
            return -1;
        }
    }
    return 0;
}

static void free_args(const isa_kernel *k, sgemu_argval *v)
{
    for (uint32_t i = 0; i < k->narg; i++) {
        free(v[i].data);
        free(v[i].image.data);
    }
}

static bool same_float(float x, float y)
{
    if (isnan(x) || isnan(y))
        return isnan(x) && isnan(y);
    int32_t a, b;
    memcpy(&a, &x, 4);
    memcpy(&b, &y, 4);
    if ((a < 0) != (b < 0))
        return x == y;
    return abs(a - b) <= 4;
}

/* Doubles within 4 ulps (IGC's double library against the host's), NaNs of
 * any sign and payload alike. */
static bool same_double(double x, double y)
{
    if (isnan(x) || isnan(y))
        return isnan(x) && isnan(y);
    int64_t a, b;
    memcpy(&a, &x, 8);
    memcpy(&b, &y, 8);
    if ((a < 0) != (b < 0))
        return x == y;
    return llabs(a - b) <= 4;
}

/* Outputs not compared, where the two paths may differ: those the OpenCL
 * spec leaves undefined, and where IGC's answer differs from sgemu's for a
 * reason given here.  The 4-byte elements e of the kernel's buffers with
 * e % stride == index. */
static const struct undefined_out {
    const char *kernel;
    const char *target;       /* only on this ocloc target (NULL: on all) */
    uint32_t stride, lo, hi;  /* elements lo..hi of every stride */
    const char *why;
} undefined_outs[] = {
    /* o[8]: sub_group_clustered_reduce_add in divergent control flow (a switch
     * on v); cl_khr_subgroup_clustered_reduce requires every work-item of the
     * sub-group to reach it.  IGC writes the result with NoMask, so another
     * case's reduction overwrites it, as on the hardware. */
    { "branch_collectives", NULL, 16, 8, 8, "clustered reduce in divergent control flow" },
    /* o[5]: sub_group_ballot_bit_extract with an index (generated, up to 31)
     * at or above the sub-group size: undefined */
    { "ballot", NULL, 40, 5, 5, "bit_extract index >= the sub-group size" },
    /* o[9], o[10]: sub_group_ballot_find_lsb / find_msb of a generated value
     * with no bit set below the sub-group size: undefined */
    { "ballot", NULL, 40, 9, 9, "find_lsb of a value with no bit in the sub-group" },
    { "ballot", NULL, 40, 10, 10, "find_msb of a value with no bit in the sub-group" },
    /* o[15], o[19]: the .x of get_sub_group_ge_mask / gt_mask.  IGC sets the
     * bits from the lane up to 31 (asr of 0x80000000), also those at and
     * above the sub-group size, which cl_khr_subgroup_ballot leaves clear
     * (sgemu's answer): IGC differs from the spec at SIMD8 and SIMD16 */
    { "masks", NULL, 40, 15, 15, "IGC's ge_mask sets bits above the sub-group size" },
    { "masks", NULL, 40, 19, 19, "IGC's gt_mask sets bits above the sub-group size" },
    /* p[16]: dot(u, v) = x*y + y/4 + 1.5x - 6 cancels; IGC contracts it into
     * mads, so the few-ulp differences of the terms grow without bound
     * relative to the result */
    { "fext", NULL, 37, 16, 16, "dot product with cancellation, contracted by IGC" },
    /* p[19]: cross(u, v).y = 1.5y - x*x, the same */
    { "fext", NULL, 37, 19, 19, "cross product with cancellation, contracted by IGC" },
    /* lgamma_r: the OpenCL spec sets no bound on its error (7 ulps apart
     * at x = 1.1) and leaves the sign at a pole (-1, -2) open: IGC returns
     * 0 there, sgemu 1.  unary_f's and unary_d's o[22]; vecptr's l and s (elements 4..7
     * of each 8 in out and iout) */
    { "unary_f", NULL, 25, 22, 22, "lgamma_r: no error bound in the spec" },
    { "unary_d", NULL, 25, 22, 22, "lgamma_r: no error bound in the spec" },
    { "vecptr", NULL, 8, 4, 7, "lgamma_r: no error bound, sign at a pole open" },
    /* tests/gen's shuffle with generated indices, most of them at or above
     * the sub-group size: undefined (gen-exec checks it with valid ones) */
    { "shuffle", NULL, 1, 0, 0, "shuffle index >= the sub-group size" },
    /* conformance_arith's clustered reductions of 64-bit values under
     * divergence (slots 40..81).  cl_khr_subgroup_clustered_reduce reduces
     * the active work-items of each cluster of consecutive sub-group local
     * ids; IGC's Xe-HPC code for 64-bit types instead takes the next
     * cluster-size active lanes from the execution mask (m & (m - 1) steps
     * and a bfn mask), so that a cluster can span lanes of two clusters:
     * IGC differs from the spec there (32-bit types and double are
     * compared and equal) */
    { "arith_long", "pvc", 112, 40, 81, "IGC's pvc 64-bit clustered reduce: active-lane clusters" },
    { "arith_ulong", "pvc", 112, 40, 81, "IGC's pvc 64-bit clustered reduce: active-lane clusters" },
};

static bool undefined_elem(const char *kernel, size_t e)
{
    for (size_t i = 0; i < sizeof undefined_outs / sizeof *undefined_outs; i++)
        if (strcmp(undefined_outs[i].kernel, kernel) == 0 &&
            (!undefined_outs[i].target || strcmp(undefined_outs[i].target, cfg.ocloc_target) == 0) &&
            e % undefined_outs[i].stride >= undefined_outs[i].lo &&
            e % undefined_outs[i].stride <= undefined_outs[i].hi)
            return true;
    return false;
}

/* sampler_t arguments (scalars to make_args; IGC's zebin says which):
 * unnormalised coordinates, CLK_ADDRESS_CLAMP (the border colour outside
 * the image) and nearest filtering, valid for integer coordinates too. */
static void set_samplers(const isa_kernel *g, sgemu_argval *va, sgemu_argval *vb)
{
    for (uint32_t si = 0; si < GEN_MAX_SAMPLERS; si++) {
        int a = g->gen->sampler_arg[si];
        if (a >= 0 && (uint32_t)a < user_args(g)) {
            va[a].scalar = 0x14;   /* CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST */
            vb[a].scalar = 0x14;
        }
    }
}

/* Image argument i after both runs: bit for bit, floats within 4 ulps.
 * Read-only images are compared too (a kernel must not change them). */
static bool same_image(const char *name, uint32_t w, const char *shape, const isa_arg *a,
                       const sgemu_image *x, const sgemu_image *y)
{
    size_t bytes = (size_t)x->pitch * x->height;
    for (size_t b = 0; b < bytes; b += 4) {
        uint32_t p, q;
        memcpy(&p, x->data + b, 4);
        memcpy(&q, y->data + b, 4);
        float fp, fq;
        memcpy(&fp, &p, 4);
        memcpy(&fq, &q, 4);
        if (p != q && (x->chtype != SGEMU_CHTYPE_FLOAT || !same_float(fp, fq))) {
            printf("  MISMATCH %s SIMD%u%s image %s, element (%zu,%zu): gen 0x%x spirv 0x%x\n",
                   name, w, shape, a->name, b % x->pitch / x->elem_bytes, b / x->pitch, p, q);
            return false;
        }
    }
    return true;
}

/* Kernels whose outputs IGC's code for a target legitimately does not
 * share with the SPIR-V path (docs/gen.md, "Images"): both run, with no
 * fault, and the pair is listed with the reason instead of compared. */
static const struct igc_difference {
    const char *kernel, *target, *why;
} igc_differences[] = {
    { "images", "pvc", "IGC's pvc code reads images with no message (read_image* is 0)" },
    { "sampf", "pvc", "IGC's pvc code reads images with no message (read_image* is 0)" },
    { "sampu", "pvc", "IGC's pvc code reads images with no message (read_image* is 0)" },
    { "image", "pvc", "IGC's pvc code reads images with no message (read_image* is 0)" },
    { "sampler_xyz", "pvc", "IGC's pvc code reads images with no message (read_image* is 0)" },
    { "img_lin", "pvc", "IGC's pvc code reads images with no message (read_image* is 0)" },
    { "img_box", "pvc", "IGC's pvc code reads images with no message (read_image* is 0)" },
    { "img_tone", "pvc", "IGC's pvc code reads images with no message (read_image* is 0)" },
    { "img_mirror", "pvc", "IGC's pvc code reads images with no message (read_image* is 0)" },
    { "img_rw", "pvc", "IGC's pvc code reads images with no message (read_image* is 0)" },
    { "ld_none", "pvc", "IGC's pvc code reads images with no message (read_image* is 0)" },
};

static const char *igc_differs(const char *kernel)
{
    for (size_t i = 0; i < sizeof igc_differences / sizeof *igc_differences; i++)
        if (strcmp(igc_differences[i].kernel, kernel) == 0 &&
            strcmp(igc_differences[i].target, cfg.ocloc_target) == 0)
            return igc_differences[i].why;
    return NULL;
}

/* The first line of a compiler's output that says "error" (IGC's reason),
 * else the whole text. */
static const char *first_error(const char *msg)
{
    const char *e = strstr(msg, "error");
    if (!e)
        return msg;
    while (e > msg && e[-1] != '\n')
        e--;
    return e;
}

/* Kernel g (Gen) and s (SPIR-V) at width w over `items` work-items in
 * work-groups of `local`, on the same generated inputs; true when both ran
 * and agreed, else the outcome is counted in t (shape names the launch). */
static bool pair(const char *name, uint32_t w, const isa_kernel *g, const isa_kernel *s,
                 uint64_t items, uint64_t local, const char *shape, tally *t)
{
    bool ok = false;
    sgemu_argval va[ISA_MAX_ARGS], vb[ISA_MAX_ARGS];
    memset(va, 0, sizeof va);
    memset(vb, 0, sizeof vb);
    if (user_args(g) != user_args(s) || make_args(g, s, va, 11) ||
        make_args(s, s, vb, 11)) {
        printf("  skipped %-28s SIMD%-2u argument kinds\n", name, w);
        t->skipped++;
        free_args(g, va);
        free_args(s, vb);
        return false;
    }
    set_samplers(g, va, vb);
    sgemu_launch L;
    memset(&L, 0, sizeof L);
    L.dims = 1;
    L.global[0] = items;
    L.local[0] = local;
    L.local_given = true;
    L.sg_width = g->gen->simd;
    L.max_instructions = 50000000;
    sgemu_stats st;
    sgemu_fault fg, fs;
    int rg = sgemu_run(g, &cfg, &L, va, &st, &fg);
    sgemu_stats_free(&st);
    int rs = sgemu_run(s, &cfg, &L, vb, &st, &fs);
    sgemu_stats_free(&st);
    if (rg == SGEMU_EXIT_USER) {
        const char *at = strstr(fg.msg, "\n  at ");
        printf("  refused %-28s SIMD%-2u %.*s%s\n", name, w,
               at ? (int)strcspn(at + 6, "\n") : 60, at ? at + 6 : fg.msg, shape);
        t->refused_gen++;
    } else if (rs && !rg && local % w && strstr(fs.msg, "block I/O in a partial sub-group")) {
        /* cl_intel_subgroups leaves block I/O in a partial sub-group
         * undefined: sgemu's own path stops there, IGC's code runs on */
        printf("  (block I/O in a partial sub-group: undefined, not compared%s)\n", shape);
        ok = true;
    } else if (rg || rs) {
        printf("  faulted %-28s SIMD%-2u gen %d, spirv %d (generated inputs%s): %.300s\n",
               name, w, rg, rs, shape, rg ? fg.msg : fs.msg);
        t->faulted++;
    } else if (igc_differs(name)) {
        ok = true;   /* listed by one() */
    } else {
        ok = true;
        for (uint32_t i = 0; i < user_args(g); i++) {
            if (va[i].kind == SGEMU_VAL_IMAGE && ok)
                ok = same_image(name, w, shape, &g->args[i], &va[i].image, &vb[i].image);
            if (va[i].kind != SGEMU_VAL_BUFFER)
                continue;
            bool fl = g->args[i].type == ISA_T_F32;
            for (size_t e = 0; e < ELEMS && 4 * e + 4 <= va[i].bytes && ok; e++) {
                if (fl && !undefined_elem(name, e)) {
                    float x, y;
                    memcpy(&x, va[i].data + 4 * e, 4);
                    memcpy(&y, vb[i].data + 4 * e, 4);
                    if (!same_float(x, y)) {
                        printf("  MISMATCH %s SIMD%u%s %s[%zu]: gen %.9g spirv %.9g\n", name, w,
                               shape, g->args[i].name, e, x, y);
                        ok = false;
                    }
                }
            }
            const size_t eb = isa_types[g->args[i].type].bytes ? isa_types[g->args[i].type].bytes : 4;
            for (size_t e = 0; !fl && e + eb <= va[i].bytes; e += eb)
                if (undefined_elem(name, e / eb))   /* not compared */
                    memcpy(va[i].data + e, vb[i].data + e, eb);
            /* half results: within 2 ulps (the built-ins' bounds allow it) */
            for (size_t e = 0; g->args[i].type == ISA_T_F16 && e + 2 <= va[i].bytes; e += 2) {
                uint16_t x, y;
                memcpy(&x, va[i].data + e, 2);
                memcpy(&y, vb[i].data + e, 2);
                if ((x & 0x8000) == (y & 0x8000) && (x & 0x7c00) != 0x7c00 &&
                    abs((int)x - (int)y) <= 2)
                    memcpy(va[i].data + e, &y, 2);
            }
            /* double results: within 4 ulps, as floats */
            for (size_t e = 0; g->args[i].type == ISA_T_F64 && e + 8 <= va[i].bytes; e += 8) {
                double x, y;
                memcpy(&x, va[i].data + e, 8);
                memcpy(&y, vb[i].data + e, 8);
                if (same_double(x, y))
                    memcpy(va[i].data + e, &y, 8);
            }
            if (!fl && memcmp(va[i].data, vb[i].data, va[i].bytes) != 0) {
                size_t e = 0;
                while (va[i].data[e] == vb[i].data[e])
                    e++;
                uint32_t x = 0, y = 0;
                memcpy(&x, va[i].data + e / 4 * 4, e / 4 * 4 + 4 <= va[i].bytes ? 4 : 0);
                memcpy(&y, vb[i].data + e / 4 * 4, e / 4 * 4 + 4 <= vb[i].bytes ? 4 : 0);
                printf("  MISMATCH %s SIMD%u%s buffer %s, first at byte %zu: gen 0x%x spirv 0x%x\n",
                       name, w, shape, g->args[i].name, e, x, y);
                ok = false;
            }
        }
        if (!ok)
            t->mismatched++;
    }
    free_args(g, va);
    free_args(s, vb);
    return ok;
}

/* One kernel at one width from the file's zebin for that width (z: the
 * zebin or ocloc's refusal) and its SPIR-V (spv: the module or clang's
 * refusal); returns true when both paths ran and agreed. */
static bool one(const char *path, const char *name, uint32_t w, const cc_result *z,
                const cc_result *spv, tally *t)
{
    char err[2048];
    isa_kernel g, s;
    int lrc = 1;
    if (z->rc == 0)
        lrc = gen_load_zebin(z->data, z->len, cfg.ocloc_target, name, path, &g, err, sizeof err);
    else
        snprintf(err, sizeof err, "%s", z->msg);
    if (lrc == 0 && g.gen->simd != w) {   /* intel_reqd_sub_group_size: compiled once */
        isa_kernel_free(&g);
        return false;
    }
    if (lrc) {
        const char *e = first_error(err);
        bool igc = z->rc != 0 || strncmp(err, "ocloc ", 6) == 0;   /* IGC built no code */
        printf("  refused %-28s SIMD%-2u %s: %.*s\n", name, w, igc ? "ocloc" : "load",
               (int)strcspn(e, "\n"), e);
        if (igc)
            t->refused_ocloc++;
        else
            t->refused_gen++;
        return false;
    }
    sgemu_load_opts lo = { .entry = name };
    sgemu_fault f;
    isa_diags d;
    memset(&d, 0, sizeof d);
    FILE *devnull = fopen("/dev/null", "w");
    lo.log = devnull;
    int rc = spv->rc ? spv->rc
                     : sgemu_kernel_from_memory(path, SGEMU_SOURCE_SPIRV, spv->data, spv->len,
                                                &lo, &s, NULL, &d, &f);
    if (devnull)
        fclose(devnull);
    isa_diags_free(&d);
    if (rc) {
        t->refused_spirv++;
        isa_kernel_free(&g);
        return false;
    }
    /* work-groups of 32, then of 20: a partial sub-group at every width
     * (8 + 8 + 4, 16 + 4, 20 of 32), so that collectives and block I/O are
     * compared with lanes off too */
    bool ok = pair(name, w, &g, &s, ITEMS, 32, "", t) &&
              pair(name, w, &g, &s, 3 * PARTIAL, PARTIAL, " in work-groups of 20", t);
    const char *why = igc_differs(name);
    if (ok && why) {
        t->igc_differs++;
        printf("  differs %-28s SIMD%-2u %s\n", name, w, why);
    } else if (ok) {
        t->compared++;
        printf("  equal   %-28s SIMD%u\n", name, w);
    }
    isa_kernel_free(&g);
    isa_kernel_free(&s);
    return ok;
}

/* The files run by default (CI runs this test twice, plain and under ASan):
 * on Xe-LP one kernel per feature the Gen path executes, on every Intel
 * config vector add (whose generated n = 2 checks two items) and tests/gen's
 * ids (the IDs of every item: each hardware thread's payload) at each of its
 * widths.  SGEMU_GEN_DIFF=all runs the
 * whole corpus on every config; SGEMU_GEN_DIFF=FILE.cl just that file;
 * SGEMU_GEN_CONFIG=NAME just that config. */
static const char *const subset[] = {
    "intel_shuffle.cl", "control.cl", "wg_scan.cl", "atomics.cl", "halffn.cl",
    "constdata.cl", "images.cl", "lib_reduce.cl",
};

static bool selected(const char *dir, const char *file, bool everywhere)
{
    const char *sel = getenv("SGEMU_GEN_DIFF");
    if (sel && strcmp(sel, "all") == 0)
        return true;
    if (sel && *sel)
        return strcmp(sel, file) == 0;
    if (strcmp(file, "vector_add.cl") == 0 && strcmp(dir, "examples/opencl") == 0)
        return true;
    if (strcmp(file, "ids.cl") == 0)   /* every item's IDs: each thread's payload */
        return true;
    for (size_t i = 0; everywhere && i < sizeof subset / sizeof *subset; i++)
        if (strcmp(subset[i], file) == 0)
            return true;
    return false;
}

static void corpus(void **state)
{
    const char *config = *state;
    const char *only = getenv("SGEMU_GEN_CONFIG");
    if (only && *only && strcmp(only, config) != 0)
        skip();
    isa_diags d;
    memset(&d, 0, sizeof d);
    if (emu_config_load_bundled(config, &cfg, &d) != 0) {
        isa_diags_print(&d, stderr);
        fail();
    }
    assert_string_not_equal(cfg.ocloc_target, "none");
    /* the subset runs on Xe-LP; vector add on every config */
    const bool subset_here = strcmp(config, "intel-xe-lp") == 0;
    printf("%s (ocloc -device %s):\n", config, cfg.ocloc_target);
    static const char *const dirs[] = { "tests/kernels", "examples/opencl", "examples/bench",
                                        "tests/gen/kernels" };
    tally t = { 0 };
    for (size_t di = 0; di < sizeof dirs / sizeof *dirs; di++) {
        char dir[1024];
        snprintf(dir, sizeof dir, "%s/%s", src_root, dirs[di]);
        DIR *dp = opendir(dir);
        assert_non_null(dp);
        struct dirent *de;
        while ((de = readdir(dp))) {
            size_t n = strlen(de->d_name);
            if (n < 4 || strcmp(de->d_name + n - 3, ".cl") != 0 ||
                !selected(dirs[di], de->d_name, subset_here))
                continue;
            char path[2100];
            snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
            /* one compile of the file per width, every kernel loaded from it;
             * the SPIR-V once, unless the source asks for WIDTH (tests/gen's
             * kernels), and shared by the configs through the cache */
            char *text = sgemu_read_file(path, NULL, NULL);
            const bool per_width = text && strstr(text, "WIDTH");
            free(text);
            cc_result zs[3], spv[3];
            for (uint32_t wi = 0; wi < 3; wi++) {
                char inc[1100], incdir[1100], wdef[32];
                snprintf(inc, sizeof inc, "-I%s -DWIDTH=%u", dir, 8u << wi);
                cc_ocloc(path, cfg.ocloc_target, inc, 8u << wi, &zs[wi]);
                snprintf(incdir, sizeof incdir, "-I%s", dir);
                snprintf(wdef, sizeof wdef, "-DWIDTH=%u", 8u << wi);
                const char *clopts[] = { incdir, wdef };
                if (per_width || wi == 0)
                    cc_spirv(path, clopts, per_width ? 2 : 1, src_root, &spv[wi]);
            }
            /* the kernels: from a width IGC compiled, else IGC's own choice */
            char names[32][64];
            uint32_t nk = 0;
            for (uint32_t wi = 0; wi < 3 && !nk; wi++)
                if (zs[wi].rc == 0)
                    nk = gen_zebin_kernels(zs[wi].data, zs[wi].len, names, 32);
            if (!nk) {
                char inc[1100];
                snprintf(inc, sizeof inc, "-I%s -DWIDTH=16", dir);
                cc_result z;
                cc_ocloc(path, cfg.ocloc_target, inc, 0, &z);
                if (z.rc) {
                    const char *e = first_error(z.msg);
                    printf("  refused %-28s ocloc: %.*s\n", de->d_name, (int)strcspn(e, "\n"),
                           e);
                    t.refused_ocloc++;
                } else {
                    nk = gen_zebin_kernels(z.data, z.len, names, 32);
                }
                free(z.data);
            }
            for (uint32_t k = 0; k < nk; k++)
                for (uint32_t wi = 0; wi < 3; wi++)
                    one(path, names[k], 8u << wi, &zs[wi], &spv[per_width ? wi : 0], &t);
            for (uint32_t wi = 0; wi < 3; wi++) {
                free(zs[wi].data);
                if (per_width || wi == 0)
                    free(spv[wi].data);
            }
        }
        closedir(dp);
    }
    printf("%s gen vs spirv: %u kernel x width runs equal, %u refused by ocloc, %u not "
           "executed by the Gen path, %u refused by the SPIR-V path, %u faulted on generated "
           "inputs, %u skipped\n", config, t.compared, t.refused_ocloc, t.refused_gen,
           t.refused_spirv, t.faulted, t.skipped);
    printf("%s gen vs spirv: %u mismatched\n", config, t.mismatched);
    printf("%s gen vs spirv: %u listed where IGC's code differs\n", config, t.igc_differs);
    printf("%s compile cache: %u hits, %u misses\n", config, cc_stats.hits, cc_stats.misses);
    cc_stats.hits = cc_stats.misses = 0;
    assert_int_equal(t.mismatched, 0);
    assert_true(t.compared > 0);
}

int main(void)
{
    char err[256];
    if (system("command -v ocloc >/dev/null 2>&1") != 0) {
        printf("skipped: ocloc (Debian package intel-opencl-icd) is not installed\n");
        return 77;
    }
    if (!gen_iga_open(err, sizeof err)) {
        printf("skipped: %s\n", err);
        return 77;
    }
    const char *src = getenv("SGEMU_SRC");
    if (src)
        src_root = src;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_prestate(corpus, (void *)configs[0]),
        cmocka_unit_test_prestate(corpus, (void *)configs[1]),
        cmocka_unit_test_prestate(corpus, (void *)configs[2]),
        cmocka_unit_test_prestate(corpus, (void *)configs[3]),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
