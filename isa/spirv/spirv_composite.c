/* spirv_composite.c - vector values: OpCompositeConstruct/Extract/Insert,
 * OpVectorExtractDynamic/InsertDynamic, OpVectorShuffle, OpCopyObject
 * (structs and arrays as values are spirv_aggregate.c's). */
#include "spirv_private.h"

/* get_global_size(d) and its kin arrive as an extract from the loaded
 * built-in 3-vector (llvm-spirv-14).  OpenCL C gives 1 (sizes, counts) or
 * 0 (ids, offsets) for d outside 0..2, where SPIR-V's extract is
 * undefined: an index outside reads that value.  False when vector id is
 * no such load. */
static bool builtin_outside(xctx *x, uint32_t id, isa_operand *out)
{
    spv_module *m = x->m;
    const spv_inst *d = id < m->bound && m->def[id] ? &m->ins[m->def[id] - 1] : NULL;
    if (!d || d->op != SpvOpLoad || d->nw < 4)
        return false;
    uint32_t var = spv_word(m, d, 3);
    if (!var || var >= m->bound || !m->builtin[var])
        return false;
    switch (spv_builtin_special(m->builtin[var] - 1)) {
    case ISA_SP_GLOBAL_SIZE: case ISA_SP_LOCAL_SIZE: case ISA_SP_ENQUEUED_LOCAL_SIZE:
    case ISA_SP_NUM_GROUPS:
        *out = spv_I(1);
        return true;
    case ISA_SP_GLOBAL_ID: case ISA_SP_LOCAL_ID: case ISA_SP_GROUP_ID: case ISA_SP_GLOBAL_OFFSET:
        *out = spv_I(0);
        return true;
    default:
        return false;
    }
}

bool spv_op_composite(xctx *x, xfn *f, const spv_inst *in)
{
    spv_module *m = x->m;
    uint32_t rt = spv_word(m, in, 1), id = spv_word(m, in, 2);
    if (spv_composite_aggregate(x, f, in))
        return true;
    switch (in->op) {
    case SpvOpCompositeExtract: {
        xval *s = spv_val(x, f, spv_word(m, in, 3));
        uint32_t idx = spv_word(m, in, 4);
        if (!s)
            return true;
        isa_operand outside;
        if (in->nw == 5 && idx >= s->n && builtin_outside(x, spv_word(m, in, 3), &outside)) {
            xval *v = spv_def(x, f, id, 1);
            if (v) {
                memset(&v->c[0], 0, sizeof v->c[0]);
                v->c[0].o = outside;
                v->c[0].space = X_SPACE_NONE;
            }
            return true;
        }
        if (in->nw != 5 || idx >= s->n) {
            spv_error(x, "only single-index extracts from vectors are supported");
            return true;
        }
        xc c = s->c[idx];
        xval *v = spv_def(x, f, id, 1);
        if (v)
            v->c[0] = c;
        return true;
    }
    case SpvOpCompositeInsert: {
        xval *o = spv_val(x, f, spv_word(m, in, 3)), *s = spv_val(x, f, spv_word(m, in, 4));
        uint32_t idx = spv_word(m, in, 5);
        if (!o || !s)
            return true;
        if (in->nw != 6 || idx >= s->n || !o->n) {
            spv_error(x, "only single-index inserts into vectors are supported");
            return true;
        }
        xval tmp = *s;
        tmp.c[idx] = o->c[0];
        xval *v = spv_def(x, f, id, tmp.n);
        if (v)
            *v = tmp;
        return true;
    }
    case SpvOpCompositeConstruct: {
        xval tmp;
        memset(&tmp, 0, sizeof tmp);
        for (unsigned w = 3; w < in->nw; w++) {
            xval *s = spv_val(x, f, m->w[in->off + w]);
            if (!s)
                return true;
            if (!s->n)
                spv_error(x, "only vectors can be constructed");
            for (unsigned i = 0; i < s->n && tmp.n < XV_MAX; i++)
                tmp.c[tmp.n++] = s->c[i];
        }
        xval *v = spv_def(x, f, id, tmp.n);
        if (v)
            *v = tmp;
        return true;
    }
    case SpvOpVectorShuffle: {
        xval *a = spv_val(x, f, spv_word(m, in, 3)), *b = spv_val(x, f, spv_word(m, in, 4));
        if (!a || !b)
            return true;
        xval tmp;
        memset(&tmp, 0, sizeof tmp);
        for (unsigned w = 5; w < in->nw && tmp.n < XV_MAX; w++) {
            uint32_t s = m->w[in->off + w];
            xc c;
            memset(&c, 0, sizeof c);
            c.o = spv_I(0);
            if (s < a->n)
                c = a->c[s];
            else if (s != 0xffffffffu && s - a->n < b->n)
                c = b->c[s - a->n];
            else if (s != 0xffffffffu)
                spv_error(x, "shuffle component %u out of range", s);
            tmp.c[tmp.n++] = c;
        }
        xval *v = spv_def(x, f, id, tmp.n);
        if (v)
            *v = tmp;
        return true;
    }
    case SpvOpVectorExtractDynamic:
    case SpvOpVectorInsertDynamic: {
        bool ins = in->op == SpvOpVectorInsertDynamic;
        xval *s = spv_val(x, f, spv_word(m, in, 3));
        xval *o = ins ? spv_val(x, f, spv_word(m, in, 4)) : NULL;
        xval *iv = spv_val(x, f, spv_word(m, in, ins ? 5 : 4));
        const spv_type *t = spv_type_lookup(x, rt);
        if (!s || !iv || (ins && !o) || !t || !iv->n)
            return true;
        isa_type ct = spv_comp_type(t);
        isa_operand idx = spv_src(x, &iv->c[0]);
        xval tmp = *s;
        uint32_t r = spv_reg(x, ins ? s->n : 1);
        if (!ins) {
            isa_operand src = spv_src(x, &s->c[0]);
            builtin_outside(x, spv_word(m, in, 3), &src);   /* the value for an index outside */
            isa_inst *mv = spv_emit(x, ISA_OP_MOV, ct);
            mv->o[0] = spv_R(r);
            mv->o[1] = src;
            mv->nopnd = 2;
        }
        for (unsigned i = 0; i < s->n; i++) {
            uint32_t gen, p = spv_pred(x, &gen);
            isa_inst *c = spv_emit(x, ISA_OP_CMP, ISA_T_U64);
            c->cond = ISA_BINOP_EQ;
            c->o[0] = spv_P(p, false);
            c->o[1] = idx;
            c->o[2] = spv_I(i);
            c->nopnd = 3;
            isa_operand cur = ins ? spv_src(x, &s->c[i]) : spv_R(r);
            isa_inst *sl = spv_emit(x, ISA_OP_SEL, ct);
            sl->o[0] = spv_R(ins ? r + i : r);
            sl->o[1] = spv_P(p, false);
            sl->o[2] = ins ? spv_src(x, &o->c[0]) : spv_src(x, &s->c[i]);
            sl->o[3] = cur;
            sl->nopnd = 4;
            if (ins) {
                memset(&tmp.c[i], 0, sizeof tmp.c[i]);
                tmp.c[i].o = spv_R(r + i);
                tmp.c[i].space = X_SPACE_NONE;
            }
        }
        xval *v = spv_def(x, f, id, ins ? s->n : 1);
        if (!v)
            return true;
        if (ins)
            *v = tmp;
        else
            v->c[0].o = spv_R(r);
        return true;
    }
    case SpvOpCopyObject: {
        xval *s = spv_val(x, f, spv_word(m, in, 3));
        xval *v = s ? spv_def(x, f, id, s->n) : NULL;
        if (v)
            *v = *s;
        return true;
    }
    default:
        return false;
    }
}
