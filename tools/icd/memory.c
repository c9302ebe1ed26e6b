/* memory.c - buffers, sub-buffers, images (every OpenCL type) and samplers.  A buffer's
 * bytes live on the host (CL_MEM_USE_HOST_PTR: in the application's memory)
 * and are handed to the engine in place, so maps are zero-copy. */
#include "icd.h"

#include <stdlib.h>
#include <string.h>

#define ICD_ALIGN 128

static const cl_mem_flags access_flags =
    CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
static const cl_mem_flags host_flags =
    CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;
static const cl_mem_flags ptr_flags =
    CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR;

static int popcount(cl_mem_flags f)
{
    return __builtin_popcountll((unsigned long long)f);
}

static cl_int check_flags(cl_mem_flags flags, void *host_ptr)
{
    if (flags & ~(access_flags | host_flags | ptr_flags | CL_MEM_KERNEL_READ_AND_WRITE))
        return CL_INVALID_VALUE;
    if (popcount(flags & access_flags) > 1 || popcount(flags & host_flags) > 1)
        return CL_INVALID_VALUE;
    if ((flags & CL_MEM_USE_HOST_PTR) && (flags & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)))
        return CL_INVALID_VALUE;
    if (!host_ptr != !(flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR)))
        return CL_INVALID_HOST_PTR;
    return CL_SUCCESS;
}

static cl_mem mem_new(cl_context ctx, cl_mem_object_type type, cl_mem_flags flags, size_t size,
                      void *host_ptr, cl_int *err)
{
    cl_mem m = calloc(1, sizeof *m);
    if (!m) {
        *err = CL_OUT_OF_HOST_MEMORY;
        return NULL;
    }
    icd_init_head(&m->h, ICD_MEM);
    static _Atomic uint64_t next_cache_id = 1;     /* never reused: ids outlive buffers */
    m->cache_id = atomic_fetch_add(&next_cache_id, 1);
    m->ctx = ctx;
    m->type = type;
    m->flags = flags & access_flags ? flags : flags | CL_MEM_READ_WRITE;
    m->size = size;
    if (flags & CL_MEM_USE_HOST_PTR) {
        m->data = host_ptr;
        m->host_ptr = host_ptr;
    } else {
        size_t n = (size + ICD_ALIGN - 1) / ICD_ALIGN * ICD_ALIGN;
        m->data = aligned_alloc(ICD_ALIGN, n ? n : ICD_ALIGN);
        if (!m->data) {
            free(m);
            *err = CL_MEM_OBJECT_ALLOCATION_FAILURE;
            return NULL;
        }
        m->owns_data = true;
        if ((flags & CL_MEM_COPY_HOST_PTR) && host_ptr)
            memcpy(m->data, host_ptr, size);
        else
            memset(m->data, 0, n ? n : ICD_ALIGN);
    }
    icd_RetainContext(ctx);
    *err = CL_SUCCESS;
    return m;
}

static cl_mem create_buffer(cl_context context, const cl_mem_properties *props,
                            cl_mem_flags flags, size_t size, void *host_ptr, cl_int *errcode_ret)
{
    cl_int rc = CL_SUCCESS;
    cl_mem m = NULL;
    if (!icd_valid(context, ICD_CONTEXT))
        rc = CL_INVALID_CONTEXT;
    else if (props && props[0])
        rc = CL_INVALID_PROPERTY;
    else if (size == 0 || size > ((size_t)1 << 30))
        rc = CL_INVALID_BUFFER_SIZE;
    else
        rc = check_flags(flags, host_ptr);
    if (!rc)
        m = mem_new(context, CL_MEM_OBJECT_BUFFER, flags, size, host_ptr, &rc);
    if (errcode_ret)
        *errcode_ret = rc;
    return m;
}

cl_mem icd_CreateBuffer(cl_context context, cl_mem_flags flags, size_t size, void *host_ptr,
                        cl_int *errcode_ret)
{
    return create_buffer(context, NULL, flags, size, host_ptr, errcode_ret);
}

cl_mem icd_CreateBufferWithProperties(cl_context context, const cl_mem_properties *properties,
                                      cl_mem_flags flags, size_t size, void *host_ptr,
                                      cl_int *errcode_ret)
{
    return create_buffer(context, properties, flags, size, host_ptr, errcode_ret);
}

cl_mem icd_CreateSubBuffer(cl_mem buffer, cl_mem_flags flags,
                           cl_buffer_create_type buffer_create_type,
                           const void *buffer_create_info, cl_int *errcode_ret)
{
    cl_int rc = CL_SUCCESS;
    const cl_buffer_region *r = buffer_create_info;
    if (!icd_valid(buffer, ICD_MEM) || buffer->type != CL_MEM_OBJECT_BUFFER || buffer->parent)
        rc = CL_INVALID_MEM_OBJECT;
    else if (buffer_create_type != CL_BUFFER_CREATE_TYPE_REGION || !r)
        rc = CL_INVALID_VALUE;
    else if ((flags & (ptr_flags | ~(access_flags | host_flags))) ||
             popcount(flags & access_flags) > 1 || popcount(flags & host_flags) > 1)
        rc = CL_INVALID_VALUE;
    else if (((buffer->flags & CL_MEM_WRITE_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY))) ||
             ((buffer->flags & CL_MEM_READ_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY))))
        rc = CL_INVALID_VALUE;
    else if (r->size == 0)
        rc = CL_INVALID_BUFFER_SIZE;
    else if (r->origin > buffer->size || r->size > buffer->size - r->origin)
        rc = CL_INVALID_VALUE;
    else if (r->origin % 128)         /* CL_DEVICE_MEM_BASE_ADDR_ALIGN: 1024 bits */
        rc = CL_MISALIGNED_SUB_BUFFER_OFFSET;
    cl_mem m = rc ? NULL : calloc(1, sizeof *m);
    if (!rc && !m)
        rc = CL_OUT_OF_HOST_MEMORY;
    if (errcode_ret)
        *errcode_ret = rc;
    if (rc)
        return NULL;
    icd_init_head(&m->h, ICD_MEM);
    m->ctx = buffer->ctx;
    m->type = CL_MEM_OBJECT_BUFFER;
    m->flags = (flags & access_flags ? flags : flags | (buffer->flags & access_flags)) |
               (buffer->flags & ptr_flags);
    if (!(flags & host_flags))
        m->flags |= buffer->flags & host_flags;
    m->size = r->size;
    m->data = buffer->data + r->origin;
    m->host_ptr = buffer->host_ptr ? (uint8_t *)buffer->host_ptr + r->origin : NULL;
    m->parent = buffer;
    m->origin = r->origin;
    icd_mem_retain(buffer);
    icd_RetainContext(m->ctx);
    return m;
}

/* ---- images ---- */

static int channel_order(cl_channel_order o)
{
    switch (o) {
    case CL_R: return SGEMU_ORDER_R;
    case CL_RG: return SGEMU_ORDER_RG;
    case CL_RGBA: return SGEMU_ORDER_RGBA;
    case CL_BGRA: return SGEMU_ORDER_BGRA;
    default: return -1;
    }
}

static int channel_type(cl_channel_type t)
{
    switch (t) {
    case CL_UNSIGNED_INT8: return SGEMU_CHTYPE_UNSIGNED_INT8;
    case CL_UNSIGNED_INT16: return SGEMU_CHTYPE_UNSIGNED_INT16;
    case CL_UNSIGNED_INT32: return SGEMU_CHTYPE_UNSIGNED_INT32;
    case CL_SIGNED_INT8: return SGEMU_CHTYPE_SIGNED_INT8;
    case CL_SIGNED_INT16: return SGEMU_CHTYPE_SIGNED_INT16;
    case CL_SIGNED_INT32: return SGEMU_CHTYPE_SIGNED_INT32;
    case CL_UNORM_INT8: return SGEMU_CHTYPE_UNORM_INT8;
    case CL_UNORM_INT16: return SGEMU_CHTYPE_UNORM_INT16;
    case CL_HALF_FLOAT: return SGEMU_CHTYPE_HALF_FLOAT;
    case CL_FLOAT: return SGEMU_CHTYPE_FLOAT;
    case CL_SNORM_INT8: return SGEMU_CHTYPE_SNORM_INT8;
    case CL_SNORM_INT16: return SGEMU_CHTYPE_SNORM_INT16;
    default: return -1;
    }
}

/* OpenCL allows CL_BGRA with 8-bit channels only. */
static bool format_valid(int order, cl_channel_type t)
{
    return order != SGEMU_ORDER_BGRA || t == CL_UNORM_INT8 || t == CL_SNORM_INT8 ||
           t == CL_SIGNED_INT8 || t == CL_UNSIGNED_INT8;
}

bool icd_is_image(cl_mem m)
{
    switch (m->type) {
    case CL_MEM_OBJECT_IMAGE1D: case CL_MEM_OBJECT_IMAGE1D_BUFFER:
    case CL_MEM_OBJECT_IMAGE1D_ARRAY: case CL_MEM_OBJECT_IMAGE2D:
    case CL_MEM_OBJECT_IMAGE2D_ARRAY: case CL_MEM_OBJECT_IMAGE3D:
        return true;
    default:
        return false;
    }
}

/* The engine's geometry of an image type: coordinates besides the layer,
 * arrayed, a buffer's view (isa.h, ISA_IMAGE_TYPES); false for other
 * types. */
static bool image_type_geometry(cl_mem_object_type t, uint8_t *dims, uint8_t *arrayed,
                                uint8_t *buffer)
{
    *arrayed = t == CL_MEM_OBJECT_IMAGE1D_ARRAY || t == CL_MEM_OBJECT_IMAGE2D_ARRAY;
    *buffer = t == CL_MEM_OBJECT_IMAGE1D_BUFFER;
    switch (t) {
    case CL_MEM_OBJECT_IMAGE1D: case CL_MEM_OBJECT_IMAGE1D_BUFFER:
    case CL_MEM_OBJECT_IMAGE1D_ARRAY: *dims = 1; return true;
    case CL_MEM_OBJECT_IMAGE2D: case CL_MEM_OBJECT_IMAGE2D_ARRAY: *dims = 2; return true;
    case CL_MEM_OBJECT_IMAGE3D: *dims = 3; return true;
    default: return false;
    }
}

/* The flags of a 1D image buffer over buffer b (clCreateImage: the image
 * inherits the access and host flags its own flags leave out, may not
 * widen them, and takes no host pointer flags): CL_SUCCESS or the error. */
static cl_int buffer_image_flags(cl_mem b, cl_mem_flags flags, cl_mem_flags *out)
{
    if ((flags & ptr_flags) || popcount(flags & access_flags) > 1 ||
        popcount(flags & host_flags) > 1 ||
        (flags & ~(access_flags | host_flags | CL_MEM_KERNEL_READ_AND_WRITE)))
        return CL_INVALID_VALUE;
    if (((b->flags & CL_MEM_WRITE_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY))) ||
        ((b->flags & CL_MEM_READ_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY))) ||
        ((b->flags & CL_MEM_HOST_WRITE_ONLY) && (flags & CL_MEM_HOST_READ_ONLY)) ||
        ((b->flags & CL_MEM_HOST_READ_ONLY) && (flags & CL_MEM_HOST_WRITE_ONLY)) ||
        ((b->flags & CL_MEM_HOST_NO_ACCESS) &&
         (flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY))))
        return CL_INVALID_VALUE;
    *out = (flags & access_flags ? flags : flags | (b->flags & access_flags)) |
           (flags & host_flags ? 0 : b->flags & host_flags) | (b->flags & ptr_flags);
    return CL_SUCCESS;
}

/* An image's sizes against the device's limits (OpenCL 3.0 full-profile
 * minimums; docs/opencl-platform.md). */
static bool image_size_ok(const cl_image_desc *d)
{
    const size_t w = d->image_width, h = d->image_height;
    switch (d->image_type) {
    case CL_MEM_OBJECT_IMAGE1D: return w && w <= ICD_IMAGE2D_MAX;
    case CL_MEM_OBJECT_IMAGE1D_BUFFER: return w && w <= ICD_IMAGE_BUFFER_MAX;
    case CL_MEM_OBJECT_IMAGE1D_ARRAY:
        return w && w <= ICD_IMAGE2D_MAX && d->image_array_size &&
               d->image_array_size <= ICD_IMAGE_ARRAY_MAX;
    case CL_MEM_OBJECT_IMAGE2D: return w && h && w <= ICD_IMAGE2D_MAX && h <= ICD_IMAGE2D_MAX;
    case CL_MEM_OBJECT_IMAGE2D_ARRAY:
        return w && h && w <= ICD_IMAGE2D_MAX && h <= ICD_IMAGE2D_MAX &&
               d->image_array_size && d->image_array_size <= ICD_IMAGE_ARRAY_MAX;
    default:
        return w && h && d->image_depth && w <= ICD_IMAGE3D_MAX && h <= ICD_IMAGE3D_MAX &&
               d->image_depth <= ICD_IMAGE3D_MAX;
    }
}

/* Every image type.  The engine's grid (sgemu.h, sgemu_image): width x
 * rows x slices, a 1D array's layers the rows and a 2D array's the
 * slices; so an image's (x, y, z) origin and region in the OpenCL calls
 * are its grid coordinates.  m->row_pitch is OpenCL's row pitch; a 1D
 * array's rows are img.pitch (its slice pitch) apart. */
static cl_mem create_image(cl_context context, cl_mem_flags flags, const cl_image_format *fmt,
                           const cl_image_desc *desc, void *host_ptr, cl_int *errcode_ret)
{
    cl_int rc = CL_SUCCESS;
    cl_mem m = NULL;
    int order = fmt ? channel_order(fmt->image_channel_order) : -1;
    int type = fmt ? channel_type(fmt->image_channel_data_type) : -1;
    uint8_t dims = 0, arrayed = 0, isbuf = 0;
    cl_mem buf = NULL;
    cl_mem_flags bflags = 0;
    if (!icd_valid(context, ICD_CONTEXT))
        rc = CL_INVALID_CONTEXT;
    else if (!fmt)
        rc = CL_INVALID_IMAGE_FORMAT_DESCRIPTOR;
    else if (!desc || !image_type_geometry(desc->image_type, &dims, &arrayed, &isbuf) ||
             desc->num_mip_levels || desc->num_samples)
        rc = CL_INVALID_IMAGE_DESCRIPTOR;
    else if (desc->mem_object && !isbuf)
        rc = desc->image_type == CL_MEM_OBJECT_IMAGE2D ? CL_IMAGE_FORMAT_NOT_SUPPORTED
                                                       : CL_INVALID_IMAGE_DESCRIPTOR;
    else if (isbuf && (!desc->mem_object || !icd_valid(desc->mem_object, ICD_MEM) ||
                       desc->mem_object->type != CL_MEM_OBJECT_BUFFER ||
                       desc->mem_object->ctx != context))
        rc = CL_INVALID_IMAGE_DESCRIPTOR;
    else if (order >= 0 && type >= 0 && !format_valid(order, fmt->image_channel_data_type))
        rc = CL_INVALID_IMAGE_FORMAT_DESCRIPTOR;
    else if (order < 0 || type < 0)
        rc = CL_IMAGE_FORMAT_NOT_SUPPORTED;
    else if (!image_size_ok(desc))
        rc = CL_INVALID_IMAGE_SIZE;
    else if (isbuf) {
        buf = desc->mem_object;
        rc = buffer_image_flags(buf, flags, &bflags);
        if (!rc && host_ptr)
            rc = CL_INVALID_HOST_PTR;
    } else
        rc = check_flags(flags, host_ptr);
    /* the grid: rows (a 1D array's layers) and slices (a 2D array's) */
    const size_t rows = dims == 1 ? (arrayed && !rc ? desc->image_array_size : 1)
                                  : rc ? 0 : desc->image_height;
    const size_t slices = rc ? 0 : dims == 3 ? desc->image_depth
                                 : arrayed && dims == 2 ? desc->image_array_size : 1;
    uint32_t eb = rc ? 0 : sgemu_image_elem_bytes((sgemu_channel_order)order,
                                                  (sgemu_channel_type)type);
    size_t pitch = rc ? 0 : desc->image_width * eb;
    if (!rc && isbuf && pitch > buf->size)
        rc = CL_INVALID_IMAGE_SIZE;
    if (!rc && desc->image_row_pitch) {
        if (!host_ptr || desc->image_row_pitch < pitch || desc->image_row_pitch % eb)
            rc = CL_INVALID_IMAGE_DESCRIPTOR;
        else
            pitch = desc->image_row_pitch;
    }
    /* OpenCL's slice pitch: a 3D slice, a 2D array's image, a 1D array's
     * image (one row) */
    const bool has_slices = dims == 3 || arrayed;
    size_t slice = rc ? 0 : dims == 1 ? pitch : pitch * desc->image_height;
    if (!rc && has_slices && desc->image_slice_pitch) {
        if (!host_ptr || desc->image_slice_pitch < slice || desc->image_slice_pitch % pitch)
            rc = CL_INVALID_IMAGE_DESCRIPTOR;
        else
            slice = desc->image_slice_pitch;
    }
    if (!rc) {
        /* USE_HOST_PTR keeps the application's pitches; otherwise packed.
         * In the grid a 1D array's rows are its slices. */
        const bool use = flags & CL_MEM_USE_HOST_PTR;
        const size_t row_in = dims == 1 && arrayed ? slice : pitch;
        const size_t packed = desc->image_width * eb;
        size_t grid_row = use ? row_in : packed;
        size_t grid_slice = use ? (dims == 1 ? grid_row : slice) : packed * rows;
        size_t bytes = grid_slice * (slices - 1) + grid_row * rows;
        if (isbuf) {
            m = calloc(1, sizeof *m);
            rc = m ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
            if (m) {
                icd_init_head(&m->h, ICD_MEM);
                m->ctx = context;
                m->type = CL_MEM_OBJECT_IMAGE1D_BUFFER;
                m->flags = bflags;
                m->size = packed;
                m->data = buf->data;          /* a view: the buffer's own bytes */
                m->host_ptr = NULL;
                m->parent = buf;              /* CL_MEM_ASSOCIATED_MEMOBJECT */
                icd_mem_retain(buf);
                icd_RetainContext(context);
            }
        } else {
            m = mem_new(context, desc->image_type, flags & ~(cl_mem_flags)CL_MEM_COPY_HOST_PTR,
                        bytes, use ? host_ptr : NULL, &rc);
        }
        if (m) {
            if ((flags & CL_MEM_COPY_HOST_PTR) && host_ptr && m->data) {
                m->flags |= CL_MEM_COPY_HOST_PTR;
                const size_t src_slice = dims == 1 ? row_in : slice;
                for (size_t z = 0; z < slices; z++)
                    for (size_t y = 0; y < rows; y++)
                        memcpy(m->data + z * grid_slice + y * grid_row,
                               (const uint8_t *)host_ptr + z * src_slice + y * row_in, packed);
            }
            if (!isbuf)
                m->host_ptr = host_ptr;
            m->format = *fmt;
            m->row_pitch = dims == 1 ? (use ? pitch : packed) : grid_row;
            m->img.width = (uint32_t)desc->image_width;
            m->img.height = (uint32_t)rows;
            m->img.pitch = (uint32_t)grid_row;
            m->img.dims = dims;
            m->img.arrayed = arrayed;
            m->img.buffer = isbuf;
            m->img.depth = (uint32_t)slices;
            m->img.slice_pitch = grid_slice;
            m->img.order = (uint8_t)order;
            m->img.chtype = (uint8_t)type;
            m->img.elem_bytes = eb;
            m->img.data = m->data;
        }
    }
    if (errcode_ret)
        *errcode_ret = rc;
    return m;
}

cl_mem icd_CreateImage(cl_context context, cl_mem_flags flags, const cl_image_format *image_format,
                       const cl_image_desc *image_desc, void *host_ptr, cl_int *errcode_ret)
{
    return create_image(context, flags, image_format, image_desc, host_ptr, errcode_ret);
}

cl_mem icd_CreateImageWithProperties(cl_context context, const cl_mem_properties *properties,
                                     cl_mem_flags flags, const cl_image_format *image_format,
                                     const cl_image_desc *image_desc, void *host_ptr,
                                     cl_int *errcode_ret)
{
    if (properties && properties[0]) {
        if (errcode_ret)
            *errcode_ret = CL_INVALID_PROPERTY;
        return NULL;
    }
    return create_image(context, flags, image_format, image_desc, host_ptr, errcode_ret);
}

cl_mem icd_CreateImage2D(cl_context context, cl_mem_flags flags,
                         const cl_image_format *image_format, size_t image_width,
                         size_t image_height, size_t image_row_pitch, void *host_ptr,
                         cl_int *errcode_ret)
{
    cl_image_desc d;
    memset(&d, 0, sizeof d);
    d.image_type = CL_MEM_OBJECT_IMAGE2D;
    d.image_width = image_width;
    d.image_height = image_height;
    d.image_row_pitch = image_row_pitch;
    return create_image(context, flags, image_format, &d, host_ptr, errcode_ret);
}

cl_int icd_GetSupportedImageFormats(cl_context context, cl_mem_flags flags,
                                    cl_mem_object_type image_type, cl_uint num_entries,
                                    cl_image_format *image_formats, cl_uint *num_image_formats)
{
    /* every pairing create_image accepts (docs/images.md, Formats) */
    static const cl_channel_order orders[] = { CL_R, CL_RG, CL_RGBA, CL_BGRA };
    static const cl_channel_type types[] = {
        CL_UNSIGNED_INT8, CL_UNSIGNED_INT16, CL_UNSIGNED_INT32, CL_SIGNED_INT8, CL_SIGNED_INT16,
        CL_SIGNED_INT32, CL_UNORM_INT8, CL_UNORM_INT16, CL_SNORM_INT8, CL_SNORM_INT16,
        CL_HALF_FLOAT, CL_FLOAT
    };
    if (!icd_valid(context, ICD_CONTEXT))
        return CL_INVALID_CONTEXT;
    if (num_entries == 0 && image_formats)
        return CL_INVALID_VALUE;
    cl_uint n = 0;
    /* every type, for every flag (3D writes: cl_khr_3d_image_writes) */
    (void)flags;
    uint8_t dims, arrayed, isbuf;
    if (!image_type_geometry(image_type, &dims, &arrayed, &isbuf))
        return CL_INVALID_VALUE;
    {
        for (size_t o = 0; o < sizeof orders / sizeof orders[0]; o++)
            for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
                if (!format_valid(channel_order(orders[o]), types[t]))
                    continue;
                if (image_formats && n < num_entries) {
                    image_formats[n].image_channel_order = orders[o];
                    image_formats[n].image_channel_data_type = types[t];
                }
                n++;
            }
    }
    if (num_image_formats)
        *num_image_formats = n;
    return CL_SUCCESS;
}

/* ---- reference counting and info ---- */

uint64_t icd_mem_cache_id(cl_mem m, uint64_t *offset)
{
    *offset = m->parent ? m->origin : 0;
    return m->parent ? m->parent->cache_id : m->cache_id;
}

void icd_cache_written(cl_device_id d, cl_mem m, size_t offset, size_t bytes, bool device)
{
    if (!d->caches || icd_is_image(m))
        return;
    uint64_t base, id = icd_mem_cache_id(m, &base);
    if (!device)
        sgemu_cache_host_write(d->caches, &d->cfg, id, base + offset, bytes);
    else if (sgemu_cache_device_write(d->caches, &d->cfg, id, base + offset, bytes))
        sgemu_cache_host_write(d->caches, &d->cfg, id, base + offset, bytes);
}

void icd_mem_retain(cl_mem m)
{
    atomic_fetch_add(&m->h.refs, 1);
}

void icd_mem_release(cl_mem m)
{
    if (atomic_fetch_sub(&m->h.refs, 1) != 1)
        return;
    /* destructor callbacks run in reverse order of registration (a stack) */
    while (m->dtors) {
        icd_destructor *d = m->dtors;
        m->dtors = d->next;
        d->fn(m, d->user);
        free(d);
    }
    m->h.kind = 0;
    if (m->owns_data)
        free(m->data);
    if (m->parent)
        icd_mem_release(m->parent);
    icd_ReleaseContext(m->ctx);
    free(m);
}

cl_int icd_RetainMemObject(cl_mem memobj)
{
    if (!icd_valid(memobj, ICD_MEM))
        return CL_INVALID_MEM_OBJECT;
    icd_mem_retain(memobj);
    return CL_SUCCESS;
}

cl_int icd_ReleaseMemObject(cl_mem memobj)
{
    if (!icd_valid(memobj, ICD_MEM))
        return CL_INVALID_MEM_OBJECT;
    icd_mem_release(memobj);
    return CL_SUCCESS;
}

cl_int icd_SetMemObjectDestructorCallback(cl_mem memobj,
                                          void(CL_CALLBACK *pfn_notify)(cl_mem, void *),
                                          void *user_data)
{
    if (!icd_valid(memobj, ICD_MEM))
        return CL_INVALID_MEM_OBJECT;
    if (!pfn_notify)
        return CL_INVALID_VALUE;
    icd_destructor *d = calloc(1, sizeof *d);
    if (!d)
        return CL_OUT_OF_HOST_MEMORY;
    d->fn = pfn_notify;
    d->user = user_data;
    d->next = memobj->dtors;
    memobj->dtors = d;
    return CL_SUCCESS;
}

cl_int icd_GetMemObjectInfo(cl_mem memobj, cl_mem_info param_name, size_t param_value_size,
                            void *param_value, size_t *param_value_size_ret)
{
    cl_mem m = memobj;
    if (!icd_valid(m, ICD_MEM))
        return CL_INVALID_MEM_OBJECT;
    switch (param_name) {
    case CL_MEM_TYPE: ICD_INFO(cl_mem_object_type, m->type);
    case CL_MEM_FLAGS: ICD_INFO(cl_mem_flags, m->flags);
    case CL_MEM_SIZE: ICD_INFO(size_t, m->size);
    case CL_MEM_HOST_PTR: ICD_INFO(void *, m->flags & CL_MEM_USE_HOST_PTR ? m->host_ptr : NULL);
    case CL_MEM_MAP_COUNT: ICD_INFO(cl_uint, m->maps);
    case CL_MEM_REFERENCE_COUNT: ICD_INFO(cl_uint, atomic_load(&m->h.refs));
    case CL_MEM_CONTEXT: ICD_INFO(cl_context, m->ctx);
    case CL_MEM_ASSOCIATED_MEMOBJECT: ICD_INFO(cl_mem, m->parent);
    case CL_MEM_OFFSET: ICD_INFO(size_t, m->origin);
    case CL_MEM_USES_SVM_POINTER: ICD_INFO(cl_bool, CL_FALSE);
    case CL_MEM_PROPERTIES:
        return icd_info(param_value_size, param_value, param_value_size_ret, NULL, 0);
    default: return CL_INVALID_VALUE;
    }
}

cl_int icd_GetImageInfo(cl_mem image, cl_image_info param_name, size_t param_value_size,
                        void *param_value, size_t *param_value_size_ret)
{
    if (!icd_valid(image, ICD_MEM) || !icd_is_image(image))
        return CL_INVALID_MEM_OBJECT;
    switch (param_name) {
    case CL_IMAGE_FORMAT: ICD_INFO(cl_image_format, image->format);
    case CL_IMAGE_ELEMENT_SIZE: ICD_INFO(size_t, image->img.elem_bytes);
    case CL_IMAGE_ROW_PITCH: ICD_INFO(size_t, image->row_pitch);
    case CL_IMAGE_SLICE_PITCH:   /* 1D array: its rows are its images */
        ICD_INFO(size_t, image->img.dims == 1 && image->img.arrayed ? (size_t)image->img.pitch
                         : image->img.dims == 3 || image->img.arrayed
                             ? (size_t)image->img.slice_pitch : 0);
    case CL_IMAGE_WIDTH: ICD_INFO(size_t, image->img.width);
    case CL_IMAGE_HEIGHT: ICD_INFO(size_t, image->img.dims >= 2 ? image->img.height : 0);
    case CL_IMAGE_DEPTH: ICD_INFO(size_t, image->img.dims == 3 ? image->img.depth : 0);
    case CL_IMAGE_ARRAY_SIZE:
        ICD_INFO(size_t, !image->img.arrayed ? 0
                         : image->img.dims == 1 ? image->img.height : image->img.depth);
    case CL_IMAGE_BUFFER: ICD_INFO(cl_mem, image->img.buffer ? image->parent : NULL);
    case CL_IMAGE_NUM_MIP_LEVELS:
    case CL_IMAGE_NUM_SAMPLES: ICD_INFO(cl_uint, 0);
    default: return CL_INVALID_VALUE;
    }
}

/* ---- samplers: the kernel sees their OpenCL C sampler_t bits ---- */

static cl_sampler new_sampler(cl_context ctx, cl_bool norm, cl_addressing_mode am,
                              cl_filter_mode fm, cl_int *errcode_ret)
{
    cl_int rc = CL_SUCCESS;
    if (!icd_valid(ctx, ICD_CONTEXT))
        rc = CL_INVALID_CONTEXT;
    else if (am < CL_ADDRESS_NONE || am > CL_ADDRESS_MIRRORED_REPEAT ||
             (fm != CL_FILTER_NEAREST && fm != CL_FILTER_LINEAR))
        rc = CL_INVALID_VALUE;
    cl_sampler s = rc ? NULL : calloc(1, sizeof *s);
    if (!rc && !s)
        rc = CL_OUT_OF_HOST_MEMORY;
    if (errcode_ret)
        *errcode_ret = rc;
    if (!s)
        return NULL;
    icd_init_head(&s->h, ICD_SAMPLER);
    s->ctx = ctx;
    s->normalized = norm;
    s->addressing = am;
    s->filter = fm;
    icd_RetainContext(ctx);
    return s;
}

cl_sampler icd_CreateSampler(cl_context context, cl_bool normalized_coords,
                             cl_addressing_mode addressing_mode, cl_filter_mode filter_mode,
                             cl_int *errcode_ret)
{
    return new_sampler(context, normalized_coords, addressing_mode, filter_mode, errcode_ret);
}

cl_sampler icd_CreateSamplerWithProperties(cl_context context,
                                           const cl_sampler_properties *props,
                                           cl_int *errcode_ret)
{
    cl_bool norm = CL_TRUE;
    cl_addressing_mode am = CL_ADDRESS_CLAMP;
    cl_filter_mode fm = CL_FILTER_NEAREST;
    for (size_t i = 0; props && props[i]; i += 2) {
        if (props[i] == CL_SAMPLER_NORMALIZED_COORDS)
            norm = (cl_bool)props[i + 1];
        else if (props[i] == CL_SAMPLER_ADDRESSING_MODE)
            am = (cl_addressing_mode)props[i + 1];
        else if (props[i] == CL_SAMPLER_FILTER_MODE)
            fm = (cl_filter_mode)props[i + 1];
        else {
            if (errcode_ret)
                *errcode_ret = CL_INVALID_VALUE;
            return NULL;
        }
    }
    return new_sampler(context, norm, am, fm, errcode_ret);
}

cl_int icd_RetainSampler(cl_sampler sampler)
{
    if (!icd_valid(sampler, ICD_SAMPLER))
        return CL_INVALID_SAMPLER;
    atomic_fetch_add(&sampler->h.refs, 1);
    return CL_SUCCESS;
}

cl_int icd_ReleaseSampler(cl_sampler sampler)
{
    if (!icd_valid(sampler, ICD_SAMPLER))
        return CL_INVALID_SAMPLER;
    if (atomic_fetch_sub(&sampler->h.refs, 1) == 1) {
        sampler->h.kind = 0;
        icd_ReleaseContext(sampler->ctx);
        free(sampler);
    }
    return CL_SUCCESS;
}

cl_int icd_GetSamplerInfo(cl_sampler sampler, cl_sampler_info param_name,
                          size_t param_value_size, void *param_value,
                          size_t *param_value_size_ret)
{
    if (!icd_valid(sampler, ICD_SAMPLER))
        return CL_INVALID_SAMPLER;
    switch (param_name) {
    case CL_SAMPLER_REFERENCE_COUNT: ICD_INFO(cl_uint, atomic_load(&sampler->h.refs));
    case CL_SAMPLER_CONTEXT: ICD_INFO(cl_context, sampler->ctx);
    case CL_SAMPLER_NORMALIZED_COORDS: ICD_INFO(cl_bool, sampler->normalized);
    case CL_SAMPLER_ADDRESSING_MODE: ICD_INFO(cl_addressing_mode, sampler->addressing);
    case CL_SAMPLER_FILTER_MODE: ICD_INFO(cl_filter_mode, sampler->filter);
    case CL_SAMPLER_PROPERTIES:
        return icd_info(param_value_size, param_value, param_value_size_ret, NULL, 0);
    default: return CL_INVALID_VALUE;
    }
}
