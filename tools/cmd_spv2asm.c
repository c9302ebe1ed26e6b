/* cmd_spv2asm.c - `sgemu spv2asm`: translate a SPIR-V module (or an OpenCL C
 * file through clang-14/llvm-spirv-14) and print the kernel as .sgasm, so
 * users can read what `sgemu run` will execute. */
#include "cli.h"
#include <sgemu/timing.h>

#include <stdlib.h>
#include <string.h>

/* A value of the pressure report as the program names it: r5, r4-r7, p1. */
static void value_name(const isa_ra_live_value *v, char *buf, size_t n)
{
    if (v->pred)
        snprintf(buf, n, "p%u", v->reg);
    else if (v->nregs > 1)
        snprintf(buf, n, "r%u-r%u", v->reg, v->reg + v->nregs - 1);
    else
        snprintf(buf, n, "r%u", v->reg);
}

/* GRF registers `bytes` per lane take at width w (docs/timing-model.md,
 * Occupancy): ceil(bytes x w / bytes per register). */
static uint32_t grf_regs(uint32_t bytes, uint32_t w, uint32_t reg_bytes)
{
    return reg_bytes ? (uint32_t)(((uint64_t)bytes * w + reg_bytes - 1) / reg_bytes) : 0;
}

/* The peak index of instruction pc in pr, or -1. */
static int peak_index(const isa_ra_pressure *pr, uint32_t pc)
{
    for (uint32_t i = 0; i < pr->npeak; i++)
        if (pr->peak_pc[i] == pc)
            return (int)i;
    return -1;
}

/* The program text with a comment after every instruction: the bytes per
 * lane the demand counts there (and the GRF registers at width w), the
 * peak instructions marked and followed by the values live there.  The
 * disassembly puts each instruction on a line of its own, indented (labels
 * and directives are not), so the n-th indented line is instruction n. */
static int print_pressure_text(const isa_kernel *k, const char *text,
                               const isa_ra_pressure *pr, uint32_t w, uint32_t reg_bytes)
{
    uint32_t pc = 0;
    for (const char *l = text; *l;) {
        const char *e = strchr(l, '\n');
        const size_t len = e ? (size_t)(e - l) : strlen(l);
        fwrite(l, 1, len, stdout);
        if (len > 4 && !strncmp(l, "    ", 4)) {
            if (pc >= pr->ninst)
                return cli_error("spv2asm: the pressure report does not match the program");
            printf("  ; live %u B/lane", pr->bytes[pc]);
            if (pr->temps[pc])
                printf(" (%u temporaries)", pr->temps[pc]);
            if (w)
                printf(", %u GRF at SIMD%u", grf_regs(pr->bytes[pc], w, reg_bytes), w);
            const int pi = peak_index(pr, pc);
            if (pi >= 0) {
                printf("  <- peak\n    ;   live at the peak:");
                for (uint32_t i = pr->peak_first[pi]; i < pr->peak_first[pi + 1]; i++) {
                    const isa_ra_live_value *v = &pr->peak_live[i];
                    char name[32];
                    value_name(v, name, sizeof name);
                    printf("\n    ;     %-9s", name);
                    if (v->pred)
                        printf(" predicate");
                    else
                        printf(" %u B%s", v->bytes, v->uniform ? " uniform" : "");
                    if (v->dead)
                        printf(", written here, never read");
                    if (v->line)
                        printf(", %s:%u", k->file, v->line);
                }
            }
            pc++;
        }
        fputc('\n', stdout);
        l += len + (e ? 1 : 0);
    }
    if (pc != pr->ninst)
        return cli_error("spv2asm: the pressure report does not match the program");
    return 0;
}

/* The report as one JSON object (docs/cli.md, spv2asm --pressure --json). */
static int print_pressure_json(const isa_kernel *k, const isa_ra_stats *st,
                               const isa_ra_pressure *pr, uint32_t w, uint32_t reg_bytes)
{
    char buf[512];
    printf("{\"kernel\": ");
    cli_json_string(stdout, k->name);
    printf(", \"file\": ");
    cli_json_string(stdout, k->file);
    if (w)
        printf(", \"width\": %u, \"grf_bytes_per_reg\": %u", w, reg_bytes);
    else
        printf(", \"width\": null, \"grf_bytes_per_reg\": null");
    printf(", \"live_bytes\": %u, \"peak_bytes\": %u, \"instructions\": [", st->live_bytes,
           pr->peak);
    for (uint32_t pc = 0; pc < pr->ninst; pc++) {
        isa_format_inst(k, &k->inst[pc], buf, sizeof buf);
        printf("%s\n  {\"index\": %u, \"line\": ", pc ? "," : "", pc);
        if (k->inst[pc].line)
            printf("%u", k->inst[pc].line);
        else
            printf("null");
        printf(", \"text\": ");
        cli_json_string(stdout, buf);
        printf(", \"live_bytes\": %u, \"temp_bytes\": %u, \"registers\": ", pr->bytes[pc],
               pr->temps[pc]);
        if (w)
            printf("%u", grf_regs(pr->bytes[pc], w, reg_bytes));
        else
            printf("null");
        printf(", \"peak\": %s}", peak_index(pr, pc) >= 0 ? "true" : "false");
    }
    printf("],\n \"peaks\": [");
    for (uint32_t i = 0; i < pr->npeak; i++) {
        printf("%s\n  {\"index\": %u, \"live\": [", i ? "," : "", pr->peak_pc[i]);
        for (uint32_t j = pr->peak_first[i]; j < pr->peak_first[i + 1]; j++) {
            const isa_ra_live_value *v = &pr->peak_live[j];
            value_name(v, buf, sizeof buf);
            printf("%s{\"reg\": ", j > pr->peak_first[i] ? ", " : "");
            cli_json_string(stdout, buf);
            printf(", \"bytes\": %u, \"predicate\": %s, \"uniform\": %s, "
                   "\"dead\": %s, \"line\": ", v->bytes, v->pred ? "true" : "false",
                   v->uniform ? "true" : "false", v->dead ? "true" : "false");
            if (v->line)
                printf("%u}", v->line);
            else
                printf("null}");
        }
        printf("]}");
    }
    printf("]}\n");
    return 0;
}

int cli_cmd_spv2asm(int argc, char **argv)
{
    static const char help[] =
        "usage: sgemu spv2asm KERNEL.spv|KERNEL.cl [--kernel NAME] [-DNAME[=V]] [-IDIR]\n"
        "                     [-include FILE] [-cl-std=CLx.y] [BUILD OPTIONS]\n"
        "                     [--build-options 'OPTS'] [--clang-arg OPT] [-g0]\n"
        "                     [--config FILE --sg N [--no-spill]] [--no-regalloc]\n"
        "                     [--pressure[=text|json]] [--json]\n\n"
        "Translates entry point NAME (default: the module's only kernel) to the sgemu ISA\n"
        "and prints it as .sgasm text (which `sgemu asm` accepts).  A .cl file is first\n"
        "compiled with clang-14 and llvm-spirv-14 with line tables (-g0: without); the\n"
        "options go to clang as for `sgemu run` (docs/cli.md).\n\n"
        "The program printed is the one `sgemu run` executes: registers allocated\n"
        "(docs/regalloc.md), with the spill code the GRF of --config (default: the\n"
        "default config) needs at sub-group width --sg N, elementary functions holding\n"
        "the temporaries of the config's Intel target; without --sg, allocated with no\n"
        "GRF limit, no such temporaries and every value counted per lane (uniform\n"
        "values count once per thread at a given width).  --no-spill allocates for\n"
        "width N with no GRF limit: the live set that width needs.  A comment line\n"
        "before the kernel gives the register counts.\n"
        "--no-regalloc prints the value registers with the .regalloc directive.\n"
        "--pressure adds a comment to every instruction: the bytes per lane live there\n"
        "as the allocator counts them (the register count's \"live at once\" is their\n"
        "maximum), with --sg N the GRF registers they take at width N, and at the peak\n"
        "instruction(s) the values live there (register, bytes, source line); the text\n"
        "is still .sgasm.  --pressure=json (or --pressure --json) prints the report as\n"
        "one JSON object instead (docs/cli.md).  A .sgasm KERNEL with .regalloc is\n"
        "allocated and reported the same way.\n\n"
        "exit status: 0 ok, 1 errors in the module or bad usage\n";
    const char *path = NULL, *entry = NULL, *config = NULL;
    unsigned long width = 0;
    bool no_ra = false, no_spill = false, json = false;
    int pressure = 0;   /* 0 none, 1 text, 2 json */
    /* --build-options words and -g's spelling: at most 64 more than argc */
    const char **clopts = calloc((size_t)argc + 65, sizeof *clopts);
    int nclopts = 0;
    if (!clopts)
        return SGEMU_EXIT_INTERNAL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int cl;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(help, stdout);
            free(clopts);
            exit(SGEMU_EXIT_OK);
        } else if (!strcmp(a, "--kernel") || !strncmp(a, "--kernel=", 9)) {
            entry = a[8] == '=' ? a + 9 : (i + 1 < argc ? argv[++i] : NULL);
            if (!entry) {
                free(clopts);
                return cli_error("option --kernel needs a value");
            }
        } else if (!strcmp(a, "--config") || !strcmp(a, "--sg")) {
            const char *v = i + 1 < argc ? argv[++i] : NULL;
            char *end = NULL;
            if (v && a[2] == 's')
                width = strtoul(v, &end, 10);
            if (!v || (a[2] == 's' && (*end || width == 0 || width > 64))) {
                free(clopts);
                return cli_error("option %s needs a value%s", a,
                                 a[2] == 's' ? " (a sub-group width 1..64)" : "");
            }
            if (a[2] == 'c')
                config = v;
        } else if (!strcmp(a, "--no-regalloc")) {
            no_ra = true;
        } else if (!strcmp(a, "--no-spill")) {
            no_spill = true;
        } else if (!strcmp(a, "--pressure") || !strcmp(a, "--pressure=text")) {
            pressure = 1;
        } else if (!strcmp(a, "--pressure=json")) {
            pressure = 2;
        } else if (!strncmp(a, "--pressure=", 11)) {
            free(clopts);
            return cli_error("spv2asm: --pressure takes text or json, not '%s'", a + 11);
        } else if (!strcmp(a, "--json")) {
            json = true;
        } else if ((cl = cli_cl_option(argc, argv, &i, clopts, &nclopts, argc + 64)) != 0) {
            if (cl < 0) {
                free(clopts);
                return 1;
            }
        } else if (a[0] == '-' && a[1]) {
            free(clopts);
            return cli_error("spv2asm: unknown option '%s'", a);
        } else if (path) {
            free(clopts);
            return cli_error("spv2asm: one module at a time");
        } else {
            path = a;
        }
    }
    if (!path) {
        free(clopts);
        return cli_error("spv2asm: no module given (see 'sgemu spv2asm --help')");
    }
    if (json && !pressure) {
        free(clopts);
        return cli_error("spv2asm: --json is the form of --pressure's report; give --pressure");
    }
    if (json)
        pressure = 2;
    if (pressure && no_ra) {
        free(clopts);
        return cli_error("spv2asm: --pressure reports the allocated program; "
                         "--no-regalloc has none");
    }
    if (pressure && !sgemu_regalloc_enabled()) {
        free(clopts);
        return cli_error("spv2asm: --pressure reports the allocated program; "
                         "SGEMU_REGALLOC=0 turns allocation off");
    }
    isa_kernel k;
    int rc = cli_load_kernel_ex(path, entry, clopts, nclopts, &k);
    free(clopts);
    if (rc)
        return rc;
    if (pressure && k.regalloc != ISA_RA_VALUES) {
        isa_kernel_free(&k);
        return cli_error("spv2asm: --pressure: kernel %s keeps its registers as written "
                         "(no .regalloc directive): nothing is allocated", path);
    }
    const isa_kernel *shown = &k;
    isa_kernel ak;
    isa_ra_stats st;
    isa_ra_pressure pr;
    memset(&pr, 0, sizeof pr);
    uint32_t reg_bytes = 0;
    bool allocated = false;
    if (!no_ra && k.regalloc == ISA_RA_VALUES && sgemu_regalloc_enabled()) {
        emu_config cfg;
        if (width && (rc = cli_load_config(config, &cfg))) {
            isa_kernel_free(&k);
            return rc;
        }
        isa_ra_opts o;
        isa_math_temps mt;
        emu_ra_opts(width ? &cfg : NULL, (uint32_t)width, &o, &mt);
        if (no_spill)
            o.budget_bytes = 0;
        isa_diags d;
        memset(&d, 0, sizeof d);
        if (width)
            reg_bytes = cfg.grf_bytes_per_reg;
        if (pressure ? isa_regalloc_pressure(&k, &o, &ak, &st, &d, &pr)
                     : isa_regalloc(&k, &o, &ak, &st, &d)) {
            isa_diags_print(&d, stderr);
            isa_diags_free(&d);
            isa_kernel_free(&k);
            return SGEMU_EXIT_INTERNAL;
        }
        isa_diags_free(&d);
        allocated = true;
        shown = &ak;
        if (pressure == 2) {
            rc = print_pressure_json(&ak, &st, &pr, (uint32_t)width, reg_bytes);
            isa_ra_pressure_free(&pr);
            isa_regalloc_free(&ak);
            isa_kernel_free(&k);
            return rc;
        }
        printf("; registers: %u values (%u bytes per lane) -> %u registers, %u predicates; "
               "live at once %u bytes per lane; spilled %u values (%u bytes per work-item); "
               "recomputed %u values (%u instructions); before spilling %u bytes per lane\n",
               st.regs_before, st.bytes_before, st.regs_after, st.preds_after, st.live_bytes,
               st.spilled_values, st.spill_bytes, st.remat_values, st.remat_insts,
               st.live_bytes_before);
    }
    char *text = isa_disassemble(shown);
    rc = 0;
    if (text && pressure)
        rc = print_pressure_text(shown, text, &pr, (uint32_t)width, reg_bytes);
    else if (text)
        fputs(text, stdout);
    isa_ra_pressure_free(&pr);
    if (allocated)
        isa_regalloc_free(&ak);
    isa_kernel_free(&k);
    if (!text)
        return SGEMU_EXIT_INTERNAL;
    free(text);
    return rc;
}
