/*
 * media_block.h - the media block reads and writes of cl_intel_media_block_io
 * (intel_sub_group_media_block_read/write_{uc,us,ui}) as MEDIA_LOAD /
 * MEDIA_STORE micro-ops.  Reached through coll_block_io for the rows of
 * shape MB_LD / MB_ST.
 */
#ifndef SGEMU_MEDIA_BLOCK_H
#define SGEMU_MEDIA_BLOCK_H

#include "coll.h"

/* Errors (coll_report.value as coll_image_xy where it is a coordinate):
 *   DIVERGENT       not every existing work-item is active
 *   PARTIAL_SG      the sub-group is partial (value = its size)
 *   NONUNIFORM_PTR  the coordinate differs (lane; value = that lane's x, y)
 *   MEDIA_SHAPE     width or height not allowed, or not uniform (lane;
 *                   value = coll_image_xy(width, height) of that lane)
 *   MISALIGNED      x not a multiple of 4 bytes (value = x, y)
 *   OUT_OF_BOUNDS   a byte outside the image where the extension leaves it
 *                   undefined (image elements wider than the builtin's, or
 *                   wider than 4 bytes): value = its byte x, row y; lane =
 *                   the work-item whose element it is
 *   UNSUPPORTED     bad vector count or unknown image */
coll_status coll_media_block(const coll_env *env, const isa_inst *in, coll_group *g,
                             coll_report *rep);

#endif
