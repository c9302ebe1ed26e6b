/* program.c - programs from OpenCL C source (build.c), from SPIR-V (IL, or
 * the binaries clGetProgramInfo hands out), and their info.  Building
 * translates every kernel entry point of the module with sgemu's SPIR-V
 * front end; a kernel it cannot translate fails the build, with the reason
 * in the build log.  Compiling stops at SPIR-V; linking translates. */
#include "build.h"
#include "icd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static cl_program new_program(cl_context ctx, cl_int *rc)
{
    cl_program p = calloc(1, sizeof *p);
    if (!p) {
        *rc = CL_OUT_OF_HOST_MEMORY;
        return NULL;
    }
    icd_init_head(&p->h, ICD_PROGRAM);
    p->ctx = ctx;
    p->status = CL_BUILD_NONE;
    icd_RetainContext(ctx);
    *rc = CL_SUCCESS;
    return p;
}

cl_program icd_CreateProgramWithSource(cl_context context, cl_uint count, const char **strings,
                                       const size_t *lengths, cl_int *errcode_ret)
{
    cl_int rc = CL_SUCCESS;
    cl_program p = NULL;
    size_t total = 0;
    if (!icd_valid(context, ICD_CONTEXT))
        rc = CL_INVALID_CONTEXT;
    else if (!count || !strings)
        rc = CL_INVALID_VALUE;
    for (cl_uint i = 0; !rc && i < count; i++) {
        if (!strings[i])
            rc = CL_INVALID_VALUE;
        else
            total += lengths && lengths[i] ? lengths[i] : strlen(strings[i]);
    }
    if (!rc && (p = new_program(context, &rc)) && !(p->source = malloc(total + 1))) {
        icd_program_release(p);
        p = NULL;
        rc = CL_OUT_OF_HOST_MEMORY;
    }
    if (p) {
        size_t at = 0;
        for (cl_uint i = 0; i < count; i++) {
            size_t n = lengths && lengths[i] ? lengths[i] : strlen(strings[i]);
            memcpy(p->source + at, strings[i], n);
            at += n;
        }
        p->source[at] = 0;
    }
    if (errcode_ret)
        *errcode_ret = rc;
    return p;
}

static cl_program from_spirv(cl_context context, const void *il, size_t length,
                             cl_program_binary_type type, cl_int *errcode_ret)
{
    cl_int rc = CL_SUCCESS;
    cl_program p = NULL;
    if (!icd_valid(context, ICD_CONTEXT))
        rc = CL_INVALID_CONTEXT;
    else if (!il || !length)
        rc = CL_INVALID_VALUE;
    else if (sgemu_source_kind_of(NULL, il, length) != SGEMU_SOURCE_SPIRV || length % 4)
        rc = type == CL_PROGRAM_BINARY_TYPE_NONE ? CL_INVALID_VALUE : CL_INVALID_BINARY;
    if (!rc && (p = new_program(context, &rc)) && !(p->il = malloc(length))) {
        icd_program_release(p);
        p = NULL;
        rc = CL_OUT_OF_HOST_MEMORY;
    }
    if (p) {
        memcpy(p->il, il, length);
        p->il_len = length;
        p->binary_type = type;
    }
    if (errcode_ret)
        *errcode_ret = rc;
    return p;
}

cl_program icd_CreateProgramWithIL(cl_context context, const void *il, size_t length,
                                   cl_int *errcode_ret)
{
    return from_spirv(context, il, length, CL_PROGRAM_BINARY_TYPE_NONE, errcode_ret);
}

cl_program icd_CreateProgramWithBinary(cl_context context, cl_uint num_devices,
                                       const cl_device_id *device_list, const size_t *lengths,
                                       const unsigned char **binaries, cl_int *binary_status,
                                       cl_int *errcode_ret)
{
    if (!icd_valid(context, ICD_CONTEXT) || !num_devices || !device_list || !lengths ||
        !binaries) {
        if (errcode_ret)
            *errcode_ret = icd_valid(context, ICD_CONTEXT) ? CL_INVALID_VALUE : CL_INVALID_CONTEXT;
        return NULL;
    }
    cl_int rc;
    cl_program p = from_spirv(context, binaries[0], lengths[0],
                              CL_PROGRAM_BINARY_TYPE_EXECUTABLE, &rc);
    for (cl_uint i = 0; binary_status && i < num_devices; i++)
        binary_status[i] = rc;
    if (errcode_ret)
        *errcode_ret = rc;
    return p;
}

cl_program icd_CreateProgramWithBuiltInKernels(cl_context context, cl_uint num_devices,
                                               const cl_device_id *device_list,
                                               const char *kernel_names, cl_int *errcode_ret)
{
    if (errcode_ret)
        *errcode_ret = icd_valid(context, ICD_CONTEXT) ? CL_INVALID_VALUE : CL_INVALID_CONTEXT;
    return NULL;
}

static void free_entries(cl_program p)
{
    for (uint32_t i = 0; i < p->nentry; i++)
        isa_kernel_free(&p->entries[i].k);
    free(p->entries);
    p->entries = NULL;
    p->nentry = 0;
    free(p->kernel_names);
    p->kernel_names = NULL;
    while (p->globals) {        /* a new build starts from the initial values */
        icd_globals *g = p->globals;
        p->globals = g->next;
        free(g->data);
        free(g);
    }
}

void icd_program_release(cl_program p)
{
    if (atomic_fetch_sub(&p->h.refs, 1) != 1)
        return;
    p->h.kind = 0;
    free_entries(p);
    free(p->source);
    free(p->il);
    free(p->options);
    free(p->log);
    icd_ReleaseContext(p->ctx);
    free(p);
}

cl_int icd_RetainProgram(cl_program program)
{
    if (!icd_valid(program, ICD_PROGRAM))
        return CL_INVALID_PROGRAM;
    atomic_fetch_add(&program->h.refs, 1);
    return CL_SUCCESS;
}

cl_int icd_ReleaseProgram(cl_program program)
{
    if (!icd_valid(program, ICD_PROGRAM))
        return CL_INVALID_PROGRAM;
    icd_program_release(program);
    return CL_SUCCESS;
}

/* Split build options at blanks (double quotes group).  Options sgemu
 * passes to clang-14: -D, -I, -cl-*, -w, -Werror, -g (as line tables, all
 * sgemu reads).  Returns the count, or -1 for an option it does not know. */
static int split_options(char *buf, char **argv, int max)
{
    int n = 0;
    bool value_next = false;      /* "-D NAME" / "-I DIR": the value is a word */
    char *p = buf;
    while (*p) {
        while (*p == ' ' || *p == '\t' || *p == '\n')
            p++;
        if (!*p)
            break;
        char *w = p, *o = p;
        bool quoted = false;
        while (*p && (quoted || (*p != ' ' && *p != '\t' && *p != '\n'))) {
            if (*p == '"')
                quoted = !quoted;
            else
                *o++ = *p;
            p++;
        }
        if (*p)
            p++;
        *o = 0;
        if (n + 3 >= max)      /* room for one option BuildProgram adds */
            return -1;
        if (value_next) {
            argv[n++] = w;
            value_next = false;
        } else if (!strcmp(w, "-D") || !strcmp(w, "-I")) {
            argv[n++] = w;
            value_next = true;
        } else if (!strcmp(w, "-g")) {
            argv[n++] = "-gline-tables-only";
        } else if (!strcmp(w, "-cl-no-subgroup-ifp")) {
            continue;           /* sgemu's sub-groups make progress either way */
        } else if (!strncmp(w, "-cl-intel-", 10) && sgemu_cl_option_words(w) == 1) {
            continue;           /* Intel's requests, without effect (load/build_options.c) */
        } else if (!strncmp(w, "-D", 2) || !strncmp(w, "-I", 2) || !strncmp(w, "-cl-", 4) ||
                   !strcmp(w, "-w") || !strcmp(w, "-Werror")) {
            argv[n++] = w;
        } else {
            return -1;
        }
    }
    if (value_next)
        return -1;
    return n;
}

/* The names of the module's kernel entry points (OpEntryPoint, Kernel). */
static uint32_t entry_names(const uint8_t *m, size_t len, char names[][64], uint32_t max)
{
    uint32_t n = 0;
    const size_t words = len / 4;
    for (size_t i = 5; i < words;) {
        uint32_t w;
        memcpy(&w, m + i * 4, 4);
        uint32_t wc = w >> 16, op = w & 0xffff;
        if (wc == 0 || i + wc > words)
            break;
        if (op == 15 && wc >= 4 && n < max) {
            uint32_t model;
            memcpy(&model, m + (i + 1) * 4, 4);
            if (model == 6) {
                size_t bytes = (wc - 3) * 4;
                snprintf(names[n], 64, "%.*s", (int)(bytes < 63 ? bytes : 63),
                         (const char *)m + (i + 3) * 4);
                n++;
            }
        }
        i += wc;
    }
    return n;
}

static void append_log(cl_program p, const char *text)
{
    size_t a = p->log ? strlen(p->log) : 0, b = strlen(text);
    char *nl = realloc(p->log, a + b + 1);
    if (!nl)
        return;
    memcpy(nl + a, text, b + 1);
    p->log = nl;
}

/* Translate every kernel of p->il; 0, or 1 with the reasons in the log. */
static int translate_all(cl_program p)
{
    char (*names)[64] = calloc(256, 64);
    if (!names)
        return -1;
    uint32_t n = entry_names(p->il, p->il_len, names, 256);
    p->entries = calloc(n ? n : 1, sizeof *p->entries);
    size_t nl = 1;
    for (uint32_t i = 0; i < n; i++)
        nl += strlen(names[i]) + 1;
    p->kernel_names = calloc(1, nl);
    if (!p->entries || !p->kernel_names) {
        free(names);
        return -1;
    }
    int rc = 0;
    for (uint32_t i = 0; i < n; i++) {
        isa_diags d;
        memset(&d, 0, sizeof d);
        icd_entry *e = &p->entries[p->nentry];
        sgemu_load_opts o;
        memset(&o, 0, sizeof o);
        o.entry = names[i];
        sgemu_load_info info;
        sgemu_fault err;
        err.msg[0] = 0;
        if (sgemu_kernel_from_memory("program", SGEMU_SOURCE_SPIRV, p->il, p->il_len, &o, &e->k,
                                     &info, &d, &err)) {
            char *buf = NULL;
            size_t len = 0;
            FILE *f = open_memstream(&buf, &len);
            if (f) {
                fprintf(f, "sgemu: kernel '%s' cannot run on sgemu:\n", names[i]);
                isa_diags_print(&d, f);
                if (!d.count && err.msg[0])
                    fprintf(f, "%s\n", err.msg);
                fclose(f);
                append_log(p, buf);
            }
            free(buf);
            isa_kernel_free(&e->k);
            rc = 1;
        } else {
            e->args_unnamed = info.args_unnamed;
            if (p->nentry)
                strcat(p->kernel_names, ";");
            strcat(p->kernel_names, names[i]);
            p->nentry++;
        }
        isa_diags_free(&d);
    }
    free(names);
    return rc;
}

static cl_int check_devices(cl_program p, cl_uint n, const cl_device_id *list)
{
    if ((n == 0) != (list == NULL))
        return CL_INVALID_VALUE;
    for (cl_uint i = 0; i < n; i++) {
        bool found = false;
        for (cl_uint j = 0; j < p->ctx->ndev; j++)
            found |= p->ctx->devs[j] == list[i];
        if (!found)
            return CL_INVALID_DEVICE;
    }
    return CL_SUCCESS;
}

/* clBuildProgram, and clCompileProgram with `translate` false: a compiled
 * object may call functions another program defines, which only linking
 * resolves.  `include_dir`: the embedded headers' folder, or NULL. */
static cl_int build_program(cl_program program, cl_uint num_devices,
                            const cl_device_id *device_list, const char *options,
                            const char *include_dir, bool translate,
                            void(CL_CALLBACK *pfn_notify)(cl_program, void *), void *user_data)
{
    cl_program p = program;
    if (!icd_valid(p, ICD_PROGRAM))
        return CL_INVALID_PROGRAM;
    cl_int rc = check_devices(p, num_devices, device_list);
    if (rc)
        return rc;
    if (!pfn_notify && user_data)
        return CL_INVALID_VALUE;
    if (atomic_load(&p->kernels))
        return CL_INVALID_OPERATION;
    char *opts = strdup(options ? options : "");
    char *argv[128];
    int nargs = opts ? split_options(opts, argv, 126) : -1;   /* room for -I include_dir */
    if (nargs < 0) {
        free(opts);
        return opts ? CL_INVALID_BUILD_OPTIONS : CL_OUT_OF_HOST_MEMORY;
    }
    /* clang-14's OpenCL C 3.0 header leaves out this header-only feature
     * macro (it defines it for 2.0 only), which hides the work_group_*
     * built-ins the device claims */
    for (int i = 0; i < nargs; i++)
        if (!strcmp(argv[i], "-cl-std=CL3.0")) {
            argv[nargs++] = "-D__opencl_c_work_group_collective_functions=1";
            break;
        }
    if (include_dir) {
        argv[nargs++] = "-I";
        argv[nargs++] = (char *)include_dir;
    }
    free(p->options);
    p->options = strdup(options ? options : "");
    free(p->log);
    p->log = NULL;
    free_entries(p);
    if (p->source) {
        free(p->il);
        p->il = NULL;
        char *log = NULL;
        int b = icd_build_spirv(p->source, (const char *const *)argv, nargs, &p->il, &p->il_len,
                                &log);
        if (log)
            append_log(p, log);
        free(log);
        rc = b ? CL_BUILD_PROGRAM_FAILURE : CL_SUCCESS;
    }
    free(opts);
    if (!rc && p->il && translate && translate_all(p))
        rc = CL_BUILD_PROGRAM_FAILURE;
    if (!p->il && !rc)
        rc = CL_INVALID_BINARY;
    p->status = rc ? CL_BUILD_ERROR : CL_BUILD_SUCCESS;
    p->binary_type = rc ? CL_PROGRAM_BINARY_TYPE_NONE : CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
    if (!p->log)
        append_log(p, "");
    if (pfn_notify)
        pfn_notify(p, user_data);
    return rc;
}

cl_int icd_BuildProgram(cl_program program, cl_uint num_devices, const cl_device_id *device_list,
                        const char *options,
                        void(CL_CALLBACK *pfn_notify)(cl_program, void *), void *user_data)
{
    return build_program(program, num_devices, device_list, options, NULL, true, pfn_notify,
                         user_data);
}

static char *header_path(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *path = malloc(n);
    if (path)
        snprintf(path, n, "%s/%s", dir, name);
    return path;
}

/* Write `src` to dir/name, making the folders of a name like "sub/x.h". */
static bool write_header(const char *dir, const char *name, const char *src)
{
    if (!name[0] || name[0] == '/' || strstr(name, ".."))
        return false;
    char *path = header_path(dir, name);
    if (!path)
        return false;
    for (char *c = path + strlen(dir) + 1; *c; c++)
        if (*c == '/') {
            *c = 0;
            mkdir(path, 0700);
            *c = '/';
        }
    FILE *f = fopen(path, "w");
    bool ok = f && fputs(src, f) >= 0;
    if (f && fclose(f))
        ok = false;
    free(path);
    return ok;
}

/* Remove the first `n` headers and their folders, then `dir`. */
static void remove_headers(char *dir, const char **names, cl_uint n)
{
    for (cl_uint i = 0; i < n; i++) {
        char *path = header_path(dir, names[i]);
        if (!path)
            continue;
        remove(path);
        for (char *c = path + strlen(path); c > path + strlen(dir); c--)
            if (*c == '/') {
                *c = 0;
                rmdir(path);     /* fails while another header is still in it */
            }
        free(path);
    }
    rmdir(dir);
    free(dir);
}

cl_int icd_CompileProgram(cl_program program, cl_uint num_devices, const cl_device_id *device_list,
                          const char *options, cl_uint num_input_headers,
                          const cl_program *input_headers, const char **header_include_names,
                          void(CL_CALLBACK *pfn_notify)(cl_program, void *), void *user_data)
{
    if (!icd_valid(program, ICD_PROGRAM))
        return CL_INVALID_PROGRAM;
    if ((num_input_headers == 0) != (input_headers == NULL) ||
        (num_input_headers == 0) != (header_include_names == NULL))
        return CL_INVALID_VALUE;
    for (cl_uint i = 0; i < num_input_headers; i++) {
        if (!icd_valid(input_headers[i], ICD_PROGRAM) || !input_headers[i]->source)
            return CL_INVALID_PROGRAM;
        if (!header_include_names[i])
            return CL_INVALID_VALUE;
    }
    /* embedded headers: their sources under their include names in a
     * folder the compiler searches */
    const char *tmp = getenv("TMPDIR");
    char *hdir = NULL;
    if (num_input_headers) {
        const size_t n = (tmp && tmp[0] ? strlen(tmp) : 4) + sizeof "/sgemu-headers-XXXXXX";
        hdir = malloc(n);
        if (!hdir)
            return CL_OUT_OF_HOST_MEMORY;
        snprintf(hdir, n, "%s/sgemu-headers-XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
        if (!mkdtemp(hdir)) {
            free(hdir);
            return CL_OUT_OF_HOST_MEMORY;
        }
        for (cl_uint i = 0; i < num_input_headers; i++)
            if (!write_header(hdir, header_include_names[i], input_headers[i]->source)) {
                remove_headers(hdir, header_include_names, i + 1);
                return CL_INVALID_VALUE;
            }
    }
    /* the SPIR-V is the compiled object; clLinkProgram translates it */
    cl_int rc = build_program(program, num_devices, device_list, options, hdir, false, NULL,
                              NULL);
    if (hdir)
        remove_headers(hdir, header_include_names, num_input_headers);
    if (rc == CL_SUCCESS)
        program->binary_type = CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT;
    if (rc == CL_BUILD_PROGRAM_FAILURE)
        rc = CL_COMPILE_PROGRAM_FAILURE;
    if (pfn_notify)
        pfn_notify(program, user_data);
    return rc;
}

/* The modules of several programs linked into one (sgemu_link_spirv); a program
 * with spirv-link's messages as its build log when they do not link. */
static cl_program link_several(cl_context context, cl_uint n, const cl_program *in, cl_int *rc)
{
    const uint8_t **mods = calloc(n, sizeof *mods);
    size_t *lens = calloc(n, sizeof *lens);
    uint8_t *spv = NULL;
    size_t len = 0;
    char *log = NULL;
    int st = -1;
    if (mods && lens) {
        for (cl_uint i = 0; i < n; i++) {
            mods[i] = in[i]->il;
            lens[i] = in[i]->il_len;
        }
        st = sgemu_link_spirv(mods, lens, n, &spv, &len, &log);
    }
    free(mods);
    free(lens);
    cl_program p = NULL;
    if (st == 0) {
        p = from_spirv(context, spv, len, CL_PROGRAM_BINARY_TYPE_EXECUTABLE, rc);
    } else if (st == 1 && (p = new_program(context, rc))) {
        append_log(p, log ? log : "spirv-link failed\n");
        p->status = CL_BUILD_ERROR;
        *rc = CL_LINK_PROGRAM_FAILURE;
    } else {
        *rc = st == 2 ? CL_LINKER_NOT_AVAILABLE : CL_OUT_OF_HOST_MEMORY;
    }
    free(spv);
    free(log);
    return p;
}

cl_program icd_LinkProgram(cl_context context, cl_uint num_devices, const cl_device_id *device_list,
                           const char *options, cl_uint num_input_programs,
                           const cl_program *input_programs,
                           void(CL_CALLBACK *pfn_notify)(cl_program, void *), void *user_data,
                           cl_int *errcode_ret)
{
    cl_int rc = CL_SUCCESS;
    cl_program p = NULL;
    if (!icd_valid(context, ICD_CONTEXT))
        rc = CL_INVALID_CONTEXT;
    else if (!num_input_programs || !input_programs)
        rc = CL_INVALID_VALUE;
    for (cl_uint i = 0; !rc && i < num_input_programs; i++)
        if (!icd_valid(input_programs[i], ICD_PROGRAM) || !input_programs[i]->il)
            rc = CL_INVALID_PROGRAM;
    if (!rc && num_input_programs == 1)
        p = from_spirv(context, input_programs[0]->il, input_programs[0]->il_len,
                       CL_PROGRAM_BINARY_TYPE_EXECUTABLE, &rc);
    if (!rc && num_input_programs > 1)
        p = link_several(context, num_input_programs, input_programs, &rc);
    if (rc == CL_LINK_PROGRAM_FAILURE) {      /* p holds spirv-link's messages */
        if (pfn_notify)
            pfn_notify(p, user_data);
        if (errcode_ret)
            *errcode_ret = rc;
        return p;
    }
    if (p && (rc = icd_BuildProgram(p, 0, NULL, NULL, NULL, NULL)) != CL_SUCCESS)
        rc = CL_LINK_PROGRAM_FAILURE;
    if (p && pfn_notify)
        pfn_notify(p, user_data);
    if (errcode_ret)
        *errcode_ret = rc;
    return p;
}

cl_int icd_UnloadCompiler(void)
{
    return CL_SUCCESS;
}

cl_int icd_UnloadPlatformCompiler(cl_platform_id platform)
{
    return platform == &icd_platform ? CL_SUCCESS : CL_INVALID_PLATFORM;
}

cl_int icd_GetProgramInfo(cl_program program, cl_program_info param_name, size_t param_value_size,
                          void *param_value, size_t *param_value_size_ret)
{
    cl_program p = program;
    if (!icd_valid(p, ICD_PROGRAM))
        return CL_INVALID_PROGRAM;
    bool built = p->status == CL_BUILD_SUCCESS;
    switch (param_name) {
    case CL_PROGRAM_REFERENCE_COUNT: ICD_INFO(cl_uint, atomic_load(&p->h.refs));
    case CL_PROGRAM_CONTEXT: ICD_INFO(cl_context, p->ctx);
    case CL_PROGRAM_NUM_DEVICES: ICD_INFO(cl_uint, p->ctx->ndev);
    case CL_PROGRAM_DEVICES:
        return icd_info(param_value_size, param_value, param_value_size_ret, p->ctx->devs,
                        p->ctx->ndev * sizeof *p->ctx->devs);
    case CL_PROGRAM_SOURCE: ICD_INFO_STR(p->source ? p->source : "");
    case CL_PROGRAM_IL:
        return icd_info(param_value_size, param_value, param_value_size_ret,
                        p->source ? NULL : p->il, p->source ? 0 : p->il_len);
    case CL_PROGRAM_BINARY_SIZES: {
        size_t v[16];
        for (cl_uint i = 0; i < p->ctx->ndev && i < 16; i++)
            v[i] = p->il ? p->il_len : 0;
        return icd_info(param_value_size, param_value, param_value_size_ret, v,
                        p->ctx->ndev * sizeof v[0]);
    }
    case CL_PROGRAM_BINARIES: {
        if (param_value_size_ret)
            *param_value_size_ret = p->ctx->ndev * sizeof(unsigned char *);
        if (!param_value)
            return CL_SUCCESS;
        if (param_value_size < p->ctx->ndev * sizeof(unsigned char *))
            return CL_INVALID_VALUE;
        unsigned char **out = param_value;
        for (cl_uint i = 0; i < p->ctx->ndev; i++)
            if (out[i] && p->il)
                memcpy(out[i], p->il, p->il_len);
        return CL_SUCCESS;
    }
    case CL_PROGRAM_NUM_KERNELS:
        if (!built)
            return CL_INVALID_PROGRAM_EXECUTABLE;
        ICD_INFO(size_t, p->nentry);
    case CL_PROGRAM_KERNEL_NAMES:
        if (!built)
            return CL_INVALID_PROGRAM_EXECUTABLE;
        ICD_INFO_STR(p->kernel_names);
    case CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT:
    case CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT: ICD_INFO(cl_bool, CL_FALSE);
    default: return CL_INVALID_VALUE;
    }
}

cl_int icd_GetProgramBuildInfo(cl_program program, cl_device_id device,
                               cl_program_build_info param_name, size_t param_value_size,
                               void *param_value, size_t *param_value_size_ret)
{
    cl_program p = program;
    if (!icd_valid(p, ICD_PROGRAM))
        return CL_INVALID_PROGRAM;
    if (check_devices(p, 1, &device))
        return CL_INVALID_DEVICE;
    switch (param_name) {
    case CL_PROGRAM_BUILD_STATUS: ICD_INFO(cl_build_status, p->status);
    case CL_PROGRAM_BUILD_OPTIONS: ICD_INFO_STR(p->options ? p->options : "");
    case CL_PROGRAM_BUILD_LOG: ICD_INFO_STR(p->log ? p->log : "");
    case CL_PROGRAM_BINARY_TYPE: ICD_INFO(cl_program_binary_type, p->binary_type);
    case CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE: {
        size_t total = 0;
        for (uint32_t i = 0; i < p->nentry; i++)
            if (p->entries[i].k.global_bytes > total)
                total = p->entries[i].k.global_bytes;
        ICD_INFO(size_t, total);
    }
    default: return CL_INVALID_VALUE;
    }
}
