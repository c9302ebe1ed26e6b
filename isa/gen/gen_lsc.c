/* gen_lsc.c - the fields of an LSC message (Xe-HPG and Xe-HPC's load/store
 * cache sends: SFIDs UGM, UGML, SLM, TGM) from IGA's own decoding of it.
 * libiga64's C API gives no LSC fields (kv_get_message_type maps only the
 * older HDC messages), but IGA prints its decoding of every send after the
 * instruction, in the LSC assembly syntax of its MessageDecoderLSC, e.g.
 *     // wr:2+0, rd:2; load.ugm.d32x4.a64.ca.ca
 *     // wr:1+0, rd:2; load.ugm.d32x32t.a32.ca.ca.bti[255]
 *     // wr:2+2, rd:0; store.ugm.d32.a32.wb.wb.bti[2]
 * sgemu reads these tokens; it decodes no descriptor bits itself. */
#include "gen_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* IGA's LSC operation names and what sgemu does with each. */
static const struct {
    const char *name;
    uint8_t op, atomic;
} lsc_ops[] = {
    { "load", GEN_LSC_LOAD, 0 },           { "store", GEN_LSC_STORE, 0 },
    { "load_quad", GEN_LSC_LOAD_QUAD, 0 }, { "store_quad", GEN_LSC_STORE_QUAD, 0 },
    { "fence", GEN_LSC_FENCE, 0 },
    { "atomic_and", GEN_LSC_ATOMIC, GEN_ATOMIC_AND },
    { "atomic_or", GEN_LSC_ATOMIC, GEN_ATOMIC_OR },
    { "atomic_xor", GEN_LSC_ATOMIC, GEN_ATOMIC_XOR },
    { "atomic_store", GEN_LSC_ATOMIC, GEN_ATOMIC_MOV },
    { "atomic_iinc", GEN_LSC_ATOMIC, GEN_ATOMIC_INC },
    { "atomic_idec", GEN_LSC_ATOMIC, GEN_ATOMIC_DEC },
    { "atomic_iadd", GEN_LSC_ATOMIC, GEN_ATOMIC_ADD },
    { "atomic_isub", GEN_LSC_ATOMIC, GEN_ATOMIC_SUB },
    { "atomic_smax", GEN_LSC_ATOMIC, GEN_ATOMIC_IMAX },
    { "atomic_smin", GEN_LSC_ATOMIC, GEN_ATOMIC_IMIN },
    { "atomic_umax", GEN_LSC_ATOMIC, GEN_ATOMIC_UMAX },
    { "atomic_umin", GEN_LSC_ATOMIC, GEN_ATOMIC_UMIN },
    { "atomic_icas", GEN_LSC_ATOMIC, GEN_ATOMIC_CMPWR },
    { "atomic_load", GEN_LSC_ATOMIC, GEN_ATOMIC_LOAD },
    { "atomic_fadd", GEN_LSC_ATOMIC, GEN_ATOMIC_FADD },
    { "atomic_fsub", GEN_LSC_ATOMIC, GEN_ATOMIC_FSUB },
    { "atomic_fmin", GEN_LSC_ATOMIC, GEN_ATOMIC_FMIN },
    { "atomic_fmax", GEN_LSC_ATOMIC, GEN_ATOMIC_FMAX },
    { "atomic_fcas", GEN_LSC_ATOMIC, GEN_ATOMIC_FCMPWR },
};

/* Data size tokens: d8, d16, d32, d64, d8u32, d16u32 (memory size, then
 * the register size when it is widened), each optionally followed by
 * xN (elements an address) and t (transposed: one address, a block). */
static bool data_size(const char *tok, gen_lsc *l)
{
    static const struct { const char *n; uint8_t mem, reg; } ds[] = {
        { "d8u32", 1, 4 }, { "d16u32", 2, 4 }, { "d8", 1, 1 }, { "d16", 2, 2 },
        { "d32", 4, 4 },   { "d64", 8, 8 },
    };
    for (size_t i = 0; i < sizeof ds / sizeof *ds; i++) {
        size_t n = strlen(ds[i].n);
        if (strncmp(tok, ds[i].n, n) != 0 || (tok[n] && tok[n] != 'x'))
            continue;
        l->mem_bytes = ds[i].mem;
        l->reg_bytes = ds[i].reg;
        l->vec = 1;
        if (tok[n] == 'x') {
            char *e;
            long v = strtol(tok + n + 1, &e, 10);
            if (v < 1 || v > 64)
                return false;
            l->vec = (uint8_t)v;
            if (*e == 't') {
                l->transpose = 1;
                e++;
            }
            if (*e)
                return false;
        }
        return true;
    }
    return false;
}

int gen_lsc_parse(const char *text, gen_lsc *l)
{
    memset(l, 0, sizeof *l);
    const char *c = strstr(text, "// wr:");
    c = c ? strstr(c, "; ") : NULL;
    if (!c)
        return -1;
    char buf[160];
    snprintf(buf, sizeof buf, "%s", c + 2);
    buf[strcspn(buf, " \t")] = 0;
    char *save = NULL, *tok = strtok_r(buf, ".", &save);
    if (!tok)
        return -1;
    l->op = GEN_LSC_OTHER;
    for (size_t i = 0; i < sizeof lsc_ops / sizeof *lsc_ops; i++)
        if (strcmp(tok, lsc_ops[i].name) == 0) {
            l->op = lsc_ops[i].op;
            l->atomic = lsc_ops[i].atomic;
        }
    if (l->op == GEN_LSC_OTHER || l->op == GEN_LSC_FENCE)
        return 0;
    (void)strtok_r(NULL, ".", &save);   /* the SFID: ugm, ugml, slm, tgm */
    while ((tok = strtok_r(NULL, ".", &save))) {
        if (tok[0] == 'd' && tok[1] >= '0' && tok[1] <= '9') {
            if (!data_size(tok, l))
                return -1;
        } else if (strcmp(tok, "a16") == 0 || strcmp(tok, "a32") == 0 ||
                   strcmp(tok, "a64") == 0) {
            l->addr_bytes = (uint8_t)(tok[1] == '1' ? 2 : tok[1] == '3' ? 4 : 8);
        } else if (strncmp(tok, "bti[", 4) == 0) {
            char *e;
            long v = strtol(tok + 4, &e, 0);
            if (*e != ']' || v < 0 || v > 255)
                return -1;
            l->model = GEN_LSC_BTI;
            l->bti = (uint8_t)v;
        } else if (strncmp(tok, "bss", 3) == 0 || strncmp(tok, "ss", 2) == 0) {
            l->model = tok[0] == 'b' ? GEN_LSC_BSS : GEN_LSC_SS;
            const char *a0 = strstr(text, "ss[a0.");   /* strtok split it at the '.' */
            char *e = NULL;
            long sub = a0 ? strtol(a0 + 6, &e, 10) : -1;
            l->ss_a0 = sub >= 0 && sub < 16 && e && *e == ']' ? (uint8_t)sub : 0xff;
        } else if (strspn(tok, "xyzw") == strlen(tok)) {
            for (const char *q = tok; *q; q++)   /* quad messages' channels */
                l->chmask |= (uint8_t)(1u << (*q == 'w' ? 3 : *q - 'x'));
        } else if (strchr(tok, '[')) {
            return -1;   /* an address offset or a form sgemu does not know */
        }
        /* other tokens are cache controls (ca, uc, wb, ...): no effect */
    }
    if (!l->mem_bytes || !l->addr_bytes)
        return -1;
    return 0;
}
