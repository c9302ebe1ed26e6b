/*
 * icd.h - the sgemu OpenCL platform (an ICD for the system's OpenCL loader):
 * the objects behind the cl_* handles and what the API files share.
 * docs/opencl-platform.md describes what it implements.
 */
#ifndef SGEMU_ICD_H
#define SGEMU_ICD_H

#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_0_APIS
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#define CL_USE_DEPRECATED_OPENCL_2_0_APIS
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <CL/cl_icd.h>

#include <sgemu/sgemu.h>

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/* Every handle starts with the loader's dispatch table (cl_khr_icd), then a
 * kind tag so a wrong or stale handle is refused instead of followed. */
typedef enum icd_kind {
    ICD_PLATFORM = 0x5347e001, ICD_DEVICE, ICD_CONTEXT, ICD_QUEUE, ICD_MEM, ICD_PROGRAM,
    ICD_KERNEL, ICD_EVENT, ICD_SAMPLER
} icd_kind;

typedef struct icd_head {
    const cl_icd_dispatch *dispatch;
    uint32_t kind;                  /* icd_kind; 0 once freed */
    atomic_uint refs;               /* the application's references */
} icd_head;

extern const cl_icd_dispatch icd_dispatch;

struct _cl_platform_id {
    icd_head h;
};

struct _cl_device_id {
    icd_head h;
    emu_config cfg;
    uint64_t clock_ns;              /* the modelled device clock (profiling) */
    /* the L2's lines its kernels and transfers leave for the next kernel
     * (memory.l2.keep_across_launches), made at its first kernel */
    sgemu_cache_state *caches;
};

struct _cl_context {
    icd_head h;
    cl_uint ndev;
    cl_device_id *devs;
    cl_context_properties props[8];
    size_t nprops;
    void(CL_CALLBACK *notify)(const char *, const void *, size_t, void *);
    void *notify_user;
};

typedef struct icd_cmd icd_cmd;

struct _cl_command_queue {
    icd_head h;
    cl_context ctx;
    cl_device_id dev;
    cl_command_queue_properties props;
    uint32_t npending;              /* commands waiting for events (user events) */
};

struct _cl_mem {
    icd_head h;
    cl_context ctx;
    cl_mem_object_type type;
    cl_mem_flags flags;
    size_t size;
    uint8_t *data;                  /* storage (host_ptr for USE_HOST_PTR) */
    bool owns_data;
    void *host_ptr;
    cl_mem parent;                  /* sub-buffers */
    size_t origin;
    uint32_t maps;                  /* outstanding maps */
    bool mapped_for_write;          /* a map since the last unmap may write */
    uint64_t cache_id;              /* the buffer's identity in the device's
                                       cache state (a sub-buffer: its parent's) */
    /* images */
    cl_image_format format;
    sgemu_image img;                /* img.data == data */
    size_t row_pitch;
    struct icd_destructor *dtors;
};

struct _cl_sampler {
    icd_head h;
    cl_context ctx;
    cl_bool normalized;
    cl_addressing_mode addressing;
    cl_filter_mode filter;
};

/* One kernel of a built program. */
typedef struct icd_entry {
    isa_kernel k;
    bool args_unnamed;
} icd_entry;

/* A program's program-scope global variables on one device: one block
 * that every launch of the program's kernels there binds, so values
 * persist between launches and kernels (OpenCL C 2.0, 6.5.1 / 6.8).  The
 * kernels of one module lay the block out alike (isa/spirv/spirv_globaldata.c). */
typedef struct icd_globals {
    struct icd_globals *next;
    cl_device_id dev;
    uint8_t *data;
    uint32_t bytes;
} icd_globals;

struct _cl_program {
    icd_head h;
    cl_context ctx;
    char *source;                   /* clCreateProgramWithSource */
    uint8_t *il;                    /* SPIR-V (given, or built from source) */
    size_t il_len;
    char *options;
    char *log;
    cl_build_status status;
    cl_program_binary_type binary_type;
    uint32_t nentry;
    icd_entry *entries;
    char *kernel_names;             /* "a;b;c" */
    atomic_uint kernels;            /* kernel objects alive */
    icd_globals *globals;           /* filled at each device's first launch */
};

/* One argument as clSetKernelArg gave it. */
typedef struct icd_arg {
    bool set;
    cl_mem mem;                     /* buffers and images (NULL: a null pointer) */
    size_t local_bytes;
    uint64_t scalar;
    uint8_t *bytes;                 /* by-value vectors and structs */
    size_t nbytes;
} icd_arg;

struct _cl_kernel {
    icd_head h;
    cl_program prog;
    const icd_entry *e;
    icd_arg args[ISA_MAX_ARGS];
};

/* Callbacks registered on an event. */
typedef struct icd_callback {
    struct icd_callback *next;
    cl_int when;
    void(CL_CALLBACK *fn)(cl_event, cl_int, void *);
    void *user;
} icd_callback;

struct _cl_event {
    icd_head h;
    cl_context ctx;
    cl_command_queue queue;         /* NULL for user events */
    cl_command_type type;
    atomic_int status;
    cl_ulong prof[4];               /* queued, submit, start, end (ns) */
    uint64_t run_ns;                /* modelled duration, set by the command */
    bool untimed;                   /* a kernel run without the timing model (run_ns 0) */
    icd_callback *callbacks;
};

typedef struct icd_destructor {
    struct icd_destructor *next;
    void(CL_CALLBACK *fn)(cl_mem, void *);
    void *user;
} icd_destructor;

/* A command: runs now when the events it waits for are complete, else
 * later, in queue order, when they complete (icd_progress). */
struct icd_cmd {
    icd_cmd *next;
    cl_command_queue q;
    cl_event ev;                    /* always made; handed out or released */
    cl_uint nwait;
    cl_event *wait;                 /* retained */
    cl_int (*run)(icd_cmd *c);      /* CL_SUCCESS or a negative status */
    void (*done)(icd_cmd *c);       /* frees what run used (may be NULL) */
    void *payload;
};

/* ---- shared helpers ---- */

/* Copy an info value out the OpenCL way (size checks, NULL value allowed). */
cl_int icd_info(size_t size, void *value, size_t *size_ret, const void *src, size_t n);
#define ICD_INFO(T, v) \
    do { T icd_v_ = (v); return icd_info(param_value_size, param_value, param_value_size_ret, \
                                         &icd_v_, sizeof icd_v_); } while (0)
#define ICD_INFO_STR(s) \
    do { const char *icd_s_ = (s); return icd_info(param_value_size, param_value, \
                                                  param_value_size_ret, icd_s_, \
                                                  strlen(icd_s_) + 1); } while (0)

bool icd_valid(const void *obj, icd_kind kind);
void icd_init_head(icd_head *h, icd_kind kind);

/* Global lock around queue and event state (recursive: callbacks may call in). */
void icd_lock(void);
void icd_unlock(void);

/* platform.c */
extern struct _cl_platform_id icd_platform;
cl_uint icd_device_count(void);
cl_device_id icd_device(cl_uint i);
bool icd_timing_enabled(void);
uint32_t icd_sg_override(void);
bool icd_check_enabled(void);
const char *icd_record_dir(void);

/* event.c */
cl_event icd_event_new(cl_context ctx, cl_command_queue q, cl_command_type type);
void icd_event_set_status(cl_event e, cl_int status);
void icd_event_release(cl_event e);
cl_int icd_check_wait_list(cl_context ctx, cl_uint n, const cl_event *list);
/* Submit a command built by the enqueue functions (takes c); blocking: wait
 * for it.  Hands the event out through *event or releases it. */
cl_int icd_submit(icd_cmd *c, cl_command_queue q, cl_uint nwait, const cl_event *wait,
                  cl_event *event, bool blocking);
icd_cmd *icd_cmd_new(cl_command_queue q, cl_command_type type);
cl_int icd_wait(cl_uint n, const cl_event *list);
bool icd_queue_valid(cl_command_queue q);

/* memory.c */
void icd_mem_retain(cl_mem m);
void icd_mem_release(cl_mem m);
bool icd_is_image(cl_mem m);
/* The identity of buffer m in a device's cache state and the offset of its
 * first byte there (a sub-buffer's origin in its parent). */
uint64_t icd_mem_cache_id(cl_mem m, uint64_t *offset);
/* Bytes [offset, offset + bytes) of buffer m were written on device d by a
 * device-side fill or copy (device) or by the host: its cache state
 * learns of it (docs/opencl-platform.md). */
void icd_cache_written(cl_device_id d, cl_mem m, size_t offset, size_t bytes, bool device);
/* Image limits: OpenCL 3.0's full-profile minimums for a device with
 * images (CL_DEVICE_IMAGE2D_MAX_WIDTH / _HEIGHT, IMAGE3D_MAX_*,
 * IMAGE_MAX_BUFFER_SIZE in texels, IMAGE_MAX_ARRAY_SIZE). */
#define ICD_IMAGE2D_MAX 16384
#define ICD_IMAGE3D_MAX 2048
#define ICD_IMAGE_BUFFER_MAX 65536
#define ICD_IMAGE_ARRAY_MAX 2048

/* program.c */
void icd_program_release(cl_program p);

/* launch.c */
void icd_stats_flush(void);

/* The API: one row per entry point sgemu implements; icd_Name implements
 * clName with the loader's prototype.  The functions have hidden visibility
 * (only the loader's entry points are exported), so the loader's own clName
 * exports can never be bound in their place; dispatch.c fills the table. */
#define ICD_API(X) \
    X(GetPlatformIDs) X(GetPlatformInfo) X(GetDeviceIDs) X(GetDeviceInfo) \
    X(CreateSubDevices) X(RetainDevice) X(ReleaseDevice) X(GetDeviceAndHostTimer) \
    X(GetHostTimer) \
    X(CreateContext) X(CreateContextFromType) X(RetainContext) X(ReleaseContext) \
    X(GetContextInfo) \
    X(CreateCommandQueue) X(CreateCommandQueueWithProperties) X(RetainCommandQueue) \
    X(ReleaseCommandQueue) X(GetCommandQueueInfo) X(SetCommandQueueProperty) X(Flush) \
    X(Finish) \
    X(CreateBuffer) X(CreateBufferWithProperties) X(CreateSubBuffer) X(CreateImage) \
    X(CreateImage2D) X(CreateImageWithProperties) X(RetainMemObject) \
    X(ReleaseMemObject) X(GetSupportedImageFormats) X(GetMemObjectInfo) X(GetImageInfo) \
    X(SetMemObjectDestructorCallback) \
    X(CreateSampler) X(CreateSamplerWithProperties) X(RetainSampler) X(ReleaseSampler) \
    X(GetSamplerInfo) \
    X(CreateProgramWithSource) X(CreateProgramWithBinary) X(CreateProgramWithIL) \
    X(CreateProgramWithBuiltInKernels) X(RetainProgram) X(ReleaseProgram) \
    X(BuildProgram) X(CompileProgram) X(LinkProgram) X(UnloadCompiler) \
    X(UnloadPlatformCompiler) X(GetProgramInfo) X(GetProgramBuildInfo) \
    X(CreateKernel) X(CreateKernelsInProgram) X(RetainKernel) X(ReleaseKernel) \
    X(SetKernelArg) X(GetKernelInfo) X(GetKernelWorkGroupInfo) X(GetKernelArgInfo) \
    X(GetKernelSubGroupInfo) X(GetKernelSubGroupInfoKHR) X(CloneKernel) \
    X(SetKernelExecInfo) \
    X(WaitForEvents) X(GetEventInfo) X(RetainEvent) X(ReleaseEvent) \
    X(GetEventProfilingInfo) X(CreateUserEvent) X(SetUserEventStatus) \
    X(SetEventCallback) \
    X(EnqueueReadBuffer) X(EnqueueWriteBuffer) X(EnqueueCopyBuffer) \
    X(EnqueueReadBufferRect) X(EnqueueWriteBufferRect) X(EnqueueCopyBufferRect) \
    X(EnqueueFillBuffer) X(EnqueueMapBuffer) X(EnqueueUnmapMemObject) \
    X(EnqueueReadImage) X(EnqueueWriteImage) X(EnqueueCopyImage) X(EnqueueFillImage) \
    X(EnqueueCopyImageToBuffer) X(EnqueueCopyBufferToImage) X(EnqueueMapImage) \
    X(EnqueueMigrateMemObjects) \
    X(EnqueueNDRangeKernel) X(EnqueueTask) X(EnqueueMarker) \
    X(EnqueueMarkerWithWaitList) X(EnqueueBarrier) X(EnqueueBarrierWithWaitList) \
    X(EnqueueWaitForEvents) X(GetExtensionFunctionAddress) \
    X(GetExtensionFunctionAddressForPlatform)

#define X(name) __typeof__(*(cl_api_cl##name)0) icd_##name;
ICD_API(X)
#undef X

#endif
