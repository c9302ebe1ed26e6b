/*
 * block_io.h - sub-group block reads and writes (cl_intel_subgroups and its
 * _char/_short/_long and local_block_io companions) as BLOCK_* / MEDIA_*
 * micro-ops.  Called from coll_execute for every row whose pipe is BLOCK.
 */
#ifndef SGEMU_BLOCK_IO_H
#define SGEMU_BLOCK_IO_H

#include "coll.h"

/* Buffer / local forms (families BLOCK_READ, BLOCK_WRITE) and image forms
 * (families IMG_READ, IMG_WRITE with pipe BLOCK).  Errors:
 *   DIVERGENT       not every existing work-item is active (lane, 0)
 *   PARTIAL_SG      the sub-group is partial (lane 0, value = its size)
 *   NONUNIFORM_PTR  pointer / coordinate differs (lane; value = address,
 *                   or for images COLL_IMAGE_XY(x, y) of that lane)
 *   MISALIGNED      buffer: value = address; image write: COLL_IMAGE_XY
 *   OUT_OF_BOUNDS   buffer: value = first byte of the failing message;
 *                   image (elements < 4 bytes): COLL_IMAGE_XY of the first
 *                   byte outside the image, lane = the work-item reading it
 *   UNSUPPORTED     bad vector count, unknown image, element size > 4 */
coll_status coll_block_io(const coll_env *env, const isa_inst *in,
                          coll_group *g, coll_report *rep);

/* A byte coordinate packed into coll_report.value (signed halves). */
static inline int64_t coll_image_xy(int32_t x, int32_t y)
{
    return (int64_t)(((uint64_t)(uint32_t)y << 32) | (uint32_t)x);
}
static inline int32_t coll_image_x(int64_t v) { return (int32_t)(uint32_t)(uint64_t)v; }
static inline int32_t coll_image_y(int64_t v) { return (int32_t)(uint32_t)((uint64_t)v >> 32); }

#endif
