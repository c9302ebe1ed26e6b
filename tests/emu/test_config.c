/*
 * test_config.c - device config loading (emu/config.c): bundled configs,
 * defaults, extends, every error kind with its position, garbage input, the
 * dump round trip, and docs/config.md naming every key of the table.
 *
 * SGEMU_SRC (set by meson) points at the source tree for fixtures and docs.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------- helpers */

static const char *src_dir(void)
{
    const char *s = getenv("SGEMU_SRC");
    assert_non_null(s);
    return s;
}

static void fixture(char *buf, size_t n, const char *name)
{
    snprintf(buf, n, "%s/tests/fixtures/config/%s", src_dir(), name);
}

/* Print the diagnostics when a test fails, to see what went wrong. */
static void show(const isa_diags *d)
{
    isa_diags_print(d, stderr);
}

static bool has_diag(const isa_diags *d, uint32_t line, uint32_t col, const char *text)
{
    for (uint32_t i = 0; i < d->count; i++)
        if (d->items[i].line == line && d->items[i].col == col &&
            strstr(d->items[i].msg, text))
            return true;
    return false;
}

static void expect_diag(const isa_diags *d, uint32_t line, uint32_t col, const char *text)
{
    if (!has_diag(d, line, col, text)) {
        fprintf(stderr, "missing %u:%u: %s\n", line, col, text);
        show(d);
        fail();
    }
}

static int load(const char *text, emu_config *c, isa_diags *d)
{
    memset(d, 0, sizeof *d);
    return emu_config_load_text("t.yaml", text, strlen(text), c, d);
}

static int load_fixture(const char *name, emu_config *c, isa_diags *d)
{
    char path[1024];
    fixture(path, sizeof path, name);
    memset(d, 0, sizeof *d);
    return emu_config_load_file(path, c, d);
}

/* Load text expected to give exactly one error at line:col containing text. */
static void one_error(const char *yaml, uint32_t line, uint32_t col, const char *text)
{
    emu_config c;
    isa_diags d;
    int n = load(yaml, &c, &d);
    if (n != 1) {
        fprintf(stderr, "expected 1 error, got %d for:\n%s\n", n, yaml);
        show(&d);
    }
    assert_int_equal(n, 1);
    assert_int_equal(d.count, 1);
    expect_diag(&d, line, col, text);
    isa_diags_free(&d);
}

/* ------------------------------------------------------ bundled configs */

static void test_every_bundled_config_loads(void **state)
{
    (void)state;
    int seen = 0;
    for (const emu_bundled_config *b = emu_bundled_configs; b->name; b++, seen++) {
        emu_config c;
        isa_diags d = { 0 };
        int n = emu_config_load_bundled(b->name, &c, &d);
        if (n)
            show(&d);
        assert_int_equal(n, 0);
        assert_true(strlen(c.name) > 0);
        assert_true(c.nwidths >= 1);
        assert_true(emu_config_supports_width(&c, c.default_width));
        assert_ptr_equal(emu_config_bundled(b->name), b->text);
        assert_int_equal(strlen(b->text), b->len);
        isa_diags_free(&d);
    }
    /* default, test-simple, gen9, xe-lp, xe-hpg, xe-hpc, h100 */
    assert_int_equal(seen, 7);
    assert_null(emu_config_bundled("no-such-config"));
}

static void test_test_simple_values(void **state)
{
    (void)state;
    emu_config c;
    isa_diags d = { 0 };
    assert_int_equal(emu_config_load_bundled("test-simple", &c, &d), 0);
    static const uint32_t widths[] = { 1, 4, 8, 16, 32, 64 };
    assert_int_equal(c.nwidths, 6);
    assert_memory_equal(c.widths, widths, sizeof widths);
    assert_int_equal(c.default_width, 8);
    assert_int_equal(c.compute_units, 2);
    assert_int_equal(c.threads_per_cu, 4);
    assert_int_equal(c.grf_regs_per_thread, 128);
    assert_int_equal(c.grf_bytes_per_reg, 32);
    assert_int_equal(c.local_mem_per_cu, 65536);
    assert_int_equal(c.max_wg_size, 1024);
    assert_true(c.clock_mhz == 1000.0);
    assert_string_equal(c.name, "test-simple");
    isa_diags_free(&d);
}

static void test_device_configs(void **state)
{
    (void)state;
    emu_config c;
    isa_diags d = { 0 };

    assert_int_equal(emu_config_load_bundled("intel-xe-hpc", &c, &d), 0);
    assert_int_equal(c.nwidths, 2);
    assert_int_equal(c.widths[0], 16);
    assert_int_equal(c.widths[1], 32);
    assert_int_equal(c.grf_bytes_per_reg, 64);
    assert_int_equal(c.large_grf_regs, 256);
    assert_int_equal(c.large_grf_threads, 32);  /* 8 XVEs x 4 */
    assert_int_equal(c.threads_per_cu, 64);     /* 8 XVEs x 8 */
    assert_false(emu_config_supports_width(&c, 8));
    assert_int_equal(c.scalar_broadcast, 1);      /* ocloc -device pvc: a SIMD1 mov */

    assert_int_equal(emu_config_load_bundled("nvidia-h100", &c, &d), 0);
    assert_int_equal(c.compute_units, 132);
    assert_int_equal(c.default_width, 32);
    assert_int_equal(c.local_mem_per_cu, 228 * 1024);
    assert_int_equal(c.max_wg_size, 1024);
    assert_int_equal(c.grf_regs_per_thread, 255);
    assert_int_equal(c.grf_bytes_per_reg, 128);
    assert_int_equal(c.coll.reduce_algo, 1);    /* "hw": 2nd of tree, hw, serial */
    assert_int_equal(c.coll.shuffle_algo, 1);   /* "crossbar": 2nd of indirect, crossbar */
    assert_int_equal(c.coll.hw_reduce_width, 32);

    assert_int_equal(emu_config_load_bundled("intel-gen9-gt2", &c, &d), 0);
    assert_int_equal(c.compute_units, 3);       /* subslices */
    assert_int_equal(c.threads_per_cu, 56);     /* 8 EUs x 7 */

    assert_int_equal(emu_config_load_bundled("intel-xe-hpg", &c, &d), 0);
    assert_int_equal(c.threads_per_cu, 128);    /* 16 XVEs x 8 */
    assert_int_equal(d.count, 0);

    assert_int_equal(emu_config_load_bundled("nope", &c, &d), 1);
    isa_diags_free(&d);
}

static void test_default_is_xe_lp(void **state)
{
    (void)state;
    emu_config c, lp;
    isa_diags d = { 0 };
    assert_int_equal(emu_config_load_default(&c, &d), 0);
    assert_int_equal(emu_config_load_bundled("intel-xe-lp", &lp, &d), 0);
    assert_int_equal(c.compute_units, 6);       /* subslices */
    assert_int_equal(c.threads_per_cu, 112);    /* 16 EUs x 7 */
    assert_int_equal(c.nwidths, 3);
    assert_int_equal(c.widths[0], 8);
    assert_int_equal(c.widths[2], 32);
    assert_int_equal(c.default_width, 16);
    assert_true(c.clock_mhz == 1350.0);
    assert_non_null(strstr(c.name, "default"));
    /* everything but the name comes from intel-xe-lp */
    memset(c.name, 0, sizeof c.name);
    strcpy(c.name, lp.name);
    assert_memory_equal(&c, &lp, sizeof c);
    isa_diags_free(&d);
}

/* configs/NAME.yaml loaded from disk (extends resolved beside the file) gives
 * the same config as the bundled copy. */
static void test_disk_configs_match_bundled(void **state)
{
    (void)state;
    for (const emu_bundled_config *b = emu_bundled_configs; b->name; b++) {
        emu_config disk, bundled;
        isa_diags d = { 0 };
        char path[1024];
        snprintf(path, sizeof path, "%s/configs/%s.yaml", src_dir(), b->name);
        int n = emu_config_load_file(path, &disk, &d);
        if (n)
            show(&d);
        assert_int_equal(n, 0);
        assert_int_equal(emu_config_load_bundled(b->name, &bundled, &d), 0);
        assert_memory_equal(&disk, &bundled, sizeof disk);
        isa_diags_free(&d);
    }
}

/* ----------------------------------------------------------- defaults */

static void test_defaults_applied(void **state)
{
    (void)state;
    emu_config c;
    isa_diags d;
    assert_int_equal(load("device:\n  name: only a name\n", &c, &d), 0);
    assert_string_equal(c.name, "only a name");
    assert_int_equal(c.nwidths, 3);
    assert_int_equal(c.widths[0], 8);
    assert_int_equal(c.widths[1], 16);
    assert_int_equal(c.widths[2], 32);
    assert_int_equal(c.default_width, 16);
    assert_int_equal(c.compute_units, 1);
    assert_int_equal(c.threads_per_cu, 7);
    assert_int_equal(c.grf_regs_per_thread, 128);
    assert_int_equal(c.grf_bytes_per_reg, 32);
    assert_int_equal(c.large_grf_regs, 0);
    assert_int_equal(c.large_grf_threads, 0);
    assert_int_equal(c.local_mem_per_cu, 65536);
    assert_int_equal(c.max_wg_size, 512);
    assert_true(c.clock_mhz == 1000.0);
    assert_int_equal(c.coll.reduce_algo, 0);
    assert_int_equal(c.coll.scan_algo, 0);
    assert_int_equal(c.coll.shuffle_algo, 0);
    assert_int_equal(c.coll.wg_algo, 0);
    assert_int_equal(c.coll.indirect_lanes, 16);
    assert_int_equal(c.coll.hw_reduce_width, 32);
    assert_int_equal(c.coll.block_msg_bytes, 128);
    assert_int_equal(c.coll.media_block_width, 32);
    assert_false(c.coll.check);

    emu_config init;
    emu_config_init(&init);
    memset(init.name, 0, sizeof init.name);
    strcpy(init.name, "only a name");
    assert_memory_equal(&init, &c, sizeof c);
    isa_diags_free(&d);
}

static void test_values_parsed(void **state)
{
    (void)state;
    emu_config c;
    isa_diags d;
    assert_int_equal(load("collectives:\n  scan: serial\n  shuffle: crossbar\n"
                          "device:\n  name: 'quoted name'\n  clock_mhz: 1234.5\n"
                          "  subgroup_widths: [32, 8]\n  default_subgroup_width: 32\n"
                          "  large_grf_registers_per_thread: 256\n"
                          "  large_grf_threads_per_compute_unit: 4\n", &c, &d), 0);
    assert_string_equal(c.name, "quoted name");
    assert_true(c.clock_mhz == 1234.5);
    assert_int_equal(c.coll.scan_algo, 2);
    assert_int_equal(c.coll.shuffle_algo, 1);
    assert_int_equal(c.nwidths, 2);
    assert_int_equal(c.widths[0], 8);      /* kept sorted */
    assert_int_equal(c.widths[1], 32);
    assert_int_equal(c.large_grf_regs, 256);
    assert_true(emu_config_supports_width(&c, 32));
    assert_false(emu_config_supports_width(&c, 16));
    isa_diags_free(&d);
}

/* ------------------------------------------------------------- extends */

static void test_extends_file(void **state)
{
    (void)state;
    emu_config c;
    isa_diags d;
    int n = load_fixture("child.yaml", &c, &d);
    if (n)
        show(&d);
    assert_int_equal(n, 0);
    assert_int_equal(c.compute_units, 20);          /* overridden */
    assert_string_equal(c.name, "fixture base");    /* kept */
    assert_int_equal(c.threads_per_cu, 6);
    assert_int_equal(c.default_width, 8);
    assert_int_equal(c.nwidths, 2);
    assert_true(c.clock_mhz == 1500.5);
    assert_int_equal(c.coll.reduce_algo, 2);        /* serial */
    assert_int_equal(c.grf_regs_per_thread, 128);   /* default, set by nobody */

    n = load_fixture("grandchild.yaml", &c, &d);
    assert_int_equal(n, 0);
    assert_string_equal(c.name, "grandchild");
    assert_int_equal(c.compute_units, 20);
    assert_int_equal(c.threads_per_cu, 6);
    isa_diags_free(&d);
}

static void test_extends_bundled(void **state)
{
    (void)state;
    emu_config c;
    isa_diags d;
    /* no test-simple.yaml beside the fixture: the bundled one is used */
    int n = load_fixture("child-bundled.yaml", &c, &d);
    if (n)
        show(&d);
    assert_int_equal(n, 0);
    assert_int_equal(c.threads_per_cu, 3);
    assert_int_equal(c.compute_units, 2);
    assert_int_equal(c.nwidths, 6);
    assert_string_equal(c.name, "child of a bundled config");

    n = load("extends: intel-xe-hpc\ndevice:\n  compute_units: 5\n", &c, &d);
    assert_int_equal(n, 0);
    assert_int_equal(c.compute_units, 5);
    assert_int_equal(c.grf_bytes_per_reg, 64);
    assert_string_equal(c.name, "Intel Xe-HPC (Data Center GPU Max 1550)");
    isa_diags_free(&d);
}

static void test_extends_errors(void **state)
{
    (void)state;
    emu_config c;
    isa_diags d;

    assert_int_equal(load_fixture("missing-base.yaml", &c, &d), 1);
    expect_diag(&d, 3, 10, "no config 'no-such-config'");
    isa_diags_free(&d);

    assert_int_equal(load_fixture("cycle-a.yaml", &c, &d), 1);   /* no "missing" noise */
    expect_diag(&d, 1, 10, "extends cycle");
    expect_diag(&d, 1, 10, "cycle-b.yaml");
    isa_diags_free(&d);

    assert_int_equal(load_fixture("self.yaml", &c, &d), 1);
    expect_diag(&d, 1, 10, "extends cycle");
    isa_diags_free(&d);

    /* a base's own error is reported at the extends value, with its position */
    assert_int_equal(load_fixture("child-of-bad.yaml", &c, &d), 1);
    expect_diag(&d, 1, 10, "bad-base.yaml:3:3: unknown key 'device.compute_unit'");
    isa_diags_free(&d);

    one_error("device:\n  name: x\nextends: [a]\n", 3, 10, "expected the name of a config");
    one_error("extends: nothing-bundled\ndevice:\n  name: x\n", 1, 10,
              "no config 'nothing-bundled'");
}

/* ------------------------------------------------------------- errors */

static void test_unknown_key(void **state)
{
    (void)state;
    one_error("device:\n  name: a\n  compute_unit: 3\n", 3, 3,
              "unknown key 'device.compute_unit'");
    one_error("device:\n  name: a\n  compute_unit: 3\n", 3, 3,
              "did you mean 'device.compute_units'");
    one_error("device:\n  name: a\nmemroy:\n  x: 1\n", 3, 1, "unknown key 'memroy'");
    one_error("device:\n  name: a\n  name:\n    x: 1\n", 3, 3, "duplicate key 'device.name'");
}

static void test_wrong_type(void **state)
{
    (void)state;
    one_error("device:\n  name: a\n  compute_units: many\n", 3, 18,
              "device.compute_units: expected an unsigned integer");
    one_error("device:\n  name: a\n  compute_units: \"16\"\n", 3, 18,
              "expected an unsigned integer");
    one_error("device:\n  name: a\n  compute_units: -3\n", 3, 18, "expected an unsigned integer");
    one_error("device:\n  name: a\n  compute_units: [1]\n", 3, 18, "expected an unsigned integer");
    one_error("device:\n  name: a\n  clock_mhz: fast\n", 3, 14, "device.clock_mhz: expected a number");
    one_error("device:\n  name: a\n  clock_mhz: .inf\n", 3, 14, "expected a number");
    one_error("device:\n  name: [a]\n", 2, 9, "device.name: expected a string");
    one_error("device:\n  name: ~\n", 2, 9, "device.name: expected a string");
    one_error("device:\n  name: a\n  subgroup_widths: 16\n", 3, 20,
              "device.subgroup_widths: expected a list of unsigned integers");
    one_error("device:\n  name: a\ncollectives:\n  reduce: magic\n", 4, 11,
              "collectives.reduce: unknown value 'magic' (expected one of: tree, hw, serial)");
    one_error("device:\n  name: a\ncollectives: 3\n", 3, 14, "'collectives' must be a mapping");
    one_error("- device\n", 1, 1, "must be a mapping of sections");
}

static void test_out_of_range(void **state)
{
    (void)state;
    one_error("device:\n  name: a\n  threads_per_compute_unit: 4097\n", 3, 29,
              "device.threads_per_compute_unit must be in 1..4096");
    one_error("device:\n  name: a\n  threads_per_compute_unit: 0\n", 3, 29,
              "device.threads_per_compute_unit must be in 1..4096");
    one_error("device:\n  name: a\n  compute_units: 99999999999999999999999\n", 3, 18,
              "device.compute_units must be in 1..65536");
    one_error("device:\n  name: a\n  clock_mhz: 0.5\n", 3, 14, "device.clock_mhz must be in 1..100000");
    one_error("device:\n  name: a\n  subgroup_widths: [8, 0]\n", 3, 24,
              "device.subgroup_widths: widths must be in 1..64");
    one_error("device:\n  name: a\n  subgroup_widths: [8, 65]\n", 3, 24, "widths must be in 1..64");
    one_error("device:\n  name: a\n  subgroup_widths: []\n", 3, 20, "at least one width");
    one_error("device:\n  name: a\n  subgroup_widths: [1,2,3,4,5,6,7,8,9]\n", 3, 20,
              "at most 8 widths");
    one_error("device:\n  name: a\n  subgroup_widths: [8, 16, 8]\n", 3, 20, "width 8 listed twice");
}

static void test_cross_checks(void **state)
{
    (void)state;
    one_error("device:\n  name: a\n  subgroup_widths: [8, 16]\n  default_subgroup_width: 32\n",
              4, 27, "device.default_subgroup_width 32 is not in device.subgroup_widths [8, 16]");
    /* default (16) left alone: point at the widths that exclude it */
    one_error("device:\n  name: a\n  subgroup_widths: [8, 32]\n", 3, 20,
              "device.default_subgroup_width 16 is not in");
    one_error("device:\n  compute_units: 2\n", 1, 1, "missing required key 'device.name'");
    one_error("", 1, 1, "missing required key 'device.name'");
    one_error("device:\n  name: a\n  large_grf_registers_per_thread: 256\n", 3, 35,
              "must both be 0 or both set");
}

static void test_invalid_yaml(void **state)
{
    (void)state;
    one_error("device:\n\tname: x\n", 2, 1, "invalid YAML: found character that cannot start any token");
    one_error("device:\n  name: a\n---\ndevice:\n  name: b\n", 4, 1, "a single YAML document");
    emu_config c;
    isa_diags d;
    assert_int_equal(load("device: {name: a\n", &c, &d), 1);
    assert_non_null(strstr(d.items[0].msg, "invalid YAML"));
    assert_true(d.items[0].line >= 1 && d.items[0].col >= 1);
    isa_diags_free(&d);
}

static void test_several_errors_all_reported(void **state)
{
    (void)state;
    emu_config c;
    isa_diags d;
    assert_int_equal(load_fixture("errors.yaml", &c, &d), 5);
    expect_diag(&d, 3, 29, "device.threads_per_compute_unit must be in 1..4096");
    expect_diag(&d, 4, 18, "device.compute_units: expected an unsigned integer");
    expect_diag(&d, 5, 28, "widths must be in 1..64");
    expect_diag(&d, 7, 11, "unknown value 'magic'");
    expect_diag(&d, 8, 3, "duplicate key 'collectives.reduce'");
    char path[1024];
    fixture(path, sizeof path, "errors.yaml");
    assert_string_equal(d.file, path);
    isa_diags_free(&d);

    assert_int_equal(load_fixture("does-not-exist.yaml", &c, &d), 1);
    expect_diag(&d, 1, 1, "cannot read config");
    isa_diags_free(&d);
}

/* Garbage, truncations and random bytes: no crash, the count matches. */
static void test_malformed_never_crashes(void **state)
{
    (void)state;
    static const char *const garbage[] = {
        "", "\n", ":", "::::", "- - -", "[", "]", "{", "}", "{{{{", "&a [*a]", "*undefined",
        "device: &x\n  name: *x\n", "device:\n  name: \"unterminated\n", "\"", "'", "? ? ?",
        "!!binary x", "%YAML 9.9\n---\n", "device: !!map {name: a}}\n", "device:\n- 1\n- 2\n",
        "device:\n  name: a\n  subgroup_widths: [[8]]\n", "device:\n  name: a\n  subgroup_widths: [a, ~, 8]\n",
        "extends: ''\n", "extends: ~\n", "extends: {a: 1}\n", "\xff\xfe\x00\x01", "\x80\x81",
        "device:\n  name: \"\\x00\"\n", "device:\n  ? [a]\n  : 1\n", "collectives:\n  reduce: [tree]\n",
    };
    emu_config c;
    isa_diags d;
    for (size_t i = 0; i < sizeof garbage / sizeof garbage[0]; i++) {
        memset(&d, 0, sizeof d);
        int n = emu_config_load_text("g.yaml", garbage[i], i == 26 ? 4 : strlen(garbage[i]),
                                     &c, &d);
        assert_int_equal((uint32_t)n, d.count);
        if (n == 0)
            fprintf(stderr, "no error for garbage %zu\n", i);
        assert_true(n > 0);
        for (uint32_t j = 0; j < d.count; j++)
            assert_true(d.items[j].line >= 1 && d.items[j].col >= 1);
        isa_diags_free(&d);
    }
    /* every prefix of every bundled config */
    for (const emu_bundled_config *b = emu_bundled_configs; b->name; b++) {
        for (size_t len = 0; len < b->len; len += 3) {
            memset(&d, 0, sizeof d);
            int n = emu_config_load_text("p.yaml", b->text, len, &c, &d);
            assert_int_equal((uint32_t)n, d.count);
            isa_diags_free(&d);
        }
    }
    /* random bytes from a small alphabet that YAML cares about */
    static const char alphabet[] = "ab: -[]{},\n\t'\"#&*!|>%@`?~19.";
    uint32_t seed = 12345;
    char buf[96];
    for (int t = 0; t < 2000; t++) {
        size_t len = (size_t)(t % (int)sizeof buf);
        for (size_t i = 0; i < len; i++) {
            seed = seed * 1103515245u + 12345u;
            buf[i] = alphabet[(seed >> 16) % (sizeof alphabet - 1)];
        }
        memset(&d, 0, sizeof d);
        int n = emu_config_load_text("r.yaml", buf, len, &c, &d);
        assert_int_equal((uint32_t)n, d.count);
        isa_diags_free(&d);
    }
}

/* ---------------------------------------------------------------- dump */

static void test_dump_round_trip(void **state)
{
    (void)state;
    for (const emu_bundled_config *b = emu_bundled_configs; b->name; b++) {
        emu_config c, back;
        isa_diags d = { 0 };
        char *text = NULL;
        size_t len = 0;
        assert_int_equal(emu_config_load_bundled(b->name, &c, &d), 0);
        FILE *f = open_memstream(&text, &len);
        assert_non_null(f);
        emu_config_dump(&c, f);
        fclose(f);
        assert_non_null(strstr(text, "device:\n  name: \""));
        assert_non_null(strstr(text, "\ncollectives:\n  reduce: "));
        if (strcmp(b->name, "nvidia-h100") == 0)
            assert_non_null(strstr(text, "\n  clock_mhz: 1980  # MHz\n"));
        int n = emu_config_load_text("dump.yaml", text, len, &back, &d);
        if (n) {
            show(&d);
            fprintf(stderr, "%s", text);
        }
        assert_int_equal(n, 0);
        assert_memory_equal(&c, &back, sizeof c);
        free(text);
        isa_diags_free(&d);
    }
    /* strings with quotes survive */
    emu_config c, back;
    isa_diags d;
    char *text = NULL;
    size_t len = 0;
    assert_int_equal(load("device:\n  name: 'a \"b\" \\ c'\n  clock_mhz: 1234.567\n", &c, &d), 0);
    FILE *f = open_memstream(&text, &len);
    emu_config_dump(&c, f);
    fclose(f);
    assert_int_equal(emu_config_load_text("dump.yaml", text, len, &back, &d), 0);
    assert_string_equal(back.name, "a \"b\" \\ c");
    assert_true(back.clock_mhz == 1234.567);
    free(text);
    isa_diags_free(&d);
}

/* ----------------------------------------------------------------- docs */

static char *read_all(const char *path)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    assert_non_null(s);
    assert_int_equal(fread(s, 1, (size_t)n, f), (size_t)n);
    s[n] = 0;
    fclose(f);
    return s;
}

/* Every row of the key table is documented (as `path`), and so is every
 * bundled config (as `name`). */
/* The collective options a config starts from and the ones collectives/
 * tests start from (coll_options_default) are the same rows of
 * collectives/coll_keys.def: equal field by field, and the YAML defaults
 * are what the rows say. */
static void test_coll_defaults_one_table(void **state)
{
    (void)state;
    emu_config cfg;
    emu_config_init(&cfg);
    coll_options o;
    coll_options_default(&o);
    assert_int_equal(cfg.coll.reduce_algo, o.reduce_algo);
    assert_int_equal(cfg.coll.scan_algo, o.scan_algo);
    assert_int_equal(cfg.coll.shuffle_algo, o.shuffle_algo);
    assert_int_equal(cfg.coll.wg_algo, o.wg_algo);
    assert_int_equal(cfg.coll.indirect_lanes, o.indirect_lanes);
    assert_int_equal(cfg.coll.hw_reduce_width, o.hw_reduce_width);
    assert_int_equal(cfg.coll.block_msg_bytes, o.block_msg_bytes);
    assert_int_equal(cfg.coll.media_block_width, o.media_block_width);
    assert_int_equal(o.reduce_algo, 0);      /* "tree", the first of COLL_REDUCE_ALGOS */
    assert_int_equal(o.shuffle_algo, 0);     /* "indirect" */
    assert_int_equal(o.indirect_lanes, 16);
    assert_int_equal(o.block_msg_bytes, 128);
    assert_false(o.check);
}

static void test_docs_name_every_key(void **state)
{
    (void)state;
    char path[1024];
    snprintf(path, sizeof path, "%s/docs/config.md", src_dir());
    char *doc = read_all(path);
    static const char *const keys[] = {
#define CFG_KEY(path, kind, field, min, max, def, names, unit, doc) path,
#include "config_keys.def"
#undef CFG_KEY
    };
    int missing = 0;
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        char quoted[200];
        snprintf(quoted, sizeof quoted, "`%s`", keys[i]);
        if (!strstr(doc, quoted)) {
            fprintf(stderr, "docs/config.md does not document %s\n", quoted);
            missing++;
        }
    }
    for (const emu_bundled_config *b = emu_bundled_configs; b->name; b++) {
        char quoted[200];
        snprintf(quoted, sizeof quoted, "`%s`", b->name);
        if (!strstr(doc, quoted)) {
            fprintf(stderr, "docs/config.md does not mention config %s\n", quoted);
            missing++;
        }
    }
    assert_true(sizeof keys / sizeof keys[0] >= 20);
    assert_int_equal(missing, 0);
    free(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_bundled_config_loads),
        cmocka_unit_test(test_test_simple_values),
        cmocka_unit_test(test_device_configs),
        cmocka_unit_test(test_default_is_xe_lp),
        cmocka_unit_test(test_disk_configs_match_bundled),
        cmocka_unit_test(test_defaults_applied),
        cmocka_unit_test(test_values_parsed),
        cmocka_unit_test(test_extends_file),
        cmocka_unit_test(test_extends_bundled),
        cmocka_unit_test(test_extends_errors),
        cmocka_unit_test(test_unknown_key),
        cmocka_unit_test(test_wrong_type),
        cmocka_unit_test(test_out_of_range),
        cmocka_unit_test(test_cross_checks),
        cmocka_unit_test(test_invalid_yaml),
        cmocka_unit_test(test_several_errors_all_reported),
        cmocka_unit_test(test_malformed_never_crashes),
        cmocka_unit_test(test_dump_round_trip),
        cmocka_unit_test(test_coll_defaults_one_table),
        cmocka_unit_test(test_docs_name_every_key),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
