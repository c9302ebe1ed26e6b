/*
 * trace_private.h - shared by the trace writer (trace_write.c), reader
 * (trace_read.c) and header code (trace_header.c): the file's tags, limits
 * and payload checksum, and the fixed-size header's encoding.
 */
#ifndef SGEMU_TRACE_PRIVATE_H
#define SGEMU_TRACE_PRIVATE_H

#include "trace_file.h"

#include <stdint.h>
#include <stdio.h>

#define TAG_KERNEL 0x4c4e524bu  /* "KRNL" */
#define TAG_WG 0x50524757u      /* "WGRP" */
#define TAG_END 0x21444e45u     /* "END!" */
#define OUT_CHUNK (1u << 17)
#define FNV_OFFSET 0xcbf29ce484222325ull
#define FNV_PRIME 0x100000001b3ull
#define MAX_KERNEL_TEXT (64u << 20)
/* The frame's window: what level 3 uses for a stream anyway, set on both
 * sides so that a corrupt header asking for zstd's limit (128 MiB) is
 * refused instead of allocated. */
#define WINDOW_LOG 21
#define REC_BYTES 32u           /* pc naddr addr_first uop_first nuops mask */
#define UOP_BYTES 40u           /* kind type binop space lanes sg bytes rows addr pitch image mask */

/* FNV-1a over the payload bytes (the header's checksum). */
static inline uint64_t trace_fnv(uint64_t h, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * FNV_PRIME;
    return h;
}

/* The header's 512 bytes from info, and back (0, or SGEMU_EXIT_USER with
 * msg set when the header is not a trace of this version or is corrupt). */
void trace_header_encode(const sgemu_trace_info *in, uint8_t out[EMU_TRACE_HEADER_BYTES]);
int trace_header_decode(const uint8_t in[EMU_TRACE_HEADER_BYTES], sgemu_trace_info *out,
                        char *msg, size_t msgn);

#endif
