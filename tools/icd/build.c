/* build.c - OpenCL C to SPIR-V for clBuildProgram through libsgemu's
 * compile (sgemu_compile_opencl_c: the pipeline of `sgemu run K.cl`), with
 * the compilers' messages captured for the build log instead of printed. */
#include "build.h"

#include <sgemu/sgemu.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int icd_build_spirv(const char *source, const char *const *opts, int nopts, uint8_t **spv,
                    size_t *spv_len, char **log)
{
    *spv = NULL;
    *log = NULL;
    /* the compilers write to a descriptor: a real file, not a memory stream */
    FILE *f = tmpfile();
    if (!f)
        return -1;
    sgemu_load_opts o;
    memset(&o, 0, sizeof o);
    o.cl_options = opts;
    o.ncl_options = (uint32_t)nopts;
    o.log = f;
    sgemu_fault err;
    void *out = NULL;
    int rc = sgemu_compile_opencl_c("program.cl", source, strlen(source), &o, &out, spv_len,
                                    &err);
    if (rc)
        fprintf(f, "sgemu: %s\n", err.msg);
    fflush(f);
    long n = ftell(f);
    char *text = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (text) {
        rewind(f);
        size_t got = fread(text, 1, (size_t)n, f);
        text[got] = 0;
    }
    fclose(f);
    *log = text;
    *spv = out;
    return rc ? 1 : 0;
}
