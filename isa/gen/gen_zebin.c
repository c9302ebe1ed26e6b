/* gen_zebin.c - read ocloc's zebin: an ELF64 whose section .text.<kernel>
 * holds the kernel heap and whose .ze_info section is YAML describing each
 * kernel's payload (the layout the Intel compute runtime reads: its
 * zebin_elf.h / zeinfo sections, IGC's ZEInfo.yaml).  docs/gen.md lists
 * every key read here and what sgemu does with it. */
#include "gen_private.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

/* Fill err; evaluates to 1 (bad input). */
static int fail(char *err, size_t errcap, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t errcap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errcap, fmt, ap);
    va_end(ap);
    return 1;
}
#define FAIL(...) fail(err, errcap, __VA_ARGS__)

static uint64_t rd(const uint8_t *p, int n)
{
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

typedef struct elf_sec {
    const char *name;
    const uint8_t *data;
    size_t size;
} elf_sec;

/* The sections of an ELF64 little-endian file; NULL when it is not one. */
static elf_sec *elf_sections(const uint8_t *b, size_t len, uint32_t *n, char *err,
                             size_t errcap)
{
    if (len < 64 || memcmp(b, "\177ELF", 4) != 0 || b[4] != 2 || b[5] != 1) {
        FAIL("not a zebin (ELF64 little-endian) file");
        return NULL;
    }
    uint64_t shoff = rd(b + 0x28, 8);
    uint32_t shentsize = (uint32_t)rd(b + 0x3a, 2), shnum = (uint32_t)rd(b + 0x3c, 2);
    uint32_t shstrndx = (uint32_t)rd(b + 0x3e, 2);
    if (shentsize < 64 || shnum == 0 || shstrndx >= shnum || shoff > len ||
        (uint64_t)shnum * shentsize > len - shoff) {
        FAIL("zebin: section header table outside the file");
        return NULL;
    }
    elf_sec *s = calloc(shnum, sizeof *s);
    if (!s) {
        FAIL("out of host memory");
        return NULL;
    }
    const uint8_t *strh = b + shoff + (uint64_t)shstrndx * shentsize;
    uint64_t stroff = rd(strh + 0x18, 8), strsize = rd(strh + 0x20, 8);
    if (stroff > len || strsize > len - stroff) {
        free(s);
        FAIL("zebin: section name table outside the file");
        return NULL;
    }
    for (uint32_t i = 0; i < shnum; i++) {
        const uint8_t *h = b + shoff + (uint64_t)i * shentsize;
        uint32_t nm = (uint32_t)rd(h, 4), type = (uint32_t)rd(h + 4, 4);
        uint64_t off = rd(h + 0x18, 8), size = rd(h + 0x20, 8);
        if (nm >= strsize || !memchr(b + stroff + nm, 0, strsize - nm)) {
            free(s);
            FAIL("zebin: bad section name");
            return NULL;
        }
        s[i].name = (const char *)b + stroff + nm;
        if (type != 8 /* SHT_NOBITS */ && type != 0) {
            if (off > len || size > len - off) {
                FAIL("zebin: section '%s' outside the file", (const char *)b + stroff + nm);
                free(s);
                return NULL;
            }
            s[i].data = b + off;
            s[i].size = size;
        }
    }
    *n = shnum;
    return s;
}

/* ------------------------------------------------------------ YAML helpers */

static yaml_node_t *map_get(yaml_document_t *d, yaml_node_t *m, const char *key)
{
    if (!m || m->type != YAML_MAPPING_NODE)
        return NULL;
    for (yaml_node_pair_t *p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top; p++) {
        yaml_node_t *k = yaml_document_get_node(d, p->key);
        if (k && k->type == YAML_SCALAR_NODE && strcmp((char *)k->data.scalar.value, key) == 0)
            return yaml_document_get_node(d, p->value);
    }
    return NULL;
}

static const char *scalar(yaml_node_t *n)
{
    return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

static long long num(yaml_document_t *d, yaml_node_t *m, const char *key, long long dflt)
{
    const char *s = scalar(map_get(d, m, key));
    if (!s)
        return dflt;
    if (strcmp(s, "true") == 0)
        return 1;
    if (strcmp(s, "false") == 0)
        return 0;
    return strtoll(s, NULL, 0);
}

static const char *str(yaml_document_t *d, yaml_node_t *m, const char *key)
{
    const char *s = scalar(map_get(d, m, key));
    return s ? s : "";
}

#define SEQ_EACH(d, seq, it)                                                        \
    for (yaml_node_item_t *it = (seq) && (seq)->type == YAML_SEQUENCE_NODE          \
                                    ? (seq)->data.sequence.items.start : NULL;      \
         it && it < (seq)->data.sequence.items.top; it++)

/* ------------------------------------------------------------- arguments */

/* The element type of an OpenCL type string of kernels_misc_info
 * ("float*;8", "uint4;16"). */
static isa_type cl_elem_type(const char *tn)
{
    /* OpenCL C's atomic_int, atomic_ulong, ...: their value type, as on
     * sgemu's own path */
    if (strncmp(tn, "atomic_", 7) == 0)
        tn += 7;
    size_t n = strcspn(tn, "*;");
    while (n && tn[n - 1] >= '0' && tn[n - 1] <= '9')   /* vector count */
        n--;
    isa_type t = isa_type_from_name(tn, n);
    return t == ISA_T_NONE ? ISA_T_U8 : t;
}

static int add_arg(isa_kernel *k, uint32_t idx, char *err, size_t errcap)
{
    if (idx >= ISA_MAX_ARGS)
        return FAIL("kernel '%s': argument %u beyond sgemu's %d", k->name, idx, ISA_MAX_ARGS);
    while (k->narg <= idx) {
        isa_arg *a = &k->args[k->narg];
        memset(a, 0, sizeof *a);
        snprintf(a->name, sizeof a->name, "arg%u", k->narg);
        a->kind = ISA_ARG_SCALAR;
        a->type = ISA_T_U32;
        k->narg++;
    }
    return 0;
}

static int payload_kind(const char *t, gen_payload_kind *out)
{
    static const struct { const char *name; gen_payload_kind kind; } kinds[] = {
        { "global_id_offset", GEN_PAY_GLOBAL_ID_OFFSET },
        { "local_size", GEN_PAY_LOCAL_SIZE },
        { "enqueued_local_size", GEN_PAY_ENQUEUED_LOCAL_SIZE },
        { "global_size", GEN_PAY_GLOBAL_SIZE },
        { "group_count", GEN_PAY_GROUP_COUNT },
        { "work_dimensions", GEN_PAY_WORK_DIMENSIONS },
        { "buffer_address", GEN_PAY_BUFFER_ADDRESS },
        { "buffer_offset", GEN_PAY_BUFFER_OFFSET },
        { "private_base_stateless", GEN_PAY_PRIVATE_BASE },
        { "image_width", GEN_PAY_IMAGE_WIDTH },
        { "image_height", GEN_PAY_IMAGE_HEIGHT },
        { "image_depth", GEN_PAY_IMAGE_DEPTH },
        { "image_channel_data_type", GEN_PAY_IMAGE_CHTYPE },
        { "image_channel_order", GEN_PAY_IMAGE_ORDER },
        { "sampler_snap_wa", GEN_PAY_SAMPLER_SNAP_WA },
        { "sampler_address", GEN_PAY_SAMPLER_ADDRESS },
        { "sampler_normalized", GEN_PAY_SAMPLER_NORMALIZED },
        { "printf_buffer", GEN_PAY_PRINTF_BUFFER },
    };
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
        if (strcmp(t, kinds[i].name) == 0) {
            *out = kinds[i].kind;
            return 0;
        }
    return -1;
}

static int add_payload(gen_program *p, gen_payload e, const char *kname, char *err,
                       size_t errcap)
{
    if (p->npay >= GEN_MAX_PAYLOAD)
        return FAIL("kernel '%s': more than %d payload arguments", kname, GEN_MAX_PAYLOAD);
    if (e.offset > 4096 || e.size > 4096)
        return FAIL("kernel '%s': payload argument at %u (%u bytes) outside the cross-thread "
                    "data sgemu accepts", kname, e.offset, e.size);
    p->pay[p->npay++] = e;
    if (e.offset + e.size > p->cross_bytes)
        p->cross_bytes = e.offset + e.size;
    return 0;
}

/* One payload_arguments entry. */
static int payload_arg(yaml_document_t *d, yaml_node_t *e, gen_program *p, isa_kernel *k,
                       char *err, size_t errcap)
{
    const char *t = str(d, e, "arg_type");
    gen_payload pe = { .offset = (uint32_t)num(d, e, "offset", 0),
                       .size = (uint32_t)num(d, e, "size", 0) };
    long long ai = num(d, e, "arg_index", -1);
    if (ai >= 0 && add_arg(k, (uint32_t)ai, err, errcap))
        return 1;
    gen_payload_kind kind;
    if (strcmp(t, "arg_bypointer") == 0) {
        if (ai < 0)
            return FAIL("kernel '%s': arg_bypointer without arg_index", k->name);
        isa_arg *a = &k->args[ai];
        const char *space = str(d, e, "addrspace"), *mode = str(d, e, "addrmode");
        if (strcmp(space, "local") == 0) {
            /* the SLM offset of the argument's local buffer */
            a->kind = ISA_ARG_LOCAL;
            if (num(d, e, "slm_alignment", 0) > 16)
                return FAIL("kernel '%s': local argument %lld aligned to more than 16 bytes",
                            k->name, ai);
            if (!pe.size)
                return 0;
            pe.kind = GEN_PAY_LOCAL_OFFSET;
            pe.arg = (uint16_t)ai;
            return add_payload(p, pe, k->name, err, errcap);
        }
        if (strcmp(space, "image") == 0) {
            const char *it = str(d, e, "image_type");
            if (strcmp(it, "image_2d") != 0)
                return FAIL("kernel '%s': argument %lld of image type '%s' is not supported "
                            "by sgemu (image2d_t only)", k->name, ai, it);
            const char *acc = str(d, e, "access_type");
            a->kind = ISA_ARG_IMAGE2D;
            a->access = strcmp(acc, "readonly") == 0 ? 1 : strcmp(acc, "writeonly") == 0 ? 2 : 0;
            return 0;
        }
        if (strcmp(space, "sampler") == 0) {
            /* a sampler_t argument: the OpenCL C bit-field, as on sgemu's own path */
            long long si = num(d, e, "sampler_index", -1);
            if (si < 0 || si >= GEN_MAX_SAMPLERS)
                return FAIL("kernel '%s': sampler argument %lld with sampler_index %lld",
                            k->name, ai, si);
            a->kind = ISA_ARG_SCALAR;
            a->type = ISA_T_U32;
            p->sampler_arg[si] = (int16_t)ai;
            return 0;
        }
        if (strcmp(space, "global") == 0)
            a->kind = ISA_ARG_GLOBAL;
        else if (strcmp(space, "constant") == 0)
            a->kind = ISA_ARG_CONSTANT;
        else
            return FAIL("kernel '%s': argument %lld in address space '%s' is not supported "
                        "by sgemu's Gen path yet", k->name, ai, space);
        if (strcmp(mode, "stateless") == 0 && pe.size) {
            pe.kind = GEN_PAY_BUFFER_ADDRESS;
            pe.arg = (uint16_t)ai;
            return add_payload(p, pe, k->name, err, errcap);
        }
        if (strcmp(mode, "stateful") != 0 && strcmp(mode, "stateless") != 0)
            return FAIL("kernel '%s': argument %lld with addrmode '%s' is not supported",
                        k->name, ai, mode);
        return 0;
    }
    if (strcmp(t, "arg_byvalue") == 0) {
        if (ai < 0)
            return FAIL("kernel '%s': arg_byvalue without arg_index", k->name);
        k->args[ai].kind = ISA_ARG_SCALAR;
        pe.kind = GEN_PAY_BYVALUE;
        pe.arg = (uint16_t)ai;
        pe.src_offset = (uint32_t)num(d, e, "source_offset", 0);
        if (pe.src_offset > 4096)
            return FAIL("kernel '%s': argument %lld: a piece at source_offset %u", k->name, ai,
                        pe.src_offset);
        return add_payload(p, pe, k->name, err, errcap);
    }
    if (payload_kind(t, &kind) != 0)
        return FAIL("kernel '%s': payload argument type '%s' is not supported by sgemu's "
                    "Gen path yet", k->name, t);
    pe.kind = (uint8_t)kind;
    pe.arg = ai >= 0 ? (uint16_t)ai : 0;
    return add_payload(p, pe, k->name, err, errcap);
}

/* The printf buffer the code writes through the printf_buffer payload: a
 * hidden argument after the kernel's own (gen_program.printf_arg). */
static int printf_buffer(gen_program *p, isa_kernel *k, char *err, size_t errcap)
{
    bool used = false;
    for (uint32_t i = 0; i < p->npay; i++)
        used |= p->pay[i].kind == GEN_PAY_PRINTF_BUFFER;
    if (!used)
        return 0;
    if (k->narg >= ISA_MAX_ARGS)
        return FAIL("kernel '%s': no argument left for the printf buffer", k->name);
    isa_arg *a = &k->args[k->narg];
    memset(a, 0, sizeof *a);
    snprintf(a->name, sizeof a->name, "__igc_printf_buffer");
    a->kind = ISA_ARG_GLOBAL;
    a->type = ISA_T_U8;
    for (uint32_t i = 0; i < p->npay; i++)
        if (p->pay[i].kind == GEN_PAY_PRINTF_BUFFER)
            p->pay[i].arg = (uint16_t)k->narg;
    p->printf_arg = ++k->narg;
    return 0;
}

/* One inline_samplers entry (a sampler_t constant of the program): its
 * OpenCL C bits (CLK_NORMALIZED_COORDS_TRUE 0x1, the addressing mode 0x0
 * none, 0x2 clamp to edge, 0x4 clamp, 0x6 repeat, 0x8 mirrored repeat, the
 * filter 0x10 nearest, 0x20 linear), as sampler_t arguments hold them. */
static int inline_sampler(yaml_document_t *d, yaml_node_t *e, gen_program *p,
                          const char *kname, char *err, size_t errcap)
{
    static const struct { const char *name; uint32_t bits; } modes[] = {
        { "none", 0x0 }, { "clamp_edge", 0x2 }, { "clamp_border", 0x4 },
        { "repeat", 0x6 }, { "mirror", 0x8 }, { "nearest", 0x10 }, { "linear", 0x20 },
    };
    long long si = num(d, e, "sampler_index", -1);
    const char *am = str(d, e, "addrmode"), *fm = str(d, e, "filtermode");
    int a = -1, f = -1;
    for (int i = 0; i < (int)(sizeof modes / sizeof *modes); i++) {
        if (i < 5 && strcmp(am, modes[i].name) == 0)
            a = i;
        if (i >= 5 && strcmp(fm, modes[i].name) == 0)
            f = i;
    }
    if (si < 0 || si >= GEN_MAX_SAMPLERS || a < 0 || f < 0)
        return FAIL("kernel '%s': inline sampler %lld with addrmode '%s', filtermode '%s'",
                    kname, si, am, fm);
    p->sampler_bits[si] = modes[a].bits | modes[f].bits |
                          (num(d, e, "normalized", 0) ? 0x1u : 0u);
    return 0;
}

/* A by-value argument that IGC passes as a vector or in pieces (a struct
 * or vector: arg_byvalue entries with source_offset, or more than 8
 * bytes) takes sgemu's by-value form, a `constant` argument holding the
 * host-layout bytes (isa.h isa_arg.byval): type_name's ";N" is their count,
 * its trailing digits a vector's components.  The payload copies each
 * piece from there (gen_run.c). */
static void byval_arg(const gen_program *p, uint32_t i, const char *tn, isa_arg *arg)
{
    uint32_t pieces = 0, end = 0;
    bool split = false;
    for (uint32_t e = 0; e < p->npay; e++) {
        const gen_payload *pe = &p->pay[e];
        if (pe->kind != GEN_PAY_BYVALUE || pe->arg != i)
            continue;
        pieces++;
        split |= pe->src_offset != 0 || pe->size > 8;
        if (pe->src_offset + pe->size > end)
            end = pe->src_offset + pe->size;
    }
    size_t n = strcspn(tn, ";"), base = n;
    while (base && tn[base - 1] >= '0' && tn[base - 1] <= '9')
        base--;
    bool vec = base < n && isa_type_from_name(tn, base) != ISA_T_NONE;
    if (!pieces || !(split || pieces > 1 || vec))
        return;
    unsigned long bytes = tn[n] == ';' ? strtoul(tn + n + 1, NULL, 10) : 0;
    arg->kind = ISA_ARG_CONSTANT;
    arg->byval = bytes && bytes <= 4096 ? (uint32_t)bytes : end;
    arg->byval_vec = vec ? (uint8_t)strtoul(tn + base, NULL, 10) : 0;
}

/* kernels_misc_info: argument names and OpenCL types. */
static void misc_info(yaml_document_t *d, yaml_node_t *root, const gen_program *p,
                      isa_kernel *k)
{
    SEQ_EACH(d, map_get(d, root, "kernels_misc_info"), it) {
        yaml_node_t *km = yaml_document_get_node(d, *it);
        if (strcmp(str(d, km, "name"), k->name) != 0)
            continue;
        SEQ_EACH(d, map_get(d, km, "args_info"), ai) {
            yaml_node_t *a = yaml_document_get_node(d, *ai);
            long long i = num(d, a, "index", -1);
            if (i < 0 || (uint64_t)i >= k->narg)
                continue;
            isa_arg *arg = &k->args[i];
            snprintf(arg->name, sizeof arg->name, "%s", str(d, a, "name"));
            const char *tn = str(d, a, "type_name");
            /* a sampler_t holds the OpenCL C bit-field, a u32 */
            arg->type = strncmp(tn, "sampler_t", 9) == 0 ? ISA_T_U32 : (uint8_t)cl_elem_type(tn);
            snprintf(arg->cl_type, sizeof arg->cl_type, "%.*s", (int)strcspn(tn, ";"), tn);
            byval_arg(p, (uint32_t)i, tn, arg);
        }
    }
}

static int kernel_info(yaml_document_t *d, yaml_node_t *kn, gen_program *p, isa_kernel *k,
                       char *err, size_t errcap)
{
    yaml_node_t *env = map_get(d, kn, "execution_env");
    p->simd = (uint32_t)num(d, env, "simd_size", 0);
    p->grf_count = (uint32_t)num(d, env, "grf_count", 128);
    p->slm_bytes = (uint32_t)num(d, env, "slm_size", 0);
    p->inline_bytes = (uint32_t)num(d, env, "inline_data_payload_size", 0);
    /* From Xe-HPG on, IGC's code loads its own payload (a prologue that
     * offset_to_skip_per_thread_data_load skips when the runtime pushes the
     * local IDs instead): sgemu runs the prologue, as the runtime does when
     * the hardware does not generate local IDs */
    p->loads_payload = p->platform >= GEN_IGA_XE_HPG;
    if (p->inline_bytes > p->grf_bytes)
        return FAIL("kernel '%s': execution_env.inline_data_payload_size %u", k->name,
                    p->inline_bytes);
    if (p->simd != 8 && p->simd != 16 && p->simd != 32 && p->simd != 1)
        return FAIL("kernel '%s': execution_env.simd_size %u", k->name, p->simd);
    if (p->grf_count == 0 || p->grf_count > 256)
        return FAIL("kernel '%s': execution_env.grf_count %u", k->name, p->grf_count);
    long long nbar = num(d, env, "barrier_count", 0);
    if (nbar < 0 || nbar > GEN_MAX_BARRIERS)
        return FAIL("kernel '%s': execution_env.barrier_count %lld", k->name, nbar);
    p->barrier_count = (uint32_t)nbar;
    SEQ_EACH(d, map_get(d, kn, "per_thread_memory_buffers"), it) {
        yaml_node_t *b = yaml_document_get_node(d, *it);
        const char *type = str(d, b, "type");
        long long size = num(d, b, "size", 0);
        if (size < 0 || size > (1 << 20))
            return FAIL("kernel '%s': per-thread memory of %lld bytes", k->name, size);
        if (strcmp(type, "scratch") == 0 && p->scratch_bytes == 0) {
            p->scratch_bytes = (uint32_t)size;   /* spill/fill space of each thread */
        } else if (strcmp(type, "private_space") == 0 && p->private_bytes == 0) {
            /* OpenCL private memory: `size` a work-item (is_simt_thread),
             * else a thread */
            p->private_bytes = (uint32_t)size;
            p->private_per_item = num(d, b, "is_simt_thread", 0) != 0;
        } else if (strcmp(type, "global") == 0 && p->platform == GEN_IGA_XE_HPG &&
                   strcmp(str(d, b, "usage"), "private_space") == 0 && !p->global_private_bytes) {
            /* private memory in a global buffer that the code indexes by
             * the hardware thread it reads from sr0.0 (gen_run.c) */
            p->global_private_bytes = (uint32_t)size;
            p->global_private_per_item = num(d, b, "is_simt_thread", 0) != 0;
        } else {
            return FAIL("kernel '%s': per-thread memory '%s' is not supported by sgemu's Gen "
                        "path yet", k->name, type);
        }
    }
    for (int i = 0; i < GEN_MAX_SAMPLERS; i++) {
        p->sampler_arg[i] = -1;
        p->sampler_bits[i] = GEN_NO_SAMPLER;
    }
    SEQ_EACH(d, map_get(d, kn, "payload_arguments"), it)
        if (payload_arg(d, yaml_document_get_node(d, *it), p, k, err, errcap))
            return 1;
    SEQ_EACH(d, map_get(d, kn, "inline_samplers"), it)
        if (inline_sampler(d, yaml_document_get_node(d, *it), p, k->name, err, errcap))
            return 1;
    if (printf_buffer(p, k, err, errcap))
        return 1;
    p->local_id_bytes = 0;
    SEQ_EACH(d, map_get(d, kn, "per_thread_payload_arguments"), it) {
        yaml_node_t *e = yaml_document_get_node(d, *it);
        const char *t = str(d, e, "arg_type");
        if (strcmp(t, "local_id") != 0)
            return FAIL("kernel '%s': per-thread payload '%s' is not supported by sgemu's Gen "
                        "path yet", k->name, t);
        p->local_id_offset = (uint32_t)num(d, e, "offset", 0);
        p->local_id_bytes = (uint32_t)num(d, e, "size", 0);
    }
    for (int i = 0; i < GEN_MAX_BTI; i++)
        p->bti_arg[i] = -1;
    SEQ_EACH(d, map_get(d, kn, "binding_table_indices"), it) {
        yaml_node_t *e = yaml_document_get_node(d, *it);
        long long bti = num(d, e, "bti_value", -1), ai = num(d, e, "arg_index", -1);
        if (bti < 0 || bti >= GEN_MAX_BTI || ai < 0 || (uint64_t)ai >= k->narg)
            return FAIL("kernel '%s': binding table entry %lld -> argument %lld", k->name, bti, ai);
        p->bti_arg[bti] = (int16_t)ai;
    }
    if (p->cross_bytes < p->inline_bytes)
        p->cross_bytes = p->inline_bytes;
    p->cross_used = (p->cross_bytes + 31) / 32 * 32;
    p->cross_bytes = (p->cross_bytes + p->grf_bytes - 1) / p->grf_bytes * p->grf_bytes;
    return 0;
}

static int parse_zeinfo(const elf_sec *s, gen_program *p, isa_kernel *k, char *err,
                        size_t errcap)
{
    yaml_parser_t ps;
    yaml_document_t d;
    if (!yaml_parser_initialize(&ps))
        return FAIL("out of host memory");
    yaml_parser_set_input_string(&ps, s->data, s->size);
    if (!yaml_parser_load(&ps, &d)) {
        int rc = FAIL("zebin .ze_info: YAML error at line %zu: %s", ps.problem_mark.line + 1,
                      ps.problem ? ps.problem : "?");
        yaml_parser_delete(&ps);
        return rc;
    }
    yaml_node_t *root = yaml_document_get_root_node(&d);
    yaml_node_t *kn = NULL;
    SEQ_EACH(&d, map_get(&d, root, "kernels"), it) {
        yaml_node_t *c = yaml_document_get_node(&d, *it);
        if (strcmp(str(&d, c, "name"), k->name) == 0)
            kn = c;
    }
    int rc = kn ? kernel_info(&d, kn, p, k, err, errcap)
                : FAIL("zebin .ze_info describes no kernel '%s'", k->name);
    if (!rc)
        misc_info(&d, root, p, k);
    yaml_document_delete(&d);
    yaml_parser_delete(&ps);
    return rc;
}

static const elf_sec *sec_named(const elf_sec *s, uint32_t n, const char *name)
{
    for (uint32_t i = 0; i < n; i++)
        if (strcmp(s[i].name, name) == 0)
            return &s[i];
    return NULL;
}

/* One program-scope data block (a hidden argument of the kernel, isa.h
 * const_arg / global_arg): the sections whose names start with `prefix`,
 * concatenated 16-byte aligned as the runtime lays them out; sec_off[i] is
 * section i's offset in it (UINT32_MAX: not in it). */
static int data_block(const elf_sec *s, uint32_t nsec, const char *prefix, isa_kernel *k,
                      bool global, uint32_t *sec_off, char *err, size_t errcap)
{
    size_t total = 0, pl = strlen(prefix);
    for (uint32_t i = 0; i < nsec; i++)
        if (strncmp(s[i].name, prefix, pl) == 0 && (s[i].name[pl] == 0 || s[i].name[pl] == '.')) {
            total = (total + 15) & ~(size_t)15;
            sec_off[i] = (uint32_t)total;
            total += s[i].size;
        }
    if (!total)
        return 0;
    if (total > (1u << 30) || k->narg >= ISA_MAX_ARGS)
        return FAIL("kernel '%s': program-scope data of %zu bytes", k->name, total);
    uint8_t *d = calloc(1, total);
    if (!d)
        return FAIL("out of host memory");
    for (uint32_t i = 0; i < nsec; i++)
        if (sec_off[i] != UINT32_MAX)
            memcpy(d + sec_off[i], s[i].data, s[i].size);
    isa_arg *a = &k->args[k->narg];
    memset(a, 0, sizeof *a);
    snprintf(a->name, sizeof a->name, global ? "__igc_global_data" : "__igc_const_data");
    a->kind = global ? ISA_ARG_GLOBAL : ISA_ARG_CONSTANT;
    a->type = ISA_T_U8;
    k->narg++;
    if (global) {
        k->global_arg = k->narg;
        k->global_bytes = (uint32_t)total;
        k->global_data = d;
    } else {
        k->const_arg = k->narg;
        k->const_bytes = (uint32_t)total;
        k->const_data = d;
    }
    return 0;
}

/* The block (argument + 1, 0: none) and offset in it of section `sec`. */
static uint32_t block_of(const isa_kernel *k, const uint32_t *coff, const uint32_t *goff,
                         uint32_t nsec, uint32_t sec, uint32_t *off)
{
    if (sec < nsec && coff[sec] != UINT32_MAX) {
        *off = coff[sec];
        return k->const_arg;
    }
    if (sec < nsec && goff[sec] != UINT32_MAX) {
        *off = goff[sec];
        return k->global_arg;
    }
    return 0;
}

/* Pointers inside the data (.rel.data.const*, .rel.data.global*: 64-bit
 * type 1 entries, the addend in the pointer's bytes): isa.h relocations,
 * written by sgemu_run into each launch's copy of the block. */
static int data_relocs(const elf_sec *s, uint32_t nsec, const uint32_t *coff,
                       const uint32_t *goff, isa_kernel *k, char *err, size_t errcap)
{
    const elf_sec *sym = sec_named(s, nsec, ".symtab");
    for (uint32_t r = 0; r < nsec; r++) {
        if (strncmp(s[r].name, ".rel.data", 9) != 0)
            continue;
        const elf_sec *tgt = sec_named(s, nsec, s[r].name + 4);   /* ".data..." */
        uint32_t toff = 0, tblk = tgt ? block_of(k, coff, goff, nsec, (uint32_t)(tgt - s),
                                                 &toff) : 0;
        if (!tblk)
            return FAIL("kernel '%s': relocations of %s are not supported by sgemu's Gen "
                        "path", k->name, s[r].name);
        for (size_t o = 0; o + 16 <= s[r].size; o += 16) {
            uint64_t off = rd(s[r].data + o, 8), info = rd(s[r].data + o + 8, 8);
            uint32_t type = (uint32_t)info, si = (uint32_t)(info >> 32), soff = 0;
            if ((uint64_t)si * 24 + 24 > sym->size || type != 1 || off + 8 > tgt->size)
                return FAIL("kernel '%s': relocation of type %u in %s is not supported by "
                            "sgemu's Gen path", k->name, type, s[r].name);
            const uint8_t *e = sym->data + (size_t)si * 24;
            uint32_t sblk = block_of(k, coff, goff, nsec, (uint32_t)rd(e + 6, 2), &soff);
            if (!sblk)
                return FAIL("kernel '%s': a pointer in %s to a symbol outside the data",
                            k->name, s[r].name);
            isa_reloc *nr = realloc(k->relocs, (k->nreloc + 1) * sizeof *nr);
            if (!nr)
                return FAIL("out of host memory");
            k->relocs = nr;
            nr[k->nreloc++] = (isa_reloc){ .arg = tblk - 1, .offset = toff + (uint32_t)off,
                                           .target = sblk - 1,
                                           .addend = (int64_t)(soff + rd(e + 8, 8) +
                                                               rd(tgt->data + off, 8)) };
        }
    }
    return 0;
}

/* Program-scope data (IGC's .data.const* sections: OpenCL constant data,
 * strings and the tables of its math library; .data.global*: program-scope
 * globals) and the relocations of the kernel's code that point into them
 * (.rel.text.<kernel>: Elf64_Rel entries against .symtab; types from IGC's
 * ZEBinWriter zebin spec: 1 a 64-bit address, 2 its low 32 bits, 3 its
 * high 32 bits, patched into the code at r_offset).  Each block becomes a
 * hidden argument whose address emu/ fixes: (argument + 1) << 40. */
static int relocate(const elf_sec *s, uint32_t nsec, const char *kname, uint8_t *code,
                    size_t code_bytes, isa_kernel *k, char *err, size_t errcap)
{
    char rn[160];
    snprintf(rn, sizeof rn, ".rel.text.%s", kname);
    const elf_sec *rel = sec_named(s, nsec, rn), *sym = sec_named(s, nsec, ".symtab");
    if (!rel || rel->size == 0)
        return 0;
    uint32_t *coff = malloc(nsec * sizeof *coff), *goff = malloc(nsec * sizeof *goff);
    if (!coff || !goff) {
        free(coff);
        free(goff);
        return FAIL("out of host memory");
    }
    for (uint32_t i = 0; i < nsec; i++)
        coff[i] = goff[i] = UINT32_MAX;
    int rc = !sym ? FAIL("kernel '%s': relocations without .symtab", kname)
                  : data_block(s, nsec, ".data.const", k, false, coff, err, errcap);
    if (!rc)
        rc = data_block(s, nsec, ".data.global", k, true, goff, err, errcap);
    if (!rc)
        rc = data_relocs(s, nsec, coff, goff, k, err, errcap);
    for (size_t o = 0; !rc && o + 16 <= rel->size; o += 16) {
        uint64_t off = rd(rel->data + o, 8), info = rd(rel->data + o + 8, 8);
        uint32_t type = (uint32_t)info, si = (uint32_t)(info >> 32);
        if ((uint64_t)si * 24 + 24 > sym->size) {
            rc = FAIL("kernel '%s': relocation against symbol %u outside .symtab", kname, si);
            break;
        }
        const uint8_t *e = sym->data + (size_t)si * 24;
        uint32_t shndx = (uint32_t)rd(e + 6, 2);
        uint64_t v;
        if (shndx < nsec && coff[shndx] != UINT32_MAX)
            v = ((uint64_t)k->const_arg << 40) + coff[shndx] + rd(e + 8, 8);
        else if (shndx < nsec && goff[shndx] != UINT32_MAX)
            v = ((uint64_t)k->global_arg << 40) + goff[shndx] + rd(e + 8, 8);
        else
            v = UINT64_MAX;
        uint32_t n = type == 1 ? 8 : 4;
        if (v == UINT64_MAX || type < 1 || type > 3) {
            rc = FAIL("kernel '%s': relocation of type %u against section %u is not "
                      "supported by sgemu's Gen path", kname, type, shndx);
            break;
        }
        if (off > code_bytes || n > code_bytes - off) {
            rc = FAIL("kernel '%s': relocation at 0x%llx outside the code", kname,
                      (unsigned long long)off);
            break;
        }
        if (type == 3)
            v >>= 32;
        for (uint32_t b = 0; b < n; b++)
            code[off + b] = (uint8_t)(v >> (8 * b));
    }
    free(coff);
    free(goff);
    return rc;
}

/* A call of the kernel's code to a function IGC left undefined (a
 * relocation of .rel.text.<kernel> against a symbol of section 0,
 * SHN_UNDEF, named in .strtab): a function the source declares and IGC's
 * built-ins lack, which IGC compiles as a stack call to an address the
 * runtime cannot supply.  Fails naming it; 0 when there is none. */
static int undefined_call(const elf_sec *s, uint32_t nsec, const char *kname, char *err,
                          size_t errcap)
{
    char rn[160];
    snprintf(rn, sizeof rn, ".rel.text.%s", kname);
    const elf_sec *rel = sec_named(s, nsec, rn), *sym = sec_named(s, nsec, ".symtab"),
                  *str = sec_named(s, nsec, ".strtab");
    for (size_t o = 0; rel && sym && o + 16 <= rel->size; o += 16) {
        uint32_t si = (uint32_t)(rd(rel->data + o + 8, 8) >> 32);
        if ((uint64_t)si * 24 + 24 > sym->size)
            continue;   /* relocate() reports it */
        const uint8_t *e = sym->data + (size_t)si * 24;
        uint32_t nm = (uint32_t)rd(e, 4);
        if (rd(e + 6, 2) != 0 || !str || nm >= str->size)
            continue;
        const char *name = (const char *)str->data + nm;
        return FAIL("kernel '%s' calls '%.*s', which IGC left undefined (declared in the "
                    "source, not among its built-ins): no code to run", kname,
                    (int)strnlen(name, str->size - nm), name);
    }
    return 0;
}

uint32_t gen_platform_of_device(const char *device, uint32_t *grf_bytes)
{
    static const struct { const char *name; uint32_t plat, grf; } devs[] = {
        { "skl", GEN_IGA_GEN9, 32 }, { "tgllp", GEN_IGA_XE, 32 },
        { "dg2-g10", GEN_IGA_XE_HPG, 32 }, { "pvc", GEN_IGA_XE_HPC, 64 },
    };
    for (size_t i = 0; i < sizeof devs / sizeof *devs; i++)
        if (strcmp(device, devs[i].name) == 0) {
            if (grf_bytes)
                *grf_bytes = devs[i].grf;
            return devs[i].plat;
        }
    return 0;
}

int gen_load_zebin(const uint8_t *bin, size_t len, const char *device, const char *name,
                   const char *file, isa_kernel *k, char *err, size_t errcap)
{
    memset(k, 0, sizeof *k);
    uint32_t grf_bytes = 0, plat = gen_platform_of_device(device, &grf_bytes);
    if (!plat)
        return FAIL("unknown ocloc device '%s' (sgemu knows skl, tgllp, dg2-g10, pvc)", device);
    uint32_t nsec = 0;
    elf_sec *s = elf_sections(bin, len, &nsec, err, errcap);
    if (!s)
        return 1;
    const elf_sec *text = NULL, *info = NULL;
    for (uint32_t i = 0; i < nsec; i++) {
        if (strcmp(s[i].name, ".ze_info") == 0)
            info = &s[i];
        else if (strncmp(s[i].name, ".text.", 6) == 0 && !text &&
                 (!name || strcmp(s[i].name + 6, name) == 0))
            text = &s[i];
    }
    if (!info || !text) {
        if (!info && !text)   /* what ocloc 22.43 writes for pvc at SIMD8, exit 0 */
            FAIL("ocloc built no code for %s: IGC compiled no kernel (at SIMD8, a width "
                 "Xe-HPC lacks, it reports success and writes only the SPIR-V)", device);
        else if (!info)
            FAIL("zebin has no .ze_info section");
        else if (name)
            FAIL("zebin has no kernel '%s'", name);
        else
            FAIL("zebin has no kernel");
        free(s);
        return 1;
    }
    gen_program *p = calloc(1, sizeof *p);
    if (!p) {
        free(s);
        return FAIL("out of host memory");
    }
    k->gen = p;
    snprintf(k->name, sizeof k->name, "%s", text->name + 6);
    snprintf(k->file, sizeof k->file, "%s", file ? file : "");
    snprintf(p->device, sizeof p->device, "%s", device);
    p->platform = plat;
    p->grf_bytes = grf_bytes;
    int rc = undefined_call(s, nsec, k->name, err, errcap);
    if (!rc)
        rc = parse_zeinfo(info, p, k, err, errcap);
    uint8_t *code = NULL;
    if (!rc) {
        code = malloc(text->size ? text->size : 1);
        if (!code) {
            rc = FAIL("out of host memory");
        } else {
            if (text->size)
                memcpy(code, text->data, text->size);
            rc = relocate(s, nsec, k->name, code, text->size, k, err, errcap);
        }
    }
    if (!rc)
        rc = gen_decode(p, code, text->size, k->name, err, errcap);
    free(code);
    free(s);
    if (rc) {
        isa_kernel_free(k);
        return rc;
    }
    k->reqd_sg_size = p->simd;
    k->local_mem = p->slm_bytes;
    /* the whole GRF file is the thread's (occupancy: large-GRF mode) */
    k->grf_bytes_per_lane = p->grf_count * p->grf_bytes / p->simd;
    return 0;
}

uint32_t gen_zebin_kernels(const uint8_t *bin, size_t len, char (*names)[64], uint32_t max)
{
    char err[128];
    uint32_t nsec = 0, n = 0;
    elf_sec *s = elf_sections(bin, len, &nsec, err, sizeof err);
    for (uint32_t i = 0; s && i < nsec && n < max; i++)
        if (strncmp(s[i].name, ".text.", 6) == 0 &&   /* not IGC's symbol-table stub */
            strncmp(s[i].name, ".text.Intel_Symbol_Table", 24) != 0)
            snprintf(names[n++], 64, "%s", s[i].name + 6);
    free(s);
    return n;
}
