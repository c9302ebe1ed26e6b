/* spirv_globaldata.c - program-scope global variables (OpenCL C 2.0
 * `global int n = 1;`, `static global` locals): module-scope OpVariable
 * CrossWorkgroup.  Their initial bytes (zero where there is no initialiser)
 * go into the kernel's .global_data block, which the engine copies afresh at
 * every launch (unless the caller's block is live: the OpenCL platform
 * keeps one per program) and binds to a hidden `global u8` argument appended after the
 * parameters (and after .const_data); each variable is an address
 * [%__spirv_globals + offset].
 *
 * Initialisers that take the address of a program-scope variable
 * (`global int *p = &a[2];`) cannot be bytes here: a block's address is only
 * known at launch.  They become .data_reloc entries (block, offset, target
 * block, addend) that the engine writes into its copy; the same applies to
 * pointers inside .const_data initialisers.  While the variables are laid
 * out a relocation's `target` holds the SPIR-V id of the variable pointed
 * to; spv_global_vars turns it into that variable's block and offset once
 * every variable has one. */
#include "spirv_private.h"

#include <stdio.h>
#include <stdlib.h>

#define GLOBAL_ARG_NAME "__spirv_globals"
#define DATA_MAX (1u << 26)   /* 64 MiB, as .const_data */

bool spv_is_global_var(xctx *x, const spv_inst *in)
{
    return in->op == SpvOpVariable && in->nw > 3 &&
           spv_word(x->m, in, 3) == SpvStorageClassCrossWorkgroup;
}

static const spv_inst *def_of(xctx *x, uint32_t id)
{
    spv_module *m = x->m;
    return id && id < m->bound && m->def[id] ? &m->ins[m->def[id] - 1] : NULL;
}

static const spv_type *type_of_id(xctx *x, uint32_t id)
{
    const spv_inst *d = def_of(x, id);
    return d && d->nw > 2 ? spv_type_lookup(x, spv_word(x->m, d, 1)) : NULL;
}

/* The value of integer constant id (sign-extended from its width). */
static bool const_int(xctx *x, uint32_t id, int64_t *v)
{
    const spv_inst *d = def_of(x, id);
    const spv_type *t = type_of_id(x, id);
    if (!d || !t || t->kind != SPV_TY_INT ||
        (d->op != SpvOpConstant && d->op != SpvOpSpecConstant && d->op != SpvOpConstantNull))
        return false;
    if (d->op == SpvOpConstantNull) {
        *v = 0;
        return true;
    }
    uint64_t u = spv_word(x->m, d, 3);
    if (d->nw > 4)
        u |= (uint64_t)spv_word(x->m, d, 4) << 32;
    unsigned bits = (unsigned)(t->size * 8);
    if (bits && bits < 64 && (u >> (bits - 1)) & 1)
        u |= ~0ull << bits;
    *v = (int64_t)u;
    return true;
}

/* Byte offset of the access chain `in` (an OpSpecConstantOp whose operands
 * start at word 4: base, [element,] indices) from its base pointer. */
static bool chain_offset(xctx *x, const spv_inst *in, bool ptr_chain, int64_t *off)
{
    spv_module *m = x->m;
    const spv_type *pt = type_of_id(x, spv_word(m, in, 4));
    if (!pt || pt->kind != SPV_TY_PTR || pt->elem >= m->bound)
        return false;
    const spv_type *t = &m->types[pt->elem];
    uint64_t o = 0;
    unsigned w = 5;
    if (ptr_chain) {
        int64_t e;
        if (w >= in->nw || !const_int(x, spv_word(m, in, w++), &e))
            return false;
        o += (uint64_t)e * t->size;
    }
    for (; w < in->nw; w++) {
        int64_t i;
        if (!const_int(x, spv_word(m, in, w), &i))
            return false;
        if (t->kind == SPV_TY_STRUCT) {
            if (i < 0 || (uint64_t)i >= t->nmembers)
                return false;
            o += m->member_off[t->first_member + (uint32_t)i];
            t = &m->types[m->members[t->first_member + (uint32_t)i]];
        } else if (t->kind == SPV_TY_ARRAY || t->kind == SPV_TY_VEC) {
            t = &m->types[t->elem];
            o += (uint64_t)i * t->size;
        } else {
            return false;
        }
    }
    *off = (int64_t)o;
    return true;
}

/* The program-scope variable that pointer constant id points into and the
 * byte offset from its start; false if id is no such address. */
static bool pointer_target(xctx *x, uint32_t id, uint32_t *var, int64_t *off, int depth)
{
    const spv_inst *d = def_of(x, id);
    if (!d || depth > 64)
        return false;
    if (d->op == SpvOpVariable) {
        *var = id;
        *off = 0;
        return true;
    }
    if (d->op != SpvOpSpecConstantOp || d->nw < 5)
        return false;
    uint32_t op = spv_word(x->m, d, 3);
    int64_t extra = 0;
    switch (op) {
    case SpvOpBitcast: case SpvOpPtrCastToGeneric: case SpvOpGenericCastToPtr:
        break;
    case SpvOpAccessChain: case SpvOpInBoundsAccessChain:
        if (!chain_offset(x, d, false, &extra))
            return false;
        break;
    case SpvOpPtrAccessChain: case SpvOpInBoundsPtrAccessChain:
        if (!chain_offset(x, d, true, &extra))
            return false;
        break;
    default:
        return false;
    }
    if (!pointer_target(x, spv_word(x->m, d, 4), var, off, depth + 1))
        return false;
    *off += extra;
    return true;
}

/* The OpenCL C name of the variable being laid out (x->cur), for messages. */
static const char *cur_name(xctx *x)
{
    uint32_t id = x->cur && x->cur->nw > 2 ? spv_word(x->m, x->cur, 2) : 0;
    const char *n = id && id < x->m->bound ? x->m->name[id] : NULL;
    return n && n[0] ? n : "(unnamed)";
}

static bool add_reloc(xctx *x, uint32_t block_arg, uint64_t off, uint32_t var, int64_t addend)
{
    isa_kernel *k = x->k;
    isa_reloc *n = realloc(k->relocs, (k->nreloc + 1) * sizeof *n);
    if (!n) {
        spv_error(x, "out of memory");
        return false;
    }
    k->relocs = n;
    memset(&n[k->nreloc], 0, sizeof *n);
    n[k->nreloc].arg = block_arg;
    n[k->nreloc].offset = (uint32_t)off;
    n[k->nreloc].target = var;          /* a SPIR-V id until spv_global_vars */
    n[k->nreloc].addend = addend;
    k->nreloc++;
    return true;
}

static bool image_at(xctx *x, uint32_t id, uint8_t *buf, uint64_t off, uint64_t size,
                     uint32_t block_arg, int depth)
{
    spv_module *m = x->m;
    const spv_inst *d = def_of(x, id);
    const spv_type *t = type_of_id(x, id);
    if (!d || !t || off + t->size > size || depth > 64) {
        spv_error(x, "initialiser %u does not fit its variable", id);
        return false;
    }
    if (t->kind == SPV_TY_PTR &&
        (d->op == SpvOpVariable || d->op == SpvOpSpecConstantOp)) {
        uint32_t var;
        int64_t addend;
        if (!pointer_target(x, id, &var, &addend, 0)) {
            spv_error(x, "the initialiser of '%s' holds a pointer that is not the address of "
                    "a program-scope variable plus constant indices (id %u)", cur_name(x), id);
            return false;
        }
        if (t->size != 8) {
            spv_error(x, "the initialiser of '%s' holds a %u-byte pointer: pointer "
                    "initialisers need 64-bit addressing (Physical64), sgemu's block "
                    "addresses do not fit 32 bits", cur_name(x), (unsigned)t->size);
            return false;
        }
        return add_reloc(x, block_arg, off, var, addend);
    }
    if ((d->op == SpvOpConstantComposite || d->op == SpvOpSpecConstantComposite) &&
        (t->kind == SPV_TY_STRUCT || t->kind == SPV_TY_ARRAY)) {
        unsigned n = d->nw > 3 ? d->nw - 3u : 0;
        for (unsigned i = 0; i < n; i++) {
            uint64_t o;
            if (!spv_constituent_offset(m, t, i, &o))
                break;
            if (!image_at(x, spv_word(m, d, 3 + i), buf, off + o, size, block_arg, depth + 1))
                return false;
        }
        return true;
    }
    uint8_t *img = spv_const_image(x, id, t->size);
    if (!img)
        return false;
    memcpy(buf + off, img, t->size);
    free(img);
    return true;
}

bool spv_data_image(xctx *x, uint32_t id, uint8_t *buf, uint64_t off, uint64_t size,
                  uint32_t block_arg)
{
    return image_at(x, id, buf, off, size, block_arg, 0);
}

/* The element type that `sgemu run --out VAR` prints a variable of type t
 * as: the scalar at the bottom of arrays and vectors (OpenCL C integers are
 * printed signed: SPIR-V does not keep signedness), u64 for pointers, u8
 * for structs and bools. */
static isa_type print_type(xctx *x, const spv_type *t)
{
    while (t->kind == SPV_TY_ARRAY || t->kind == SPV_TY_VEC)
        t = &x->m->types[t->elem];
    if (t->kind == SPV_TY_INT)
        return t->size == 1 ? ISA_T_I8 : t->size == 2 ? ISA_T_I16
             : t->size == 4 ? ISA_T_I32 : ISA_T_I64;
    if (t->kind == SPV_TY_FLOAT)
        return t->size == 2 ? ISA_T_F16 : t->size == 4 ? ISA_T_F32 : ISA_T_F64;
    if (t->kind == SPV_TY_PTR)
        return ISA_T_U64;
    return ISA_T_U8;
}

static bool add_block_arg(xctx *x, const spv_block *b, uint32_t line)
{
    isa_kernel *k = x->k;
    for (uint32_t a = 0; a < k->narg; a++)
        if (!strcmp(k->args[a].name, b->arg_name)) {
            spv_error(x, "a parameter is named %s", b->arg_name);
            return false;
        }
    if (k->narg >= ISA_MAX_ARGS) {
        spv_error(x, "too many parameters for the %s-data argument", b->what);
        return false;
    }
    isa_arg *a = &k->args[k->narg++];
    memset(a, 0, sizeof *a);
    snprintf(a->name, sizeof a->name, "%s", b->arg_name);
    a->kind = b->kind;
    a->type = ISA_T_U8;
    a->line = line;
    *b->arg = k->narg;
    return true;
}

bool spv_block_var(xctx *x, const spv_inst *in, const spv_block *b, uint64_t *offp,
                   const spv_type **tp)
{
    spv_module *m = x->m;
    const spv_type *pt = spv_type_lookup(x, spv_word(m, in, 1));
    if (!pt || pt->kind != SPV_TY_PTR || pt->elem >= m->bound)
        return false;
    uint32_t id = spv_word(m, in, 2);
    const spv_type *t = &m->types[pt->elem];
    if (!t->size) {
        spv_error(x, "%s variable %u has a type of unknown size", b->what, id);
        return false;
    }
    if (!*b->arg && !add_block_arg(x, b, in->line))
        return false;
    uint64_t al = spv_var_align(x, id, t->align ? t->align : 1);
    uint64_t off = (*b->bytes + al - 1) / al * al;
    if (off + t->size > DATA_MAX) {
        spv_error(x, "more than 64 MiB of program-scope %s data", b->what);
        return false;
    }
    uint8_t *nd = realloc(*b->data, off + t->size);
    if (!nd) {
        spv_error(x, "out of memory");
        return false;
    }
    *b->data = nd;
    memset(nd + *b->bytes, 0, off + t->size - *b->bytes);     /* padding, zero-initialised */
    *b->bytes = (uint32_t)(off + t->size);
    /* pointers to program-scope variables become .data_reloc entries */
    if (in->nw > 4 && !spv_data_image(x, spv_word(m, in, 4), nd, off, off + t->size, *b->arg - 1))
        return false;
    xval *v = spv_def(x, NULL, id, 1);
    if (!v)
        return false;
    memset(&v->c[0].o, 0, sizeof v->c[0].o);
    v->c[0].o.kind = ISA_OPND_ADDR;
    v->c[0].o.addr.base_kind = ISA_OPND_ARG;
    v->c[0].o.addr.base = (uint16_t)(*b->arg - 1);
    v->c[0].o.addr.disp = (int64_t)off;
    v->c[0].space = b->space;
    *offp = off;
    *tp = t;
    return true;
}

static void add_name(xctx *x, uint32_t id, uint64_t off, const spv_type *t)
{
    isa_kernel *k = x->k;
    const char *name = id < x->m->bound ? x->m->name[id] : NULL;
    if (!name || !name[0] || strlen(name) >= sizeof k->gvars[0].name)
        return;                 /* unnamed: reachable only through the block */
    for (uint32_t i = 0; i < k->ngvar; i++)
        if (!strcmp(k->gvars[i].name, name))
            return;
    isa_gvar *n = realloc(k->gvars, (k->ngvar + 1) * sizeof *n);
    if (!n) {
        spv_error(x, "out of memory");
        return;
    }
    k->gvars = n;
    isa_gvar *g = &n[k->ngvar++];
    memset(g, 0, sizeof *g);
    snprintf(g->name, sizeof g->name, "%s", name);
    g->offset = (uint32_t)off;
    g->bytes = (uint32_t)t->size;
    g->type = (uint8_t)print_type(x, t);
}

static void lay_out(xctx *x, const spv_inst *in)
{
    isa_kernel *k = x->k;
    const spv_block b = { GLOBAL_ARG_NAME, "global", ISA_ARG_GLOBAL, ISA_SPACE_GLOBAL,
                          &k->global_data, &k->global_bytes, &k->global_arg };
    uint64_t off;
    const spv_type *t;
    if (spv_block_var(x, in, &b, &off, &t))
        add_name(x, spv_word(x->m, in, 2), off, t);
}

void spv_global_vars(xctx *x)
{
    spv_module *m = x->m;
    isa_kernel *k = x->k;
    for (uint32_t i = 0; i < m->nins && !x->failed; i++) {
        const spv_inst *in = &m->ins[i];
        if (in->op == SpvOpFunction)
            break;
        if (!spv_is_global_var(x, in))
            continue;
        x->cur = in;
        lay_out(x, in);
    }
    x->cur = NULL;
    /* every block variable has its address now: resolve the relocations */
    for (uint32_t i = 0; i < k->nreloc && !x->failed; i++) {
        isa_reloc *r = &k->relocs[i];
        uint32_t var = r->target;
        const xval *v = var < m->bound ? x->gv[var] : NULL;
        const isa_operand *o = v && v->n ? &v->c[0].o : NULL;
        if (!o || o->kind != ISA_OPND_ADDR || o->addr.base_kind != ISA_OPND_ARG ||
            (o->addr.base + 1u != k->global_arg && o->addr.base + 1u != k->const_arg)) {
            spv_error(x, "a pointer initialiser takes the address of variable %u, which is "
                    "not program-scope global or constant data", var);
            return;
        }
        r->target = o->addr.base;
        r->addend += o->addr.disp;
        uint32_t tb = r->target + 1 == k->global_arg ? k->global_bytes : k->const_bytes;
        if (r->addend < 0 || r->addend > (int64_t)tb) {
            spv_error(x, "a pointer initialiser points outside its variable's data block "
                    "(offset %lld of %u bytes)", (long long)r->addend, tb);
            return;
        }
    }
}
