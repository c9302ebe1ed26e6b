/* math_temps.c - the registers an elementary function holds while it runs
 * on an Intel target, from the table IGC's inlined math library was
 * measured into (math_temps.def), and what two functions of the same
 * operands keep live between them (math_shared.def); docs/regalloc.md,
 * Elementary functions. */
#include "emu_private.h"

#include <string.h>

typedef struct math_row {
    const char *target;     /* device.ocloc_target */
    uint16_t op;
    uint8_t type;           /* 0 f16, 1 f32, 2 f64 */
    int16_t regs[3];        /* at SIMD8, 16, 32; -1: not measured */
} math_row;

static const math_row rows[] = {
#define MATH_TEMPS(target, op, type, w8, w16, w32) \
    { target, ISA_OP_##op, type, { w8, w16, w32 } },
#include "math_temps.def"
#undef MATH_TEMPS
};

/* grouped by target: one target's rows are contiguous */
static const char *const shared_target[] = {
#define MATH_SHARED(target, a, b, type, term, bytes) target,
#include "math_shared.def"
#undef MATH_SHARED
};

#define ISA_OP_POWN ISA_MATH_POWN
static const isa_math_shared shared_rows[] = {
#define MATH_SHARED(target, a, b, type, term, bytes) \
    { ISA_OP_##a, ISA_OP_##b, term, type, bytes },
#include "math_shared.def"
#undef MATH_SHARED
};
#undef ISA_OP_POWN

bool emu_math_temps(const emu_config *cfg, uint32_t width, isa_math_temps *out)
{
    memset(out, 0, sizeof *out);
    const int w = width == 8 ? 0 : width == 16 ? 1 : width == 32 ? 2 : -1;
    const uint32_t bpr = cfg->grf_bytes_per_reg ? cfg->grf_bytes_per_reg : 32;
    bool any = false;
    for (size_t i = 0; w >= 0 && i < sizeof rows / sizeof rows[0]; i++) {
        const math_row *r = &rows[i];
        if (strcmp(r->target, cfg->ocloc_target) != 0 || r->regs[w] <= 0)
            continue;
        /* registers of the target at this width, as bytes per lane */
        out->bytes[r->op][r->type] = (uint16_t)(((uint32_t)r->regs[w] * bpr + width - 1) / width);
        any = true;
    }
    /* values of the device compiler's IR: bytes per lane at every width */
    const size_t n = sizeof shared_rows / sizeof shared_rows[0];
    for (size_t i = 0; w >= 0 && i < n && !out->nshared; i++)
        if (strcmp(shared_target[i], cfg->ocloc_target) == 0) {
            size_t e = i;
            while (e < n && strcmp(shared_target[e], cfg->ocloc_target) == 0)
                e++;
            out->shared = &shared_rows[i];
            out->nshared = (uint32_t)(e - i);
            any = true;
        }
    return any;
}
