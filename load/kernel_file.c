/* kernel_file.c - a kernel from a file or bytes of any kind sgemu reads:
 * .sgasm text, a SPIR-V module, or OpenCL C (compiled by opencl_c.c). */
#include "load_private.h"
#include "spirv.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int load_fail(sgemu_fault *err, int code, const char *fmt, ...)
{
    if (err) {
        memset(err, 0, sizeof *err);
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
        err->code = code;
    }
    return code;
}

char *sgemu_read_file(const char *path, size_t *len, sgemu_fault *err)
{
    if (len)
        *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f) {
        load_fail(err, SGEMU_EXIT_USER, "cannot open '%s': %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    if (!buf)
        load_fail(err, SGEMU_EXIT_INTERNAL, "out of memory reading '%s'", path);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (n < cap) {
            if (ferror(f)) {
                load_fail(err, SGEMU_EXIT_USER, "cannot read '%s': %s", path, strerror(errno));
                free(buf);
                buf = NULL;
            }
            break;
        }
        if (cap > ((size_t)1 << 34)) {
            load_fail(err, SGEMU_EXIT_USER, "'%s' is too large", path);
            free(buf);
            buf = NULL;
            break;
        }
        char *nb = realloc(buf, cap * 2 + 1);
        if (!nb) {
            load_fail(err, SGEMU_EXIT_INTERNAL, "out of memory reading '%s'", path);
            free(buf);
            buf = NULL;
            break;
        }
        buf = nb;
        cap *= 2;
    }
    fclose(f);
    if (!buf)
        return NULL;
    buf[n] = 0;
    if (len)
        *len = n;
    return buf;
}

static bool ends_with(const char *s, const char *suf)
{
    size_t n = strlen(s), m = strlen(suf);
    return n >= m && !strcmp(s + n - m, suf);
}

sgemu_source_kind sgemu_source_kind_of(const char *path, const void *data, size_t len)
{
    if (path && ends_with(path, ".cl"))
        return SGEMU_SOURCE_OPENCL_C;
    if ((path && ends_with(path, ".spv")) || (data && spv_is_module(data, len)))
        return SGEMU_SOURCE_SPIRV;
    return SGEMU_SOURCE_SGASM;
}

int sgemu_kernel_from_memory(const char *name, sgemu_source_kind kind, const void *data,
                             size_t len, const sgemu_load_opts *opts, isa_kernel *k,
                             sgemu_load_info *info, isa_diags *diags, sgemu_fault *err)
{
    const char *entry = opts ? opts->entry : NULL;
    memset(k, 0, sizeof *k);
    if (info)
        memset(info, 0, sizeof *info);
    if (kind == SGEMU_SOURCE_OPENCL_C) {
        size_t n = 0;
        void *spv = NULL;
        int rc = sgemu_compile_opencl_c(name, data, len, opts, &spv, &n, err);
        if (rc)
            return rc;
        rc = sgemu_kernel_from_memory(name, SGEMU_SOURCE_SPIRV, spv, n, opts, k, info, diags,
                                      err);
        free(spv);
        if (info)
            info->kind = SGEMU_SOURCE_OPENCL_C;
        return rc;
    }
    int errs;
    if (kind == SGEMU_SOURCE_SPIRV) {
        bool unnamed = false;
        errs = spv_translate(name, data, len, entry, k, &unnamed, diags);
        if (info)
            info->args_unnamed = unnamed;
    } else {
        if (entry && entry[0])
            return load_fail(err, SGEMU_EXIT_USER,
                             "--kernel applies to SPIR-V modules and OpenCL C files; '%s' "
                             "holds one .sgasm kernel", name);
        errs = isa_assemble(name, data, len, k, diags);
    }
    if (info)
        info->kind = kind;
    if (errs)
        return load_fail(err, SGEMU_EXIT_USER, "'%s': %d error%s", name, errs,
                         errs == 1 ? "" : "s");
    return SGEMU_EXIT_OK;
}

int sgemu_kernel_load(const char *path, const sgemu_load_opts *opts, isa_kernel *k,
                      sgemu_load_info *info, isa_diags *diags, sgemu_fault *err)
{
    sgemu_fault local;
    if (!err)
        err = &local;
    memset(k, 0, sizeof *k);
    if (info)
        memset(info, 0, sizeof *info);
    size_t len = 0;
    void *data = NULL;
    sgemu_source_kind kind = sgemu_source_kind_of(path, NULL, 0);
    int rc;
    if (kind == SGEMU_SOURCE_OPENCL_C) {
        rc = sgemu_compile_opencl_c_file(path, opts, &data, &len, err);
        kind = SGEMU_SOURCE_SPIRV;
    } else {
        data = sgemu_read_file(path, &len, err);
        rc = data ? 0 : err->code;
        kind = sgemu_source_kind_of(path, data, len);
    }
    if (rc)
        return rc;
    rc = sgemu_kernel_from_memory(path, kind, data, len, opts, k, info, diags, err);
    free(data);
    if (info)
        info->kind = sgemu_source_kind_of(path, NULL, 0) == SGEMU_SOURCE_OPENCL_C
                     ? SGEMU_SOURCE_OPENCL_C : kind;
    return rc;
}

int sgemu_kernel_arg_index(const isa_kernel *k, const char *name)
{
    for (uint32_t i = 0; i < k->narg; i++)
        if (!strcmp(k->args[i].name, name))
            return (int)i;
    return -1;
}
