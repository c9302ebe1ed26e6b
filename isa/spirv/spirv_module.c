/* spirv_module.c - read a SPIR-V binary: header, instruction boundaries,
 * names, decorations, types, entry points.  Every word access is
 * bounds-checked so corrupt modules give errors, never crashes. */
#include "spirv_private.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

const spv_op_info *spv_op_find(uint32_t opcode)
{
    unsigned lo = 0, hi = spv_op_table_len;
    while (lo < hi) {
        unsigned mid = (lo + hi) / 2;
        if (spv_op_table[mid].opcode == opcode)
            return &spv_op_table[mid];
        if (spv_op_table[mid].opcode < opcode)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

const char *spv_op_name(uint32_t opcode)
{
    static _Thread_local char buf[24];
    const spv_op_info *oi = spv_op_find(opcode);
    if (oi)
        return oi->name;
    snprintf(buf, sizeof buf, "Op%u", opcode);
    return buf;
}

void spv_err(spv_module *m, const spv_inst *in, const char *fmt, ...)
{
    char msg[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    m->errors++;
    if (m->errors > 20)
        return;        /* a fuzzed module could produce one per word */
    if (in && in->line)
        isa_diags_add(m->d, in->line, 1, "%s: %s", spv_op_name(in->op), msg);
    else if (in)        /* no source line: say which instruction, not a line */
        isa_diags_add(m->d, 0, 0, "SPIR-V instruction %u (no source line): %s: %s",
                      (unsigned)(in - m->ins) + 1, spv_op_name(in->op), msg);
    else
        isa_diags_add(m->d, 1, 1, "%s", msg);
}

uint32_t spv_word(spv_module *m, const spv_inst *in, unsigned i)
{
    if (i >= in->nw) {
        spv_err(m, in, "instruction has %u words, operand word %u is missing", in->nw, i);
        return 0;
    }
    return m->w[in->off + i];
}

const char *spv_string(spv_module *m, const spv_inst *in, unsigned i, unsigned *words)
{
    if (i >= in->nw) {
        spv_err(m, in, "missing string operand");
        return NULL;
    }
    const char *s = (const char *)&m->w[in->off + i];
    size_t max = (size_t)(in->nw - i) * 4;
    size_t n = strnlen(s, max);
    if (n == max) {
        spv_err(m, in, "string operand is not NUL-terminated");
        return NULL;
    }
    if (words)
        *words = (unsigned)(n / 4 + 1);
    return s;
}

bool spv_is_module(const void *data, size_t len)
{
    uint32_t w;
    if (len < 4)
        return false;
    memcpy(&w, data, 4);
    return w == SpvMagicNumber || w == __builtin_bswap32(SpvMagicNumber);
}

/* id operand i of `in` that must be < bound; 0 (error recorded) if not. */
static uint32_t id_at(spv_module *m, const spv_inst *in, unsigned i)
{
    uint32_t id = spv_word(m, in, i);
    if (id == 0 || id >= m->bound) {
        if (i < in->nw)
            spv_err(m, in, "id %u out of bounds (bound %u)", id, m->bound);
        return 0;
    }
    return id;
}

static uint64_t align_up(uint64_t v, uint64_t a)
{
    return a ? (v + a - 1) / a * a : v;
}

static void parse_type(spv_module *m, const spv_inst *in, uint32_t id)
{
    spv_type *t = &m->types[id];
    t->isa_t = ISA_T_NONE;
    t->ncomp = 1;
    switch (in->op) {
    case SpvOpTypeVoid: t->kind = SPV_TY_VOID; break;
    case SpvOpTypeBool: t->kind = SPV_TY_BOOL; t->isa_t = ISA_T_U32; t->size = 1; break;
    case SpvOpTypeInt: {
        uint32_t bits = spv_word(m, in, 2);
        static const uint8_t by_bits[] = { [1] = ISA_T_U8, [2] = ISA_T_U16, [4] = ISA_T_U32,
                                           [8] = ISA_T_U64 };
        t->kind = SPV_TY_INT;
        if (bits % 8 || bits / 8 > 8 || !by_bits[bits / 8 < 9 ? bits / 8 : 0]) {
            if (bits != 8)
                spv_err(m, in, "integer width %u is not supported", bits);
            t->isa_t = ISA_T_U8;
        } else {
            t->isa_t = by_bits[bits / 8];
        }
        t->size = t->align = bits / 8 ? bits / 8 : 1;
        break;
    }
    case SpvOpTypeFloat: {
        uint32_t bits = spv_word(m, in, 2);
        t->kind = SPV_TY_FLOAT;
        t->isa_t = bits == 16 ? ISA_T_F16 : bits == 64 ? ISA_T_F64 : ISA_T_F32;
        if (bits != 16 && bits != 32 && bits != 64)
            spv_err(m, in, "float width %u is not supported", bits);
        t->size = t->align = t->isa_t == ISA_T_F16 ? 2 : t->isa_t == ISA_T_F64 ? 8 : 4;
        break;
    }
    case SpvOpTypeVector: {
        uint32_t e = id_at(m, in, 2), n = spv_word(m, in, 3);
        const spv_type *et = &m->types[e];
        t->kind = SPV_TY_VEC;
        t->elem = e;
        if (!e || (et->kind != SPV_TY_INT && et->kind != SPV_TY_FLOAT &&
                   et->kind != SPV_TY_BOOL) || n < 2 || n > 16) {
            spv_err(m, in, "unsupported vector type (%u components)", n);
            t->kind = SPV_TY_OTHER;
            break;
        }
        t->isa_t = et->isa_t;
        t->ncomp = (uint8_t)n;
        uint64_t n2 = n == 3 ? 4 : n;
        t->size = t->align = et->size * n2;
        break;
    }
    case SpvOpTypePointer: {
        t->kind = SPV_TY_PTR;
        t->sc = spv_word(m, in, 2);
        t->elem = spv_word(m, in, 3);    /* may be a forward reference */
        if (t->elem >= m->bound)
            spv_err(m, in, "id %u out of bounds (bound %u)", t->elem, m->bound);
        t->isa_t = ISA_T_U64;
        t->size = t->align = m->addr_bits / 8;
        break;
    }
    case SpvOpTypeArray: {
        uint32_t e = id_at(m, in, 2), lid = id_at(m, in, 3);
        t->kind = SPV_TY_ARRAY;
        t->elem = e;
        const spv_inst *ci = lid && m->def[lid] ? &m->ins[m->def[lid] - 1] : NULL;
        uint64_t len = ci && ci->op == SpvOpConstant ? spv_word(m, ci, 3) : 0;
        if (ci && ci->op == SpvOpConstant && ci->nw > 4)
            len |= (uint64_t)spv_word(m, ci, 4) << 32;
        if (!len)
            spv_err(m, in, "array length is not a constant");
        if (e) {
            t->size = m->types[e].size * len;
            t->align = m->types[e].align;
        }
        break;
    }
    case SpvOpTypeStruct: {
        t->kind = SPV_TY_STRUCT;
        unsigned n = in->nw > 2 ? in->nw - 2u : 0;
        uint32_t *nm = realloc(m->members, (m->nmembers + n + 1) * sizeof *nm);
        uint64_t *no = realloc(m->member_off, (m->nmembers + n + 1) * sizeof *no);
        if (nm) m->members = nm;
        if (no) m->member_off = no;
        if (!nm || !no) {
            spv_err(m, in, "out of memory");
            break;
        }
        t->first_member = m->nmembers;
        t->nmembers = n;
        uint64_t off = 0, al = 1;
        for (unsigned i = 0; i < n; i++) {
            uint32_t e = id_at(m, in, 2 + i);
            const spv_type *et = &m->types[e];
            if (!m->packed[id])    /* CPacked (__attribute__((packed))): no padding */
                off = align_up(off, et->align);
            m->members[m->nmembers + i] = e;
            m->member_off[m->nmembers + i] = off;
            off += et->size;
            if (et->align > al && !m->packed[id])
                al = et->align;
        }
        m->nmembers += n;
        t->align = al;
        t->size = align_up(off, al);
        break;
    }
    case SpvOpTypeImage:
        t->kind = SPV_TY_IMAGE;
        t->img_dim = in->nw > 3 ? (uint8_t)m->w[in->off + 3] : 0;
        t->img_arrayed = in->nw > 5 ? (uint8_t)m->w[in->off + 5] : 0;
        /* access qualifier (word 9): ReadOnly 0, WriteOnly 1, ReadWrite 2 */
        if (in->nw > 9) {
            uint32_t aq = m->w[in->off + 9];
            t->access = aq == 0 ? 1 : aq == 1 ? 2 : 0;
        } else {
            t->access = 1;
        }
        t->size = t->align = 8;
        break;
    case SpvOpTypeSampler:    /* the OpenCL sampler_t bit-field, a u32 */
        t->kind = SPV_TY_INT;
        t->isa_t = ISA_T_U32;
        t->sampler = 1;
        t->ncomp = 1;
        t->size = t->align = 4;
        break;
    case SpvOpTypeEvent:      /* event_t of async copies: a u64 that stays 0 */
        t->kind = SPV_TY_INT;
        t->isa_t = ISA_T_U64;
        t->ncomp = 1;
        t->size = t->align = 8;
        break;
    default:
        t->kind = SPV_TY_OTHER;
        break;
    }
}

bool spv_is_debug_inst(const spv_module *m, const spv_inst *in)
{
    if (in->op != SpvOpExtInst || in->nw < 4)
        return false;
    for (uint32_t i = 0; i < m->ndebug_import; i++)
        if (m->w[in->off + 3] == m->debug_import[i])
            return true;
    return false;
}

/* The 5-word header: size, byte order (words swapped to the host's), magic
 * number, id bound; the words are copied into m->w.  false after an error. */
static bool read_header(spv_module *m, const void *data, size_t len)
{
    if (len < 20) {
        spv_err(m, NULL, "not a SPIR-V module: %zu bytes is shorter than the 5-word header", len);
        return false;
    }
    if (len % 4) {
        spv_err(m, NULL, "truncated SPIR-V module: %zu bytes is not a whole number of words", len);
        return false;
    }
    m->nw = len / 4;
    m->w = malloc(len);
    if (!m->w) {
        spv_err(m, NULL, "out of memory");
        return false;
    }
    memcpy(m->w, data, len);
    if (m->w[0] == __builtin_bswap32(SpvMagicNumber)) {
        for (size_t i = 0; i < m->nw; i++)
            m->w[i] = __builtin_bswap32(m->w[i]);
    }
    if (m->w[0] != SpvMagicNumber) {
        spv_err(m, NULL, "not a SPIR-V module: bad magic number 0x%08x (expected 0x07230203)",
                m->w[0]);
        return false;
    }
    m->bound = m->w[3];
    if (m->bound == 0 || m->bound > (1u << 22)) {
        spv_err(m, NULL, "SPIR-V id bound %u is out of range", m->bound);
        return false;
    }
    return true;
}

/* Instruction boundaries and the source line of each instruction (OpLine,
 * or its index + 1).  false after an error. */
static bool split_instructions(spv_module *m)
{
    size_t cap = 256;
    m->ins = calloc(cap, sizeof *m->ins);   /* zeroed: the analyzer cannot see nins bound the reads */
    uint32_t line = 0;
    for (size_t p = 5; p < m->nw && m->ins;) {
        uint32_t nw = m->w[p] >> 16, op = m->w[p] & 0xffff;
        if (nw == 0 || p + nw > m->nw) {
            spv_err(m, NULL, "truncated or corrupt SPIR-V: instruction %u (%s) at word %zu has "
                    "word count %u, %zu words left", m->nins, spv_op_name(op), p, nw, m->nw - p);
            return false;
        }
        if (m->nins == cap) {
            spv_inst *ni = realloc(m->ins, (cap *= 2) * sizeof *ni);
            if (!ni)
                break;
            m->ins = ni;
        }
        spv_inst *in = &m->ins[m->nins];
        in->off = (uint32_t)p;
        in->op = (uint16_t)op;
        in->nw = (uint16_t)nw;
        if (op == SpvOpLine && nw >= 3) {
            if (!m->line_file)
                m->line_file = m->w[p + 1];
            /* a line of another file (an included header) is no line of
             * the kernel's file, whose name the positions carry */
            line = m->w[p + 1] == m->line_file ? m->w[p + 2] : 0;
        }
        else if (op == SpvOpNoLine || op == SpvOpFunctionEnd)
            line = 0;
        in->line = line;     /* 0: none; positions then name the instruction */
        m->nins++;
        p += nw;
    }
    return true;
}

/* The per-id tables, sized by the largest id the instructions use; returns
 * that size (0 after an error). */
static uint32_t alloc_id_tables(spv_module *m)
{
    /* The header's bound only promises that every id is below it: a module
     * (or a corrupt header) may declare up to 2^22 while its ids stay small,
     * and the per-id tables here and in the translator (per function it
     * inlines) are sized and walked by m->bound.  Every id is an operand
     * word, so the largest operand word below the declared bound, plus one,
     * is a bound too: each comparison of an id with it comes out as with the
     * declared one.  The tables get that size; m->bound becomes it after the
     * loop below, whose messages name the declared bound. */
    uint32_t top = 0;
    for (uint32_t i = 0; m->ins && i < m->nins; i++)
        for (uint32_t j = m->ins[i].off + 1; j < m->ins[i].off + m->ins[i].nw; j++)
            if (m->w[j] < m->bound && m->w[j] > top)
                top = m->w[j];
    uint32_t used = top + 1;
    m->def = calloc(used, sizeof *m->def);
    m->name = calloc(used, sizeof *m->name);
    m->builtin = calloc(used, sizeof *m->builtin);
    m->saturate = calloc(used, 1);
    m->rounding = calloc(used, 1);
    m->packed = calloc(used, 1);
    m->types = calloc(used, sizeof *m->types);
    if (!m->ins || !m->def || !m->name || !m->builtin || !m->saturate || !m->rounding ||
        !m->types || !m->packed) {
        m->bound = used;
        spv_err(m, NULL, "out of memory");
        return 0;
    }
    return used;
}

/* Instruction i into the tables: its definition and type, names,
 * decorations, imports, the addressing model, entry points and their
 * sub-group size.  false stops the indexing (an id defined twice or out of
 * range). */
static bool index_instruction(spv_module *m, uint32_t i)
{
    spv_inst *in = &m->ins[i];
    const spv_op_info *oi = spv_op_find(in->op);   // NOLINT(clang-analyzer-core.CallAndMessage): the first nins entries were decoded above
    if (oi && oi->has_result) {
        uint32_t id = id_at(m, in, oi->has_type ? 2 : 1);
        if (oi->has_type)
            (void)id_at(m, in, 1);
        if (!id)
            return false;
        if (m->def[id]) {
            spv_err(m, in, "id %u is defined twice", id);
            return false;
        }
        m->def[id] = i + 1;
        if (in->op >= SpvOpTypeVoid && in->op <= SpvOpTypeForwardPointer)
            parse_type(m, in, id);
    }
    switch (in->op) {
    case SpvOpMemoryModel: {
        uint32_t am = spv_word(m, in, 1);
        if (am == SpvAddressingModelPhysical32)
            m->addr_bits = 32;
        else if (am != SpvAddressingModelPhysical64)
            spv_err(m, in, "addressing model %s is not supported (OpenCL kernels use "
                    "Physical32 or Physical64)",
                    spv_enum_name("AddressingModel", am) ? spv_enum_name("AddressingModel", am)
                                                         : "?");
        break;
    }
    case SpvOpExtInstImport: {
        const char *s = spv_string(m, in, 2, NULL);
        if (s && !strcmp(s, "OpenCL.std"))
            m->ocl_import = m->w[in->off + 1];
        else if (s && (!strcmp(s, "OpenCL.DebugInfo.100") || !strcmp(s, "SPIRV.debug") ||
                       !strncmp(s, "NonSemantic.", 12)) &&
                 m->ndebug_import < 4)
            m->debug_import[m->ndebug_import++] = m->w[in->off + 1];
        break;
    }
    case SpvOpName: {
        uint32_t id = id_at(m, in, 1);
        const char *s = spv_string(m, in, 2, NULL);
        if (id && s)
            m->name[id] = s;
        break;
    }
    case SpvOpDecorate: {
        uint32_t id = id_at(m, in, 1), dec = spv_word(m, in, 2);
        if (!id)
            break;
        if (dec == SpvDecorationBuiltIn)
            m->builtin[id] = spv_word(m, in, 3) + 1;
        else if (dec == SpvDecorationSaturatedConversion)
            m->saturate[id] = 1;
        else if (dec == SpvDecorationFPRoundingMode)
            m->rounding[id] = (uint8_t)(spv_word(m, in, 3) + 1);
        else if (dec == SpvDecorationCPacked)
            m->packed[id] = 1;
        break;
    }
    case SpvOpEntryPoint: {
        if (spv_word(m, in, 1) != SpvExecutionModelKernel)
            break;
        spv_entry *ne = realloc(m->entries, (m->nentries + 1) * sizeof *ne);
        if (!ne)
            break;
        m->entries = ne;
        spv_entry *e = &ne[m->nentries];
        memset(e, 0, sizeof *e);
        e->func = id_at(m, in, 2);
        const char *s = spv_string(m, in, 3, NULL);
        if (!e->func || !s)
            break;
        snprintf(e->name, sizeof e->name, "%s", s);
        m->nentries++;
        break;
    }
    case SpvOpExecutionMode: {
        uint32_t f = spv_word(m, in, 1), mode = spv_word(m, in, 2);
        for (uint32_t j = 0; j < m->nentries; j++) {
            if (m->entries[j].func != f)
                continue;
            if (mode == SpvExecutionModeSubgroupSize)
                m->entries[j].sg_size = spv_word(m, in, 3);
            else if (mode == SpvExecutionModeLocalSize)
                for (int d = 0; d < 3; d++)
                    m->entries[j].local_size[d] = spv_word(m, in, 3 + (uint32_t)d);
        }
        break;
    }
    default:
        break;
    }
    return true;
}

int spv_module_parse(spv_module *m, const char *file, const void *data, size_t len,
                     isa_diags *d)
{
    memset(m, 0, sizeof *m);
    m->file = file;
    m->d = d;
    m->addr_bits = 64;
    if (!read_header(m, data, len) || !split_instructions(m))
        return m->errors;
    const uint32_t used = alloc_id_tables(m);
    if (!used)
        return m->errors;
    for (uint32_t i = 0; i < m->nins && m->errors == 0; i++)
        if (!index_instruction(m, i))
            break;
    m->bound = used;
    return m->errors;
}

void spv_module_free(spv_module *m)
{
    free(m->w);
    free(m->ins);
    free(m->def);
    free(m->name);
    free(m->builtin);
    free(m->saturate);
    free(m->rounding);
    free(m->packed);
    free(m->types);
    free(m->members);
    free(m->member_off);
    free(m->entries);
    memset(m, 0, sizeof *m);
}
