/*
 * coll_private.h - the micro-op executor shared by the collective families.
 *
 * A collective is lowered into micro-ops that run on lane vectors: the
 * subgroup's registers or temporaries of up to 2 x LANES_MAX slots (the
 * second half holds the `next`/`current` half of a joined two-source
 * shuffle).  Every coll_u_* call both computes on real data and emits one
 * coll_uop record, so the values a kernel sees and the operations the
 * timing model charges cannot drift apart.
 */
#ifndef SGEMU_COLL_PRIVATE_H
#define SGEMU_COLL_PRIVATE_H

#include "coll.h"

#define COLL_TMP_LANES (2 * LANES_MAX)

/* An Intel-style register region <vstride; width, hstride> starting at
 * `first`: element i lives at first + (i / width) * vstride
 * + (i % width) * hstride. */
typedef struct coll_rgn {
    uint16_t first, vstride, width, hstride;
} coll_rgn;

static inline coll_rgn coll_rgn_stride(uint32_t first, uint32_t stride)
{
    return (coll_rgn){ (uint16_t)first, (uint16_t)stride, 1, 0 };
}

static inline coll_rgn coll_rgn_scalar(uint32_t lane)
{
    return (coll_rgn){ (uint16_t)lane, 0, 1, 0 };
}

/* Algorithm indices of coll_options (rows of the tables in coll.h). */
#define COLL_ALGO_ENUM(E, name) COLL_RED_##E,
enum { COLL_REDUCE_ALGOS(COLL_ALGO_ENUM) };
#undef COLL_ALGO_ENUM
#define COLL_ALGO_ENUM(E, name) COLL_SCAN_##E,
enum { COLL_SCAN_ALGOS(COLL_ALGO_ENUM) };
#undef COLL_ALGO_ENUM
#define COLL_ALGO_ENUM(E, name) COLL_SHUF_##E,
enum { COLL_SHUFFLE_ALGOS(COLL_ALGO_ENUM) };
#undef COLL_ALGO_ENUM

#define COLL_ALGO_ENUM(E, name) COLL_LOWER_##E,
typedef enum coll_lower { COLL_LOWERINGS(COLL_ALGO_ENUM) COLL_LOWER_COUNT } coll_lower;
#undef COLL_ALGO_ENUM

/* The steps of lowering.def (what each is: there). */
typedef enum coll_step_kind {
    COLL_STEP_PREP, COLL_STEP_SHIFT, COLL_STEP_SCAN_INT, COLL_STEP_SCAN_MINMAX,
    COLL_STEP_SCAN_FLOAT, COLL_STEP_REDUCE_INT, COLL_STEP_REDUCE_MINMAX,
    COLL_STEP_REDUCE_FLOAT, COLL_STEP_REDUCE_OUT, COLL_STEP_CLUSTER_OUT, COLL_STEP_EXC_FIX,
    COLL_STEP_BCAST, COLL_STEP_HW, COLL_STEP_VOTE, COLL_STEP_COUNT
} coll_step_kind;

/* Warp shuffle modes (SHFL.UP, .BFLY, .IDX) with an immediate operand. */
typedef enum coll_shfl { COLL_SHFL_UP, COLL_SHFL_XOR, COLL_SHFL_IDX } coll_shfl;

/* The issuing context of a run of micro-ops. */
typedef struct coll_x {
    const coll_env *env;
    isa_type type;             /* element type of data micro-ops */
    uint16_t sg;               /* issuing subgroup index in the group */
} coll_x;

/* Index arithmetic for shuffles (u32, wrapping). */
typedef enum coll_ix {
    COLL_IX_COPY, COLL_IX_ADD, COLL_IX_SUB, COLL_IX_XOR, COLL_IX_AND, COLL_IX_REM,
    COLL_IX_ADDS       /* a + b with b a signed 32-bit value (rotate's int delta) */
} coll_ix;

/* Per-lane ballot micro-op forms (see uop.c). */
typedef enum coll_bform {
    COLL_B_BIT,        /* bit idx[l] of the 128-bit value of lane l */
    COLL_B_COUNT_LE,   /* popcount of bits 0..l (bits < limit) */
    COLL_B_COUNT_LT,   /* popcount of bits 0..l-1 */
    COLL_B_COUNT,      /* popcount of bits < limit */
    COLL_B_LSB,        /* lowest set bit < limit, ~0 if none */
    COLL_B_MSB         /* highest set bit < limit, ~0 if none */
} coll_bform;

/* ---- micro-ops (uop.c) ---- */

/* ALU: d[rd(i)] = op(a[ra(i)], b[rb(i)]) for i < n; sources are read
 * before any destination is written, as one SIMD instruction does. */
void coll_u_alu(coll_x *x, isa_binop op, uint64_t *d, coll_rgn rd,
                const uint64_t *a, coll_rgn ra, const uint64_t *b, coll_rgn rb,
                uint32_t n);
/* The same micro-op as coll_u_alu(x, op, t, rows, t, ra, t, rows, n) for
 * a region `rows` of disjoint runs of consecutive slots (hstride 1,
 * vstride >= width) and ra of one slot per run (hstride 0, the same
 * width): a blocked scan's step, each run one row operation in place. */
void coll_u_alu_rows(coll_x *x, isa_binop op, uint64_t *t, coll_rgn rows, coll_rgn ra,
                     uint32_t n);
/* Compare: d[i] = (a[i] cond b[i]) ? 1 : 0 for i < n where en has bit i
 * (floats compare as numbers), 0 elsewhere; emitted as an ALU micro-op. */
void coll_u_cmp(coll_x *x, isa_binop cond, uint64_t *d, const uint64_t *a,
                const uint64_t *b, uint32_t n, lanes_mask en);
/* MOV: d[rd(i)] = s[rs(i)] for i < n where en has bit i (all if en = ~0). */
void coll_u_mov(coll_x *x, uint64_t *d, coll_rgn rd, const uint64_t *s,
                coll_rgn rs, uint32_t n, lanes_mask en);
/* MOV of an immediate: d[rd(i)] = v for i < n. */
void coll_u_fill(coll_x *x, uint64_t *d, coll_rgn rd, uint64_t v, uint32_t n);
/* BCAST: d[i] = s[lane] for i < n. */
void coll_u_bcast(coll_x *x, uint64_t *d, const uint64_t *s, uint32_t lane,
                  uint32_t n);
/* MOV_INDIRECT: for lanes l in [first, first+n) with en: 32-bit half
 * `part` (0 low, 1 high; part < 0: the whole element) of d[l] =
 * s[idx[l]], or 0 when idx[l] >= slen or slot idx[l] is not in `sexist`
 * (bit j of word j/64). */
void coll_u_mov_indirect(coll_x *x, uint64_t *d, const uint64_t *s,
                         uint32_t slen, const uint64_t *sexist,
                         const uint64_t *idx, uint32_t first, uint32_t n,
                         lanes_mask en, int part);
/* Index ALU: d[i] = a[i] op b[i] for i < n on u32 inputs computed
 * without wrapping: a sum is exact, a negative difference becomes ~0
 * (out of range for every source).  ADDS adds a signed 32-bit b into a
 * signed 64-bit result; REM is the non-negative (Euclidean) remainder of
 * a signed 64-bit a, so a negative rotate delta counts backwards. */
void coll_u_index(coll_x *x, coll_ix op, uint64_t *d, const uint64_t *a,
                  const uint64_t *b, uint32_t n);
/* HW_REDUCE: d[0..n) = fold of s[l] over lanes l < n in en, lane order. */
void coll_u_hw_reduce(coll_x *x, isa_binop op, uint64_t *d, const uint64_t *s,
                      uint32_t n, lanes_mask en);
/* BALLOT (lanes to mask): words[0..3] = bits of lanes l < n in en whose
 * s[l] != 0; then d[c][l] = words[c] for c < ncomp, all l < n. */
void coll_u_ballot(coll_x *x, uint64_t *const *d, uint32_t ncomp,
                   const uint64_t *s, uint32_t n, lanes_mask en);
/* BALLOT (mask to lanes): d[l] = form(v[0..3][l], idx[l], l) for l < n in en. */
void coll_u_ballot_bits(coll_x *x, coll_bform form, uint64_t *d,
                        const uint64_t *const *v, const uint64_t *idx,
                        uint32_t limit, uint32_t n, lanes_mask en);
/* BALLOT (lane masks): d[c][l] = word c of the mask of bit indices b
 * with (b cond l) and b < limit, for l < n in en (cond EQ/GE/GT/LE/LT). */
void coll_u_lane_mask(coll_x *x, isa_binop cond, uint64_t *const *d,
                      uint32_t ncomp, uint32_t limit, uint32_t n, lanes_mask en);
/* SLM_STORE of element s[lane] at byte `addr` of the exchange area. */
coll_status coll_u_slm_store(coll_x *x, uint32_t addr, const uint64_t *s,
                             uint32_t lane);
/* SLM_LOAD of n elements at `addr` into d[0..n). */
coll_status coll_u_slm_load(coll_x *x, uint64_t *d, uint32_t addr, uint32_t n);
void coll_u_barrier(coll_x *x);

/* SHFL: d[i] = s[j] for i < n, j = i - k (i itself when i < k) for UP,
 * i ^ k for XOR, k for IDX (each < n); 32-bit half `part` of each element
 * (0 low, 1 high; part < 0: the whole element).  A MOV_INDIRECT record. */
void coll_u_shfl(coll_x *x, coll_shfl mode, uint32_t k, uint64_t *d, const uint64_t *s,
                 uint32_t n, int part);
/* SEL: d[i] = keep has bit i ? s[i] : v for i < n.  A PRED record. */
void coll_u_select(coll_x *x, uint64_t *d, const uint64_t *s, uint64_t v,
                   lanes_mask keep, uint32_t n);
/* Compare: d[i] = (a[i] cond b[i]) for i < n in en (cond LT or GT; floats
 * as numbers), 0 elsewhere.  A PRED record. */
void coll_u_compare(coll_x *x, isa_binop cond, uint64_t *d, const uint64_t *a,
                    const uint64_t *b, uint32_t n, lanes_mask en);
/* t[i] = t[i] op u[i] where first_own has bit i, else u[i] op t[i], for
 * i < n in en; the others keep t[i].  A record of `kind` (ALU or PRED). */
void coll_u_combine(coll_x *x, coll_uop_kind kind, isa_binop op, uint64_t *t,
                    const uint64_t *u, lanes_mask en, lanes_mask first_own, uint32_t n);

/* ---- plans (plan.c, lowering.def) ---- */

/* What one step of a collective works on.  t: the temporary of n lanes
 * (P); v: the w source values, en the active lanes; u, p: temporaries for
 * the shuffled values and compares; out: a reduction's or broadcast's
 * result.  Region forms: the ALU's regions rd, ra, rb over alu_n elements
 * (rows: coll_u_alu_rows), the copy's shift.  Shuffle forms: mode and
 * distance dist (IDX: the lane; SPREAD: the cluster size), first_own the
 * lanes whose own value is the operator's first operand, shifting: the
 * step is an exclusive scan's shift (KEEP writes t).  lane: BCAST's lane,
 * EXC_FIX's first active lane. */
typedef struct coll_step {
    isa_binop op;
    uint64_t *t, *u, *p, *out;
    const uint64_t *v;
    lanes_mask en, first_own;
    uint32_t w, n, shift, lane;
    coll_rgn rd, ra, rb;
    uint32_t alu_n;
    bool rows, shifting;
    bool tested;               /* v is a compare's 0/1 already: no TEST */
    coll_shfl mode;
    uint32_t dist;
} coll_step;

/* The lowering x's config names. */
coll_lower coll_lowering(const coll_x *x);
/* The scan or reduce step row of operator op on type t. */
coll_step_kind coll_step_of(bool scan, isa_binop op, isa_type t);
/* Whether lowering l's row for step s has any micro-op. */
bool coll_plan_has(coll_lower l, coll_step_kind s);
/* Run step s of x's lowering on c (lowering.def's row, in order). */
void coll_plan_step(coll_x *x, coll_step_kind s, coll_step *c);

/* ---- shared building blocks ---- */

static inline uint32_t coll_pow2_ceil(uint32_t n)
{
    uint32_t p = 1;
    while (p < n)
        p <<= 1;
    return p;
}

/* The lanes i < n (at most 64) with i & s set. */
static inline lanes_mask lanes_mask_of_bit(uint32_t n, uint32_t s)
{
    lanes_mask m = 0;
    for (uint32_t i = 0; i < n && i < 64; i++)
        if (i & s)
            m |= (lanes_mask)1 << i;
    return m;
}

static inline uint32_t coll_log2(uint32_t p)
{
    uint32_t k = 0;
    while ((1u << k) < p)
        k++;
    return k;
}

/* The value that fills inactive, missing and padding lanes: the
 * operator's identity, except NaN for float min/max (fmin(NaN, x) = x for
 * every x, so a fold over only NaN values stays NaN, as the spec's
 * definition without padding gives; +-INF would replace it) and -0.0 for
 * float add (-0 + x = x for every x, -0 itself included; +0 + -0 is +0). */
uint64_t coll_pad_value(isa_binop op, isa_type t);
/* Exclusive float min/max: lanes whose prefix is empty (lanes 0..first
 * active) get the spec's identity (+-INF) instead of the NaN padding. */
bool coll_needs_exc_fixup(isa_binop op, isa_type t);

/* Fill of t[0..n) with coll_pad_value, then the masked copy of v (lanes in en) to
 * lanes shift.. (1 for an exclusive scan); logical operators compare
 * with 0 first (one more ALU micro-op). */
void coll_prepare(coll_x *x, isa_binop op, uint64_t *t, const uint64_t *v,
                  uint32_t w, uint32_t n, lanes_mask en, uint32_t shift);
/* Sub-group reduce of v[0..w) over the lanes in `en` with the configured
 * algorithm; the result is broadcast into out[0..w). */
void coll_reduce_vec(coll_x *x, isa_binop op, const uint64_t *v, uint32_t w,
                     lanes_mask en, uint64_t *out);
/* Clustered reduce: out[l] = reduce over the cluster of l. */
void coll_reduce_clustered(coll_x *x, isa_binop op, const uint64_t *v,
                           uint32_t w, lanes_mask en, uint32_t cluster,
                           uint64_t *out);
/* Sub-group scan of v[0..w) over the lanes in `en`. */
void coll_scan_vec(coll_x *x, isa_binop op, const uint64_t *v, uint32_t w,
                   lanes_mask en, bool exclusive, uint64_t *out);

/* ---- family entry points (one file each) ---- */

typedef coll_status (*coll_family_fn)(const coll_env *env, const isa_inst *in,
                                      coll_group *g, coll_report *rep);

/* Which file expands each collective family: X(FAMILY, file) dispatches the
 * family to coll_do_<file> (collectives/<file>.c, declared from this table;
 * coll.c builds its dispatch table from it).  Work-group scoped rows go to
 * coll_do_wg (wg.c) first; block I/O rows to block_io.c. */
#define COLL_FAMILY_TABLE(X) \
    X(ALL, vote) X(ANY, vote) X(ALL_EQUAL, vote) X(ELECT, vote) \
    X(BCAST, bcast) X(BCAST_FIRST, bcast) \
    X(REDUCE, reduce) X(SCAN_INC, scan) X(SCAN_EXC, scan) \
    X(SHUFFLE, shuffle) X(SHUFFLE_XOR, shuffle) X(SHUFFLE_UP, shuffle) \
    X(SHUFFLE_DOWN, shuffle) X(SHUFFLE_UP2, shuffle) X(SHUFFLE_DOWN2, shuffle) \
    X(ROTATE, shuffle) \
    X(BALLOT, ballot) X(INVERSE_BALLOT, ballot) X(BALLOT_BIT_EXTRACT, ballot) \
    X(BALLOT_BIT_COUNT, ballot) X(BALLOT_INC_SCAN, ballot) \
    X(BALLOT_EXC_SCAN, ballot) X(BALLOT_FIND_LSB, ballot) \
    X(BALLOT_FIND_MSB, ballot) X(LANE_MASK, ballot)

#define COLL_FAMILY_DECL(F, file) \
    coll_status coll_do_##file(const coll_env *, const isa_inst *, coll_group *, coll_report *);
COLL_FAMILY_TABLE(COLL_FAMILY_DECL)
#undef COLL_FAMILY_DECL
coll_status coll_do_wg(const coll_env *, const isa_inst *, coll_group *, coll_report *);

/* ---- shapes (shape.c) ---- */

/* Whether a scan or reduction of type t and operator op may take its
 * values from coll_fold_scan and its micro-ops from env->shapes: integer
 * operators whose wrapped result does not depend on the order of
 * evaluation, a shape cache, no fault injection. */
bool coll_fold_ok(const coll_env *env, isa_type t, isa_binop op);
/* out[0..w) = the inclusive (exclusive: shifted) scan of v's lanes in en,
 * the others the pad value, in lane order. */
void coll_fold_scan(isa_binop op, isa_type t, const uint64_t *v, uint32_t w,
                    lanes_mask en, bool exclusive, uint64_t *out);
/* The last lane of coll_fold_scan's inclusive scan (w >= 1): a reduction. */
uint64_t coll_fold(isa_binop op, isa_type t, const uint64_t *v, uint32_t w,
                   lanes_mask en);
/* Runs an algorithm on v (w lanes, en enabled) into out, emitting through x. */
typedef void (*coll_shape_gen)(coll_x *x, const uint64_t *v, uint32_t w,
                               lanes_mask en, uint64_t *out, const void *arg);
/* The micro-ops of instruction op (type t, w lanes, en enabled): from
 * env->shapes, or recorded there by running gen once on zeros.  NULL
 * when they are more than COLL_SHAPE_UOPS (the caller runs gen itself). */
const coll_shape *coll_shape_get(const coll_env *env, uint32_t op, isa_type t,
                                 uint32_t w, lanes_mask en, coll_shape_gen gen,
                                 const void *arg);
/* The cached shape of instruction op (t: its type and more that the
 * records depend on), or NULL; *known tells a cached shape of too many
 * records from an unknown one. */
const coll_shape *coll_shape_find(const coll_env *env, uint32_t op, uint32_t t,
                                  uint32_t w, lanes_mask en, bool *known);
/* Recording a new shape while the instruction runs micro-op by micro-op
 * with the env coll_shape_tee_begin returns: its sink keeps the records
 * and passes them on to env's.  coll_shape_tee_end closes the entry. */
typedef struct coll_shape_tee {
    coll_shape *e;
    uint32_t n;
    const coll_sink *next;
    coll_sink sink;
    coll_env env;
} coll_shape_tee;
const coll_env *coll_shape_tee_begin(coll_shape_tee *c, const coll_env *env, uint32_t op,
                                     uint32_t t, uint32_t w, lanes_mask en);
void coll_shape_tee_end(coll_shape_tee *c);
/* Hand a shape's records to env's sink, in order. */
void coll_shape_emit(const coll_env *env, const coll_shape *e);

/* ---- helpers (coll.c) ---- */

/* Fill *rep and return s (fatal). */
coll_status coll_fail(coll_report *rep, coll_status s, uint32_t sg,
                      uint32_t lane, int64_t value);
/* Whether coll_note reports anything (check or undefined-value mode). */
bool coll_notes_on(const coll_env *env);
/* A non-fatal undefined-result note (only in check mode). */
void coll_note(const coll_env *env, coll_status s, uint32_t sg, uint32_t lane,
               int64_t value);
/* COLL_DIVERGENT when an existing lane of some subgroup is not active. */
coll_status coll_check_converged(const coll_group *g, coll_report *rep);
/* Write v[l] to register `reg` for the active lanes. */
void coll_write(lanes_sg *sg, uint32_t reg, lanes_mask active, const uint64_t *v);

/* ---- check mode (ref.c) ---- */

/* Source values captured before execution (the destination may be a
 * source): operand o[k + 1] (k < 4), component c, as `width` slots per
 * subgroup.  Data operands hold every vector component read by the
 * family; index / delta / id operands component 0 (u32). */
typedef struct coll_ref_in {
    uint32_t nsg, width, ncomp;
    const lanes_mask *active;
    const uint32_t *size;      /* per subgroup */
    const uint64_t *vals;      /* [sg][k][comp][lane] */
} coll_ref_in;

static inline const uint64_t *coll_ref_src(const coll_ref_in *r, uint32_t j,
                                           uint32_t k, uint32_t comp)
{
    return r->vals + (((size_t)j * 4 + k) * r->ncomp + comp) * r->width;
}

/* Components of the source operand o[k + 1] a family reads as data (the
 * rest are read as one u32 component). */
uint32_t coll_ref_data_comps(const isa_inst *in, uint32_t k);

/* Recompute every destination component of `in` directly from the spec
 * and compare with what was written.  Returns COLL_OK or
 * COLL_CHECK_MISMATCH with *rep set. */
coll_status coll_ref_check(const coll_env *env, const isa_inst *in,
                           const coll_ref_in *r, coll_group *g, coll_report *rep);

/* Test-only fault injection: when non-NULL, called after every micro-op
 * that writes lane values with its destination and first written slot,
 * so a test can corrupt a result and see check mode catch it.  NULL in
 * every real run. */
extern void (*coll_fault_hook)(coll_uop_kind kind, uint64_t *dst, uint32_t slot);

#endif
