/* opencl_c.c - OpenCL C to SPIR-V with clang-14 and llvm-spirv-14, run as
 * programs in a fresh temporary directory (the recipe: docs/spirv.md). */
#include "load_private.h"

#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

/* Find `prog` in $PATH; its path goes to buf (n bytes) when buf is given. */
bool load_find_in_path(const char *prog, char *buf, size_t n)
{
    const char *path = getenv("PATH");
    char local[1024];
    if (!buf) {
        buf = local;
        n = sizeof local;
    }
    for (const char *p = path ? path : "/usr/bin:/bin"; *p;) {
        const char *e = strchr(p, ':');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        snprintf(buf, n, "%.*s/%s", (int)len, p, prog);
        if (access(buf, X_OK) == 0)
            return true;
        p += len + (e ? 1 : 0);
    }
    return false;
}

bool load_make_temp_dir(const char *prefix, char *dir, size_t n)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, n, "%s/%s-XXXXXX", tmp && *tmp ? tmp : "/tmp", prefix);
    return mkdtemp(dir) != NULL;
}

/* Run argv[0] (found in $PATH) and wait; its diagnostics go to the file
 * err_path when one is given, else to descriptor log_fd.  Returns its exit
 * status (or -1). */
int load_run_tool(char *const argv[], const char *err_path, int log_fd)
{
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        int fd = err_path ? open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0600) : log_fd;
        if (fd < 0 || (fd != 2 && dup2(fd, 2) < 0))
            _exit(127);
        if (err_path)
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

/* The first w in s[0..n), or NULL. */
static const char *find_text(const char *s, size_t n, const char *w)
{
    const size_t k = strlen(w);
    for (size_t i = 0; i + k <= n; i++)
        if (!memcmp(s + i, w, k))
            return s + i;
    return NULL;
}

/* Does s[0..n) contain the string w? */
static bool has_text(const char *s, size_t n, const char *w)
{
    return find_text(s, n, w) != NULL;
}

/* Give the LLVM IR file `ll` native integer widths (n8:16:32:64) in its
 * data layout.  clang-14's spir64 layout names none, so the optimiser may
 * narrow a switch on `x % 4` to an i2 value, which llvm-spirv-14 rejects
 * ("InvalidBitWidth"); with native widths it keeps the switch in i32. */
static bool add_native_ints(const char *ll)
{
    size_t len;
    sgemu_fault ignored;
    char *text = sgemu_read_file(ll, &len, &ignored);
    if (!text)
        return false;
    static const char key[] = "target datalayout = \"";
    char *at = strstr(text, key), *end = at ? strchr(at + sizeof key - 1, '"') : NULL;
    bool ok = false;
    FILE *f = end && !has_text(at, (size_t)(end - at), "-n") ? fopen(ll, "wb") : NULL;
    if (f) {
        const size_t head = (size_t)(end - text);
        ok = fwrite(text, 1, head, f) == head && fputs("-n8:16:32:64", f) >= 0 &&
             fwrite(end, 1, len - head, f) == len - head;
        ok = fclose(f) == 0 && ok;
    }
    free(text);
    return ok;
}

/* Rewrite every `%x = freeze T v` of the LLVM IR text file `src` as the
 * no-op `%x = bitcast T v to T` into `dst`.  clang-14's -O2 freezes the
 * dividend of a `/` and `%` pair (DivRemPairs: x % d becomes x - (x / d) *
 * d), and llvm-spirv-14 cannot translate freeze; freezing a value that is
 * neither undef nor poison gives the value itself. */
static bool drop_freeze(const char *src, const char *dst)
{
    size_t len;
    sgemu_fault ignored;
    char *text = sgemu_read_file(src, &len, &ignored);
    FILE *f = text ? fopen(dst, "wb") : NULL;
    bool ok = f != NULL;
    for (size_t at = 0; ok && at < len;) {
        const char *line = text + at, *nl = memchr(line, '\n', len - at);
        const size_t n = nl ? (size_t)(nl - line) + 1 : len - at;
        at += n;
        static const char freeze[] = " = freeze ";
        const char *fz = find_text(line, n, freeze);
        if (!fz) {
            ok = fwrite(line, 1, n, f) == n;
            continue;
        }
        /* "TYPE VALUE" up to the metadata (", !dbg !7") or the line's end */
        const char *tv = fz + strlen(freeze), *end = line + n - (nl ? 1 : 0);
        const char *meta = find_text(tv, (size_t)(end - tv), ", !");
        const char *stop = meta ? meta : end;
        const char *sp = stop;
        while (sp > tv && sp[-1] != ' ')
            sp--;
        if (sp <= tv + 1) {   /* not the shape above: left for llvm-spirv to report */
            ok = fwrite(line, 1, n, f) == n;
            continue;
        }
        /* the line up to and with " = ", then the bitcast */
        const int head = (int)(fz - line + strlen(" = ")), ty = (int)(sp - 1 - tv),
                  val = (int)(stop - sp);
        ok = fprintf(f, "%.*sbitcast %.*s %.*s to %.*s%.*s", head, line, ty, tv, val, sp,
                     ty, tv, (int)(line + n - stop), stop) >= 0;
    }
    ok = f && fclose(f) == 0 && ok;
    free(text);
    return ok;
}

/* SimplifyCFG's sinking and hoisting of common code merges equal calls
 * from the arms of a branch into one call after (or before) it, with a
 * phi of their operands: for a group operation that changes which
 * work-items take part (a non-uniform broadcast with two source lanes
 * becomes one with a per-lane lane; a switch of clustered reductions one
 * with a run-time cluster size).  These two options keep every call where
 * the source put it (docs/spirv.md: what it costs). */
static const char *const keep_group_ops[] = {
    "-mllvm", "-simplifycfg-sink-common=false", "-mllvm", "-simplifycfg-hoist-common=false",
    NULL
};

/* Copy the file `path` to descriptor fd (clang's warnings, kept aside
 * while it was unclear whether they are the ones to show). */
static void copy_to_fd(const char *path, int fd)
{
    size_t len = 0;
    sgemu_fault ignored;
    char *text = sgemu_read_file(path, &len, &ignored);
    for (size_t at = 0; text && at < len;) {
        const ssize_t w = write(fd, text + at, len - at);
        if (w <= 0)
            break;
        at += (size_t)w;
    }
    free(text);
}

/* OpenCL C -> LLVM bitcode with clang-14 -O2.  With native_ints, in three
 * steps: clang's front end alone (-disable-llvm-passes) to IR text, native
 * integer widths added to its data layout, then clang's -O2 pipeline on
 * that IR without the loop and SLP vectorisers (they turn short loops into
 * llvm.vector.reduce.* intrinsics, which llvm-spirv-14 cannot translate)
 * to IR text again, and that text without freeze (drop_freeze) to bitcode.
 * The header comes precompiled when the cache has it (opencl_pch.c); if
 * clang-14 then fails, the compile is repeated with the header as text, so
 * that a stale precompiled header is never the reason, and the messages
 * shown are those of the plain compile. */
static int clang_to_bc(const char *path, const char *const *opts, int nopts, bool native_ints,
                       const char *header, const char *ll, const char *bc, const char *errf,
                       int log_fd)
{
    /* the front end's options: the precompiled header is built with them */
    const char *front[100];
    int nf = 0;
    bool std_given = false, cxx = false;
    for (int i = 0; i < nopts; i++) {
        std_given |= !strncmp(opts[i], "-cl-std=", 8);
        cxx |= !strncasecmp(opts[i], "-cl-std=clc++", 13);
    }
    if (!std_given)
        front[nf++] = "-cl-std=CL2.0";
    /* A plain `inline` function is a definition of the program, as
     * Intel's and PoCL's compilers take it: under C99's rule clang-14
     * emits none, so a call it does not inline (a large body, or any at
     * -cl-opt-disable) would name a function no module defines. */
    if (!cxx)
        front[nf++] = "-fgnu89-inline";
    front[nf++] = "-target";
    front[nf++] = "spir64";
    front[nf++] = "-cl-kernel-arg-info";
    /* line tables by default, so positions are source lines (-g0 after it
     * turns them off) */
    front[nf++] = "-gline-tables-only";
    front[nf++] = "-O2";
    for (int i = 0; i < nopts && nf < 90; i++)
        front[nf++] = opts[i];

    char pch[1200];
    const bool have_pch = load_opencl_pch(front, nf, pch, sizeof pch);
    int rc = -1;
    for (int attempt = have_pch ? 0 : 1; attempt < 2; attempt++) {
        const bool with_pch = attempt == 0;
        const char *argv[120];
        int n = 0;
        argv[n++] = "clang-14";
        for (int i = 0; i < nf; i++)
            argv[n++] = front[i];
        argv[n++] = "-emit-llvm";
        argv[n++] = native_ints ? "-S" : "-c";
        for (const char *const *m = keep_group_ops; *m; m++)
            argv[n++] = *m;
        if (native_ints) {
            argv[n++] = "-Xclang";
            argv[n++] = "-disable-llvm-passes";
        }
        argv[n++] = with_pch ? "-include-pch" : "-include";
        argv[n++] = with_pch ? pch : header;   /* sgemu_opencl.h: opencl-c.h and what it lacks */
        argv[n++] = path;
        argv[n++] = "-o";
        argv[n++] = native_ints ? ll : bc;
        argv[n] = NULL;
        rc = load_run_tool((char *const *)argv, with_pch ? errf : NULL, log_fd);
        if (rc == 0 && with_pch)
            copy_to_fd(errf, log_fd);
        if (rc == 0 && !with_pch && have_pch)
            load_opencl_pch_drop(pch);    /* it failed where the text did not */
        if (rc == 0)
            break;
    }
    if (rc != 0 || !native_ints)
        return rc;
    if (!add_native_ints(ll))
        return -1;
    const char *level = "-O2";     /* or the caller's (-cl-opt-disable gives -O0) */
    for (int i = 0; i < nopts; i++)
        if (!strncmp(opts[i], "-O", 2))
            level = opts[i];
    /* the optimised text goes to bc for a moment, the text without
     * freeze back to ll, and its bitcode to bc */
    /* -replexitval=never: IndVarSimplify would replace a loop's exit
     * value by its closed form, and SCEV computes the closed form of a
     * sum of the induction variable (`s += i`) in a type a bit wider than
     * the sum's (i33 for an int), whatever the data layout says */
    const char *opt[20] = { "clang-14", "-target", "spir64", level, "-fno-vectorize",
                            "-fno-slp-vectorize", "-mllvm", "-replexitval=never", "-emit-llvm",
                            "-S", ll, "-o", bc };
    int n = 13;
    for (const char *const *m = keep_group_ops; *m; m++)
        opt[n++] = *m;
    opt[n] = NULL;
    rc = load_run_tool((char *const *)opt, NULL, log_fd);
    if (rc != 0)
        return rc;
    if (!drop_freeze(bc, ll))
        return -1;
    const char *as[] = { "clang-14", "-target", "spir64", "-Wno-override-module", "-emit-llvm",
                         "-c", ll, "-o", bc, NULL };
    return load_run_tool((char *const *)as, NULL, log_fd);
}

/* .cl -> .spv in a fresh temporary directory.  When llvm-spirv-14 rejects
 * what clang's optimiser made (an integer width, see add_native_ints, a
 * vector-reduction intrinsic or a freeze), the kernel is compiled again
 * with native widths, no vectorisers and no freeze. */
int sgemu_compile_opencl_c_file(const char *path, const sgemu_load_opts *o, void **spv_out,
                                size_t *len, sgemu_fault *err)
{
    sgemu_fault local;
    if (!err)
        err = &local;
    *spv_out = NULL;
    *len = 0;
    const char *const *opts = o ? o->cl_options : NULL;
    const int nopts = o && opts ? (int)o->ncl_options : 0;
    FILE *log = o && o->log ? (FILE *)o->log : stderr;
    static const char *const tools[] = { "clang-14", "llvm-spirv-14" };
    for (int i = 0; i < 2; i++)
        if (!load_find_in_path(tools[i], NULL, 0))
            return load_fail(err, SGEMU_EXIT_USER,
                             "'%s' is OpenCL C: compiling it needs clang-14 and llvm-spirv-14, "
                             "and '%s' is not installed (Debian: apt-get install clang-14 "
                             "llvm-spirv-14; or compile to SPIR-V yourself and run the .spv)",
                             path, tools[i]);
    char dir[1024], ll[1100], bc[1100], spv[1100], errf[1100], hdr[1100], clang_err[1100];
    if (!load_make_temp_dir("sgemu-cl", dir, sizeof dir))
        return load_fail(err, SGEMU_EXIT_USER, "cannot create a temporary directory: %s",
                         strerror(errno));
    snprintf(ll, sizeof ll, "%s/kernel.ll", dir);
    snprintf(bc, sizeof bc, "%s/kernel.bc", dir);
    snprintf(spv, sizeof spv, "%s/kernel.spv", dir);
    snprintf(errf, sizeof errf, "%s/llvm-spirv.err", dir);
    snprintf(clang_err, sizeof clang_err, "%s/clang.err", dir);
    snprintf(hdr, sizeof hdr, "%s/sgemu_opencl.h", dir);
    FILE *hf = fopen(hdr, "wb");
    bool hok = hf && fwrite(load_opencl_header, 1, load_opencl_header_len, hf) ==
                     load_opencl_header_len;
    hok = hf && fclose(hf) == 0 && hok;
    if (!hok) {
        unlink(hdr);
        rmdir(dir);
        return load_fail(err, SGEMU_EXIT_USER, "cannot write '%s': %s", hdr, strerror(errno));
    }
    fflush(log);
    const int log_fd = fileno(log);
    int result = SGEMU_EXIT_USER;
    for (int native_ints = 0; native_ints < 2; native_ints++) {
        int rc = clang_to_bc(path, opts, nopts, native_ints, hdr, ll, bc, clang_err, log_fd);
        if (rc != 0) {
            load_fail(err, SGEMU_EXIT_USER, "clang-14 could not compile '%s'%s", path,
                      rc < 0 ? " (it could not be run)" : " (its messages are above)");
            break;
        }
        /* the float atomics of cl_ext_float_atomics and the media block I/O
         * of cl_intel_media_block_io need their extensions named */
        static const char spirv_exts[] = "--spirv-ext=+SPV_INTEL_subgroups,"
                                         "+SPV_INTEL_media_block_io,"
                                         "+SPV_EXT_shader_atomic_float_add,"
                                         "+SPV_EXT_shader_atomic_float_min_max";
        const char *av2[] = { "llvm-spirv-14", spirv_exts,
                              "--preserve-ocl-kernel-arg-type-metadata-through-string", bc, "-o",
                              spv, NULL };
        rc = load_run_tool((char *const *)av2, errf, log_fd);
        if (rc == 0) {
            *spv_out = sgemu_read_file(spv, len, err);
            result = *spv_out ? SGEMU_EXIT_OK : err->code;
            break;
        }
        size_t elen = 0;
        sgemu_fault ignored;
        char *etext = sgemu_read_file(errf, &elen, &ignored);
        /* SPIRVTypeVector: the SLP vectoriser's vectors of a width SPIR-V
         * lacks (<64 x float> of 64 unrolled accumulators), on which
         * llvm-spirv-14 asserts */
        const bool retry = etext && (has_text(etext, elen, "InvalidBitWidth") ||
                                     has_text(etext, elen, "llvm.vector.reduce") ||
                                     has_text(etext, elen, "freeze") ||
                                     has_text(etext, elen, "SPIRVTypeVector"));
        if (!retry || native_ints) {
            if (etext) {    /* its messages, as it printed them */
                fwrite(etext, 1, elen, log);
                fflush(log);
            }
            free(etext);
            load_fail(err, SGEMU_EXIT_USER, "llvm-spirv-14 could not translate '%s' to SPIR-V",
                      path);
            break;
        }
        free(etext);
    }
    unlink(ll);
    unlink(bc);
    unlink(spv);
    unlink(errf);
    unlink(clang_err);
    unlink(hdr);
    rmdir(dir);
    return result;
}

/* The text is written under NAME's base name into a temporary directory and
 * compiled from there, so clang's messages name that copy. */
int sgemu_compile_opencl_c(const char *name, const void *text, size_t len,
                           const sgemu_load_opts *o, void **spv, size_t *spv_len,
                           sgemu_fault *err)
{
    sgemu_fault local;
    if (!err)
        err = &local;
    *spv = NULL;
    *spv_len = 0;
    char dir[1024], path[1400];
    if (!load_make_temp_dir("sgemu-src", dir, sizeof dir))
        return load_fail(err, SGEMU_EXIT_USER, "cannot create a temporary directory: %s",
                         strerror(errno));
    const char *base = name ? strrchr(name, '/') : NULL;
    base = base ? base + 1 : name && *name ? name : "kernel.cl";
    snprintf(path, sizeof path, "%s/%s", dir, base);
    FILE *f = fopen(path, "wb");
    bool ok = f && fwrite(text, 1, len, f) == len;
    ok = f && fclose(f) == 0 && ok;
    int rc = ok ? sgemu_compile_opencl_c_file(path, o, spv, spv_len, err)
                : load_fail(err, SGEMU_EXIT_USER, "cannot write '%s': %s", path,
                            strerror(errno));
    unlink(path);
    rmdir(dir);
    return rc;
}
