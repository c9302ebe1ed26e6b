/*
 * spirv_private.h - the SPIR-V front end's one private header (isa/spirv/):
 * the generated name tables, the parsed module (spirv_module.c) and the
 * state of the SPIR-V -> sgemu translation shared by the translator's files.
 * Not a contract header: the front end's interface is isa/spirv.h.
 */
#ifndef SGEMU_SPIRV_PRIVATE_H
#define SGEMU_SPIRV_PRIVATE_H

#include "isa_priv.h"
#include "spirv.h"

#include <spirv/unified1/spirv.h>
#include <spirv/unified1/OpenCL.std.h>

#include <stdint.h>
#include <string.h>

/* ---- generated from the grammars (tools/gen_spirv_tables.py) ---- */
typedef struct spv_op_info {
    uint32_t opcode;
    const char *name;
    uint8_t has_type, has_result;
} spv_op_info;
extern const spv_op_info spv_op_table[];
extern const unsigned spv_op_table_len;
extern const char *const spv_ocl_names[];
extern const unsigned spv_ocl_names_len;
const char *spv_enum_name(const char *kind, uint32_t value);

/* "OpIAdd", or "Op<number>" in a static buffer for unknown opcodes. */
const char *spv_op_name(uint32_t opcode);
const spv_op_info *spv_op_find(uint32_t opcode);

/* ---- the parsed module (spirv_module.c) ---- */
typedef struct spv_inst {
    uint32_t off;          /* first word (the opcode word) */
    uint16_t op, nw;       /* opcode, word count */
    uint32_t line;         /* OpLine line, else instruction index + 1 */
} spv_inst;

typedef enum spv_tkind {
    SPV_TY_NONE, SPV_TY_VOID, SPV_TY_BOOL, SPV_TY_INT, SPV_TY_FLOAT, SPV_TY_VEC,
    SPV_TY_PTR, SPV_TY_ARRAY, SPV_TY_STRUCT, SPV_TY_IMAGE, SPV_TY_OTHER
} spv_tkind;

typedef struct spv_type {
    uint8_t kind;          /* spv_tkind */
    uint8_t isa_t;         /* scalar (or vector component) type; ISA_T_NONE */
    uint8_t ncomp;         /* vector components, 1 for scalars */
    uint8_t access;        /* images: access qualifier as isa_arg.access */
    uint8_t img_dim;       /* images: SPIR-V Dim (1 2D, 2 3D, ...) */
    uint8_t img_arrayed;   /* images: Arrayed */
    uint8_t sampler;       /* OpTypeSampler (an int of CLK_* bits) */
    uint32_t elem;         /* vector/array element, pointer pointee */
    uint32_t sc;           /* pointer storage class */
    uint64_t size, align;  /* bytes in memory (0 = unknown) */
    uint32_t first_member; /* struct: index into spv_module.members */
    uint32_t nmembers;
} spv_type;

typedef struct spv_entry {
    uint32_t func;
    char name[64];
    uint32_t sg_size;      /* OpExecutionMode SubgroupSize, 0 if none */
    uint32_t local_size[3]; /* OpExecutionMode LocalSize, 0s if none */
} spv_entry;

typedef struct spv_module {
    const char *file;
    uint32_t *w;           /* words, host byte order (owned copy) */
    size_t nw;
    uint32_t bound;
    uint32_t addr_bits;    /* 32 or 64 */
    spv_inst *ins;
    uint32_t nins;
    uint32_t *def;         /* id -> defining instruction index + 1 */
    const char **name;     /* id -> OpName (NUL-terminated inside w) */
    uint32_t *builtin;     /* id -> BuiltIn + 1 */
    uint8_t *saturate;     /* id -> SaturatedConversion */
    uint8_t *rounding;     /* id -> FPRoundingMode + 1 */
    uint8_t *packed;       /* id -> CPacked (packed struct: no padding) */
    spv_type *types;       /* id -> type info (kind NONE if not a type) */
    uint32_t *members;     /* struct member type ids */
    uint64_t *member_off;  /* struct member offsets */
    uint32_t nmembers;
    uint32_t ocl_import;   /* id of the OpenCL.std import, 0 if none */
    /* ids of debug-information imports (OpenCL.DebugInfo.100, SPIRV.debug,
     * NonSemantic.*), whose OpExtInsts only describe the source: ignored */
    uint32_t debug_import[4];
    uint32_t ndebug_import;
    uint32_t line_file;    /* OpString id of the first OpLine's file, 0 if none */
    spv_entry *entries;
    uint32_t nentries;
    isa_diags *d;
    int errors;
} spv_module;

/* An OpExtInst of a debug-information import (it describes the source and
 * computes nothing; it may stand anywhere in a block, before its OpPhis
 * too). */
bool spv_is_debug_inst(const spv_module *m, const spv_inst *in);

/* Parse and index the module; returns the number of errors. */
int spv_module_parse(spv_module *m, const char *file, const void *data, size_t len,
                     isa_diags *d);
void spv_module_free(spv_module *m);

/* Word i (0 = the opcode word) of instruction `in`, or 0 after recording an
 * error when the instruction is too short. */
uint32_t spv_word(spv_module *m, const spv_inst *in, unsigned i);
/* A literal string starting at word i; NULL (error recorded) if it has no
 * terminating NUL inside the instruction. */
const char *spv_string(spv_module *m, const spv_inst *in, unsigned i, unsigned *words);
/* Record an error at instruction `in` (may be NULL). */
void spv_err(spv_module *m, const spv_inst *in, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* ---- built-in variables (spirv_builtins.c) ---- */
/* The special value that a BuiltIn maps to; ISA_SP_COUNT if none. */
isa_special spv_builtin_special(uint32_t builtin);

/* ---- translation state and the translator's files ---- */

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
    uint8_t *kernel_ids;   /* id -> named by a function the kernel reaches (NULL: all) */
    const spv_inst *cur;
    int depth;
    bool failed;
    /* spirv_printf.c: the private-memory slot printf records are built in */
    uint32_t printf_slot, printf_slot_bytes;
} xctx;

/* spirv_emit.c: emission helpers */
void spv_error(xctx *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
isa_inst *spv_emit(xctx *x, isa_opcode op, isa_type t);
uint32_t spv_reg(xctx *x, unsigned n);
isa_operand spv_R(uint32_t r);
isa_operand spv_I(uint64_t bits);
isa_operand spv_P(uint32_t p, bool neg);
/* Fresh predicate from the rotating pool. */
uint32_t spv_pred(xctx *x, uint32_t *gen);
/* A readable source for component c (materialises address expressions). */
isa_operand spv_src(xctx *x, const xc *c);
/* An image coordinate vector (read_imagev*, sample_imagev*,
 * write_imagev*): components 0..n-1 of value c in four fresh registers
 * of type t (converted from i32 if icvt), the rest 0.  Returns the first. */
uint32_t spv_image_coord(xctx *x, const xval *c, unsigned n, isa_type t, bool icvt);
/* The predicate of a boolean component (compares its register if needed). */
isa_operand spv_predof(xctx *x, const xc *c);
/* Make a boolean component from a predicate just written (adds the 0/1
 * register copy, removed later if nothing reads it). */
void spv_set_bool(xctx *x, xc *c, uint32_t p, uint32_t gen, bool neg);
/* Value of an id (instance first, then module level); NULL + error if none. */
xval *spv_val(xctx *x, xfn *f, uint32_t id);
/* Allocate the value of result id in f. */
xval *spv_def(xctx *x, xfn *f, uint32_t id, unsigned n);
/* A type id's entry, or NULL + error. */
const spv_type *spv_type_lookup(xctx *x, uint32_t id);
/* The type of the value `id` (its defining instruction's result type), or
 * NULL for ids that define no typed value. */
const spv_type *spv_value_type(xctx *x, uint32_t id);
isa_type spv_signed(isa_type t);

/* spirv_emit.c: addresses, labels, registers. */
isa_operand spv_addr_of(xctx *x, const xc *c, isa_space *space);
/* Labels of the translated code: a fresh one, placed at the next
 * instruction; a branch to one (p: its predicate, or NULL) */
uint32_t spv_new_label(xctx *x);
void spv_place_label(xctx *x, uint32_t l);
void spv_emit_bra(xctx *x, const isa_operand *p, uint32_t l);
/* The storage class's isa space, X_SPACE_NONE if it has none. */
isa_space spv_space_of_sc(uint32_t sc);
/* Materialise an address expression into a u64 register. */
isa_operand spv_addr_to_reg(xctx *x, const isa_addr *a);
/* Bytes of type tid, 0 if unknown (spirv_kernel.c). */
uint64_t spv_type_size(xctx *x, uint32_t tid);

/* spirv_cfg.c: control flow.  A phi copy of an edge; parallel copies (all
 * sources read before any is written when they overlap). */
typedef struct xcopy { isa_operand dst, src; isa_type t; } xcopy;
void spv_emit_copies(xctx *x, xcopy *cp, unsigned n);
/* The blocks of instructions [start, end) of an inlined function, in
 * reverse post-order, each dispatched instruction by instruction. */
void spv_translate_body(xctx *x, xfn *f, uint32_t start, uint32_t end);

/* spirv_function.c: inline function func_id with its arguments (entry: the
 * kernel itself, whose return ends the work-item; otherwise returns branch
 * to ret_label with the value in ret). */
void spv_translate_function(xctx *x, uint32_t func_id, xval **args, unsigned nargs,
                          xfn *caller, bool entry, uint32_t ret_label, xval *ret);
/* The instruction index + 1 of function id's OpFunction, 0 if none. */
uint32_t spv_find_function(xctx *x, uint32_t id);
void spv_op_call(xctx *x, xfn *f, const spv_inst *in);
void spv_op_return(xctx *x, xfn *f, const spv_inst *in);

/* spirv_memory.c: the memory instructions. */
void spv_op_access_chain(xctx *x, xfn *f, const spv_inst *in);
void spv_op_load(xctx *x, xfn *f, const spv_inst *in);
void spv_op_store(xctx *x, xfn *f, const spv_inst *in);
void spv_op_atomic(xctx *x, xfn *f, const spv_inst *in);
/* A float atomic_fetch_sub call left as an import: handled (true) or not. */
bool spv_float_atomic_sub_call(xctx *x, xfn *f, const spv_inst *in, const char *nm);
void spv_op_barrier(xctx *x, xfn *f, const spv_inst *in);
void spv_op_fence(xctx *x, xfn *f, const spv_inst *in);
void spv_op_variable(xctx *x, xfn *f, const spv_inst *in);

/* spirv_composite.c: composites of vectors; false if `in` is none. */
bool spv_op_composite(xctx *x, xfn *f, const spv_inst *in);

/* spirv_async.c: OpGroupAsyncCopy, OpGroupWaitEvents; false for others */
bool spv_op_async(xctx *x, xfn *f, const spv_inst *in);
bool spv_alloc_regs(xctx *x, xval *v, const spv_type *t);
isa_type spv_comp_type(const spv_type *t);
uint32_t spv_gather(xctx *x, const xval *v, isa_type t);
/* Store value v (components of type ct; a vector is gathered into consecutive
 * registers first) to address a in space sp: one ST. */
void spv_store_value(xctx *x, const xval *v, isa_type ct, isa_operand a, isa_space sp);
/* Load type t from address a in space sp into v's registers (allocated,
 * consecutive): one LD. */
void spv_load_value(xctx *x, const xval *v, const spv_type *t, isa_operand a, isa_space sp);

/* spirv_image.c: image element access/queries and Intel block I/O. */
bool spv_op_image(xctx *x, xfn *f, const spv_inst *in);
/* OpLoad of a SubgroupEq/Ge/Gt/Le/LtMask built-in (spirv_ops.c); false if
 * `builtin` is none of them */
bool spv_load_group_mask(xctx *x, xfn *f, uint32_t id, uint32_t builtin);

/* spirv_aggregate.c: structs/arrays as values, OpCopyMemory(Sized), constant
 * byte images.  Each hook returns false when `in` is not its case. */
bool spv_is_aggregate(const spv_type *t);
/* Byte offset of constituent i of the struct or array type t; false past
 * the struct's members. */
bool spv_constituent_offset(const spv_module *m, const spv_type *t, unsigned i, uint64_t *o);
bool spv_load_aggregate(xctx *x, xfn *f, const spv_inst *in);
bool spv_store_aggregate(xctx *x, xfn *f, const spv_inst *in);
bool spv_composite_aggregate(xctx *x, xfn *f, const spv_inst *in);
bool spv_init_variable(xctx *x, xfn *f, const xc *var, uint32_t init);
bool spv_op_aggregate(xctx *x, xfn *f, const spv_inst *in);
void spv_copy_bytes(xctx *x, isa_operand d, isa_space ds, isa_operand s, isa_space ss,
                  uint64_t size, uint64_t align);
uint64_t spv_var_align(xctx *x, uint32_t id, uint64_t al);
/* OpLoad / OpStore whose Aligned operand is below the element size (packed
 * structs): accesses of the alignment, combined with shifts. */
bool spv_load_unaligned(xctx *x, xfn *f, const spv_inst *in);
bool spv_store_unaligned(xctx *x, xfn *f, const spv_inst *in);
/* The bytes of constant `id` laid out in `size` bytes (malloc'd), or NULL. */
uint8_t *spv_const_image(xctx *x, uint32_t id, uint64_t size);
/* Kernel parameter `in` of type t passed by value as a vector or struct:
 * fills argument a (a `constant` argument with .byval bytes) and replaces
 * v, the argument operand, by the parameter's value (code at entry).  False
 * when t is neither. */
bool spv_byval_param(xctx *x, const spv_inst *in, const spv_type *t, isa_arg *a, xval *v);

/* spirv_math.c: OpenCL.std pown, rootn, powr (true if `name` is one). */
bool spv_lower_pow(xctx *x, xfn *f, const spv_inst *in, const char *name);
/* spirv_math.c: the *pi forms, lgamma_r, remquo, remainder, s_/u_mad_sat
 * (true if `name` is one). */
bool spv_lower_math(xctx *x, xfn *f, const spv_inst *in, const char *name);
/* Scalar emission helpers: a fresh register rD = op(a[, b]); cvt to `to`
 * from `from`; a fresh predicate a `cond` b; a predicate op of two. */
uint32_t spv_op1(xctx *x, isa_opcode op, isa_type t, isa_operand a);
uint32_t spv_op2(xctx *x, isa_opcode op, isa_type t, isa_operand a, isa_operand b);
uint32_t spv_sel(xctx *x, isa_type t, isa_operand p, isa_operand a, isa_operand b);
uint32_t spv_cvt(xctx *x, isa_type to, isa_type from, isa_operand a);
isa_operand spv_cmp(xctx *x, isa_binop cond, isa_type t, isa_operand a, isa_operand b);
isa_operand spv_pop(xctx *x, isa_opcode op, isa_operand a, isa_operand b);

/* spirv_constdata.c: module-scope UniformConstant variables with an
 * initialiser -> the kernel's .const_data (after the parameters are set). */
bool spv_is_const_var(xctx *x, const spv_inst *in);
void spv_const_vars(xctx *x);

/* spirv_globaldata.c: module-scope CrossWorkgroup variables -> the kernel's
 * .global_data, .global_var and .data_reloc (after spv_const_vars, whose
 * relocations it resolves too). */
bool spv_is_global_var(xctx *x, const spv_inst *in);
void spv_global_vars(xctx *x);
/* Lay out initialiser `id` at buf[off..) (buf holds `size` bytes) of data
 * block argument block_arg: bytes, and relocations for pointers to
 * program-scope variables. */
bool spv_data_image(xctx *x, uint32_t id, uint8_t *buf, uint64_t off, uint64_t size,
                  uint32_t block_arg);
/* One program-scope data block (.const_data or .global_data) and the hidden
 * argument that binds it. */
typedef struct spv_block {
    const char *arg_name;          /* the hidden parameter's name */
    const char *what;              /* "constant" or "global", for messages */
    isa_arg_kind kind;
    isa_space space;
    uint8_t **data;                /* the kernel's block and its size */
    uint32_t *bytes;
    uint32_t *arg;                 /* 1 + the hidden argument's index, 0: none yet */
} spv_block;
/* Place module-scope variable `in` in block b: its bytes (the initialiser,
 * zero without one) and its value, an address [arg + offset].  *t gets its
 * type; false on error. */
bool spv_block_var(xctx *x, const spv_inst *in, const spv_block *b, uint64_t *off,
                   const spv_type **t);

/* spirv_sampler.c: OpConstantSampler (module level), OpSampledImage,
 * OpImageSampleExplicitLod. */
void spv_const_sampler(xctx *x, const spv_inst *in);
bool spv_op_sampler(xctx *x, xfn *f, const spv_inst *in);

/* spirv_extra.c: short exact lowerings of OpenCL.std functions (true if
 * `name` is one) and of relational instructions (true if handled). */
bool spv_lower_extra(xctx *x, xfn *f, const spv_inst *in, const char *name);
bool spv_op_relational(xctx *x, xfn *f, const spv_inst *in);
/* OpBitcast between vectors of different component sizes (as_ulong(uint2)). */
void spv_bitcast_regroup(xctx *x, xfn *f, const spv_inst *in, const xval *s,
                       const spv_type *t, const spv_type *st);
void spv_sat_convert(xctx *x, xfn *f, const spv_inst *in);

/* spirv_printf.c: OpenCL.std printf (always handles `in`). */
bool spv_lower_printf(xctx *x, xfn *f, const spv_inst *in);

/* spirv_vecmem.c: OpenCL.std vloadn/vstoren/vload_half/vstore_half... */
bool spv_op_vecmem(xctx *x, xfn *f, const spv_inst *in, const char *name);

/* spirv_ops.c: arithmetic, compares, conversions, OpenCL.std, and the
 * dispatch to spirv_group.c.  Returns true if the opcode was recognised
 * (errors are reported). */
bool spv_op_alu(xctx *x, xfn *f, const spv_inst *in);
/* Signedness an operation imposes on its integer type: as it is, signed,
 * unsigned. */
enum { SG_T, SG_S, SG_U };
isa_type spv_with_sign(isa_type t, int sg);
/* Result type of `in` (word 1) and its value in f (word 2), with fresh
 * registers; NULL after an error. */
xval *spv_result(xctx *x, xfn *f, const spv_inst *in, const spv_type **tp);
/* The isa type of a value type's components (u32 when it has none). */
isa_type spv_ctype(const spv_type *t);
/* Operand values at words first.. (n of them); false after an error. */
bool spv_operands(xctx *x, xfn *f, const spv_inst *in, unsigned first, unsigned n,
                  xval **v);
/* Component c of v (scalars splat). */
const xc *spv_comp(const xval *v, unsigned c);
/* Per component: rD = op(src...) */
void spv_emit_map(xctx *x, xval *r, const spv_type *t, isa_opcode op, isa_type ty,
                  xval **src, unsigned n);
/* The type of the value operand id (from its defining type). */
const spv_type *spv_type_of_id(xctx *x, uint32_t id);

/* spirv_group.c: OpGroup* and OpGroupNonUniform* (spv_op_group), the Intel
 * sub-group instructions (spv_op_intel_group). */
void spv_op_group(xctx *x, xfn *f, const spv_inst *in);
void spv_op_intel_group(xctx *x, xfn *f, const spv_inst *in);
/* OpFunctionCall of a known imported built-in (sub_group_rotate); true if
 * handled. */
bool spv_call_builtin(xctx *x, xfn *f, const spv_inst *in);

#endif
