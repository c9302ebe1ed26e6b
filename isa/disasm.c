/*
 * disasm.c - kernels back to .sgasm text.  The spelling is canonical:
 * modifiers in the order space, condition, type(s), fences, rounding, flags;
 * labels L<index> at branch targets; floats as decimals when they read back
 * bit-exactly, else raw bits (0h/0f/0d), so that reassembly is the identity.
 */
#include "isa_priv.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A bounded appender: never writes past n, remembers the would-be length. */
typedef struct out {
    char *buf;
    size_t n, len;
} out;

static void put(out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(out *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    size_t room = o->len < o->n ? o->n - o->len : 0;
    int w = vsnprintf(room ? o->buf + o->len : NULL, room, fmt, ap);
    va_end(ap);
    if (w > 0)
        o->len += (size_t)w;
}

static void put_type(out *o, unsigned t, unsigned vec)
{
    if (t >= ISA_T_COUNT) {
        put(o, ".?");
        return;
    }
    put(o, ".%s", isa_types[t].asm_name);
    if (vec > 1)
        put(o, "x%u", vec);
}

static void put_arg(out *o, const isa_kernel *k, unsigned a)
{
    if (k && a < k->narg && k->args[a].name[0])
        put(o, "%%%s", k->args[a].name);
    else
        put(o, "%%arg%u", a);
}

static void put_addr(out *o, const isa_kernel *k, const isa_addr *a)
{
    put(o, "[");
    if (a->base_kind == ISA_OPND_NONE) {
        put(o, "%" PRId64 "]", a->disp);   /* private [offset] */
        return;
    }
    if (a->base_kind == ISA_OPND_ARG)
        put_arg(o, k, a->base);
    else
        put(o, "r%u", a->base);
    if (a->has_index) {
        put(o, " + r%u", a->index);
        if (a->index_type != ISA_T_I32 && a->index_type < ISA_T_COUNT)
            put(o, ":%s", isa_types[a->index_type].asm_name);
        if (a->scale != 1)
            put(o, "*%" PRId32, a->scale);
    }
    if (a->disp > 0)
        put(o, " + %" PRId64, a->disp);
    else if (a->disp < 0)
        put(o, " - %" PRIu64, (uint64_t)0 - (uint64_t)a->disp);
    put(o, "]");
}

static void put_inst(out *o, const isa_kernel *k, const isa_inst *in)
{
    if (in->op >= ISA_OP_COUNT) {
        put(o, "<bad opcode %u>", in->op);
        return;
    }
    const isa_op_info *oi = &isa_ops[in->op];
    put(o, "%s", oi->mnemonic);
    if (isa_op_takes_space(oi) && in->space < ISA_SPACE_IMAGE)
        put(o, ".%s", isa_space_names[in->space]);
    if (oi->family == ISA_FAM_CMP && in->cond >= ISA_BINOP_EQ && in->cond <= ISA_BINOP_GE) {
        const char *c = isa_binop_names[in->cond];
        put(o, ".%c%c", c[0] | 0x20, c[1] | 0x20);
    }
    if (in->type < ISA_T_COUNT) {
        put_type(o, in->type, in->vec);
        if (oi->family == ISA_FAM_CVT)
            put_type(o, in->src_type, 1);
    }
    if (in->flags & ISA_F_FENCE_LOCAL) put(o, ".local");
    if (in->flags & ISA_F_FENCE_GLOBAL) put(o, ".global");
    if (in->flags & ISA_F_FENCE_IMAGE) put(o, ".image");
    unsigned rnd = (in->flags & ISA_F_RND_MASK) >> ISA_F_RND_SHIFT;
    if (rnd && rnd < ISA_RND_COUNT)
        put(o, ".%s", isa_round_names[rnd]);
    if (in->flags & ISA_F_SAT) put(o, ".sat");
    if (in->flags & ISA_F_UNIFORM) put(o, ".uni");
    if (in->flags & ISA_F_CLAMP) put(o, ".clamp");
    if (in->flags & ISA_F_ANYSIGN) put(o, ".anysign");
    if (in->flags & ISA_F_ATOMIC) put(o, ".atomic");
    if (in->flags & ISA_F_ACQUIRE) put(o, ".acquire");
    if (in->flags & ISA_F_RELEASE) put(o, ".release");
    if (in->flags & ISA_F_SCOPE_WG) put(o, ".wgscope");
    if (in->flags & ISA_F_SCOPE_SG) put(o, ".sgscope");
    for (unsigned i = 0; i < in->nopnd && i < ISA_MAX_OPNDS; i++) {
        const isa_operand *op = &in->o[i];
        put(o, i ? ", " : " ");
        switch (op->kind) {
        case ISA_OPND_REG: put(o, "r%u", op->reg); break;
        case ISA_OPND_PRED: put(o, "%sp%u", op->negate ? "!" : "", op->reg); break;
        case ISA_OPND_IMM: {
            char b[64];
            unsigned vec;
            isa_print_imm(b, sizeof b, isa_opnd_type(in, i, &vec), op->imm);
            put(o, "%s", b);
            break;
        }
        case ISA_OPND_ARG: put_arg(o, k, op->reg); break;
        case ISA_OPND_SPECIAL:
            if (op->reg < ISA_SP_COUNT) {
                put(o, "%%%s", isa_specials[op->reg].name);
                if (isa_specials[op->reg].takes_dim)
                    put(o, ".%c", "xyz?"[op->dim < 3 ? op->dim : 3]);
            } else {
                put(o, "%%special%u", op->reg);
            }
            break;
        case ISA_OPND_ADDR: put_addr(o, k, &op->addr); break;
        case ISA_OPND_LABEL: put(o, "L%u", in->target); break;
        default: put(o, "?"); break;
        }
    }
}

void isa_inst_where(const isa_kernel *k, const isa_inst *in, char *buf, size_t n)
{
    if (in->line)
        snprintf(buf, n, "%s:%u", k->file, in->line);
    else if (in->col)
        snprintf(buf, n, "%s, SPIR-V instruction %u (no source line)", k->file, in->col);
    else
        snprintf(buf, n, "%s (no source line)", k->file);
}

int isa_format_inst(const isa_kernel *k, const isa_inst *in, char *buf, size_t n)
{
    out o = { buf, n, 0 };
    if (n)
        buf[0] = 0;
    put_inst(&o, k, in);
    return (int)o.len;
}

static const char *const arg_kinds[] = { "", "global", "constant", "local", "image2d" };
static const char *const accesses[] = { "read_write", "read_only", "write_only" };

/* by-value vector / struct: `byval TYPE N [CLTYPE]`, `byval struct BYTES [CLTYPE]` */
static void put_byval(out *o, const isa_arg *arg)
{
    if (arg->byval_vec)
        put(o, " byval %s %u", arg->type < ISA_T_COUNT ? isa_types[arg->type].asm_name : "?",
            arg->byval_vec);
    else
        put(o, " byval struct %u", arg->byval);
    if (arg->cl_type[0])
        put(o, " %.*s", (int)sizeof arg->cl_type, arg->cl_type);
}

static void put_kernel(out *o, const isa_kernel *k, const uint8_t *is_target)
{
    put(o, ".kernel %s\n", k->name[0] ? k->name : "unnamed");
    if (k->reqd_sg_size)
        put(o, ".reqd_sub_group_size %u\n", k->reqd_sg_size);
    if (k->local_mem)
        put(o, ".local_mem %u\n", k->local_mem);
    if (k->private_mem)
        put(o, ".private_mem %u\n", k->private_mem);
    if (k->regalloc == ISA_RA_VALUES)
        put(o, ".regalloc\n");
    else if (k->regalloc == ISA_RA_DONE)
        put(o, ".live_bytes %u\n", k->grf_bytes_per_lane);
    for (uint32_t a = 0; a < k->narg && a < ISA_MAX_ARGS; a++) {
        const isa_arg *arg = &k->args[a];
        if (k->const_arg == a + 1 || k->global_arg == a + 1) {
            /* 32 bytes a line; an empty block keeps its name */
            bool g = k->global_arg == a + 1;
            uint32_t n = g ? k->global_bytes : k->const_bytes, i = 0;
            const uint8_t *d = g ? k->global_data : k->const_data;
            do {
                put(o, "%s %s", g ? ".global_data" : ".const_data", arg->name);
                for (uint32_t j = 0; j < 32 && i < n; j++, i++)
                    put(o, "%s%02x", j % 4 ? "" : " ", d[i]);
                put(o, "\n");
            } while (i < n);
            continue;
        }
        put(o, ".arg %s", arg->name);
        if (arg->byval)
            put_byval(o, arg);
        else if (arg->kind == ISA_ARG_IMAGE2D)
            put(o, " %s %s", isa_image_type_name(arg->dims, arg->arrayed, arg->img_buffer)
                                 ? isa_image_type_name(arg->dims, arg->arrayed, arg->img_buffer)
                                 : "image2d",
                accesses[arg->access < 3 ? arg->access : 0]);
        else if (arg->kind < ISA_ARG_IMAGE2D)
            put(o, "%s%s %s", arg->kind ? " " : "", arg_kinds[arg->kind],
                arg->type < ISA_T_COUNT ? isa_types[arg->type].asm_name : "?");
        put(o, "\n");
    }
    /* after every argument: both blocks they name are declared by now */
    for (uint32_t i = 0; i < k->nreloc; i++) {
        const isa_reloc *r = &k->relocs[i];
        if (r->arg < k->narg && r->target < k->narg)
            put(o, ".data_reloc %s %u %s %lld\n", k->args[r->arg].name, r->offset,
                k->args[r->target].name, (long long)r->addend);
    }
    for (uint32_t i = 0; i < k->ngvar; i++) {
        const isa_gvar *g = &k->gvars[i];
        put(o, ".global_var %s %u %u %s\n", g->name, g->offset, g->bytes,
            g->type < ISA_T_COUNT ? isa_types[g->type].asm_name : "?");
    }
    /* printf formats, in index order: printable ASCII as it is, the rest
     * (and '"', '\\') escaped */
    for (uint32_t i = 0; i < k->nprintf; i++) {
        const isa_printf_fmt *f = &k->printf_fmts[i];
        put(o, ".printf \"");
        for (uint32_t j = 0; j < f->len; j++) {
            unsigned char ch = (unsigned char)f->text[j];
            if (ch == '\n')
                put(o, "\\n");
            else if (ch == '\t')
                put(o, "\\t");
            else if (ch == '"' || ch == '\\')
                put(o, "\\%c", ch);
            else if (ch >= 0x20 && ch < 0x7f)
                put(o, "%c", ch);
            else
                put(o, "\\x%02x", ch);
        }
        put(o, "\"\n");
    }
    for (uint32_t pc = 0; pc <= k->ninst; pc++) {
        if (is_target && is_target[pc])
            put(o, "L%u:\n", pc);
        if (pc == k->ninst)
            break;
        put(o, "    ");
        put_inst(o, k, &k->inst[pc]);
        put(o, "\n");
    }
}

char *isa_disassemble(const isa_kernel *k)
{
    uint8_t *is_target = calloc((size_t)k->ninst + 1, 1);
    if (!is_target)
        return NULL;        /* without it labels would be lost: no text at all */
    for (uint32_t pc = 0; is_target && pc < k->ninst; pc++) {
        const isa_inst *in = &k->inst[pc];
        for (unsigned i = 0; i < in->nopnd && i < ISA_MAX_OPNDS; i++)
            if (in->o[i].kind == ISA_OPND_LABEL && in->target <= k->ninst)
                is_target[in->target] = 1;
    }
    out o = { NULL, 0, 0 };
    put_kernel(&o, k, is_target);          /* measure */
    size_t need = o.len + 1;
    char *buf = malloc(need);
    if (buf) {
        o = (out){ buf, need, 0 };
        buf[0] = 0;
        put_kernel(&o, k, is_target);
    }
    free(is_target);
    return buf;
}
