/* sgemu.c - the command-line entry point: dispatches to a subcommand. */
#include "cli.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const struct {
    const char *name;
    int (*fn)(int, char **);
    const char *summary;
} commands[] = {
#define X(name, summary) { #name, cli_cmd_##name, summary },
    CLI_COMMANDS(X)
#undef X
};

int cli_error(const char *fmt, ...)
{
    va_list ap;
    fputs("sgemu: error: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return SGEMU_EXIT_USER;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: sgemu COMMAND [OPTIONS]\n\n"
               "sgemu is a software GPU/SIMT emulator with a cycle-level subgroup model.\n\n"
               "commands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %-11s %s\n", commands[i].name, commands[i].summary);
    fprintf(f, "\noptions:\n"
               "  --help, -h  this text ('sgemu COMMAND --help' describes a command)\n"
               "  --version   print sgemu's version\n"
               "\nexit status: 0 ok, 1 bad input or usage, 2 kernel fault, 3 internal error\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return SGEMU_EXIT_USER;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return SGEMU_EXIT_OK;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("sgemu %s\n", SGEMU_VERSION_STRING);
        return SGEMU_EXIT_OK;
    }
    cli_install_signal_handlers();
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        if (!strcmp(argv[1], commands[i].name)) {
            int rc = commands[i].fn(argc - 1, argv + 1);
            /* a signal that came after the run still ends in status 130 */
            if (sgemu_stop_requested()) {
                if (rc != SGEMU_EXIT_INTERRUPTED)
                    fputs("sgemu: interrupted\n", stderr);
                return SGEMU_EXIT_INTERRUPTED;
            }
            return rc;
        }
    }
    cli_error("unknown command '%s' (see 'sgemu --help')", argv[1]);
    return SGEMU_EXIT_USER;
}
