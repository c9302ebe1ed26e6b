/* sgemu_block_io.h - declarations of the sub-group built-ins that
 * clang-14's opencl-c.h lacks: Intel block I/O of cl_intel_subgroups_char,
 * _long, cl_intel_subgroup_local_block_io and the _ui spellings, char
 * shuffles, and cl_khr_subgroup_rotate.  llvm-spirv-14 turns every
 * intel_sub_group_block_read / write call into OpSubgroupBlockReadINTEL /
 * OpSubgroupBlockWriteINTEL whatever the suffix, so declaring them is enough. */
#ifndef SGEMU_BLOCK_IO_H
#define SGEMU_BLOCK_IO_H

#define SGEMU_OVL __attribute__((overloadable))

#define SGEMU_BLK_PTR(SFX, T, SPACE) \
    T SGEMU_OVL intel_sub_group_block_read##SFX(const SPACE T *p); \
    T##2 SGEMU_OVL intel_sub_group_block_read##SFX##2(const SPACE T *p); \
    T##4 SGEMU_OVL intel_sub_group_block_read##SFX##4(const SPACE T *p); \
    T##8 SGEMU_OVL intel_sub_group_block_read##SFX##8(const SPACE T *p); \
    void SGEMU_OVL intel_sub_group_block_write##SFX(SPACE T *p, T v); \
    void SGEMU_OVL intel_sub_group_block_write##SFX##2(SPACE T *p, T##2 v); \
    void SGEMU_OVL intel_sub_group_block_write##SFX##4(SPACE T *p, T##4 v); \
    void SGEMU_OVL intel_sub_group_block_write##SFX##8(SPACE T *p, T##8 v);
#define SGEMU_BLK_PTR16(SFX, T, SPACE) \
    T##16 SGEMU_OVL intel_sub_group_block_read##SFX##16(const SPACE T *p); \
    void SGEMU_OVL intel_sub_group_block_write##SFX##16(SPACE T *p, T##16 v);
#define SGEMU_BLK_IMG(SFX, T) \
    T SGEMU_OVL intel_sub_group_block_read##SFX(read_only image2d_t i, int2 c); \
    T##2 SGEMU_OVL intel_sub_group_block_read##SFX##2(read_only image2d_t i, int2 c); \
    T##4 SGEMU_OVL intel_sub_group_block_read##SFX##4(read_only image2d_t i, int2 c); \
    T##8 SGEMU_OVL intel_sub_group_block_read##SFX##8(read_only image2d_t i, int2 c); \
    void SGEMU_OVL intel_sub_group_block_write##SFX(write_only image2d_t i, int2 c, T v); \
    void SGEMU_OVL intel_sub_group_block_write##SFX##2(write_only image2d_t i, int2 c, T##2 v); \
    void SGEMU_OVL intel_sub_group_block_write##SFX##4(write_only image2d_t i, int2 c, T##4 v); \
    void SGEMU_OVL intel_sub_group_block_write##SFX##8(write_only image2d_t i, int2 c, T##8 v);

/* the _ui spellings of cl_intel_subgroups (clang-14 has the plain ones) */
SGEMU_BLK_PTR(_ui, uint, __global)
SGEMU_BLK_IMG(_ui, uint)
/* cl_intel_subgroups_char */
SGEMU_BLK_PTR(_uc, uchar, __global)
SGEMU_BLK_PTR16(_uc, uchar, __global)
SGEMU_BLK_IMG(_uc, uchar)
/* cl_intel_subgroups_long */
SGEMU_BLK_PTR(_ul, ulong, __global)
SGEMU_BLK_IMG(_ul, ulong)
/* cl_intel_subgroups_short: the 16-wide forms */
/* cl_intel_subgroup_local_block_io */
SGEMU_BLK_PTR(, uint, __local)
SGEMU_BLK_PTR(_ui, uint, __local)
SGEMU_BLK_PTR(_us, ushort, __local)
SGEMU_BLK_PTR(_uc, uchar, __local)
SGEMU_BLK_PTR16(_uc, uchar, __local)
SGEMU_BLK_PTR(_ul, ulong, __local)

/* cl_intel_subgroups_char shuffles */
#define SGEMU_SHUF_CHAR(T) \
    T SGEMU_OVL intel_sub_group_shuffle(T x, uint c); \
    T SGEMU_OVL intel_sub_group_shuffle_down(T cur, T next, uint c); \
    T SGEMU_OVL intel_sub_group_shuffle_up(T prev, T cur, uint c); \
    T SGEMU_OVL intel_sub_group_shuffle_xor(T x, uint c);
SGEMU_SHUF_CHAR(uchar)
SGEMU_SHUF_CHAR(char)
#undef SGEMU_SHUF_CHAR

/* cl_khr_subgroup_rotate (newer than clang-14; sgemu maps the calls) */
uint SGEMU_OVL sub_group_rotate(uint v, int d);
int SGEMU_OVL sub_group_rotate(int v, int d);
float SGEMU_OVL sub_group_rotate(float v, int d);
uint SGEMU_OVL sub_group_clustered_rotate(uint v, int d, uint cluster);
int SGEMU_OVL sub_group_clustered_rotate(int v, int d, uint cluster);

#undef SGEMU_BLK_PTR
#undef SGEMU_BLK_PTR16
#undef SGEMU_BLK_IMG
#endif
