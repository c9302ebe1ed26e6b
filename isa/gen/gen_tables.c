/* gen_tables.c - the tables expanded from gen_ops.def and IGA's type list. */
#include "gen.h"

#include <stdlib.h>
#include <string.h>

const gen_op_info gen_ops[GEN_OP_COUNT] = {
#define X(E, m, c) { m, GEN_CLASS_##c },
#include "gen_ops.def"
#undef X
};

const char *const gen_type_names[GEN_T_COUNT] = {
#define X(E, n, b) n,
    GEN_IGA_TYPES(X)
#undef X
};

const uint8_t gen_type_bytes[GEN_T_COUNT] = {
#define X(E, n, b) b,
    GEN_IGA_TYPES(X)
#undef X
};

const char *const gen_msg_names[GEN_MSG_COUNT] = {
#define X(n, h) #n,
#include "gen_msgs.def"
#undef X
};

const uint8_t gen_msg_handlers[GEN_MSG_COUNT] = {
#define X(n, h) GEN_H_##h,
#include "gen_msgs.def"
#undef X
};

void gen_program_free(gen_program *p)
{
    if (!p)
        return;
    for (uint32_t i = 0; p->text && i < p->ninst; i++)
        free(p->text[i]);
    free(p->text);
    free(p->inst);
    free(p->code);
    free(p);
}

uint32_t gen_inst_at(const gen_program *p, uint32_t off)
{
    uint32_t lo = 0, hi = p->ninst;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (p->inst[mid].offset < off)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < p->ninst && p->inst[lo].offset == off ? lo : UINT32_MAX;
}
