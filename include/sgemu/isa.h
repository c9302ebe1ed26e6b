/*
 * isa.h - the program form of sgemu: types, opcodes, operands, decoded
 * instructions and kernels.  Everything here is expanded from the tables in
 * types.def, opcodes.def and specials.def.  isa/ knows nothing of devices or
 * time.
 */
#ifndef SGEMU_ISA_H
#define SGEMU_ISA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---------------------------------------------------------------- types */

typedef enum isa_type {
#define ISA_TYPE(E, asm_name, cl_name, bytes, is_float, is_signed) ISA_T_##E,
#include "types.def"
#undef ISA_TYPE
    ISA_T_COUNT,
    ISA_T_NONE = 0xff
} isa_type;

/* Type masks for the TYPES column of opcodes.def. */
#define ISA_TM(E) (1u << ISA_T_##E)
#define ISA_TM_NONE   0u
#define ISA_TM_INT    (ISA_TM(I8) | ISA_TM(U8) | ISA_TM(I16) | ISA_TM(U16) | \
                       ISA_TM(I32) | ISA_TM(U32) | ISA_TM(I64) | ISA_TM(U64))
#define ISA_TM_FLOAT  (ISA_TM(F16) | ISA_TM(F32) | ISA_TM(F64))
#define ISA_TM_ALL    (ISA_TM_INT | ISA_TM_FLOAT)
#define ISA_TM_INT32  (ISA_TM(I32) | ISA_TM(U32))
/* atom_xchg: 32- and 64-bit integers and every float (atomic_exchange on
 * atomic_float, atomic_double and cl_ext_float_atomics' atomic_half) */
#define ISA_TM_XCHG   (ISA_TM_INT32 | ISA_TM(I64) | ISA_TM(U64) | ISA_TM_FLOAT)
#define ISA_TM_VEC    (1u << 16)   /* vector forms allowed */
#define ISA_TM_ALL_V  (ISA_TM_ALL | ISA_TM_VEC)
#define ISA_TM_BALLOT (ISA_TM_INT32 | ISA_TM_VEC)

typedef struct isa_type_info {
    const char *asm_name;   /* "f32" */
    const char *cl_name;    /* "float" */
    uint8_t bytes;
    bool is_float;
    bool is_signed;
} isa_type_info;

extern const isa_type_info isa_types[ISA_T_COUNT];

/* Parse "f32" or "float" (either spelling); returns ISA_T_NONE if unknown. */
isa_type isa_type_from_name(const char *name, size_t len);

/* -------------------------------------------------------------- opcodes */

typedef enum isa_opcode {
#define ISA_OP(E, mn, shape, pipe, fam, binop, scope, tm, flags) ISA_OP_##E,
#include "opcodes.def"
#undef ISA_OP
    ISA_OP_COUNT
} isa_opcode;

/* Operand shapes: what follows the mnemonic.  D = register destination,
 * S = source (register, immediate, argument or special), P = predicate,
 * ID = 1 to 3 sources (work-group broadcast local ids).  MB_LD / MB_ST:
 * media block I/O, the image, its (x, y) coordinate pair rC..rC+1, the
 * block's width and height, then (MB_ST) the data.
 * X(SHAPE, pattern, min, nsrc): the pattern letters the assembler and
 * validator check (isa/opnd.c: d destination, s source, P/q predicate
 * written/read, a address, i image, l label), how many operands are
 * required (the rest of the pattern is optional), and how many value
 * sources a lane-wise row of the shape reads after its destination (0 for
 * shapes that are no destination plus value sources). */
#define ISA_SHAPES(X) \
    X(NONE, "", 0, 0)          X(D, "d", 1, 0)            X(D_S, "ds", 2, 1) \
    X(D_S_S, "dss", 3, 2)      X(D_S_S_S, "dsss", 4, 3)   X(D_S_ID, "dssss", 3, 0) \
    X(P_S_S, "Pss", 3, 0)      X(D_P_S_S, "dqss", 4, 0)   X(P_P_P, "Pqq", 3, 0) \
    X(P_P, "Pq", 2, 0)         X(LD, "da", 2, 0)          X(ST, "as", 2, 0) \
    X(ATOM, "das", 3, 0)       X(ATOM2, "dass", 4, 0)     X(BRA, "ql", 1, 0) \
    X(BLK_LD, "da", 2, 0)      X(BLK_ST, "as", 2, 0)      X(IMG_LD, "diss", 4, 0) \
    X(IMG_ST, "isss", 4, 0)    X(IMG_Q, "di", 2, 0)       X(IMG_SMP, "disss", 5, 0) \
    X(IMGV_LD, "dis", 3, 0)    X(IMGV_SMP, "diss", 4, 0)  X(PRINTF, "dss", 3, 0) \
    X(IMGV_ST, "iss", 3, 0)    X(MB_LD, "disss", 5, 0)    X(MB_ST, "issss", 5, 0)

typedef enum isa_shape {
#define X(s, pat, min, nsrc) ISA_SHAPE_##s,
    ISA_SHAPES(X)
#undef X
    ISA_SHAPE_COUNT
} isa_shape;

/* The value sources a lane-wise row of shape s reads (1 to 3; 0 for the
 * other shapes). */
static inline unsigned isa_shape_sources(isa_shape s)
{
    switch (s) {
#define X(e, pat, min, nsrc) case ISA_SHAPE_##e: return nsrc;
    ISA_SHAPES(X)
#undef X
    default: return 0;
    }
}

/* Media block I/O (cl_intel_media_block_io, Table 6.X): the most rows a
 * block of `width_bytes` bytes per row may have; 0 if that width is not
 * allowed (a multiple of 4 bytes, 4 to 32). */
static inline unsigned isa_media_block_max_rows(unsigned width_bytes)
{
    if (width_bytes == 0 || width_bytes % 4 || width_bytes > 32)
        return 0;
    return width_bytes == 4 ? 64 : width_bytes == 8 ? 32 : width_bytes <= 16 ? 16 : 8;
}

/* The registers operand j of a media block row (shape MB_LD or MB_ST)
 * names: the data's vec, the (x, y) coordinate pair 2, width and height 1. */
static inline unsigned isa_media_block_regs(isa_shape s, unsigned j, unsigned vec)
{
    const unsigned coord = s == ISA_SHAPE_MB_LD ? 2 : 1, data = s == ISA_SHAPE_MB_LD ? 0 : 4;
    return j == data ? vec : j == coord ? 2 : 1;
}

/* Pipe / unit classes that the timing model charges. */
#define ISA_PIPES(X) \
    X(ALU) X(TRANS) X(MOV) X(CVT) X(MEM) X(ATOMIC) X(BRANCH) X(SYNC) \
    X(COLL) X(BLOCK)

typedef enum isa_pipe {
#define X(p) ISA_PIPE_##p,
    ISA_PIPES(X)
#undef X
    ISA_PIPE_COUNT
} isa_pipe;

/* What an opcode computes.  ALU rows name their operation; collective rows
 * name their family. */
#define ISA_FAMILIES(X) \
    X(ADD) X(SUB) X(MUL) X(MUL_HI) X(MAD) X(FMA) X(DIV) X(REM) X(MIN) X(MAX) \
    X(ABS) X(NEG) X(AND) X(OR) X(XOR) X(NOT) X(SHL) X(SHR) X(CLZ) X(POPCOUNT) \
    X(SQRT) X(RSQRT) X(RCP) X(EXP2) X(LOG2) X(SIN) X(COS) \
    X(MOV) X(CMP) X(SEL) X(CVT) X(PAND) X(POR) X(PXOR) X(PNOT) \
    X(LD) X(ST) X(ATOM) X(BRA) X(RET) X(NOP) X(BARRIER) \
    X(ALL) X(ANY) X(ALL_EQUAL) X(ELECT) X(BCAST) X(BCAST_FIRST) \
    X(REDUCE) X(SCAN_INC) X(SCAN_EXC) \
    X(SHUFFLE) X(SHUFFLE_XOR) X(SHUFFLE_UP) X(SHUFFLE_DOWN) \
    X(SHUFFLE_UP2) X(SHUFFLE_DOWN2) X(ROTATE) \
    X(BALLOT) X(INVERSE_BALLOT) X(BALLOT_BIT_EXTRACT) X(BALLOT_BIT_COUNT) \
    X(BALLOT_INC_SCAN) X(BALLOT_EXC_SCAN) X(BALLOT_FIND_LSB) X(BALLOT_FIND_MSB) \
    X(LANE_MASK) \
    X(BLOCK_READ) X(BLOCK_WRITE) X(IMG_READ) X(IMG_WRITE) X(IMG_QUERY) \
    X(PRINTF) \
    ISA_MATH_FAMILIES(X)

/* Elementary functions beyond sin/cos/exp2/log2 that lanes/math.c computes
 * with the C library (one opcodes.def row each, TRANS pipe, ISA_OPF_MATH). */
#define ISA_MATH_FAMILIES(X) \
    X(ATAN) X(ASIN) X(ACOS) X(SINH) X(COSH) X(TANH) X(ASINH) X(ACOSH) \
    X(ATANH) X(EXPM1) X(LOG1P) X(ERF) X(ERFC) X(TGAMMA) X(LGAMMA) X(CBRT) \
    X(EXP) X(EXP10) X(LOG) X(LOG10) \
    X(ATAN2) X(HYPOT) X(POW) X(ROOTN)

typedef enum isa_family {
#define X(f) ISA_FAM_##f,
    ISA_FAMILIES(X)
#undef X
    ISA_FAM_COUNT
} isa_family;

/* Combining operators (reduce/scan/atomics) and compare conditions. */
#define ISA_BINOPS(X) \
    X(NONE) X(ADD) X(SUB) X(MUL) X(MIN) X(MAX) X(AND) X(OR) X(XOR) \
    X(LAND) X(LOR) X(LXOR) X(XCHG) X(CMPXCHG) \
    X(EQ) X(NE) X(LT) X(LE) X(GT) X(GE)

typedef enum isa_binop {
#define X(b) ISA_BINOP_##b,
    ISA_BINOPS(X)
#undef X
    ISA_BINOP_COUNT
} isa_binop;

#define ISA_SCOPES(X) X(NONE) X(SG) X(WG) X(NU) X(CL)
typedef enum isa_scope {
#define X(s) ISA_SCOPE_##s,
    ISA_SCOPES(X)
#undef X
    ISA_SCOPE_COUNT
} isa_scope;

/* The FLAGS column of opcodes.def: what the engine, the validator and the
 * passes ask of an opcode (ISA_OPF_*; ISA_F_* are an instruction's
 * modifier flags).  Ask through the isa_op_*() lookups below. */
#define ISA_OPF_XLANE   (1u << 0) /* reads other lanes: a collective or block I/O
                                     (executed by collectives/, not lane by lane) */
#define ISA_OPF_PURE    (1u << 1) /* no side effect, cannot fault: removable when
                                     its result is unused */
#define ISA_OPF_WG_SYNC (1u << 2) /* every sub-group of the work-group must reach
                                     it (the barrier, work-group collectives) */
#define ISA_OPF_ARITH   (1u << 3) /* arithmetic: takes a rounding modifier */
#define ISA_OPF_MATH    (1u << 4) /* an elementary function lanes/math.c computes
                                     with the C library */
#define ISA_OPF_IMUL    (1u << 5) /* on integers, a multiply(-add): the timing model
                                     runs it on int's alternate pipe where the
                                     config names one (pipes.int_mad.alternate_of) */
#define ISA_OPF_IADD    (1u << 6) /* on integers, an add or subtract: either integer
                                     pipe where int has an alternate */

typedef struct isa_op_info {
    const char *mnemonic;
    isa_shape shape;
    isa_pipe pipe;
    isa_family family;
    isa_binop binop;
    isa_scope scope;
    uint32_t types;        /* ISA_TM_* mask */
    uint32_t flags;        /* ISA_F_* */
} isa_op_info;

extern const isa_op_info isa_ops[ISA_OP_COUNT];
extern const char *const isa_shape_names[ISA_SHAPE_COUNT];
extern const char *const isa_pipe_names[ISA_PIPE_COUNT];
extern const char *const isa_family_names[ISA_FAM_COUNT];
extern const char *const isa_binop_names[ISA_BINOP_COUNT];
extern const char *const isa_scope_names[ISA_SCOPE_COUNT];

static inline bool isa_op_cross_lane(unsigned op) { return isa_ops[op].flags & ISA_OPF_XLANE; }
static inline bool isa_op_pure(unsigned op) { return isa_ops[op].flags & ISA_OPF_PURE; }
static inline bool isa_op_wg_sync(unsigned op) { return isa_ops[op].flags & ISA_OPF_WG_SYNC; }
static inline bool isa_op_arith(unsigned op) { return isa_ops[op].flags & ISA_OPF_ARITH; }
static inline bool isa_op_math(unsigned op) { return isa_ops[op].flags & ISA_OPF_MATH; }
static inline bool isa_op_imul(unsigned op) { return isa_ops[op].flags & ISA_OPF_IMUL; }
static inline bool isa_op_iadd(unsigned op) { return isa_ops[op].flags & ISA_OPF_IADD; }
/* Block I/O (execution class BLOCK): collectives/block_io.c */
static inline bool isa_op_block_io(unsigned op) { return isa_ops[op].pipe == ISA_PIPE_BLOCK; }
/* Runs lane by lane, each lane's result from that lane's sources (the
 * ALU, transcendental, move and conversion pipes). */
static inline bool isa_op_lanewise(unsigned op)
{
    const isa_pipe p = isa_ops[op].pipe;
    return p == ISA_PIPE_ALU || p == ISA_PIPE_TRANS || p == ISA_PIPE_MOV || p == ISA_PIPE_CVT;
}

/* IEEE binary64 -> binary16 bits, round to nearest even (isa/opnd.c): the
 * one binary16 rounding, used by the assembler and by lanes/. */
uint16_t isa_f64_to_f16(double x);
/* binary16 bits -> double (exact). */
double isa_f16_to_f64(uint16_t h);

/* Look up a mnemonic (exact, case-sensitive); ISA_OP_COUNT if unknown. */
isa_opcode isa_opcode_from_name(const char *name, size_t len);

/* ------------------------------------------------------------- specials */

typedef enum isa_special {
#define ISA_SPECIAL(E, name, dim, uni) ISA_SP_##E,
#include "specials.def"
#undef ISA_SPECIAL
    ISA_SP_COUNT
} isa_special;

typedef struct isa_special_info {
    const char *name;
    bool takes_dim;
    bool sg_uniform;        /* the same in every lane of a sub-group */
} isa_special_info;

extern const isa_special_info isa_specials[ISA_SP_COUNT];

/* -------------------------------------------------------- address spaces */

#define ISA_SPACES(X) X(GLOBAL, "global") X(CONSTANT, "constant") \
                      X(LOCAL, "local") X(PRIVATE, "private") X(IMAGE, "image")
typedef enum isa_space {
#define X(E, n) ISA_SPACE_##E,
    ISA_SPACES(X)
#undef X
    ISA_SPACE_COUNT
} isa_space;
extern const char *const isa_space_names[ISA_SPACE_COUNT];

/* ------------------------------------------------------------- operands */

typedef enum isa_opnd_kind {
    ISA_OPND_NONE = 0,
    ISA_OPND_REG,      /* rN: per-lane register (vector: N..N+vec-1)      */
    ISA_OPND_PRED,     /* pN: per-lane predicate (one bit per lane)       */
    ISA_OPND_IMM,      /* immediate, bits already in the operand's type    */
    ISA_OPND_ARG,      /* %name: kernel argument (value or base address)  */
    ISA_OPND_SPECIAL,  /* %global_id.x etc.                               */
    ISA_OPND_ADDR,     /* [base + index*scale + disp]                     */
    ISA_OPND_LABEL     /* branch target (instruction index in .target)    */
} isa_opnd_kind;

/* Address operand: base is a register (holding a 64-bit address) or an
 * argument; optional index register scaled by a constant; byte offset. */
typedef struct isa_addr {
    uint8_t base_kind;     /* ISA_OPND_REG or ISA_OPND_ARG */
    uint8_t has_index;
    uint16_t base;         /* register number or argument index */
    uint16_t index;        /* index register number */
    uint16_t index_type;   /* type the index register is read as (i32/u32/i64/u64) */
    int32_t scale;         /* bytes per index step */
    int64_t disp;          /* byte displacement */
} isa_addr;

typedef struct isa_operand {
    uint8_t kind;          /* isa_opnd_kind */
    uint8_t negate;        /* predicate operand written !pN */
    uint8_t dim;           /* special: 0..2 */
    uint8_t pad;
    uint16_t reg;          /* REG / PRED number, ARG index, SPECIAL id */
    uint16_t pad2;
    uint64_t imm;          /* IMM: value bits in the operand type, zero-extended */
    isa_addr addr;         /* ADDR */
} isa_operand;

#define ISA_MAX_OPNDS 5

/* Modifier flags of an instruction (isa_inst.flags). */
enum {
    ISA_F_SAT        = 1u << 0,   /* cvt: saturate */
    ISA_F_RND_SHIFT  = 1,         /* bits 1-3: rounding mode (isa_round) */
    ISA_F_RND_MASK   = 7u << 1,
    ISA_F_FENCE_LOCAL  = 1u << 4, /* barrier fence flags */
    ISA_F_FENCE_GLOBAL = 1u << 5,
    ISA_F_FENCE_IMAGE  = 1u << 6,
    ISA_F_UNIFORM    = 1u << 7,   /* bra.uni: asserted uniform branch */
    ISA_F_CLAMP      = 1u << 8,   /* image reads: clamp-to-edge sampler */
    ISA_F_ATOMIC     = 1u << 9,   /* ld, st: an atomic load or store (the
                                     race detector's business only) */
    /* the memory order and scope of an atomic, and of a fence (a nop
     * with them and fence flags): the race detector's business only */
    ISA_F_ACQUIRE    = 1u << 10,
    ISA_F_RELEASE    = 1u << 11,
    ISA_F_SCOPE_WG   = 1u << 12,  /* work-group scope (neither: device) */
    ISA_F_SCOPE_SG   = 1u << 13,  /* sub-group scope */
    ISA_F_ANYSIGN    = 1u << 14   /* integer image reads and writes: the
                                     signedness is the image's (SPIR-V
                                     that says neither SignExtend nor
                                     ZeroExtend) */
};

#define ISA_ROUNDS(X) X(DEFAULT, "") X(RTE, "rte") X(RTZ, "rtz") X(RTP, "rtp") X(RTN, "rtn")
typedef enum isa_round {
#define X(E, n) ISA_RND_##E,
    ISA_ROUNDS(X)
#undef X
    ISA_RND_COUNT
} isa_round;
extern const char *const isa_round_names[ISA_RND_COUNT];

/* A decoded instruction: fixed size, everything resolved. */
typedef struct isa_inst {
    uint16_t op;           /* isa_opcode */
    uint8_t type;          /* element type (isa_type), ISA_T_NONE if none */
    uint8_t vec;           /* vector components, 1 for scalars */
    uint8_t src_type;      /* cvt: source type; otherwise = type */
    uint8_t space;         /* memory ops: isa_space */
    uint8_t cond;          /* cmp: isa_binop EQ..GE */
    uint8_t nopnd;
    uint16_t flags;        /* ISA_F_* */
    uint16_t pad;
    uint32_t target;       /* BRA: target instruction index */
    uint32_t reconv;       /* BRA: reconvergence point (immediate post-dominator);
                              ISA_PC_EXIT if the paths only meet at exit */
    uint32_t line, col;    /* source position of the mnemonic (1-based); line 0:
                              none (a SPIR-V instruction no OpLine covers),
                              col then holds that instruction's number */
    isa_operand o[ISA_MAX_OPNDS];
} isa_inst;

#define ISA_PC_EXIT 0xffffffffu

/* --------------------------------------------------------- kernel args */

typedef enum isa_arg_kind {
    ISA_ARG_SCALAR,        /* by-value scalar of .type */
    ISA_ARG_GLOBAL,        /* __global pointer to .type */
    ISA_ARG_CONSTANT,      /* __constant pointer to .type */
    ISA_ARG_LOCAL,         /* __local pointer; size given at launch */
    ISA_ARG_IMAGE2D        /* image2d_t */
} isa_arg_kind;

typedef struct isa_arg {
    char name[64];
    uint8_t kind;          /* isa_arg_kind */
    uint8_t type;          /* element type (scalars and pointees) */
    uint8_t access;        /* images: 0 read_write, 1 read_only, 2 write_only */
    uint8_t align_log2;    /* local pointers: log2 of the pointee's alignment
                              (the engine aligns the block to at least 16) */
    uint8_t dims;          /* images: 1, 2 (or 0) or 3 coordinates besides
                              the layer (ISA_IMAGE_TYPES) */
    uint8_t arrayed;       /* images: an array (image1d_array_t, image2d_array_t) */
    uint8_t img_buffer;    /* images: image1d_buffer_t */
    uint32_t line;
    /* A vector or struct passed by value is a `constant` argument (kind
     * ISA_ARG_CONSTANT) whose bytes the user gives as a buffer, in the
     * OpenCL host layout; the kernel reads its components from there. */
    uint32_t byval;        /* its bytes (a float3 takes 16); 0: not by value */
    uint8_t byval_vec;     /* vectors: components (2, 3, 4, 8, 16); 0: a struct */
    char cl_type[47];      /* OpenCL type as written ("float4", "struct S") */
} isa_arg;

/* OpenCL C image types: X(ENUM, .arg spelling (OpenCL C's with "_t"),
 * coordinates besides the layer, arrayed, a view of a buffer). */
#define ISA_IMAGE_TYPES(X) \
    X(1D, "image1d", 1, 0, 0) X(1D_BUFFER, "image1d_buffer", 1, 0, 1) \
    X(1D_ARRAY, "image1d_array", 1, 1, 0) X(2D, "image2d", 2, 0, 0) \
    X(2D_ARRAY, "image2d_array", 2, 1, 0) X(3D, "image3d", 3, 0, 0)

/* The .arg spelling of an image of dims (0 reads as 2), arrayed, buffer;
 * NULL for no such type. */
const char *isa_image_type_name(unsigned dims, bool arrayed, bool buffer);

#define ISA_MAX_ARGS 64
/* Registers a kernel names and runs with (r0..r4095), and the value
 * registers a kernel may have before sgemu allocates them (`.regalloc`,
 * compiled OpenCL C / SPIR-V: one per SSA value, so large unrolled
 * kernels have thousands; an operand holds 16 bits). */
#define ISA_MAX_REGS 4096
#define ISA_MAX_VALUES 65535
#define ISA_MAX_PREDS 64

/* A kernel: the output of the assembler (or the SPIR-V front end). */
typedef struct isa_kernel {
    char name[64];
    char file[256];        /* source file, for diagnostics */
    uint32_t reqd_sg_size; /* 0 if not required */
    uint32_t reqd_wg[3];   /* reqd_work_group_size (OpExecutionMode LocalSize); 0s if none */
    uint32_t local_mem;    /* static local memory bytes */
    uint32_t private_mem;  /* private memory bytes per work-item */
    uint32_t narg;
    isa_arg args[ISA_MAX_ARGS];
    uint32_t ninst;
    isa_inst *inst;        /* owned */
    uint32_t nreg;         /* registers r0..nreg-1 used */
    uint32_t npred;        /* predicates p0..npred-1 used */
    uint8_t *reg_bytes;    /* per register: widest type written or read (bytes) */
    uint32_t grf_bytes_per_lane; /* sum of reg_bytes + predicates: GRF demand */
    /* .const_data: program-scope constant bytes (SPIR-V module-scope
     * UniformConstant variables), bound read-only at launch to argument
     * const_arg - 1, a `constant u8` argument the user does not pass. */
    uint32_t const_arg;    /* argument index + 1; 0 if the kernel has none */
    uint32_t const_bytes;
    uint8_t *const_data;   /* owned */
    /* .global_data: the initial bytes of program-scope global variables
     * (SPIR-V module-scope CrossWorkgroup variables), bound at every launch
     * to a fresh writable copy as argument global_arg - 1, a `global u8`
     * argument the user does not pass.  .data_reloc entries patch addresses
     * into the copies; .global_var names the variables inside the block. */
    uint32_t global_arg;   /* argument index + 1; 0 if the kernel has none */
    uint32_t global_bytes;
    uint8_t *global_data;  /* owned: initial bytes (never written by a run) */
    uint32_t nreloc;
    struct isa_reloc *relocs;  /* owned */
    uint32_t ngvar;
    struct isa_gvar *gvars;    /* owned */
    /* A kernel IGC compiled (isa/gen/gen.h): when set, inst is empty and
     * the engine executes this program form instead (emu/gen/). */
    struct gen_program *gen;   /* owned */
    uint8_t regalloc;      /* isa_ra_state: how the registers are to be read */
    uint8_t compiled;      /* translated from SPIR-V: the allocator may reorder
                              it (isa/presched.c); hand-written code never */
    /* .printf: the format strings of the kernel's printf calls; the printf
     * instruction names one by its index (isa/printf.c, docs/isa.md). */
    uint32_t nprintf;
    struct isa_printf_fmt *printf_fmts;  /* owned */
} isa_kernel;

/* isa_kernel.regalloc: explicit registers (hand-written .sgasm), values that
 * sgemu_run allocates for the launch's width (the SPIR-V front end, .sgasm
 * with .regalloc), or the output of isa_regalloc. */
typedef enum isa_ra_state {
    ISA_RA_EXPLICIT = 0,
    ISA_RA_VALUES = 1,
    ISA_RA_DONE = 2
} isa_ra_state;

/* A printf format string (no NUL inside) and the bytes of its argument
 * record, as isa_printf_parse lays it out. */
typedef struct isa_printf_fmt {
    char *text;            /* owned, NUL-terminated */
    uint32_t len;
    uint32_t rec_bytes;
} isa_printf_fmt;

/* Length modifiers of an OpenCL C printf conversion. */
enum { ISA_PF_LEN_NONE, ISA_PF_LEN_HH, ISA_PF_LEN_H, ISA_PF_LEN_HL, ISA_PF_LEN_L };
/* Flags of a conversion, as bits. */
enum { ISA_PF_MINUS = 1, ISA_PF_PLUS = 2, ISA_PF_SPACE = 4, ISA_PF_HASH = 8, ISA_PF_ZERO = 16 };

/* One piece of a printf format: literal text (conv 0) or a conversion
 * specification; the value it prints sits at `off` in the argument record:
 * `vec` components of `elem_bytes` each (integers, a double for a scalar
 * float conversion, the 64-bit pointer of %s and %p). */
typedef struct isa_printf_conv {
    uint32_t pos, len;     /* the bytes of the piece in the format */
    char conv;             /* d i o u x X f F e E g G a A c s p %, or 0: text */
    uint8_t flags;         /* ISA_PF_* */
    uint8_t lenmod;        /* ISA_PF_LEN_* */
    uint8_t vec;           /* 1, or the vector specifier's n */
    uint8_t elem_bytes;    /* 0 for text and %% */
    bool elem_float;
    int32_t width, prec;   /* -1: none; -2: '*', an int argument before the value */
    uint32_t off;          /* record offset of the value */
    uint32_t width_off, prec_off;   /* record offsets of the '*' arguments */
} isa_printf_conv;

/* Arguments piece c takes: its '*' widths and precisions, then its value. */
static inline unsigned isa_printf_nargs(const isa_printf_conv *c)
{
    return (c->width == -2) + (c->prec == -2) + (c->elem_bytes != 0);
}

/* Split format fmt[0..len) into pieces (at most max into out, which may be
 * NULL) by the OpenCL C printf rules (OpenCL C 3.0, 6.15.14); *rec_bytes
 * gets the record size.  Returns the number of pieces, or -1 with the
 * reason in err. */
int isa_printf_parse(const char *fmt, size_t len, isa_printf_conv *out, unsigned max,
                     uint32_t *rec_bytes, char *err, size_t errn);
/* Add format fmt to k's table (the index of an equal one if present);
 * -1 with err set when it does not parse, -2 when out of memory. */
int isa_printf_add(isa_kernel *k, const char *fmt, size_t len, char *err, size_t errn);

/* A pointer inside a data block whose value is only known at launch: the
 * 8 bytes at `offset` of block argument `arg` (the .global_data or
 * .const_data argument) hold the address of block argument `target` plus
 * `addend`, written little-endian into the run's copy of the block. */
typedef struct isa_reloc {
    uint32_t arg;          /* argument index of the block holding the pointer */
    uint32_t offset;       /* byte offset of the pointer in that block */
    uint32_t target;       /* argument index of the block pointed into */
    uint32_t pad;
    int64_t addend;        /* byte offset inside the target block */
} isa_reloc;

/* A named program-scope global variable inside .global_data (for
 * `sgemu run --out NAME`): `bytes` at `offset`, printed as `type`. */
typedef struct isa_gvar {
    char name[64];
    uint32_t offset, bytes;
    uint8_t type;          /* isa_type of the elements */
} isa_gvar;

void isa_kernel_free(isa_kernel *k);

/* ------------------------------------------------------- diagnostics */

/* Every assembler/validator message: file:line:col: error: text */
typedef struct isa_diag {
    uint32_t line, col;
    char msg[240];
} isa_diag;

typedef struct isa_diags {
    char file[256];
    uint32_t count;
    uint32_t cap;
    isa_diag *items;
} isa_diags;

void isa_diags_add(isa_diags *d, uint32_t line, uint32_t col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void isa_diags_print(const isa_diags *d, void *stdio_file);
void isa_diags_free(isa_diags *d);

/* --------------------------------------------------------- entry points */

/* Assemble source text.  Returns 0 and fills *k on success; otherwise returns
 * the number of errors, all recorded in *diags (never stops at the first). */
int isa_assemble(const char *file, const char *src, size_t len,
                 isa_kernel *k, isa_diags *diags);

/* Validate a kernel built by any front end (operand shapes, types, register
 * ranges, branch targets) and compute reconvergence points and register
 * counts.  Returns the number of errors. */
int isa_validate(isa_kernel *k, isa_diags *diags);

/* Compute .reconv of every BRA from the CFG (immediate post-dominators). */
void isa_compute_reconvergence(isa_kernel *k);

/* Print a kernel as .sgasm text that reassembles to the identical kernel.
 * Returns a malloc'd string. */
char *isa_disassemble(const isa_kernel *k);

/* Register allocation (isa/regalloc.c, docs/regalloc.md).  budget_bytes:
 * GRF bytes per lane the live set must fit (0: no limit, no spill code);
 * no_remat: spill every value that must go, recompute none (A/B);
 * math_temps: what each elementary function adds to the demand while it
 * runs. */
/* Temporaries an elementary function (ISA_OPF_MATH) holds while it runs,
 * in bytes per lane, per opcode and float type ([0] f16, [1] f32, [2] f64):
 * what the device compiler's inlined math library keeps in registers
 * beyond the function's operands (docs/regalloc.md, Elementary functions). */
/* shared: what the device compiler keeps live from one elementary function
 * into a later one of the same operands (its value numbering computes their
 * common terms once, in the first): per pair of opcodes (either order) and
 * float type, each term the pair shares, numbered so that pairs sharing one
 * value name the same term, and its bytes per lane. */
typedef struct isa_math_shared {
    uint16_t op_a, op_b;    /* opcodes, or ISA_MATH_POWN */
    uint16_t term;
    uint8_t type;           /* 0 f16, 1 f32, 2 f64 */
    uint8_t bytes;
} isa_math_shared;

/* pown in isa_math_shared: sgemu runs it as ISA_OP_POW of an exponent
 * converted from an integer, the device compiler as a body of its own */
#define ISA_MATH_POWN ISA_OP_COUNT

typedef struct isa_math_temps {
    uint16_t bytes[ISA_OP_COUNT][3];
    const isa_math_shared *shared;
    uint32_t nshared;
} isa_math_temps;

typedef struct isa_ra_opts {
    uint32_t budget_bytes;
    uint32_t width;             /* sub-group width; 0: uniform values count per lane */
    bool no_remat;
    const isa_math_temps *math_temps;   /* NULL: elementary functions need none */
    /* Scheduling for pressure (isa/presched.c), compiled kernels only: a
     * block whose live set exceeds presched_bytes per lane is reordered,
     * and the order kept if its peak falls by presched_gain_bytes or more.
     * 0: never.  presched_all: every block of a compiled kernel is
     * reordered and kept, whatever its live set (A/B tests). */
    uint32_t presched_bytes, presched_gain_bytes;
    bool presched_all;
    bool scalar_broadcast;      /* a broadcast from a uniform lane is uniform */
    /* A vector store's components computed more than this many estimated
     * vISA instructions before it are held twice (IGC's payload copies that
     * def hoisting does not fold; docs/regalloc.md).  0: never. */
    uint32_t payload_fold_distance;
    /* Bytes a buffer's index register counts at most when the device
     * compiler addresses buffers by 32-bit surface offsets (4); 0: its type
     * (docs/regalloc.md, Buffer offsets). */
    uint32_t buffer_offset_bytes;
    /* Recompute as vISA does: one instruction whose register sources are
     * live at every read, no work-item query (docs/regalloc.md). */
    bool remat_live_sources;
    /* A two-source shuffle holds a 2W-lane copy of its component and a
     * dword lane index while it runs (docs/regalloc.md). */
    bool shuffle2_temps;
    /* From this width (0: never) a vector store of shuffle results holds
     * its payload block as well as the results: the results are copied
     * into it, not computed there (docs/regalloc.md, Xe-HPC). */
    uint32_t payload_copy_width;
} isa_ra_opts;

typedef struct isa_ra_stats {
    uint32_t regs_before, preds_before;  /* registers the input names */
    uint32_t bytes_before;       /* input GRF demand (widest use of every register) */
    uint32_t live_bytes_before;  /* most bytes per lane live at once, before spilling */
    uint32_t regs_after, preds_after;    /* physical registers of the output */
    uint32_t live_bytes;         /* most bytes per lane live at once: the demand */
    uint32_t spilled_values;     /* values moved to private memory */
    uint32_t spill_bytes;        /* their slots, bytes per work-item */
    uint32_t spill_stores, spill_fills;  /* spill instructions in the stream */
    uint32_t remat_values;       /* values recomputed at their reads instead */
    uint32_t remat_insts;        /* the recomputing instructions in the stream */
    uint32_t pinned;             /* values kept apart (cross-lane reads, divergence) */
    uint32_t presched_blocks;    /* blocks reordered for pressure (presched.c) */
} isa_ra_stats;

/* Allocate the registers of validated kernel `in` into *out: a copy that
 * shares in's data blocks and owns new instructions and register widths
 * (free those with isa_regalloc_free).  Returns 0, or the number of errors
 * recorded in *diags (then *out owns nothing). */
int isa_regalloc(const isa_kernel *in, const isa_ra_opts *opts, isa_kernel *out,
                 isa_ra_stats *st, isa_diags *diags);
void isa_regalloc_free(isa_kernel *k);

/* Register pressure of an allocated kernel, from the allocator's own
 * liveness (docs/regalloc.md, Demand; `sgemu spv2asm --pressure`).  One
 * value live at an instruction: its register after allocation (the first
 * of a block; a predicate's number), the bytes per lane it counts there
 * (a block: its live registers; a uniform value: its bytes, which the
 * demand counts once per thread) and the source line of its first write
 * (0: none, e.g. a kernel argument). */
typedef struct isa_ra_live_value {
    uint32_t reg, nregs;
    uint32_t bytes;
    uint32_t line;
    uint8_t pred, uniform;
    uint8_t dead;           /* written by this instruction and read nowhere after */
} isa_ra_live_value;

/* bytes[pc]: what the demand counts at instruction pc of the allocated
 * kernel (live into it, or out of it with what it writes, plus temps[pc]:
 * an elementary function's temporaries, a message's uniform payload, a
 * two-source shuffle's copy, terms kept between elementary functions and
 * payload copies); the demand (isa_ra_stats.live_bytes) is their maximum.
 * For each instruction where the maximum is reached (peak_pc, npeak of
 * them): the values counted there, peak_live[peak_first[i] ..
 * peak_first[i + 1]). */
typedef struct isa_ra_pressure {
    uint32_t ninst;
    uint32_t *bytes, *temps;
    uint32_t peak, npeak;
    uint32_t *peak_pc, *peak_first;
    isa_ra_live_value *peak_live;
} isa_ra_pressure;

/* isa_regalloc that also fills *pr (free it with isa_ra_pressure_free);
 * the allocation is the same. */
int isa_regalloc_pressure(const isa_kernel *in, const isa_ra_opts *opts, isa_kernel *out,
                          isa_ra_stats *st, isa_diags *diags, isa_ra_pressure *pr);
void isa_ra_pressure_free(isa_ra_pressure *pr);

/* Print one instruction (no newline) into buf. */
int isa_format_inst(const isa_kernel *k, const isa_inst *in, char *buf, size_t n);
/* Where an instruction came from, for messages: "FILE:LINE", or, without a
 * source line, "FILE, SPIR-V instruction N (no source line)". */
void isa_inst_where(const isa_kernel *k, const isa_inst *in, char *buf, size_t n);

#endif
