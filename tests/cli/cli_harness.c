/* cli_harness.c - see cli_harness.h */
#include "cli_harness.h"
#include "../../tools/bench/file_read.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

const char *cli_src(void)
{
    const char *s = getenv("SGEMU_SRC");
    return s ? s : ".";
}

/* The file's text, or an empty string if it cannot be read. */
static char *slurp(const char *path)
{
    char *s = file_read_all(path, NULL);
    return s ? s : calloc(1, 1);
}

cli_result cli_run(const char *fmt, ...)
{
    char args[8192], cmd[16384];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    /* SGEMU_TEST_DETECT=1 (tests/detect/meson.build): every `sgemu run` of
     * a correct-kernel test also runs the detectors, and any
     * report of theirs fails it (false positives are bugs) */
    const bool detect = getenv("SGEMU_TEST_DETECT") && !strncmp(args, "run ", 4);
    static const char flags[] = "--races --uninitialized ";
    const size_t len = strlen(args), fl = sizeof flags - 1;
    if (detect && len + fl < sizeof args) {
        memmove(args + 4 + fl, args + 4, len - 4 + 1);
        memcpy(args + 4, flags, fl);
    }
    char out[] = "/tmp/sgemu-test-out-XXXXXX", err[] = "/tmp/sgemu-test-err-XXXXXX";
    int fo = mkstemp(out), fe = mkstemp(err);
    close(fo);
    close(fe);
    const char *bin = getenv("SGEMU");
    /* $SGEMU_WRAPPER runs the binary under a checker (tools/dev.sh: valgrind) */
    const char *wrap = getenv("SGEMU_WRAPPER");
    snprintf(cmd, sizeof cmd, "cd '%s' && %s '%s' %s >%s 2>%s </dev/null", cli_src(),
             wrap ? wrap : "", bin ? bin : "sgemu", args, out, err);
    int st = system(cmd);
    cli_result r;
    r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128;
    r.out = slurp(out);
    r.err = slurp(err);
    unlink(out);
    unlink(err);
    if (detect && (strstr(r.err, " on local memory: ") || strstr(r.err, " on global memory: ") ||
                   strstr(r.err, ": uninitialised ") || strstr(r.err, ": undefined value used: "))) {
        fprintf(stderr, "a detector reported a correct kernel: sgemu %s\n%s", args, r.err);
        abort();
    }
    return r;
}

void cli_result_free(cli_result *r)
{
    free(r->out);
    free(r->err);
}

size_t cli_numbers(const char *text, double *v, size_t n)
{
    size_t k = 0;
    const char *p = text;
    while (*p && k < n) {
        char *end;
        double d = strtod(p, &end);
        if (end == p) {
            p++;
            continue;
        }
        v[k++] = d;
        p = end;
    }
    return k;
}
