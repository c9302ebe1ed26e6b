/* spirv_printf.c - the OpenCL.std printf instruction.  The format must be a
 * string literal (OpenCL C 3.0, 6.15.14.3: resolvable at compile time),
 * so it lies in the kernel's .const_data; it becomes a .printf format of
 * the kernel.  Each argument is converted to what its conversion prints
 * (integers promoted or narrowed to int / long, scalar floats to double)
 * and stored into a private-memory record laid out by isa_printf_parse;
 * one printf instruction then hands the record to the engine
 * (emu/printf.c), which formats it when the launch ends. */
#include "spirv_private.h"

#include <stdio.h>
#include <stdlib.h>

/* The format string of a printf call: a pointer into .const_data. */
static const char *literal(xctx *x, const xc *c, size_t *len)
{
    const isa_kernel *k = x->k;
    if (c->space != ISA_SPACE_CONSTANT || c->o.kind != ISA_OPND_ADDR ||
        c->o.addr.base_kind != ISA_OPND_ARG || !k->const_arg ||
        c->o.addr.base != k->const_arg - 1 || c->o.addr.has_index ||
        c->o.addr.disp < 0 || (uint64_t)c->o.addr.disp >= k->const_bytes)
        return NULL;
    const char *s = (const char *)k->const_data + c->o.addr.disp;
    size_t room = k->const_bytes - (size_t)c->o.addr.disp;
    *len = strnlen(s, room);
    return *len < room ? s : NULL;
}

/* The record slot: reused by every call whose record fits, else a new
 * 8-byte aligned one in private memory. */
static bool record_slot(xctx *x, uint32_t bytes, uint32_t *off)
{
    if (x->printf_slot_bytes && bytes <= x->printf_slot_bytes) {
        *off = x->printf_slot;
        return true;
    }
    uint64_t o = (x->k->private_mem + 7u) / 8u * 8u;
    if (o + bytes > (1u << 20)) {
        spv_error(x, "private variables exceed 1 MiB per work-item");
        return false;
    }
    x->k->private_mem = (uint32_t)(o + bytes);
    x->printf_slot = *off = (uint32_t)o;
    x->printf_slot_bytes = bytes ? bytes : 8;
    return true;
}

static isa_operand at(uint32_t base, uint32_t off)
{
    isa_operand a;
    memset(&a, 0, sizeof a);
    a.kind = ISA_OPND_ADDR;
    a.addr.base_kind = ISA_OPND_REG;
    a.addr.base = (uint16_t)base;
    a.addr.disp = off;
    return a;
}

static void store(xctx *x, isa_type t, isa_operand a, isa_operand v)
{
    if (v.kind == ISA_OPND_IMM && isa_types[t].bytes < 8)
        v.imm &= (UINT64_C(1) << (isa_types[t].bytes * 8u)) - 1;
    isa_inst *st = spv_emit(x, ISA_OP_ST, t);
    st->space = ISA_SPACE_PRIVATE;
    st->o[0] = a;
    st->o[1] = v;
    st->nopnd = 2;
}

/* Store argument `id` for conversion c at [base + c->off]; false (error
 * reported) when the argument cannot be what c prints. */
static bool store_arg(xctx *x, xfn *f, const isa_printf_conv *c, uint32_t id, unsigned n,
                      uint32_t base)
{
    xval *v = spv_val(x, f, id);
    const spv_type *t = spv_type_of_id(x, id);
    if (!v || !v->n || !t)
        return false;
    const isa_operand a = at(base, c->off);
    const char *want;
    if (c->vec > 1) {
        const spv_type *et = t->kind == SPV_TY_VEC ? spv_type_lookup(x, t->elem) : NULL;
        if (et && t->ncomp == c->vec && et->isa_t < ISA_T_COUNT &&
            isa_types[et->isa_t].bytes == c->elem_bytes &&
            isa_types[et->isa_t].is_float == c->elem_float) {
            spv_store_value(x, v, (isa_type)et->isa_t, a, ISA_SPACE_PRIVATE);
            return true;
        }
        want = "a vector of the specifier's length and element type";
    } else if (c->conv == 's' || c->conv == 'p') {
        if (t->kind == SPV_TY_PTR && (c->conv == 'p' || v->c[0].space == ISA_SPACE_CONSTANT)) {
            isa_operand s = spv_src(x, &v->c[0]);
            store(x, ISA_T_U64, a, s);
            return true;
        }
        want = c->conv == 's' ? "a string literal (a pointer to constant memory)" : "a pointer";
    } else if (c->elem_float) {
        if (t->kind == SPV_TY_FLOAT && t->isa_t < ISA_T_COUNT) {
            isa_operand s = spv_src(x, &v->c[0]);
            if (t->isa_t != ISA_T_F64)    /* float and half print as double */
                s = spv_R(spv_cvt(x, ISA_T_F64, (isa_type)t->isa_t, s));
            store(x, ISA_T_F64, a, s);
            return true;
        }
        want = "a floating-point scalar";
    } else {
        if ((t->kind == SPV_TY_INT || t->kind == SPV_TY_BOOL) && t->isa_t < ISA_T_COUNT) {
            isa_operand s = spv_src(x, &v->c[0]);
            const unsigned have = isa_types[t->isa_t].bytes;
            /* d and i sign-extend a narrower argument; the others are unsigned */
            const bool sgn = c->conv == 'd' || c->conv == 'i' || c->conv == 'c';
            isa_type to = c->elem_bytes == 8 ? (sgn ? ISA_T_I64 : ISA_T_U64)
                                             : (sgn ? ISA_T_I32 : ISA_T_U32);
            if (have < c->elem_bytes) {
                isa_type from = (isa_type)t->isa_t;
                from = sgn ? spv_signed(from) : spv_with_sign(from, SG_U);
                s = spv_R(spv_cvt(x, to, from, s));
            }
            store(x, to, a, s);
            return true;
        }
        want = "an integer scalar";
    }
    spv_error(x, "printf: argument %u does not match '%%%c' (conversion at byte %u of the "
              "format): it needs %s", n, c->conv, c->pos, want);
    return false;
}

bool spv_lower_printf(xctx *x, xfn *f, const spv_inst *in)
{
    spv_module *m = x->m;
    if (in->nw < 6) {
        spv_error(x, "printf has no format");
        return true;
    }
    xval *fv = spv_val(x, f, spv_word(m, in, 5));
    if (!fv || !fv->n)
        return true;
    size_t len;
    const char *fmt = literal(x, &fv->c[0], &len);
    if (!fmt) {
        spv_error(x, "printf: the format is not a string literal (OpenCL C requires one "
                  "that is known at compile time)");
        return true;
    }
    char why[200];
    int idx = isa_printf_add(x->k, fmt, len, why, sizeof why);
    if (idx < 0) {
        if (idx == -2)
            spv_error(x, "out of memory");
        else
            spv_error(x, "printf format \"%.60s%s\": %s", fmt, len > 60 ? "..." : "", why);
        return true;
    }
    uint32_t rec;
    int np = isa_printf_parse(fmt, len, NULL, 0, &rec, why, sizeof why);
    isa_printf_conv *cv = np > 0 ? calloc((size_t)np, sizeof *cv) : NULL;
    if (np > 0 && !cv) {
        spv_error(x, "out of memory");
        return true;
    }
    if (np > 0)
        isa_printf_parse(fmt, len, cv, (unsigned)np, &rec, why, sizeof why);
    unsigned need = 0, have = in->nw - 6u;
    for (int i = 0; i < np; i++)
        need += isa_printf_nargs(&cv[i]);
    uint32_t slot = 0;
    if (need > have) {
        spv_error(x, "printf: the format takes %u arguments, the call passes %u", need, have);
    } else if (record_slot(x, rec, &slot)) {
        uint32_t base = spv_reg(x, 1);
        isa_inst *mv = spv_emit(x, ISA_OP_MOV, ISA_T_U64);
        mv->o[0] = spv_R(base);
        mv->o[1] = spv_I(slot);
        mv->nopnd = 2;
        unsigned arg = 0;
        bool ok = true;
        for (int i = 0; i < np && ok; i++) {
            /* '*' width and precision: ints before the value */
            isa_printf_conv star = { .conv = 'd', .vec = 1, .elem_bytes = 4, .width = -1,
                                     .prec = -1, .pos = cv[i].pos };
            if (cv[i].width == -2) {
                star.off = cv[i].width_off;
                ok = store_arg(x, f, &star, spv_word(m, in, 6 + arg), arg + 1, base);
                arg++;
            }
            if (ok && cv[i].prec == -2) {
                star.off = cv[i].prec_off;
                ok = store_arg(x, f, &star, spv_word(m, in, 6 + arg), arg + 1, base);
                arg++;
            }
            if (ok && cv[i].elem_bytes) {
                ok = store_arg(x, f, &cv[i], spv_word(m, in, 6 + arg), arg + 1, base);
                arg++;
            }
        }
        /* arguments past the format's are evaluated and ignored, as the spec says */
        const spv_type *t;
        xval *r = spv_result(x, f, in, &t);
        if (r && !x->failed) {
            uint32_t d = spv_reg(x, 1);
            isa_inst *p = spv_emit(x, ISA_OP_PRINTF, ISA_T_I32);
            p->o[0] = spv_R(d);
            p->o[1] = spv_I((uint64_t)idx);
            p->o[2] = spv_I(slot);
            p->nopnd = 3;
            r->c[0].o = spv_R(d);
        }
    }
    free(cv);
    return true;
}
