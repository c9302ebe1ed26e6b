/* fuzz_common.c - helpers shared by the harnesses. */
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>

void fuzz_fail(const char *what, const uint8_t *data, size_t size)
{
    fprintf(stderr, "fuzz: %s\n--- input (%zu bytes) ---\n", what, size);
    fwrite(data, 1, size, stderr);
    fputs("\n---\n", stderr);
    abort();
}
