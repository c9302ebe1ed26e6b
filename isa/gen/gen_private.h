/* gen_private.h - shared by the files of isa/gen/ (load, decode). */
#ifndef SGEMU_GEN_PRIVATE_H
#define SGEMU_GEN_PRIVATE_H

#include "gen.h"

/* gen_decode.c: decode `len` bytes of code with libiga64 into p->inst and
 * p->text.  0, or 1/3 with err filled. */
int gen_decode(gen_program *p, const uint8_t *code, size_t len, const char *kname,
               char *err, size_t errcap);

#endif
