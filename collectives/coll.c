/* coll.c - entry point of collectives/: options, names, dispatch by family
 * and the helpers every family shares. */
#include "block_io.h"
#include "coll_private.h"

#include <stdlib.h>
#include <string.h>

const char *const coll_uop_names[COLL_UOP_COUNT] = {
#define COLL_UOP(E, name, pipe, start) [COLL_UOP_##E] = name,
#include "uops.def"
#undef COLL_UOP
};

const char *const coll_status_text[COLL_STATUS_COUNT] = {
#define X(E, msg) [COLL_##E] = msg,
    COLL_STATUSES(X)
#undef X
};

/* The index of `def` in the NULL-terminated names (0 if absent: the
 * config tests check every default names a value). */
static unsigned name_index(const char *const *names, const char *def)
{
    for (unsigned i = 0; names[i]; i++)
        if (!strcmp(names[i], def))
            return i;
    return 0;
}

void coll_options_default(coll_options *o)
{
    memset(o, 0, sizeof *o);
#define COLL_NAME(E, s) s,
#define COLL_DEFAULT_ENUM(names, def) name_index(names, def)
#define COLL_DEFAULT_U32(names, def) ((void)(names), (unsigned)strtoul(def, NULL, 10))
#define COLL_KEY(key, kind, field, min, max, def, names, unit, doc)           \
    {                                                                          \
        static const char *const n_[] = { names(COLL_NAME) NULL };             \
        o->field = COLL_DEFAULT_##kind(n_, def);                               \
    }
#include "coll_keys.def"
#undef COLL_KEY
#undef COLL_DEFAULT_U32
#undef COLL_DEFAULT_ENUM
#undef COLL_NAME
}

static const coll_family_fn family_fns[ISA_FAM_COUNT] = {
#define X(F, file) [ISA_FAM_##F] = coll_do_##file,
    COLL_FAMILY_TABLE(X)
#undef X
};

coll_status coll_fail(coll_report *rep, coll_status s, uint32_t sg,
                      uint32_t lane, int64_t value)
{
    if (rep) {
        rep->status = s;
        rep->sg = sg;
        rep->lane = lane;
        rep->value = value;
        rep->fatal = true;
    }
    return s;
}

bool coll_notes_on(const coll_env *env)
{
    return env->opt && (env->opt->check || env->opt->undef) && env->note;
}

void coll_note(const coll_env *env, coll_status s, uint32_t sg, uint32_t lane,
               int64_t value)
{
    if (!coll_notes_on(env))
        return;
    coll_report r = { s, sg, lane, value, false };
    env->note(env->note_user, &r);
}

coll_status coll_check_converged(const coll_group *g, coll_report *rep)
{
    for (uint32_t j = 0; j < g->nsg; j++) {
        lanes_mask missing = g->sg[j]->exists & ~g->active[j];
        if (missing)
            return coll_fail(rep, COLL_DIVERGENT, j,
                             (uint32_t)__builtin_ctzll(missing), 0);
    }
    return COLL_OK;
}

void coll_write(lanes_sg *sg, uint32_t reg, lanes_mask active, const uint64_t *v)
{
    uint64_t *r = lanes_reg(sg, reg);
    lanes_mask all = lanes_mask_first(sg->width);
    if ((active & all) == all) {
        memcpy(r, v, sg->width * sizeof *r);
        return;
    }
    for (lanes_mask left = active & all; left; left &= left - 1) {
        uint32_t l = (uint32_t)__builtin_ctzll(left);
        r[l] = v[l];
    }
}

/* Check mode: every component of the sources o[1..4], captured before
 * the micro-ops run, since the destination may be one of the sources. */
static coll_status run_checked(const coll_env *env, const isa_inst *in,
                               coll_group *g, coll_report *rep, coll_family_fn fn)
{
    uint32_t n = g->nsg, w = g->sg[0]->width, nc = in->vec ? in->vec : 1u;
    uint64_t *buf = calloc((size_t)n * 4 * nc * w, sizeof *buf);
    uint32_t *size = calloc(n, sizeof *size);
    if (!buf || !size) {
        free(buf);
        free(size);
        return coll_fail(rep, COLL_NO_MEMORY, 0, 0, 0);
    }
    coll_ref_in r = { n, w, nc, g->active, size, buf };
    uint64_t scratch[LANES_MAX];
    for (uint32_t j = 0; j < n; j++) {
        size[j] = g->sg[j]->size;
        for (uint32_t k = 0; k < 4 && k + 1 < in->nopnd; k++) {
            uint32_t dc = coll_ref_data_comps(in, k);
            isa_type t = dc ? (isa_type)in->type : ISA_T_U32;
            for (uint32_t c = 0; c < (dc ? dc : 1u); c++) {
                const uint64_t *s = lanes_src(env->lanes, g->sg[j], &in->o[k + 1], c,
                                              t, scratch);
                memcpy((uint64_t *)coll_ref_src(&r, j, k, c), s, w * sizeof *s);
            }
        }
    }
    coll_status st = fn(env, in, g, rep);
    if (st == COLL_OK)
        st = coll_ref_check(env, in, &r, g, rep);
    free(buf);
    free(size);
    return st;
}

coll_status coll_execute(const coll_env *env, const isa_inst *in,
                         coll_group *g, coll_report *report)
{
    if (report)
        memset(report, 0, sizeof *report);
    if (in->op >= ISA_OP_COUNT || !g || g->nsg == 0)
        return coll_fail(report, COLL_UNSUPPORTED, 0, 0, in->op);
    const isa_op_info *oi = &isa_ops[in->op];
    if (isa_op_block_io(in->op))     /* block I/O: block_io.c */
        return coll_block_io(env, in, g, report);
    coll_family_fn fn = family_fns[oi->family];
    if (oi->scope == ISA_SCOPE_WG && oi->family != ISA_FAM_BCAST)
        fn = coll_do_wg;
    if (!fn)
        return coll_fail(report, COLL_UNSUPPORTED, 0, 0, in->op);
    if (in->type != ISA_T_NONE && in->type >= ISA_T_COUNT)
        return coll_fail(report, COLL_UNSUPPORTED, 0, 0, in->type);
    if (env->opt && env->opt->check)
        return run_checked(env, in, g, report, fn);
    return fn(env, in, g, report);
}
