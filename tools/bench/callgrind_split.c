/*
 * callgrind_split.c - a callgrind output file's self costs summed by
 * component: each function's cost goes to the component of its source file
 * (callgrind's "fl="), so code inlined into a function counts for it.
 */
#include "callgrind_split.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const comp_titles[] = {
#define COMP(id, title) title,
#include "components.def"
#undef COMP
};

/* a function belongs to the first row whose path part its file's path
 * contains: specific files before their folder */
static const struct {
    const char *part;
    bench_comp comp;
} file_parts[] = {
    { "/emu/timing/timing_sched.c", BENCH_COMP_SCHED },
    { "/emu/timing/timing_core.c", BENCH_COMP_HEAP },
    { "/emu/timing/timing_mem.c", BENCH_COMP_MEM },
    { "/emu/timing/timing_ahead.c", BENCH_COMP_THREADS },
    { "/emu/timing/timing_threads.c", BENCH_COMP_THREADS },
    { "/emu/timing/timing_trace.c", BENCH_COMP_RECORDS },
    { "/emu/timing/", BENCH_COMP_ISSUE },
    { "/emu/record.c", BENCH_COMP_RECORDS },
    { "/emu/trace/", BENCH_COMP_RECORDS },
    { "/collectives/", BENCH_COMP_COLL },
    { "/emu/", BENCH_COMP_FUNC },
    { "/lanes/", BENCH_COMP_FUNC },
    { "/isa/", BENCH_COMP_FUNC },
};

const char *bench_comp_title(bench_comp c)
{
    return c < BENCH_NCOMP ? comp_titles[c] : "?";
}

static bench_comp comp_of(const char *path)
{
    for (size_t i = 0; i < sizeof file_parts / sizeof *file_parts; i++)
        if (strstr(path, file_parts[i].part))
            return file_parts[i].comp;
    return BENCH_COMP_OTHER;
}

#define MAX_FILE_IDS 4096

/* The format (valgrind's docs, "Callgrind Format Specification"): "fl=(id)
 * name" names the current function's file, the name given only at an id's
 * first use, which may be in an "fi=", "fe=", "cfi=" or "cfl=" line (one id
 * space); "fi=" / "fe=" switch to an inlined file (the cost stays the
 * function's); "calls=" lines are followed by the call's
 * inclusive cost, which is not self cost; every other line starting with a
 * digit, '+', '-' or '*' is "position cost". */
int callgrind_split(const char *path, uint64_t ir[BENCH_NCOMP], uint64_t *total)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    static bench_comp by_id[MAX_FILE_IDS];
    for (size_t i = 0; i < MAX_FILE_IDS; i++)
        by_id[i] = BENCH_COMP_OTHER;
    bench_comp cur = BENCH_COMP_OTHER;
    bool skip_next = false;
    char line[4096];
    while (fgets(line, sizeof line, f)) {
        /* fl, fi, fe, cfi and cfl share one id space of file names */
        bool is_fl = !strncmp(line, "fl=", 3);
        size_t skip = is_fl || !strncmp(line, "fi=", 3) || !strncmp(line, "fe=", 3) ? 3
                      : !strncmp(line, "cfi=", 4) || !strncmp(line, "cfl=", 4) ? 4 : 0;
        if (skip) {
            char *p = line + skip;
            long id = -1;
            if (*p == '(') {
                id = strtol(p + 1, &p, 10);
                if (*p == ')')
                    p++;
                while (*p == ' ')
                    p++;
            }
            p[strcspn(p, "\n")] = 0;
            bench_comp c = *p ? comp_of(p)
                           : id >= 0 && id < MAX_FILE_IDS ? by_id[id] : BENCH_COMP_OTHER;
            if (*p && id >= 0 && id < MAX_FILE_IDS)
                by_id[id] = c;
            if (is_fl)
                cur = c;
            continue;
        }
        if (!strncmp(line, "calls=", 6)) {
            skip_next = true;
            continue;
        }
        if (!(line[0] >= '0' && line[0] <= '9') && line[0] != '+' && line[0] != '-' &&
            line[0] != '*')
            continue;
        if (skip_next) {
            skip_next = false;
            continue;
        }
        char *p = line;
        if (*p == '*')                 /* the same position as before */
            p++;
        else                           /* a line, or +n / -n from the last */
            strtoull(p + (*p == '+' || *p == '-'), &p, 10);
        uint64_t cost = strtoull(p, NULL, 10);
        ir[cur] += cost;
        *total += cost;
    }
    fclose(f);
    return 0;
}
