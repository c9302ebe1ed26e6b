/* fuzz_image.c - the image argument reader (tools/images.c): the input is
 * "EXT:GEOMETRY\n" then the file's bytes; the harness calls cli_make_image
 * with image2d:GEOMETRY@SCRATCH/in.EXT (EXT pgm, ppm or raw; GEOMETRY empty
 * or "WxH:ORDER:TYPE:[pitch=P:]").  Any file either loads into an image of
 * the size it says or fails cleanly. */
#include "fuzz.h"
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Sizes above 4096 only measure the host's memory, not the reader. */
static bool small_numbers(const char *s, size_t n)
{
    size_t run = 0;
    for (size_t i = 0; i < n; i++) {
        run = s[i] >= '0' && s[i] <= '9' ? run + 1 : 0;
        if (run > 4)
            return false;
    }
    return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *nl = memchr(data, '\n', size < 128 ? size : 128);
    if (!nl || nl - data < 4 || data[3] != ':')
        return 0;
    const char *ext = !memcmp(data, "ppm", 3) ? "ppm" : !memcmp(data, "raw", 3) ? "raw" : "pgm";
    const char *geo = (const char *)data + 4;
    size_t glen = (size_t)((const char *)nl - geo);
    if (memchr(geo, 0, glen) || memchr(geo, '@', glen) || !small_numbers(geo, glen))
        return 0;
    /* P5/P6 headers carry sizes too: keep them within 4096 x 4096 */
    const uint8_t *body = nl + 1;
    size_t blen = size - (size_t)(body - data);
    if (!small_numbers((const char *)body, blen < 64 ? blen : 64))
        return 0;
    char name[16];
    snprintf(name, sizeof name, "in.%s", ext);
    const char *path = fuzz_temp_file(name, body, blen);
    if (!path)
        return 0;
    char spec[1024];
    snprintf(spec, sizeof spec, "image2d:%.*s@%s", (int)glen, geo, path);
    isa_arg a;
    memset(&a, 0, sizeof a);
    strcpy(a.name, "img");
    a.kind = ISA_ARG_IMAGE2D;
    sgemu_argval v;
    int rc = cli_make_image(&a, spec, &v);
    if (rc != 0 && rc != SGEMU_EXIT_USER)
        fuzz_fail("cli_make_image: an exit code other than 0 or 1", data, size);
    if (rc == 0) {
        const sgemu_image *im = &v.image;
        if (!im->data || !im->width || !im->height || im->pitch < im->width * im->elem_bytes)
            fuzz_fail("an image loaded with a bad geometry", data, size);
        /* every byte of the image is readable (ASan checks the extent) */
        volatile uint8_t sink = 0;
        size_t bytes = (size_t)im->pitch * im->height;
        sink ^= im->data[0];
        sink ^= im->data[bytes - 1];
        (void)sink;
    }
    cli_free_value(&v);
    return 0;
}
