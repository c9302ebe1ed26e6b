/* timing_trace.c - Chrome Trace Event Format output (opens in Perfetto and
 * chrome://tracing): pid = compute unit, tid = thread slot, one complete
 * ("X") slice per instruction (one cycle wide: its issue; the latency is in
 * args, so slices of one thread never overlap), counters ("C") for residency.  Timestamps
 * are cycles written as microseconds (1 us in the viewer = 1 cycle).  The
 * file is written beside the target and renamed into place at the end. */
#include "timing_private.h"

#include <sys/stat.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TM_TRACE_DEFAULT_LIMIT 1000000

static void sep(tm_trace *tr)
{
    fputs(tr->first ? "\n" : ",\n", tr->f);
    tr->first = false;
}

int tm_trace_open(tm_trace *tr, const char *path, uint64_t limit, uint32_t ncu,
                  uint32_t slots)
{
    memset(tr, 0, sizeof *tr);
    if (sgemu_output_in_place(path)) {    /* no temporary: tmp_path stays NULL */
        tr->f = fopen(path, "w");
        if (!tr->f)
            return -1;
        goto opened;
    }
    size_t n = strlen(path) + 16;
    tr->tmp_path = malloc(n);
    if (!tr->tmp_path)
        return -1;
    snprintf(tr->tmp_path, n, "%s.tmp.XXXXXX", path);
    int fd = mkstemp(tr->tmp_path);
    if (fd < 0) {
        free(tr->tmp_path);
        tr->tmp_path = NULL;
        return -1;
    }
    /* mkstemp makes the file 0600: give it the mode fopen would */
    mode_t um = umask(0);
    umask(um);
    (void)fchmod(fd, 0666 & ~um);
    tr->f = fdopen(fd, "w");
    if (!tr->f) {
        close(fd);
        unlink(tr->tmp_path);
        free(tr->tmp_path);
        tr->tmp_path = NULL;
        return -1;
    }
opened:
    tr->path = path;
    tr->limit = limit ? limit : TM_TRACE_DEFAULT_LIMIT;
    tr->first = true;
    fputs("{\"displayTimeUnit\": \"ns\", \"otherData\": {\"time_unit\": \"1 us = 1 cycle\"},\n"
          "\"traceEvents\": [", tr->f);
    /* names of the tracks: not counted against the limit */
    sep(tr);
    fprintf(tr->f, "{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": %u, \"tid\": 0, "
            "\"args\": {\"name\": \"memory traffic (bytes per %u cycles)\"}}", ncu,
            (unsigned)TM_TRACE_TRAFFIC_PERIOD);
    for (uint32_t c = 0; c < ncu; c++) {
        sep(tr);
        fprintf(tr->f, "{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": %u, \"tid\": 0, "
                "\"args\": {\"name\": \"CU %u\"}}", c, c);
        for (uint32_t t = 0; t < slots && ncu * (uint64_t)slots <= 65536; t++) {
            sep(tr);
            fprintf(tr->f, "{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": %u, \"tid\": %u, "
                    "\"args\": {\"name\": \"thread %u\"}}", c, t, t);
        }
    }
    return 0;
}

/* Room for one more event: false when tracing is off, or (counted as
 * dropped) when the event limit is reached; true after the separator. */
static bool begin_event(tm_trace *tr)
{
    if (!tr->f)
        return false;
    if (tr->events >= tr->limit) {
        tr->dropped++;
        return false;
    }
    tr->events++;
    sep(tr);
    return true;
}

void tm_trace_slice(tm_trace *tr, const char *name, uint32_t cu, uint32_t slot,
                    uint64_t ts, uint64_t dur, uint32_t pc, uint32_t line,
                    uint64_t mask, const char *stall, uint64_t stall_cycles)
{
    if (!begin_event(tr))
        return;
    /* the name is an instruction as printed (sgemu's or IGA's text): escaped */
    fputs("{\"name\": \"", tr->f);
    for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(tr->f, "\\%c", *p);
        else if (*p < 0x20)
            fprintf(tr->f, "\\u%04x", *p);
        else
            fputc(*p, tr->f);
    }
    fprintf(tr->f, "\", \"ph\": \"X\", \"pid\": %u, \"tid\": %u, "
            "\"ts\": %llu, \"dur\": 1, \"args\": {\"latency\": %llu, \"pc\": %u, \"line\": %u, "
            "\"mask\": \"0x%llx\", \"stall\": \"%s\", \"stall_cycles\": %llu}}",
            cu, slot, (unsigned long long)ts, (unsigned long long)(dur ? dur : 1),
            pc, line, (unsigned long long)mask, stall, (unsigned long long)stall_cycles);
}

void tm_trace_counter(tm_trace *tr, const char *name, uint32_t cu, uint64_t ts,
                      const char *key, double v)
{
    if (!begin_event(tr))
        return;
    fprintf(tr->f, "{\"name\": \"%s\", \"ph\": \"C\", \"pid\": %u, \"ts\": %llu, "
            "\"args\": {\"%s\": %.6g}}", name, cu, (unsigned long long)ts, key, v);
}

void tm_trace_traffic(tm_trace *tr, uint32_t pid, uint64_t ts, const uint64_t *bytes)
{
    if (!begin_event(tr))
        return;
    fprintf(tr->f, "{\"name\": \"memory bytes\", \"ph\": \"C\", \"pid\": %u, \"ts\": %llu, "
            "\"args\": {", pid, (unsigned long long)ts);
    for (int l = 0; l < TM_LEVEL_COUNT; l++)
        fprintf(tr->f, "%s\"%s\": %llu", l ? ", " : "", tm_level_names[l],
                (unsigned long long)bytes[l]);
    fputs("}}", tr->f);
}

int tm_trace_close(tm_trace *tr, bool keep)
{
    if (!tr->f)
        return 0;
    fputs("\n]}\n", tr->f);
    int bad = ferror(tr->f);
    bad |= fclose(tr->f) != 0;
    tr->f = NULL;
    if (!tr->tmp_path) {
        /* written in place */
    } else if (!keep || bad) {
        unlink(tr->tmp_path);
    } else if (rename(tr->tmp_path, tr->path) != 0) {
        unlink(tr->tmp_path);
        bad = 1;
    }
    free(tr->tmp_path);
    tr->tmp_path = NULL;
    return bad ? -1 : 0;
}
