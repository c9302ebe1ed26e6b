/* test_file.h - reading a whole file in a test.  Include after <cmocka.h>. */
#ifndef SGEMU_TEST_FILE_H
#define SGEMU_TEST_FILE_H

#include <stdio.h>
#include <stdlib.h>

/* The file at path, NUL-terminated (malloc'd), its size in *len if len is
 * given; NULL if it cannot be opened. */
static inline char *test_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = calloc(1, (size_t)n + 1);
    assert_non_null(s);
    assert_int_equal(fread(s, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    if (len)
        *len = (size_t)n;
    return s;
}

/* The same, failing the test (naming the file) if it cannot be opened. */
static inline char *test_slurp(const char *path, size_t *len)
{
    char *s = test_read_file(path, len);
    if (!s)
        fail_msg("cannot open %s", path);
    return s;
}

#endif
