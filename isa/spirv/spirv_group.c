/* spirv_group.c - sub-group and work-group instructions (OpGroup*,
 * OpGroupNonUniform*, the Intel sub-group extensions, the sub-group mask
 * built-ins, sub_group_rotate calls) -> sgemu collective instructions,
 * dispatched through tables from the SPIR-V opcode. */
#include "spirv_private.h"

#include <string.h>

/* The combining operator of a SPIR-V group arithmetic instruction
 * (ISA_BINOP_NONE: it is none) and the signedness it gives the type. */
static isa_binop group_binop(uint32_t op, int *sign)
{
    *sign = SG_T;
    switch (op) {
    case SpvOpGroupIAdd: case SpvOpGroupFAdd: case SpvOpGroupNonUniformIAdd:
    case SpvOpGroupNonUniformFAdd: return ISA_BINOP_ADD;
    case SpvOpGroupNonUniformIMul: case SpvOpGroupNonUniformFMul: return ISA_BINOP_MUL;
    case SpvOpGroupSMin: case SpvOpGroupNonUniformSMin:
        *sign = SG_S;
        return ISA_BINOP_MIN;
    case SpvOpGroupUMin: case SpvOpGroupFMin: case SpvOpGroupNonUniformUMin:
    case SpvOpGroupNonUniformFMin: return ISA_BINOP_MIN;
    case SpvOpGroupSMax: case SpvOpGroupNonUniformSMax:
        *sign = SG_S;
        return ISA_BINOP_MAX;
    case SpvOpGroupUMax: case SpvOpGroupFMax: case SpvOpGroupNonUniformUMax:
    case SpvOpGroupNonUniformFMax: return ISA_BINOP_MAX;
    case SpvOpGroupNonUniformBitwiseAnd: return ISA_BINOP_AND;
    case SpvOpGroupNonUniformBitwiseOr: return ISA_BINOP_OR;
    case SpvOpGroupNonUniformBitwiseXor: return ISA_BINOP_XOR;
    case SpvOpGroupNonUniformLogicalAnd: return ISA_BINOP_LAND;
    case SpvOpGroupNonUniformLogicalOr: return ISA_BINOP_LOR;
    case SpvOpGroupNonUniformLogicalXor: return ISA_BINOP_LXOR;
    default: return ISA_BINOP_NONE;
    }
}

/* Which reduce/scan rows a group arithmetic instruction picks from: the
 * uniform ones of a sub-group or a work-group, the non-uniform ones, the
 * clustered reduces. */
enum { GK_SG, GK_WG, GK_NU, GK_CL, GK_COUNT };

/* The sgemu opcode of each group arithmetic instruction, by kind,
 * GroupOperation (Reduce, InclusiveScan, ExclusiveScan; the clustered kind
 * has Reduce only) and operator: 1 + the opcode, 0 where sgemu has none. */
#define GOP(o) (uint16_t)(1 + ISA_OP_##o)
#define GROUP_UNIFORM(P) \
    [ISA_BINOP_ADD] = GOP(P##_ADD), [ISA_BINOP_MIN] = GOP(P##_MIN), [ISA_BINOP_MAX] = GOP(P##_MAX)
#define GROUP_ALL_OPS(P) \
    GROUP_UNIFORM(P), [ISA_BINOP_MUL] = GOP(P##_MUL), [ISA_BINOP_AND] = GOP(P##_AND), \
    [ISA_BINOP_OR] = GOP(P##_OR), [ISA_BINOP_XOR] = GOP(P##_XOR), \
    [ISA_BINOP_LAND] = GOP(P##_LAND), [ISA_BINOP_LOR] = GOP(P##_LOR), \
    [ISA_BINOP_LXOR] = GOP(P##_LXOR)
static const uint16_t group_arith_ops[GK_COUNT][3][ISA_BINOP_COUNT] = {
    [GK_SG] = { { GROUP_UNIFORM(SG_REDUCE) }, { GROUP_UNIFORM(SG_SCAN_INC) },
                { GROUP_UNIFORM(SG_SCAN_EXC) } },
    [GK_WG] = { { GROUP_UNIFORM(WG_REDUCE) }, { GROUP_UNIFORM(WG_SCAN_INC) },
                { GROUP_UNIFORM(WG_SCAN_EXC) } },
    [GK_NU] = { { GROUP_ALL_OPS(SG_NU_REDUCE) }, { GROUP_ALL_OPS(SG_NU_SCAN_INC) },
                { GROUP_ALL_OPS(SG_NU_SCAN_EXC) } },
    [GK_CL] = { { GROUP_ALL_OPS(SG_CL_REDUCE) } },
};
#undef GROUP_ALL_OPS
#undef GROUP_UNIFORM
#undef GOP

/* Scope operand (an id of a constant) at word w. */
static int scope_at(xctx *x, xfn *f, const spv_inst *in, unsigned w)
{
    xval *s = spv_val(x, f, spv_word(x->m, in, w));
    if (!s || !s->n || s->c[0].o.kind != ISA_OPND_IMM) {
        spv_error(x, "scope must be a constant");
        return -1;
    }
    if (s->c[0].o.imm != SpvScopeWorkgroup && s->c[0].o.imm != SpvScopeSubgroup) {
        spv_error(x, "scope %s is not supported (Workgroup and Subgroup are)",
                spv_enum_name("Scope", (uint32_t)s->c[0].o.imm) ?
                spv_enum_name("Scope", (uint32_t)s->c[0].o.imm) : "?");
        return -1;
    }
    return (int)s->c[0].o.imm;
}

/* Result of a collective over value components (bools as 0/1 u32). */
static void group_map(xctx *x, xfn *f, const spv_inst *in, isa_opcode op, isa_type ty,
                      xval **src, unsigned n)
{
    const spv_type *t;
    xval *r = spv_result(x, f, in, &t);
    if (!r || op == ISA_OP_COUNT)
        return;
    /* a bool result is a 0/1 u32, except for all_equal, whose type is its
     * operand's (the compare is of that type: doubles and longs in full,
     * floats as numbers) */
    if (t->kind == SPV_TY_BOOL && op != ISA_OP_SG_NU_ALL_EQUAL)
        ty = ISA_T_U32;
    spv_emit_map(x, r, t, op, ty, src, n);
    if (t->kind == SPV_TY_BOOL)
        for (unsigned c = 0; c < r->n; c++)
            r->c[c].has_pred = 0;
}

/* Copy the four words of ballot mask `mask` to registers g..g+3. */
static void mask_copy(xctx *x, const xval *mask, uint32_t g)
{
    for (unsigned i = 0; i < 4; i++) {
        const isa_operand src = spv_src(x, spv_comp(mask, i));
        isa_inst *mv = spv_emit(x, ISA_OP_MOV, ISA_T_U32);
        mv->o[0] = spv_R(g + i);
        mv->o[1] = src;
        mv->nopnd = 2;
    }
}

/* Rd = op(mask in g..g+3) as the one component of r; the caller may add an
 * operand to the returned instruction (valid until the next emit). */
static isa_inst *ballot_query(xctx *x, xval *r, isa_opcode op, uint32_t d, uint32_t g)
{
    isa_inst *bi = spv_emit(x, op, ISA_T_U32);
    bi->vec = 4;
    bi->o[0] = spv_R(d);
    bi->o[1] = spv_R(g);
    bi->nopnd = 2;
    memset(&r->c[0], 0, sizeof r->c[0]);
    r->c[0].o = spv_R(d);
    return bi;
}

/* A cluster size must be an integer constant expression and a power of two
 * (cl_khr_subgroup_clustered_reduce, cl_khr_subgroup_rotate; in SPIR-V,
 * ClusterSize comes from a constant instruction): a translation error
 * naming the line and the rule, rather than a fault when the kernel runs. */
static bool cluster_size_ok(xctx *x, const xval *c, const char *fn, const char *ext)
{
    if (c->c[0].o.kind != ISA_OPND_IMM) {
        spv_error(x, "the cluster size of %s is not a compile-time constant (%s: an integer "
                  "constant expression)", fn, ext);
        return false;
    }
    const uint64_t v = (uint64_t)c->c[0].o.imm;
    if (!v || (v & (v - 1))) {
        spv_error(x, "the cluster size of %s is %llu, not a power of two (%s)", fn,
                  (unsigned long long)v, ext);
        return false;
    }
    return true;
}

/* OpGroupIAdd ... OpGroupNonUniformLogicalXor: a reduce or scan (operand
 * at word 5; a clustered reduce's cluster size at word 6). */
static void group_arith(xctx *x, xfn *f, const spv_inst *in, int scope, bool nu, isa_binop b,
                        int sign, isa_type ty)
{
    xval *s[2];
    uint32_t gop = spv_word(x->m, in, 4);
    if (!spv_operands(x, f, in, 5, 1, s))
        return;
    const bool clustered = nu && gop == SpvGroupOperationClusteredReduce;
    if (clustered && !spv_operands(x, f, in, 5, 2, s))
        return;
    if (!clustered && gop > SpvGroupOperationExclusiveScan) {
        spv_error(x, "group operation %s is not supported",
                  spv_enum_name("GroupOperation", gop) ?
                  spv_enum_name("GroupOperation", gop) : "?");
        return;
    }
    const unsigned kind = clustered ? GK_CL : nu ? GK_NU :
                          scope == SpvScopeWorkgroup ? GK_WG : GK_SG;
    const unsigned op1 = group_arith_ops[kind][clustered ? 0 : gop][b];
    if (!op1)
        spv_error(x, "group instruction %s with operation %s has no sgemu instruction",
                  spv_op_name(in->op), spv_enum_name("GroupOperation", gop) ?
                  spv_enum_name("GroupOperation", gop) : "?");
    if (clustered && op1 && !cluster_size_ok(x, s[1], isa_ops[op1 - 1].mnemonic,
                                             "cl_khr_subgroup_clustered_reduce"))
        return;
    group_map(x, f, in, op1 ? (isa_opcode)(op1 - 1) : ISA_OP_COUNT, spv_with_sign(ty, sign), s,
              clustered ? 2 : 1);
}

/* Group instructions that are one sgemu instruction over value operands
 * from word 4: the SPIR-V opcode, the sgemu opcode, how many operands and
 * the type the instruction computes in. */
enum { GT_RESULT, GT_U32, GT_OPERAND };
static const struct group_row {
    uint16_t spv, op;
    uint8_t nsrc, type;
} group_rows[] = {
    { SpvOpGroupNonUniformAll, ISA_OP_SG_NU_ALL, 1, GT_U32 },
    { SpvOpGroupNonUniformAny, ISA_OP_SG_NU_ANY, 1, GT_U32 },
    { SpvOpGroupNonUniformAllEqual, ISA_OP_SG_NU_ALL_EQUAL, 1, GT_OPERAND },
    { SpvOpGroupNonUniformElect, ISA_OP_SG_ELECT, 0, GT_U32 },
    { SpvOpGroupNonUniformBroadcast, ISA_OP_SG_NU_BROADCAST, 2, GT_RESULT },
    { SpvOpGroupNonUniformBroadcastFirst, ISA_OP_SG_BROADCAST_FIRST, 1, GT_RESULT },
    { SpvOpGroupNonUniformShuffle, ISA_OP_SG_SHUFFLE, 2, GT_RESULT },
    { SpvOpGroupNonUniformShuffleXor, ISA_OP_SG_SHUFFLE_XOR, 2, GT_RESULT },
    { SpvOpGroupNonUniformShuffleUp, ISA_OP_SG_SHUFFLE_UP, 2, GT_RESULT },
    { SpvOpGroupNonUniformShuffleDown, ISA_OP_SG_SHUFFLE_DOWN, 2, GT_RESULT },
};

/* work_group_broadcast: the local id (word 5) is a scalar or a 2/3-vector,
 * so one WG_BROADCAST per value component takes 1 to 3 id operands. */
static void group_wg_broadcast(xctx *x, xfn *f, const spv_inst *in, isa_type ty, xval **s)
{
    const spv_type *t;
    xval *r = spv_result(x, f, in, &t);
    if (!r)
        return;
    uint32_t base = spv_reg(x, t->ncomp);
    for (unsigned c = 0; c < t->ncomp; c++) {
        isa_operand v = spv_src(x, spv_comp(s[0], c));
        isa_operand ids[3] = { { 0 } };   /* only the first n are read */
        for (unsigned i = 0; i < s[1]->n && i < 3; i++)
            ids[i] = spv_src(x, &s[1]->c[i]);
        isa_inst *bi = spv_emit(x, ISA_OP_WG_BROADCAST, ty);
        bi->o[0] = spv_R(base + c);
        bi->o[1] = v;
        for (unsigned i = 0; i < s[1]->n && i < 3; i++)
            bi->o[2 + i] = ids[i];
        bi->nopnd = (uint8_t)(2 + (s[1]->n < 3 ? s[1]->n : 3));
        memset(&r->c[c], 0, sizeof r->c[c]);
        r->c[c].o = spv_R(base + c);
    }
}

/* OpGroupNonUniformBallot: the 4-word mask of the lanes whose predicate
 * (word 4) holds. */
static void group_ballot(xctx *x, xfn *f, const spv_inst *in)
{
    xval *s[1];
    if (!spv_operands(x, f, in, 4, 1, s))
        return;
    xval *r = spv_def(x, f, spv_word(x->m, in, 2), 4);
    if (!r)
        return;
    isa_operand v = spv_src(x, &s[0]->c[0]);
    uint32_t b = spv_reg(x, 4);
    isa_inst *bi = spv_emit(x, ISA_OP_SG_BALLOT, ISA_T_U32);
    bi->vec = 4;
    bi->o[0] = spv_R(b);
    bi->o[1] = v;
    bi->nopnd = 2;
    for (unsigned i = 0; i < 4; i++) {
        memset(&r->c[i], 0, sizeof r->c[i]);
        r->c[i].o = spv_R(b + i);
    }
}

/* OpGroupNonUniformBallotBitExtract: bit `index` (word 5) of a ballot mask
 * (word 4), read in place when its words are consecutive registers. */
static void group_ballot_bit_extract(xctx *x, xfn *f, const spv_inst *in)
{
    xval *s[2];
    if (!spv_operands(x, f, in, 4, 2, s))
        return;
    const spv_type *t;
    xval *r = spv_result(x, f, in, &t);
    if (!r)
        return;
    uint32_t mr = spv_reg(x, 1);
    isa_operand idx = spv_src(x, &s[1]->c[0]);
    xval mask = *s[0];
    mask.n = 4;
    uint32_t g = 0;
    bool ok = mask.c[0].o.kind == ISA_OPND_REG;
    for (unsigned i = 1; i < 4 && ok; i++)
        ok = mask.c[i].o.kind == ISA_OPND_REG && mask.c[i].o.reg == mask.c[0].o.reg + i;
    if (ok)
        g = mask.c[0].o.reg;
    else {
        g = spv_reg(x, 4);
        mask_copy(x, s[0], g);
    }
    isa_inst *bi = ballot_query(x, r, ISA_OP_SG_BALLOT_BIT_EXTRACT, mr, g);
    bi->o[2] = idx;
    bi->nopnd = 3;
}

/* OpGroupNonUniformInverseBallot, BallotBitCount (Reduce, InclusiveScan,
 * ExclusiveScan at word 4, the mask at 5), BallotFindLSB, BallotFindMSB. */
static void group_ballot_query(xctx *x, xfn *f, const spv_inst *in)
{
    xval *s[1];
    unsigned w = in->op == SpvOpGroupNonUniformBallotBitCount ? 5 : 4;
    if (!spv_operands(x, f, in, w, 1, s))
        return;
    isa_opcode op = in->op == SpvOpGroupNonUniformInverseBallot ? ISA_OP_SG_INVERSE_BALLOT :
                    in->op == SpvOpGroupNonUniformBallotFindLSB ? ISA_OP_SG_BALLOT_FIND_LSB :
                    in->op == SpvOpGroupNonUniformBallotFindMSB ? ISA_OP_SG_BALLOT_FIND_MSB :
                    ISA_OP_SG_BALLOT_BIT_COUNT;
    if (in->op == SpvOpGroupNonUniformBallotBitCount) {
        uint32_t gop = spv_word(x->m, in, 4);
        op = gop == SpvGroupOperationInclusiveScan ? ISA_OP_SG_BALLOT_INC_SCAN :
             gop == SpvGroupOperationExclusiveScan ? ISA_OP_SG_BALLOT_EXC_SCAN : op;
    }
    const spv_type *t;
    xval *r = spv_result(x, f, in, &t);
    if (!r)
        return;
    uint32_t g = spv_reg(x, 4), d = spv_reg(x, 1);
    mask_copy(x, s[0], g);
    ballot_query(x, r, op, d, g);
}

void spv_op_group(xctx *x, xfn *f, const spv_inst *in)
{
    int scope = scope_at(x, f, in, 3);
    if (scope < 0)
        return;
    bool nu = in->op >= SpvOpGroupNonUniformElect && in->op <= SpvOpGroupNonUniformQuadSwap;
    if (nu && scope != SpvScopeSubgroup) {
        spv_error(x, "non-uniform group operations need Subgroup scope");
        return;
    }
    const spv_type *rt = spv_type_lookup(x, spv_word(x->m, in, 1));
    if (!rt)
        return;
    isa_type ty = spv_ctype(rt);
    xval *s[3];
    int sign;
    const isa_binop b = group_binop(in->op, &sign);
    if (b != ISA_BINOP_NONE) {
        group_arith(x, f, in, scope, nu, b, sign, ty);
        return;
    }
    for (unsigned i = 0; i < sizeof group_rows / sizeof group_rows[0]; i++) {
        const struct group_row *g = &group_rows[i];
        if (g->spv != in->op)
            continue;
        if (g->nsrc && !spv_operands(x, f, in, 4, g->nsrc, s))
            return;
        if (g->type == GT_OPERAND) {
            const spv_type *vt = spv_type_of_id(x, spv_word(x->m, in, 4));
            if (vt)
                group_map(x, f, in, (isa_opcode)g->op, spv_ctype(vt), s, 1);
            return;
        }
        group_map(x, f, in, (isa_opcode)g->op, g->type == GT_U32 ? ISA_T_U32 : ty, s, g->nsrc);
        return;
    }
    const bool wg = scope == SpvScopeWorkgroup;
    switch (in->op) {
    case SpvOpGroupAll: case SpvOpGroupAny:
        if (!spv_operands(x, f, in, 4, 1, s))
            return;
        group_map(x, f, in, in->op == SpvOpGroupAll ? (wg ? ISA_OP_WG_ALL : ISA_OP_SG_ALL)
                                                    : (wg ? ISA_OP_WG_ANY : ISA_OP_SG_ANY),
                  ISA_T_U32, s, 1);
        return;
    case SpvOpGroupBroadcast:
        if (!spv_operands(x, f, in, 4, 2, s))
            return;
        if (wg)
            group_wg_broadcast(x, f, in, ty, s);
        else
            group_map(x, f, in, ISA_OP_SG_BROADCAST, ty, s, 2);
        return;
    case SpvOpGroupNonUniformBallot:
        group_ballot(x, f, in);
        return;
    case SpvOpGroupNonUniformBallotBitExtract:
        group_ballot_bit_extract(x, f, in);
        return;
    case SpvOpGroupNonUniformInverseBallot: case SpvOpGroupNonUniformBallotBitCount:
    case SpvOpGroupNonUniformBallotFindLSB: case SpvOpGroupNonUniformBallotFindMSB:
        group_ballot_query(x, f, in);
        return;
    case SpvOpGroupNonUniformRotateKHR: {
        bool cl = in->nw > 6;
        if (!spv_operands(x, f, in, 4, cl ? 3 : 2, s))
            return;
        if (cl && !cluster_size_ok(x, s[2], "sub_group_clustered_rotate",
                                   "cl_khr_subgroup_rotate"))
            return;
        group_map(x, f, in, cl ? ISA_OP_SG_CLUSTERED_ROTATE : ISA_OP_SG_ROTATE, ty, s,
                  cl ? 3 : 2);
        return;
    }
    default:
        spv_error(x, "group instruction %s is not supported", spv_op_name(in->op));
        return;
    }
}

void spv_op_intel_group(xctx *x, xfn *f, const spv_inst *in)
{
    xval *s[3];
    const spv_type *rt = spv_type_lookup(x, spv_word(x->m, in, 1));
    if (!rt)
        return;
    isa_type ty = spv_ctype(rt);
    switch (in->op) {
    case SpvOpSubgroupShuffleINTEL:
        if (spv_operands(x, f, in, 3, 2, s))
            group_map(x, f, in, ISA_OP_INTEL_SHUFFLE, ty, s, 2);
        return;
    case SpvOpSubgroupShuffleXorINTEL:
        if (spv_operands(x, f, in, 3, 2, s))
            group_map(x, f, in, ISA_OP_INTEL_SHUFFLE_XOR, ty, s, 2);
        return;
    case SpvOpSubgroupShuffleDownINTEL:
        if (spv_operands(x, f, in, 3, 3, s))
            group_map(x, f, in, ISA_OP_INTEL_SHUFFLE_DOWN, ty, s, 3);
        return;
    case SpvOpSubgroupShuffleUpINTEL:
        if (spv_operands(x, f, in, 3, 3, s))
            group_map(x, f, in, ISA_OP_INTEL_SHUFFLE_UP, ty, s, 3);
        return;
    default:
        return;
    }
}

/* get_sub_group_eq/ge/gt/le/lt_mask: llvm-spirv-14 reads them from the
 * SubgroupEqMask .. SubgroupLtMask BuiltIn variables (uint4), which are
 * not specials: an OpLoad of one becomes the SG_*_MASK row.  Called for a
 * BuiltIn that has no special; false when `builtin` is not one of them. */
bool spv_load_group_mask(xctx *x, xfn *f, uint32_t id, uint32_t builtin)
{
    isa_opcode op;
    switch (builtin) {
    case SpvBuiltInSubgroupEqMask: op = ISA_OP_SG_EQ_MASK; break;
    case SpvBuiltInSubgroupGeMask: op = ISA_OP_SG_GE_MASK; break;
    case SpvBuiltInSubgroupGtMask: op = ISA_OP_SG_GT_MASK; break;
    case SpvBuiltInSubgroupLeMask: op = ISA_OP_SG_LE_MASK; break;
    case SpvBuiltInSubgroupLtMask: op = ISA_OP_SG_LT_MASK; break;
    default: return false;
    }
    xval *r = spv_def(x, f, id, 4);
    if (!r)
        return true;
    uint32_t b = spv_reg(x, 4);
    isa_inst *mi = spv_emit(x, op, ISA_T_U32);
    mi->vec = 4;
    mi->o[0] = spv_R(b);
    mi->nopnd = 1;
    for (unsigned i = 0; i < 4; i++) {
        memset(&r->c[i], 0, sizeof r->c[i]);
        r->c[i].o = spv_R(b + i);
    }
    return true;
}

/* cl_intel_subgroups_short / _char: intel_sub_group_broadcast and the
 * intel_sub_group_reduce_ / scan_inclusive_ / scan_exclusive_{add,min,max}
 * of char, uchar, short, ushort (and vector broadcasts), which
 * llvm-spirv-14 leaves as imported functions.  The Itanium-mangled name
 * _Z<len><name><parameters> gives the row (the function's name is the
 * row's) and the signedness (c, a, s, i, l: signed; h, t, j, m: unsigned),
 * which min/max need. */
static bool intel_sg_call(xctx *x, xfn *f, const spv_inst *in, const char *nm)
{
    if (strncmp(nm, "_Z", 2) != 0)
        return false;
    size_t len = 0;
    const char *p = nm + 2;
    while (*p >= '0' && *p <= '9')
        len = len * 10 + (size_t)(*p++ - '0');
    if (len < 16 || strncmp(p, "intel_sub_group_", 16) != 0 || strlen(p) < len)
        return false;
    isa_opcode op = isa_opcode_from_name(p, len);
    if (op == ISA_OP_COUNT)
        return false;
    const isa_family fam = isa_ops[op].family;     /* the intel_sub_group_ reduces and scans */
    if (op != ISA_OP_INTEL_BROADCAST && fam != ISA_FAM_REDUCE && fam != ISA_FAM_SCAN_INC &&
        fam != ISA_FAM_SCAN_EXC)
        return false;
    const char *a = p + len;
    if (!strncmp(a, "Dv", 2)) {   /* vector: Dv<n>_<element> */
        a += 2;
        while (*a >= '0' && *a <= '9')
            a++;
        if (*a == '_')
            a++;
    }
    int sg = strchr("casil", *a) && *a ? SG_S : SG_U;
    unsigned n = op == ISA_OP_INTEL_BROADCAST ? 2 : 1;
    if (in->nw != 4 + n) {
        spv_error(x, "%s: expected %u arguments", nm, n);
        return true;
    }
    xval *s[2];
    if (!spv_operands(x, f, in, 4, n, s))
        return true;
    const spv_type *t = spv_type_lookup(x, spv_word(x->m, in, 1));
    if (t)
        group_map(x, f, in, op, spv_with_sign(spv_ctype(t), sg), s, n);
    return true;
}

/* Calls of library functions that llvm-spirv-14 leaves as imports because it
 * predates their SPIR-V instruction: cl_khr_subgroup_rotate's
 * sub_group_rotate / sub_group_clustered_rotate (declared by the kernel
 * itself, clang-14's opencl-c.h lacks them) -> the rotate rows; the Intel
 * 8- and 16-bit broadcasts, reductions and scans (intel_sg_call); float
 * atomic_fetch_sub (spv_float_atomic_sub_call). */
bool spv_call_builtin(xctx *x, xfn *f, const spv_inst *in)
{
    spv_module *m = x->m;
    uint32_t callee = spv_word(m, in, 3);
    const char *nm = callee < m->bound ? m->name[callee] : NULL;
    if (!nm)
        return false;
    if (intel_sg_call(x, f, in, nm))
        return true;
    if (spv_float_atomic_sub_call(x, f, in, nm))
        return true;
    bool cl = !strncmp(nm, "_Z26sub_group_clustered_rotate", 30);
    if (!cl && strncmp(nm, "_Z16sub_group_rotate", 20))
        return false;
    xval *s[3];
    unsigned n = cl ? 3 : 2;
    if (in->nw != 4 + n) {
        spv_error(x, "%s: expected %u arguments", nm, n);
        return true;
    }
    if (!spv_operands(x, f, in, 4, n, s))
        return true;
    if (cl && !cluster_size_ok(x, s[2], "sub_group_clustered_rotate", "cl_khr_subgroup_rotate"))
        return true;
    const spv_type *t = spv_type_lookup(x, spv_word(m, in, 1));
    if (t)
        group_map(x, f, in, cl ? ISA_OP_SG_CLUSTERED_ROTATE : ISA_OP_SG_ROTATE, spv_ctype(t), s, n);
    return true;
}
