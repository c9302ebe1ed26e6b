/* load_private.h - what the files of load/ share. */
#ifndef SGEMU_LOAD_PRIVATE_H
#define SGEMU_LOAD_PRIVATE_H

#include "sgemu.h"

#include <stddef.h>

/* Set err to code and a formatted message; returns code. */
int load_fail(sgemu_fault *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* load/sgemu_opencl.h, compiled in (tools/embed_text.py) */
extern const char load_opencl_header[];
extern const size_t load_opencl_header_len;

#endif
