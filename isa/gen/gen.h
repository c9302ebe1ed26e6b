/*
 * gen.h - Intel Gen ISA kernels as IGC builds them: the second program form
 * beside sgemu's own ISA (isa.h).  gen_load reads ocloc's zebin (an ELF with
 * the kernel's code in .text.<name> and its payload description in the
 * .ze_info YAML section), decodes every instruction with Intel's libiga64
 * (gen_iga.h) and fills an isa_kernel whose `gen` field points here.  The
 * engine (emu/gen/) executes it on the one memory system of emu/.
 * docs/gen.md documents every field read and where it comes from.
 */
#ifndef SGEMU_GEN_H
#define SGEMU_GEN_H

#include "gen_iga.h"
#include "isa.h"

#include <stddef.h>
#include <stdint.h>

typedef enum gen_op {
#define X(E, m, c) GEN_OP_##E,
#include "gen_ops.def"
#undef X
    GEN_OP_COUNT,
    GEN_OP_UNKNOWN = GEN_OP_COUNT   /* decoded by IGA, not executed by sgemu */
} gen_op;

typedef enum gen_class { GEN_CLASS_ALU, GEN_CLASS_CMP, GEN_CLASS_SEND, GEN_CLASS_FLOW,
                         GEN_CLASS_NOP } gen_class;

typedef struct gen_op_info {
    const char *mnemonic;
    uint8_t cls;           /* gen_class */
} gen_op_info;
extern const gen_op_info gen_ops[GEN_OP_COUNT];

/* Element types: the values of IGA's iga::Type (gen_iga.h GEN_IGA_TYPES). */
typedef enum gen_type {
#define X(E, n, b) GEN_T_##E,
    GEN_IGA_TYPES(X)
#undef X
    GEN_T_COUNT
} gen_type;
extern const char *const gen_type_names[GEN_T_COUNT];
extern const uint8_t gen_type_bytes[GEN_T_COUNT];

/* Register files (IGA's iga::RegName values). */
typedef enum gen_file {
    GEN_FILE_NONE = 0, GEN_FILE_NULL, GEN_FILE_A, GEN_FILE_ACC, GEN_FILE_MME,
    GEN_FILE_F, GEN_FILE_CE, GEN_FILE_MSG, GEN_FILE_SP, GEN_FILE_SR, GEN_FILE_CR,
    GEN_FILE_N, GEN_FILE_IP, GEN_FILE_TDR, GEN_FILE_TM, GEN_FILE_FC, GEN_FILE_DBG,
    GEN_FILE_GRF
} gen_file;

typedef enum gen_opnd_kind { GEN_OPND_NONE, GEN_OPND_DIRECT, GEN_OPND_INDIRECT,
                             GEN_OPND_IMM } gen_opnd_kind;

/* Source modifiers (IGA's iga::SrcModifier). */
enum { GEN_MOD_NONE, GEN_MOD_ABS, GEN_MOD_NEG, GEN_MOD_NEG_ABS };

/* Region values of IGA's Region::Vert / Region::Width that are not strides:
 * the VxH vertical stride of multi-address indirect regions, no width. */
enum { GEN_VT_VXH = 31, GEN_WI_NONE = 31 };

typedef struct gen_opnd {
    uint8_t kind;          /* gen_opnd_kind */
    uint8_t file;          /* gen_file */
    uint8_t type;          /* gen_type */
    uint8_t mod;           /* sources: GEN_MOD_* */
    uint16_t reg;          /* register number */
    uint16_t subreg;       /* in elements of `type` */
    uint8_t vs, w, hs;     /* region <vs;w,hs> (destination: hs only) */
    uint8_t pad;
    int16_t ind_off;       /* indirect: byte offset added to a0 */
    uint64_t imm;          /* immediate bits */
} gen_opnd;

/* Predicate controls (IGA's iga::PredCtrl). */
enum { GEN_PRED_NONE, GEN_PRED_SEQ };

/* Conditional modifiers (IGA's iga::FlagModifier). */
enum { GEN_COND_NONE, GEN_COND_EQ, GEN_COND_NE, GEN_COND_GT, GEN_COND_GE, GEN_COND_LT,
       GEN_COND_LE, GEN_COND_OV = 8, GEN_COND_UN,
       GEN_COND_EO = 0xFF };   /* the math macros' early-out flag (IGA's FlagModifier::EO) */

/* math's IEEE macro functions (IGA's MathFC): their operands are whole
 * registers with an implicit packed region, as madm's are. */
enum { GEN_MATH_INVM = 13, GEN_MATH_RSQTM = 14 };

/* sync's function (IGA's SyncFC) that waits for the work-group barrier. */
enum { GEN_SYNC_BAR = 14 };

/* sync's functions that wait for every token's sources read / result. */
enum { GEN_SYNC_ALLRD = 2, GEN_SYNC_ALLWR = 3 };

/* Shared functions of a send (IGA's iga::SFID). */
enum { GEN_SFID_NULL = 0, GEN_SFID_SMPL = 2, GEN_SFID_GTWY = 3, GEN_SFID_TS = 7,
       GEN_SFID_DC0 = 10, GEN_SFID_DC1 = 12, GEN_SFID_UGML = 1, GEN_SFID_SLM = 14,
       GEN_SFID_UGM = 15, GEN_SFID_TGM = 18 };

/* Send message types (IGA's iga::SFMessageType, gen_msgs.def) and what
 * sgemu does with each. */
typedef enum gen_msg {
#define X(n, h) GEN_MSG_##n,
#include "gen_msgs.def"
#undef X
    GEN_MSG_COUNT
} gen_msg;
typedef enum gen_msg_handler {
    GEN_H_NONE, GEN_H_FENCE, GEN_H_UNTYPED_READ, GEN_H_UNTYPED_WRITE,
    GEN_H_A64_SCATTERED_READ, GEN_H_A64_SCATTERED_WRITE, GEN_H_BYTE_SCATTERED_READ,
    GEN_H_BYTE_SCATTERED_WRITE, GEN_H_UNTYPED_ATOMIC, GEN_H_A64_ATOMIC, GEN_H_BLOCK_READ,
    GEN_H_BLOCK_WRITE, GEN_H_SCRATCH_READ, GEN_H_SCRATCH_WRITE, GEN_H_TYPED_READ,
    GEN_H_TYPED_WRITE, GEN_H_MEDIA_READ, GEN_H_MEDIA_WRITE, GEN_H_UNTYPED_FLOAT_ATOMIC,
    GEN_H_A64_FLOAT_ATOMIC
} gen_msg_handler;
extern const char *const gen_msg_names[GEN_MSG_COUNT];
extern const uint8_t gen_msg_handlers[GEN_MSG_COUNT];

/* Atomic operations: the values of IGA's AtomicIntegerOp (the HDC
 * descriptor's [11:8]), then the float ones; LSC atomics map onto them. */
enum {
    GEN_ATOMIC_CMPWR8B = 0, GEN_ATOMIC_AND, GEN_ATOMIC_OR, GEN_ATOMIC_XOR, GEN_ATOMIC_MOV,
    GEN_ATOMIC_INC, GEN_ATOMIC_DEC, GEN_ATOMIC_ADD, GEN_ATOMIC_SUB, GEN_ATOMIC_REVSUB,
    GEN_ATOMIC_IMAX, GEN_ATOMIC_IMIN, GEN_ATOMIC_UMAX, GEN_ATOMIC_UMIN, GEN_ATOMIC_CMPWR,
    GEN_ATOMIC_PREDEC, GEN_ATOMIC_LOAD = 16, GEN_ATOMIC_FADD, GEN_ATOMIC_FSUB, GEN_ATOMIC_FMIN,
    GEN_ATOMIC_FMAX, GEN_ATOMIC_FCMPWR
};

/* An LSC message (Xe-HPG+), from IGA's decoding (gen_lsc.c). */
enum { GEN_LSC_NONE, GEN_LSC_LOAD, GEN_LSC_STORE, GEN_LSC_LOAD_QUAD, GEN_LSC_STORE_QUAD,
       GEN_LSC_ATOMIC, GEN_LSC_FENCE, GEN_LSC_OTHER };
enum { GEN_LSC_FLAT, GEN_LSC_BTI, GEN_LSC_BSS, GEN_LSC_SS };
typedef struct gen_lsc {
    uint8_t op;            /* GEN_LSC_* (NONE: not an LSC message) */
    uint8_t atomic;        /* GEN_ATOMIC_* */
    uint8_t mem_bytes;     /* bytes of an element in memory */
    uint8_t reg_bytes;     /* and in the registers (d8u32, d16u32: 4) */
    uint8_t vec;           /* elements an address */
    uint8_t transpose;     /* one address, vec elements in a block */
    uint8_t chmask;        /* quad messages: channels x, y, z, w */
    uint8_t addr_bytes;    /* a16, a32, a64 */
    uint8_t model;         /* GEN_LSC_FLAT, BTI, ... */
    uint8_t bti;
    uint8_t ss_a0;         /* ss[a0.N], bss[a0.N]: N, the a0 dword holding the
                              surface state offset (0xff: none) */
} gen_lsc;

/* The LSC fields from an instruction's text as IGA prints it: 0, or -1
 * when IGA's decoding is not one sgemu reads. */
int gen_lsc_parse(const char *text, gen_lsc *l);

typedef struct gen_inst {
    uint32_t offset;       /* byte offset in the kernel's code */
    uint16_t op;           /* gen_op (GEN_OP_UNKNOWN: not executed) */
    uint8_t esize;         /* execution size 1..32 */
    uint8_t choff;         /* first channel: 0, 4, 8, ... 28 */
    uint8_t nomask;        /* (W): ignores the execution mask */
    uint8_t pred;          /* GEN_PRED_* (IGA's PredCtrl) */
    uint8_t pred_inv;      /* predicate negated */
    uint8_t flag_reg, flag_sub;   /* flag of the predicate and conditional modifier */
    uint8_t cond;          /* GEN_COND_* */
    uint8_t sat;           /* destination saturation */
    uint8_t nsrc;
    uint8_t eot;           /* send: end of thread */
    uint8_t accwr;         /* AccWrEn: also writes the accumulator */
    uint8_t sb_token;      /* Xe's software scoreboard token: GEN_IGA_TOKEN_SET
                            * (an out-of-order instruction takes $sbid),
                            * _SRC / _DST (waits for $sbid's sources read /
                            * its result), _NONE */
    uint8_t sbid;
    uint8_t has_dst;
    uint32_t subfunc;      /* math function, sync function, send SFID */
    uint32_t jip, uip;     /* branches: the instruction indices of IGA's JIP and
                            * UIP targets (UINT32_MAX: none) */
    gen_opnd dst, src[3];
    /* sends */
    int32_t msg_type;      /* IGA's iga::SFMessageType; -1 none */
    int32_t sfid;          /* GEN_SFID_* */
    uint32_t desc, ex_desc;
    uint32_t mlen, emlen, rlen;   /* payload, extended payload, response GRFs */
    gen_lsc lsc;           /* SFID UGM, UGML, SLM: the LSC message */
} gen_inst;

/* What the cross-thread data of a kernel holds (zebin payload_arguments). */
typedef enum gen_payload_kind {
    GEN_PAY_GLOBAL_ID_OFFSET, GEN_PAY_LOCAL_SIZE, GEN_PAY_ENQUEUED_LOCAL_SIZE,
    GEN_PAY_GLOBAL_SIZE, GEN_PAY_GROUP_COUNT, GEN_PAY_WORK_DIMENSIONS,
    GEN_PAY_BUFFER_ADDRESS,  /* a buffer argument's 64-bit address (A64) */
    GEN_PAY_BUFFER_OFFSET,   /* a buffer's offset from its surface base (0) */
    GEN_PAY_LOCAL_OFFSET,    /* a local argument's offset in SLM */
    GEN_PAY_PRIVATE_BASE,    /* the A64 base of the private memory surface */
    GEN_PAY_BYVALUE,         /* a by-value argument's bytes */
    GEN_PAY_IMAGE_WIDTH, GEN_PAY_IMAGE_HEIGHT, GEN_PAY_IMAGE_DEPTH,   /* of image `arg` */
    GEN_PAY_IMAGE_CHTYPE,    /* its CL_ channel data type (get_image_channel_data_type) */
    GEN_PAY_IMAGE_ORDER,     /* its CL_ channel order */
    GEN_PAY_SAMPLER_SNAP_WA, /* sampler `arg`: all ones for nearest + CLK_ADDRESS_CLAMP */
    GEN_PAY_SAMPLER_ADDRESS, /* its addressing mode, the runtime's patch value */
    GEN_PAY_SAMPLER_NORMALIZED, /* 8 for normalised coordinates, else 0 */
    GEN_PAY_PRINTF_BUFFER    /* the A64 address of the printf buffer (isa.h printf_arg) */
} gen_payload_kind;

typedef struct gen_payload {
    uint8_t kind;          /* gen_payload_kind */
    uint16_t arg;          /* argument index (buffer / by-value kinds) */
    uint32_t offset, size; /* in the cross-thread data */
    uint32_t src_offset;   /* by-value: offset inside the argument's bytes */
} gen_payload;

#define GEN_MAX_PAYLOAD 256
#define GEN_MAX_BTI 256
#define GEN_MAX_SAMPLERS 16
#define GEN_MAX_BARRIERS 32
#define GEN_NO_SAMPLER UINT32_MAX

typedef struct gen_program {
    uint32_t platform;     /* IGA platform (gen_iga.h GEN_IGA_*) */
    char device[32];       /* ocloc device name, e.g. "tgllp" */
    uint32_t simd;         /* compiled SIMD width */
    uint32_t grf_count;    /* GRFs per thread (128 or 256) */
    uint32_t grf_bytes;    /* bytes per GRF (32 before Xe-HPC) */
    uint32_t slm_bytes;    /* static SLM */
    uint32_t barrier_count;   /* barriers: 0 or 1, more with named barriers (Xe-HPC) */
    uint32_t scratch_bytes;   /* per-thread spill memory (scratch) */
    uint32_t private_bytes;   /* private memory (private_space) */
    bool private_per_item;    /* private_bytes a work-item (else a thread) */
    uint32_t global_private_bytes; /* private memory in a global buffer (type
                                    * global, usage private_space), indexed by
                                    * the hardware thread of sr0.0 */
    bool global_private_per_item;  /* global_private_bytes a work-item */
    uint32_t cross_bytes;  /* cross-thread data, GRF-aligned */
    uint32_t cross_used;   /* cross-thread data, 32-byte aligned (its size in the
                            * indirect data that Xe-HPG+ code loads) */
    uint32_t inline_bytes; /* Xe-HPG+: the first bytes of the cross-thread data,
                            * delivered in r1 (inline data) */
    bool loads_payload;    /* Xe-HPG+: the code loads its cross-thread and
                            * per-thread data from the indirect data in r0.0 */
    uint32_t local_id_offset, local_id_bytes;  /* per-thread payload */
    uint32_t npay;
    gen_payload pay[GEN_MAX_PAYLOAD];
    int16_t bti_arg[GEN_MAX_BTI];   /* binding table index -> argument (-1: none) */
    /* sampler index (a sampler message's descriptor [11:8]) -> the sampler_t
     * argument (-1: an inline sampler, whose OpenCL C bits are in
     * sampler_bits, or none when sampler_bits is GEN_NO_SAMPLER) */
    int16_t sampler_arg[GEN_MAX_SAMPLERS];
    uint32_t sampler_bits[GEN_MAX_SAMPLERS];
    /* the printf buffer the code writes (printf_buffer payload): bound at
     * every launch to a fresh buffer as argument printf_arg - 1, a hidden
     * `global u8` argument after the kernel's own; 0: none */
    uint32_t printf_arg;
    uint32_t ninst;
    gen_inst *inst;        /* owned */
    char **text;           /* owned: each instruction as IGA prints it */
    uint8_t *code;         /* owned: the kernel heap */
    size_t code_bytes;
} gen_program;

/* IGA platform and GRF size of an ocloc device name; 0 if unknown. */
uint32_t gen_platform_of_device(const char *device, uint32_t *grf_bytes);

/* Load kernel `name` (NULL: the first) of a zebin into *k (k->gen set).
 * Returns 0, or SGEMU-style 1 (bad input) / 3 (internal) with err filled. */
int gen_load_zebin(const uint8_t *bin, size_t len, const char *device, const char *name,
                   const char *file, isa_kernel *k, char *err, size_t errcap);

/* Compile OpenCL C file `cl` with ocloc for `device` into a zebin (malloc'd
 * into *bin) at SIMD width `simd` (0: IGC's choice).  On failure returns 1
 * and err holds ocloc's messages (IGC's reason for refusing a kernel or
 * width); 3 if ocloc cannot run. */
int gen_compile_cl(const char *cl, const char *device, const char *options, uint32_t simd,
                   uint8_t **bin, size_t *len, char *err, size_t errcap);

/* The names of the kernels in a zebin (up to max); their count. */
uint32_t gen_zebin_kernels(const uint8_t *bin, size_t len, char (*names)[64], uint32_t max);

void gen_program_free(gen_program *p);

/* The instruction index at byte offset `off`, or UINT32_MAX. */
uint32_t gen_inst_at(const gen_program *p, uint32_t off);

#endif
