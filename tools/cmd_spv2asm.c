/* cmd_spv2asm.c - `sgemu spv2asm`: translate a SPIR-V module (or an OpenCL C
 * file through clang-14/llvm-spirv-14) and print the kernel as .sgasm, so
 * users can read what `sgemu run` will execute. */
#include "cli.h"
#include <sgemu/timing.h>

#include <stdlib.h>
#include <string.h>

int cli_cmd_spv2asm(int argc, char **argv)
{
    static const char help[] =
        "usage: sgemu spv2asm KERNEL.spv|KERNEL.cl [--kernel NAME] [-DNAME[=V]] [-IDIR]\n"
        "                     [-include FILE] [-cl-std=CLx.y] [BUILD OPTIONS]\n"
        "                     [--build-options 'OPTS'] [--clang-arg OPT] [-g0]\n"
        "                     [--config FILE --sg N [--no-spill]] [--no-regalloc]\n\n"
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
        "--no-regalloc prints the value registers with the .regalloc directive.\n\n"
        "exit status: 0 ok, 1 errors in the module or bad usage\n";
    const char *path = NULL, *entry = NULL, *config = NULL;
    unsigned long width = 0;
    bool no_ra = false, no_spill = false;
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
    isa_kernel k;
    int rc = cli_load_kernel_ex(path, entry, clopts, nclopts, &k);
    free(clopts);
    if (rc)
        return rc;
    const isa_kernel *shown = &k;
    isa_kernel ak;
    isa_ra_stats st;
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
        if (isa_regalloc(&k, &o, &ak, &st, &d)) {
            isa_diags_print(&d, stderr);
            isa_diags_free(&d);
            isa_kernel_free(&k);
            return SGEMU_EXIT_INTERNAL;
        }
        isa_diags_free(&d);
        allocated = true;
        shown = &ak;
        printf("; registers: %u values (%u bytes per lane) -> %u registers, %u predicates; "
               "live at once %u bytes per lane; spilled %u values (%u bytes per work-item); "
               "recomputed %u values (%u instructions); before spilling %u bytes per lane\n",
               st.regs_before, st.bytes_before, st.regs_after, st.preds_after, st.live_bytes,
               st.spilled_values, st.spill_bytes, st.remat_values, st.remat_insts,
               st.live_bytes_before);
    }
    char *text = isa_disassemble(shown);
    if (allocated)
        isa_regalloc_free(&ak);
    isa_kernel_free(&k);
    if (!text)
        return SGEMU_EXIT_INTERNAL;
    fputs(text, stdout);
    free(text);
    return 0;
}
