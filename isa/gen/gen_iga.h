/*
 * gen_iga.h - Intel's ISA library (libiga64, Debian package libigc1) as
 * sgemu uses it: the KernelView C API of iga/kv.h, loaded with dlopen.
 *
 * Why declared here rather than included: this release's iga/iga.h (which
 * iga/kv.h includes) pulls in iga_types_swsb.hpp, a C++ header, so it cannot
 * be compiled as C.  The functions below are kv.h's extern "C" entry points
 * with the same parameters; the C++ enum-class values they return are
 * mirrored from iga_types_ext.hpp (libigdfcl-dev 1.0.12504); tests/gen
 * checks them on decoded kernels against IGA's own text.  Every field of
 * every instruction comes from these calls: sgemu decodes no instruction
 * encoding by hand.
 */
#ifndef SGEMU_GEN_IGA_H
#define SGEMU_GEN_IGA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct kv_t kv_t;

/* iga_gen_t (iga.h): GEN_VER(maj, min) = maj << 16 | min, XE_VER = maj << 24 | min */
enum {
    GEN_IGA_GEN9 = 9 << 16,
    GEN_IGA_XE = 1 << 24,          /* Xe-LP: tgllp */
    GEN_IGA_XE_HPG = 1 << 24 | 2,
    GEN_IGA_XE_HPC = 1 << 24 | 4
};

/* iga::RegName (iga_types_ext.hpp) */
enum {
    GEN_IGA_REG_INVALID = 0, GEN_IGA_ARF_NULL, GEN_IGA_ARF_A, GEN_IGA_ARF_ACC,
    GEN_IGA_ARF_MME, GEN_IGA_ARF_F, GEN_IGA_ARF_CE, GEN_IGA_ARF_MSG, GEN_IGA_ARF_SP,
    GEN_IGA_ARF_SR, GEN_IGA_ARF_CR, GEN_IGA_ARF_N, GEN_IGA_ARF_IP, GEN_IGA_ARF_TDR,
    GEN_IGA_ARF_TM, GEN_IGA_ARF_FC, GEN_IGA_ARF_DBG, GEN_IGA_GRF_R
};

/* iga::Kind */
enum {
    GEN_IGA_KIND_INVALID = 0, GEN_IGA_KIND_DIRECT, GEN_IGA_KIND_MACRO,
    GEN_IGA_KIND_INDIRECT, GEN_IGA_KIND_IMMEDIATE, GEN_IGA_KIND_LABEL
};

/* iga::Type, in order: the X-macro gives sgemu's gen_type the same values
 * (name as IGA prints it, bytes; 0 bytes: not executed by sgemu) */
#define GEN_IGA_TYPES(X) \
    X(INVALID, "?", 0) X(U1, "u1", 0) X(U2, "u2", 0) X(U4, "u4", 0) X(S2, "s2", 0) \
    X(S4, "s4", 0) X(UB, "ub", 1) X(B, "b", 1) X(UW, "uw", 2) X(W, "w", 2) \
    X(UD, "ud", 4) X(D, "d", 4) X(UQ, "uq", 8) X(Q, "q", 8) X(HF, "hf", 2) \
    X(QF, "qf", 0) X(BF, "bf", 2) X(HF8, "hf8", 0) X(BF8, "bf8", 0) X(TF32, "tf32", 0) \
    X(F, "f", 4) X(DF, "df", 8) X(NF, "nf", 0) X(V, "v", 2) X(UV, "uv", 2) X(VF, "vf", 4)

/* iga::SrcModifier, iga::DstModifier, iga::MaskCtrl */
enum { GEN_IGA_SRCMOD_NONE, GEN_IGA_SRCMOD_ABS, GEN_IGA_SRCMOD_NEG, GEN_IGA_SRCMOD_NEG_ABS };
enum { GEN_IGA_DSTMOD_NONE, GEN_IGA_DSTMOD_SAT };
enum { GEN_IGA_MASK_NORMAL, GEN_IGA_MASK_NOMASK };

/* iga::InstOpt (kv_has_inst_opt) */
enum { GEN_IGA_OPT_ACCWREN = 0, GEN_IGA_OPT_EOT = 4 };

/* iga::PredCtrl: NONE, SEQ, then the group forms ANYV .. ALL32H, ANY, ALL */
enum {
    GEN_IGA_PRED_NONE, GEN_IGA_PRED_SEQ, GEN_IGA_PRED_ANYV, GEN_IGA_PRED_ALLV,
    GEN_IGA_PRED_ANY2H, GEN_IGA_PRED_ALL2H, GEN_IGA_PRED_ANY4H, GEN_IGA_PRED_ALL4H,
    GEN_IGA_PRED_ANY8H, GEN_IGA_PRED_ALL8H, GEN_IGA_PRED_ANY16H, GEN_IGA_PRED_ALL16H,
    GEN_IGA_PRED_ANY32H, GEN_IGA_PRED_ALL32H, GEN_IGA_PRED_ANY, GEN_IGA_PRED_ALL
};

/* iga::FlagModifier */
enum {
    GEN_IGA_COND_NONE = 0, GEN_IGA_COND_EQ, GEN_IGA_COND_NE, GEN_IGA_COND_GT,
    GEN_IGA_COND_GE, GEN_IGA_COND_LT, GEN_IGA_COND_LE, GEN_IGA_COND_OV = 8,
    GEN_IGA_COND_UN, GEN_IGA_COND_EO = 0xff
};

/* iga::SWSB (iga_types_swsb.hpp), the software scoreboard field of an Xe
 * instruction: five 32-bit members (its enum classes are int-sized).  Only
 * the token is read: the register slots already give what RegDist says. */
typedef struct gen_iga_swsb {
    uint32_t dist_type, token_type, min_dist, sbid, sp_token;
} gen_iga_swsb;

/* iga::SWSB::TokenType */
enum { GEN_IGA_TOKEN_NONE, GEN_IGA_TOKEN_SET, GEN_IGA_TOKEN_SRC, GEN_IGA_TOKEN_DST };

/* The library's entry points sgemu calls (kv.h and iga.h). */
typedef struct gen_iga {
    void *dl;
    kv_t *(*kv_create)(uint32_t plat, const void *bytes, size_t len, int *status,
                       char *errbuf, size_t errcap, uint32_t swsb_mode);
    void (*kv_delete)(kv_t *);
    int32_t (*kv_get_inst_size)(const kv_t *, int32_t pc);
    bool (*kv_has_inst_opt)(const kv_t *, int32_t pc, uint32_t opt);
    uint32_t (*kv_get_inst_targets)(const kv_t *, int32_t pc, int32_t *pcs);
    size_t (*kv_get_inst_syntax)(const kv_t *, int32_t pc, char *buf, size_t cap,
                                 uint32_t fmt_opts,
                                 const char *(*label)(int32_t, void *), void *env);
    uint32_t (*kv_get_send_descs)(const kv_t *, int32_t pc, uint32_t *ex_desc,
                                  uint32_t *desc);
    int (*kv_get_message_type)(const kv_t *, int32_t pc, int32_t *type);
    int (*kv_get_message_sfid)(const kv_t *, int32_t pc, int32_t *sfid);
    uint32_t (*kv_get_message_len)(const kv_t *, int32_t pc, uint32_t *mlen,
                                   uint32_t *emlen, uint32_t *rlen);
    uint32_t (*kv_get_execution_size)(const kv_t *, int32_t pc);
    int32_t (*kv_get_number_sources)(const kv_t *, int32_t pc);
    uint32_t (*kv_get_opcode)(const kv_t *, int32_t pc);
    int (*kv_get_subfunction)(const kv_t *, int32_t pc, uint32_t *subfunc);
    int32_t (*kv_get_has_destination)(const kv_t *, int32_t pc);
    int32_t (*kv_get_destination_register)(const kv_t *, int32_t pc);
    int32_t (*kv_get_destination_sub_register)(const kv_t *, int32_t pc);
    uint32_t (*kv_get_destination_data_type)(const kv_t *, int32_t pc);
    uint32_t (*kv_get_destination_register_type)(const kv_t *, int32_t pc);
    uint32_t (*kv_get_destination_register_kind)(const kv_t *, int32_t pc);
    int32_t (*kv_get_source_register)(const kv_t *, int32_t pc, uint32_t src);
    int32_t (*kv_get_source_sub_register)(const kv_t *, int32_t pc, uint32_t src);
    uint32_t (*kv_get_source_data_type)(const kv_t *, int32_t pc, uint32_t src);
    uint32_t (*kv_get_source_register_type)(const kv_t *, int32_t pc, uint32_t src);
    uint32_t (*kv_get_source_register_kind)(const kv_t *, int32_t pc, uint32_t src);
    uint32_t (*kv_get_channel_offset)(const kv_t *, int32_t pc);
    uint32_t (*kv_get_mask_control)(const kv_t *, int32_t pc);
    int32_t (*kv_get_destination_region)(const kv_t *, int32_t pc, uint32_t *hz);
    int32_t (*kv_get_source_region)(const kv_t *, int32_t pc, uint32_t src,
                                    uint32_t *vt, uint32_t *wi, uint32_t *hz);
    int32_t (*kv_get_source_immediate)(const kv_t *, int32_t pc, uint32_t src,
                                       uint64_t *imm);
    int32_t (*kv_get_source_indirect_imm_off)(const kv_t *, int32_t pc, uint32_t src,
                                              int16_t *off);
    int32_t (*kv_get_destination_indirect_imm_off)(const kv_t *, int32_t pc, int16_t *off);
    uint32_t (*kv_get_flag_modifier)(const kv_t *, int32_t pc);
    uint32_t (*kv_get_source_modifier)(const kv_t *, int32_t pc, uint32_t src);
    uint32_t (*kv_get_destination_modifier)(const kv_t *, int32_t pc);
    int32_t (*kv_get_flag_register)(const kv_t *, int32_t pc);
    int32_t (*kv_get_flag_sub_register)(const kv_t *, int32_t pc);
    uint32_t (*kv_get_predicate)(const kv_t *, int32_t pc);
    uint32_t (*kv_get_is_inverse_predicate)(const kv_t *, int32_t pc);
    /* kv.h declares its last parameter iga::SWSB &: a pointer in the ABI */
    bool (*kv_get_swsb_info)(const kv_t *, int32_t pc, uint32_t encode_mode,
                             gen_iga_swsb *swsb);
    int (*iga_opspec_from_op)(uint32_t gen, uint32_t op, const void **os);
    int (*iga_opspec_mnemonic)(const void *os, char *buf, size_t *len);
} gen_iga;

/* The library, opened once per process (thread-safe); NULL with a message
 * in err when libiga64.so.1 cannot be loaded. */
const gen_iga *gen_iga_open(char *err, size_t errcap);

#endif
