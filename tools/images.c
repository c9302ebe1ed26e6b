/* images.c - image2d arguments from --arg NAME=image2d:... text. */
#include "cli.h"

int cli_make_image(const isa_arg *a, const char *spec, sgemu_argval *v)
{
    (void)v;
    return cli_error("argument '%s': images are not supported yet ('%s')", a->name, spec);
}

void cli_print_image(FILE *f, const isa_arg *a, const sgemu_argval *v)
{
    (void)a;
    for (uint32_t y = 0; y < v->image.height; y++) {
        for (uint32_t x = 0; x < v->image.pitch; x++)
            fprintf(f, "%s%u", x ? " " : "", v->image.data[(size_t)y * v->image.pitch + x]);
        fputc('\n', f);
    }
}
