/* cmd_asm.c - `sgemu asm` (check a kernel) and `sgemu disasm` (print it in
 * canonical form). */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

/* Parse `sgemu CMD KERNEL` (only --help besides the file) and load KERNEL. */
static int load_one_kernel(int argc, char **argv, const char *help, const char **path,
                           isa_kernel *k)
{
    *path = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(help, stdout);
            exit(SGEMU_EXIT_OK);
        }
        if (argv[i][0] == '-' && argv[i][1])
            return cli_error("%s: unknown option '%s'", argv[0], argv[i]);
        if (*path)
            return cli_error("%s: one kernel file at a time", argv[0]);
        *path = argv[i];
    }
    if (!*path)
        return cli_error("%s: no kernel file given (see 'sgemu %s --help')", argv[0], argv[0]);
    return cli_load_kernel(*path, k);
}

int cli_cmd_asm(int argc, char **argv)
{
    static const char help[] =
        "usage: sgemu asm KERNEL.sgasm\n\n"
        "Assembles and validates KERNEL; prints every error as file:line:col: error: ...\n"
        "and, on success, a one-line summary (instructions, registers, GRF bytes per lane).\n\n"
        "exit status: 0 ok, 1 errors in the kernel or bad usage\n";
    const char *path;
    isa_kernel k = { 0 };
    int rc = load_one_kernel(argc, argv, help, &path, &k);
    if (rc)
        return rc;
    printf("%s: kernel %s: %u instructions, %u arguments, %u registers, %u predicates, "
           "%u GRF bytes per lane\n", path, k.name, k.ninst, k.narg, k.nreg, k.npred,
           k.grf_bytes_per_lane);
    isa_kernel_free(&k);
    return 0;
}

int cli_cmd_disasm(int argc, char **argv)
{
    static const char help[] =
        "usage: sgemu disasm KERNEL.sgasm\n\n"
        "Prints KERNEL in canonical .sgasm form; the text reassembles to the identical\n"
        "program.\n\n"
        "exit status: 0 ok, 1 errors in the kernel or bad usage\n";
    const char *path;
    isa_kernel k = { 0 };
    int rc = load_one_kernel(argc, argv, help, &path, &k);
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
