/*
 * spirv_xlate.h - state of the SPIR-V -> sgemu translation, shared by the
 * control-flow/memory core (spirv_translate.c) and the per-instruction
 * mapping of arithmetic, conversions and group operations (spirv_ops.c).
 */
#ifndef SGEMU_SPIRV_XLATE_H
#define SGEMU_SPIRV_XLATE_H

#include "spirv_private.h"

#define XV_MAX 16
#define X_SPACE_NONE 0xff

/* One component of an SSA value: a source operand (register, immediate,
 * argument, special) or, for pointers, an address expression; booleans also
 * carry a predicate that is valid inside the block that computed it. */
typedef struct xc {
    isa_operand o;         /* ISA_OPND_ADDR: a pointer not yet in a register */
    uint8_t space;         /* pointers: isa_space or X_SPACE_NONE */
    uint8_t has_pred, pred, pred_neg;
    uint32_t pgen, pblock;
} xc;

typedef struct xval {
    uint8_t n;             /* components */
    xc c[XV_MAX];
} xval;

/* One inlined instance of a function. */
typedef struct xfn {
    xval **v;              /* id -> value */
    uint32_t *label;       /* block id -> label number + 1 */
    bool entry;
    uint32_t ret_label;
    xval *ret;             /* registers of the returned value */
} xfn;

typedef struct xctx {
    spv_module *m;
    isa_kernel *k;
    const char *kname;
    isa_inst *code;
    uint8_t *pure;         /* per instruction: no side effect (removable) */
    uint32_t ncode, capcode;
    uint32_t *label_pc;
    uint32_t nlabel, caplabel;
    uint32_t nreg;
    uint32_t pool_next, gen, block_no;
    uint32_t slot_gen[ISA_MAX_PREDS];
    xval **gv;             /* module-level values (constants, variables) */
    const spv_inst *cur;
    int depth;
    bool failed;
} xctx;

/* spirv_translate.c: emission helpers */
void x_error(xctx *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
isa_inst *x_emit(xctx *x, isa_opcode op, isa_type t);
uint32_t x_reg(xctx *x, unsigned n);
isa_operand x_R(uint32_t r);
isa_operand x_I(uint64_t bits);
isa_operand x_P(uint32_t p, bool neg);
/* Fresh predicate from the rotating pool. */
uint32_t x_pred(xctx *x, uint32_t *gen);
/* A readable source for component c (materialises address expressions). */
isa_operand x_src(xctx *x, const xc *c);
/* The predicate of a boolean component (compares its register if needed). */
isa_operand x_predof(xctx *x, const xc *c);
/* Make a boolean component from a predicate just written (adds the 0/1
 * register copy, removed later if nothing reads it). */
void x_set_bool(xctx *x, xc *c, uint32_t p, uint32_t gen, bool neg);
/* Value of an id (instance first, then module level); NULL + error if none. */
xval *x_val(xctx *x, xfn *f, uint32_t id);
/* Allocate the value of result id in f. */
xval *x_def(xctx *x, xfn *f, uint32_t id, unsigned n);
/* A type id's entry, or NULL + error. */
const spv_type *x_type(xctx *x, uint32_t id);
/* The type of the value `id` (its defining instruction's result type), or
 * NULL for ids that define no typed value. */
const spv_type *x_value_type(xctx *x, uint32_t id);
isa_type x_signed(isa_type t);

/* Helpers shared with spirv_image.c (spirv_translate.c). */
isa_operand x_addr_of(xctx *x, const xc *c, isa_space *space);
/* Labels of the translated code: a fresh one, placed at the next
 * instruction; a branch to one (p: its predicate, or NULL) */
uint32_t x_new_label(xctx *x);
void x_place_label(xctx *x, uint32_t l);
void x_emit_bra(xctx *x, const isa_operand *p, uint32_t l);
/* spirv_async.c: OpGroupAsyncCopy, OpGroupWaitEvents; false for others */
bool x_op_async(xctx *x, xfn *f, const spv_inst *in);
bool x_alloc_regs(xctx *x, xval *v, const spv_type *t);
isa_type x_comp_type(const spv_type *t);
uint32_t x_gather(xctx *x, const xval *v, isa_type t);
/* Store value v (components of type ct; a vector is gathered into consecutive
 * registers first) to address a in space sp: one ST. */
void x_store_value(xctx *x, const xval *v, isa_type ct, isa_operand a, isa_space sp);
/* Load type t from address a in space sp into v's registers (allocated,
 * consecutive): one LD. */
void x_load_value(xctx *x, const xval *v, const spv_type *t, isa_operand a, isa_space sp);

/* spirv_image.c: image element access/queries and Intel block I/O. */
bool x_op_image(xctx *x, xfn *f, const spv_inst *in);
/* OpLoad of a SubgroupEq/Ge/Gt/Le/LtMask built-in (spirv_ops.c); false if
 * `builtin` is none of them */
bool x_load_group_mask(xctx *x, xfn *f, uint32_t id, uint32_t builtin);

/* spirv_aggregate.c: structs/arrays as values, OpCopyMemory(Sized), constant
 * byte images.  Each hook returns false when `in` is not its case. */
bool x_is_aggregate(const spv_type *t);
/* Byte offset of constituent i of the struct or array type t; false past
 * the struct's members. */
bool x_constituent_offset(const spv_module *m, const spv_type *t, unsigned i, uint64_t *o);
bool x_load_aggregate(xctx *x, xfn *f, const spv_inst *in);
bool x_store_aggregate(xctx *x, xfn *f, const spv_inst *in);
bool x_composite_aggregate(xctx *x, xfn *f, const spv_inst *in);
bool x_init_variable(xctx *x, xfn *f, const xc *var, uint32_t init);
bool x_op_aggregate(xctx *x, xfn *f, const spv_inst *in);
void x_copy_bytes(xctx *x, isa_operand d, isa_space ds, isa_operand s, isa_space ss,
                  uint64_t size, uint64_t align);
uint64_t x_var_align(xctx *x, uint32_t id, uint64_t al);
/* OpLoad / OpStore whose Aligned operand is below the element size (packed
 * structs): accesses of the alignment, combined with shifts. */
bool x_load_unaligned(xctx *x, xfn *f, const spv_inst *in);
bool x_store_unaligned(xctx *x, xfn *f, const spv_inst *in);
/* The bytes of constant `id` laid out in `size` bytes (malloc'd), or NULL. */
uint8_t *x_const_image(xctx *x, uint32_t id, uint64_t size);
/* Kernel parameter `in` of type t passed by value as a vector or struct:
 * fills argument a (a `constant` argument with .byval bytes) and replaces
 * v, the argument operand, by the parameter's value (code at entry).  False
 * when t is neither. */
bool x_byval_param(xctx *x, const spv_inst *in, const spv_type *t, isa_arg *a, xval *v);

/* spirv_math.c: OpenCL.std pown, rootn, powr (true if `name` is one). */
bool x_lower_pow(xctx *x, xfn *f, const spv_inst *in, const char *name);
/* spirv_math.c: the *pi forms, lgamma_r, remquo, remainder, s_/u_mad_sat
 * (true if `name` is one). */
bool x_lower_math(xctx *x, xfn *f, const spv_inst *in, const char *name);
/* Scalar emission helpers: a fresh register rD = op(a[, b]); cvt to `to`
 * from `from`; a fresh predicate a `cond` b; a predicate op of two. */
uint32_t x_op1(xctx *x, isa_opcode op, isa_type t, isa_operand a);
uint32_t x_op2(xctx *x, isa_opcode op, isa_type t, isa_operand a, isa_operand b);
uint32_t x_sel(xctx *x, isa_type t, isa_operand p, isa_operand a, isa_operand b);
uint32_t x_cvt(xctx *x, isa_type to, isa_type from, isa_operand a);
isa_operand x_cmp(xctx *x, isa_binop cond, isa_type t, isa_operand a, isa_operand b);
isa_operand x_pop(xctx *x, isa_opcode op, isa_operand a, isa_operand b);

/* spirv_constdata.c: module-scope UniformConstant variables with an
 * initialiser -> the kernel's .const_data (after the parameters are set). */
bool x_is_const_var(xctx *x, const spv_inst *in);
void x_const_vars(xctx *x);

/* spirv_globaldata.c: module-scope CrossWorkgroup variables -> the kernel's
 * .global_data, .global_var and .data_reloc (after x_const_vars, whose
 * relocations it resolves too). */
bool x_is_global_var(xctx *x, const spv_inst *in);
void x_global_vars(xctx *x);
/* Lay out initialiser `id` at buf[off..) (buf holds `size` bytes) of data
 * block argument block_arg: bytes, and relocations for pointers to
 * program-scope variables. */
bool x_data_image(xctx *x, uint32_t id, uint8_t *buf, uint64_t off, uint64_t size,
                  uint32_t block_arg);

/* spirv_sampler.c: OpConstantSampler (module level), OpSampledImage,
 * OpImageSampleExplicitLod. */
void x_const_sampler(xctx *x, const spv_inst *in);
bool x_op_sampler(xctx *x, xfn *f, const spv_inst *in);

/* spirv_extra.c: short exact lowerings of OpenCL.std functions (true if
 * `name` is one) and of relational instructions (true if handled). */
bool x_lower_extra(xctx *x, xfn *f, const spv_inst *in, const char *name);
bool x_op_relational(xctx *x, xfn *f, const spv_inst *in);
/* OpBitcast between vectors of different component sizes (as_ulong(uint2)). */
void x_bitcast_regroup(xctx *x, xfn *f, const spv_inst *in, const xval *s,
                       const spv_type *t, const spv_type *st);
void x_sat_convert(xctx *x, xfn *f, const spv_inst *in);

/* spirv_vecmem.c: OpenCL.std vloadn/vstoren/vload_half/vstore_half... */
bool x_op_vecmem(xctx *x, xfn *f, const spv_inst *in, const char *name);

/* spirv_ops.c: arithmetic, compares, conversions, OpenCL.std, groups.
 * Returns true if the opcode was recognised (errors are reported). */
bool x_op_alu(xctx *x, xfn *f, const spv_inst *in);
/* OpFunctionCall of a known imported built-in (sub_group_rotate); true if
 * handled. */
bool x_call_builtin(xctx *x, xfn *f, const spv_inst *in);

#endif
