/* test_args.h - what the tests that call sgemu_run directly share: kernel
 * argument values and the bundled test configuration. */
#ifndef SGEMU_TEST_ARGS_H
#define SGEMU_TEST_ARGS_H

#include "sgemu.h"

#include <string.h>

/* A buffer argument over n bytes at p. */
static inline sgemu_argval arg_buffer(void *p, size_t n)
{
    sgemu_argval v;
    memset(&v, 0, sizeof v);
    v.kind = SGEMU_VAL_BUFFER;
    v.data = p;
    v.bytes = n;
    return v;
}

static inline sgemu_argval arg_scalar(uint64_t x)
{
    sgemu_argval v;
    memset(&v, 0, sizeof v);
    v.kind = SGEMU_VAL_SCALAR;
    v.scalar = x;
    return v;
}

/* A w x h image of format (o, t) over data, rows packed (pitch w elements). */
static inline sgemu_argval arg_image(sgemu_channel_order o, sgemu_channel_type t, uint32_t w,
                                     uint32_t h, void *data)
{
    sgemu_argval v;
    memset(&v, 0, sizeof v);
    v.kind = SGEMU_VAL_IMAGE;
    v.image.width = w;
    v.image.height = h;
    v.image.order = (uint8_t)o;
    v.image.chtype = (uint8_t)t;
    v.image.elem_bytes = sgemu_image_elem_bytes(o, t);
    v.image.pitch = w * v.image.elem_bytes;
    v.image.data = data;
    return v;
}

/* A 1-D launch of `global` work-items in work-groups of `local` at
 * sub-group width `width` (0: the config's default); the rest zero. */
static inline sgemu_launch launch_1d(uint64_t global, uint64_t local, uint32_t width)
{
    sgemu_launch L;
    memset(&L, 0, sizeof L);
    L.dims = 1;
    L.global[0] = global;
    L.local[0] = local;
    L.local_given = true;
    L.sg_width = width;
    return L;
}

/* Load the bundled "test-simple" configuration into cfg; its error count. */
static inline int load_test_config(emu_config *cfg)
{
    isa_diags d;
    memset(&d, 0, sizeof d);
    int errs = emu_config_load_bundled("test-simple", cfg, &d);
    isa_diags_free(&d);
    /* test-simple's 4 thread slots bound a work-group to 4 sub-groups, timed
     * or not; the functional tests launch work-groups of any size up to the
     * device limit, so their compute unit has a slot per work-item */
    cfg->threads_per_cu = cfg->max_wg_size;
    return errs;
}

#endif
