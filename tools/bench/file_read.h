/* file_read.h - reading a whole file; header-only (static inline) so that
 * single-file programs and the tests share it without a library: the
 * bench's OpenCL peer (ocl_host.h) and tests/test_file.h. */
#ifndef SGEMU_FILE_READ_H
#define SGEMU_FILE_READ_H

#include <stdio.h>
#include <stdlib.h>

/* The file at path, NUL-terminated (malloc'd), its size in *len if len is
 * given (0 on failure); NULL if it cannot be opened or read. */
static inline char *file_read_all(const char *path, size_t *len)
{
    if (len)
        *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = n < 0 ? NULL : malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
        free(s);
        s = NULL;
    }
    if (s) {
        s[n] = 0;
        if (len)
            *len = (size_t)n;
    }
    fclose(f);
    return s;
}

#endif
