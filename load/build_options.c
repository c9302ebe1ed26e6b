/* build_options.c - the OpenCL C build options sgemu takes (clBuildProgram's
 * list, OpenCL 3.0 section 5.8.6) and what each one becomes for clang-14. */
#include "load_private.h"

#include <string.h>

/* One row per option: its spelling and the clang-14 word it becomes (NULL:
 * accepted without effect on sgemu, docs/opencl.md says why). */
static const struct {
    const char *name;
    const char *clang;
} build_options[] = {
    { "-cl-single-precision-constant", "-cl-single-precision-constant" },
    { "-cl-denorms-are-zero", NULL },           /* a permission; sgemu keeps denormals */
    { "-cl-fp32-correctly-rounded-divide-sqrt", "-cl-fp32-correctly-rounded-divide-sqrt" },
    { "-cl-opt-disable", "-O0" },               /* after the recipe's -O2, so it wins */
    { "-cl-mad-enable", "-cl-mad-enable" },
    { "-cl-no-signed-zeros", "-cl-no-signed-zeros" },
    { "-cl-unsafe-math-optimizations", "-cl-unsafe-math-optimizations" },
    { "-cl-finite-math-only", "-cl-finite-math-only" },
    { "-cl-fast-relaxed-math", "-cl-fast-relaxed-math" },
    { "-cl-uniform-work-group-size", "-cl-uniform-work-group-size" },
    { "-cl-no-subgroup-ifp", NULL },            /* a permission sgemu need not use */
    { "-cl-kernel-arg-info", NULL },            /* the recipe passes it always */
    /* Intel's own options that hosts for its GPUs pass (oneDNN, OpenVINO;
     * IGC's front end takes them): requests sgemu has no use for */
    { "-cl-intel-greater-than-4GB-buffer-required", NULL },   /* addresses are 64-bit */
    { "-cl-intel-128-GRF-per-thread", NULL },   /* GRF mode: sgemu picks it from */
    { "-cl-intel-256-GRF-per-thread", NULL },   /* the kernel's register need */
    { "-cl-intel-512-GRF-per-thread", NULL },
    { "-cl-intel-enable-auto-large-GRF-mode", NULL },
    { "-cl-intel-no-prera-scheduling", NULL },  /* a scheduling hint */
    { "-w", "-w" },
    { "-Werror", "-Werror" },
    /* line tables are all sgemu reads (llvm-spirv-14 aborts on some of
     * full -g's variable locations) */
    { "-g", "-gline-tables-only" },
    { "-g0", "-g0" },                           /* no line tables (on by default) */
};

int sgemu_cl_option_words(const char *w)
{
    if (!w || w[0] != '-')
        return 0;
    if (!strcmp(w, "-D") || !strcmp(w, "-I") || !strcmp(w, "-include"))
        return 2;
    if ((!strncmp(w, "-D", 2) || !strncmp(w, "-I", 2)) && w[2])
        return 1;
    if (!strncmp(w, "-cl-std=CL", 10) && w[10])
        return 1;
    for (size_t i = 0; i < sizeof build_options / sizeof build_options[0]; i++)
        if (!strcmp(w, build_options[i].name))
            return 1;
    return 0;
}

const char *sgemu_cl_option_clang(const char *w)
{
    for (size_t i = 0; i < sizeof build_options / sizeof build_options[0]; i++)
        if (!strcmp(w, build_options[i].name))
            return build_options[i].clang;
    return w;
}

const char *sgemu_cl_option_names(void)
{
    return "-DNAME[=V], -D NAME, -IDIR, -I DIR, -include FILE, -cl-std=CLx.y, "
           "-cl-single-precision-constant, -cl-denorms-are-zero, "
           "-cl-fp32-correctly-rounded-divide-sqrt, -cl-opt-disable, -cl-mad-enable, "
           "-cl-no-signed-zeros, -cl-unsafe-math-optimizations, -cl-finite-math-only, "
           "-cl-fast-relaxed-math, -cl-uniform-work-group-size, -cl-no-subgroup-ifp, "
           "-cl-kernel-arg-info, -cl-intel-greater-than-4GB-buffer-required, "
           "-cl-intel-{128,256,512}-GRF-per-thread, -cl-intel-enable-auto-large-GRF-mode, "
           "-cl-intel-no-prera-scheduling, -w, -Werror, -g, -g0";
}
