/* platform.c - the "sgemu" platform and its devices: one device per device
 * config (SGEMU_DEVICES), device info taken from the config, and the
 * environment switches of the platform (docs/opencl-platform.md). */
#include "icd.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ICD_MAX_DEVICES 16

struct _cl_platform_id icd_platform;

static struct {
    pthread_once_t once;
    cl_uint ndev;
    struct _cl_device_id devs[ICD_MAX_DEVICES];
    bool timing, check;
    uint32_t sg;
    const char *record_dir;
} plat = { .once = PTHREAD_ONCE_INIT };

static const char platform_extensions[] = "cl_khr_icd cl_khr_il_program";

/* What a device claims: what the engine and the front end implement
 * (docs/opencl-platform.md).  Sub-groups both as OpenCL 3.0's core feature
 * and as cl_khr_subgroups, which requires independent forward progress
 * between the sub-groups of a work-group (the work-group scheduler ends a
 * sub-group's turn after EMU_SG_QUANTUM instructions); the rotate built-ins
 * that clang-14's header lacks come from load/sgemu_opencl.h.  Images: every
 * type, 3D ones written by kernels too (cl_khr_3d_image_writes). */
static const char device_extensions[] =
    "cl_khr_icd cl_khr_il_program cl_khr_byte_addressable_store "
    "cl_khr_global_int32_base_atomics cl_khr_global_int32_extended_atomics "
    "cl_khr_local_int32_base_atomics cl_khr_local_int32_extended_atomics "
    "cl_khr_int64_base_atomics cl_khr_int64_extended_atomics "
    "cl_khr_fp64 cl_khr_fp16 cl_khr_subgroups "
    "cl_khr_subgroup_extended_types cl_khr_subgroup_non_uniform_vote "
    "cl_khr_subgroup_ballot cl_khr_subgroup_non_uniform_arithmetic "
    "cl_khr_subgroup_shuffle cl_khr_subgroup_shuffle_relative "
    "cl_khr_subgroup_clustered_reduce cl_khr_subgroup_rotate "
    "cl_intel_subgroups cl_intel_subgroups_short cl_intel_subgroups_char "
    "cl_intel_subgroups_long cl_intel_required_subgroup_size "
    "cl_intel_subgroup_local_block_io cl_intel_media_block_io cl_ext_float_atomics "
    "cl_khr_3d_image_writes";

#define ICD_VERSION(maj, min, pat) CL_MAKE_VERSION(maj, min, pat)

static const cl_name_version device_ext_versions[] = {
    { ICD_VERSION(1, 0, 0), "cl_khr_icd" },
    { ICD_VERSION(1, 0, 0), "cl_khr_il_program" },
    { ICD_VERSION(1, 0, 0), "cl_khr_byte_addressable_store" },
    { ICD_VERSION(1, 0, 0), "cl_khr_global_int32_base_atomics" },
    { ICD_VERSION(1, 0, 0), "cl_khr_global_int32_extended_atomics" },
    { ICD_VERSION(1, 0, 0), "cl_khr_local_int32_base_atomics" },
    { ICD_VERSION(1, 0, 0), "cl_khr_local_int32_extended_atomics" },
    { ICD_VERSION(1, 0, 0), "cl_khr_int64_base_atomics" },
    { ICD_VERSION(1, 0, 0), "cl_khr_int64_extended_atomics" },
    { ICD_VERSION(1, 0, 0), "cl_khr_fp64" },
    { ICD_VERSION(1, 0, 0), "cl_khr_fp16" },
    { ICD_VERSION(1, 0, 0), "cl_khr_subgroups" },
    { ICD_VERSION(1, 0, 0), "cl_khr_subgroup_extended_types" },
    { ICD_VERSION(1, 0, 0), "cl_khr_subgroup_non_uniform_vote" },
    { ICD_VERSION(1, 0, 0), "cl_khr_subgroup_ballot" },
    { ICD_VERSION(1, 0, 0), "cl_khr_subgroup_non_uniform_arithmetic" },
    { ICD_VERSION(1, 0, 0), "cl_khr_subgroup_shuffle" },
    { ICD_VERSION(1, 0, 0), "cl_khr_subgroup_shuffle_relative" },
    { ICD_VERSION(1, 0, 0), "cl_khr_subgroup_clustered_reduce" },
    { ICD_VERSION(1, 0, 0), "cl_khr_subgroup_rotate" },
    { ICD_VERSION(1, 0, 0), "cl_intel_subgroups" },
    { ICD_VERSION(1, 0, 0), "cl_intel_subgroups_short" },
    { ICD_VERSION(1, 0, 0), "cl_intel_subgroups_char" },
    { ICD_VERSION(1, 0, 0), "cl_intel_subgroups_long" },
    { ICD_VERSION(1, 0, 0), "cl_intel_required_subgroup_size" },
    { ICD_VERSION(1, 0, 0), "cl_intel_subgroup_local_block_io" },
    { ICD_VERSION(1, 0, 0), "cl_intel_media_block_io" },
    { ICD_VERSION(1, 0, 0), "cl_ext_float_atomics" },
    { ICD_VERSION(1, 0, 0), "cl_khr_3d_image_writes" },
};

/* OpenCL C 3.0 optional features sgemu supports (clang-14 defines them for
 * spir64; the ones the engine lacks are left out: pipes, device enqueue,
 * generic address space dereference). */
static const cl_name_version c_features[] = {
    { ICD_VERSION(3, 0, 0), "__opencl_c_images" },
    { ICD_VERSION(3, 0, 0), "__opencl_c_3d_image_writes" },
    { ICD_VERSION(3, 0, 0), "__opencl_c_read_write_images" },
    { ICD_VERSION(3, 0, 0), "__opencl_c_int64" },
    { ICD_VERSION(3, 0, 0), "__opencl_c_fp64" },
    { ICD_VERSION(3, 0, 0), "__opencl_c_subgroups" },
    { ICD_VERSION(3, 0, 0), "__opencl_c_work_group_collective_functions" },
    { ICD_VERSION(3, 0, 0), "__opencl_c_program_scope_global_variables" },
    { ICD_VERSION(3, 0, 0), "__opencl_c_atomic_order_acq_rel" },
    { ICD_VERSION(3, 0, 0), "__opencl_c_atomic_order_seq_cst" },
    { ICD_VERSION(3, 0, 0), "__opencl_c_atomic_scope_device" },
    { ICD_VERSION(3, 0, 0), "__opencl_c_atomic_scope_all_devices" },
    /* cl_ext_float_atomics: what FP_ATOMIC_CAPS below claim */
    { ICD_VERSION(1, 0, 0), "__opencl_c_ext_fp32_global_atomic_add" },
    { ICD_VERSION(1, 0, 0), "__opencl_c_ext_fp32_local_atomic_add" },
    { ICD_VERSION(1, 0, 0), "__opencl_c_ext_fp32_global_atomic_min_max" },
    { ICD_VERSION(1, 0, 0), "__opencl_c_ext_fp32_local_atomic_min_max" },
    { ICD_VERSION(1, 0, 0), "__opencl_c_ext_fp64_global_atomic_add" },
    { ICD_VERSION(1, 0, 0), "__opencl_c_ext_fp64_local_atomic_add" },
    { ICD_VERSION(1, 0, 0), "__opencl_c_ext_fp64_global_atomic_min_max" },
    { ICD_VERSION(1, 0, 0), "__opencl_c_ext_fp64_local_atomic_min_max" },
    { ICD_VERSION(1, 0, 0), "__opencl_c_ext_fp16_global_atomic_load_store" },
    { ICD_VERSION(1, 0, 0), "__opencl_c_ext_fp16_local_atomic_load_store" },
    { ICD_VERSION(1, 0, 0), "__opencl_c_ext_fp16_global_atomic_min_max" },
    { ICD_VERSION(1, 0, 0), "__opencl_c_ext_fp16_local_atomic_min_max" },
};

/* cl_ext_float_atomics queries and bits (Khronos OpenCL-Docs
 * extensions/cl_ext_float_atomics.asciidoc; absent from older CL headers) */
#ifndef CL_DEVICE_SINGLE_FP_ATOMIC_CAPABILITIES_EXT
#define CL_DEVICE_SINGLE_FP_ATOMIC_CAPABILITIES_EXT 0x4231
#define CL_DEVICE_DOUBLE_FP_ATOMIC_CAPABILITIES_EXT 0x4232
#define CL_DEVICE_HALF_FP_ATOMIC_CAPABILITIES_EXT 0x4233
#define CL_DEVICE_GLOBAL_FP_ATOMIC_LOAD_STORE_EXT (1 << 0)
#define CL_DEVICE_GLOBAL_FP_ATOMIC_ADD_EXT (1 << 1)
#define CL_DEVICE_GLOBAL_FP_ATOMIC_MIN_MAX_EXT (1 << 2)
#define CL_DEVICE_LOCAL_FP_ATOMIC_LOAD_STORE_EXT (1 << 16)
#define CL_DEVICE_LOCAL_FP_ATOMIC_ADD_EXT (1 << 17)
#define CL_DEVICE_LOCAL_FP_ATOMIC_MIN_MAX_EXT (1 << 18)
#endif
/* float and double: load/store/exchange, add/sub, min/max in both spaces;
 * half: no add (clang-14's header declares no half atomic_fetch_add) */
#define FP_ATOMIC_LS (CL_DEVICE_GLOBAL_FP_ATOMIC_LOAD_STORE_EXT | CL_DEVICE_LOCAL_FP_ATOMIC_LOAD_STORE_EXT)
#define FP_ATOMIC_ADD (CL_DEVICE_GLOBAL_FP_ATOMIC_ADD_EXT | CL_DEVICE_LOCAL_FP_ATOMIC_ADD_EXT)
#define FP_ATOMIC_MM (CL_DEVICE_GLOBAL_FP_ATOMIC_MIN_MAX_EXT | CL_DEVICE_LOCAL_FP_ATOMIC_MIN_MAX_EXT)

static const cl_name_version c_versions[] = {
    { ICD_VERSION(1, 0, 0), "OpenCL C" }, { ICD_VERSION(1, 1, 0), "OpenCL C" },
    { ICD_VERSION(1, 2, 0), "OpenCL C" }, { ICD_VERSION(2, 0, 0), "OpenCL C" },
    { ICD_VERSION(3, 0, 0), "OpenCL C" },
};

static const cl_name_version il_versions[] = {
    { ICD_VERSION(1, 0, 0), "SPIR-V" }, { ICD_VERSION(1, 1, 0), "SPIR-V" },
    { ICD_VERSION(1, 2, 0), "SPIR-V" },
};

static bool env_off(const char *name)
{
    const char *v = getenv(name);
    return v && (!strcmp(v, "0") || !strcmp(v, "off") || !strcmp(v, "no"));
}

static bool env_on(const char *name)
{
    const char *v = getenv(name);
    return v && *v && !env_off(name);
}

/* A config named in SGEMU_DEVICES: a bundled name or a YAML file. */
static void add_device(const char *spec)
{
    if (plat.ndev == ICD_MAX_DEVICES) {
        fprintf(stderr, "sgemu: SGEMU_DEVICES: more than %d devices; '%s' ignored\n",
                ICD_MAX_DEVICES, spec);
        return;
    }
    cl_device_id d = &plat.devs[plat.ndev];
    isa_diags diags;
    memset(&diags, 0, sizeof diags);
    int errs = strchr(spec, '/') || strstr(spec, ".yaml")
                   ? emu_config_load_file(spec, &d->cfg, &diags)
                   : emu_config_load_bundled(spec, &d->cfg, &diags);
    if (errs) {
        fprintf(stderr, "sgemu: SGEMU_DEVICES: device config '%s' does not load:\n", spec);
        isa_diags_print(&diags, stderr);
        isa_diags_free(&diags);
        return;
    }
    isa_diags_free(&diags);
    icd_init_head(&d->h, ICD_DEVICE);
    d->clock_ns = 1000000;
    plat.ndev++;
}

static void platform_init(void)
{
    icd_init_head(&icd_platform.h, ICD_PLATFORM);
    const char *list = getenv("SGEMU_DEVICES");
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", list && *list ? list : "default");
    char *save = NULL;
    for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save))
        if (*t)
            add_device(t);
    plat.timing = !env_off("SGEMU_TIMING");
    plat.check = env_on("SGEMU_CHECK");
    const char *sg = getenv("SGEMU_SG");
    if (sg && *sg) {
        char *end;
        unsigned long w = strtoul(sg, &end, 10);
        if (*end || w < 1 || w > 64)
            fprintf(stderr, "sgemu: SGEMU_SG: expected a width 1..64, got '%s' (ignored)\n", sg);
        else
            plat.sg = (uint32_t)w;
    }
    const char *rec = getenv("SGEMU_RECORD");
    plat.record_dir = rec && *rec ? rec : NULL;
}

static void ensure_init(void)
{
    pthread_once(&plat.once, platform_init);
}

cl_uint icd_device_count(void)
{
    ensure_init();
    return plat.ndev;
}

cl_device_id icd_device(cl_uint i)
{
    ensure_init();
    return i < plat.ndev ? &plat.devs[i] : NULL;
}

bool icd_timing_enabled(void)
{
    ensure_init();
    return plat.timing;
}

uint32_t icd_sg_override(void)
{
    ensure_init();
    return plat.sg;
}

bool icd_check_enabled(void)
{
    ensure_init();
    return plat.check;
}

const char *icd_record_dir(void)
{
    ensure_init();
    return plat.record_dir;
}

cl_int icd_GetPlatformIDs(cl_uint num_entries, cl_platform_id *platforms, cl_uint *num_platforms)
{
    if ((num_entries == 0 && platforms) || (!platforms && !num_platforms))
        return CL_INVALID_VALUE;
    ensure_init();
    if (platforms)
        platforms[0] = &icd_platform;
    if (num_platforms)
        *num_platforms = 1;
    return CL_SUCCESS;
}

cl_int icd_GetPlatformInfo(cl_platform_id platform, cl_platform_info param_name,
                           size_t param_value_size, void *param_value,
                           size_t *param_value_size_ret)
{
    ensure_init();
    if (platform && platform != &icd_platform)
        return CL_INVALID_PLATFORM;
    switch (param_name) {
    case CL_PLATFORM_PROFILE: ICD_INFO_STR("FULL_PROFILE");
    case CL_PLATFORM_VERSION: ICD_INFO_STR("OpenCL 3.0 sgemu " SGEMU_VERSION_STRING);
    case CL_PLATFORM_NUMERIC_VERSION: ICD_INFO(cl_version, ICD_VERSION(3, 0, 0));
    case CL_PLATFORM_NAME: ICD_INFO_STR("sgemu");
    case CL_PLATFORM_VENDOR: ICD_INFO_STR("sgemu");
    case CL_PLATFORM_EXTENSIONS: ICD_INFO_STR(platform_extensions);
    case CL_PLATFORM_EXTENSIONS_WITH_VERSION: {
        static const cl_name_version v[] = { { ICD_VERSION(1, 0, 0), "cl_khr_icd" },
                                             { ICD_VERSION(1, 0, 0), "cl_khr_il_program" } };
        return icd_info(param_value_size, param_value, param_value_size_ret, v, sizeof v);
    }
    case CL_PLATFORM_ICD_SUFFIX_KHR: ICD_INFO_STR("sgemu");
    case CL_PLATFORM_HOST_TIMER_RESOLUTION: ICD_INFO(cl_ulong, 1);
    default: return CL_INVALID_VALUE;
    }
}

static bool type_matches(cl_device_type t)
{
    return t & (CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_DEFAULT) || t == CL_DEVICE_TYPE_ALL;
}

cl_int icd_GetDeviceIDs(cl_platform_id platform, cl_device_type device_type,
                        cl_uint num_entries, cl_device_id *devices, cl_uint *num_devices)
{
    ensure_init();
    if (platform && platform != &icd_platform)
        return CL_INVALID_PLATFORM;
    const cl_device_type known = CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_CPU |
                                 CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR |
                                 CL_DEVICE_TYPE_CUSTOM;
    if (device_type != CL_DEVICE_TYPE_ALL && (device_type & ~known))
        return CL_INVALID_DEVICE_TYPE;
    if ((num_entries == 0 && devices) || (!devices && !num_devices))
        return CL_INVALID_VALUE;
    cl_uint n = type_matches(device_type) ? plat.ndev : 0;
    /* CL_DEVICE_TYPE_DEFAULT alone: the first device */
    if (device_type == CL_DEVICE_TYPE_DEFAULT && n > 1)
        n = 1;
    if (n == 0)
        return CL_DEVICE_NOT_FOUND;
    for (cl_uint i = 0; devices && i < n && i < num_entries; i++)
        devices[i] = &plat.devs[i];
    if (num_devices)
        *num_devices = n;
    return CL_SUCCESS;
}

static bool device_valid(cl_device_id d)
{
    return d && d >= plat.devs && d < plat.devs + plat.ndev;
}

/* The widest sub-group count a work-group can have: every width fits. */
static uint32_t min_width(const emu_config *c)
{
    uint32_t w = 64;
    for (uint32_t i = 0; i < c->nwidths; i++)
        if (c->widths[i] < w)
            w = c->widths[i];
    return w;
}

cl_int icd_GetDeviceInfo(cl_device_id device, cl_device_info param_name,
                         size_t param_value_size, void *param_value,
                         size_t *param_value_size_ret)
{
    ensure_init();
    if (!device_valid(device))
        return CL_INVALID_DEVICE;
    const emu_config *c = &device->cfg;
    const size_t wg = c->max_wg_size;
    switch (param_name) {
    case CL_DEVICE_TYPE: ICD_INFO(cl_device_type, CL_DEVICE_TYPE_GPU);
    case CL_DEVICE_VENDOR_ID: ICD_INFO(cl_uint, 0x5347);
    case CL_DEVICE_MAX_COMPUTE_UNITS: ICD_INFO(cl_uint, c->compute_units);
    case CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS: ICD_INFO(cl_uint, 3);
    case CL_DEVICE_MAX_WORK_ITEM_SIZES: {
        size_t v[3] = { wg, wg, wg };
        return icd_info(param_value_size, param_value, param_value_size_ret, v, sizeof v);
    }
    case CL_DEVICE_MAX_WORK_GROUP_SIZE: ICD_INFO(size_t, wg);
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR:
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT:
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT:
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG:
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT:
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE:
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_INT:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF: ICD_INFO(cl_uint, 1);
    case CL_DEVICE_MAX_CLOCK_FREQUENCY: ICD_INFO(cl_uint, (cl_uint)c->clock_mhz);
    case CL_DEVICE_ADDRESS_BITS: ICD_INFO(cl_uint, 64);
    case CL_DEVICE_MAX_READ_IMAGE_ARGS: ICD_INFO(cl_uint, 128);
    case CL_DEVICE_MAX_WRITE_IMAGE_ARGS: ICD_INFO(cl_uint, 64);
    case CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS: ICD_INFO(cl_uint, 64);
    case CL_DEVICE_MAX_MEM_ALLOC_SIZE: ICD_INFO(cl_ulong, (cl_ulong)1 << 30);
    case CL_DEVICE_IMAGE2D_MAX_WIDTH:
    case CL_DEVICE_IMAGE2D_MAX_HEIGHT: ICD_INFO(size_t, ICD_IMAGE2D_MAX);
    case CL_DEVICE_IMAGE3D_MAX_WIDTH:
    case CL_DEVICE_IMAGE3D_MAX_HEIGHT:
    case CL_DEVICE_IMAGE3D_MAX_DEPTH: ICD_INFO(size_t, ICD_IMAGE3D_MAX);
    case CL_DEVICE_IMAGE_MAX_BUFFER_SIZE: ICD_INFO(size_t, ICD_IMAGE_BUFFER_MAX);
    case CL_DEVICE_IMAGE_MAX_ARRAY_SIZE: ICD_INFO(size_t, ICD_IMAGE_ARRAY_MAX);
    case CL_DEVICE_IMAGE_SUPPORT: ICD_INFO(cl_bool, CL_TRUE);
    case CL_DEVICE_MAX_PARAMETER_SIZE: ICD_INFO(size_t, 1024);
    case CL_DEVICE_MAX_SAMPLERS: ICD_INFO(cl_uint, 16);
    case CL_DEVICE_IMAGE_PITCH_ALIGNMENT:
    case CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT: ICD_INFO(cl_uint, 0);
    case CL_DEVICE_MEM_BASE_ADDR_ALIGN: ICD_INFO(cl_uint, 1024);
    case CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE: ICD_INFO(cl_uint, 128);
    case CL_DEVICE_SINGLE_FP_CONFIG:
        ICD_INFO(cl_device_fp_config, CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST |
                                          CL_FP_ROUND_TO_ZERO | CL_FP_ROUND_TO_INF | CL_FP_FMA);
    case CL_DEVICE_DOUBLE_FP_CONFIG:
        ICD_INFO(cl_device_fp_config, CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST |
                                          CL_FP_ROUND_TO_ZERO | CL_FP_ROUND_TO_INF | CL_FP_FMA);
    case CL_DEVICE_HALF_FP_CONFIG:
        ICD_INFO(cl_device_fp_config, CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST);
    case CL_DEVICE_SINGLE_FP_ATOMIC_CAPABILITIES_EXT:
    case CL_DEVICE_DOUBLE_FP_ATOMIC_CAPABILITIES_EXT:
        ICD_INFO(cl_bitfield, FP_ATOMIC_LS | FP_ATOMIC_ADD | FP_ATOMIC_MM);
    case CL_DEVICE_HALF_FP_ATOMIC_CAPABILITIES_EXT: ICD_INFO(cl_bitfield, FP_ATOMIC_LS | FP_ATOMIC_MM);
    case CL_DEVICE_GLOBAL_MEM_CACHE_TYPE: ICD_INFO(cl_device_mem_cache_type, CL_READ_WRITE_CACHE);
    case CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE: ICD_INFO(cl_uint, c->timing.line_bytes);
    case CL_DEVICE_GLOBAL_MEM_CACHE_SIZE: ICD_INFO(cl_ulong, c->timing.l2.size);
    case CL_DEVICE_GLOBAL_MEM_SIZE: ICD_INFO(cl_ulong, (cl_ulong)4 << 30);
    case CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE: ICD_INFO(cl_ulong, 65536);
    case CL_DEVICE_MAX_CONSTANT_ARGS: ICD_INFO(cl_uint, 8);
    case CL_DEVICE_LOCAL_MEM_TYPE: ICD_INFO(cl_device_local_mem_type, CL_LOCAL);
    case CL_DEVICE_LOCAL_MEM_SIZE: ICD_INFO(cl_ulong, c->local_mem_per_cu);
    case CL_DEVICE_ERROR_CORRECTION_SUPPORT: ICD_INFO(cl_bool, CL_FALSE);
    case CL_DEVICE_HOST_UNIFIED_MEMORY: ICD_INFO(cl_bool, CL_TRUE);
    case CL_DEVICE_PROFILING_TIMER_RESOLUTION: ICD_INFO(size_t, 1);
    case CL_DEVICE_ENDIAN_LITTLE: ICD_INFO(cl_bool, CL_TRUE);
    case CL_DEVICE_AVAILABLE:
    case CL_DEVICE_COMPILER_AVAILABLE:
    case CL_DEVICE_LINKER_AVAILABLE: ICD_INFO(cl_bool, CL_TRUE);
    case CL_DEVICE_EXECUTION_CAPABILITIES: ICD_INFO(cl_device_exec_capabilities, CL_EXEC_KERNEL);
    case CL_DEVICE_QUEUE_ON_HOST_PROPERTIES:
        ICD_INFO(cl_command_queue_properties,
                 CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    case CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES: ICD_INFO(cl_command_queue_properties, 0);
    case CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE:
    case CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE: ICD_INFO(cl_uint, 0);
    case CL_DEVICE_MAX_ON_DEVICE_QUEUES:
    case CL_DEVICE_MAX_ON_DEVICE_EVENTS: ICD_INFO(cl_uint, 0);
    case CL_DEVICE_BUILT_IN_KERNELS: ICD_INFO_STR("");
    case CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION:
        return icd_info(param_value_size, param_value, param_value_size_ret, NULL, 0);
    case CL_DEVICE_PLATFORM: ICD_INFO(cl_platform_id, &icd_platform);
    case CL_DEVICE_NAME: ICD_INFO_STR(device->cfg.name);
    case CL_DEVICE_VENDOR: ICD_INFO_STR("sgemu");
    case CL_DRIVER_VERSION: ICD_INFO_STR(SGEMU_VERSION_STRING);
    case CL_DEVICE_PROFILE: ICD_INFO_STR("FULL_PROFILE");
    case CL_DEVICE_VERSION: ICD_INFO_STR("OpenCL 3.0 sgemu");
    case CL_DEVICE_NUMERIC_VERSION: ICD_INFO(cl_version, ICD_VERSION(3, 0, 0));
    case CL_DEVICE_OPENCL_C_VERSION: ICD_INFO_STR("OpenCL C 3.0 sgemu");
    case CL_DEVICE_OPENCL_C_ALL_VERSIONS:
        return icd_info(param_value_size, param_value, param_value_size_ret, c_versions,
                        sizeof c_versions);
    case CL_DEVICE_OPENCL_C_FEATURES:
        return icd_info(param_value_size, param_value, param_value_size_ret, c_features,
                        sizeof c_features);
    case CL_DEVICE_EXTENSIONS: ICD_INFO_STR(device_extensions);
    case CL_DEVICE_EXTENSIONS_WITH_VERSION:
        return icd_info(param_value_size, param_value, param_value_size_ret,
                        device_ext_versions, sizeof device_ext_versions);
    case CL_DEVICE_IL_VERSION: ICD_INFO_STR("SPIR-V_1.0 SPIR-V_1.1 SPIR-V_1.2");
    case CL_DEVICE_ILS_WITH_VERSION:
        return icd_info(param_value_size, param_value, param_value_size_ret, il_versions,
                        sizeof il_versions);
    case CL_DEVICE_PRINTF_BUFFER_SIZE: ICD_INFO(size_t, c->printf_buffer_size);
    case CL_DEVICE_PREFERRED_INTEROP_USER_SYNC: ICD_INFO(cl_bool, CL_TRUE);
    case CL_DEVICE_PARENT_DEVICE: ICD_INFO(cl_device_id, NULL);
    case CL_DEVICE_PARTITION_MAX_SUB_DEVICES: ICD_INFO(cl_uint, 0);
    case CL_DEVICE_PARTITION_PROPERTIES:
    case CL_DEVICE_PARTITION_TYPE: ICD_INFO(cl_device_partition_property, 0);
    case CL_DEVICE_PARTITION_AFFINITY_DOMAIN: ICD_INFO(cl_device_affinity_domain, 0);
    case CL_DEVICE_REFERENCE_COUNT: ICD_INFO(cl_uint, 1);
    case CL_DEVICE_SVM_CAPABILITIES: ICD_INFO(cl_device_svm_capabilities, 0);
    case CL_DEVICE_MAX_PIPE_ARGS:
    case CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS:
    case CL_DEVICE_PIPE_MAX_PACKET_SIZE: ICD_INFO(cl_uint, 0);
    case CL_DEVICE_PIPE_SUPPORT: ICD_INFO(cl_bool, CL_FALSE);
    case CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT:
    case CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT:
    case CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT: ICD_INFO(cl_uint, 0);
    case CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE: ICD_INFO(size_t, 65536);
    case CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE: ICD_INFO(size_t, 65536);
    case CL_DEVICE_MAX_NUM_SUB_GROUPS: ICD_INFO(cl_uint, (cl_uint)(wg / min_width(c)));
    case CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS: ICD_INFO(cl_bool, CL_TRUE);
    case CL_DEVICE_SUB_GROUP_SIZES_INTEL: {
        size_t v[EMU_MAX_WIDTHS];
        for (uint32_t i = 0; i < c->nwidths; i++)
            v[i] = c->widths[i];
        return icd_info(param_value_size, param_value, param_value_size_ret, v,
                        c->nwidths * sizeof v[0]);
    }
    case CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES:
    case CL_DEVICE_ATOMIC_FENCE_CAPABILITIES:
        ICD_INFO(cl_device_atomic_capabilities,
                 CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL |
                     CL_DEVICE_ATOMIC_ORDER_SEQ_CST | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP |
                     CL_DEVICE_ATOMIC_SCOPE_DEVICE | CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES);
    case CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT: ICD_INFO(cl_bool, CL_TRUE);
    case CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT: ICD_INFO(cl_bool, CL_TRUE);
    case CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT: ICD_INFO(cl_bool, CL_FALSE);
    case CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES: ICD_INFO(cl_device_device_enqueue_capabilities, 0);
    case CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE: ICD_INFO(size_t, c->default_width);
    case CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED: ICD_INFO_STR("v0000-00-00-00");
    default: return CL_INVALID_VALUE;
    }
}

cl_int icd_CreateSubDevices(cl_device_id in_device, const cl_device_partition_property *props,
                            cl_uint num_devices, cl_device_id *out_devices,
                            cl_uint *num_devices_ret)
{
    return device_valid(in_device) ? CL_INVALID_VALUE : CL_INVALID_DEVICE;
}

/* Root devices: reference counting is a no-op (OpenCL 1.2). */
cl_int icd_RetainDevice(cl_device_id device)
{
    return device_valid(device) ? CL_SUCCESS : CL_INVALID_DEVICE;
}

cl_int icd_ReleaseDevice(cl_device_id device)
{
    return device_valid(device) ? CL_SUCCESS : CL_INVALID_DEVICE;
}

static cl_ulong host_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (cl_ulong)ts.tv_sec * 1000000000u + (cl_ulong)ts.tv_nsec;
}

cl_int icd_GetDeviceAndHostTimer(cl_device_id device, cl_ulong *device_timestamp,
                                 cl_ulong *host_timestamp)
{
    if (!device_valid(device))
        return CL_INVALID_DEVICE;
    if (!device_timestamp || !host_timestamp)
        return CL_INVALID_VALUE;
    icd_lock();
    *device_timestamp = device->clock_ns;
    icd_unlock();
    *host_timestamp = host_ns();
    return CL_SUCCESS;
}

cl_int icd_GetHostTimer(cl_device_id device, cl_ulong *host_timestamp)
{
    if (!device_valid(device))
        return CL_INVALID_DEVICE;
    if (!host_timestamp)
        return CL_INVALID_VALUE;
    *host_timestamp = host_ns();
    return CL_SUCCESS;
}
