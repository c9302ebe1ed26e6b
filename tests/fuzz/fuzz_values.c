/* fuzz_values.c - the `--arg` value parser (tools/values.c, cli_make_value):
 * byte 0 picks the argument kind and type, the rest is the VALUE text. */
#include "fuzz.h"
#include "cli.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* tools/sgemu.c's cli_error, silent: the harness only cares that errors are clean */
int cli_error(const char *fmt, ...)
{
    (void)fmt;
    return SGEMU_EXIT_USER;
}

/* tools/images.c is not linked in (images are fuzzed separately, later) */
int cli_make_image(const isa_arg *a, const char *spec, sgemu_argval *v)
{
    (void)a;
    (void)spec;
    (void)v;
    return SGEMU_EXIT_USER;
}

/* Largest number written anywhere in s (any base strtoull accepts). */
static unsigned long long largest_number(const char *s)
{
    unsigned long long m = 0;
    for (const char *p = s; *p; p++) {
        if (*p < '0' || *p > '9')
            continue;
        char *end;
        unsigned long long v = strtoull(p, &end, 0);
        if (v > m)
            m = v;
    }
    return m;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 4096)
        return 0;
    char *spec = malloc(size);
    if (!spec)
        return 0;
    memcpy(spec, data + 1, size - 1);
    spec[size - 1] = 0;
    /* @FILE reads the host's files, and counts above 2^20 only measure the
     * host's memory (values.c caps buffers at 2^34 bytes): both skipped */
    if (strchr(spec, '@') || largest_number(spec) > (1u << 20)) {
        free(spec);
        return 0;
    }
    static const uint8_t kinds[] = { ISA_ARG_SCALAR, ISA_ARG_GLOBAL, ISA_ARG_CONSTANT,
                                     ISA_ARG_LOCAL };
    isa_arg a;
    memset(&a, 0, sizeof a);
    strcpy(a.name, "x");
    a.kind = kinds[data[0] % 4];
    a.type = (uint8_t)((data[0] / 4) % ISA_T_COUNT);
    sgemu_argval v;
    int rc = cli_make_value(&a, spec, &v);
    if (rc && rc != SGEMU_EXIT_USER)
        fuzz_fail("cli_make_value returned an unexpected code", data, size);
    /* TYPE may differ from the argument's element type (the bytes are
     * reinterpreted; the engine bounds-checks every access), so only the
     * storage itself is checked */
    if (!rc && v.kind == SGEMU_VAL_BUFFER && !v.data)
        fuzz_fail("a buffer value without storage", data, size);
    if (!rc && v.kind == SGEMU_VAL_BUFFER && v.bytes)
        (void)*(volatile uint8_t *)(v.data + v.bytes - 1);   /* ASan: really that big */
    cli_free_value(&v);
    free(spec);
    return 0;
}
