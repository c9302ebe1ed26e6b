/* dispatch.c - what the OpenCL loader sees of the sgemu ICD: the dispatch
 * table every handle points to, the two exported entry points
 * (clGetExtensionFunctionAddress, clIcdGetPlatformIDsKHR), and the helpers
 * every API file uses (info values, handle checks, the lock). */
#include "icd.h"

#include <pthread.h>
#include <string.h>

#define ICD_EXPORT __attribute__((visibility("default")))

const cl_icd_dispatch icd_dispatch = {
#define X(name) .cl##name = icd_##name,
    ICD_API(X)
#undef X
};

cl_int icd_info(size_t size, void *value, size_t *size_ret, const void *src, size_t n)
{
    if (value) {
        if (size < n)
            return CL_INVALID_VALUE;
        if (n)
            memcpy(value, src, n);
    }
    if (size_ret)
        *size_ret = n;
    return CL_SUCCESS;
}

void icd_init_head(icd_head *h, icd_kind kind)
{
    h->dispatch = &icd_dispatch;
    h->kind = (uint32_t)kind;
    atomic_init(&h->refs, 1);
}

bool icd_valid(const void *obj, icd_kind kind)
{
    const icd_head *h = obj;
    return h && h->dispatch == &icd_dispatch && h->kind == (uint32_t)kind &&
           atomic_load(&h->refs) > 0;
}

static pthread_mutex_t lock;
static pthread_once_t lock_once = PTHREAD_ONCE_INIT;

static void lock_init(void)
{
    pthread_mutexattr_t a;
    pthread_mutexattr_init(&a);
    pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&lock, &a);
    pthread_mutexattr_destroy(&a);
}

void icd_lock(void)
{
    pthread_once(&lock_once, lock_init);
    pthread_mutex_lock(&lock);
}

void icd_unlock(void)
{
    pthread_mutex_unlock(&lock);
}

/* Extension entry points: the loader asks for clIcdGetPlatformIDsKHR; the
 * CTS and applications ask for the sub-group query under its KHR name. */
void *icd_GetExtensionFunctionAddress(const char *func_name)
{
    if (!func_name)
        return NULL;
    if (!strcmp(func_name, "clIcdGetPlatformIDsKHR"))
        return (void *)clIcdGetPlatformIDsKHR;
    if (!strcmp(func_name, "clGetKernelSubGroupInfoKHR"))
        return (void *)icd_GetKernelSubGroupInfoKHR;
    return NULL;
}

void *icd_GetExtensionFunctionAddressForPlatform(cl_platform_id platform,
                                                 const char *func_name)
{
    return platform == &icd_platform ? icd_GetExtensionFunctionAddress(func_name) : NULL;
}

ICD_EXPORT CL_API_ENTRY void *CL_API_CALL clGetExtensionFunctionAddress(const char *func_name)
{
    return icd_GetExtensionFunctionAddress(func_name);
}

ICD_EXPORT CL_API_ENTRY cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint num_entries,
                                                                  cl_platform_id *platforms,
                                                                  cl_uint *num_platforms)
{
    return icd_GetPlatformIDs(num_entries, platforms, num_platforms);
}

/* ocl-icd also looks this one up by name to read CL_PLATFORM_ICD_SUFFIX_KHR. */
ICD_EXPORT CL_API_ENTRY cl_int CL_API_CALL clGetPlatformInfo(cl_platform_id platform,
                                                             cl_platform_info param_name,
                                                             size_t param_value_size,
                                                             void *param_value,
                                                             size_t *param_value_size_ret)
{
    return icd_GetPlatformInfo(platform, param_name, param_value_size, param_value,
                               param_value_size_ret);
}
