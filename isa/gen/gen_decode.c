/* gen_decode.c - every instruction of a kernel heap into a gen_inst, through
 * IGA's KernelView (one kv_* call per field; no encoding is decoded here).
 * The mnemonic comes from the library's opspec table and selects the row of
 * gen_ops.def; instructions sgemu does not execute keep GEN_OP_UNKNOWN and
 * fault only when executed, naming the instruction as IGA prints it. */
#include "gen_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FAIL(...) (snprintf(err, errcap, __VA_ARGS__), 1)

static gen_op op_of_mnemonic(const char *m)
{
    for (int i = 0; i < GEN_OP_COUNT; i++)
        if (strcmp(gen_ops[i].mnemonic, m) == 0)
            return (gen_op)i;
    return GEN_OP_UNKNOWN;
}

static void region_src(const gen_iga *g, const kv_t *kv, int32_t pc, uint32_t s, gen_opnd *o)
{
    uint32_t kind = g->kv_get_source_register_kind(kv, pc, s);
    o->type = (uint8_t)g->kv_get_source_data_type(kv, pc, s);
    o->mod = (uint8_t)g->kv_get_source_modifier(kv, pc, s);
    if (kind == GEN_IGA_KIND_IMMEDIATE) {
        o->kind = GEN_OPND_IMM;
        g->kv_get_source_immediate(kv, pc, s, &o->imm);
        return;
    }
    o->file = (uint8_t)g->kv_get_source_register_type(kv, pc, s);
    int32_t r = g->kv_get_source_register(kv, pc, s);
    int32_t sr = g->kv_get_source_sub_register(kv, pc, s);
    o->reg = (uint16_t)(r < 0 ? 0 : r);
    o->subreg = (uint16_t)(sr < 0 ? 0 : sr);
    uint32_t vt = 0, wi = 0, hz = 0;
    g->kv_get_source_region(kv, pc, s, &vt, &wi, &hz);
    o->vs = (uint8_t)vt;
    o->w = (uint8_t)wi;
    o->hs = (uint8_t)hz;
    if (kind == GEN_IGA_KIND_INDIRECT) {
        o->kind = GEN_OPND_INDIRECT;
        g->kv_get_source_indirect_imm_off(kv, pc, s, &o->ind_off);
    } else {
        o->kind = GEN_OPND_DIRECT;
    }
}

static void decode_one(const gen_iga *g, const kv_t *kv, int32_t pc, uint32_t plat,
                       gen_inst *in)
{
    memset(in, 0, sizeof *in);
    in->offset = (uint32_t)pc;
    const void *os = NULL;
    char mn[32] = "";
    size_t ml = sizeof mn;
    if (g->iga_opspec_from_op(plat, g->kv_get_opcode(kv, pc), &os) == 0 && os)
        g->iga_opspec_mnemonic(os, mn, &ml);
    in->op = (uint16_t)op_of_mnemonic(mn);
    in->esize = (uint8_t)g->kv_get_execution_size(kv, pc);
    in->choff = (uint8_t)(4 * g->kv_get_channel_offset(kv, pc));   /* M0, M4, ... */
    in->nomask = g->kv_get_mask_control(kv, pc) == GEN_IGA_MASK_NOMASK;
    in->pred = (uint8_t)g->kv_get_predicate(kv, pc);
    in->pred_inv = (uint8_t)g->kv_get_is_inverse_predicate(kv, pc);
    int32_t fr = g->kv_get_flag_register(kv, pc), fs = g->kv_get_flag_sub_register(kv, pc);
    in->flag_reg = (uint8_t)(fr < 0 ? 0 : fr);
    in->flag_sub = (uint8_t)(fs < 0 ? 0 : fs);
    in->cond = (uint8_t)g->kv_get_flag_modifier(kv, pc);
    in->sat = g->kv_get_destination_modifier(kv, pc) == GEN_IGA_DSTMOD_SAT;
    in->eot = g->kv_has_inst_opt(kv, pc, GEN_IGA_OPT_EOT);
    in->accwr = g->kv_has_inst_opt(kv, pc, GEN_IGA_OPT_ACCWREN);
    gen_iga_swsb sb = { 0 };
    if (g->kv_get_swsb_info(kv, pc, 0, &sb) && sb.token_type <= GEN_IGA_TOKEN_DST) {
        in->sb_token = (uint8_t)sb.token_type;
        in->sbid = (uint8_t)(sb.sbid & 31);
    }
    uint32_t sub = 0;
    if (g->kv_get_subfunction(kv, pc, &sub) == 0)
        in->subfunc = sub;
    int32_t tg[2] = { -1, -1 };
    uint32_t nt = g->kv_get_inst_targets(kv, pc, tg);
    in->jip = nt > 0 && tg[0] >= 0 ? (uint32_t)tg[0] : UINT32_MAX;   /* byte offsets here, */
    in->uip = nt > 1 && tg[1] >= 0 ? (uint32_t)tg[1] : UINT32_MAX;   /* indices after decode */
    in->has_dst = g->kv_get_has_destination(kv, pc) == 1;
    if (in->has_dst) {
        gen_opnd *d = &in->dst;
        uint32_t kind = g->kv_get_destination_register_kind(kv, pc);
        d->kind = kind == GEN_IGA_KIND_INDIRECT ? GEN_OPND_INDIRECT : GEN_OPND_DIRECT;
        d->file = (uint8_t)g->kv_get_destination_register_type(kv, pc);
        d->type = (uint8_t)g->kv_get_destination_data_type(kv, pc);
        int32_t r = g->kv_get_destination_register(kv, pc);
        int32_t sr = g->kv_get_destination_sub_register(kv, pc);
        d->reg = (uint16_t)(r < 0 ? 0 : r);
        d->subreg = (uint16_t)(sr < 0 ? 0 : sr);
        uint32_t hz = 1;
        g->kv_get_destination_region(kv, pc, &hz);
        d->hs = (uint8_t)hz;
        if (d->kind == GEN_OPND_INDIRECT)
            g->kv_get_destination_indirect_imm_off(kv, pc, &d->ind_off);
    }
    int32_t ns = g->kv_get_number_sources(kv, pc);
    in->nsrc = (uint8_t)(ns < 0 ? 0 : ns > 3 ? 3 : ns);
    for (uint32_t s = 0; s < in->nsrc; s++)
        region_src(g, kv, pc, s, &in->src[s]);
    /* the IEEE macros' operands (IGA prints .mmeN / .nomme in place of a
     * region): whole registers, channel i at element i */
    if (in->op == GEN_OP_MADM || (in->op == GEN_OP_MATH && (in->subfunc == GEN_MATH_INVM ||
                                                            in->subfunc == GEN_MATH_RSQTM))) {
        in->dst.subreg = 0;
        in->dst.hs = 1;
        for (uint32_t s = 0; s < in->nsrc; s++) {
            in->src[s].subreg = 0;
            in->src[s].vs = 1;
            in->src[s].w = 1;
            in->src[s].hs = 0;
        }
    }
    in->msg_type = -1;
    in->sfid = -1;
    int32_t mt = -1, sf = -1;
    if (in->op != GEN_OP_UNKNOWN && gen_ops[in->op].cls == GEN_CLASS_SEND) {
        if (g->kv_get_message_type(kv, pc, &mt) == 0)
            in->msg_type = mt;
        if (g->kv_get_message_sfid(kv, pc, &sf) == 0)
            in->sfid = sf;
        else
            in->sfid = (int32_t)in->subfunc;   /* no message decode (EOT): the SFID */
        g->kv_get_send_descs(kv, pc, &in->ex_desc, &in->desc);
        g->kv_get_message_len(kv, pc, &in->mlen, &in->emlen, &in->rlen);
    }
}

int gen_decode(gen_program *p, const uint8_t *code, size_t len, const char *kname,
               char *err, size_t errcap)
{
    char msg[256] = "";
    const gen_iga *g = gen_iga_open(msg, sizeof msg);
    if (!g)
        return FAIL("%s", msg);
    if (len == 0 || len > (1u << 28))
        return FAIL("kernel '%s': code of %zu bytes", kname, len);
    p->code = malloc(len);
    if (!p->code)
        return FAIL("out of host memory");
    memcpy(p->code, code, len);
    p->code_bytes = len;
    int st = 0;
    char ebuf[512] = "";
    kv_t *kv = g->kv_create(p->platform, p->code, len, &st, ebuf, sizeof ebuf, 0);
    if (!kv)
        return FAIL("kernel '%s': IGA cannot decode the code: %s", kname, ebuf);
    /* (a warning about padding after the last instruction is expected) */
    uint32_t cap = (uint32_t)(len / 8 + 1), n = 0;
    p->inst = calloc(cap, sizeof *p->inst);
    p->text = calloc(cap, sizeof *p->text);
    int rc = !p->inst || !p->text ? FAIL("out of host memory") : 0;
    int32_t isz;
    for (int32_t pc = 0; !rc && (isz = g->kv_get_inst_size(kv, pc)) > 0; pc += isz) {
        if (n == cap) {
            rc = FAIL("kernel '%s': more instructions than code bytes allow", kname);
            break;
        }
        decode_one(g, kv, pc, p->platform, &p->inst[n]);
        char t[256];
        if (g->kv_get_inst_syntax(kv, pc, t, sizeof t, 0, NULL, NULL) == 0)
            snprintf(t, sizeof t, "(undecodable)");
        /* IGA pads its columns; keep one blank between fields */
        char *o = t;
        for (const char *c = t; *c; c++)
            if (*c != ' ' || (o > t && o[-1] != ' '))
                *o++ = *c;
        while (o > t && o[-1] == ' ')
            o--;
        *o = 0;
        p->text[n] = strdup(t);
        if (!p->text[n])
            rc = FAIL("out of host memory");
        gen_inst *in = &p->inst[n];
        if (in->op != GEN_OP_UNKNOWN && gen_ops[in->op].cls == GEN_CLASS_SEND && !in->eot &&
            (in->sfid == GEN_SFID_UGM || in->sfid == GEN_SFID_UGML ||
             in->sfid == GEN_SFID_SLM) && gen_lsc_parse(t, &in->lsc) != 0)
            in->lsc.op = GEN_LSC_OTHER;   /* refused when executed */
        n++;
    }
    p->ninst = n;
    g->kv_delete(kv);
    for (uint32_t i = 0; !rc && i < n; i++) {
        gen_inst *in = &p->inst[i];
        uint32_t j = in->jip, u = in->uip;
        in->jip = j == UINT32_MAX ? j : gen_inst_at(p, j);
        in->uip = u == UINT32_MAX ? u : gen_inst_at(p, u);
        if ((j != UINT32_MAX && in->jip == UINT32_MAX) ||
            (u != UINT32_MAX && in->uip == UINT32_MAX))
            rc = FAIL("kernel '%s': branch at +0x%x targets no instruction", kname, in->offset);
    }
    if (!rc && n == 0)
        rc = FAIL("kernel '%s': IGA decoded no instruction", kname);
    return rc;
}
