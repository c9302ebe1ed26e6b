/* fuzz_spirv.c - the SPIR-V loader and translator: any module either
 * translates into a kernel that validates (and disassembles) or fails with
 * diagnostics. */
#include "fuzz.h"
#include "isa.h"
#include "spirv.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    isa_kernel k;
    isa_diags d;
    memset(&d, 0, sizeof d);
    bool unnamed = false;
    (void)spv_is_module(data, size);
    int errs = spv_translate("fuzz.spv", data, size, NULL, &k, &unnamed, &d);
    isa_diags_free(&d);
    if (errs)
        return 0;
    char *text = isa_disassemble(&k);
    if (!text)
        fuzz_fail("a translated kernel does not disassemble", data, size);
    free(text);
    isa_kernel_free(&k);
    return 0;
}
