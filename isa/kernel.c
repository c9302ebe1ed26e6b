/* kernel.c - ownership of an isa_kernel's arrays. */
#include "isa.h"
#include "gen/gen.h"

#include <stdlib.h>
#include <string.h>

void isa_kernel_free(isa_kernel *k)
{
    if (!k)
        return;
    free(k->inst);
    free(k->reg_bytes);
    free(k->const_data);
    k->const_data = NULL;
    k->const_bytes = k->const_arg = 0;
    free(k->global_data);
    free(k->relocs);
    free(k->gvars);
    k->global_data = NULL;
    k->relocs = NULL;
    k->gvars = NULL;
    k->global_bytes = k->global_arg = k->nreloc = k->ngvar = 0;
    k->inst = NULL;
    k->reg_bytes = NULL;
    k->ninst = 0;
    k->nreg = k->npred = 0;
    k->grf_bytes_per_lane = 0;
    gen_program_free(k->gen);
    k->gen = NULL;
    for (uint32_t i = 0; i < k->nprintf; i++)
        free(k->printf_fmts[i].text);
    free(k->printf_fmts);
    k->printf_fmts = NULL;
    k->nprintf = 0;
}
