/* gen_api.c - the public entry of the Gen path (sgemu.h): compile with
 * ocloc, then load the zebin (isa/gen/). */
#include "gen_engine.h"

#include <stdlib.h>
#include <string.h>

int sgemu_load_igc(const char *cl, const char *device, const char *options, uint32_t simd,
                   const char *name, isa_kernel *k, char *err, size_t errcap)
{
    uint8_t *bin = NULL;
    size_t len = 0;
    memset(k, 0, sizeof *k);
    int rc = gen_compile_cl(cl, device, options, simd, &bin, &len, err, errcap);
    if (rc == 0) {
        rc = gen_load_zebin(bin, len, device, name, cl, k, err, errcap) ? SGEMU_EXIT_USER : 0;
        free(bin);
    }
    return rc;
}

bool sgemu_igc_info_of(const isa_kernel *k, sgemu_igc_info *info)
{
    memset(info, 0, sizeof *info);
    const gen_program *p = k->gen;
    if (!p)
        return false;
    info->simd = p->simd;
    info->grf_count = p->grf_count;
    info->scratch_bytes = p->scratch_bytes;
    info->slm_bytes = p->slm_bytes;
    /* the code up to and including the last end-of-thread send (IGC pads
     * the heap after it) */
    uint32_t end = 0;
    for (uint32_t i = 0; i < p->ninst; i++)
        if (p->inst[i].eot)
            end = i + 1;
    for (uint32_t i = 0; i < end; i++) {
        info->instructions++;
        info->sends += p->inst[i].op != GEN_OP_UNKNOWN &&
                       gen_ops[p->inst[i].op].cls == GEN_CLASS_SEND;
    }
    return true;
}
