/* kernel_args.h - what kernel.c tells launch.c about a kernel. */
#ifndef SGEMU_ICD_KERNEL_ARGS_H
#define SGEMU_ICD_KERNEL_ARGS_H

#include "icd.h"

/* Parameters the application sets (program-scope data blocks excluded). */
uint32_t icd_user_args(const isa_kernel *k);
/* The isa argument of application argument user_index, or -1. */
int icd_isa_arg(const isa_kernel *k, cl_uint user_index);
/* Sub-group width a launch on cfg uses: required, SGEMU_SG, or the default. */
uint32_t icd_kernel_width(const isa_kernel *k, const emu_config *cfg);
/* The largest work-group the kernel can launch with on cfg. */
size_t icd_kernel_max_wg(const isa_kernel *k, const emu_config *cfg);

#endif
