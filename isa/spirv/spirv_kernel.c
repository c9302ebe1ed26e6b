/* spirv_kernel.c - SPIR-V kernel -> isa_kernel: module-level values
 * (constants, variables), kernel parameters, the entry point's
 * translation, dead-code removal and the clean-up passes (isa/peephole.c). */
#include "spirv_private.h"

#include <stdio.h>
#include <stdlib.h>

/* ------------------------------------------------------------ constants */

static uint64_t mask_bits(uint64_t v, isa_type t)
{
    unsigned b = t < ISA_T_COUNT ? isa_types[t].bytes : 8;
    return b >= 8 ? v : v & ((1ull << (b * 8)) - 1);
}

static void zero_value(xctx *x, xval *v, const spv_type *t)
{
    v->n = t->ncomp;
    for (unsigned i = 0; i < v->n; i++) {
        v->c[i].o = spv_I(0);
        if (t->kind == SPV_TY_PTR)
            v->c[i].space = (uint8_t)spv_space_of_sc(t->sc);
    }
}

uint64_t spv_type_size(xctx *x, uint32_t tid)
{
    const spv_type *t = spv_type_lookup(x, tid);
    return t ? t->size : 0;
}

/* Whether word j of a function-body instruction may name an id: the
 * literals of the common instructions are not (memory operands, indices,
 * line numbers, storage classes, masks); a literal of another instruction
 * equal to an id counts as naming it, which lays out more, never less. */
static bool may_name_id(uint16_t op, unsigned j)
{
    switch (op) {
    case SpvOpLine:
    case SpvOpSelectionMerge:
    case SpvOpLoopMerge:
        return false;
    case SpvOpLoad:
    case SpvOpCompositeExtract:
    case SpvOpCopyMemorySized:
    case SpvOpBranchConditional:
        return j <= 3;
    case SpvOpStore:
    case SpvOpCopyMemory:
    case SpvOpSwitch:
        return j <= 2;
    case SpvOpCompositeInsert:
    case SpvOpVectorShuffle:
        return j <= 4;
    case SpvOpExtInst:             /* word 4: the instruction's number */
        return j != 4;
    case SpvOpVariable:            /* word 3: the storage class */
    case SpvOpFunction:            /* word 3: the function control */
        return j != 3;
    default:
        return true;
    }
}

/* The ids named by the functions the kernel's entry reaches through
 * OpFunctionCall; NULL when out of memory. */
static uint8_t *kernel_ids(const spv_module *m, uint32_t entry)
{
    uint8_t *named = calloc(m->bound, 1), *done = calloc(m->bound, 1);
    uint32_t *start = calloc(m->bound, sizeof *start), *todo = calloc(m->bound, sizeof *todo);
    uint32_t ntodo = 0;
    if (!named || !done || !start || !todo) {
        free(named);
        named = NULL;
        goto out;
    }
    for (uint32_t i = 0; i < m->nins; i++)   /* function id -> its OpFunction + 1 */
        if (m->ins[i].op == SpvOpFunction && m->ins[i].nw > 2 && m->w[m->ins[i].off + 2] < m->bound)
            start[m->w[m->ins[i].off + 2]] = i + 1;
    if (entry < m->bound) {
        todo[ntodo++] = entry;
        done[entry] = 1;
    }
    while (ntodo) {
        uint32_t f = todo[--ntodo];
        for (uint32_t i = start[f]; i && i - 1 < m->nins; i++) {
            const spv_inst *in = &m->ins[i - 1];
            if (in->op == SpvOpFunctionEnd)
                break;
            for (unsigned j = 1; j < in->nw; j++) {
                uint32_t w = m->w[in->off + j];
                if (w < m->bound && may_name_id(in->op, j))
                    named[w] = 1;
            }
            if (in->op == SpvOpFunctionCall && in->nw > 3) {
                uint32_t g = m->w[in->off + 3];
                if (g < m->bound && !done[g]) {
                    done[g] = 1;
                    todo[ntodo++] = g;
                }
            }
        }
    }
out:
    free(done);
    free(start);
    free(todo);
    return named;
}

/* Module-level instructions: constants, global variables. */
static void module_value(xctx *x, const spv_inst *in)
{
    spv_module *m = x->m;
    x->cur = in;
    const spv_op_info *oi = spv_op_find(in->op);
    if (!oi || !oi->has_type || !oi->has_result)
        return;
    uint32_t rt = spv_word(m, in, 1), id = spv_word(m, in, 2);
    switch (in->op) {
    case SpvOpConstant:
    case SpvOpSpecConstant: {
        const spv_type *t = spv_type_lookup(x, rt);
        xval *v = t ? spv_def(x, NULL, id, 1) : NULL;
        if (!v)
            return;
        uint64_t bits = spv_word(m, in, 3);
        if (in->nw > 4)
            bits |= (uint64_t)spv_word(m, in, 4) << 32;
        v->c[0].o = spv_I(mask_bits(bits, spv_comp_type(t)));
        return;
    }
    case SpvOpConstantTrue: case SpvOpConstantFalse:
    case SpvOpSpecConstantTrue: case SpvOpSpecConstantFalse: {
        xval *v = spv_def(x, NULL, id, 1);
        if (v)
            v->c[0].o = spv_I(in->op == SpvOpConstantTrue || in->op == SpvOpSpecConstantTrue);
        return;
    }
    case SpvOpConstantNull:
    case SpvOpUndef: {
        const spv_type *t = spv_type_lookup(x, rt);
        if (!t)
            return;
        if (t->kind == SPV_TY_ARRAY || t->kind == SPV_TY_STRUCT) {
            spv_def(x, NULL, id, 0);
            return;
        }
        xval *v = spv_def(x, NULL, id, t->ncomp);
        if (v)
            zero_value(x, v, t);
        return;
    }
    case SpvOpConstantComposite:
    case SpvOpSpecConstantComposite: {
        const spv_type *t = spv_type_lookup(x, rt);
        if (!t)
            return;
        if (t->kind != SPV_TY_VEC) {
            spv_def(x, NULL, id, 0);    /* only usable as an initializer: not supported */
            return;
        }
        xval *v = spv_def(x, NULL, id, t->ncomp);
        for (unsigned i = 0; v && i < t->ncomp && i + 3 < in->nw; i++) {
            xval *e = spv_val(x, NULL, spv_word(m, in, 3 + i));
            if (e && e->n)
                v->c[i] = e->c[0];
        }
        return;
    }
    case SpvOpVariable: {
        uint32_t sc = spv_word(m, in, 3);
        const spv_type *pt = spv_type_lookup(x, rt);
        if (!pt)
            return;
        /* A BuiltIn is Input, or UniformConstant from producers that put
         * OpenCL's built-ins in the constant address space (the OpenCL
         * environment's validator takes both). */
        if (m->builtin[id] &&
            (sc == SpvStorageClassInput || sc == SpvStorageClassUniformConstant)) {
            spv_def(x, NULL, id, 0);   /* loads of it are handled by OpLoad */
            return;
        }
        if (sc == SpvStorageClassInput) {
            spv_error(x, "input variable %u is not a BuiltIn", id);
            return;
        }
        if (spv_is_const_var(x, in) || spv_is_global_var(x, in))
            return;      /* laid out by spv_const_vars / spv_global_vars after the parameters */
        if (sc == SpvStorageClassWorkgroup) {
            /* another kernel's __local variable (function-scope __local
             * variables are module-scope in SPIR-V): not this one's memory */
            if (x->kernel_ids && !x->kernel_ids[id])
                return;
            uint64_t sz = spv_type_size(x, pt->elem), al = m->types[pt->elem].align;
            uint64_t off = al ? (x->k->local_mem + al - 1) / al * al : x->k->local_mem;
            if (off + sz > UINT32_MAX / 2) {
                spv_error(x, "local variable too large");
                return;
            }
            x->k->local_mem = (uint32_t)(off + sz);
            xval *v = spv_def(x, NULL, id, 1);
            if (v) {
                v->c[0].o = spv_I(off);
                v->c[0].space = ISA_SPACE_LOCAL;
            }
            if (in->nw > 4)
                spv_error(x, "initialised __local variables are not supported");
            return;
        }
        spv_error(x, "module-scope variables of storage class %s (program-scope constant or "
                   "global data) are not supported",
                spv_enum_name("StorageClass", sc) ? spv_enum_name("StorageClass", sc) : "?");
        return;
    }
    case SpvOpConstantSampler:
        spv_const_sampler(x, in);
        return;
    default:
        return;
    }
}

/* ------------------------------------------------------------ kernel */

/* OpenCL C integer type names that are signed (kernel_arg_type spellings). */
static bool signed_cl_type(const char *s, size_t n)
{
    static const char *const names[] = { "char", "short", "int", "long", "signed char" };
    while (n && (s[n - 1] == '*' || s[n - 1] == ' '))
        n--;
    /* vector forms: int4, char16, ... */
    while (n && s[n - 1] >= '0' && s[n - 1] <= '9')
        n--;
    if (n > 6 && !strncmp(s, "const ", 6)) {
        s += 6;
        n -= 6;
    }
    for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strlen(names[i]) == n && !strncmp(s, names[i], n))
            return true;
    return false;
}

/* Signedness of integer arguments: llvm-spirv keeps the OpenCL type names
 * as OpString "kernel_arg_type.KERNEL.T0,T1,..." (with
 * --preserve-ocl-kernel-arg-type-metadata-through-string, which sgemu's .cl
 * pipeline passes); SPIR-V integer types themselves carry no sign. */
static void arg_signedness(xctx *x, const spv_entry *e)
{
    spv_module *m = x->m;
    char prefix[96];
    snprintf(prefix, sizeof prefix, "kernel_arg_type.%s.", e->name);
    size_t pl = strlen(prefix);
    for (uint32_t i = 0; i < m->nins; i++) {
        const spv_inst *in = &m->ins[i];
        if (in->op == SpvOpFunction)
            break;
        if (in->op != SpvOpString || in->nw < 3)
            continue;
        unsigned words;
        const char *str = spv_string(m, in, 2, &words);
        if (!str || strncmp(str, prefix, pl))
            continue;
        const char *p = str + pl;
        for (unsigned a = 0; a < x->k->narg && *p; a++) {
            const char *c = strchr(p, ',');
            size_t n = c ? (size_t)(c - p) : strlen(p);
            isa_arg *ar = &x->k->args[a];
            if (ar->byval && n < sizeof ar->cl_type)
                snprintf(ar->cl_type, sizeof ar->cl_type, "%.*s", (int)n, p);
            bool intish = ar->kind == ISA_ARG_SCALAR || ar->kind == ISA_ARG_GLOBAL ||
                          ar->kind == ISA_ARG_CONSTANT || ar->kind == ISA_ARG_LOCAL;
            if (intish && signed_cl_type(p, n))
                ar->type = spv_signed(ar->type);
            if (!c)
                break;
            p = c + 1;
        }
        break;
    }
}

static int setup_args(xctx *x, const spv_entry *e, xval **args, unsigned *nargs, bool *unnamed)
{
    spv_module *m = x->m;
    uint32_t fi = spv_find_function(x, e->func);
    unsigned n = 0;
    for (uint32_t i = fi; fi && i < m->nins && m->ins[i].op != SpvOpFunctionEnd; i++) {
        const spv_inst *in = &m->ins[i];
        if (in->op == SpvOpLabel)
            break;
        if (in->op != SpvOpFunctionParameter)
            continue;
        x->cur = in;
        if (n >= ISA_MAX_ARGS) {
            spv_error(x, "more than %d kernel arguments", ISA_MAX_ARGS);
            return 1;
        }
        uint32_t id = spv_word(m, in, 2);
        const spv_type *t = spv_type_lookup(x, spv_word(m, in, 1));
        if (!t)
            return 1;
        isa_arg *a = &x->k->args[n];
        memset(a, 0, sizeof *a);
        a->line = in->line;
        const char *nm = id < m->bound ? m->name[id] : NULL;
        if (nm && *nm && strlen(nm) < sizeof a->name)
            snprintf(a->name, sizeof a->name, "%s", nm);
        else {
            snprintf(a->name, sizeof a->name, "arg%u", n);
            *unnamed = true;
        }
        args[n] = calloc(1, sizeof **args);
        if (!args[n])
            return 1;
        args[n]->n = 1;
        args[n]->c[0].o.kind = ISA_OPND_ARG;
        args[n]->c[0].o.reg = (uint16_t)n;
        args[n]->c[0].space = X_SPACE_NONE;
        /* vectors and structs by value: a `constant` argument of their bytes */
        bool byval = (t->kind == SPV_TY_VEC || (t->kind == SPV_TY_PTR &&
                      t->sc == SpvStorageClassFunction)) && spv_byval_param(x, in, t, a, args[n]);
        if (x->failed)
            return 1;
        if (byval) {
            n++;
            continue;
        }
        switch (t->kind) {
        case SPV_TY_INT: case SPV_TY_FLOAT:
            a->kind = ISA_ARG_SCALAR;
            a->type = t->isa_t;
            if (t->sampler)   /* the host sets it from a cl_sampler */
                snprintf(a->cl_type, sizeof a->cl_type, "sampler_t");
            break;
        case SPV_TY_PTR: {
            const spv_type *pt = spv_type_lookup(x, t->elem);
            if (!pt)
                return 1;
            a->type = pt->isa_t != ISA_T_NONE ? pt->isa_t : ISA_T_U8;
            if (t->sc == SpvStorageClassCrossWorkgroup)
                a->kind = ISA_ARG_GLOBAL;
            else if (t->sc == SpvStorageClassUniformConstant)
                a->kind = ISA_ARG_CONSTANT;
            else if (t->sc == SpvStorageClassWorkgroup) {
                a->kind = ISA_ARG_LOCAL;
                /* the block must be aligned as its element type (long16: 128) */
                while (a->align_log2 < 7 && (1ull << a->align_log2) < pt->align)
                    a->align_log2++;
            }
            else {
                spv_error(x, "parameter %u ('%s'): pointers to storage class %s are not supported",
                        n, a->name, spv_enum_name("StorageClass", t->sc) ?
                        spv_enum_name("StorageClass", t->sc) : "?");
                return 1;
            }
            args[n]->c[0].space = (uint8_t)spv_space_of_sc(t->sc);
            break;
        }
        case SPV_TY_IMAGE: {
            /* Dim 1D, 2D, 3D or Buffer (image1d_buffer_t); Arrayed for the
             * 1D and 2D arrays */
            bool buf = t->img_dim == SpvDimBuffer;
            unsigned d = t->img_dim == SpvDim1D || buf ? 1 : t->img_dim == SpvDim2D ? 2
                       : t->img_dim == SpvDim3D ? 3 : 0;
            if (!d || !isa_image_type_name(d, t->img_arrayed, buf)) {
                spv_error(x, "parameter %u ('%s'): an image of Dim %u%s is not an OpenCL C "
                             "image type", n, a->name, t->img_dim,
                          t->img_arrayed ? ", arrayed," : "");
                return 1;
            }
            a->kind = ISA_ARG_IMAGE2D;
            a->dims = (uint8_t)d;
            a->arrayed = t->img_arrayed ? 1 : 0;
            a->img_buffer = buf;
            a->type = ISA_T_U8;
            a->access = t->access;
            break;
        }
        default:
            spv_error(x, "parameter %u ('%s'): this type cannot be a kernel argument (by-value "
                       "arguments are scalars, samplers, vectors and structs)", n, a->name);
            return 1;
        }
        n++;
    }
    x->k->narg = n;
    *nargs = n;
    arg_signedness(x, e);
    return 0;
}

/* Remove side-effect-free instructions whose results are never read. */
static void dead_code(xctx *x)
{
    uint8_t *rr = calloc(ISA_MAX_VALUES, 1);
    uint8_t *keep = malloc(x->ncode + 1);
    uint32_t *map = malloc((x->ncode + 1) * sizeof *map);
    if (!rr || !keep || !map)
        goto out;
    for (int iter = 0; iter < 8; iter++) {
        uint8_t pr[ISA_MAX_PREDS] = { 0 };
        memset(rr, 0, ISA_MAX_VALUES);
        for (uint32_t i = 0; i < x->ncode; i++) {
            const isa_inst *in = &x->code[i];
            if (x->pure[i] == 2)
                continue;
            isa_shape sh = isa_ops[in->op].shape;
            for (unsigned o = 0; o < in->nopnd; o++) {
                char l = isa_shape_letter(sh, in->nopnd, o);
                const isa_operand *op = &in->o[o];
                if (l == 'd' || l == 'P')
                    continue;
                unsigned vec;
                isa_opnd_type(in, o, &vec);
                if (op->kind == ISA_OPND_REG)
                    for (unsigned c = 0; c < vec && op->reg + c < ISA_MAX_VALUES; c++)
                        rr[op->reg + c] = 1;
                else if (op->kind == ISA_OPND_PRED && op->reg < ISA_MAX_PREDS)
                    pr[op->reg] = 1;
                else if (op->kind == ISA_OPND_ADDR) {
                    if (op->addr.base_kind == ISA_OPND_REG)
                        rr[op->addr.base] = 1;
                    if (op->addr.has_index)
                        rr[op->addr.index] = 1;
                }
            }
        }
        bool changed = false;
        for (uint32_t i = 0; i < x->ncode; i++) {
            const isa_inst *in = &x->code[i];
            if (x->pure[i] != 1 || in->nopnd == 0)
                continue;
            const isa_operand *d = &in->o[0];
            bool used;
            if (d->kind == ISA_OPND_PRED)
                used = d->reg < ISA_MAX_PREDS && pr[d->reg];
            else {
                unsigned vec;
                isa_opnd_type(in, 0, &vec);
                used = false;
                for (unsigned c = 0; c < vec && d->reg + c < ISA_MAX_VALUES; c++)
                    used |= rr[d->reg + c];
            }
            if (!used) {
                x->pure[i] = 2;
                changed = true;
            }
        }
        if (!changed)
            break;
    }
    /* Predicates are reused round-robin, so a removed compare may share its
     * number with a live one: liveness above is by number, which only keeps
     * too much, never too little. */
    uint32_t n = 0;
    for (uint32_t i = 0; i < x->ncode; i++) {
        map[i] = n;
        if (x->pure[i] != 2)
            x->code[n++] = x->code[i];
    }
    map[x->ncode] = n;
    for (uint32_t l = 0; l < x->nlabel; l++)
        if (x->label_pc[l] != ISA_PC_EXIT && x->label_pc[l] <= x->ncode)
            x->label_pc[l] = map[x->label_pc[l]];
    x->ncode = n;
out:
    free(rr);
    free(keep);
    free(map);
}

/* The source file the module's OpLines name (it was compiled with -g), or
 * NULL: its lines are then the source's, and so should the file name be. */
static const char *line_source(spv_module *m)
{
    const uint32_t id = m->line_file;
    if (!id || id >= m->bound || !m->def[id])
        return NULL;
    const spv_inst *s = &m->ins[m->def[id] - 1];
    return s->op == SpvOpString ? spv_string(m, s, 2, NULL) : NULL;
}

/* The kernels' names for a message, whole names only: where the next one
 * does not fit, "and N more" ends the list (a cut name reads as a kernel
 * that does not exist). */
static void entry_list(const spv_module *m, char *out, size_t size)
{
    const size_t tail = sizeof ", and 4294967295 more";
    size_t n = 0;
    out[0] = '\0';
    for (uint32_t j = 0; m->entries && j < m->nentries; j++) {
        const char *sep = j ? ", " : "";
        const size_t need = strlen(sep) + strlen(m->entries[j].name);
        if (n + need + tail > size) {
            snprintf(out + n, size - n, "%sand %u more", sep, m->nentries - j);
            return;
        }
        n += (size_t)snprintf(out + n, size - n, "%s%s", sep, m->entries[j].name);
    }
}

int spv_translate(const char *file, const void *data, size_t len, const char *entry,
                  isa_kernel *k, bool *args_unnamed, isa_diags *diags)
{
    spv_module m;
    memset(k, 0, sizeof *k);
    if (args_unnamed)
        *args_unnamed = false;
    snprintf(diags->file, sizeof diags->file, "%s", file);
    int errs = spv_module_parse(&m, file, data, len, diags);
    if (errs) {
        spv_module_free(&m);
        return errs;
    }
    if (line_source(&m)) {
        file = line_source(&m);
        snprintf(diags->file, sizeof diags->file, "%s", file);
    }
    const spv_entry *e = NULL;
    for (uint32_t i = 0; i < m.nentries; i++)
        if (!entry || !strcmp(m.entries[i].name, entry)) {
            if (e && !entry) {
                char list[180];
                entry_list(&m, list, sizeof list);
                isa_diags_add(diags, 1, 1, "the module has %u kernels (%s): choose one with "
                              "--kernel NAME", m.nentries, list);
                spv_module_free(&m);
                return 1;
            }
            e = &m.entries[i];
        }
    if (!e) {
        char list[180];
        entry_list(&m, list, sizeof list);
        if (entry)
            isa_diags_add(diags, 1, 1, "the module has no kernel '%s' (kernels: %s)", entry,
                          m.nentries ? list : "none");
        else
            isa_diags_add(diags, 1, 1, "the module has no kernel entry point");
        spv_module_free(&m);
        return 1;
    }
    xctx x;
    memset(&x, 0, sizeof x);
    x.m = &m;
    x.k = k;
    x.kname = e->name;
    snprintf(k->name, sizeof k->name, "%s", e->name);
    snprintf(k->file, sizeof k->file, "%s", file);
    k->reqd_sg_size = e->sg_size;
    memcpy(k->reqd_wg, e->local_size, sizeof k->reqd_wg);
    x.gv = calloc(m.bound, sizeof *x.gv);   // NOLINT(bugprone-sizeof-expression): an array of pointers
    xval *args[ISA_MAX_ARGS] = { 0 };
    unsigned nargs = 0;
    bool unnamed = false;
    if (!x.gv)
        spv_error(&x, "out of memory");
    x.kernel_ids = kernel_ids(&m, e->func);
    for (uint32_t i = 0; i < m.nins && !x.failed; i++) {
        if (m.ins[i].op == SpvOpFunction)
            break;
        module_value(&x, &m.ins[i]);
    }
    x.cur = NULL;
    if (!x.failed)
        setup_args(&x, e, args, &nargs, &unnamed);
    if (!x.failed)
        spv_const_vars(&x);
    if (!x.failed)
        spv_global_vars(&x);
    if (!x.failed)
        spv_translate_function(&x, e->func, args, nargs, NULL, true, 0, NULL);
    if (!x.failed) {
        dead_code(&x);
        for (uint32_t i = 0; i < x.ncode; i++) {
            isa_inst *in = &x.code[i];
            for (unsigned o = 0; o < in->nopnd; o++)
                if (in->o[o].kind == ISA_OPND_LABEL) {
                    uint32_t l = (uint32_t)in->o[o].imm;
                    uint32_t pc = l < x.nlabel ? x.label_pc[l] : ISA_PC_EXIT;
                    in->target = pc == ISA_PC_EXIT ? x.ncode : pc;
                    in->o[o].imm = 0;
                }
        }
        isa_drop_fallthrough(x.code, &x.ncode);
        /* SGEMU_SPV_OPT=0 keeps the stream as translated (A/B, bisecting) */
        const char *opt = getenv("SGEMU_SPV_OPT");
        if (!opt || strcmp(opt, "0") != 0) {
            if (!isa_promote_private(&x.code, &x.ncode, &k->private_mem))
                spv_error(&x, "out of memory promoting private variables");
            isa_peephole(x.code, &x.ncode);
        }
        k->inst = x.code;
        k->ninst = x.ncode;
        x.code = NULL;
    }
    if (args_unnamed)
        *args_unnamed = unnamed;
    for (unsigned i = 0; i < ISA_MAX_ARGS; i++)
        free(args[i]);
    if (x.gv)
        for (uint32_t i = 0; i < m.bound; i++)
            free(x.gv[i]);
    free(x.gv);
    free(x.kernel_ids);
    free(x.code);
    free(x.pure);
    free(x.label_pc);
    errs = (int)diags->count;
    spv_module_free(&m);
    if (errs) {
        isa_kernel_free(k);
        return errs;
    }
    k->regalloc = ISA_RA_VALUES;   /* every value has its own register */
    errs = isa_validate(k, diags);
    if (errs)
        isa_kernel_free(k);     /* as isa_assemble: no kernel on error */
    else
        k->compiled = 1;
    return errs;
}
