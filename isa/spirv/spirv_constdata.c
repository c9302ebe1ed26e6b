/* spirv_constdata.c - program-scope constant data: module-scope OpVariable
 * UniformConstant with an initialiser (`__constant int t[] = {...};` and the
 * tables clang makes of initialised private arrays).  Their bytes, laid out
 * from the types, go into the kernel's .const_data block, which the engine
 * binds read-only to a hidden `constant u8` argument appended after the
 * parameters; each variable is an address [%__spirv_constants + offset].
 * Initialisers holding addresses of program-scope variables are laid out by
 * spv_data_image (spirv_globaldata.c) as relocations. */
#include "spirv_private.h"

#include <stdio.h>
#include <stdlib.h>

#define CONST_ARG_NAME "__spirv_constants"

/* Is `in` a variable this file lays out? */
bool spv_is_const_var(xctx *x, const spv_inst *in)
{
    return in->op == SpvOpVariable && in->nw > 4 &&
           spv_word(x->m, in, 3) == SpvStorageClassUniformConstant;
}

void spv_const_vars(xctx *x)
{
    spv_module *m = x->m;
    isa_kernel *k = x->k;
    const spv_block block = { CONST_ARG_NAME, "constant", ISA_ARG_CONSTANT, ISA_SPACE_CONSTANT,
                              &k->const_data, &k->const_bytes, &k->const_arg };
    for (uint32_t i = 0; i < m->nins && !x->failed; i++) {
        const spv_inst *in = &m->ins[i];
        if (in->op == SpvOpFunction)
            break;
        if (!spv_is_const_var(x, in))
            continue;
        x->cur = in;
        uint64_t off;
        const spv_type *t;
        if (!spv_block_var(x, in, &block, &off, &t))
            return;
    }
    x->cur = NULL;
}
