/* gen_image.h - the image messages of the Gen path (gen_image.c): each 0
 * or the fault code. */
#ifndef SGEMU_GEN_IMAGE_H
#define SGEMU_GEN_IMAGE_H

#include "gen_engine.h"

int gen_sampler(emu_run *run, gen_thread *t, const gen_inst *in);
int gen_typed(emu_run *run, gen_thread *t, const gen_inst *in, bool store);
int gen_media_block(emu_run *run, gen_thread *t, const gen_inst *in, bool store);

#endif
