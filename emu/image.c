/* image.c - image2d_t element access (read_image*, write_image*, queries). */
#include "emu_private.h"

int emu_image_exec(emu_run *run, emu_sg *sg, const isa_inst *in, lanes_mask mask,
                   uint32_t pc)
{
    (void)mask;
    (void)in;
    return emu_fault(run, SGEMU_EXIT_USER, sg, UINT32_MAX, pc,
                     "image instructions are not supported yet");
}
