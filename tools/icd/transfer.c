/* transfer.c - the commands that move bytes: buffer and image reads,
 * writes, copies, fills (rectangles included), maps and unmaps.  They cost
 * no modelled device time (docs/opencl-platform.md). */
#include "icd.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A rectangle copy or fill, with its pointers resolved at enqueue (buffer
 * storage never moves). */
typedef struct xfer {
    cl_mem mem[2];                  /* retained while the command lives */
    uint8_t *dst;
    const uint8_t *src;             /* NULL: fill with pattern */
    size_t region[3];               /* bytes, rows, slices */
    size_t dpitch[2], spitch[2];    /* row and slice pitches */
    uint8_t pattern[128];
    size_t pattern_size;
    int map_delta;                  /* map count change of mem[0] */
    /* what the device's cache state learns (icd_cache_written): bytes
     * [cache_off, cache_off + cache_len) of buffer mem[0] written */
    enum { CACHE_NONE, CACHE_HOST_WRITE, CACHE_DEVICE_WRITE } cache;
    size_t cache_off, cache_len;
} xfer;

static cl_int xfer_run(icd_cmd *c)
{
    xfer *x = c->payload;
    for (size_t z = 0; z < x->region[2]; z++)
        for (size_t y = 0; y < x->region[1]; y++) {
            uint8_t *d = x->dst + z * x->dpitch[1] + y * x->dpitch[0];
            if (x->src) {
                memmove(d, x->src + z * x->spitch[1] + y * x->spitch[0], x->region[0]);
            } else {
                for (size_t i = 0; i < x->region[0]; i += x->pattern_size)
                    memcpy(d + i, x->pattern, x->pattern_size);
            }
        }
    if (x->map_delta < 0 && x->mem[0]->maps)
        x->mem[0]->maps--;
    if (x->cache != CACHE_NONE)
        icd_cache_written(c->q->dev, x->mem[0], x->cache_off, x->cache_len,
                          x->cache == CACHE_DEVICE_WRITE);
    return CL_SUCCESS;
}

static void xfer_done(icd_cmd *c)
{
    xfer *x = c->payload;
    for (int i = 0; i < 2; i++)
        if (x->mem[i])
            icd_mem_release(x->mem[i]);
    free(x);
}

/* The checks every transfer makes, then a command with an xfer payload. */
static cl_int start(cl_command_queue q, cl_command_type type, cl_uint nwait,
                    const cl_event *wait, icd_cmd **out, xfer **xo)
{
    if (!icd_queue_valid(q))
        return CL_INVALID_COMMAND_QUEUE;
    cl_int rc = icd_check_wait_list(q->ctx, nwait, wait);
    if (rc)
        return rc;
    icd_cmd *c = icd_cmd_new(q, type);
    xfer *x = c ? calloc(1, sizeof *x) : NULL;
    if (!x) {
        if (c)
            icd_event_release(c->ev);
        free(c);
        return CL_OUT_OF_HOST_MEMORY;
    }
    x->region[0] = x->region[1] = x->region[2] = 1;
    c->payload = x;
    c->run = xfer_run;
    c->done = xfer_done;
    *out = c;
    *xo = x;
    return CL_SUCCESS;
}

static void drop(icd_cmd *c)
{
    xfer_done(c);
    icd_event_release(c->ev);
    free(c);
}

static void hold(xfer *x, int i, cl_mem m)
{
    x->mem[i] = m;
    icd_mem_retain(m);
}

static cl_int check_mem(cl_command_queue q, cl_mem m, bool image)
{
    if (!icd_valid(m, ICD_MEM) || icd_is_image(m) != image)
        return CL_INVALID_MEM_OBJECT;
    if (m->ctx != q->ctx)
        return CL_INVALID_CONTEXT;
    return CL_SUCCESS;
}

static bool in_range(size_t off, size_t n, size_t size)
{
    return off <= size && n <= size - off;
}

/* A read (buffer to host) or write (host to buffer) of one byte range; the
 * buffer's host-access flags must allow the direction. */
static cl_int host_copy(cl_command_queue q, cl_command_type type, cl_mem buffer, size_t offset,
                        size_t size, uint8_t *hdst, const uint8_t *hsrc, bool blocking,
                        cl_uint nwait, const cl_event *wait, cl_event *event)
{
    const bool write = type == CL_COMMAND_WRITE_BUFFER;
    const cl_mem_flags denied = CL_MEM_HOST_NO_ACCESS |
                                (write ? CL_MEM_HOST_READ_ONLY : CL_MEM_HOST_WRITE_ONLY);
    icd_cmd *c;
    xfer *x;
    cl_int rc = start(q, type, nwait, wait, &c, &x);
    if (rc)
        return rc;
    if ((rc = check_mem(q, buffer, false)) == CL_SUCCESS) {
        if (!(write ? (const void *)hsrc : hdst) || !size || !in_range(offset, size, buffer->size))
            rc = CL_INVALID_VALUE;
        else if (buffer->flags & denied)
            rc = CL_INVALID_OPERATION;
    }
    if (rc) {
        drop(c);
        return rc;
    }
    hold(x, 0, buffer);
    x->dst = write ? buffer->data + offset : hdst;
    x->src = write ? hsrc : buffer->data + offset;
    x->region[0] = size;
    if (write) {
        x->cache = CACHE_HOST_WRITE;
        x->cache_off = offset;
        x->cache_len = size;
    }
    return icd_submit(c, q, nwait, wait, event, blocking);
}

cl_int icd_EnqueueReadBuffer(cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_read,
                             size_t offset, size_t size, void *ptr,
                             cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                             cl_event *event)
{
    return host_copy(command_queue, CL_COMMAND_READ_BUFFER, buffer, offset, size, ptr, NULL,
                     blocking_read, num_events_in_wait_list, event_wait_list, event);
}

cl_int icd_EnqueueWriteBuffer(cl_command_queue command_queue, cl_mem buffer,
                              cl_bool blocking_write, size_t offset, size_t size, const void *ptr,
                              cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                              cl_event *event)
{
    return host_copy(command_queue, CL_COMMAND_WRITE_BUFFER, buffer, offset, size, NULL, ptr,
                     blocking_write, num_events_in_wait_list, event_wait_list, event);
}

static bool overlap(const uint8_t *a, const uint8_t *b, size_t n)
{
    return a < b + n && b < a + n;
}

cl_int icd_EnqueueCopyBuffer(cl_command_queue command_queue, cl_mem src_buffer,
                             cl_mem dst_buffer, size_t src_offset, size_t dst_offset, size_t size,
                             cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                             cl_event *event)
{
    icd_cmd *c;
    xfer *x;
    cl_int rc = start(command_queue, CL_COMMAND_COPY_BUFFER, num_events_in_wait_list,
                      event_wait_list, &c, &x);
    if (rc)
        return rc;
    if (!(rc = check_mem(command_queue, src_buffer, false)) &&
        !(rc = check_mem(command_queue, dst_buffer, false))) {
        if (!size || !in_range(src_offset, size, src_buffer->size) ||
            !in_range(dst_offset, size, dst_buffer->size))
            rc = CL_INVALID_VALUE;
        else if (overlap(src_buffer->data + src_offset, dst_buffer->data + dst_offset, size))
            rc = CL_MEM_COPY_OVERLAP;
    }
    if (rc) {
        drop(c);
        return rc;
    }
    hold(x, 0, dst_buffer);
    hold(x, 1, src_buffer);
    x->dst = dst_buffer->data + dst_offset;
    x->src = src_buffer->data + src_offset;
    x->region[0] = size;
    x->cache = CACHE_DEVICE_WRITE;
    x->cache_off = dst_offset;
    x->cache_len = size;
    return icd_submit(c, command_queue, num_events_in_wait_list, event_wait_list, event, false);
}

cl_int icd_EnqueueFillBuffer(cl_command_queue command_queue, cl_mem buffer, const void *pattern,
                             size_t pattern_size, size_t offset, size_t size,
                             cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                             cl_event *event)
{
    icd_cmd *c;
    xfer *x;
    cl_int rc = start(command_queue, CL_COMMAND_FILL_BUFFER, num_events_in_wait_list,
                      event_wait_list, &c, &x);
    if (rc)
        return rc;
    if ((rc = check_mem(command_queue, buffer, false)) == CL_SUCCESS) {
        bool pow2 = pattern_size && !(pattern_size & (pattern_size - 1));
        if (!pattern || !pow2 || pattern_size > 128 || !in_range(offset, size, buffer->size) ||
            offset % pattern_size || size % pattern_size)
            rc = CL_INVALID_VALUE;
    }
    if (rc) {
        drop(c);
        return rc;
    }
    hold(x, 0, buffer);
    x->dst = buffer->data + offset;
    x->region[0] = size;
    x->cache = CACHE_DEVICE_WRITE;
    x->cache_off = offset;
    x->cache_len = size;
    memcpy(x->pattern, pattern, pattern_size);
    x->pattern_size = pattern_size;
    return icd_submit(c, command_queue, num_events_in_wait_list, event_wait_list, event, false);
}

/* Rectangles: pitches default to packed rows and slices; the last byte
 * touched must be inside the buffer. */
static cl_int rect_side(const size_t origin[3], const size_t region[3], size_t *row, size_t *slice,
                        size_t size, size_t *off)
{
    if (!*row)
        *row = region[0];
    if (!*slice)
        *slice = region[1] * *row;
    if (*row < region[0] || *slice < region[1] * *row || *slice % *row)
        return CL_INVALID_VALUE;
    *off = origin[2] * *slice + origin[1] * *row + origin[0];
    size_t last = (region[2] - 1) * *slice + (region[1] - 1) * *row + region[0];
    return in_range(*off, last, size) ? CL_SUCCESS : CL_INVALID_VALUE;
}

static cl_int rect(cl_command_queue q, cl_command_type type, cl_mem dmem, cl_mem smem,
                   uint8_t *hdst, const uint8_t *hsrc, const size_t *dorig, const size_t *sorig,
                   const size_t *region, size_t drow, size_t dslice, size_t srow, size_t sslice,
                   bool blocking, cl_uint nwait, const cl_event *wait, cl_event *event)
{
    icd_cmd *c;
    xfer *x;
    cl_int rc = start(q, type, nwait, wait, &c, &x);
    if (rc)
        return rc;
    size_t doff = 0, soff = 0;
    if ((dmem && (rc = check_mem(q, dmem, false))) || (smem && (rc = check_mem(q, smem, false)))) {
        drop(c);
        return rc;
    }
    if (!region || !region[0] || !region[1] || !region[2] || !dorig || !sorig ||
        (!dmem && !hdst) || (!smem && !hsrc))
        rc = CL_INVALID_VALUE;
    if (!rc)
        rc = rect_side(dorig, region, &drow, &dslice, dmem ? dmem->size : SIZE_MAX, &doff);
    if (!rc)
        rc = rect_side(sorig, region, &srow, &sslice, smem ? smem->size : SIZE_MAX, &soff);
    if (!rc && dmem && smem == dmem && drow == srow && dslice == sslice) {
        /* same buffer: the two boxes must not meet */
        bool sep = false;
        for (int d = 0; d < 3; d++)
            sep |= dorig[d] + region[d] <= sorig[d] || sorig[d] + region[d] <= dorig[d];
        if (!sep)
            rc = CL_MEM_COPY_OVERLAP;
    } else if (!rc && dmem && smem == dmem) {
        rc = CL_INVALID_VALUE;
    }
    if (rc) {
        drop(c);
        return rc;
    }
    if (dmem)
        hold(x, 0, dmem);
    if (smem)
        hold(x, 1, smem);
    x->dst = (dmem ? dmem->data : hdst) + doff;
    x->src = (smem ? smem->data : hsrc) + soff;
    memcpy(x->region, region, sizeof x->region);
    if (dmem) {     /* a rectangle's lines: dropped, not written (its rows) */
        x->cache = CACHE_HOST_WRITE;
        x->cache_off = doff;
        x->cache_len = (region[2] - 1) * dslice + (region[1] - 1) * drow + region[0];
    }
    x->dpitch[0] = drow;
    x->dpitch[1] = dslice;
    x->spitch[0] = srow;
    x->spitch[1] = sslice;
    return icd_submit(c, q, nwait, wait, event, blocking);
}

cl_int icd_EnqueueReadBufferRect(cl_command_queue command_queue, cl_mem buffer,
                                 cl_bool blocking_read, const size_t *buffer_origin,
                                 const size_t *host_origin, const size_t *region,
                                 size_t buffer_row_pitch, size_t buffer_slice_pitch,
                                 size_t host_row_pitch, size_t host_slice_pitch, void *ptr,
                                 cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                 cl_event *event)
{
    if (icd_valid(buffer, ICD_MEM) &&
        (buffer->flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS)))
        return CL_INVALID_OPERATION;
    if (!icd_queue_valid(command_queue))
        return CL_INVALID_COMMAND_QUEUE;
    if (!icd_valid(buffer, ICD_MEM))
        return CL_INVALID_MEM_OBJECT;
    return rect(command_queue, CL_COMMAND_READ_BUFFER_RECT, NULL, buffer,
                ptr, NULL, host_origin, buffer_origin, region, host_row_pitch, host_slice_pitch,
                buffer_row_pitch, buffer_slice_pitch, blocking_read, num_events_in_wait_list,
                event_wait_list, event);
}

cl_int icd_EnqueueWriteBufferRect(cl_command_queue command_queue, cl_mem buffer,
                                  cl_bool blocking_write, const size_t *buffer_origin,
                                  const size_t *host_origin, const size_t *region,
                                  size_t buffer_row_pitch, size_t buffer_slice_pitch,
                                  size_t host_row_pitch, size_t host_slice_pitch,
                                  const void *ptr, cl_uint num_events_in_wait_list,
                                  const cl_event *event_wait_list, cl_event *event)
{
    if (icd_valid(buffer, ICD_MEM) &&
        (buffer->flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)))
        return CL_INVALID_OPERATION;
    if (!icd_queue_valid(command_queue))
        return CL_INVALID_COMMAND_QUEUE;
    if (!icd_valid(buffer, ICD_MEM))
        return CL_INVALID_MEM_OBJECT;
    return rect(command_queue, CL_COMMAND_WRITE_BUFFER_RECT, buffer, NULL,
                NULL, ptr, buffer_origin, host_origin, region, buffer_row_pitch,
                buffer_slice_pitch, host_row_pitch, host_slice_pitch, blocking_write,
                num_events_in_wait_list, event_wait_list, event);
}

cl_int icd_EnqueueCopyBufferRect(cl_command_queue command_queue, cl_mem src_buffer,
                                 cl_mem dst_buffer, const size_t *src_origin,
                                 const size_t *dst_origin, const size_t *region,
                                 size_t src_row_pitch, size_t src_slice_pitch,
                                 size_t dst_row_pitch, size_t dst_slice_pitch,
                                 cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                 cl_event *event)
{
    if (!icd_queue_valid(command_queue))
        return CL_INVALID_COMMAND_QUEUE;
    if (!icd_valid(src_buffer, ICD_MEM) || !icd_valid(dst_buffer, ICD_MEM))
        return CL_INVALID_MEM_OBJECT;
    return rect(command_queue, CL_COMMAND_COPY_BUFFER_RECT, dst_buffer, src_buffer, NULL, NULL, dst_origin, src_origin, region,
                dst_row_pitch, dst_slice_pitch, src_row_pitch, src_slice_pitch, false,
                num_events_in_wait_list, event_wait_list, event);
}

/* ---- maps: zero-copy, the command only orders ---- */

static void *map(cl_command_queue q, cl_command_type type, cl_mem m, bool image, bool blocking,
                 cl_map_flags flags, size_t offset, size_t size, cl_uint nwait,
                 const cl_event *wait, cl_event *event, cl_int *errcode_ret)
{
    icd_cmd *c;
    xfer *x;
    cl_int rc = start(q, type, nwait, wait, &c, &x);
    if (rc) {
        if (errcode_ret)
            *errcode_ret = rc;
        return NULL;
    }
    if (!(rc = check_mem(q, m, image))) {
        if (!in_range(offset, size, m->size) || (!image && !size) ||
            (flags & ~(cl_map_flags)(CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) ||
            ((flags & CL_MAP_WRITE_INVALIDATE_REGION) && (flags & (CL_MAP_READ | CL_MAP_WRITE))))
            rc = CL_INVALID_VALUE;
        else if (((flags & CL_MAP_READ) &&
                  (m->flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS))) ||
                 ((flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) &&
                  (m->flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS))))
            rc = CL_INVALID_OPERATION;
    }
    if (rc) {
        drop(c);
        if (errcode_ret)
            *errcode_ret = rc;
        return NULL;
    }
    hold(x, 0, m);
    x->region[0] = 0;
    x->dst = m->data;
    m->maps++;
    if (flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION))
        m->mapped_for_write = true;
    rc = icd_submit(c, q, nwait, wait, event, blocking);
    if (errcode_ret)
        *errcode_ret = rc;
    return rc ? NULL : m->data + offset;
}

void *icd_EnqueueMapBuffer(cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_map,
                           cl_map_flags map_flags, size_t offset, size_t size,
                           cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                           cl_event *event, cl_int *errcode_ret)
{
    return map(command_queue, CL_COMMAND_MAP_BUFFER, buffer, false, blocking_map, map_flags,
               offset, size, num_events_in_wait_list, event_wait_list, event, errcode_ret);
}

/* An image's (x, y, z) origin is its grid's (memory.c, create_image): a
 * 1D array's layer is a row, a 2D array's a slice. */
static size_t image_offset(cl_mem m, const size_t *origin)
{
    return origin[2] * (size_t)m->img.slice_pitch + origin[1] * m->img.pitch +
           origin[0] * m->img.elem_bytes;
}

/* The box inside the grid; so a 1D image's origin[1], origin[2] are 0 and
 * region[1], region[2] 1, a 1D array's origin[2] 0 and region[2] 1, and a
 * 2D image's origin[2] 0 and region[2] 1, as OpenCL asks. */
static bool image_box_ok(cl_mem m, const size_t *origin, const size_t *region)
{
    size_t depth = m->img.depth ? m->img.depth : 1;
    return origin && region && region[0] && region[1] && region[2] &&
           in_range(origin[0], region[0], m->img.width) &&
           in_range(origin[1], region[1], m->img.height) &&
           in_range(origin[2], region[2], depth);
}

/* OpenCL's slice pitch of an image: a 1D array's image (a grid row), a 2D
 * array's image or a 3D slice (a grid slice); 0 for the other types. */
static size_t opencl_slice_pitch(cl_mem m)
{
    if (m->img.dims == 1)
        return m->img.arrayed ? m->img.pitch : 0;
    return m->img.dims == 3 || m->img.arrayed ? (size_t)m->img.slice_pitch : 0;
}

void *icd_EnqueueMapImage(cl_command_queue command_queue, cl_mem image, cl_bool blocking_map,
                          cl_map_flags map_flags, const size_t *origin, const size_t *region,
                          size_t *image_row_pitch, size_t *image_slice_pitch,
                          cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                          cl_event *event, cl_int *errcode_ret)
{
    if (icd_valid(image, ICD_MEM) && icd_is_image(image) &&
        (!image_row_pitch || !image_box_ok(image, origin, region) ||
         ((image->img.dims == 3 || image->img.arrayed) && !image_slice_pitch))) {
        if (errcode_ret)
            *errcode_ret = CL_INVALID_VALUE;
        return NULL;
    }
    size_t off = icd_valid(image, ICD_MEM) && icd_is_image(image) ? image_offset(image, origin) : 0;
    void *p = map(command_queue, CL_COMMAND_MAP_IMAGE, image, true, blocking_map, map_flags, off,
                  0, num_events_in_wait_list, event_wait_list, event, errcode_ret);
    if (p) {
        *image_row_pitch = image->row_pitch;
        if (image_slice_pitch)
            *image_slice_pitch = opencl_slice_pitch(image);
    }
    return p;
}

cl_int icd_EnqueueUnmapMemObject(cl_command_queue command_queue, cl_mem memobj, void *mapped_ptr,
                                 cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                 cl_event *event)
{
    icd_cmd *c;
    xfer *x;
    cl_int rc = start(command_queue, CL_COMMAND_UNMAP_MEM_OBJECT, num_events_in_wait_list,
                      event_wait_list, &c, &x);
    if (rc)
        return rc;
    if (!icd_valid(memobj, ICD_MEM))
        rc = CL_INVALID_MEM_OBJECT;
    else if (memobj->ctx != command_queue->ctx)
        rc = CL_INVALID_CONTEXT;
    else if (!memobj->maps || (uint8_t *)mapped_ptr < memobj->data ||
             (uint8_t *)mapped_ptr > memobj->data + memobj->size)
        rc = CL_INVALID_VALUE;
    if (rc) {
        drop(c);
        return rc;
    }
    hold(x, 0, memobj);
    x->region[0] = 0;
    x->dst = memobj->data;
    x->map_delta = -1;
    if (memobj->mapped_for_write) {     /* the host may have written any of it */
        memobj->mapped_for_write = false;
        x->cache = CACHE_HOST_WRITE;
        x->cache_len = memobj->size;
    }
    return icd_submit(c, command_queue, num_events_in_wait_list, event_wait_list, event, false);
}

/* ---- images ---- */

static cl_int image_rw(cl_command_queue q, cl_command_type type, cl_mem image, bool to_host,
                       bool blocking, const size_t *origin, const size_t *region, size_t row_pitch,
                       size_t slice_pitch, void *ptr, cl_uint nwait, const cl_event *wait,
                       cl_event *event)
{
    icd_cmd *c;
    xfer *x;
    cl_int rc = start(q, type, nwait, wait, &c, &x);
    if (rc)
        return rc;
    /* the host's rows and slices: a 1D array's layers are slice_pitch
     * apart there and rows of the grid; the types without slices take
     * none (CL_INVALID_VALUE otherwise) */
    const size_t eb = icd_valid(image, ICD_MEM) ? image->img.elem_bytes : 0;
    const bool slices = icd_valid(image, ICD_MEM) &&
                        (image->img.dims == 3 || image->img.arrayed);
    const bool array1d = slices && image->img.dims == 1;
    const size_t hp = row_pitch ? row_pitch : (region ? region[0] * eb : 0);
    if (!(rc = check_mem(q, image, true))) {
        if (!ptr || !region || !image_box_ok(image, origin, region))
            rc = CL_INVALID_VALUE;
        else if (row_pitch && row_pitch < region[0] * eb)
            rc = CL_INVALID_VALUE;
        else if (slice_pitch && (!slices || slice_pitch < (array1d ? hp : hp * region[1])))
            rc = CL_INVALID_VALUE;
    }
    if (rc) {
        drop(c);
        return rc;
    }
    hold(x, 0, image);
    uint8_t *img = image->data + image_offset(image, origin);
    x->dst = to_host ? ptr : img;
    x->src = to_host ? img : ptr;
    const size_t host_row = array1d ? (slice_pitch ? slice_pitch : hp) : hp;
    const size_t hs = slice_pitch && !array1d ? slice_pitch : hp * region[1];
    x->dpitch[0] = to_host ? host_row : image->img.pitch;
    x->spitch[0] = to_host ? image->img.pitch : host_row;
    x->dpitch[1] = to_host ? hs : (size_t)image->img.slice_pitch;
    x->spitch[1] = to_host ? (size_t)image->img.slice_pitch : hs;
    x->region[0] = region[0] * eb;
    x->region[1] = region[1];
    x->region[2] = region[2];
    return icd_submit(c, q, nwait, wait, event, blocking);
}

cl_int icd_EnqueueReadImage(cl_command_queue command_queue, cl_mem image, cl_bool blocking_read,
                            const size_t *origin, const size_t *region, size_t row_pitch,
                            size_t slice_pitch, void *ptr, cl_uint num_events_in_wait_list,
                            const cl_event *event_wait_list, cl_event *event)
{
    return image_rw(command_queue, CL_COMMAND_READ_IMAGE, image, true, blocking_read, origin,
                    region, row_pitch, slice_pitch, ptr, num_events_in_wait_list,
                    event_wait_list, event);
}

cl_int icd_EnqueueWriteImage(cl_command_queue command_queue, cl_mem image, cl_bool blocking_write,
                             const size_t *origin, const size_t *region, size_t input_row_pitch,
                             size_t input_slice_pitch, const void *ptr,
                             cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                             cl_event *event)
{
    return image_rw(command_queue, CL_COMMAND_WRITE_IMAGE, image, false, blocking_write, origin,
                    region, input_row_pitch, input_slice_pitch, (void *)(uintptr_t)ptr,
                    num_events_in_wait_list, event_wait_list, event);
}

cl_int icd_EnqueueCopyImage(cl_command_queue command_queue, cl_mem src_image, cl_mem dst_image,
                            const size_t *src_origin, const size_t *dst_origin,
                            const size_t *region, cl_uint num_events_in_wait_list,
                            const cl_event *event_wait_list, cl_event *event)
{
    icd_cmd *c;
    xfer *x;
    cl_int rc = start(command_queue, CL_COMMAND_COPY_IMAGE, num_events_in_wait_list,
                      event_wait_list, &c, &x);
    if (rc)
        return rc;
    if (!(rc = check_mem(command_queue, src_image, true)) &&
        !(rc = check_mem(command_queue, dst_image, true))) {
        if (src_image->format.image_channel_order != dst_image->format.image_channel_order ||
            src_image->format.image_channel_data_type != dst_image->format.image_channel_data_type)
            rc = CL_IMAGE_FORMAT_MISMATCH;
        else if (!image_box_ok(src_image, src_origin, region) ||
                 !image_box_ok(dst_image, dst_origin, region))
            rc = CL_INVALID_VALUE;
        else if (src_image == dst_image &&
                 !(src_origin[0] + region[0] <= dst_origin[0] ||
                   dst_origin[0] + region[0] <= src_origin[0] ||
                   src_origin[1] + region[1] <= dst_origin[1] ||
                   dst_origin[1] + region[1] <= src_origin[1] ||
                   src_origin[2] + region[2] <= dst_origin[2] ||
                   dst_origin[2] + region[2] <= src_origin[2]))
            rc = CL_MEM_COPY_OVERLAP;
    }
    if (rc) {
        drop(c);
        return rc;
    }
    hold(x, 0, dst_image);
    hold(x, 1, src_image);
    x->dst = dst_image->data + image_offset(dst_image, dst_origin);
    x->src = src_image->data + image_offset(src_image, src_origin);
    x->dpitch[0] = dst_image->img.pitch;
    x->spitch[0] = src_image->img.pitch;
    x->dpitch[1] = (size_t)dst_image->img.slice_pitch;
    x->spitch[1] = (size_t)src_image->img.slice_pitch;
    x->region[0] = region[0] * src_image->img.elem_bytes;
    x->region[1] = region[1];
    x->region[2] = region[2];
    return icd_submit(c, command_queue, num_events_in_wait_list, event_wait_list, event, false);
}

/* A copy between an image box and a tightly packed buffer range, in either
 * direction: the argument checks and the pitches are the same both ways. */
static cl_int copy_image_buffer(cl_command_queue q, cl_command_type type, cl_mem image,
                                cl_mem buffer, const size_t *origin, const size_t *region,
                                size_t offset, cl_uint nwait, const cl_event *wait,
                                cl_event *event)
{
    const bool to_image = type == CL_COMMAND_COPY_BUFFER_TO_IMAGE;
    icd_cmd *c;
    xfer *x;
    cl_int rc = start(q, type, nwait, wait, &c, &x);
    if (rc)
        return rc;
    if (!(rc = check_mem(q, image, true)) && !(rc = check_mem(q, buffer, false))) {
        if (!image_box_ok(image, origin, region) ||
            !in_range(offset, region[0] * region[1] * region[2] * image->img.elem_bytes,
                      buffer->size))
            rc = CL_INVALID_VALUE;
    }
    if (rc) {
        drop(c);
        return rc;
    }
    hold(x, 0, to_image ? image : buffer);
    hold(x, 1, to_image ? buffer : image);
    x->region[0] = region[0] * image->img.elem_bytes;
    x->region[1] = region[1];
    uint8_t *img = image->data + image_offset(image, origin), *buf = buffer->data + offset;
    x->dst = to_image ? img : buf;
    x->src = to_image ? buf : img;
    x->dpitch[0] = to_image ? image->img.pitch : x->region[0];
    x->spitch[0] = to_image ? x->region[0] : image->img.pitch;
    /* the buffer side packs slices */
    x->region[2] = region[2];
    x->dpitch[1] = to_image ? (size_t)image->img.slice_pitch : x->region[0] * region[1];
    x->spitch[1] = to_image ? x->region[0] * region[1] : (size_t)image->img.slice_pitch;
    return icd_submit(c, q, nwait, wait, event, false);
}

cl_int icd_EnqueueCopyImageToBuffer(cl_command_queue command_queue, cl_mem src_image,
                                    cl_mem dst_buffer, const size_t *src_origin,
                                    const size_t *region, size_t dst_offset,
                                    cl_uint num_events_in_wait_list,
                                    const cl_event *event_wait_list, cl_event *event)
{
    return copy_image_buffer(command_queue, CL_COMMAND_COPY_IMAGE_TO_BUFFER, src_image,
                             dst_buffer, src_origin, region, dst_offset,
                             num_events_in_wait_list, event_wait_list, event);
}

cl_int icd_EnqueueCopyBufferToImage(cl_command_queue command_queue, cl_mem src_buffer,
                                    cl_mem dst_image, size_t src_offset, const size_t *dst_origin,
                                    const size_t *region, cl_uint num_events_in_wait_list,
                                    const cl_event *event_wait_list, cl_event *event)
{
    return copy_image_buffer(command_queue, CL_COMMAND_COPY_BUFFER_TO_IMAGE, dst_image,
                             src_buffer, dst_origin, region, src_offset,
                             num_events_in_wait_list, event_wait_list, event);
}

/* One element of fill_color (float4, int4 or uint4 by channel type) in the
 * image's storage format. */
static void pack_color(const cl_mem m, const void *color, uint8_t *out)
{
    const float *f = color;
    const int32_t *s = color;
    const uint32_t *u = color;
    uint32_t nch = m->img.order == SGEMU_ORDER_R ? 1 : m->img.order == SGEMU_ORDER_RG ? 2 : 4;
    uint32_t cb = m->img.elem_bytes / nch;
    for (uint32_t ch = 0; ch < nch; ch++) {
        uint8_t *o = out + sgemu_image_channel_slot((sgemu_channel_order)m->img.order, ch) * cb;
        uint32_t v32 = 0;
        switch (m->img.chtype) {
        case SGEMU_CHTYPE_UNSIGNED_INT8:
        case SGEMU_CHTYPE_UNSIGNED_INT16:
        case SGEMU_CHTYPE_UNSIGNED_INT32: v32 = u[ch]; break;
        case SGEMU_CHTYPE_SIGNED_INT8:
        case SGEMU_CHTYPE_SIGNED_INT16:
        case SGEMU_CHTYPE_SIGNED_INT32: v32 = (uint32_t)s[ch]; break;
        case SGEMU_CHTYPE_UNORM_INT8:
        case SGEMU_CHTYPE_UNORM_INT16: {
            float c = f[ch] < 0 ? 0 : f[ch] > 1 ? 1 : f[ch];
            v32 = (uint32_t)lrintf(c * (cb == 1 ? 255.0f : 65535.0f));
            break;
        }
        case SGEMU_CHTYPE_SNORM_INT8:
        case SGEMU_CHTYPE_SNORM_INT16: {   /* convert_{char,short}_sat_rte(f * max) */
            float mx = cb == 1 ? 127.0f : 32767.0f;
            float c = isnan(f[ch]) ? 0.0f : rintf(f[ch] * mx);
            c = c < -mx - 1.0f ? -mx - 1.0f : c > mx ? mx : c;
            v32 = (uint32_t)(int32_t)c;
            break;
        }
        case SGEMU_CHTYPE_HALF_FLOAT: v32 = sgemu_float_to_half(f[ch]); break;
        default: memcpy(&v32, &f[ch], 4); break;
        }
        memcpy(o, &v32, cb);       /* little-endian: the low bytes */
    }
}

cl_int icd_EnqueueFillImage(cl_command_queue command_queue, cl_mem image, const void *fill_color,
                            const size_t *origin, const size_t *region,
                            cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                            cl_event *event)
{
    icd_cmd *c;
    xfer *x;
    cl_int rc = start(command_queue, CL_COMMAND_FILL_IMAGE, num_events_in_wait_list,
                      event_wait_list, &c, &x);
    if (rc)
        return rc;
    if (!(rc = check_mem(command_queue, image, true)) &&
        (!fill_color || !image_box_ok(image, origin, region)))
        rc = CL_INVALID_VALUE;
    if (rc) {
        drop(c);
        return rc;
    }
    hold(x, 0, image);
    pack_color(image, fill_color, x->pattern);
    x->pattern_size = image->img.elem_bytes;
    x->dst = image->data + image_offset(image, origin);
    x->dpitch[0] = image->img.pitch;
    x->dpitch[1] = (size_t)image->img.slice_pitch;
    x->region[0] = region[0] * image->img.elem_bytes;
    x->region[1] = region[1];
    x->region[2] = region[2];
    return icd_submit(c, command_queue, num_events_in_wait_list, event_wait_list, event, false);
}

cl_int icd_EnqueueMigrateMemObjects(cl_command_queue command_queue, cl_uint num_mem_objects,
                                    const cl_mem *mem_objects, cl_mem_migration_flags flags,
                                    cl_uint num_events_in_wait_list,
                                    const cl_event *event_wait_list, cl_event *event)
{
    if (!icd_queue_valid(command_queue))
        return CL_INVALID_COMMAND_QUEUE;
    if (!num_mem_objects || !mem_objects ||
        (flags & ~(cl_mem_migration_flags)(CL_MIGRATE_MEM_OBJECT_HOST |
                                           CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED)))
        return CL_INVALID_VALUE;
    for (cl_uint i = 0; i < num_mem_objects; i++)
        if (!icd_valid(mem_objects[i], ICD_MEM))
            return CL_INVALID_MEM_OBJECT;
    /* one memory: migration only orders */
    return icd_EnqueueMarkerWithWaitList(command_queue, num_events_in_wait_list,
                                         event_wait_list, event);
}
