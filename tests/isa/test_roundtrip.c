/* test_roundtrip.c - assemble -> disassemble -> assemble is the identity
 * (every instruction field but line/col, and the kernel's directives) for
 * every fixture in tests/fixtures/isa/, every examples/ ** / *.sgasm, and a
 * kernel generated from the opcode table with every opcode and type.
 * argv[1] = fixtures dir, argv[2] = examples dir. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "isa.h"
#include "test_file.h"

static const char *fixtures_dir, *examples_dir;

static void same_kernel(const isa_kernel *a, const isa_kernel *b)
{
    assert_string_equal(a->name, b->name);
    assert_int_equal(a->reqd_sg_size, b->reqd_sg_size);
    assert_int_equal(a->local_mem, b->local_mem);
    assert_int_equal(a->private_mem, b->private_mem);
    assert_int_equal(a->narg, b->narg);
    for (uint32_t i = 0; i < a->narg; i++) {
        assert_string_equal(a->args[i].name, b->args[i].name);
        assert_int_equal(a->args[i].kind, b->args[i].kind);
        assert_int_equal(a->args[i].type, b->args[i].type);
        assert_int_equal(a->args[i].access, b->args[i].access);
        assert_int_equal(a->args[i].byval, b->args[i].byval);
        assert_int_equal(a->args[i].byval_vec, b->args[i].byval_vec);
        assert_string_equal(a->args[i].cl_type, b->args[i].cl_type);
    }
    assert_int_equal(a->ninst, b->ninst);
    assert_int_equal(a->nreg, b->nreg);
    assert_int_equal(a->npred, b->npred);
    assert_int_equal(a->grf_bytes_per_lane, b->grf_bytes_per_lane);
    for (uint32_t i = 0; i < a->ninst; i++) {
        isa_inst x = a->inst[i], y = b->inst[i];
        x.line = x.col = y.line = y.col = 0;
        if (memcmp(&x, &y, sizeof x) != 0) {
            char s1[256], s2[256];
            isa_format_inst(a, &a->inst[i], s1, sizeof s1);
            isa_format_inst(b, &b->inst[i], s2, sizeof s2);
            fprintf(stderr, "instruction %u differs:\n  %s\n  %s\n", i, s1, s2);
        }
        assert_memory_equal(&x, &y, sizeof x);
    }
}

static void roundtrip_text(const char *name, const char *src, size_t len)
{
    isa_kernel k1, k2;
    isa_diags d;
    memset(&d, 0, sizeof d);
    int e = isa_assemble(name, src, len, &k1, &d);
    if (e)
        isa_diags_print(&d, stderr);
    assert_int_equal(e, 0);
    char *t1 = isa_disassemble(&k1);
    assert_non_null(t1);
    e = isa_assemble("disassembly", t1, strlen(t1), &k2, &d);
    if (e) {
        isa_diags_print(&d, stderr);
        fprintf(stderr, "%s", t1);
    }
    assert_int_equal(e, 0);
    same_kernel(&k1, &k2);
    char *t2 = isa_disassemble(&k2);
    assert_string_equal(t1, t2);          /* the spelling is canonical */
    free(t1);
    free(t2);
    isa_kernel_free(&k1);
    isa_kernel_free(&k2);
    isa_diags_free(&d);
}

static bool ends_with(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && strcmp(s + a - b, suf) == 0;
}

/* Round-trip every *.sgasm under dir (recursively if `deep`). */
static int walk(const char *dir, bool deep)
{
    DIR *dp = opendir(dir);
    if (!dp)
        return 0;
    int count = 0;
    struct dirent *de;
    while ((de = readdir(dp))) {
        if (de->d_name[0] == '.')
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        struct stat sb;
        if (stat(path, &sb) != 0)
            continue;
        if (S_ISDIR(sb.st_mode)) {
            if (deep)
                count += walk(path, deep);
        } else if (ends_with(path, ".sgasm")) {
            size_t len = 0;
            char *src = file_read_all(path, &len);
            assert_non_null(src);
            roundtrip_text(path, src, len);
            free(src);
            count++;
        }
    }
    closedir(dp);
    return count;
}

static void test_fixtures(void **st)
{
    (void)st;
    assert_non_null(fixtures_dir);
    int n = walk(fixtures_dir, false);
    assert_true(n >= 3);
}

static void test_examples(void **st)
{
    (void)st;
    if (examples_dir)
        walk(examples_dir, true);   /* may be empty while examples are written */
}

/* One instruction per (opcode, allowed type), operands from the shape. */
static void test_every_opcode(void **st)
{
    (void)st;
    size_t cap = 1 << 20, len = 0;
    char *src = malloc(cap);
    len += (size_t)snprintf(src + len, cap - len,
                            ".kernel every\n.arg buf global f32\n.arg lb local i32\n"
                            ".arg img image2d read_write\n.arg vol image3d read_only\n.private_mem 8\n"
                            ".printf \"x=%%d;\\n\"\ntop:\n");
    int lines = 0;
    for (int op = 0; op < ISA_OP_COUNT; op++) {
        const isa_op_info *oi = &isa_ops[op];
        for (int t = -1; t < ISA_T_COUNT; t++) {
            if ((t < 0) != (oi->types == ISA_TM_NONE))
                continue;
            if (t >= 0 && !(oi->types & (1u << t)))
                continue;
            for (int v = 1; v <= 4; v *= 4) {
                if (v > 1 && (t < 0 || !(oi->types & ISA_TM_VEC)))
                    continue;
                const bool three = oi->shape == ISA_SHAPE_IMGV_LD ||
                                   oi->shape == ISA_SHAPE_IMGV_SMP;
                if (three && v != 4)   /* 3D reads are x4 only */
                    continue;
                char mn[128];
                int m = snprintf(mn, sizeof mn, "%s", oi->mnemonic);
                bool mem = oi->family == ISA_FAM_LD || oi->family == ISA_FAM_ST ||
                           oi->family == ISA_FAM_ATOM;
                if (mem || oi->shape == ISA_SHAPE_BLK_LD || oi->shape == ISA_SHAPE_BLK_ST)
                    m += snprintf(mn + m, sizeof mn - (size_t)m, ".global");
                if (oi->family == ISA_FAM_CMP)
                    m += snprintf(mn + m, sizeof mn - (size_t)m, ".ge");
                if (t >= 0)
                    m += snprintf(mn + m, sizeof mn - (size_t)m, ".%s", isa_types[t].asm_name);
                if (v > 1)
                    m += snprintf(mn + m, sizeof mn - (size_t)m, "x%d", v);
                if (oi->family == ISA_FAM_CVT)
                    snprintf(mn + m, sizeof mn - (size_t)m, ".f32");
                len += (size_t)snprintf(src + len, cap - len, "    %s", mn);
                const char *pat = oi->shape == ISA_SHAPE_NONE ? "" :
                    oi->shape == ISA_SHAPE_D ? "d" : oi->shape == ISA_SHAPE_D_S ? "ds" :
                    oi->shape == ISA_SHAPE_D_S_S ? "dss" : oi->shape == ISA_SHAPE_D_S_S_S ? "dsss" :
                    oi->shape == ISA_SHAPE_D_S_ID ? "dsss" : oi->shape == ISA_SHAPE_P_S_S ? "Pss" :
                    oi->shape == ISA_SHAPE_D_P_S_S ? "dqss" : oi->shape == ISA_SHAPE_P_P_P ? "Pqq" :
                    oi->shape == ISA_SHAPE_P_P ? "Pq" : oi->shape == ISA_SHAPE_LD ? "da" :
                    oi->shape == ISA_SHAPE_ST ? "as" : oi->shape == ISA_SHAPE_ATOM ? "das" :
                    oi->shape == ISA_SHAPE_ATOM2 ? "dass" : oi->shape == ISA_SHAPE_BRA ? "ql" :
                    oi->shape == ISA_SHAPE_BLK_LD ? "da" : oi->shape == ISA_SHAPE_BLK_ST ? "as" :
                    oi->shape == ISA_SHAPE_IMG_LD ? "diss" : oi->shape == ISA_SHAPE_IMG_ST ? "isss" :
                    oi->shape == ISA_SHAPE_IMG_SMP ? "disss" :
                    oi->shape == ISA_SHAPE_IMGV_LD ? "dIr" : oi->shape == ISA_SHAPE_IMGV_SMP ? "dIrs" :
                    oi->shape == ISA_SHAPE_IMGV_ST ? "Irr" :
                    oi->shape == ISA_SHAPE_MB_LD ? "dirwh" : oi->shape == ISA_SHAPE_MB_ST ? "irwhs" :
                    oi->shape == ISA_SHAPE_PRINTF ? "dss" : "di";
                for (int i = 0; pat[i]; i++) {
                    const char *sep = i ? ", " : " ";
                    switch (pat[i]) {
                    case 'd': len += (size_t)snprintf(src + len, cap - len, "%sr%d", sep, 16 * (i + 1)); break;
                    case 'P': len += (size_t)snprintf(src + len, cap - len, "%sp3", sep); break;
                    case 'q': len += (size_t)snprintf(src + len, cap - len, "%s!p%d", sep, i); break;
                    case 's':   /* alternate registers and immediates */
                        if (oi->shape == ISA_SHAPE_PRINTF)   /* format 0, record at 0 */
                            len += (size_t)snprintf(src + len, cap - len, "%s0", sep);
                        else if ((i + lines) % 2)
                            len += (size_t)snprintf(src + len, cap - len, "%s2", sep);
                        else
                            len += (size_t)snprintf(src + len, cap - len, "%sr%d", sep, 16 * (i + 1));
                        break;
                    case 'a': len += (size_t)snprintf(src + len, cap - len, "%s[%%buf + r9:u32*4 - 8]", sep); break;
                    case 'l': len += (size_t)snprintf(src + len, cap - len, "%stop", sep); break;
                    case 'i': len += (size_t)snprintf(src + len, cap - len, "%s%%img", sep); break;
                    case 'I': len += (size_t)snprintf(src + len, cap - len, "%s%%vol", sep); break;
                    case 'r': len += (size_t)snprintf(src + len, cap - len, "%sr%d", sep, 16 * (i + 1)); break;
                    case 'w':   /* a media block 4 bytes wide (its width in elements) */
                        len += (size_t)snprintf(src + len, cap - len, "%s%u", sep,
                                                4u / isa_types[t].bytes);
                        break;
                    case 'h': len += (size_t)snprintf(src + len, cap - len, "%s2", sep); break;
                    }
                }
                len += (size_t)snprintf(src + len, cap - len, "\n");
                lines++;
            }
        }
    }
    assert_true(len < cap - 1);
    assert_true(lines > ISA_OP_COUNT);
    roundtrip_text("every.sgasm", src, len);
    free(src);
}

/* The image channel queries: their spelling assembles to the two opcodes
 * with the image operand and the image space, and survives a round trip. */
static void test_image_channel_queries(void **st)
{
    (void)st;
    static const char src[] =
        ".kernel q\n.arg x global i32\n.arg im image2d read_only\n"
        "    get_image_channel_data_type.u32 r0, %im\n"
        "    get_image_channel_order.i32 r1, %im\n"
        "    ret\n";
    isa_kernel k;
    isa_diags d;
    memset(&d, 0, sizeof d);
    int e = isa_assemble("q", src, sizeof src - 1, &k, &d);
    if (e)
        isa_diags_print(&d, stderr);
    assert_int_equal(e, 0);
    assert_int_equal(k.ninst, 3);
    const int ops[2] = { ISA_OP_GET_IMAGE_CHANNEL_DATA_TYPE, ISA_OP_GET_IMAGE_CHANNEL_ORDER };
    const int types[2] = { ISA_T_U32, ISA_T_I32 };
    for (int i = 0; i < 2; i++) {
        const isa_inst *in = &k.inst[i];
        assert_int_equal(in->op, ops[i]);
        assert_int_equal(in->type, types[i]);
        assert_int_equal(in->space, ISA_SPACE_IMAGE);
        assert_int_equal(in->nopnd, 2);
        assert_int_equal(in->o[0].kind, ISA_OPND_REG);
        assert_int_equal(in->o[0].reg, i);
        assert_int_equal(in->o[1].kind, ISA_OPND_ARG);
        assert_int_equal(in->o[1].reg, 1);   /* %im is the second argument */
    }
    char *t = isa_disassemble(&k);
    assert_non_null(t);
    assert_non_null(strstr(t, "get_image_channel_data_type.u32 r0, %im"));
    assert_non_null(strstr(t, "get_image_channel_order.i32 r1, %im"));
    free(t);
    isa_kernel_free(&k);
    isa_diags_free(&d);
    roundtrip_text("q.sgasm", src, sizeof src - 1);
    /* other shapes, types and operands are refused */
    static const char *const bad[] = {
        "    get_image_channel_order.f32 r0, %im\n",
        "    get_image_channel_order.u64 r0, %im\n",
        "    get_image_channel_data_type.u32 r0, %x\n",
        "    get_image_channel_data_type.u32 r0, r1\n",
        "    get_image_channel_order.u32 r0\n",
    };
    for (size_t b = 0; b < sizeof bad / sizeof bad[0]; b++) {
        char buf[256];
        int n = snprintf(buf, sizeof buf, ".kernel q\n.arg x global i32\n"
                         ".arg im image2d read_only\n%s    ret\n", bad[b]);
        memset(&d, 0, sizeof d);
        int r = isa_assemble("bad", buf, (size_t)n, &k, &d);
        if (r == 0) {
            fprintf(stderr, "accepted: %s", bad[b]);
            isa_kernel_free(&k);
        }
        assert_int_not_equal(r, 0);
        isa_diags_free(&d);
    }
}

int main(int argc, char **argv)
{
    fixtures_dir = argc > 1 ? argv[1] : getenv("SGEMU_ISA_FIXTURES");
    examples_dir = argc > 2 ? argv[2] : getenv("SGEMU_EXAMPLES");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixtures),
        cmocka_unit_test(test_examples),
        cmocka_unit_test(test_every_opcode),
        cmocka_unit_test(test_image_channel_queries),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
