/* kernel.c - kernel objects: arguments (clSetKernelArg), kernel, argument,
 * work-group and sub-group info.  A kernel's program-scope data blocks are
 * hidden arguments sgemu binds itself; the application sees the others, in
 * order. */
#include "icd.h"
#include "kernel_args.h"

#include <stdlib.h>
#include <string.h>

uint32_t icd_user_args(const isa_kernel *k)
{
    return k->narg - (k->const_arg ? 1 : 0) - (k->global_arg ? 1 : 0);
}

int icd_isa_arg(const isa_kernel *k, cl_uint user_index)
{
    cl_uint seen = 0;
    for (uint32_t i = 0; i < k->narg; i++) {
        if (i + 1 == k->const_arg || i + 1 == k->global_arg)
            continue;
        if (seen++ == user_index)
            return (int)i;
    }
    return -1;
}

uint32_t icd_kernel_width(const isa_kernel *k, const emu_config *cfg)
{
    if (k->reqd_sg_size)
        return k->reqd_sg_size;
    uint32_t w = icd_sg_override();
    return w && emu_config_supports_width(cfg, w) ? w : cfg->default_width;
}

size_t icd_kernel_max_wg(const isa_kernel *k, const emu_config *cfg)
{
    /* a work-group's sub-groups must fit one compute unit's thread slots */
    uint64_t w = icd_kernel_width(k, cfg);
    uint64_t m = cfg->max_wg_size;
    if (cfg->threads_per_cu && (uint64_t)cfg->threads_per_cu * w < m)
        m = (uint64_t)cfg->threads_per_cu * w;
    return (size_t)m;
}

static cl_kernel new_kernel(cl_program p, const icd_entry *e, cl_int *rc)
{
    cl_kernel k = calloc(1, sizeof *k);
    if (!k) {
        *rc = CL_OUT_OF_HOST_MEMORY;
        return NULL;
    }
    icd_init_head(&k->h, ICD_KERNEL);
    k->prog = p;
    k->e = e;
    icd_RetainProgram(p);
    atomic_fetch_add(&p->kernels, 1);
    *rc = CL_SUCCESS;
    return k;
}

cl_kernel icd_CreateKernel(cl_program program, const char *kernel_name, cl_int *errcode_ret)
{
    cl_int rc = CL_SUCCESS;
    cl_kernel k = NULL;
    const icd_entry *e = NULL;
    if (!icd_valid(program, ICD_PROGRAM))
        rc = CL_INVALID_PROGRAM;
    else if (program->status != CL_BUILD_SUCCESS)
        rc = CL_INVALID_PROGRAM_EXECUTABLE;
    else if (!kernel_name)
        rc = CL_INVALID_VALUE;
    for (uint32_t i = 0; !rc && !e && i < program->nentry; i++)
        if (!strcmp(program->entries[i].k.name, kernel_name))
            e = &program->entries[i];
    if (!rc && !e)
        rc = CL_INVALID_KERNEL_NAME;
    if (!rc)
        k = new_kernel(program, e, &rc);
    if (errcode_ret)
        *errcode_ret = rc;
    return k;
}

cl_int icd_CreateKernelsInProgram(cl_program program, cl_uint num_kernels, cl_kernel *kernels,
                                  cl_uint *num_kernels_ret)
{
    if (!icd_valid(program, ICD_PROGRAM))
        return CL_INVALID_PROGRAM;
    if (program->status != CL_BUILD_SUCCESS)
        return CL_INVALID_PROGRAM_EXECUTABLE;
    if (kernels && num_kernels < program->nentry)
        return CL_INVALID_VALUE;
    for (uint32_t i = 0; kernels && i < program->nentry; i++) {
        cl_int rc;
        kernels[i] = new_kernel(program, &program->entries[i], &rc);
        if (rc) {
            while (i--)
                icd_ReleaseKernel(kernels[i]);
            return rc;
        }
    }
    if (num_kernels_ret)
        *num_kernels_ret = program->nentry;
    return CL_SUCCESS;
}

static void clear_arg(icd_arg *a)
{
    if (a->mem)
        icd_mem_release(a->mem);
    free(a->bytes);
    memset(a, 0, sizeof *a);
}

cl_int icd_RetainKernel(cl_kernel kernel)
{
    if (!icd_valid(kernel, ICD_KERNEL))
        return CL_INVALID_KERNEL;
    atomic_fetch_add(&kernel->h.refs, 1);
    return CL_SUCCESS;
}

cl_int icd_ReleaseKernel(cl_kernel kernel)
{
    if (!icd_valid(kernel, ICD_KERNEL))
        return CL_INVALID_KERNEL;
    if (atomic_fetch_sub(&kernel->h.refs, 1) == 1) {
        kernel->h.kind = 0;
        for (int i = 0; i < ISA_MAX_ARGS; i++)
            clear_arg(&kernel->args[i]);
        atomic_fetch_sub(&kernel->prog->kernels, 1);
        icd_program_release(kernel->prog);
        free(kernel);
    }
    return CL_SUCCESS;
}

cl_kernel icd_CloneKernel(cl_kernel source_kernel, cl_int *errcode_ret)
{
    cl_int rc = CL_SUCCESS;
    cl_kernel k = NULL;
    if (!icd_valid(source_kernel, ICD_KERNEL))
        rc = CL_INVALID_KERNEL;
    else
        k = new_kernel(source_kernel->prog, source_kernel->e, &rc);
    for (int i = 0; k && i < ISA_MAX_ARGS; i++) {
        const icd_arg *s = &source_kernel->args[i];
        k->args[i] = *s;
        if (s->mem)
            icd_mem_retain(s->mem);
        if (s->bytes && (k->args[i].bytes = malloc(s->nbytes)))
            memcpy(k->args[i].bytes, s->bytes, s->nbytes);
    }
    if (errcode_ret)
        *errcode_ret = rc;
    return k;
}

/* A cl_sampler given for a sampler_t parameter (a u32 of CLK_* bits).
 * Only a parameter declared sampler_t is read as one: the bytes of any
 * other 8-byte scalar (a long, a size_t) are not an object to look at. */
static bool sampler_bits(const isa_arg *a, size_t size, const void *value, uint64_t *bits)
{
    if (strcmp(a->cl_type, "sampler_t") || size != sizeof(cl_sampler) || !value)
        return false;
    cl_sampler s;
    memcpy(&s, value, sizeof s);
    if (!icd_valid(s, ICD_SAMPLER))
        return false;
    *bits = (s->normalized ? 1u : 0u) | (uint64_t)(s->addressing - CL_ADDRESS_NONE) * 2u |
            (s->filter == CL_FILTER_LINEAR ? 0x20u : 0x10u);
    return true;
}

cl_int icd_SetKernelArg(cl_kernel kernel, cl_uint arg_index, size_t arg_size,
                        const void *arg_value)
{
    if (!icd_valid(kernel, ICD_KERNEL))
        return CL_INVALID_KERNEL;
    const isa_kernel *k = &kernel->e->k;
    int ai = icd_isa_arg(k, arg_index);
    if (ai < 0)
        return CL_INVALID_ARG_INDEX;
    const isa_arg *a = &k->args[ai];
    icd_arg v;
    memset(&v, 0, sizeof v);
    v.set = true;
    switch (a->kind) {
    case ISA_ARG_LOCAL:
        if (arg_value)
            return CL_INVALID_ARG_VALUE;
        if (!arg_size)
            return CL_INVALID_ARG_SIZE;
        v.local_bytes = arg_size;
        break;
    case ISA_ARG_SCALAR:
        if (sampler_bits(a, arg_size, arg_value, &v.scalar))
            break;
        if (arg_size != isa_types[a->type].bytes)
            return CL_INVALID_ARG_SIZE;
        if (!arg_value)
            return CL_INVALID_ARG_VALUE;
        memcpy(&v.scalar, arg_value, arg_size);
        break;
    case ISA_ARG_GLOBAL:
    case ISA_ARG_CONSTANT:
    case ISA_ARG_IMAGE2D:
        if (a->byval) {
            if (arg_size != a->byval)
                return CL_INVALID_ARG_SIZE;
            if (!arg_value)
                return CL_INVALID_ARG_VALUE;
            if (!(v.bytes = malloc(arg_size)))
                return CL_OUT_OF_HOST_MEMORY;
            memcpy(v.bytes, arg_value, arg_size);
            v.nbytes = arg_size;
            break;
        }
        if (arg_size != sizeof(cl_mem))
            return CL_INVALID_ARG_SIZE;
        cl_mem m = NULL;
        if (arg_value)
            memcpy(&m, arg_value, sizeof m);
        if (m && (!icd_valid(m, ICD_MEM) || icd_is_image(m) != (a->kind == ISA_ARG_IMAGE2D)))
            return CL_INVALID_MEM_OBJECT;
        if (m && icd_is_image(m) &&
            ((m->img.dims ? m->img.dims : 2) != (a->dims ? a->dims : 2) ||
             !m->img.arrayed != !a->arrayed || !m->img.buffer != !a->img_buffer))
            return CL_INVALID_MEM_OBJECT;   /* not the argument's image type */
        if (!m && a->kind == ISA_ARG_IMAGE2D)
            return CL_INVALID_ARG_VALUE;
        if (m)
            icd_mem_retain(m);
        v.mem = m;
        break;
    default: return CL_INVALID_ARG_VALUE;
    }
    clear_arg(&kernel->args[ai]);
    kernel->args[ai] = v;
    return CL_SUCCESS;
}

cl_int icd_SetKernelExecInfo(cl_kernel kernel, cl_kernel_exec_info param_name,
                             size_t param_value_size, const void *param_value)
{
    return icd_valid(kernel, ICD_KERNEL) ? CL_INVALID_OPERATION : CL_INVALID_KERNEL;
}

cl_int icd_GetKernelInfo(cl_kernel kernel, cl_kernel_info param_name, size_t param_value_size,
                         void *param_value, size_t *param_value_size_ret)
{
    if (!icd_valid(kernel, ICD_KERNEL))
        return CL_INVALID_KERNEL;
    const isa_kernel *k = &kernel->e->k;
    switch (param_name) {
    case CL_KERNEL_FUNCTION_NAME: ICD_INFO_STR(k->name);
    case CL_KERNEL_NUM_ARGS: ICD_INFO(cl_uint, icd_user_args(k));
    case CL_KERNEL_REFERENCE_COUNT: ICD_INFO(cl_uint, atomic_load(&kernel->h.refs));
    case CL_KERNEL_CONTEXT: ICD_INFO(cl_context, kernel->prog->ctx);
    case CL_KERNEL_PROGRAM: ICD_INFO(cl_program, kernel->prog);
    case CL_KERNEL_ATTRIBUTES: {
        char buf[64] = "";
        if (k->reqd_sg_size)
            snprintf(buf, sizeof buf, "intel_reqd_sub_group_size(%u)", k->reqd_sg_size);
        ICD_INFO_STR(buf);
    }
    default: return CL_INVALID_VALUE;
    }
}

static cl_device_id kernel_device(cl_kernel kernel, cl_device_id device, cl_int *rc)
{
    const cl_context ctx = kernel->prog->ctx;
    *rc = CL_SUCCESS;
    if (!device) {
        if (ctx->ndev == 1)
            return ctx->devs[0];
        *rc = CL_INVALID_DEVICE;
        return NULL;
    }
    for (cl_uint i = 0; i < ctx->ndev; i++)
        if (ctx->devs[i] == device)
            return device;
    *rc = CL_INVALID_DEVICE;
    return NULL;
}

cl_int icd_GetKernelWorkGroupInfo(cl_kernel kernel, cl_device_id device,
                                  cl_kernel_work_group_info param_name, size_t param_value_size,
                                  void *param_value, size_t *param_value_size_ret)
{
    if (!icd_valid(kernel, ICD_KERNEL))
        return CL_INVALID_KERNEL;
    cl_int rc;
    cl_device_id d = kernel_device(kernel, device, &rc);
    if (rc)
        return rc;
    const isa_kernel *k = &kernel->e->k;
    switch (param_name) {
    case CL_KERNEL_WORK_GROUP_SIZE: ICD_INFO(size_t, icd_kernel_max_wg(k, &d->cfg));
    case CL_KERNEL_COMPILE_WORK_GROUP_SIZE: {
        size_t v[3] = { k->reqd_wg[0], k->reqd_wg[1], k->reqd_wg[2] };
        return icd_info(param_value_size, param_value, param_value_size_ret, v, sizeof v);
    }
    case CL_KERNEL_LOCAL_MEM_SIZE: {
        cl_ulong bytes = k->local_mem;
        for (uint32_t i = 0; i < k->narg; i++)
            bytes += kernel->args[i].local_bytes;
        ICD_INFO(cl_ulong, bytes);
    }
    case CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE:
        ICD_INFO(size_t, icd_kernel_width(k, &d->cfg));
    case CL_KERNEL_PRIVATE_MEM_SIZE: ICD_INFO(cl_ulong, k->private_mem);
    case CL_KERNEL_SPILL_MEM_SIZE_INTEL: ICD_INFO(cl_ulong, 0);
    default: return CL_INVALID_VALUE;
    }
}

static cl_int subgroup_info(cl_kernel kernel, cl_device_id device,
                            cl_kernel_sub_group_info param_name, size_t input_value_size,
                            const void *input_value, size_t param_value_size,
                            void *param_value, size_t *param_value_size_ret)
{
    if (!icd_valid(kernel, ICD_KERNEL))
        return CL_INVALID_KERNEL;
    cl_int rc;
    cl_device_id d = kernel_device(kernel, device, &rc);
    if (rc)
        return rc;
    const isa_kernel *k = &kernel->e->k;
    const size_t w = icd_kernel_width(k, &d->cfg), maxwg = icd_kernel_max_wg(k, &d->cfg);
    switch (param_name) {
    case CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE:
    case CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE: {
        if (!input_value || !input_value_size || input_value_size % sizeof(size_t) ||
            input_value_size > 3 * sizeof(size_t))
            return CL_INVALID_VALUE;
        size_t items = 1, v[3];
        memcpy(v, input_value, input_value_size);
        for (size_t i = 0; i < input_value_size / sizeof(size_t); i++)
            items *= v[i];
        if (param_name == CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE)
            ICD_INFO(size_t, w);
        ICD_INFO(size_t, (items + w - 1) / w);
    }
    case CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT: {
        if (!input_value || input_value_size != sizeof(size_t))
            return CL_INVALID_VALUE;
        size_t count, v[3] = { 0, 0, 0 };
        memcpy(&count, input_value, sizeof count);
        size_t dims = param_value_size / sizeof(size_t);
        if (param_value && (dims < 1 || dims > 3 || param_value_size % sizeof(size_t)))
            return CL_INVALID_VALUE;
        if (count && count * w <= maxwg) {
            v[0] = count * w;
            v[1] = v[2] = 1;
        }
        return icd_info(param_value_size, param_value, param_value_size_ret, v,
                        param_value ? dims * sizeof(size_t) : 3 * sizeof(size_t));
    }
    case CL_KERNEL_MAX_NUM_SUB_GROUPS: ICD_INFO(size_t, (maxwg + w - 1) / w);
    case CL_KERNEL_COMPILE_NUM_SUB_GROUPS: ICD_INFO(size_t, 0);
    case CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL: ICD_INFO(size_t, k->reqd_sg_size);
    default: return CL_INVALID_VALUE;
    }
}

cl_int icd_GetKernelSubGroupInfo(cl_kernel kernel, cl_device_id device,
                                 cl_kernel_sub_group_info param_name, size_t input_value_size,
                                 const void *input_value, size_t param_value_size,
                                 void *param_value, size_t *param_value_size_ret)
{
    return subgroup_info(kernel, device, param_name, input_value_size, input_value,
                         param_value_size, param_value, param_value_size_ret);
}

cl_int icd_GetKernelSubGroupInfoKHR(cl_kernel kernel, cl_device_id device,
                                    cl_kernel_sub_group_info param_name, size_t input_value_size,
                                    const void *input_value, size_t param_value_size,
                                    void *param_value, size_t *param_value_size_ret)
{
    return subgroup_info(kernel, device, param_name, input_value_size, input_value,
                         param_value_size, param_value, param_value_size_ret);
}

cl_int icd_GetKernelArgInfo(cl_kernel kernel, cl_uint arg_index, cl_kernel_arg_info param_name,
                            size_t param_value_size, void *param_value,
                            size_t *param_value_size_ret)
{
    if (!icd_valid(kernel, ICD_KERNEL))
        return CL_INVALID_KERNEL;
    const isa_kernel *k = &kernel->e->k;
    int ai = icd_isa_arg(k, arg_index);
    if (ai < 0)
        return CL_INVALID_ARG_INDEX;
    const isa_arg *a = &k->args[ai];
    switch (param_name) {
    case CL_KERNEL_ARG_ADDRESS_QUALIFIER: {
        cl_kernel_arg_address_qualifier q = CL_KERNEL_ARG_ADDRESS_PRIVATE;
        if (a->kind == ISA_ARG_GLOBAL || a->kind == ISA_ARG_IMAGE2D)
            q = CL_KERNEL_ARG_ADDRESS_GLOBAL;
        else if (a->kind == ISA_ARG_CONSTANT && !a->byval)
            q = CL_KERNEL_ARG_ADDRESS_CONSTANT;
        else if (a->kind == ISA_ARG_LOCAL)
            q = CL_KERNEL_ARG_ADDRESS_LOCAL;
        ICD_INFO(cl_kernel_arg_address_qualifier, q);
    }
    case CL_KERNEL_ARG_ACCESS_QUALIFIER: {
        static const cl_kernel_arg_access_qualifier img[] = { CL_KERNEL_ARG_ACCESS_READ_WRITE,
                                                              CL_KERNEL_ARG_ACCESS_READ_ONLY,
                                                              CL_KERNEL_ARG_ACCESS_WRITE_ONLY };
        ICD_INFO(cl_kernel_arg_access_qualifier,
                 a->kind == ISA_ARG_IMAGE2D && a->access < 3 ? img[a->access]
                                                             : CL_KERNEL_ARG_ACCESS_NONE);
    }
    case CL_KERNEL_ARG_TYPE_NAME: {
        char buf[80];
        if (a->kind == ISA_ARG_IMAGE2D)
            snprintf(buf, sizeof buf, "%s_t",
                     isa_image_type_name(a->dims, a->arrayed, a->img_buffer)
                         ? isa_image_type_name(a->dims, a->arrayed, a->img_buffer) : "image2d");
        else if (a->byval || a->cl_type[0])
            snprintf(buf, sizeof buf, "%s", a->cl_type[0] ? a->cl_type : "struct");
        else
            snprintf(buf, sizeof buf, "%s%s", isa_types[a->type].cl_name,
                     a->kind == ISA_ARG_SCALAR ? "" : "*");
        ICD_INFO_STR(buf);
    }
    case CL_KERNEL_ARG_TYPE_QUALIFIER:
        ICD_INFO(cl_kernel_arg_type_qualifier,
                 a->kind == ISA_ARG_CONSTANT && !a->byval ? CL_KERNEL_ARG_TYPE_CONST
                                                          : CL_KERNEL_ARG_TYPE_NONE);
    case CL_KERNEL_ARG_NAME:
        if (kernel->e->args_unnamed)
            return CL_KERNEL_ARG_INFO_NOT_AVAILABLE;
        ICD_INFO_STR(a->name);
    default: return CL_INVALID_VALUE;
    }
}
