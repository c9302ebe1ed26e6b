/* link.c - several SPIR-V modules into one for clLinkProgram, with
 * spirv-link (SPIRV-Tools) run as a program in a fresh temporary folder;
 * its messages are captured for the build log. */
#include "link.h"

#include <sgemu/sgemu.h>

#include <sys/wait.h>

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Is `prog` an executable in $PATH? */
static bool in_path(const char *prog)
{
    const char *path = getenv("PATH");
    char buf[4096];
    for (const char *p = path ? path : "/usr/bin:/bin"; *p;) {
        const char *e = strchr(p, ':');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        snprintf(buf, sizeof buf, "%.*s/%s", (int)len, p, prog);
        if (access(buf, X_OK) == 0)
            return true;
        p += len + (e ? 1 : 0);
    }
    return false;
}

/* Run argv (argv[0] found in $PATH) with its stderr to err_path; its exit
 * status, or -1. */
static int run(char *const argv[], const char *err_path)
{
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        int fd = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fd < 0 || dup2(fd, 2) < 0 || dup2(fd, 1) < 0)
            _exit(127);
        close(fd);
        execvp(argv[0], argv);
        _exit(127);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static bool write_file(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    bool ok = f && fwrite(data, 1, len, f) == len;
    if (f && fclose(f))
        ok = false;
    return ok;
}

int icd_link_spirv(const uint8_t *const *mods, const size_t *lens, unsigned n, uint8_t **spv,
                   size_t *spv_len, char **log)
{
    *spv = NULL;
    *spv_len = 0;
    *log = NULL;
    if (!in_path("spirv-link"))
        return 2;
    const char *tmp = getenv("TMPDIR");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/sgemu-link-XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
    if (!mkdtemp(dir))
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
    int st = run(argv, err);
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
