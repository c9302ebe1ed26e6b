/* bench.c - sgemu-bench: runs every workload at sub-group widths 8, 16 and
 * 32 in functional and timing mode, next to its native C peer (and its
 * OpenCL C twin under Oclgrind and PoCL where one exists), and prints the
 * figures and their ratios, all measured in this one run.
 *
 * Each sgemu run happens in a forked child so that its peak RSS (wait4)
 * is that run's alone; the child sends back its figures and an FNV-1a hash
 * of the output, which must equal the native peer's. */
#include "bench.h"
#include "callgrind_split.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef BENCH_SRC
#define BENCH_SRC "."
#endif
/* a device with the thread slots for 256-item work-groups at SIMD8 in
 * timing mode, and widths 8, 16 and 32 */
#define BENCH_CONFIG "intel-xe-hpg"
#ifndef BENCH_OCL_PEER
#define BENCH_OCL_PEER ""
#endif

typedef struct opts {
    bool quick, no_ocl, no_timing;
    const char *only;
    const char *src;
    uint32_t threads;           /* threads of the parallel section */
} opts;

typedef struct child_res {
    int rc;
    double secs;
    uint64_t lane_ops, instructions, subgroups, hash;
    uint64_t checked, found;    /* detectors: accesses checked, findings */
    long maxrss_kb;
    char msg[200];
} child_res;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static uint64_t fnv1a(const uint8_t *p, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

static int load_kernel(const char *src_root, const char *rel, isa_kernel *k)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", src_root, rel);
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    static char buf[1 << 20];
    size_t len = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    isa_diags d;
    memset(&d, 0, sizeof d);
    memset(k, 0, sizeof *k);
    int errs = isa_assemble(path, buf, len, k, &d);
    if (errs)
        isa_diags_print(&d, stderr);
    isa_diags_free(&d);
    return errs ? -1 : 0;
}

/* An OpenCL C file through clang-14 + llvm-spirv-14 and sgemu's SPIR-V
 * front end (what `sgemu run K.cl` does). */
static int load_cl(const char *src_root, const char *rel, isa_kernel *k)
{
    char dir[] = "/tmp/sgemu-bench-XXXXXX", cmd[8192], spv[64];
    if (!mkdtemp(dir))
        return -1;
    snprintf(spv, sizeof spv, "%s/k.spv", dir);
    snprintf(cmd, sizeof cmd, "clang-14 -c -cl-std=CL2.0 -target spir64 -emit-llvm -O2 "
             "'%s/%s' -o %s/k.bc && llvm-spirv-14 --spirv-ext=+SPV_INTEL_subgroups,"
             "+SPV_EXT_shader_atomic_float_add,+SPV_EXT_shader_atomic_float_min_max "
             "%s/k.bc -o %s", src_root, rel, dir, dir, spv);
    int rc = system(cmd);   // NOLINT(cert-env33-c): runs the OpenCL compilers on purpose; paths are the repo's own
    FILE *f = rc == 0 ? fopen(spv, "rb") : NULL;
    static char buf[1 << 20];
    size_t len = f ? fread(buf, 1, sizeof buf, f) : 0;
    if (f)
        fclose(f);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0 || !len)   // NOLINT(cert-env33-c): removes the mkdtemp directory made above
        return -1;
    isa_diags d;
    memset(&d, 0, sizeof d);
    memset(k, 0, sizeof *k);
    int errs = sgemu_kernel_from_memory(rel, SGEMU_SOURCE_SPIRV, buf, len, NULL, k, NULL, &d,
                                        NULL);
    if (errs)
        isa_diags_print(&d, stderr);
    isa_diags_free(&d);
    return errs ? -1 : 0;
}

/* what children load: the workload's .sgasm, its .cl through the SPIR-V
 * path, or its .cl compiled by Intel's ocloc (IGC's Gen ISA) */
enum { LOAD_SGASM, LOAD_CL, LOAD_GEN };
static int child_load = LOAD_SGASM;
static const char *child_config = BENCH_CONFIG;
/* the Gen section's device: ocloc target and the config that names it */
#define GEN_TARGET "tgllp"
#define GEN_CONFIG "intel-xe-lp"

/* The workload's .cl through ocloc and IGC (sgemu_load_igc) at SIMD `width`. */
static int load_gen(const char *src_root, const char *rel, uint32_t width, isa_kernel *k,
                    char *err, size_t errcap)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", src_root, rel);
    memset(k, 0, sizeof *k);
    return sgemu_load_igc(path, GEN_TARGET, NULL, width, NULL, k, err, errcap);
}
/* sgemu_run calls per child; the child reports the fastest.  The ocl
 * section sets OCL_REPS so that sgemu is timed as its peers are: the best
 * of that many runs of the kernel alone, its buffers already written once
 * (the first run takes the page faults of a fresh output buffer, which the
 * peers take when they create their buffers, outside their timed region). */
static int child_reps = 1;
static uint32_t child_detect;   /* SGEMU_DETECT_* bits of the children's runs */
#define OCL_REPS 3

/* In a child: set up, run sgemu once, report. */
static void child_run(const opts *o, const bench_work *w, uint64_t n, uint32_t width,
                      bool timing, uint32_t threads, int fd)
{
    child_res r;
    memset(&r, 0, sizeof r);
    isa_kernel k;
    emu_config cfg;
    isa_diags d;
    memset(&d, 0, sizeof d);
    bench_inst b;
    memset(&b, 0, sizeof b);
    b.n = n;
    b.width = width;
    char gerr[512] = "";
    int lrc = child_load == LOAD_GEN  ? load_gen(o->src, w->cl_file, width, &k, gerr, sizeof gerr)
              : child_load == LOAD_CL ? load_cl(o->src, w->cl_file, &k)
                                      : load_kernel(o->src, w->kernel, &k);
    if (lrc || emu_config_load_bundled(child_config, &cfg, &d)) {
        r.rc = -1;
        if (gerr[0])
            snprintf(r.msg, sizeof r.msg, "%.190s", gerr);
        else
            snprintf(r.msg, sizeof r.msg, "cannot load %s or config %s", w->kernel, child_config);
    } else if (w->setup(&b, n, width)) {
        r.rc = -1;
        snprintf(r.msg, sizeof r.msg, "out of memory");
    } else {
        sgemu_launch L;
        memset(&L, 0, sizeof L);
        L.dims = b.dims;
        for (int i = 0; i < 3; i++) {
            L.global[i] = b.global[i];
            L.local[i] = b.local[i];
        }
        L.local_given = true;
        L.sg_width = width;
        L.timing = timing;
        L.threads = threads;
        L.detect = child_detect;
        sgemu_stats st;
        sgemu_fault fault;
        memset(&st, 0, sizeof st);
        r.secs = 1e30;
        for (int rep = 0; rep < child_reps; rep++) {
            if (rep)
                sgemu_stats_free(&st);
            r.rc = sgemu_run(&k, &cfg, &L, b.args, &st, &fault);
            const double t = st.host_wall_s;      /* as `sgemu run` reports it */
            if (t < r.secs)
                r.secs = t;
            if (r.rc)
                break;
        }
        r.lane_ops = st.lane_ops;
        r.instructions = st.instructions;
        r.subgroups = st.subgroups;
        r.checked = st.race_checked + st.uninit_checked + st.undef_checked;
        r.found = st.races + st.uninit_reads + st.undef_uses;
        if (r.rc)
            snprintf(r.msg, sizeof r.msg, "%.190s", fault.msg);
        r.hash = fnv1a(bench_out_data(&b), bench_out_bytes(&b));
        sgemu_stats_free(&st);
    }
    if (write(fd, &r, sizeof r) != (ssize_t)sizeof r)
        _exit(3);
    _exit(0);
}

static child_res run_forked(const opts *o, const bench_work *w, uint64_t n, uint32_t width,
                            bool timing, uint32_t threads)
{
    child_res r;
    memset(&r, 0, sizeof r);
    int p[2];
    if (pipe(p)) {
        r.rc = -1;
        return r;
    }
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        close(p[0]);
        child_run(o, w, n, width, timing, threads, p[1]);
    }
    close(p[1]);
    ssize_t got = pid > 0 ? read(p[0], &r, sizeof r) : -1;
    close(p[0]);
    struct rusage ru;
    int status = 0;
    if (pid > 0)
        wait4(pid, &status, 0, &ru);
    if (got != (ssize_t)sizeof r) {
        memset(&r, 0, sizeof r);
        r.rc = -1;
        snprintf(r.msg, sizeof r.msg, "child failed (status %d)", status);
    }
    r.maxrss_kb = pid > 0 ? ru.ru_maxrss : 0;
    return r;
}

/* The native peer: best of repeated runs (at least ~0.2 s in all). */
static double run_native(const bench_work *w, uint64_t n, uint32_t width, uint64_t *hash)
{
    bench_inst b;
    memset(&b, 0, sizeof b);
    b.n = n;
    b.width = width;
    if (w->setup(&b, n, width))
        return -1;
    uint8_t *out = malloc(bench_out_bytes(&b));
    if (!out) {
        bench_inst_free(&b);
        return -1;
    }
    double best = 1e30, total = 0;
    for (int rep = 0; rep < 1000 && (rep < 3 || total < 0.2); rep++) {
        double t0 = now();
        w->native(&b, out);
        double t = now() - t0;
        total += t;
        if (t < best)
            best = t;
    }
    *hash = fnv1a(out, bench_out_bytes(&b));
    free(out);
    bench_inst_free(&b);
    return best;
}

/* The OpenCL twin through sgemu-ocl-peer; seconds per run or < 0. */
static double run_ocl(const opts *o, const bench_work *w, uint64_t n, bool oclgrind,
                      uint64_t *hash, char *why, size_t whyn)
{
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "%s%s '%s' %s %llu %d 2>&1",
             oclgrind ? "POCL_MAX_PTHREAD_COUNT=1 oclgrind " :
                        "OCL_ICD_VENDORS=/etc/OpenCL/vendors/pocl.icd "
                        "POCL_MAX_PTHREAD_COUNT=1 POCL_CPU_MAX_CU_COUNT=1 ",
             BENCH_OCL_PEER, o->src, w->name, (unsigned long long)n, OCL_REPS);
    FILE *p = popen(cmd, "r");   // NOLINT(cert-env33-c): the peer runs under oclgrind/PoCL env settings, on purpose
    if (!p) {
        snprintf(why, whyn, "cannot start the peer");
        return -1;
    }
    char line[1024] = "", last[1024] = "";
    double secs = -1;
    while (fgets(line, sizeof line, p)) {
        char name[256];
        double s;
        unsigned long long h;
        if (sscanf(line, "%255[^\t]\t%lf\t%llx", name, &s, &h) == 3) {
            secs = s;
            *hash = h;
        } else {
            snprintf(last, sizeof last, "%s", line);
        }
    }
    int st = pclose(p);
    if (secs < 0 || st != 0) {
        last[strcspn(last, "\n")] = 0;
        snprintf(why, whyn, "%s", last[0] ? last : "failed");
        return -1;
    }
    return secs;
}

static const char *mb(char *buf, double bytes)
{
    snprintf(buf, 32, "%.1f", bytes / (1024.0 * 1024.0));
    return buf;
}

/* The detectors against the plain functional run of the same workload
 * (S=16, 1 thread): wall time, peak RSS, accesses checked.  Workloads are
 * correct kernels: any finding is a false positive. */
static void section_detect(const opts *o)
{
    static const struct { const char *name; uint32_t bits; } modes[] = {
        { "plain", 0 },
        { "--races", SGEMU_DETECT_RACES },
        { "--uninitialized", SGEMU_DETECT_UNINIT },
        { "both", SGEMU_DETECT_RACES | SGEMU_DETECT_UNINIT },
    };
    printf("## Detectors: overhead against the plain functional run (S=16, 1 thread, "
           "best of %d)\n\n", OCL_REPS);
    printf("| workload | size | run | func wall s | x plain | peak RSS MB | x plain |"
           " accesses checked | findings | output |\n");
    printf("|---|---|---|---|---|---|---|---|---|---|\n");
    for (uint32_t i = 0; i < bench_nworks; i++) {
        const bench_work *w = &bench_works[i];
        if (o->only && strcmp(o->only, w->name))
            continue;
        uint64_t n = o->quick ? w->size_quick : w->size_full;
        child_res plain = { 0 };
        for (size_t m = 0; m < sizeof modes / sizeof *modes; m++) {
            child_detect = modes[m].bits;
            child_reps = OCL_REPS;      /* best of three: short runs are noisy */
            child_res r = run_forked(o, w, n, 16, false, 1);
            child_reps = 1;
            child_detect = 0;
            if (m == 0)
                plain = r;
            char m1[32];
            if (r.rc) {
                printf("| %s | %llu %s | %s | error: %.60s | | | | | | |\n", w->name,
                       (unsigned long long)n, w->size_text, modes[m].name, r.msg);
                continue;
            }
            printf("| %s | %llu %s | %s | %.3f | %.2fx | %s | %.2fx | ", w->name,
                   (unsigned long long)n, w->size_text, modes[m].name, r.secs,
                   plain.secs > 0 ? r.secs / plain.secs : 0, mb(m1, r.maxrss_kb * 1024.0),
                   plain.maxrss_kb ? (double)r.maxrss_kb / (double)plain.maxrss_kb : 0);
            if (m == 0)
                printf("- | - | ");
            else
                printf("%llu | %llu | ", (unsigned long long)r.checked,
                       (unsigned long long)r.found);
            printf("%s |\n", r.hash == plain.hash ? "= plain" : "DIFFERS");
            fflush(stdout);
        }
    }
    printf("\n");
}

static void section_main(const opts *o)
{
    static const uint32_t widths[] = { 8, 16, 32 };
    printf("## Workloads (1 host thread; ratio = native figure / sgemu figure)\n\n");
    printf("| workload | size | S | func Mlane-op/s | native Mlane-op/s | native/func |"
           " timing Msg-inst/s | func wall s | timing wall s | peak RSS MB | buffers MB |"
           " RSS/buffers | output |\n");
    printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (uint32_t i = 0; i < bench_nworks; i++) {
        const bench_work *w = &bench_works[i];
        if (o->only && strcmp(o->only, w->name))
            continue;
        uint64_t n = o->quick ? w->size_quick : w->size_full;
        for (uint32_t wi = 0; wi < 3; wi++) {
            uint32_t S = widths[wi];
            uint64_t nh = 0;
            double nt = run_native(w, n, S, &nh);
            child_res f = run_forked(o, w, n, S, false, 1);
            child_res t = { 0 };
            if (!o->no_timing)
                t = run_forked(o, w, n, S, true, 1);
            bench_inst b;
            memset(&b, 0, sizeof b);
            size_t bufbytes = 0;
            if (!w->setup(&b, n, S))
                bufbytes = b.buffer_bytes;
            bench_inst_free(&b);
            char m1[32], m2[32];
            double ff = f.rc ? 0 : f.lane_ops / f.secs / 1e6;
            double nf = nt > 0 ? f.lane_ops / nt / 1e6 : 0;
            printf("| %s | %llu %s | %u | %.1f | %.1f | %.1fx | ", w->name,
                   (unsigned long long)n, w->size_text, S, ff, nf, ff > 0 ? nf / ff : 0);
            if (o->no_timing)
                printf("- | %.3f | - | ", f.secs);
            else if (t.rc)
                printf("error: %.60s | %.3f | - | ", t.msg, f.secs);
            else
                printf("%.2f | %.3f | %.3f | ", t.instructions / t.secs / 1e6, f.secs, t.secs);
            printf("%s | %s | %.2f | %s |\n", mb(m1, f.maxrss_kb * 1024.0), mb(m2, (double)bufbytes),
                   bufbytes ? f.maxrss_kb * 1024.0 / (double)bufbytes : 0,
                   f.rc ? f.msg : f.hash == nh ? "= native" : "DIFFERS");
            fflush(stdout);
        }
    }
    printf("\n");
}

static void section_ocl(const opts *o)
{
    printf("## Same OpenCL C kernel: Oclgrind and PoCL (1 host core) against sgemu (S=16)\n\n");
    printf("sgemu runs the same .cl file through clang-14, llvm-spirv-14 and its SPIR-V front"
           " end (or, marked, the hand-written .sgasm twin when that fails); figures are"
           " work-items per second (Oclgrind on 1/16 of the size: it is linear in the"
           " items).  Each side is timed alike: the best of %d launches of the kernel"
           " alone (sgemu: `sgemu_run`, including its decode; the peers:"
           " clEnqueueNDRangeKernel + clFinish), with the inputs already in the"
           " buffers; neither side's buffer allocation, filling, transfers or output"
           " check is timed.\n\n", OCL_REPS);
    printf("| workload | items | sgemu Mitem/s | Oclgrind Mitem/s | sgemu/Oclgrind |"
           " PoCL Mitem/s | PoCL/sgemu |\n|---|---|---|---|---|---|---|\n");
    for (uint32_t i = 0; i < bench_nworks; i++) {
        const bench_work *w = &bench_works[i];
        if (o->only && strcmp(o->only, w->name))
            continue;
        uint64_t n = o->quick ? w->size_quick : w->size_full;
        if (!w->cl_file) {
            printf("| %s | %llu | - | not supported | - | not supported | - |\n", w->name,
                   (unsigned long long)n);
            continue;
        }
        child_load = LOAD_CL;
        child_reps = OCL_REPS;
        child_res f = run_forked(o, w, n, 16, false, 1);
        child_load = LOAD_SGASM;
        const char *what = " (.cl)";
        if (f.rc) {
            f = run_forked(o, w, n, 16, false, 1);
            what = " (.sgasm twin)";
        }
        child_reps = 1;
        uint64_t items = n, nh = 0, gh = 0, ph = 0;
        run_native(w, n, 16, &nh);
        double sg = f.rc ? 0 : items / f.secs / 1e6;
        char why1[256] = "", why2[256] = "";
        uint64_t ng = n / 16 >= 4096 ? n / 16 : n;
        double gt = BENCH_OCL_PEER[0] ? run_ocl(o, w, ng, true, &gh, why1, sizeof why1) : -1;
        double pt = BENCH_OCL_PEER[0] ? run_ocl(o, w, n, false, &ph, why2, sizeof why2) : -1;
        double gf = gt > 0 ? ng / gt / 1e6 : 0, pf = pt > 0 ? n / pt / 1e6 : 0;
        printf("| %s | %llu | %.2f%s%s | ", w->name, (unsigned long long)n, sg, what,
               f.hash == nh ? "" : " (DIFFERS)");
        if (gt > 0)
            printf("%.4f | %.0fx | ", gf, sg / gf);
        else
            printf("unavailable (%s) | - | ", BENCH_OCL_PEER[0] ? why1 : "no OpenCL at build");
        if (pt > 0)
            printf("%.2f%s | %.2fx |\n", pf, ph == nh ? "" : " (DIFFERS)", pf / sg);
        else
            printf("unavailable (%s) | - |\n", BENCH_OCL_PEER[0] ? why2 : "no OpenCL at build");
        fflush(stdout);
    }
    printf("\n");
}

/* The same .cl through the SPIR-V path and through IGC's Gen ISA, on the
 * Xe-LP config at S=16, alternating (SPIR-V, Gen, SPIR-V, Gen, ...) so that
 * a shared host's load falls on both alike; each figure is the best of
 * GEN_ROUNDS children, each the best of OCL_REPS launches. */
#define GEN_ROUNDS 3

/* the faster of two children; a failed one only over another failure */
static child_res better(child_res best, child_res r)
{
    return best.rc || (!r.rc && r.secs < best.secs) ? r : best;
}

/* GEN_ROUNDS rounds of one SPIR-V-path and one Gen-path child at SIMD16,
 * alternating so that both see the same host load; the faster of each. */
static void alternate(const opts *o, const bench_work *w, uint64_t n, bool timed,
                      child_res *spirv, child_res *gen)
{
    for (int round = 0; round < GEN_ROUNDS; round++) {
        child_load = LOAD_CL;
        child_res a = run_forked(o, w, n, 16, timed, 1);
        child_load = LOAD_GEN;
        child_res b = run_forked(o, w, n, 16, timed, 1);
        *spirv = better(*spirv, a);
        *gen = better(*gen, b);
        if (a.rc && b.rc)
            break;
    }
}

static void section_gen(const opts *o)
{
    printf("## Gen path: the same OpenCL C kernel through SPIR-V and through IGC (S=16, "
           GEN_CONFIG ", ocloc -device " GEN_TARGET ", 1 thread)\n\n");
    if (system("command -v ocloc >/dev/null 2>&1") != 0) {   // NOLINT(cert-env33-c): probes for ocloc
        printf("ocloc not found: section skipped\n\n");
        return;
    }
    FILE *iga = popen("ldconfig -p 2>/dev/null | grep -c libiga64.so.1", "r");   // NOLINT(cert-env33-c): probes for IGA
    int have_iga = 0;
    if (!iga || fscanf(iga, "%d", &have_iga) != 1)
        have_iga = 0;
    if (iga)
        pclose(iga);
    if (!have_iga) {
        printf("libiga64.so.1 not found: section skipped\n\n");
        return;
    }
    printf("Functional lane-ops/s of each path (Gen counts IGC's instructions, SPIR-V"
           " sgemu's own ISA: the lane-op counts differ, so items/s is given too);"
           " timing: sub-group instructions/s of timed runs of each path (the faster of"
           " alternating runs; Gen instructions are IGC's).\n\n");
    printf("| workload | items | SPIR-V Mlane-op/s | Gen Mlane-op/s | Gen/SPIR-V lane-op/s |"
           " SPIR-V Mitem/s | Gen Mitem/s | Gen/SPIR-V items/s | SPIR-V timing Msg-inst/s |"
           " Gen timing Msg-inst/s | output |\n|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (uint32_t i = 0; i < bench_nworks; i++) {
        const bench_work *w = &bench_works[i];
        if (o->only && strcmp(o->only, w->name))
            continue;
        uint64_t n = o->quick ? w->size_quick : w->size_full, nh = 0;
        if (!w->cl_file) {
            printf("| %s | %llu | - | no .cl twin | - | - | - | - | - | n/a | - |\n", w->name,
                   (unsigned long long)n);
            continue;
        }
        child_config = GEN_CONFIG;
        child_reps = OCL_REPS;
        child_res s = { .rc = -1 }, g = { .rc = -1 };
        alternate(o, w, n, false, &s, &g);
        /* timed runs of both paths, alternating, the faster of each */
        child_res t = { .rc = -1 }, tg = { .rc = -1 };
        child_reps = 1;
        if (!o->no_timing)
            alternate(o, w, n, true, &t, &tg);
        child_load = LOAD_SGASM;
        child_reps = 1;
        child_config = BENCH_CONFIG;
        run_native(w, n, 16, &nh);
        double sl = s.rc ? 0 : s.lane_ops / s.secs / 1e6, gl = g.rc ? 0 : g.lane_ops / g.secs / 1e6;
        double si = s.rc ? 0 : n / s.secs / 1e6, gi = g.rc ? 0 : n / g.secs / 1e6;
        printf("| %s | %llu | ", w->name, (unsigned long long)n);
        if (s.rc)
            printf("error: %.60s | ", s.msg);
        else
            printf("%.1f | ", sl);
        if (g.rc)
            printf("error: %.60s | - | ", g.msg);
        else
            printf("%.1f | %.3fx | ", gl, sl > 0 ? gl / sl : 0);
        printf("%.2f | %.2f | %.3fx | ", si, gi, si > 0 && gi > 0 ? gi / si : 0);
        if (o->no_timing || t.rc)
            printf("- | ");
        else
            printf("%.2f | ", t.instructions / t.secs / 1e6);
        if (o->no_timing)
            printf("- | ");
        else if (tg.rc)
            printf("error: %.60s | ", tg.msg);
        else
            printf("%.2f | ", tg.instructions / tg.secs / 1e6);
        printf("SPIR-V %s, Gen %s |\n",
               s.rc ? "-" : s.hash == nh ? "= native" : "DIFFERS",
               g.rc ? "-" : g.hash == nh ? "= native" : "DIFFERS");
        fflush(stdout);
    }
    printf("\n");
}

/* Cost and memory against NDRange size: vector_add at 4 sizes. */
static void section_scaling(const opts *o)
{
    const bench_work *w = &bench_works[0];
    uint64_t base = o->quick ? (1u << 16) : (1u << 20);
    printf("## Scaling: %s, S=16, 1 thread, at 4 NDRange sizes\n\n", w->name);
    printf("| items | func wall s | s per Mitem | peak RSS MB | buffers MB | RSS/buffers |\n"
           "|---|---|---|---|---|---|\n");
    for (uint64_t n = base / 4; n <= base * 16; n *= 4) {
        child_res f = run_forked(o, w, n, 16, false, 1);
        bench_inst b;
        memset(&b, 0, sizeof b);
        size_t bb = w->setup(&b, n, 16) ? 0 : b.buffer_bytes;
        bench_inst_free(&b);
        char m1[32], m2[32];
        printf("| %llu | %.3f | %.4f | %s | %s | %.2f |\n", (unsigned long long)n, f.secs,
               f.secs / (n / 1e6), mb(m1, f.maxrss_kb * 1024.0), mb(m2, (double)bb),
               bb ? f.maxrss_kb * 1024.0 / (double)bb : 0);
        fflush(stdout);
    }
    printf("\n");
}

/* Functional and timing mode with 1 and N threads: speed-up and equality. */
static void section_threads(const opts *o)
{
    uint32_t T = o->threads ? o->threads : (uint32_t)sysconf(_SC_NPROCESSORS_ONLN);
    printf("## Threads: 1 against %u host threads (S=16)\n\n", T);
    printf("| workload | mode | 1 thread s | %u threads s | speed-up | same output |\n"
           "|---|---|---|---|---|---|\n", T);
    static const char *names[] = { "alu_loop", "vector_add", "local_reduce" };
    for (int m = 0; m < 2; m++) {
        if (m && o->no_timing)
            break;
        for (uint32_t i = 0; i < 3; i++) {
            const bench_work *w = NULL;
            for (uint32_t j = 0; j < bench_nworks; j++)
                if (!strcmp(bench_works[j].name, names[i]))
                    w = &bench_works[j];
            if (!w || (o->only && strcmp(o->only, w->name)))   /* !w: names[] out of step */
                continue;
            uint64_t n = o->quick ? w->size_quick : w->size_full;
            child_res a = run_forked(o, w, n, 16, m, 1);
            child_res b = run_forked(o, w, n, 16, m, T);
            printf("| %s | %s | %.3f | %.3f | %.2fx | %s |\n", w->name,
                   m ? "timing" : "functional", a.secs, b.secs, a.secs / b.secs,
                   !a.rc && !b.rc && a.hash == b.hash && a.instructions == b.instructions
                       ? "yes" : "NO");
            fflush(stdout);
        }
    }
    printf("\n");
}

/* Host instructions per sub-group instruction: each workload at the quick
 * size, in timing and in functional mode, run by this program under
 * callgrind (--child-ir), counting only inside sgemu_run.  Instruction
 * counts do not follow the host's load, unlike times on a shared machine. */
static void child_ir(const opts *o, const char *name, uint32_t width, bool timing)
{
    for (uint32_t i = 0; i < bench_nworks; i++)
        if (!strcmp(bench_works[i].name, name)) {
            int p[2];
            if (pipe(p))
                exit(1);
            child_run(o, &bench_works[i], bench_works[i].size_quick, width, timing, 1, p[1]);
        }
    exit(1);
}

/* Ir inside sgemu_run of one child under callgrind, 0 when it failed; with
 * comp, also split by component (callgrind_split.c). */
static uint64_t callgrind_ir(const opts *o, const char *self, const char *name, uint32_t width,
                             bool timing, uint64_t comp[BENCH_NCOMP])
{
    char out[] = "/tmp/sgemu-bench-XXXXXX", cmd[8192];
    int fd = mkstemp(out);
    if (fd < 0)
        return 0;
    close(fd);
    snprintf(cmd, sizeof cmd, "valgrind --tool=callgrind --toggle-collect=sgemu_run "
             "--callgrind-out-file=%s '%s' --src '%s' --child-ir %s %u %d "
             ">/dev/null 2>&1", out, self, o->src, name, width, timing ? 1 : 0);
    uint64_t ir = 0;
    if (system(cmd) == 0) {   // NOLINT(cert-env33-c): runs this program under valgrind, on purpose
        FILE *f = fopen(out, "r");
        char line[512];
        while (f && fgets(line, sizeof line, f))
            if (!strncmp(line, "totals:", 7) || !strncmp(line, "summary:", 8))
                ir = strtoull(strchr(line, ':') + 1, NULL, 10);
        if (f)
            fclose(f);
        uint64_t split_total = 0;
        if (comp && (callgrind_split(out, comp, &split_total) || split_total != ir))
            memset(comp, 0, BENCH_NCOMP * sizeof *comp);   /* not the file's total: none */
    }
    unlink(out);
    return ir;
}

static void print_ir_split(const opts *o, uint64_t (*comp)[3][BENCH_NCOMP],
                           const uint64_t (*ninst)[3]);

static void section_ir(const opts *o, const char *self)
{
    static const uint32_t widths[] = { 8, 16, 32 };
    printf("## Host instructions per sub-group instruction (callgrind, quick sizes)\n\n");
    if (system("valgrind --version >/dev/null 2>&1") != 0) {   // NOLINT(cert-env33-c): probes for valgrind
        printf("valgrind not found: section skipped\n\n");
        return;
    }
    printf("Instructions the host executes inside `sgemu_run` (callgrind `Ir`) per "
           "sub-group instruction, one host thread; functional = `--no-timing`, model = "
           "timing - functional.\n\n");
    printf("| workload | items | S | sub-group inst | timing Ir/inst | functional Ir/inst |"
           " model Ir/inst | timing Ir/inst vs S=16 |\n|---|---|---|---|---|---|---|---|\n");
    uint64_t (*comp)[3][BENCH_NCOMP] = calloc(bench_nworks, sizeof *comp);
    uint64_t (*ninst)[3] = calloc(bench_nworks, sizeof *ninst);
    if (!comp || !ninst) {
        free(comp);
        free(ninst);
        printf("out of memory\n\n");
        return;
    }
    for (uint32_t i = 0; i < bench_nworks; i++) {
        const bench_work *w = &bench_works[i];
        if (o->only && strcmp(o->only, w->name))
            continue;
        double per16 = 0, per[3] = { 0 };
        uint64_t inst[3] = { 0 }, func[3] = { 0 }, tim[3] = { 0 };
        for (uint32_t wi = 0; wi < 3; wi++) {
            child_res r = run_forked(o, w, w->size_quick, widths[wi], false, 1);
            inst[wi] = r.rc ? 0 : r.instructions;
            tim[wi] = callgrind_ir(o, self, w->name, widths[wi], true, comp[i][wi]);
            func[wi] = callgrind_ir(o, self, w->name, widths[wi], false, NULL);
            ninst[i][wi] = inst[wi];
            per[wi] = inst[wi] && tim[wi] ? (double)tim[wi] / (double)inst[wi] : 0;
        }
        per16 = per[1];
        for (uint32_t wi = 0; wi < 3; wi++) {
            if (!per[wi]) {
                printf("| %s | %llu | %u | - | failed | - | - | - |\n", w->name,
                       (unsigned long long)w->size_quick, widths[wi]);
                continue;
            }
            double fi = (double)func[wi] / (double)inst[wi];
            printf("| %s | %llu | %u | %llu | %.0f | %.0f | %.0f | %.2fx |\n", w->name,
                   (unsigned long long)w->size_quick, widths[wi],
                   (unsigned long long)inst[wi], per[wi], fi, per[wi] - fi,
                   per16 ? per[wi] / per16 : 0);
            fflush(stdout);
        }
    }
    printf("\n");
    print_ir_split(o, comp, ninst);
    free(comp);
    free(ninst);
}

/* The timing runs' Ir per sub-group instruction by component: the self
 * cost of each function, by its source file (tools/bench/callgrind_split.c
 * says which files make a component). */
static void print_ir_split(const opts *o, uint64_t (*comp)[3][BENCH_NCOMP],
                           const uint64_t (*ninst)[3])
{
    static const uint32_t widths[] = { 8, 16, 32 };
    printf("### Where the host instructions go (timing mode, Ir per sub-group instruction)\n\n");
    printf("Self cost of each function, summed by the component its source file belongs to"
           " (code inlined into a function counts for it; `libc, other` is memset, memcpy,"
           " malloc and the rest outside sgemu's sources).\n\n| workload | S |");
    for (int c = 0; c < BENCH_NCOMP; c++)
        printf(" %s |", bench_comp_title((bench_comp)c));
    printf(" total |\n|---|---|");
    for (int c = 0; c <= BENCH_NCOMP; c++)
        printf("---|");
    printf("\n");
    for (uint32_t i = 0; i < bench_nworks; i++) {
        if (o->only && strcmp(o->only, bench_works[i].name))
            continue;
        for (uint32_t wi = 0; wi < 3; wi++) {
            uint64_t sum = 0;
            for (int c = 0; c < BENCH_NCOMP; c++)
                sum += comp[i][wi][c];
            printf("| %s | %u |", bench_works[i].name, widths[wi]);
            if (!sum || !ninst[i][wi]) {
                for (int c = 0; c <= BENCH_NCOMP; c++)
                    printf(" - |");
                printf("\n");
                continue;
            }
            double n = (double)ninst[i][wi];
            for (int c = 0; c < BENCH_NCOMP; c++)
                printf(" %.0f |", (double)comp[i][wi][c] / n);
            printf(" %.0f |\n", (double)sum / n);
        }
    }
    printf("\n");
}

/* The timing model's own rate on the compute-bound example
 * (examples/calibration/alu_bound.sgasm on the default config, SIMD16, the
 * command in its header): a full run with and without the model, and a
 * replay of its trace (the model alone, reading the trace), on one host
 * thread and on N; best of three, CPU and wall time. */
static void section_timing(const opts *o)
{
    uint32_t T = o->threads ? o->threads : (uint32_t)sysconf(_SC_NPROCESSORS_ONLN);
    uint64_t items = o->quick ? 8192 : 65536;
    isa_kernel k;
    emu_config cfg;
    isa_diags d;
    memset(&d, 0, sizeof d);
    if (load_kernel(o->src, "examples/calibration/alu_bound.sgasm", &k) ||
        emu_config_load_bundled("default", &cfg, &d)) {
        isa_diags_free(&d);
        printf("## Timing model rate: cannot load alu_bound or the default config\n\n");
        return;
    }
    char trace[] = "/tmp/sgemu-bench-XXXXXX";
    int fd = mkstemp(trace);
    if (fd < 0) {
        printf("## Timing model rate: no scratch file\n\n");
        isa_kernel_free(&k);
        return;
    }
    close(fd);
    printf("## Timing model rate: alu_bound, default config, SIMD16, %llu items, n = 200\n\n",
           (unsigned long long)items);
    printf("| run | threads | instructions | cycles | wall s | CPU s | Msg-inst/s (wall) | "
           "Msg-inst/s per core (CPU) |\n|---|---|---|---|---|---|---|---|\n");
    enum { FULL, FUNC, RECORD, REPLAY, REPLAY_T, NRUNS };
    static const char *const names[NRUNS] = { "full run (functional + model)",
        "functional only (--no-timing)", "full run + --record", "replay (model + trace reading)",
        "replay (model + trace reading)" };
    double best_cpu[NRUNS], best_wall[NRUNS];
    uint64_t insts[NRUNS] = { 0 }, cyc[NRUNS] = { 0 };
    bool ok = true;
    for (int r = 0; r < NRUNS && ok; r++) {
        best_cpu[r] = best_wall[r] = 1e30;
        for (int rep = 0; rep < 3 && ok; rep++) {
            uint32_t *out = calloc(items, 4);
            sgemu_argval a[2];
            memset(a, 0, sizeof a);
            a[0].kind = SGEMU_VAL_BUFFER;
            a[0].data = (uint8_t *)out;
            a[0].bytes = items * 4;
            a[1].kind = SGEMU_VAL_SCALAR;
            a[1].scalar = 200;
            sgemu_launch L;
            memset(&L, 0, sizeof L);
            L.dims = 1;
            L.global[0] = items;
            L.local[0] = 128;
            L.local_given = true;
            L.sg_width = 16;
            L.timing = r != FUNC;
            L.threads = 1;
            L.record_path = r == RECORD ? trace : NULL;
            sgemu_stats st;
            sgemu_fault f;
            int rc;
            if (r == REPLAY || r == REPLAY_T) {
                sgemu_replay_opts ro;
                memset(&ro, 0, sizeof ro);
                ro.threads = r == REPLAY ? 1 : T;
                rc = sgemu_replay(trace, &cfg, &ro, NULL, &st, &f);
            } else {
                rc = sgemu_run(&k, &cfg, &L, a, &st, &f);
            }
            /* the host time sgemu_run / sgemu_replay measure, which the
             * summary and --json print */
            const double w = st.host_wall_s, c = st.host_cpu_s;
            free(out);
            if (rc) {
                printf("| %s | - | failed: %.100s | | | | | |\n", names[r], f.msg);
                ok = false;
                break;
            }
            insts[r] = st.timing ? st.timing->instructions : st.instructions;
            cyc[r] = st.timing ? st.timing->cycles : 0;
            sgemu_stats_free(&st);
            if (w < best_wall[r])
                best_wall[r] = w;
            if (c < best_cpu[r])
                best_cpu[r] = c;
        }
        if (!ok)
            break;
        printf("| %s | %u | %llu | %llu | %.3f | %.3f | %.2f | %.2f |\n", names[r],
               r == REPLAY_T ? T : 1, (unsigned long long)insts[r], (unsigned long long)cyc[r],
               best_wall[r], best_cpu[r], insts[r] / best_wall[r] / 1e6,
               insts[r] / best_cpu[r] / 1e6);
        fflush(stdout);
    }
    if (ok) {
        double model = best_cpu[FULL] - best_cpu[FUNC];
        printf("\nmodel alone (full - functional, CPU): %.2f Msg-inst/s per core; "
               "replay / full run: %.2fx faster (wall, one thread); replay on %u threads: "
               "%.2fx the one-thread replay (wall); cycles %s\n\n",
               model > 0 ? insts[FULL] / model / 1e6 : 0, best_wall[FULL] / best_wall[REPLAY], T,
               best_wall[REPLAY] / best_wall[REPLAY_T],
               cyc[FULL] == cyc[REPLAY] && cyc[REPLAY] == cyc[REPLAY_T] && cyc[FULL] == cyc[RECORD]
                   ? "identical" : "DIFFER");
    }
    unlink(trace);
    isa_kernel_free(&k);
}

static void machine(void)
{
    char model[256] = "unknown";
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f) {
        char line[512];
        while (fgets(line, sizeof line, f))
            if (!strncmp(line, "model name", 10)) {
                char *c = strchr(line, ':');
                if (c)
                    snprintf(model, sizeof model, "%s", c + 2);
                model[strcspn(model, "\n")] = 0;
                break;
            }
        fclose(f);
    }
    printf("# sgemu-bench\n\nhost: %s, %ld cores online; device config: %s\n\n", model,
           sysconf(_SC_NPROCESSORS_ONLN), BENCH_CONFIG);
}

int main(int argc, char **argv)
{
    opts o = { .src = BENCH_SRC };
    const char *sections = "timing,main,detect,ocl,gen,scaling,threads";
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick"))
            o.quick = true;
        else if (!strcmp(argv[i], "--no-ocl"))
            o.no_ocl = true;
        else if (!strcmp(argv[i], "--no-timing"))
            o.no_timing = true;
        else if (!strcmp(argv[i], "--only") && i + 1 < argc)
            o.only = argv[++i];
        else if (!strcmp(argv[i], "--src") && i + 1 < argc)
            o.src = argv[++i];
        else if (!strcmp(argv[i], "--sections") && i + 1 < argc)
            sections = argv[++i];
        else if (!strcmp(argv[i], "--threads") && i + 1 < argc)
            o.threads = (uint32_t)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--child-ir") && i + 3 < argc)   /* section ir's runs */
            child_ir(&o, argv[i + 1], (uint32_t)atoi(argv[i + 2]), atoi(argv[i + 3]) != 0);
        else {
            bool help = !strcmp(argv[i], "--help") || !strcmp(argv[i], "-h");
            fprintf(help ? stdout : stderr,
                    "usage: sgemu-bench [--quick] [--no-ocl] [--no-timing] "
                    "[--only WORKLOAD] [--sections timing,main,detect,ocl,gen,scaling,threads,ir] "
                    "[--threads N] [--src DIR]\n"
                    "Prints every figure next to its peer's and their ratio, all from this run\n"
                    "(section ir, not in the default list: host instructions per sub-group\n"
                    "instruction under valgrind's callgrind, a few minutes)\n"
                    "(docs/performance.md). Exit status: 0 ok, 1 bad arguments.\n");
            return help ? 0 : 1;
        }
    }
    machine();
    printf("mode: %s\n\n", o.quick ? "--quick (reduced sizes)" : "full");
    if (strstr(sections, "timing") && !o.no_timing)
        section_timing(&o);
    if (strstr(sections, "main"))
        section_main(&o);
    if (strstr(sections, "detect"))
        section_detect(&o);
    if (strstr(sections, "ocl") && !o.no_ocl)
        section_ocl(&o);
    if (strstr(sections, "gen"))
        section_gen(&o);
    if (strstr(sections, "scaling"))
        section_scaling(&o);
    if (strstr(sections, "threads"))
        section_threads(&o);
    if (strstr(sections, "ir"))
    {
        char self[4096];
        ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
        self[n > 0 ? n : 0] = 0;
        section_ir(&o, n > 0 ? self : argv[0]);
    }
    return 0;
}
