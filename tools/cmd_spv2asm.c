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
        "                     [-cl-std=CLx.y] [-g]\n\n"
        "Translates entry point NAME (default: the module's only kernel) to the sgemu ISA\n"
        "and prints it as .sgasm text (which `sgemu asm` accepts).  A .cl file is first\n"
        "compiled with clang-14 and llvm-spirv-14; -D, -I and -cl-std go to clang, -g\n"
        "as -gline-tables-only (errors then name the source lines).\n\n"
        "exit status: 0 ok, 1 errors in the module or bad usage\n";
    const char *path = NULL, *entry = NULL;
    const char **clopts = calloc((size_t)argc + 1, sizeof *clopts);
    int nclopts = 0;
    if (!clopts)
        return SGEMU_EXIT_INTERNAL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
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
        } else if (!strncmp(a, "-D", 2) || !strncmp(a, "-I", 2) || !strncmp(a, "-cl-std=", 8)) {
            clopts[nclopts++] = a;
        } else if (!strcmp(a, "-g")) {        /* line tables: as run -g */
            clopts[nclopts++] = "-gline-tables-only";
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
