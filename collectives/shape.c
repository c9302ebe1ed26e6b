/* shape.c - scans and reductions whose result does not depend on the
 * order of evaluation, by shape.  Their micro-ops (kind, lanes, masks) are
 * a function of the width, the enabled lanes, the instruction and the
 * run's algorithms, not of the values: the algorithm itself records them
 * once per shape, on zeros, and each later instruction of that shape
 * replays the records and takes its values from one fold in lane order,
 * which wrapping integer operators make equal to the algorithm's tree. */
#include "coll_private.h"

#include <string.h>

bool coll_fold_ok(const coll_env *env, isa_type t, isa_binop op)
{
    /* fault injection corrupts one micro-op's values: it needs them all */
    if (!env->shapes || coll_fault_hook || t >= ISA_T_COUNT || isa_types[t].is_float)
        return false;
    switch (op) {
    case ISA_BINOP_ADD:
    case ISA_BINOP_MUL:
    case ISA_BINOP_AND:
    case ISA_BINOP_OR:
    case ISA_BINOP_XOR:
    case ISA_BINOP_MIN:
    case ISA_BINOP_MAX:
        return true;
    default:
        return false;
    }
}

void coll_fold_scan(isa_binop op, isa_type t, const uint64_t *v, uint32_t w,
                    lanes_mask en, bool exclusive, uint64_t *out)
{
    /* the algorithms' operand: the pad (the identity, for these operators)
     * where a lane is not enabled, an exclusive scan's lanes shifted up one */
    const uint64_t pad = coll_pad_value(op, t);
    const uint32_t sh = exclusive && w ? 1u : 0u;
    if (sh)
        out[0] = pad;
    if ((en & lanes_mask_first(w - sh)) == lanes_mask_first(w - sh))
        memcpy(out + sh, v, (w - sh) * sizeof *out);
    else
        for (uint32_t i = sh; i < w; i++)
            out[i] = en >> (i - sh) & 1 ? v[i - sh] : pad;
    lanes_scan_row(op, t, out, w);
}

uint64_t coll_fold(isa_binop op, isa_type t, const uint64_t *v, uint32_t w,
                   lanes_mask en)
{
    if ((en & lanes_mask_first(w)) == lanes_mask_first(w))
        return lanes_fold_row(op, t, v, w);
    const uint64_t pad = coll_pad_value(op, t);
    uint64_t p[LANES_MAX];
    for (uint32_t i = 0; i < w; i++)
        p[i] = en >> i & 1 ? v[i] : pad;
    return lanes_fold_row(op, t, p, w);
}

const coll_shape *coll_shape_find(const coll_env *env, uint32_t op, uint32_t t,
                                  uint32_t w, lanes_mask en, bool *known)
{
    const coll_shapes *s = env->shapes;
    for (uint32_t i = 0; i < COLL_SHAPES; i++) {
        const coll_shape *e = &s->e[i];
        if (e->n && e->en == en && e->op == op && e->type == t && e->width == w) {
            *known = true;
            return e->n <= COLL_SHAPE_UOPS ? e : NULL;
        }
    }
    *known = false;
    return NULL;
}

/* keep a record, then pass it on */
static void tee(void *user, const coll_uop *u)
{
    coll_shape_tee *c = user;
    if (c->n < COLL_SHAPE_UOPS)
        c->e->u[c->n] = *u;
    c->n++;
    if (c->next && c->next->emit)
        c->next->emit(c->next->user, u);
}

const coll_env *coll_shape_tee_begin(coll_shape_tee *c, const coll_env *env, uint32_t op,
                                     uint32_t t, uint32_t w, lanes_mask en)
{
    coll_shapes *s = env->shapes;
    coll_shape *e = &s->e[s->next];
    s->next = (s->next + 1) % COLL_SHAPES;
    memset(e, 0, sizeof *e);
    e->en = en;
    e->op = op;
    e->type = t;
    e->width = w;
    c->e = e;
    c->n = 0;
    c->next = env->sink;
    c->sink = (coll_sink){ c, tee, NULL };
    c->env = *env;
    c->env.sink = &c->sink;
    return &c->env;
}

void coll_shape_tee_end(coll_shape_tee *c)
{
    /* none: nothing to replay (a failed instruction), so never replayed */
    c->e->n = c->n ? c->n : COLL_SHAPE_UOPS + 1;
}

const coll_shape *coll_shape_get(const coll_env *env, uint32_t op, isa_type t,
                                 uint32_t w, lanes_mask en, coll_shape_gen gen,
                                 const void *arg)
{
    bool known;
    const coll_shape *e = coll_shape_find(env, op, t, w, en, &known);
    if (known)
        return e;
    /* a first run on zeros, its records kept only */
    coll_shape_tee c;
    coll_env quiet = *env;
    quiet.sink = NULL;
    quiet.note = NULL;
    coll_x x = { coll_shape_tee_begin(&c, &quiet, op, t, w, en), t, 0 };
    uint64_t v[LANES_MAX] = { 0 }, out[COLL_TMP_LANES];
    gen(&x, v, w, en, out, arg);
    coll_shape_tee_end(&c);
    return c.e->n <= COLL_SHAPE_UOPS ? c.e : NULL;
}

void coll_shape_emit(const coll_env *env, const coll_shape *e)
{
    const coll_sink *s = env->sink;
    if (!s || !s->emit)
        return;
    if (s->emit_n) {
        s->emit_n(s->user, e->u, e->n);
        return;
    }
    for (uint32_t i = 0; i < e->n; i++)
        s->emit(s->user, &e->u[i]);
}
