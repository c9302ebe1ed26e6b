/* tables.c - expansions of the ISA tables (types.def, opcodes.def,
 * specials.def) into the arrays that every other module reads. */
#include "isa.h"

#include <string.h>

const isa_type_info isa_types[ISA_T_COUNT] = {
#define ISA_TYPE(E, asm_name, cl_name, bytes, is_float, is_signed) \
    [ISA_T_##E] = { asm_name, cl_name, bytes, is_float, is_signed },
#include "types.def"
#undef ISA_TYPE
};

const isa_op_info isa_ops[ISA_OP_COUNT] = {
#define ISA_OP(E, mn, shape, pipe, fam, binop, scope, tm, flags) \
    [ISA_OP_##E] = { mn, ISA_SHAPE_##shape, ISA_PIPE_##pipe, ISA_FAM_##fam, \
                     ISA_BINOP_##binop, ISA_SCOPE_##scope, (tm), (flags) },
#include "opcodes.def"
#undef ISA_OP
};

const isa_special_info isa_specials[ISA_SP_COUNT] = {
#define ISA_SPECIAL(E, name, dim, uni) [ISA_SP_##E] = { name, dim, uni },
#include "specials.def"
#undef ISA_SPECIAL
};

#define NAME_ROW(x) #x,
#define SHAPE_NAME(s, pat, min, nsrc) #s,
const char *const isa_shape_names[ISA_SHAPE_COUNT] = { ISA_SHAPES(SHAPE_NAME) };
#undef SHAPE_NAME
const char *const isa_pipe_names[ISA_PIPE_COUNT] = { ISA_PIPES(NAME_ROW) };
const char *const isa_family_names[ISA_FAM_COUNT] = { ISA_FAMILIES(NAME_ROW) };
const char *const isa_binop_names[ISA_BINOP_COUNT] = { ISA_BINOPS(NAME_ROW) };
const char *const isa_scope_names[ISA_SCOPE_COUNT] = { ISA_SCOPES(NAME_ROW) };
#undef NAME_ROW

#define PAIR_NAME(E, n) n,
const char *const isa_space_names[ISA_SPACE_COUNT] = { ISA_SPACES(PAIR_NAME) };
const char *const isa_round_names[ISA_RND_COUNT] = { ISA_ROUNDS(PAIR_NAME) };
#undef PAIR_NAME

isa_type isa_type_from_name(const char *name, size_t len)
{
    for (int t = 0; t < ISA_T_COUNT; t++) {
        const char *a = isa_types[t].asm_name, *c = isa_types[t].cl_name;
        if ((strlen(a) == len && memcmp(a, name, len) == 0) ||
            (strlen(c) == len && memcmp(c, name, len) == 0))
            return (isa_type)t;
    }
    return ISA_T_NONE;
}

isa_opcode isa_opcode_from_name(const char *name, size_t len)
{
    for (int op = 0; op < ISA_OP_COUNT; op++) {
        const char *m = isa_ops[op].mnemonic;
        if (strlen(m) == len && memcmp(m, name, len) == 0)
            return (isa_opcode)op;
    }
    return ISA_OP_COUNT;
}

const char *isa_image_type_name(unsigned dims, bool arrayed, bool buffer)
{
    static const struct { const char *name; uint8_t dims, arrayed, buffer; } types[] = {
#define IMAGE_TYPE(E, name, d, a, b) { name, d, a, b },
        ISA_IMAGE_TYPES(IMAGE_TYPE)
#undef IMAGE_TYPE
    };
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (types[i].dims == (dims ? dims : 2) && types[i].arrayed == arrayed &&
            types[i].buffer == buffer)
            return types[i].name;
    return NULL;
}
