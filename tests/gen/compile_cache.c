/* compile_cache.c - the differential test's compile cache (compile_cache.h).
 * The key is a 128-bit FNV-1a hash (two offset bases) of: the kind of
 * compile, the source file and the files it includes with #include "...",
 * the options, device and width, the compile recipe's own sources, and the
 * identity (size, modification time) of the compilers: clang-14 and
 * llvm-spirv-14 for SPIR-V; ocloc and libiga64.so.1 for zebins (Debian's
 * libigc1 ships libiga64 and IGC together, so the IGA library that this
 * process loaded names IGC's version).  An entry is one file:
 * "sgcc1" rc msglen datalen, the message, the data; written to a temporary
 * name and renamed, so a reader never sees half of one. */
#define _GNU_SOURCE
#include "compile_cache.h"

#include "sgemu.h"
#include "gen/gen.h"

#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

cc_counts cc_stats;

typedef struct cc_key {
    uint64_t a, b;
} cc_key;

static void mix(cc_key *k, const void *p, size_t n)
{
    const uint8_t *s = p;
    for (size_t i = 0; i < n; i++) {
        k->a = (k->a ^ s[i]) * 0x100000001b3ull;
        k->b = (k->b ^ s[i]) * 0x100000001b3ull;
    }
    /* a separator, so that ("ab", "c") and ("a", "bc") differ */
    k->a = (k->a ^ 0xff) * 0x100000001b3ull;
    k->b = (k->b ^ 0xfe) * 0x100000001b3ull;
}

static void mix_str(cc_key *k, const char *s)
{
    mix(k, s ? s : "", s ? strlen(s) : 0);
}

static void mix_stat(cc_key *k, const char *path)
{
    struct stat st;
    long long v[2] = { -1, -1 };
    if (path && stat(path, &st) == 0) {
        v[0] = (long long)st.st_size;
        v[1] = (long long)st.st_mtime;
    }
    mix(k, v, sizeof v);
}

/* The file's bytes into the key (a missing file counts as empty, and
 * differently from an empty one). */
static char *mix_file(cc_key *k, const char *path, size_t *len)
{
    sgemu_fault ignored;
    size_t n = 0;
    char *t = sgemu_read_file(path, &n, &ignored);
    mix(k, t ? "1" : "0", 1);
    if (t)
        mix(k, t, n);
    if (len)
        *len = n;
    return t;
}

/* `prog` as found in $PATH (into buf), or NULL. */
static const char *in_path(const char *prog, char *buf, size_t cap)
{
    const char *path = getenv("PATH");
    for (const char *p = path ? path : "/usr/bin:/bin"; *p;) {
        const char *e = strchr(p, ':');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        snprintf(buf, cap, "%.*s/%s", (int)n, p, prog);
        if (access(buf, X_OK) == 0)
            return buf;
        p += n + (e ? 1 : 0);
    }
    return NULL;
}

static void mix_tool(cc_key *k, const char *prog)
{
    char buf[1024];
    mix_str(k, prog);
    mix_stat(k, in_path(prog, buf, sizeof buf));
}

/* The source and the files it includes by "name", relative to its folder
 * (the corpus includes its own headers that way). */
static void mix_source(cc_key *k, const char *path)
{
    size_t n = 0;
    char *t = mix_file(k, path, &n);
    const char *slash = strrchr(path, '/');
    int dirlen = slash ? (int)(slash - path) : 1;
    const char *dir = slash ? path : ".";
    for (const char *p = t; p && (p = strstr(p, "#include")); p += 8) {
        const char *q = p + 8;
        while (*q == ' ' || *q == '\t')
            q++;
        if (*q != '"')
            continue;
        const char *e = strchr(q + 1, '"');
        if (!e)
            break;
        char inc[2048];
        snprintf(inc, sizeof inc, "%.*s/%.*s", dirlen, dir, (int)(e - q - 1), q + 1);
        free(mix_file(k, inc, NULL));
    }
    free(t);
}

/* $SGEMU_GEN_CACHE, else the build directory's folder that meson names in
 * $SGEMU_GEN_CACHE_BUILD (so that a run under the sanitizers can share the
 * plain build's entries); none: no cache. */
static const char *cache_dir(void)
{
    const char *d = getenv("SGEMU_GEN_CACHE");
    if (!d)
        d = getenv("SGEMU_GEN_CACHE_BUILD");
    return d && *d ? d : NULL;
}

static bool cache_read(const cc_key *k, cc_result *r)
{
    const char *dir = cache_dir();
    if (!dir)
        return false;
    char path[1200];
    snprintf(path, sizeof path, "%s/%016llx%016llx", dir, (unsigned long long)k->a,
             (unsigned long long)k->b);
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    char magic[6] = { 0 };
    int32_t rc = 0;
    uint32_t mlen = 0;
    uint64_t dlen = 0;
    bool ok = fread(magic, 1, 5, f) == 5 && strcmp(magic, "sgcc1") == 0 &&
              fread(&rc, sizeof rc, 1, f) == 1 && fread(&mlen, sizeof mlen, 1, f) == 1 &&
              fread(&dlen, sizeof dlen, 1, f) == 1 && mlen < sizeof r->msg &&
              dlen < ((uint64_t)1 << 32) && (rc != 0) == (dlen == 0);
    if (ok && mlen)
        ok = fread(r->msg, 1, mlen, f) == mlen;
    r->msg[ok ? mlen : 0] = 0;
    if (ok && dlen) {
        r->data = malloc(dlen);
        ok = r->data && fread(r->data, 1, dlen, f) == dlen;
    }
    fclose(f);
    if (!ok) {
        free(r->data);
        r->data = NULL;
        return false;
    }
    r->rc = rc;
    r->len = dlen;
    return true;
}

static void cache_write(const cc_key *k, const cc_result *r)
{
    const char *dir = cache_dir();
    if (!dir)
        return;
    mkdir(dir, 0755);
    char path[1200], tmp[1300];
    snprintf(path, sizeof path, "%s/%016llx%016llx", dir, (unsigned long long)k->a,
             (unsigned long long)k->b);
    snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
    FILE *f = fopen(tmp, "wb");
    if (!f)
        return;
    int32_t rc = r->rc;
    uint32_t mlen = (uint32_t)strlen(r->msg);
    uint64_t dlen = r->rc ? 0 : r->len;
    bool ok = fwrite("sgcc1", 1, 5, f) == 5 && fwrite(&rc, sizeof rc, 1, f) == 1 &&
              fwrite(&mlen, sizeof mlen, 1, f) == 1 && fwrite(&dlen, sizeof dlen, 1, f) == 1 &&
              fwrite(r->msg, 1, mlen, f) == mlen &&
              (dlen == 0 || fwrite(r->data, 1, dlen, f) == dlen);
    ok = fclose(f) == 0 && ok;
    if (!ok || rename(tmp, path) != 0)
        unlink(tmp);
}

static cc_key key_start(const char *kind)
{
    cc_key k = { 0xcbf29ce484222325ull, 0x84222325cbf29ce4ull };
    mix_str(&k, kind);
    return k;
}

/* The file of the loaded libiga64.so.1 (see the top of the file). */
static void mix_iga(cc_key *k)
{
    const char *file = NULL;
    void *h = dlopen("libiga64.so.1", RTLD_LAZY | RTLD_NOLOAD);
    void *sym = h ? dlsym(h, "kv_create") : NULL;
    Dl_info di;
    if (sym && dladdr(sym, &di))
        file = di.dli_fname;
    mix_str(k, file);
    mix_stat(k, file);
    if (h)
        dlclose(h);
}

void cc_ocloc(const char *path, const char *device, const char *options, uint32_t simd,
              cc_result *r)
{
    memset(r, 0, sizeof *r);
    cc_key k = key_start("ocloc");
    mix_source(&k, path);
    mix_str(&k, device);
    mix_str(&k, options);
    mix(&k, &simd, sizeof simd);
    mix_tool(&k, "ocloc");
    mix_iga(&k);
    if (cache_read(&k, r)) {
        cc_stats.hits++;
        return;
    }
    cc_stats.misses++;
    r->rc = gen_compile_cl(path, device, options, simd, &r->data, &r->len, r->msg,
                           sizeof r->msg);
    if (r->rc) {
        free(r->data);
        r->data = NULL;
        r->len = 0;
    }
    if (r->rc != 3)   /* not a failure to run ocloc at all */
        cache_write(&k, r);
}

void cc_spirv(const char *path, const char *const *opts, uint32_t n, const char *src_root,
              cc_result *r)
{
    memset(r, 0, sizeof *r);
    cc_key k = key_start("spirv");
    mix_source(&k, path);
    for (uint32_t i = 0; i < n; i++)
        mix_str(&k, opts[i]);
    static const char *const recipe[] = { "load/opencl_c.c", "load/sgemu_opencl.h" };
    for (size_t i = 0; i < sizeof recipe / sizeof *recipe; i++) {
        char p[1200];
        snprintf(p, sizeof p, "%s/%s", src_root, recipe[i]);
        free(mix_file(&k, p, NULL));
    }
    mix_tool(&k, "clang-14");
    mix_tool(&k, "llvm-spirv-14");
    if (cache_read(&k, r)) {
        cc_stats.hits++;
        return;
    }
    cc_stats.misses++;
    FILE *devnull = fopen("/dev/null", "w");
    sgemu_load_opts lo = { .cl_options = opts, .ncl_options = n, .log = devnull };
    sgemu_fault f;
    memset(&f, 0, sizeof f);
    void *spv = NULL;
    r->rc = sgemu_compile_opencl_c_file(path, &lo, &spv, &r->len, &f);
    if (devnull)
        fclose(devnull);
    if (r->rc) {
        free(spv);
        r->len = 0;
        snprintf(r->msg, sizeof r->msg, "%s", f.msg);
    } else {
        r->data = spv;
    }
    cache_write(&k, r);
}
