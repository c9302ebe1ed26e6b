/* spirv_aggregate.c - structs and arrays as whole values, OpCopyMemory(Sized)
 * and aggregate constants.
 *
 * An aggregate SSA value lives in memory: loading one copies its bytes into
 * a fresh slot of private memory, and its value is the slot's address (one
 * pointer component).  Extracting a member loads from slot + offset, storing
 * the value copies the slot.  Constant aggregates (OpConstantComposite,
 * OpConstantNull, OpUndef) become a byte image built from the type layout
 * and are stored with immediates.  Copies move the largest naturally
 * aligned chunks the alignment allows (u32x4, u64, u32, u16, u8).
 * By-value vector and struct kernel parameters are `constant` arguments of
 * their bytes (spv_byval_param, at the end). */
#include "spirv_private.h"

#include <stdio.h>
#include <stdlib.h>

/* Copies and constant stores longer than this are an error (no loop). */
#define AGG_MAX_BYTES 65536

bool spv_constituent_offset(const spv_module *m, const spv_type *t, unsigned i, uint64_t *o)
{
    if (t->kind == SPV_TY_STRUCT) {
        if (i >= t->nmembers)
            return false;
        *o = m->member_off[t->first_member + i];
    } else {
        *o = (uint64_t)i * m->types[t->elem].size;
    }
    return true;
}

bool spv_is_aggregate(const spv_type *t)
{
    return t && (t->kind == SPV_TY_ARRAY || t->kind == SPV_TY_STRUCT);
}

/* The type of an id's value (result type of its definition), or NULL. */
static const spv_type *type_of(xctx *x, uint32_t id)
{
    spv_module *m = x->m;
    if (!id || id >= m->bound || !m->def[id])
        return NULL;
    const spv_inst *d = &m->ins[m->def[id] - 1];
    const spv_op_info *oi = spv_op_find(d->op);
    if (!oi || !oi->has_type)
        return NULL;
    uint32_t t = spv_word(m, d, 1);
    return t && t < m->bound && m->types[t].kind != SPV_TY_NONE ? &m->types[t] : NULL;
}

static uint32_t def_op(xctx *x, uint32_t id)
{
    spv_module *m = x->m;
    return id && id < m->bound && m->def[id] ? m->ins[m->def[id] - 1].op : 0;
}

static bool is_const_op(uint32_t op)
{
    return op == SpvOpConstantComposite || op == SpvOpSpecConstantComposite ||
           op == SpvOpConstantNull || op == SpvOpUndef || op == SpvOpConstant ||
           op == SpvOpSpecConstant || op == SpvOpConstantTrue || op == SpvOpConstantFalse ||
           op == SpvOpSpecConstantTrue || op == SpvOpSpecConstantFalse;
}

/* The alignment of variable `id`: its OpDecorate Alignment (clang puts the
 * alloca's alignment there, and memcpy's Aligned operand relies on it) or
 * `al`, whichever is larger. */
uint64_t spv_var_align(xctx *x, uint32_t id, uint64_t al)
{
    spv_module *m = x->m;
    for (uint32_t i = 0; i < m->nins && m->ins[i].op != SpvOpFunction; i++) {
        const spv_inst *d = &m->ins[i];
        if (d->op == SpvOpDecorate && d->nw >= 4 && spv_word(m, d, 1) == id &&
            spv_word(m, d, 2) == SpvDecorationAlignment) {
            uint64_t a = spv_word(m, d, 3);
            if (a > al && a <= 4096 && (a & (a - 1)) == 0)
                al = a;
        }
    }
    return al;
}

/* ------------------------------------------------------------ chunks */

static isa_operand at(isa_operand a, uint64_t off)
{
    a.addr.disp = (int64_t)((uint64_t)a.addr.disp + off);   /* wraps, never UB */
    return a;
}

/* Chunk size for the next piece at `off` of `size` bytes aligned to `al`. */
static unsigned chunk(uint64_t off, uint64_t size, uint64_t al)
{
    unsigned c = 16;
    while (c > 1 && (c > al || (off % c) != 0 || off + c > size))
        c /= 2;
    return c;
}

static isa_type chunk_type(unsigned c)
{
    return c == 16 || c == 4 ? ISA_T_U32 : c == 8 ? ISA_T_U64 : c == 2 ? ISA_T_U16 : ISA_T_U8;
}

static bool size_ok(xctx *x, uint64_t size)
{
    if (size > AGG_MAX_BYTES) {
        spv_error(x, "aggregate copy of %llu bytes (more than %u) is not supported",
                (unsigned long long)size, AGG_MAX_BYTES);
        return false;
    }
    return true;
}

void spv_copy_bytes(xctx *x, isa_operand d, isa_space ds, isa_operand s, isa_space ss,
                  uint64_t size, uint64_t align)
{
    if (!size_ok(x, size))
        return;
    if (!align)
        align = 1;
    for (uint64_t off = 0; off < size && !x->failed;) {
        unsigned c = chunk(off, size, align);
        uint8_t vec = c == 16 ? 4 : 1;
        uint32_t r = spv_reg(x, vec);
        isa_inst *ld = spv_emit(x, ISA_OP_LD, chunk_type(c));
        ld->vec = vec;
        ld->space = (uint8_t)ss;
        ld->o[0] = spv_R(r);
        ld->o[1] = at(s, off);
        ld->nopnd = 2;
        isa_inst *st = spv_emit(x, ISA_OP_ST, chunk_type(c));
        st->vec = vec;
        st->space = (uint8_t)ds;
        st->o[0] = at(d, off);
        st->o[1] = spv_R(r);
        st->nopnd = 2;
        off += c;
    }
}

/* Store the byte image buf[0..size) at d (immediates, no vectors). */
static void store_image(xctx *x, isa_operand d, isa_space ds, const uint8_t *buf,
                        uint64_t size, uint64_t align)
{
    if (!size_ok(x, size))
        return;
    for (uint64_t off = 0; off < size && !x->failed;) {
        unsigned c = chunk(off, size, align ? align : 1);
        if (c == 16)
            c = 8;
        uint64_t v = 0;
        for (unsigned i = 0; i < c; i++)
            v |= (uint64_t)buf[off + i] << (8 * i);   /* sgemu memory is little-endian */
        isa_inst *st = spv_emit(x, ISA_OP_ST, chunk_type(c));
        st->space = (uint8_t)ds;
        st->o[0] = at(d, off);
        st->o[1] = spv_I(v);
        st->nopnd = 2;
        off += c;
    }
}

/* ------------------------------------------------------------ constants */

static bool fill(xctx *x, uint32_t id, uint8_t *buf, uint64_t off, uint64_t size, int depth)
{
    spv_module *m = x->m;
    if (!id || id >= m->bound || !m->def[id] || depth > 64) {
        spv_error(x, "initialiser %u is not a constant", id);
        return false;
    }
    const spv_inst *d = &m->ins[m->def[id] - 1];
    const spv_type *t = type_of(x, id);
    if (!t || off + t->size > size) {
        spv_error(x, "constant %u does not fit its type", id);
        return false;
    }
    switch (d->op) {
    case SpvOpConstantNull: case SpvOpUndef:
        memset(buf + off, 0, t->size);
        return true;
    case SpvOpConstantTrue: case SpvOpSpecConstantTrue:
        buf[off] = 1;
        return true;
    case SpvOpConstantFalse: case SpvOpSpecConstantFalse:
        buf[off] = 0;
        return true;
    case SpvOpConstant: case SpvOpSpecConstant: {
        uint64_t v = spv_word(m, d, 3);
        if (d->nw > 4)
            v |= (uint64_t)spv_word(m, d, 4) << 32;
        for (uint64_t i = 0; i < t->size && i < 8; i++)
            buf[off + i] = (uint8_t)(v >> (8 * i));
        return true;
    }
    case SpvOpConstantComposite: case SpvOpSpecConstantComposite: {
        unsigned n = d->nw > 3 ? d->nw - 3u : 0;
        for (unsigned i = 0; i < n; i++) {
            uint64_t o;
            if (!spv_constituent_offset(m, t, i, &o))
                break;
            if (!fill(x, spv_word(m, d, 3 + i), buf, off + o, size, depth + 1))
                return false;
        }
        return true;
    }
    default:
        spv_error(x, "initialiser %u (%s) is not a constant sgemu can lay out", id,
                spv_op_name(d->op));
        return false;
    }
}

uint8_t *spv_const_image(xctx *x, uint32_t id, uint64_t size)
{
    if (size > (1u << 26)) {   /* .const_data's limit; stores check AGG_MAX_BYTES */
        spv_error(x, "a constant of %llu bytes (more than 64 MiB) is not supported",
                (unsigned long long)size);
        return NULL;
    }
    uint8_t *buf = calloc(1, size ? size : 1);
    if (!buf) {
        spv_error(x, "out of memory");
        return NULL;
    }
    if (!fill(x, id, buf, 0, size, 0)) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* ------------------------------------------------------------ values */

/* A fresh private slot for a value of type t; its address operand. */
static isa_operand new_slot(xctx *x, const spv_type *t)
{
    uint64_t al = t->align ? t->align : 1;
    uint64_t off = (x->k->private_mem + al - 1) / al * al;
    if (off + t->size > (1u << 20))
        spv_error(x, "private variables exceed 1 MiB per work-item");
    else
        x->k->private_mem = (uint32_t)(off + t->size);
    xc c;
    memset(&c, 0, sizeof c);
    c.o = spv_I(off);
    c.space = ISA_SPACE_PRIVATE;
    isa_space sp;
    return spv_addr_of(x, &c, &sp);
}

static void set_slot(xctx *x, xfn *f, uint32_t id, isa_operand a)
{
    xval *v = spv_def(x, f, id, 1);
    if (!v)
        return;
    v->c[0].o = a;
    v->c[0].space = ISA_SPACE_PRIVATE;
}

/* Where the aggregate value `id` of type t lives (constants are stored into a
 * fresh slot first); *sp gets the space. */
static bool agg_addr(xctx *x, xfn *f, uint32_t id, const spv_type *t, isa_operand *a,
                     isa_space *sp)
{
    if (is_const_op(def_op(x, id))) {
        uint8_t *img = spv_const_image(x, id, t->size);
        if (!img)
            return false;
        *a = new_slot(x, t);
        *sp = ISA_SPACE_PRIVATE;
        store_image(x, *a, *sp, img, t->size, t->align);
        free(img);
        return !x->failed;
    }
    xval *v = spv_val(x, f, id);
    if (!v || v->n != 1) {
        spv_error(x, "aggregate value %u is not available", id);
        return false;
    }
    *a = spv_addr_of(x, &v->c[0], sp);
    return !x->failed;
}

/* Store the value `id` (any type) at a. */
static void store_value(xctx *x, xfn *f, uint32_t id, isa_operand a, isa_space sp)
{
    const spv_type *t = type_of(x, id);
    if (!t)
        return;
    if (spv_is_aggregate(t) && is_const_op(def_op(x, id))) {
        uint8_t *img = spv_const_image(x, id, t->size);
        if (img)
            store_image(x, a, sp, img, t->size, t->align);
        free(img);
        return;
    }
    if (spv_is_aggregate(t)) {
        isa_operand s;
        isa_space ss;
        if (agg_addr(x, f, id, t, &s, &ss))
            spv_copy_bytes(x, a, sp, s, ss, t->size, t->align);
        return;
    }
    if (t->kind == SPV_TY_BOOL) {
        spv_error(x, "bool members of aggregates are not supported");
        return;
    }
    xval *v = spv_val(x, f, id);
    if (!v || !v->n)
        return;
    spv_store_value(x, v, spv_comp_type(t), a, sp);
}

/* Load a value of (non-aggregate) type t from a into result id. */
static void load_value(xctx *x, xfn *f, uint32_t id, const spv_type *t, isa_operand a,
                       isa_space sp)
{
    if (spv_is_aggregate(t)) {   /* a sub-aggregate: its own copy */
        isa_operand s = new_slot(x, t);
        spv_copy_bytes(x, s, ISA_SPACE_PRIVATE, a, sp, t->size, t->align);
        set_slot(x, f, id, s);
        return;
    }
    if (t->kind == SPV_TY_BOOL) {
        spv_error(x, "bool members of aggregates are not supported");
        return;
    }
    xval *v = spv_def(x, f, id, 1);
    if (!v || !spv_alloc_regs(x, v, t))
        return;
    spv_load_value(x, v, t, a, sp);
}

/* Byte offset and type of the member reached by literal indices
 * words[first..nw) from type t. */
static const spv_type *member_at(xctx *x, const spv_inst *in, unsigned first,
                                 const spv_type *t, uint64_t *off)
{
    spv_module *m = x->m;
    *off = 0;
    for (unsigned w = first; w < in->nw && t; w++) {
        uint32_t i = spv_word(m, in, w);
        if (t->kind == SPV_TY_STRUCT) {
            if (i >= t->nmembers) {
                spv_error(x, "member index %u out of range", i);
                return NULL;
            }
            *off += m->member_off[t->first_member + i];
            t = &m->types[m->members[t->first_member + i]];
        } else if (t->kind == SPV_TY_ARRAY || t->kind == SPV_TY_VEC) {
            const spv_type *e = &m->types[t->elem];
            if (t->kind == SPV_TY_ARRAY ? (uint64_t)i * e->size >= t->size : i >= t->ncomp) {
                spv_error(x, "index %u out of range", i);
                return NULL;
            }
            *off += (uint64_t)i * e->size;
            t = e;
        } else {
            spv_error(x, "cannot index into this type");
            return NULL;
        }
    }
    return t;
}

/* ------------------------------------------------------------ hooks */

bool spv_load_aggregate(xctx *x, xfn *f, const spv_inst *in)
{
    spv_module *m = x->m;
    const spv_type *t = spv_type_lookup(x, spv_word(m, in, 1));
    if (!spv_is_aggregate(t))
        return false;
    xval *p = spv_val(x, f, spv_word(m, in, 3));
    if (!p || !p->n)
        return true;
    isa_space sp;
    isa_operand a = spv_addr_of(x, &p->c[0], &sp);
    load_value(x, f, spv_word(m, in, 2), t, a, sp);
    return true;
}

bool spv_store_aggregate(xctx *x, xfn *f, const spv_inst *in)
{
    spv_module *m = x->m;
    uint32_t vid = spv_word(m, in, 2);
    if (!spv_is_aggregate(type_of(x, vid)))
        return false;
    xval *p = spv_val(x, f, spv_word(m, in, 1));
    if (!p || !p->n)
        return true;
    isa_space sp;
    isa_operand a = spv_addr_of(x, &p->c[0], &sp);
    store_value(x, f, vid, a, sp);
    return true;
}

bool spv_init_variable(xctx *x, xfn *f, const xc *var, uint32_t init)
{
    if (!spv_is_aggregate(type_of(x, init)))
        return false;
    isa_space sp;
    isa_operand a = spv_addr_of(x, var, &sp);
    store_value(x, f, init, a, sp);
    return true;
}

bool spv_composite_aggregate(xctx *x, xfn *f, const spv_inst *in)
{
    spv_module *m = x->m;
    uint32_t id = spv_word(m, in, 2);
    switch (in->op) {
    case SpvOpCompositeExtract: {
        uint32_t cid = spv_word(m, in, 3);
        const spv_type *ct = type_of(x, cid);
        if (!spv_is_aggregate(ct))
            return false;
        uint64_t off;
        const spv_type *mt = member_at(x, in, 4, ct, &off);
        isa_operand a;
        isa_space sp;
        if (!mt || !agg_addr(x, f, cid, ct, &a, &sp))
            return true;
        load_value(x, f, id, mt, at(a, off), sp);
        return true;
    }
    case SpvOpCompositeInsert: {
        uint32_t cid = spv_word(m, in, 4);
        const spv_type *ct = type_of(x, cid);
        if (!spv_is_aggregate(ct))
            return false;
        uint64_t off;
        const spv_type *mt = member_at(x, in, 5, ct, &off);
        isa_operand a, s = new_slot(x, ct);
        isa_space sp;
        if (!mt || !agg_addr(x, f, cid, ct, &a, &sp))
            return true;
        spv_copy_bytes(x, s, ISA_SPACE_PRIVATE, a, sp, ct->size, ct->align);
        store_value(x, f, spv_word(m, in, 3), at(s, off), ISA_SPACE_PRIVATE);
        set_slot(x, f, id, s);
        return true;
    }
    case SpvOpCompositeConstruct: {
        const spv_type *t = spv_type_lookup(x, spv_word(m, in, 1));
        if (!spv_is_aggregate(t))
            return false;
        isa_operand s = new_slot(x, t);
        for (unsigned i = 0; i + 3 < in->nw && !x->failed; i++) {
            uint64_t off = t->kind == SPV_TY_STRUCT
                               ? (i < t->nmembers ? m->member_off[t->first_member + i] : 0)
                               : i * m->types[t->elem].size;
            store_value(x, f, spv_word(m, in, 3 + i), at(s, off), ISA_SPACE_PRIVATE);
        }
        set_slot(x, f, id, s);
        return true;
    }
    default:
        return false;
    }
}

/* OpCopyMemory / OpCopyMemorySized (constant size only). */
bool spv_op_aggregate(xctx *x, xfn *f, const spv_inst *in)
{
    spv_module *m = x->m;
    if (in->op != SpvOpCopyMemory && in->op != SpvOpCopyMemorySized)
        return false;
    bool sized = in->op == SpvOpCopyMemorySized;
    uint32_t did = spv_word(m, in, 1), sid = spv_word(m, in, 2);
    xval *d = spv_val(x, f, did), *s = spv_val(x, f, sid);
    if (!d || !s || !d->n || !s->n)
        return true;
    const spv_type *pt = type_of(x, did);
    uint64_t size = 0, align = 1;
    if (pt && pt->kind == SPV_TY_PTR && pt->elem < m->bound) {
        size = m->types[pt->elem].size;
        align = m->types[pt->elem].align;
    }
    unsigned w = 3;
    if (sized) {
        xval *n = spv_val(x, f, spv_word(m, in, 3));
        if (!n || !n->n)
            return true;
        if (n->c[0].o.kind != ISA_OPND_IMM) {
            spv_error(x, "a copy of a run-time number of bytes is not supported");
            return true;
        }
        size = n->c[0].o.imm;
        align = 1;
        w = 4;
    }
    /* memory operands: Aligned carries the alignment of both pointers */
    if (in->nw > w && (spv_word(m, in, w) & SpvMemoryAccessAlignedMask) && in->nw > w + 1)
        align = spv_word(m, in, w + 1);
    if (!size) {
        if (!sized)
            spv_error(x, "the size of the copied type is unknown");
        return true;
    }
    isa_space ds, ss;
    isa_operand da = spv_addr_of(x, &d->c[0], &ds), sa = spv_addr_of(x, &s->c[0], &ss);
    if (ds == ISA_SPACE_CONSTANT || ds == ISA_SPACE_IMAGE) {
        spv_error(x, "a copy into %s memory is not allowed", isa_space_names[ds]);
        return true;
    }
    spv_copy_bytes(x, da, ds, sa, ss, size, align);
    return true;
}

/* ------------------------------------------------------------ unaligned */

/* The Aligned literal of the memory operands at word w, or 0. */
static uint32_t aligned_at(xctx *x, const spv_inst *in, unsigned w)
{
    if (in->nw <= w + 1 || !(spv_word(x->m, in, w) & SpvMemoryAccessAlignedMask))
        return 0;
    return spv_word(x->m, in, w + 1);
}

/* Piece size for an access of element size es aligned to al (< es). */
static unsigned piece_of(uint32_t al, unsigned es)
{
    unsigned p = 1;
    while (p * 2 <= al && p * 2 < es)
        p *= 2;
    return p;
}

/* A scalar/vector access of type t aligned to al below its element size:
 * element size *es, piece size *p and piece type *pt; false if not that case
 * (no Aligned operand, other types, or alignment enough for plain access). */
static bool split_access(const spv_type *t, uint32_t al, unsigned *es, unsigned *p,
                         isa_type *pt)
{
    if (!t || !al || (t->kind != SPV_TY_INT && t->kind != SPV_TY_FLOAT && t->kind != SPV_TY_VEC))
        return false;
    *es = isa_types[spv_comp_type(t)].bytes;
    if (al >= *es)
        return false;
    *p = piece_of(al, *es);
    *pt = chunk_type(*p);
    return true;
}

bool spv_load_unaligned(xctx *x, xfn *f, const spv_inst *in)
{
    spv_module *m = x->m;
    const spv_type *t = spv_type_lookup(x, spv_word(m, in, 1));
    unsigned es, p;
    isa_type pt;
    if (!split_access(t, aligned_at(x, in, 4), &es, &p, &pt))
        return false;
    xval *ptr = spv_val(x, f, spv_word(m, in, 3));
    if (!ptr || !ptr->n)
        return true;
    isa_space sp;
    isa_operand a = spv_addr_of(x, &ptr->c[0], &sp);
    uint32_t regs[XV_MAX];
    for (unsigned c = 0; c < t->ncomp && c < XV_MAX; c++) {
        uint32_t acc = 0;
        for (unsigned k = 0; k * p < es; k++) {
            uint32_t r = spv_reg(x, 1);
            isa_inst *ld = spv_emit(x, ISA_OP_LD, pt);
            ld->space = (uint8_t)sp;
            ld->o[0] = spv_R(r);
            ld->o[1] = at(a, (uint64_t)c * es + (uint64_t)k * p);
            ld->nopnd = 2;
            if (k == 0) {
                acc = r;
                continue;
            }
            uint32_t sh = spv_op2(x, ISA_OP_SHL, ISA_T_U64, spv_R(r), spv_I(k * p * 8));
            acc = spv_op2(x, ISA_OP_OR, ISA_T_U64, spv_R(acc), spv_R(sh));
        }
        regs[c] = acc;
    }
    xval *v = spv_def(x, f, spv_word(m, in, 2), t->ncomp);
    for (unsigned c = 0; v && c < t->ncomp && c < XV_MAX; c++) {
        v->c[c].o = spv_R(regs[c]);
        v->c[c].space = X_SPACE_NONE;
    }
    return true;
}

bool spv_store_unaligned(xctx *x, xfn *f, const spv_inst *in)
{
    spv_module *m = x->m;
    uint32_t vid = spv_word(m, in, 2);
    const spv_type *t = type_of(x, vid);
    unsigned es, p;
    isa_type pt;
    if (!split_access(t, aligned_at(x, in, 3), &es, &p, &pt))
        return false;
    xval *ptr = spv_val(x, f, spv_word(m, in, 1)), *v = spv_val(x, f, vid);
    if (!ptr || !v || !ptr->n || !v->n)
        return true;
    isa_space sp;
    isa_operand a = spv_addr_of(x, &ptr->c[0], &sp);
    for (unsigned c = 0; c < t->ncomp && c < v->n; c++) {
        isa_operand s = spv_src(x, &v->c[c]);
        for (unsigned k = 0; k * p < es; k++) {
            isa_operand piece = k ? spv_R(spv_op2(x, ISA_OP_SHR, ISA_T_U64, s, spv_I(k * p * 8))) : s;
            isa_inst *st = spv_emit(x, ISA_OP_ST, pt);
            st->space = (uint8_t)sp;
            st->o[0] = at(a, (uint64_t)c * es + (uint64_t)k * p);
            st->o[1] = piece;
            st->nopnd = 2;
        }
    }
    return true;
}

/* ------------------------------------------------- by-value parameters */

/* Whether parameter `id` carries OpDecorate FuncParamAttr `attr`. */
static bool param_attr(xctx *x, uint32_t id, uint32_t attr)
{
    spv_module *m = x->m;
    for (uint32_t i = 0; i < m->nins; i++) {
        const spv_inst *in = &m->ins[i];
        if (in->op == SpvOpFunction)
            break;
        if (in->op == SpvOpDecorate && in->nw >= 4 && m->w[in->off + 1] == id &&
            m->w[in->off + 2] == SpvDecorationFuncParamAttr && m->w[in->off + 3] == attr)
            return true;
    }
    return false;
}

/* A by-value vector (the parameter's type itself) or struct (clang passes
 * it as a ByVal pointer to Function storage) becomes a `constant` argument
 * holding its bytes in the host layout.  A vector is loaded once at entry
 * into registers; a struct is read in place, or copied to private memory
 * first when the kernel may write its copy (no NoWrite attribute). */
bool spv_byval_param(xctx *x, const spv_inst *in, const spv_type *t, isa_arg *a, xval *v)
{
    spv_module *m = x->m;
    uint32_t id = spv_word(m, in, 2);
    const spv_type *st = NULL;
    if (t->kind == SPV_TY_PTR && t->sc == SpvStorageClassFunction &&
        param_attr(x, id, SpvFunctionParameterAttributeByVal)) {
        if (!(st = spv_type_lookup(x, t->elem)))
            return true;
    } else if (t->kind != SPV_TY_VEC) {
        return false;
    }
    const spv_type *bt = st ? st : t;
    if (!bt->size || bt->size > AGG_MAX_BYTES) {
        spv_error(x, "parameter %u ('%s'): a by-value argument of %llu bytes is not supported",
                (unsigned)(a - x->k->args), a->name, (unsigned long long)bt->size);
        return true;
    }
    a->kind = ISA_ARG_CONSTANT;
    a->byval = (uint32_t)bt->size;
    xc arg = v->c[0];
    arg.space = ISA_SPACE_CONSTANT;
    isa_space sp;
    isa_operand src = spv_addr_of(x, &arg, &sp);
    if (!st) {
        const spv_type *et = spv_type_lookup(x, t->elem);
        if (!et)
            return true;
        if (et->kind == SPV_TY_BOOL) {
            spv_error(x, "parameter %u ('%s'): bool vectors cannot be kernel arguments",
                    (unsigned)(a - x->k->args), a->name);
            return true;
        }
        a->type = (uint8_t)spv_comp_type(t);
        a->byval_vec = t->ncomp;
        snprintf(a->cl_type, sizeof a->cl_type, "%s%u", isa_types[a->type].cl_name, t->ncomp);
        xval r;
        memset(&r, 0, sizeof r);
        if (spv_alloc_regs(x, &r, t))
            spv_load_value(x, &r, t, src, ISA_SPACE_CONSTANT);
        *v = r;
        return true;
    }
    a->type = ISA_T_U8;
    /* OpName "struct.S" -> "struct S"; kernel_arg_type may rename it later */
    const char *nm = t->elem < m->bound ? m->name[t->elem] : NULL;
    snprintf(a->cl_type, sizeof a->cl_type, "%s", nm && *nm ? nm : "struct");
    char *dot = strchr(a->cl_type, '.');
    if (dot)
        *dot = ' ';
    if (param_attr(x, id, SpvFunctionParameterAttributeNoWrite)) {
        v->c[0] = arg;
        return true;
    }
    uint64_t al = st->align ? st->align : 1;
    uint64_t off = (x->k->private_mem + al - 1) / al * al;
    if (off + st->size > (1u << 20)) {
        spv_error(x, "private variables exceed 1 MiB per work-item");
        return true;
    }
    x->k->private_mem = (uint32_t)(off + st->size);
    xc slot;
    memset(&slot, 0, sizeof slot);
    slot.o = spv_I(off);
    slot.space = ISA_SPACE_PRIVATE;
    isa_operand d = spv_addr_of(x, &slot, &sp);
    spv_copy_bytes(x, d, ISA_SPACE_PRIVATE, src, ISA_SPACE_CONSTANT, st->size, al);
    v->c[0] = slot;
    return true;
}
