/* cmd_replay.c - `sgemu replay TRACE` re-times a recorded trace on a config
 * and `sgemu trace info TRACE` summarises one (docs/trace-format.md). */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

static const char replay_help[] =
    "usage: sgemu replay TRACE [--config FILE|NAME] [--sg N] [-j N] [--json] [--per-line]\n"
    "                    [--trace FILE.json] [--trace-limit N] [--quiet]\n"
    "\n"
    "Re-times a trace written by 'sgemu run --record TRACE' on another device config\n"
    "without executing the kernel: the cycles equal those of a full run on that config.\n"
    "A trace holds one sub-group width; --sg checks it (another width needs a new\n"
    "recording).  -j N runs the timing model on N host threads (default: one;\n"
    "the cycles and statistics are the same for any N).\n"
    "\n"
    "exit status: 0 ok, 1 bad input (also a corrupt or truncated trace), 3 internal error\n";

int cli_cmd_replay(int argc, char **argv)
{
    const char *path = NULL, *config = NULL;
    bool json = false, per_line = false, quiet = false;
    sgemu_replay_opts o;
    memset(&o, 0, sizeof o);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(replay_help, stdout);
            return 0;
        } else if (!strcmp(a, "--config") && i + 1 < argc) {
            config = argv[++i];
        } else if (!strcmp(a, "--sg") && i + 1 < argc) {
            char *end;
            long w = strtol(argv[++i], &end, 10);
            if (*end || w < 1 || w > 64)
                return cli_error("--sg: expected a width 1..64, got '%s'", argv[i]);
            o.sg_width = (uint32_t)w;
        } else if (!strncmp(a, "-j", 2) || !strcmp(a, "--threads")) {
            /* -j N, -jN (getopt's attached form), --threads N */
            const char *v = a[1] == 'j' && a[2] ? a + 2 : i + 1 < argc ? argv[++i] : "";
            char *end;
            long t = strtol(v, &end, 10);
            if (*end || end == v || t < 0 || t > 1024)
                return cli_error("-j: expected a count 0..1024, got '%s'", v);
            o.threads = (uint32_t)t;
        } else if (!strcmp(a, "--trace") && i + 1 < argc) {
            o.trace_path = argv[++i];
        } else if (!strcmp(a, "--trace-limit") && i + 1 < argc) {
            char *end;
            const char *v = argv[++i];
            o.trace_limit = strtoull(v, &end, 0);
            if (*end || end == v || v[0] == '-' || !o.trace_limit)
                return cli_error("--trace-limit: expected a positive count, got '%s'", v);
        } else if (!strcmp(a, "--json")) {
            json = true;
        } else if (!strcmp(a, "--per-line")) {
            per_line = true;
        } else if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) {
            quiet = true;
        } else if (a[0] == '-') {
            return cli_error("replay: unknown option '%s' (see 'sgemu replay --help')", a);
        } else if (!path) {
            path = a;
        } else {
            return cli_error("replay: unexpected argument '%s'", a);
        }
    }
    if (!path)
        return cli_error("replay: no trace file given (see 'sgemu replay --help')");
    emu_config cfg;
    int rc = cli_load_config(config, &cfg);
    if (rc)
        return rc;
    isa_kernel k;
    sgemu_stats st;
    sgemu_fault f;
    rc = sgemu_replay(path, &cfg, &o, &k, &st, &f);
    if (rc) {
        fprintf(stderr, "sgemu: error: %s\n", f.msg);
        if (json) {
            printf("{\"error\": ");
            cli_json_fault(stdout, rc, &f);
            printf("}\n");
        }
        sgemu_stats_free(&st);
        return rc;
    }
    cli_warn_trace_dropped(o.trace_path, st.timing->trace_events, st.timing->trace_dropped);
    if (json) {
        printf("{\"kernel\": ");
        cli_json_string(stdout, k.name);
        printf(", \"config\": ");
        cli_json_string(stdout, cfg.name);
        printf(", \"sg_width\": %u, \"instructions\": %llu, ", st.sg_width,
               (unsigned long long)st.instructions);
        cli_json_host_time(stdout, &st);
        printf(", \"timing\": ");
        tm_print_json(stdout, st.timing, &k);
        printf("}\n");
    } else if (!quiet) {
        fprintf(stderr, "sgemu: replay of kernel %s on %s, SIMD%u (%llu work-groups, "
                "%llu subgroup instructions)\n", k.name, cfg.name, st.sg_width,
                (unsigned long long)st.work_groups, (unsigned long long)st.instructions);
        cli_print_host_time(stderr, &st);
        tm_print(stderr, st.timing, &k, &cfg, per_line);
    }
    sgemu_stats_free(&st);
    isa_kernel_free(&k);
    return 0;
}

static const char trace_help[] =
    "usage: sgemu trace info TRACE [--json]\n"
    "\n"
    "Summarises a trace: kernel, NDRange, width, recording sgemu version, record and\n"
    "micro-op counts, sizes and the checksum (verified by reading the whole trace).\n";

int cli_cmd_trace(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        fputs(trace_help, argc < 2 ? stderr : stdout);
        return argc < 2 ? SGEMU_EXIT_USER : 0;
    }
    if (strcmp(argv[1], "info"))
        return cli_error("trace: unknown subcommand '%s' (expected 'info')", argv[1]);
    const char *path = NULL;
    bool json = false;
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--json"))
            json = true;
        else if (argv[i][0] == '-')
            return cli_error("trace info: unknown option '%s'", argv[i]);
        else
            path = argv[i];
    }
    if (!path)
        return cli_error("trace info: no trace file given");
    sgemu_trace_info in;
    sgemu_fault f;
    int rc = sgemu_trace_read_info(path, true, &in, &f);
    if (rc) {
        fprintf(stderr, "sgemu: error: %s\n", f.msg);
        return rc;
    }
    double ratio = in.file_bytes ? (double)in.payload_bytes / (double)in.file_bytes : 0;
    if (json) {
        printf("{\"format_version\": %u, \"sgemu_version\": ", in.version);
        cli_json_string(stdout, in.sgemu_version);
        printf(", \"kernel\": ");
        cli_json_string(stdout, in.kernel);
        printf(", \"sg_width\": %u, \"dims\": %u, \"global\": [%llu, %llu, %llu], "
               "\"local\": [%llu, %llu, %llu], \"work_groups\": %llu, \"subgroups\": %llu, "
               "\"instructions\": %llu, \"records\": %llu, \"addresses\": %llu, "
               "\"uops\": %llu, \"payload_bytes\": %llu, \"file_bytes\": %llu, "
               "\"checksum\": \"%016llx\"}\n",
               in.sg_width, in.dims, (unsigned long long)in.global[0],
               (unsigned long long)in.global[1], (unsigned long long)in.global[2],
               (unsigned long long)in.local[0], (unsigned long long)in.local[1],
               (unsigned long long)in.local[2], (unsigned long long)in.work_groups,
               (unsigned long long)in.subgroups, (unsigned long long)in.instructions,
               (unsigned long long)in.records, (unsigned long long)in.addresses,
               (unsigned long long)in.trace_uops, (unsigned long long)in.payload_bytes,
               (unsigned long long)in.file_bytes, (unsigned long long)in.checksum);
        return 0;
    }
    printf("trace %s (format version %u, recorded by sgemu %s)\n", path, in.version,
           in.sgemu_version);
    printf("  kernel        %s, SIMD%u\n", in.kernel, in.sg_width);
    printf("  NDRange       global %llux%llux%llu, local %llux%llux%llu, %llu work-groups, "
           "%llu sub-groups\n", (unsigned long long)in.global[0],
           (unsigned long long)in.global[1], (unsigned long long)in.global[2],
           (unsigned long long)in.local[0], (unsigned long long)in.local[1],
           (unsigned long long)in.local[2], (unsigned long long)in.work_groups,
           (unsigned long long)in.subgroups);
    printf("  executed      %llu subgroup instructions, %llu micro-ops, %.1f%% lane use\n",
           (unsigned long long)in.instructions, (unsigned long long)in.uops,
           in.lane_slots ? 100.0 * (double)in.lane_ops / (double)in.lane_slots : 0);
    printf("  stream        %llu records, %llu addresses, %llu micro-ops\n",
           (unsigned long long)in.records, (unsigned long long)in.addresses,
           (unsigned long long)in.trace_uops);
    printf("  size          %llu bytes on disk, %llu uncompressed (%.1fx)\n",
           (unsigned long long)in.file_bytes, (unsigned long long)in.payload_bytes, ratio);
    printf("  checksum      %016llx (verified)\n", (unsigned long long)in.checksum);
    return 0;
}
