/* spirv_link.c - several SPIR-V modules into one (clLinkProgram), with
 * spirv-link (SPIRV-Tools) run as a program in a fresh temporary folder;
 * its messages are captured for the caller's build log. */
#include "load_private.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static bool write_file(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    bool ok = f && fwrite(data, 1, len, f) == len;
    if (f && fclose(f))
        ok = false;
    return ok;
}

int sgemu_link_spirv(const uint8_t *const *mods, const size_t *lens, unsigned n, uint8_t **spv,
                   size_t *spv_len, char **log)
{
    *spv = NULL;
    *spv_len = 0;
    *log = NULL;
    if (!load_find_in_path("spirv-link", NULL, 0))
        return 2;
    char dir[4096];
    if (!load_make_temp_dir("sgemu-link", dir, sizeof dir))
        return -1;
    size_t dl = strlen(dir) + 32;
    char **argv = calloc(n + 5, sizeof *argv);
    char *names = calloc(n + 2, dl);    /* the modules, then out.spv and log.txt */
    int rc = -1;
    unsigned written = 0;
    if (!argv || !names)
        goto done;
    /* spirv-link takes modules of one SPIR-V version; llvm-spirv gives each
     * the least its content needs, so all are declared the newest one's */
    enum { MAGIC = 0x07230203 };
    uint32_t version = 0;
    for (unsigned i = 0; i < n; i++) {
        uint32_t w[2];
        if (lens[i] < 8)
            goto done;
        memcpy(w, mods[i], 8);
        if (w[0] == MAGIC && w[1] > version)
            version = w[1];
    }
    for (; written < n; written++) {
        char *name = names + written * dl;
        snprintf(name, dl, "%s/m%u.spv", dir, written);
        uint8_t *copy = malloc(lens[written]);
        if (copy) {
            memcpy(copy, mods[written], lens[written]);
            uint32_t magic;
            memcpy(&magic, copy, 4);
            if (magic == MAGIC)       /* a byte-swapped module keeps its own */
                memcpy(copy + 4, &version, 4);
        }
        bool ok = copy && write_file(name, copy, lens[written]);
        free(copy);
        if (!ok)
            goto done;
    }
    char *out = names + n * dl, *err = names + (n + 1) * dl;
    snprintf(out, dl, "%s/out.spv", dir);
    snprintf(err, dl, "%s/log.txt", dir);
    unsigned a = 0;
    argv[a++] = "spirv-link";
    for (unsigned i = 0; i < n; i++)
        argv[a++] = names + i * dl;
    argv[a++] = "-o";
    argv[a++] = out;
    int st = load_run_tool(argv, err, -1);
    sgemu_fault ignored;
    size_t len;
    char *text = sgemu_read_file(err, &len, &ignored);
    if (text && len)
        *log = text;
    else
        free(text);
    if (st == 0) {
        *spv = (uint8_t *)sgemu_read_file(out, spv_len, &ignored);
        rc = *spv ? 0 : -1;
    } else {
        rc = st < 0 ? -1 : 1;
    }
    remove(out);
    remove(err);
done:
    for (unsigned i = 0; names && i < written; i++)
        remove(names + i * dl);
    rmdir(dir);
    free(names);
    free(argv);
    return rc;
}
