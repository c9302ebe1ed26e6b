/* spirv_function.c - functions, inlined at each call: parameters, labels and
 * phi registers of an instance, calls and returns. */
#include "spirv_private.h"

#include <stdlib.h>

uint32_t spv_find_function(xctx *x, uint32_t id)
{
    spv_module *m = x->m;
    if (!id || id >= m->bound || !m->def[id] || m->ins[m->def[id] - 1].op != SpvOpFunction)
        return 0;
    return m->def[id];
}

void spv_op_call(xctx *x, xfn *f, const spv_inst *in)
{
    spv_module *m = x->m;
    uint32_t rt = spv_word(m, in, 1), id = spv_word(m, in, 2), callee = spv_word(m, in, 3);
    if (spv_call_builtin(x, f, in))
        return;
    xval *args[64];
    unsigned n = 0;
    for (unsigned w = 4; w < in->nw && n < 64; w++) {
        args[n] = spv_val(x, f, m->w[in->off + w]);
        if (!args[n])
            return;
        n++;
    }
    const spv_type *t = spv_type_lookup(x, rt);
    if (!t)
        return;
    xval *ret = NULL;
    if (t->kind != SPV_TY_VOID) {
        ret = spv_def(x, f, id, 1);
        if (!ret || !spv_alloc_regs(x, ret, t))
            return;
    }
    uint32_t after = spv_new_label(x);
    if (x->depth > 32) {
        spv_error(x, "recursive or too deeply nested function calls");
        return;
    }
    const spv_inst *save = x->cur;
    spv_translate_function(x, callee, args, n, f, false, after, ret);
    x->cur = save;
    spv_place_label(x, after);
}

void spv_op_return(xctx *x, xfn *f, const spv_inst *in)
{
    if (in->op == SpvOpReturnValue && f->ret) {
        xval *v = spv_val(x, f, spv_word(x->m, in, 1));
        if (!v)
            return;
        xcopy cp[XV_MAX];
        unsigned n = 0;
        for (unsigned i = 0; i < v->n && i < f->ret->n; i++) {
            cp[n].dst = f->ret->c[i].o;
            cp[n].src = spv_src(x, &v->c[i]);
            cp[n].t = ISA_T_U64;
            n++;
        }
        spv_emit_copies(x, cp, n);
    }
    if (f->entry)
        spv_emit(x, ISA_OP_RET, ISA_T_NONE);
    else
        spv_emit_bra(x, NULL, f->ret_label);
}

void spv_translate_function(xctx *x, uint32_t func_id, xval **args, unsigned nargs,
                          xfn *caller, bool entry, uint32_t ret_label, xval *ret)
{
    spv_module *m = x->m;
    (void)caller;
    uint32_t fi = spv_find_function(x, func_id);
    if (!fi) {
        spv_error(x, "call of %u, which is not a function defined in the module "
                   "(library functions must be linked in)", func_id);
        return;
    }
    uint32_t end = fi;
    while (end < m->nins && m->ins[end].op != SpvOpFunctionEnd)
        end++;
    if (end == m->nins) {
        spv_error(x, "function %u has no OpFunctionEnd (truncated module?)", func_id);
        return;
    }
    /* A declaration without a body: in OpenCL C, a function defined in
     * another source file.  Reported here, at the call, under its name. */
    bool has_body = false;
    for (uint32_t i = fi; i < end && !has_body; i++)
        has_body = m->ins[i].op == SpvOpLabel;
    if (!has_body) {
        const char *nm = func_id < m->bound ? m->name[func_id] : NULL;
        spv_error(x, "call of '%s', which is declared but not defined: its definition "
                  "must be in the same source (sgemu links no other module)",
                  nm ? nm : "(unnamed)");
        return;
    }
    xfn fn;
    memset(&fn, 0, sizeof fn);
    fn.entry = entry;
    fn.ret_label = ret_label;
    fn.ret = ret;
    fn.v = calloc(m->bound, sizeof *fn.v);   // NOLINT(bugprone-sizeof-expression): an array of pointers
    fn.label = calloc(m->bound, sizeof *fn.label);
    if (!fn.v || !fn.label) {
        spv_error(x, "out of memory");
        goto out;
    }
    x->depth++;
    /* parameters, labels, phi registers */
    unsigned np = 0;
    for (uint32_t i = fi; i < end && !x->failed; i++) {
        const spv_inst *in = &m->ins[i];
        x->cur = in;
        if (in->op == SpvOpFunctionParameter) {
            uint32_t id = spv_word(m, in, 2);
            if (np >= nargs) {
                spv_error(x, "function called with %u arguments but has more parameters", nargs);
                break;
            }
            xval *v = spv_def(x, &fn, id, args[np]->n);
            if (v)
                *v = *args[np];
            np++;
        } else if (in->op == SpvOpLabel) {
            uint32_t id = spv_word(m, in, 1);
            if (id && id < m->bound)
                fn.label[id] = spv_new_label(x) + 1;
        } else if (in->op == SpvOpPhi) {
            const spv_type *t = spv_type_lookup(x, spv_word(m, in, 1));
            xval *v = t ? spv_def(x, &fn, spv_word(m, in, 2), 1) : NULL;
            if (v && spv_alloc_regs(x, v, t) && t->kind == SPV_TY_BOOL)
                v->c[0].space = X_SPACE_NONE;
        }
    }
    if (!x->failed)
        spv_translate_body(x, &fn, fi, end);
    x->depth--;
out:
    if (fn.v)
        for (uint32_t i = 0; i < m->bound; i++)
            free(fn.v[i]);
    free(fn.v);
    free(fn.label);
}
