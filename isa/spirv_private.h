/*
 * spirv_private.h - shared by the SPIR-V module parser, the translator and
 * the generated name tables (isa/spirv_*.c).  Not a contract header.
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

#endif
