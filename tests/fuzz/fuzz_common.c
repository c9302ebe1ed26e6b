/* fuzz_common.c - helpers shared by the harnesses. */
#include "fuzz.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void fuzz_fail(const char *what, const uint8_t *data, size_t size)
{
    fprintf(stderr, "fuzz: %s\n--- input (%zu bytes) ---\n", what, size);
    fwrite(data, 1, size, stderr);
    fputs("\n---\n", stderr);
    abort();
}

static char scratch[256];

/* Two levels at most: the harnesses make NAME or SUB/NAME only. */
static void remove_tree(const char *dir, int depth)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    const struct dirent *e;
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        char p[512];
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        struct stat st;
        if (depth < 2 && lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
            remove_tree(p, depth + 1);
        else
            unlink(p);
    }
    closedir(d);
    rmdir(dir);
}

static void remove_scratch(void)
{
    if (scratch[0])
        remove_tree(scratch, 0);
}

const char *fuzz_temp_dir(void)
{
    if (!scratch[0]) {
        const char *t = getenv("TMPDIR");
        snprintf(scratch, sizeof scratch, "%s/sgemu-fuzz-XXXXXX", t && *t ? t : "/tmp");
        if (!mkdtemp(scratch)) {
            perror("fuzz: mkdtemp");
            abort();
        }
        atexit(remove_scratch);
    }
    return scratch;
}

const char *fuzz_temp_file(const char *name, const uint8_t *data, size_t size)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", fuzz_temp_dir(), name);
    const char *slash = strchr(name, '/');
    if (slash) {
        char sub[512];
        snprintf(sub, sizeof sub, "%s/%.*s", fuzz_temp_dir(), (int)(slash - name), name);
        mkdir(sub, 0700);
    }
    /* a fresh file, not the last one truncated: ext4 flushes a file that is
     * truncated and rewritten at close (auto_da_alloc), a disk write per input */
    unlink(path);
    FILE *f = fopen(path, "wb");
    if (!f)
        return NULL;
    size_t put = size ? fwrite(data, 1, size, f) : 0;
    if (fclose(f) != 0 || put != size)
        return NULL;
    return path;
}
