/* cmd_collective.c - `sgemu collective`: run one collective builtin on one
 * work-group and print every work-item's result and the micro-op listing.
 * It writes a three-instruction kernel around the builtin and runs it
 * through the ordinary engine, so what it shows is exactly what kernels get. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

static const char help[] =
    "usage: sgemu collective NAME --type T --sg S --wg N[,Y[,Z]] --input v0,v1,... [options]\n"
    "\n"
    "Runs the OpenCL C builtin NAME (for example work_group_scan_inclusive_add,\n"
    "sub_group_broadcast, intel_sub_group_shuffle_down) on one work-group and prints\n"
    "each work-item's result, then the micro-ops it executed and their count.\n"
    "\n"
    "options:\n"
    "  --type T             element type: char uchar short ushort int uint long ulong\n"
    "                       half float double, or a vector like float4 / f32x4\n"
    "  --sg S               sub-group width (1..64)\n"
    "  --wg N[,Y[,Z]]       work-group size (default: S)\n"
    "  --input v0,v1,...    the value of each work-item (components in order for vectors)\n"
    "  --next v0,...        second source of intel_sub_group_shuffle_down\n"
    "  --previous v0,...    first source of intel_sub_group_shuffle_up (--input is current)\n"
    "  --index i0,i1,...    per-work-item index / delta / id operand (uint)\n"
    "  --delta d            the same value for every work-item\n"
    "  --id k[,j[,l]]       broadcast id (sub-group: k; work-group: local ids x[,y[,z]])\n"
    "  --cluster C          cluster size of sub_group_clustered_* (a constant)\n"
    "  --mask m             only work-items whose sub-group local id is a set bit of m\n"
    "                       reach the builtin (hex or decimal)\n"
    "  --config FILE|NAME   device config file or bundled name: its collective\n"
    "                       algorithms are used\n"
    "  --check              compare the micro-op results with the reference model\n"
    "  --json               machine-readable output\n"
    "\n"
    "exit status: 0 ok, 1 bad input or usage, 2 the builtin faulted (for example a\n"
    "divergent work-group function), 3 internal error\n";

typedef struct uop_list {
    coll_uop *u;
    uint32_t n, cap;
} uop_list;

static void collect(void *user, uint32_t pc, const coll_uop *u)
{
    (void)pc;
    uop_list *l = user;
    if (l->n == l->cap) {
        uint32_t cap = l->cap ? l->cap * 2 : 64;
        coll_uop *p = realloc(l->u, cap * sizeof *p);
        if (!p)
            return;
        l->u = p;
        l->cap = cap;
    }
    l->u[l->n++] = *u;
}

/* "float", "float4", "f32", "f32x4" -> base type and component count */
static int parse_type(const char *s, isa_type *t, uint32_t *vec)
{
    size_t n = strlen(s), base = n;
    *vec = 1;
    *t = isa_type_from_name(s, n);
    if (*t == ISA_T_NONE) {
        while (base > 0 && s[base - 1] >= '0' && s[base - 1] <= '9')
            base--;
        if (base == n || base == 0)
            return -1;
        *vec = (uint32_t)atoi(s + base);
        size_t name_len = s[base - 1] == 'x' ? base - 1 : base;
        *t = isa_type_from_name(s, name_len);
        if (*t == ISA_T_NONE)
            return -1;
    }
    return (*vec == 1 || *vec == 2 || *vec == 3 || *vec == 4 || *vec == 8 || *vec == 16) ? 0 : -1;
}

static size_t count_list(const char *s)
{
    size_t n = 1;
    for (; *s; s++)
        n += *s == ',';
    return n;
}

typedef struct coll_opts {
    const char *name, *type, *input, *next, *previous, *index, *id, *config;
    const char *delta, *cluster, *mask;
    uint32_t sg;
    uint64_t wg[3];
    uint32_t wg_dims;
    bool check, json;
} coll_opts;

static int parse(int argc, char **argv, coll_opts *o)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
#define OPT(flag, field)                                                    \
        if (!strcmp(a, flag)) {                                             \
            if (i + 1 >= argc)                                              \
                return cli_error("option %s needs a value", flag);          \
            o->field = argv[++i];                                           \
            continue;                                                       \
        }
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(help, stdout);
            exit(SGEMU_EXIT_OK);
        }
        OPT("--type", type) OPT("--input", input) OPT("--next", next)
        OPT("--previous", previous) OPT("--index", index) OPT("--id", id)
        OPT("--config", config) OPT("--delta", delta) OPT("--cluster", cluster)
        OPT("--mask", mask)
#undef OPT
        if (!strcmp(a, "--sg") && i + 1 < argc) {
            char *end;
            long v = strtol(argv[++i], &end, 10);
            if (*end || v < 1 || v > 64)
                return cli_error("--sg: expected a width 1..64, got '%s'", argv[i]);
            o->sg = (uint32_t)v;
        } else if (!strcmp(a, "--wg") && i + 1 < argc) {
            o->wg_dims = (uint32_t)cli_parse_dims(argv[++i], o->wg);
            if (!o->wg_dims)
                return cli_error("--wg: expected N[,Y[,Z]], got '%s'", argv[i]);
        } else if (!strcmp(a, "--check")) {
            o->check = true;
        } else if (!strcmp(a, "--json")) {
            o->json = true;
        } else if (a[0] == '-') {
            return cli_error("collective: unknown option '%s' (see 'sgemu collective --help')", a);
        } else if (!o->name) {
            o->name = a;
        } else {
            return cli_error("collective: unexpected argument '%s'", a);
        }
    }
    if (!o->name)
        return cli_error("collective: no builtin name given (see 'sgemu collective --help')");
    if (!o->type || !o->sg || !o->input)
        return cli_error("collective: --type, --sg and --input are required");
    if (!o->wg_dims) {
        o->wg[0] = o->sg;
        o->wg_dims = 1;
    }
    return 0;
}

/* The kernel around the builtin: load operands, skip if masked off, run the
 * builtin, store the result. */
static int make_kernel(const coll_opts *o, isa_opcode op, isa_type t, uint32_t vec,
                       char *src, size_t n)
{
    const isa_op_info *oi = &isa_ops[op];
    char ty[16];
    snprintf(ty, sizeof ty, vec > 1 ? "%sx%u" : "%s", isa_types[t].asm_name, vec);
    uint32_t stride = isa_types[t].bytes * vec;
    char operands[160];
    const char *aux = o->index || o->delta ? "r40" : NULL;
    switch (oi->shape) {
    case ISA_SHAPE_D:
        snprintf(operands, sizeof operands, "r50");
        break;
    case ISA_SHAPE_D_S:
        snprintf(operands, sizeof operands, "r50, r4");
        break;
    case ISA_SHAPE_D_S_S:
        if (oi->scope == ISA_SCOPE_CL) {
            if (!o->cluster)
                return cli_error("%s needs --cluster", o->name);
            snprintf(operands, sizeof operands, "r50, r4, %s", o->cluster);
        } else if (o->id && oi->family == ISA_FAM_BCAST) {
            snprintf(operands, sizeof operands, "r50, r4, %s", o->id);
        } else {
            if (!aux && !o->id)
                return cli_error("%s needs --index, --delta or --id", o->name);
            snprintf(operands, sizeof operands, "r50, r4, %s", aux ? aux : o->id);
        }
        break;
    case ISA_SHAPE_D_S_S_S:
        if (!aux)
            return cli_error("%s needs --index or --delta", o->name);
        if (oi->family == ISA_FAM_SHUFFLE_DOWN2) {
            if (!o->next)
                return cli_error("%s needs --next", o->name);
            snprintf(operands, sizeof operands, "r50, r4, r20, r40");
        } else if (oi->family == ISA_FAM_SHUFFLE_UP2) {
            if (!o->previous)
                return cli_error("%s needs --previous", o->name);
            snprintf(operands, sizeof operands, "r50, r20, r4, r40");
        } else {
            if (!o->cluster)
                return cli_error("%s needs --cluster", o->name);
            snprintf(operands, sizeof operands, "r50, r4, r40, %s", o->cluster);
        }
        break;
    case ISA_SHAPE_D_S_ID:
        if (!o->id)
            return cli_error("%s needs --id", o->name);
        snprintf(operands, sizeof operands, "r50, r4, %s", o->id);
        break;
    default:
        return cli_error("'%s' is not a collective builtin sgemu collective can run", o->name);
    }
    snprintf(src, n,
             ".kernel collective\n"
             ".arg in global %1$s\n.arg in2 global %1$s\n.arg aux global u32\n"
             ".arg act global u32\n.arg out global %1$s\n"
             "    mov.u32 r0, %%local_linear_id\n"
             "    ld.global.%2$s r4, [%%in + r0*%3$u]\n"
             "    ld.global.%2$s r20, [%%in2 + r0*%3$u]\n"
             "    ld.global.u32 r40, [%%aux + r0*4]\n"
             "    ld.global.u32 r41, [%%act + r0*4]\n"
             "    cmp.eq.u32 p0, r41, 0\n"
             "    bra p0, skip\n"
             "    %4$s.%2$s %5$s\n"
             "    st.global.%2$s [%%out + r0*%3$u], r50\n"
             "skip:\n"
             "    ret\n",
             isa_types[t].asm_name, ty, stride, o->name, operands);
    return 0;
}

static void print_uop(FILE *f, const coll_uop *u, bool json)
{
    if (json) {
        fprintf(f, "{\"kind\": \"%s\", \"sg\": %u, \"type\": \"%s\", \"op\": \"%s\", "
                   "\"lanes\": %u, \"mask\": \"0x%llx\", \"bytes\": %u, \"addr\": %llu}",
                coll_uop_names[u->kind], u->sg,
                u->type < ISA_T_COUNT ? isa_types[u->type].asm_name : "-",
                u->binop < ISA_BINOP_COUNT ? isa_binop_names[u->binop] : "-", u->lanes,
                (unsigned long long)u->mask, u->bytes, (unsigned long long)u->addr);
        return;
    }
    fprintf(f, "  sg %-3u %-13s %-5s %-8s lanes %-3u mask 0x%llx", u->sg,
            coll_uop_names[u->kind], u->type < ISA_T_COUNT ? isa_types[u->type].asm_name : "-",
            u->binop < ISA_BINOP_COUNT ? isa_binop_names[u->binop] : "-", u->lanes,
            (unsigned long long)u->mask);
    if (u->bytes)
        fprintf(f, " bytes %u addr %llu", u->bytes, (unsigned long long)u->addr);
    fputc('\n', f);
}

/* The work-group size and the value lists against it: *items work-items,
 * --input and --next/--previous one value per work-item and component,
 * --index one per work-item.  0, or the CLI error. */
static int check_lists(const coll_opts *o, uint32_t vec, uint64_t *items_out)
{
    const uint64_t items = o->wg[0] * (o->wg_dims > 1 ? o->wg[1] : 1) *
                           (o->wg_dims > 2 ? o->wg[2] : 1);
    if (items == 0 || items > 4096)
        return cli_error("--wg: a work-group of 1..4096 work-items, got %llu",
                         (unsigned long long)items);
    const uint64_t nvals = items * vec;    /* values in --input / --next / --previous */
    if (count_list(o->input) != nvals)
        return cli_error("--input: expected %llu values (one per work-item%s), got %zu",
                         (unsigned long long)nvals, vec > 1 ? " and component" : "",
                         count_list(o->input));
    const char *second = o->next ? o->next : o->previous;
    if (second && count_list(second) != nvals)
        return cli_error("--%s: expected %llu values", o->next ? "next" : "previous",
                         (unsigned long long)nvals);
    if (o->index && count_list(o->index) != items)
        return cli_error("--index: expected %llu values", (unsigned long long)items);
    *items_out = items;
    return 0;
}

/* The kernel's argument values: in (--input), in2 (--next or --previous,
 * else zeros), aux (--index, or --delta in every lane), act (1 where --mask
 * has the lane's bit), out.  0, or the CLI error. */
static int make_values(const coll_opts *o, const isa_kernel *k, isa_type t, uint64_t items,
                       uint64_t nvals, sgemu_argval vals[5])
{
    const char *second = o->next ? o->next : o->previous;
    int rc;
    char *spec = malloc(strlen(o->input) + (second ? strlen(second) : 0) + (o->index ? strlen(o->index) : 0) + 256);
    const char *tn = isa_types[t].cl_name;
    sprintf(spec, "%s:[%s]", tn, o->input);
    rc = cli_make_value(&k->args[0], spec, &vals[0]);
    if (!rc) {
        if (second)
            sprintf(spec, "%s:[%s]", tn, second);
        else
            sprintf(spec, "%s:zeros:%llu", tn, (unsigned long long)nvals);
        rc = cli_make_value(&k->args[1], spec, &vals[1]);
    }
    if (!rc) {
        if (o->index)
            sprintf(spec, "uint:[%s]", o->index);
        else
            sprintf(spec, "uint:zeros:%llu", (unsigned long long)items);
        rc = cli_make_value(&k->args[2], spec, &vals[2]);
        if (!rc && o->delta) {
            char *end;
            unsigned long dv = strtoul(o->delta, &end, 0);
            if (*end)
                rc = cli_error("--delta: expected a number, got '%s'", o->delta);
            for (uint64_t i = 0; !rc && i < items; i++)
                memcpy(vals[2].data + i * 4, &(uint32_t){ (uint32_t)dv }, 4);
        }
    }
    unsigned long long mask = ~0ULL;
    if (!rc && o->mask) {
        char *end;
        mask = strtoull(o->mask, &end, 0);
        if (*end)
            rc = cli_error("--mask: expected a number, got '%s'", o->mask);
    }
    if (!rc) {
        sprintf(spec, "uint:zeros:%llu", (unsigned long long)items);
        rc = cli_make_value(&k->args[3], spec, &vals[3]);
        for (uint64_t i = 0; !rc && i < items; i++)
            vals[3].data[i * 4] = (uint8_t)(mask >> ((i % o->sg) & 63) & 1);
    }
    if (!rc) {
        sprintf(spec, "%s:zeros:%llu", tn, (unsigned long long)nvals);
        rc = cli_make_value(&k->args[4], spec, &vals[4]);
    }
    free(spec);
    return rc;
}

/* The kernel over one work-group of the given shape and width, with the
 * reference check when asked; its micro-ops go to *uops. */
static int run_group(const coll_opts *o, const isa_kernel *k, const emu_config *cfg,
                     sgemu_argval *vals, uop_list *uops)
{
    sgemu_stats st;
    sgemu_fault fault;
    int rc;
    sgemu_launch L;
    memset(&L, 0, sizeof L);
    L.dims = o->wg_dims;
    for (uint32_t dd = 0; dd < 3; dd++) {
        L.global[dd] = dd < o->wg_dims ? o->wg[dd] : 1;
        L.local[dd] = L.global[dd];
    }
    L.local_given = true;
    L.sg_width = o->sg;
    L.max_instructions = 1000000;
    L.check = o->check;
    L.uop_listener = collect;
    L.uop_user = uops;
    rc = sgemu_run(k, cfg, &L, vals, &st, &fault);
    if (rc)
        fprintf(stderr, "sgemu: %s: %s\n",
                rc == SGEMU_EXIT_FAULT ? "kernel fault" : "error", fault.msg);
    if (rc && o->json) {
        printf("{\"builtin\": \"%s\", \"type\": \"%s\", \"sg\": %u, \"error\": ",
               o->name, o->type, o->sg);
        cli_json_fault(stdout, rc, &fault);
        printf("}\n");
    }
    return rc;
}

/* Each work-item's result (a table, or JSON with --json), then the
 * micro-ops the builtin expanded into. */
static void print_results(const coll_opts *o, isa_type t, uint32_t vec, uint64_t items,
                          const sgemu_argval *vals, const uop_list *uops)
{
    size_t es = isa_types[t].bytes;
    char buf[64];
    if (o->json)
        printf("{\"builtin\": \"%s\", \"type\": \"%s\", \"sg\": %u, \"results\": [",
               o->name, o->type, o->sg);
    else
        printf("%s.%s at SIMD%u, work-group of %llu\n%-10s %-9s %-5s result\n", o->name,
               o->type, o->sg, (unsigned long long)items, "work-item", "sub-group", "lane");
    for (uint64_t i = 0; i < items; i++) {
        bool active = vals[3].data[i * 4] != 0;
        if (o->json) {
            printf("%s", i ? ", " : "");
            if (!active)
                printf("null");
            else if (vec > 1)
                printf("[");
        } else {
            printf("%-10llu %-9llu %-5llu ", (unsigned long long)i,
                   (unsigned long long)(i / o->sg), (unsigned long long)(i % o->sg));
            if (!active)
                printf("- (did not reach the builtin)");
        }
        for (uint32_t c = 0; active && c < vec; c++) {
            cli_format_value(t, vals[4].data + (i * vec + c) * es, buf, sizeof buf);
            bool num = o->json && (strstr(buf, "nan") || strstr(buf, "inf"));
            printf("%s%s%s%s", c ? (o->json ? ", " : ",") : "", num ? "\"" : "", buf,
                   num ? "\"" : "");
        }
        if (o->json && active && vec > 1)
            printf("]");
        if (!o->json)
            printf("\n");
    }
    if (o->json) {
        printf("], \"uop_count\": %u, \"uops\": [", uops->n);
        for (uint32_t i = 0; i < uops->n; i++) {
            printf("%s", i ? ", " : "");
            print_uop(stdout, &uops->u[i], true);
        }
        printf("]}\n");
    } else {
        printf("micro-ops: %u\n", uops->n);
        for (uint32_t i = 0; i < uops->n; i++)
            print_uop(stdout, &uops->u[i], false);
    }
}

int cli_cmd_collective(int argc, char **argv)
{
    coll_opts o;
    memset(&o, 0, sizeof o);
    int rc = parse(argc, argv, &o);
    if (rc)
        return rc;
    isa_opcode op = isa_opcode_from_name(o.name, strlen(o.name));   // NOLINT(clang-analyzer-core.NonNullParamChecker): parse() returns 0 only with a name
    if (op == ISA_OP_COUNT || !isa_op_cross_lane(op) || isa_op_block_io(op))
        return cli_error("'%s' is not a collective builtin (see docs/collectives.md)", o.name);
    isa_type t;
    uint32_t vec;
    if (parse_type(o.type, &t, &vec))
        return cli_error("--type: unknown type '%s'", o.type);
    uint64_t items = 0;
    if ((rc = check_lists(&o, vec, &items)))
        return rc;
    const uint64_t nvals = items * vec;

    char src[4096];
    if ((rc = make_kernel(&o, op, t, vec, src, sizeof src)))
        return rc;
    isa_kernel k;
    isa_diags d;
    memset(&d, 0, sizeof d);
    if (isa_assemble("<collective>", src, strlen(src), &k, &d)) {
        isa_diags_print(&d, stderr);
        isa_diags_free(&d);
        return cli_error("cannot build a kernel around '%s' with these operands", o.name);
    }
    isa_diags_free(&d);

    emu_config cfg;
    if ((rc = cli_load_config(o.config, &cfg))) {
        isa_kernel_free(&k);
        return rc;
    }
    /* an exploration tool: any width 1..64 runs, whatever the device lists */
    if (!emu_config_supports_width(&cfg, o.sg) && cfg.nwidths < EMU_MAX_WIDTHS)
        cfg.widths[cfg.nwidths++] = o.sg;
    if (cfg.max_wg_size < items)
        cfg.max_wg_size = (uint32_t)items;

    sgemu_argval vals[5];
    memset(vals, 0, sizeof vals);
    rc = make_values(&o, &k, t, items, nvals, vals);

    uop_list uops = { 0 };
    if (!rc)
        rc = run_group(&o, &k, &cfg, vals, &uops);
    if (!rc)
        print_results(&o, t, vec, items, vals, &uops);
    for (int i = 0; i < 5; i++)
        cli_free_value(&vals[i]);
    free(uops.u);
    isa_kernel_free(&k);
    return rc;
}
