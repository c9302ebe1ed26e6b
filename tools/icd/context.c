/* context.c - contexts and command queues.  Queues run their commands in
 * order; an out-of-order queue is accepted and runs in order too. */
#include "icd.h"

#include <stdlib.h>
#include <string.h>

static cl_int check_props(const cl_context_properties *props, cl_context ctx)
{
    size_t n = 0;
    for (; props && props[n]; n += 2) {
        if (props[n] == CL_CONTEXT_PLATFORM) {
            if ((cl_platform_id)props[n + 1] != &icd_platform)
                return CL_INVALID_PLATFORM;
        } else if (props[n] != CL_CONTEXT_INTEROP_USER_SYNC) {
            return CL_INVALID_PROPERTY;
        }
        for (size_t m = 0; m < n; m += 2)
            if (props[m] == props[n])
                return CL_INVALID_PROPERTY;
    }
    if (props && ctx) {
        if (n + 1 > sizeof ctx->props / sizeof ctx->props[0])
            return CL_INVALID_PROPERTY;
        memcpy(ctx->props, props, (n + 1) * sizeof *props);
        ctx->nprops = n + 1;
    }
    return CL_SUCCESS;
}

static cl_context new_context(const cl_context_properties *props, cl_uint ndev,
                              const cl_device_id *devs,
                              void(CL_CALLBACK *notify)(const char *, const void *, size_t,
                                                        void *),
                              void *user, cl_int *err)
{
    cl_int rc = check_props(props, NULL);
    cl_context ctx = NULL;
    if (!rc && (!ndev || !devs || (!notify && user)))
        rc = CL_INVALID_VALUE;
    for (cl_uint i = 0; !rc && i < ndev; i++) {
        bool found = false;
        for (cl_uint j = 0; j < icd_device_count(); j++)
            found |= devs[i] == icd_device(j);
        if (!found)
            rc = CL_INVALID_DEVICE;
    }
    if (!rc && (!(ctx = calloc(1, sizeof *ctx)) ||
                !(ctx->devs = malloc(ndev * sizeof *ctx->devs))))
        rc = CL_OUT_OF_HOST_MEMORY;
    if (!rc)
        rc = check_props(props, ctx);
    if (rc) {
        if (ctx)
            free(ctx->devs);
        free(ctx);
        if (err)
            *err = rc;
        return NULL;
    }
    icd_init_head(&ctx->h, ICD_CONTEXT);
    memcpy(ctx->devs, devs, ndev * sizeof *devs);
    ctx->ndev = ndev;
    ctx->notify = notify;
    ctx->notify_user = user;
    if (err)
        *err = CL_SUCCESS;
    return ctx;
}

cl_context icd_CreateContext(const cl_context_properties *properties, cl_uint num_devices,
                             const cl_device_id *devices,
                             void(CL_CALLBACK *pfn_notify)(const char *, const void *, size_t,
                                                           void *),
                             void *user_data, cl_int *errcode_ret)
{
    return new_context(properties, num_devices, devices, pfn_notify, user_data, errcode_ret);
}

cl_context icd_CreateContextFromType(const cl_context_properties *properties,
                                     cl_device_type device_type,
                                     void(CL_CALLBACK *pfn_notify)(const char *, const void *,
                                                                   size_t, void *),
                                     void *user_data, cl_int *errcode_ret)
{
    cl_uint n = 0;
    cl_int rc = icd_GetDeviceIDs(&icd_platform, device_type, 0, NULL, &n);
    cl_device_id devs[16];
    if (!rc)
        rc = icd_GetDeviceIDs(&icd_platform, device_type, n < 16 ? n : 16, devs, NULL);
    if (rc) {
        if (errcode_ret)
            *errcode_ret = rc;
        return NULL;
    }
    return new_context(properties, n < 16 ? n : 16, devs, pfn_notify, user_data, errcode_ret);
}

cl_int icd_RetainContext(cl_context context)
{
    if (!icd_valid(context, ICD_CONTEXT))
        return CL_INVALID_CONTEXT;
    atomic_fetch_add(&context->h.refs, 1);
    return CL_SUCCESS;
}

cl_int icd_ReleaseContext(cl_context context)
{
    if (!icd_valid(context, ICD_CONTEXT))
        return CL_INVALID_CONTEXT;
    if (atomic_fetch_sub(&context->h.refs, 1) == 1) {
        context->h.kind = 0;
        free(context->devs);
        free(context);
    }
    return CL_SUCCESS;
}

cl_int icd_GetContextInfo(cl_context context, cl_context_info param_name,
                          size_t param_value_size, void *param_value,
                          size_t *param_value_size_ret)
{
    if (!icd_valid(context, ICD_CONTEXT))
        return CL_INVALID_CONTEXT;
    switch (param_name) {
    case CL_CONTEXT_REFERENCE_COUNT: ICD_INFO(cl_uint, atomic_load(&context->h.refs));
    case CL_CONTEXT_NUM_DEVICES: ICD_INFO(cl_uint, context->ndev);
    case CL_CONTEXT_DEVICES:
        return icd_info(param_value_size, param_value, param_value_size_ret, context->devs,
                        context->ndev * sizeof *context->devs);
    case CL_CONTEXT_PROPERTIES:
        return icd_info(param_value_size, param_value, param_value_size_ret, context->props,
                        context->nprops * sizeof *context->props);
    default: return CL_INVALID_VALUE;
    }
}

static bool in_context(cl_context ctx, cl_device_id d)
{
    for (cl_uint i = 0; i < ctx->ndev; i++)
        if (ctx->devs[i] == d)
            return true;
    return false;
}

static cl_command_queue new_queue(cl_context ctx, cl_device_id dev,
                                  cl_command_queue_properties props, cl_int *err)
{
    cl_int rc = CL_SUCCESS;
    const cl_command_queue_properties known =
        CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE;
    if (!icd_valid(ctx, ICD_CONTEXT))
        rc = CL_INVALID_CONTEXT;
    else if (!in_context(ctx, dev))
        rc = CL_INVALID_DEVICE;
    else if (props & (CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT))
        rc = CL_INVALID_QUEUE_PROPERTIES;
    else if (props & ~known)
        rc = CL_INVALID_VALUE;
    cl_command_queue q = rc ? NULL : calloc(1, sizeof *q);
    if (!rc && !q)
        rc = CL_OUT_OF_HOST_MEMORY;
    if (err)
        *err = rc;
    if (rc)
        return NULL;
    icd_init_head(&q->h, ICD_QUEUE);
    q->ctx = ctx;
    q->dev = dev;
    q->props = props;
    icd_RetainContext(ctx);
    return q;
}

cl_command_queue icd_CreateCommandQueue(cl_context context, cl_device_id device,
                                        cl_command_queue_properties properties,
                                        cl_int *errcode_ret)
{
    return new_queue(context, device, properties, errcode_ret);
}

cl_command_queue icd_CreateCommandQueueWithProperties(cl_context context, cl_device_id device,
                                                      const cl_queue_properties *properties,
                                                      cl_int *errcode_ret)
{
    cl_command_queue_properties props = 0;
    for (size_t i = 0; properties && properties[i]; i += 2) {
        if (properties[i] == CL_QUEUE_PROPERTIES) {
            props = (cl_command_queue_properties)properties[i + 1];
        } else if (properties[i] != CL_QUEUE_SIZE) {
            if (errcode_ret)
                *errcode_ret = CL_INVALID_VALUE;
            return NULL;
        }
    }
    return new_queue(context, device, props, errcode_ret);
}

bool icd_queue_valid(cl_command_queue q)
{
    return icd_valid(q, ICD_QUEUE);
}

cl_int icd_RetainCommandQueue(cl_command_queue command_queue)
{
    if (!icd_queue_valid(command_queue))
        return CL_INVALID_COMMAND_QUEUE;
    atomic_fetch_add(&command_queue->h.refs, 1);
    return CL_SUCCESS;
}

cl_int icd_ReleaseCommandQueue(cl_command_queue command_queue)
{
    if (!icd_queue_valid(command_queue))
        return CL_INVALID_COMMAND_QUEUE;
    /* release is a flush: commands held by user events still run, so the
     * queue lives until they did */
    if (atomic_fetch_sub(&command_queue->h.refs, 1) == 1) {
        icd_lock();
        bool busy = command_queue->npending != 0;
        icd_unlock();
        if (busy) {
            atomic_fetch_add(&command_queue->h.refs, 1);
            icd_Finish(command_queue);
            atomic_fetch_sub(&command_queue->h.refs, 1);
        }
        command_queue->h.kind = 0;
        icd_ReleaseContext(command_queue->ctx);
        free(command_queue);
    }
    return CL_SUCCESS;
}

cl_int icd_GetCommandQueueInfo(cl_command_queue command_queue, cl_command_queue_info param_name,
                               size_t param_value_size, void *param_value,
                               size_t *param_value_size_ret)
{
    cl_command_queue q = command_queue;
    if (!icd_queue_valid(q))
        return CL_INVALID_COMMAND_QUEUE;
    switch (param_name) {
    case CL_QUEUE_CONTEXT: ICD_INFO(cl_context, q->ctx);
    case CL_QUEUE_DEVICE: ICD_INFO(cl_device_id, q->dev);
    case CL_QUEUE_REFERENCE_COUNT: ICD_INFO(cl_uint, atomic_load(&q->h.refs));
    case CL_QUEUE_PROPERTIES: ICD_INFO(cl_command_queue_properties, q->props);
    case CL_QUEUE_PROPERTIES_ARRAY: {
        cl_queue_properties v[3] = { CL_QUEUE_PROPERTIES, q->props, 0 };
        return icd_info(param_value_size, param_value, param_value_size_ret, v,
                        q->props ? sizeof v : sizeof v[0]);
    }
    case CL_QUEUE_SIZE: return CL_INVALID_COMMAND_QUEUE;
    case CL_QUEUE_DEVICE_DEFAULT: ICD_INFO(cl_command_queue, NULL);
    default: return CL_INVALID_VALUE;
    }
}

cl_int icd_SetCommandQueueProperty(cl_command_queue command_queue,
                                   cl_command_queue_properties properties, cl_bool enable,
                                   cl_command_queue_properties *old_properties)
{
    if (!icd_queue_valid(command_queue))
        return CL_INVALID_COMMAND_QUEUE;
    if (old_properties)
        *old_properties = command_queue->props;
    if (properties & ~(cl_command_queue_properties)(CL_QUEUE_PROFILING_ENABLE |
                                                    CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE))
        return CL_INVALID_VALUE;
    if (enable)
        command_queue->props |= properties;
    else
        command_queue->props &= ~properties;
    return CL_SUCCESS;
}
