/* test_image_run.h - what the image and block I/O tests share: running an
 * assembly kernel (assemble it, failing the test with the assembler's
 * diagnostics, launch it at sub-group width 8 over a grid of up to three
 * axes, return sgemu_run's exit code) and a seeded byte pattern for their
 * images and buffers.  Include after <cmocka.h>. */
#ifndef SGEMU_TEST_IMAGE_RUN_H
#define SGEMU_TEST_IMAGE_RUN_H

#include "sgemu.h"
#include "test_kernel.h"

#include <stdlib.h>
#include <string.h>

/* grid: dims sizes (the missing axes are 1); a million instructions at
 * most, so a kernel that loops for ever fails instead of hanging. */
static inline int run_grid(const emu_config *c, const char *src, uint32_t dims,
                           const uint32_t grid[3], sgemu_argval *a, sgemu_fault *f)
{
    isa_kernel k;
    test_assemble("image_test.sgasm", src, &k);
    sgemu_launch L;
    memset(&L, 0, sizeof L);
    L.dims = dims;
    for (uint32_t d = 0; d < 3; d++)
        L.global[d] = d < dims ? grid[d] : 1;
    L.sg_width = 8;
    L.max_instructions = 1000000;
    sgemu_stats st;
    int rc = sgemu_run(&k, c, &L, a, &st, f);
    isa_kernel_free(&k);
    return rc;
}

/* n bytes (malloc'd, free them) of a linear congruential sequence from
 * seed: distinct seeds give unrelated patterns. */
static inline uint8_t *bytes_pattern(size_t n, uint32_t seed)
{
    uint8_t *p = malloc(n ? n : 1);
    assert_non_null(p);
    uint32_t s = seed * 2654435761u + 12345u;
    for (size_t i = 0; i < n; i++) {
        s = s * 1103515245u + 12345u;
        p[i] = (uint8_t)(s >> 16);
    }
    return p;
}

#endif
