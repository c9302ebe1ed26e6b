/* opencl_pch.c - the precompiled form of sgemu_opencl.h, kept in a cache
 * folder.  Parsing opencl-c.h is most of what clang-14 spends on a small
 * kernel (about 0.35 of 0.4 s); with the header precompiled once per set of
 * options a compile takes a tenth of that, which matters to programs that
 * build hundreds of kernels (the OpenCL CTS, tests/gen's corpus).
 *
 * A precompiled header must be used with the language options it was built
 * with, so it is built with the compile's options and named by a hash of
 * them, of the header text and of the clang-14 binary (size and
 * modification time).  Left out are -D / -U of the program's own macros
 * (names not starting with `_` or `cl`, which the header never tests):
 * clang-14 takes macros given beside a precompiled header as definitions
 * that follow it, and a program built with many -D sets (the CTS's fpmath:
 * -DTYPE=float2 -DOP=+, ...) would otherwise precompile the header for
 * each of them.  The folder is $SGEMU_CACHE_DIR, else
 * $XDG_CACHE_HOME/sgemu, else $HOME/.cache/sgemu; SGEMU_CACHE_DIR=off (or
 * empty) turns the cache off.  Files are written under a temporary name
 * and renamed, so concurrent compiles never read half a file.  The folder
 * keeps the PCH_KEEP most recently used headers (about 3.4 MB each). */
#include "load_private.h"

#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

enum { PCH_KEEP = 16 };

/* 64-bit FNV-1a over n bytes, continuing from h. */
static uint64_t fnv1a(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

/* mkdir -p of `dir` (mode 0700); true when it exists afterwards. */
static bool make_dirs(char *dir)
{
    for (char *s = dir + 1; *s; s++) {
        if (*s != '/')
            continue;
        *s = '\0';
        const bool ok = mkdir(dir, 0700) == 0 || errno == EEXIST;
        *s = '/';
        if (!ok)
            return false;
    }
    return mkdir(dir, 0700) == 0 || errno == EEXIST;
}

/* The cache folder into dir (n bytes), created; false when there is none. */
static bool cache_dir(char *dir, size_t n)
{
    const char *own = getenv("SGEMU_CACHE_DIR");
    const char *xdg = getenv("XDG_CACHE_HOME");
    const char *home = getenv("HOME");
    int w;
    if (own)
        w = (*own && strcmp(own, "off") != 0) ? snprintf(dir, n, "%s", own) : -1;
    else if (xdg && *xdg == '/')
        w = snprintf(dir, n, "%s/sgemu", xdg);
    else if (home && *home == '/')
        w = snprintf(dir, n, "%s/.cache/sgemu", home);
    else
        w = -1;
    return w > 0 && (size_t)w < n && make_dirs(dir);
}

/* Write len bytes to path through a temporary file and a rename. */
static bool write_atomically(const char *path, const void *data, size_t len)
{
    char tmp[1200];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "wb");
    bool ok = f && fwrite(data, 1, len, f) == len;
    ok = f && fclose(f) == 0 && ok;
    if (ok && rename(tmp, path) == 0)
        return true;
    unlink(tmp);
    return false;
}

/* Remove the precompiled header `name` of `dir` and the header beside it. */
static void remove_pch(const char *dir, const char *name)
{
    char path[1200];
    int w = snprintf(path, sizeof path, "%s/%s", dir, name);
    if (w < 5 || (size_t)w >= sizeof path)
        return;
    unlink(path);
    path[w - 3] = 'h';     /* opencl-KEY.pch -> opencl-KEY.h */
    path[w - 2] = '\0';
    unlink(path);
}

/* Keep the PCH_KEEP most recently used precompiled headers of `dir` (a
 * use touches the file); remove the others. */
static void evict_old(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct { char name[64]; time_t used; } keep[PCH_KEEP];   /* newest first */
    int nkeep = 0;
    const struct dirent *e;
    while ((e = readdir(d))) {
        const size_t len = strlen(e->d_name);
        char path[1200];
        struct stat st;
        if (strncmp(e->d_name, "opencl-", 7) != 0 || len >= sizeof keep[0].name ||
            strcmp(e->d_name + len - 4, ".pch") != 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (stat(path, &st) != 0)
            continue;
        int at = nkeep;
        while (at > 0 && keep[at - 1].used < st.st_mtime)
            at--;
        if (at == PCH_KEEP) {            /* older than every kept one */
            remove_pch(dir, e->d_name);
            continue;
        }
        if (nkeep == PCH_KEEP)
            remove_pch(dir, keep[--nkeep].name);
        memmove(&keep[at + 1], &keep[at], (size_t)(nkeep - at) * sizeof keep[0]);
        memcpy(keep[at].name, e->d_name, len + 1);     /* len < sizeof name */
        keep[at].used = st.st_mtime;
        nkeep++;
    }
    closedir(d);
}

/* Whether -D / -U option `o` (at i, its name at i + 1 when it is the bare
 * flag) names one of the program's own macros; *words gets 1 or 2. */
static bool program_macro(const char *const *opts, int nopts, int i, int *words)
{
    const char *o = opts[i];
    *words = 1;
    if (strncmp(o, "-D", 2) != 0 && strncmp(o, "-U", 2) != 0)
        return false;
    const char *name = o + 2;
    if (!*name) {
        if (i + 1 >= nopts)
            return false;
        name = opts[i + 1];
        *words = 2;
    }
    return *name != '_' && strncasecmp(name, "cl", 2) != 0;
}

bool load_opencl_pch(const char *const *all, int nall, char *pch, size_t n)
{
    const char *opts[120];
    int nopts = 0;
    for (int i = 0; i < nall && nopts < 110; i++) {
        int words;
        if (program_macro(all, nall, i, &words))
            i += words - 1;
        else
            opts[nopts++] = all[i];
    }
    char dir[1024], clang[1024];
    struct stat cs;
    if (!cache_dir(dir, sizeof dir) || !load_find_in_path("clang-14", clang, sizeof clang) ||
        stat(clang, &cs) != 0)
        return false;
    uint64_t h = fnv1a(0xcbf29ce484222325ull, load_opencl_header, load_opencl_header_len);
    char id[64];    /* the compiler: another clang-14 makes other files */
    const int idn = snprintf(id, sizeof id, "%lld %lld", (long long)cs.st_size,
                             (long long)cs.st_mtime);
    h = fnv1a(h, id, (size_t)idn + 1);
    for (int i = 0; i < nopts; i++)
        h = fnv1a(h, opts[i], strlen(opts[i]) + 1);
    char hdr[1100];
    snprintf(hdr, sizeof hdr, "%s/opencl-%016" PRIx64 ".h", dir, h);
    int w = snprintf(pch, n, "%s/opencl-%016" PRIx64 ".pch", dir, h);
    if (w < 0 || (size_t)w >= n)
        return false;
    if (access(pch, R_OK) == 0 && access(hdr, R_OK) == 0) {
        utimensat(AT_FDCWD, pch, NULL, 0);     /* recently used: kept */
        return true;
    }
    /* The header stays beside its precompiled form: clang-14 checks that
     * the file it was built from is unchanged. */
    if (access(hdr, R_OK) != 0 &&
        !write_atomically(hdr, load_opencl_header, load_opencl_header_len))
        return false;
    char tmp[1200];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", pch, (long)getpid());
    const char *argv[120];
    int k = 0;
    argv[k++] = "clang-14";
    for (int i = 0; i < nopts && k < 110; i++)
        argv[k++] = opts[i];
    const char *tail[] = { "-x", "cl-header", hdr, "-Xclang", "-emit-pch", "-o", tmp, NULL };
    for (int i = 0; tail[i]; i++)
        argv[k++] = tail[i];
    argv[k] = NULL;
    /* A header that does not precompile with these options is not the
     * user's concern: the compile includes it as text and says what fails. */
    if (load_run_tool((char *const *)argv, "/dev/null", -1) == 0 && rename(tmp, pch) == 0) {
        evict_old(dir);
        return true;
    }
    unlink(tmp);
    return false;
}

void load_opencl_pch_drop(const char *pch)
{
    unlink(pch);
}
