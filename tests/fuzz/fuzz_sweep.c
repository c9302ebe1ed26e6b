/* fuzz_sweep.c - the sweep-file loader (tools/sweep_load.c): any YAML
 * either loads into a run set or fails with file:line:col errors.  The input
 * is read as the file SCRATCH/sweeps/in.yaml (sw_load_text, no file
 * written); SCRATCH holds links to the example kernels so the seeds'
 * "../saxpy.sgasm" paths resolve.  PATH is an empty folder: a kernel
 * `file: X.cl` fails at once with "clang-14 is not installed" instead of
 * forking this process and starting clang-14 on a file that is not there
 * (that cost ~40 ms of a ~0.5 ms input and tests the host compiler, not
 * the loader; the SPIR-V it would make is fuzz_spirv's input). */
#include "fuzz.h"
#include "sweep.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef FUZZ_SRC
#error FUZZ_SRC (the source root) is set by tests/fuzz/meson.build
#endif

static void link_examples(void)
{
    static int done;
    if (done++)
        return;
    DIR *d = opendir(FUZZ_SRC "/examples");
    if (!d)
        return;
    const struct dirent *e;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n < 6 || strcmp(e->d_name + n - 6, ".sgasm"))
            continue;
        char from[1024], to[1024];
        snprintf(from, sizeof from, "%s/examples/%s", FUZZ_SRC, e->d_name);
        snprintf(to, sizeof to, "%s/%s", fuzz_temp_dir(), e->d_name);
        if (symlink(from, to) != 0 && access(to, R_OK) != 0)
            perror("fuzz_sweep: symlink");
    }
    closedir(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* One sw_sweep for the process (~400 KB: sw_load zeroes it anyway); the
     * input is parsed from memory under the name SCRATCH/sweeps/in.yaml, so
     * its relative paths resolve as they would for that file. */
    static sw_sweep s;
    static char path[1100];     /* room for sub + "/in.yaml" */
    if (!path[0]) {
        link_examples();
        char sub[1024];
        snprintf(sub, sizeof sub, "%s/sweeps", fuzz_temp_dir());
        mkdir(sub, 0700);
        snprintf(path, sizeof path, "%s/in.yaml", sub);
        char nobin[1024];
        snprintf(nobin, sizeof nobin, "%s/no-tools", fuzz_temp_dir());
        mkdir(nobin, 0700);
        setenv("PATH", nobin, 1);
    }
    if (sw_load_text(path, (const char *)data, size, &s) == 0) {
        if (!s.npoints && !s.nkernels)
            fuzz_fail("a sweep loaded without kernels", data, size);
        char key[1024];
        for (uint64_t p = 0; p < s.npoints && p < 256; p++)
            sw_point_key(&s, &s.points[p], key, sizeof key);
    }
    sw_free(&s);
    return 0;
}
