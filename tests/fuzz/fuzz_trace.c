/* fuzz_trace.c - the trace reader (emu/trace/trace_read.c): a corrupted or
 * truncated trace file must be refused with a message by
 * sgemu_trace_read_info (with and without verify) and by sgemu_replay,
 * never crash.  Seeds are small recorded traces. */
#include "fuzz.h"
#include "sgemu.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_temp_file("in.sgtrace", data, size);
    if (!path)
        return 0;
    sgemu_trace_info info;
    sgemu_fault fault;
    memset(&fault, 0, sizeof fault);
    int rc = sgemu_trace_read_info(path, false, &info, &fault);
    if (rc != 0 && rc != SGEMU_EXIT_USER)
        fuzz_fail("trace info: an exit code other than 0 or 1", data, size);
    if (rc)
        return 0;
    memset(&fault, 0, sizeof fault);
    rc = sgemu_trace_read_info(path, true, &info, &fault);
    if (rc != 0 && rc != SGEMU_EXIT_USER)
        fuzz_fail("trace verify: an exit code other than 0 or 1", data, size);
    static emu_config cfg;
    static int have_cfg;
    if (!have_cfg) {
        isa_diags d;
        memset(&d, 0, sizeof d);
        if (emu_config_load_bundled("test-simple", &cfg, &d))
            abort();
        isa_diags_free(&d);
        have_cfg = 1;
    }
    sgemu_replay_opts o;
    memset(&o, 0, sizeof o);
    sgemu_stats st;
    memset(&st, 0, sizeof st);
    memset(&fault, 0, sizeof fault);
    rc = sgemu_replay(path, &cfg, &o, NULL, &st, &fault);
    sgemu_stats_free(&st);
    return 0;
}
