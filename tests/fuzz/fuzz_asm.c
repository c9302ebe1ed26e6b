/* fuzz_asm.c - the assembler: any text either fails with diagnostics or
 * assembles; what assembles disassembles to text that reassembles to the
 * same program and disassembles to the same text again (a fixed point). */
#include "fuzz.h"
#include "isa.h"

#include <stdlib.h>
#include <string.h>

static int assemble(const char *name, const char *src, size_t len, isa_kernel *k)
{
    isa_diags d;
    memset(&d, 0, sizeof d);
    memset(k, 0, sizeof *k);
    int errs = isa_assemble(name, src, len, k, &d);
    isa_diags_free(&d);
    return errs;
}

static int same_program(const isa_kernel *a, const isa_kernel *b)
{
    if (strcmp(a->name, b->name) || a->narg != b->narg || a->ninst != b->ninst ||
        a->reqd_sg_size != b->reqd_sg_size || a->local_mem != b->local_mem ||
        a->private_mem != b->private_mem)
        return 0;
    for (uint32_t i = 0; i < a->narg; i++)
        if (strcmp(a->args[i].name, b->args[i].name) || a->args[i].kind != b->args[i].kind ||
            a->args[i].type != b->args[i].type || a->args[i].access != b->args[i].access)
            return 0;
    for (uint32_t i = 0; i < a->ninst; i++) {
        const isa_inst *x = &a->inst[i], *y = &b->inst[i];
        if (x->op != y->op || x->type != y->type || x->vec != y->vec ||
            x->src_type != y->src_type || x->space != y->space || x->cond != y->cond ||
            x->nopnd != y->nopnd || x->flags != y->flags || x->target != y->target)
            return 0;
    }
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    isa_kernel k;
    if (assemble("fuzz.sgasm", (const char *)data, size, &k) == 0) {
        char *text = isa_disassemble(&k);
        if (!text)
            fuzz_fail("isa_disassemble returned NULL", data, size);
        isa_kernel k2;
        if (assemble("roundtrip.sgasm", text, strlen(text), &k2) != 0)
            fuzz_fail("the disassembly does not reassemble", data, size);
        if (!same_program(&k, &k2))
            fuzz_fail("the reassembled program differs", data, size);
        char *text2 = isa_disassemble(&k2);
        if (!text2 || strcmp(text, text2))
            fuzz_fail("disassembly is not a fixed point", data, size);
        free(text2);
        free(text);
        isa_kernel_free(&k2);
    }
    isa_kernel_free(&k);
    return 0;
}
