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
    for (uint32_t i = 0; i < m->nins && !x->failed; i++) {
        const spv_inst *in = &m->ins[i];
        if (in->op == SpvOpFunction)
            break;
        if (!spv_is_const_var(x, in))
            continue;
        x->cur = in;
        const spv_type *pt = spv_type_lookup(x, spv_word(m, in, 1));
        if (!pt || pt->kind != SPV_TY_PTR || pt->elem >= m->bound)
            return;
        uint32_t id = spv_word(m, in, 2);
        const spv_type *t = &m->types[pt->elem];
        if (!t->size) {
            spv_error(x, "constant variable %u has a type of unknown size", id);
            return;
        }
        if (!k->const_arg) {
            for (uint32_t a = 0; a < k->narg; a++)
                if (!strcmp(k->args[a].name, CONST_ARG_NAME)) {
                    spv_error(x, "a parameter is named %s", CONST_ARG_NAME);
                    return;
                }
            if (k->narg >= ISA_MAX_ARGS) {
                spv_error(x, "too many parameters for the constant-data argument");
                return;
            }
            isa_arg *a = &k->args[k->narg++];
            memset(a, 0, sizeof *a);
            snprintf(a->name, sizeof a->name, "%s", CONST_ARG_NAME);
            a->kind = ISA_ARG_CONSTANT;
            a->type = ISA_T_U8;
            a->line = in->line;
            k->const_arg = k->narg;
        }
        uint64_t al = spv_var_align(x, id, t->align ? t->align : 1);
        uint64_t off = (k->const_bytes + al - 1) / al * al;
        if (off + t->size > (1u << 26)) {
            spv_error(x, "more than 64 MiB of program-scope constant data");
            return;
        }
        uint8_t *nd = realloc(k->const_data, off + t->size);
        if (!nd) {
            spv_error(x, "out of memory");
            return;
        }
        k->const_data = nd;
        memset(nd + k->const_bytes, 0, off + t->size - k->const_bytes);   /* padding */
        k->const_bytes = (uint32_t)(off + t->size);
        /* pointers to program-scope variables become .data_reloc entries */
        if (!spv_data_image(x, spv_word(m, in, 4), nd, off, off + t->size, k->const_arg - 1))
            return;
        xval *v = spv_def(x, NULL, id, 1);
        if (!v)
            return;
        memset(&v->c[0].o, 0, sizeof v->c[0].o);
        v->c[0].o.kind = ISA_OPND_ADDR;
        v->c[0].o.addr.base_kind = ISA_OPND_ARG;
        v->c[0].o.addr.base = (uint16_t)(k->const_arg - 1);
        v->c[0].o.addr.disp = (int64_t)off;
        v->c[0].space = ISA_SPACE_CONSTANT;
    }
    x->cur = NULL;
}
