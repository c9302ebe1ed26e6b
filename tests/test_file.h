/* test_file.h - reading a whole file in a test (tools/bench/file_read.h:
 * file_read_all, NULL if the file cannot be read).  Include after
 * <cmocka.h>. */
#ifndef SGEMU_TEST_FILE_H
#define SGEMU_TEST_FILE_H

#include "../tools/bench/file_read.h"

/* The file at path (see file_read_all), failing the test (naming the file)
 * if it cannot be read. */
static inline char *test_slurp(const char *path, size_t *len)
{
    char *s = file_read_all(path, len);
    if (!s)
        fail_msg("cannot read %s", path);
    return s;
}

#endif
