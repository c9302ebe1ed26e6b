/* spirv_vecmem.c - OpenCL.std vector loads and stores: vloadn, vstoren,
 * vload_half[n], vloada_halfn, vstore_half[n][_r], vstorea_halfn[_r].
 * The pointer is only aligned to its element, so every component is its own
 * scalar ld/st at p + offset * n * size + k * size. */
#include "spirv_private.h"

typedef struct vm_row {
    const char *name;
    uint8_t store, half, aligned, has_n, has_mode;
} vm_row;

static const vm_row vm_rows[] = {
    { "vloadn", 0, 0, 0, 1, 0 },        { "vstoren", 1, 0, 0, 0, 0 },
    { "vload_half", 0, 1, 0, 0, 0 },    { "vload_halfn", 0, 1, 0, 1, 0 },
    { "vloada_halfn", 0, 1, 1, 1, 0 },  { "vstore_half", 1, 1, 0, 0, 0 },
    { "vstore_halfn", 1, 1, 0, 0, 0 },  { "vstorea_halfn", 1, 1, 1, 0, 0 },
    { "vstore_half_r", 1, 1, 0, 0, 1 }, { "vstore_halfn_r", 1, 1, 0, 0, 1 },
    { "vstorea_halfn_r", 1, 1, 1, 0, 1 },
};

/* Address of element `first` of p + offset * stride (bytes). */
static isa_operand vm_addr(xctx *x, const xc *p, const xc *offset, uint64_t stride,
                           isa_space *sp)
{
    if (offset->o.kind == ISA_OPND_IMM) {
        isa_operand a = spv_addr_of(x, p, sp);
        a.addr.disp = (int64_t)((uint64_t)a.addr.disp + offset->o.imm * stride);
        return a;
    }
    uint32_t r = spv_reg(x, 1);
    isa_operand o = spv_src(x, offset), b = spv_src(x, p);   /* before the mad */
    isa_inst *mad = spv_emit(x, ISA_OP_MAD, ISA_T_U64);
    mad->o[0] = spv_R(r);
    mad->o[1] = o;
    mad->o[2] = spv_I(stride);
    mad->o[3] = b;
    mad->nopnd = 4;
    xc c = *p;
    c.o = spv_R(r);
    return spv_addr_of(x, &c, sp);
}

static uint8_t vm_round(uint32_t mode)
{
    switch (mode) {
    case SpvFPRoundingModeRTE: return ISA_RND_RTE;
    case SpvFPRoundingModeRTZ: return ISA_RND_RTZ;
    case SpvFPRoundingModeRTP: return ISA_RND_RTP;
    case SpvFPRoundingModeRTN: return ISA_RND_RTN;
    default: return ISA_RND_RTE;
    }
}

bool spv_op_vecmem(xctx *x, xfn *f, const spv_inst *in, const char *name)
{
    const vm_row *row = NULL;
    for (unsigned i = 0; i < sizeof vm_rows / sizeof vm_rows[0] && !row; i++)
        if (!strcmp(vm_rows[i].name, name))
            row = &vm_rows[i];
    if (!row)
        return false;
    spv_module *m = x->m;
    unsigned first = row->store ? 6 : 5;          /* offset operand */
    if (in->nw < first + 2 + row->has_n + row->has_mode) {
        spv_error(x, "'%s' has too few operands", name);
        return true;
    }
    xval *off = spv_val(x, f, spv_word(m, in, first));
    xval *p = spv_val(x, f, spv_word(m, in, first + 1));
    xval *data = row->store ? spv_val(x, f, spv_word(m, in, 5)) : NULL;
    if (!off || !p || !off->n || !p->n || (row->store && (!data || !data->n)))
        return true;
    const spv_type *rt = data ? NULL : spv_type_lookup(x, spv_word(m, in, 1));
    unsigned n = data ? data->n : (rt ? rt->ncomp : 0);     /* data: a store */
    if (!n)
        return true;
    /* element type in memory and in registers */
    isa_type mt, vt;
    if (row->half) {
        mt = ISA_T_F16;
        vt = data ? ISA_T_NONE : spv_comp_type(rt);
        if (data) {
            uint32_t did = spv_word(m, in, 5);
            const spv_inst *d = did < m->bound && m->def[did] ? &m->ins[m->def[did] - 1] : NULL;
            const spv_op_info *oi = d ? spv_op_find(d->op) : NULL;
            const spv_type *dt = oi && oi->has_type ? spv_type_lookup(x, spv_word(m, d, 1)) : NULL;
            vt = dt ? spv_comp_type(dt) : ISA_T_F32;
        }
        if (vt != ISA_T_F32 && vt != ISA_T_F64) {
            spv_error(x, "'%s' converts float or double only", name);
            return true;
        }
    } else if (data) {
        uint32_t did = spv_word(m, in, 5);
        const spv_inst *d = did < m->bound && m->def[did] ? &m->ins[m->def[did] - 1] : NULL;
        const spv_op_info *oi = d ? spv_op_find(d->op) : NULL;
        const spv_type *dt = oi && oi->has_type ? spv_type_lookup(x, spv_word(m, d, 1)) : NULL;
        if (!dt)
            return true;
        mt = vt = spv_comp_type(dt);
    } else {
        mt = vt = spv_comp_type(rt);
    }
    unsigned esz = isa_types[mt].bytes;
    unsigned stride_n = row->aligned && n == 3 ? 4 : n;
    isa_space sp;
    isa_operand a = vm_addr(x, &p->c[0], &off->c[0], (uint64_t)stride_n * esz, &sp);
    if (data) {
        if (sp == ISA_SPACE_CONSTANT) {
            spv_error(x, "'%s' into constant memory", name);
            return true;
        }
        uint8_t rnd = row->has_mode ? vm_round(spv_word(m, in, first + 2)) : ISA_RND_RTE;
        for (unsigned k = 0; k < n; k++) {
            isa_operand s = spv_src(x, &data->c[k]);
            if (row->half) {
                uint32_t r = spv_reg(x, 1);
                isa_inst *cv = spv_emit(x, ISA_OP_CVT, ISA_T_F16);
                cv->src_type = (uint8_t)vt;
                cv->flags = (uint16_t)(rnd << ISA_F_RND_SHIFT);
                cv->o[0] = spv_R(r);
                cv->o[1] = s;
                cv->nopnd = 2;
                s = spv_R(r);
            }
            isa_inst *st = spv_emit(x, ISA_OP_ST, mt);
            st->space = (uint8_t)sp;
            st->o[0] = a;
            st->o[0].addr.disp = (int64_t)((uint64_t)st->o[0].addr.disp + (uint64_t)k * esz);
            st->o[1] = s;
            st->nopnd = 2;
        }
        return true;
    }
    xval *v = spv_def(x, f, spv_word(m, in, 2), n);
    if (!v)
        return true;
    uint32_t r = spv_reg(x, n);
    for (unsigned k = 0; k < n && k < XV_MAX; k++) {
        uint32_t lr = row->half ? spv_reg(x, 1) : r + k;
        isa_inst *ld = spv_emit(x, ISA_OP_LD, mt);
        ld->space = (uint8_t)sp;
        ld->o[0] = spv_R(lr);
        ld->o[1] = a;
        ld->o[1].addr.disp = (int64_t)((uint64_t)ld->o[1].addr.disp + (uint64_t)k * esz);
        ld->nopnd = 2;
        if (row->half) {
            isa_inst *cv = spv_emit(x, ISA_OP_CVT, vt);
            cv->src_type = ISA_T_F16;
            cv->o[0] = spv_R(r + k);
            cv->o[1] = spv_R(lr);
            cv->nopnd = 2;
        }
        v->c[k].o = spv_R(r + k);
    }
    return true;
}
