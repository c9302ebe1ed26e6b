/* cmd_spv2asm.c - `sgemu spv2asm`: translate a SPIR-V module (or an OpenCL C
 * file through clang-14/llvm-spirv-14) and print the kernel as .sgasm, so
 * users can read what `sgemu run` will execute. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

int cli_cmd_spv2asm(int argc, char **argv)
{
    static const char help[] =
        "usage: sgemu spv2asm KERNEL.spv|KERNEL.cl [--kernel NAME] [-DNAME[=V]] [-IDIR]\n"
        "                     [-include FILE] [-cl-std=CLx.y] [BUILD OPTIONS]\n"
        "                     [--build-options 'OPTS'] [--clang-arg OPT] [-g0]\n\n"
        "Translates entry point NAME (default: the module's only kernel) to the sgemu ISA\n"
        "and prints it as .sgasm text (which `sgemu asm` accepts).  A .cl file is first\n"
        "compiled with clang-14 and llvm-spirv-14 with line tables (-g0: without); the\n"
        "options go to clang as for `sgemu run` (docs/cli.md).\n\n"
        "exit status: 0 ok, 1 errors in the module or bad usage\n";
    const char *path = NULL, *entry = NULL;
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
    char *text = isa_disassemble(&k);
    isa_kernel_free(&k);
    if (!text)
        return SGEMU_EXIT_INTERNAL;
    fputs(text, stdout);
    free(text);
    return 0;
}
