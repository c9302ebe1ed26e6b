/* fuzz_config.c - the YAML device-config loader: any text either loads or
 * fails with diagnostics; a loaded config dumps to YAML that loads back. */
#include "fuzz.h"
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* from text, `extends:` resolves bundled configs only: no host files read */
    emu_config cfg;
    isa_diags d;
    memset(&d, 0, sizeof d);
    int errs = emu_config_load_text("fuzz.yaml", (const char *)data, size, &cfg, &d);
    isa_diags_free(&d);
    if (errs)
        return 0;
    char *dump = NULL;
    size_t dlen = 0;
    FILE *f = open_memstream(&dump, &dlen);
    if (!f)
        return 0;
    emu_config_dump(&cfg, f);
    fclose(f);
    emu_config again;
    memset(&d, 0, sizeof d);
    errs = emu_config_load_text("dump.yaml", dump, dlen, &again, &d);
    isa_diags_free(&d);
    if (errs)
        fuzz_fail("the dump of a loaded config does not load", data, size);
    free(dump);
    return 0;
}
