/* fuzz_collective.c - `sgemu collective` option parsing and the kernel it
 * builds and runs: the input is the argument list, one argument a line
 * (at most 32).  Any list either runs or ends with exit code 1 and a
 * message; --help and -h (which exit) are skipped. */
#include "fuzz.h"
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int cli_cmd_collective(int argc, char **argv);

#define MAX_ARGS 32

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int quiet;
    if (!quiet++ && !getenv("FUZZ_VERBOSE") && !freopen("/dev/null", "w", stdout))
        abort();
    if (size > 8192 || memchr(data, 0, size))
        return 0;
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = 0;
    char *argv[MAX_ARGS + 2];
    int argc = 0;
    argv[argc++] = "collective";
    for (char *p = text; argc <= MAX_ARGS;) {
        char *nl = strchr(p, '\n');
        if (nl)
            *nl = 0;
        if (!strcmp(p, "--help") || !strcmp(p, "-h") || !strcmp(p, "--config")) {
            free(text);     /* --config reads host files: not the parser */
            return 0;
        }
        argv[argc++] = p;
        if (!nl)
            break;
        p = nl + 1;
    }
    argv[argc] = NULL;
    int rc = cli_cmd_collective(argc, argv);
    if (rc != 0 && rc != SGEMU_EXIT_USER && rc != SGEMU_EXIT_FAULT)
        fuzz_fail("sgemu collective: an unexpected exit code", data, size);
    free(text);
    fflush(stdout);
    return 0;
}
