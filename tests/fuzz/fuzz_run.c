/* fuzz_run.c - assemble AND run: the engine itself under the fuzzer.
 * Input: an 8-byte header, then .sgasm text.
 *   h[0] sub-group width (index into 1,4,8,16,32,64)   h[1] dims 1..3
 *   h[2..4] global size per dimension (1..16)            h[5] local size: 0 picks,
 *   else per-dimension divisor choice                    h[6] seed of the buffers
 *   h[7] bit 0 --check, bit 1 timing model
 * Every global/constant argument gets a 256-byte buffer, every local one 256
 * bytes, scalars a small value, images 4x4 RGBA8.  The run must either
 * finish or end with a clean error (user error, kernel fault); the
 * instruction limit keeps runaway loops short. */
#include "fuzz.h"
#include "sgemu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HDR 8
#define BUF_BYTES 256

static const emu_config *device(void)
{
    static emu_config cfg;
    static int loaded;
    if (!loaded) {
        isa_diags d;
        memset(&d, 0, sizeof d);
        if (emu_config_load_bundled("test-simple", &cfg, &d) != 0) {
            isa_diags_print(&d, stderr);
            abort();
        }
        isa_diags_free(&d);
        loaded = 1;
    }
    return &cfg;
}

static uint64_t next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static int bind(const isa_kernel *k, sgemu_argval *v, uint64_t seed)
{
    for (uint32_t i = 0; i < k->narg; i++) {
        const isa_arg *a = &k->args[i];
        memset(&v[i], 0, sizeof v[i]);
        switch (a->kind) {
        case ISA_ARG_SCALAR:
            v[i].kind = SGEMU_VAL_SCALAR;
            v[i].scalar = next(&seed) % 64;
            break;
        case ISA_ARG_GLOBAL:
        case ISA_ARG_CONSTANT:
            v[i].kind = SGEMU_VAL_BUFFER;
            v[i].bytes = BUF_BYTES;
            v[i].data = malloc(BUF_BYTES);
            if (!v[i].data)
                return -1;
            for (size_t b = 0; b < BUF_BYTES; b += 8) {
                uint64_t r = next(&seed) & 0x000000ff000000ffULL;   /* small values */
                memcpy(v[i].data + b, &r, 8);
            }
            break;
        case ISA_ARG_LOCAL:
            v[i].kind = SGEMU_VAL_LOCAL;
            v[i].bytes = BUF_BYTES;
            break;
        case ISA_ARG_IMAGE2D:
            v[i].kind = SGEMU_VAL_IMAGE;
            v[i].image.width = v[i].image.height = 4;
            v[i].image.pitch = 16;
            v[i].image.order = SGEMU_ORDER_RGBA;
            v[i].image.chtype = SGEMU_CHTYPE_UNSIGNED_INT8;
            v[i].image.data = calloc(1, 64);
            if (!v[i].image.data)
                return -1;
            break;
        }
    }
    return 0;
}

static void unbind(const isa_kernel *k, sgemu_argval *v)
{
    for (uint32_t i = 0; i < k->narg; i++) {
        free(v[i].data);
        free(v[i].image.data);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < HDR || size > 8192)
        return 0;
    const uint8_t *h = data;
    isa_kernel k;
    isa_diags d;
    memset(&k, 0, sizeof k);
    memset(&d, 0, sizeof d);
    int errs = isa_assemble("fuzz.sgasm", (const char *)data + HDR, size - HDR, &k, &d);
    isa_diags_free(&d);
    if (errs) {
        isa_kernel_free(&k);
        return 0;
    }
    static const uint32_t widths[] = { 1, 4, 8, 16, 32, 64 };
    sgemu_launch L;
    memset(&L, 0, sizeof L);
    L.dims = 1u + h[1] % 3u;
    for (uint32_t dd = 0; dd < L.dims; dd++) {
        L.global[dd] = 1u + (h[2 + dd] & 15u);
        /* local: 0 lets sgemu pick; else 1, 2, 4 or the global size */
        uint32_t c = (h[5] >> (2 * dd)) & 3u;
        L.local[dd] = c == 3 ? L.global[dd] : 1u << c;
    }
    L.local_given = h[5] != 0;
    L.sg_width = widths[h[0] % 6];
    L.max_instructions = 20000;
    L.check = h[7] & 1;
    L.timing = (h[7] & 2) != 0;
    L.threads = 1;
    sgemu_argval v[ISA_MAX_ARGS];
    sgemu_stats st;
    sgemu_fault fault;
    if (bind(&k, v, h[6]) == 0) {
        FILE *devnull = fopen("/dev/null", "w");
        sgemu_set_note_stream(devnull);
        int rc = sgemu_run(&k, device(), &L, v, &st, &fault);
        sgemu_set_note_stream(NULL);
        if (devnull)
            fclose(devnull);
        if (rc != SGEMU_EXIT_OK && rc != SGEMU_EXIT_USER && rc != SGEMU_EXIT_FAULT)
            fuzz_fail(fault.msg, data, size);
        if (rc != SGEMU_EXIT_OK && !fault.msg[0])
            fuzz_fail("a failed run left no message", data, size);
        sgemu_stats_free(&st);
    }
    unbind(&k, v);
    isa_kernel_free(&k);
    return 0;
}
