/* sgemu_opencl.h - what `sgemu run K.cl` includes before every OpenCL C
 * kernel: clang-14's opencl-c.h, then declarations of the built-ins that
 * sgemu supports (docs/opencl.md) and that header lacks.  llvm-spirv-14
 * turns every intel_sub_group_block_read / write call into the SPIR-V block
 * instructions whatever its suffix, and leaves the other calls as imported
 * functions, which sgemu recognises by their mangled names; declaring them
 * is therefore enough.  Users who compile by hand can -include this file. */
#ifndef SGEMU_OPENCL_H
#define SGEMU_OPENCL_H

/* OpenCL C 3.0 makes the work-group collectives an optional feature, and
 * clang-14 declares them only when its macro is set, which no option of
 * clang-14 does; sgemu has them. */
#if __OPENCL_C_VERSION__ >= 300 && !defined(__opencl_c_work_group_collective_functions)
#define __opencl_c_work_group_collective_functions 1
#endif

/* The device's OpenCL version (OpenCL C 3.0, 6.12 "Preprocessor
 * Directives and Macros"): sgemu's device reports OpenCL 3.0
 * (docs/opencl-platform.md).  clang-14 leaves it to the implementation, and
 * kernels shared with host code test it to tell the device compile apart.
 * A -D__OPENCL_VERSION__=N of the build options comes first and stays. */
#ifndef __OPENCL_VERSION__
#define __OPENCL_VERSION__ 300
#endif

#include <opencl-c.h>

/* The language macros of the extensions the device lists (OpenCL C 3.0,
 * 6.1 "Supported Data Types" and the extension specification, 1.3: an
 * extension that adds built-ins defines a macro of its name).  clang-14
 * defines the others, and these only for some versions (the cl_khr
 * sub-group family from OpenCL C 2.0); kernels test them to choose a code
 * path (`#if defined(cl_intel_required_subgroup_size)`) and would otherwise
 * leave out what sgemu runs.  After opencl-c.h: before it, clang-14 would
 * declare OpenCL C 2.0 built-ins for the cl_khr ones at OpenCL C 1.2. */
#ifndef cl_khr_subgroups
#define cl_khr_subgroups 1
#endif
#ifndef cl_khr_subgroup_extended_types
#define cl_khr_subgroup_extended_types 1
#endif
#ifndef cl_khr_subgroup_non_uniform_vote
#define cl_khr_subgroup_non_uniform_vote 1
#endif
#ifndef cl_khr_subgroup_ballot
#define cl_khr_subgroup_ballot 1
#endif
#ifndef cl_khr_subgroup_non_uniform_arithmetic
#define cl_khr_subgroup_non_uniform_arithmetic 1
#endif
#ifndef cl_khr_subgroup_shuffle
#define cl_khr_subgroup_shuffle 1
#endif
#ifndef cl_khr_subgroup_shuffle_relative
#define cl_khr_subgroup_shuffle_relative 1
#endif
#ifndef cl_khr_subgroup_clustered_reduce
#define cl_khr_subgroup_clustered_reduce 1
#endif
#ifndef cl_khr_subgroup_rotate
#define cl_khr_subgroup_rotate 1
#endif
#ifndef cl_intel_subgroups_char
#define cl_intel_subgroups_char 1
#endif
#ifndef cl_intel_subgroups_long
#define cl_intel_subgroups_long 1
#endif
#ifndef cl_intel_required_subgroup_size
#define cl_intel_required_subgroup_size 1
#endif
#ifndef cl_intel_subgroup_local_block_io
#define cl_intel_subgroup_local_block_io 1
#endif
#ifndef cl_intel_media_block_io
#define cl_intel_media_block_io 1
#endif

/* The integer dot products (cl_khr_integer_dot_product, its OpenCL C 3.0
 * features, and Arm's cl_arm_integer_dot_product_*): clang-14 defines their
 * macros for every SPIR target and declares dot(), dot_acc_sat() and the
 * 4x8-packed forms, but the device does not list them and sgemu has no
 * definition of those built-ins.  Kernels test the macros to choose the
 * built-in or their own code; with the macros left set, the build fails
 * on a call to a function that is declared but not defined. */
#undef cl_khr_integer_dot_product
#undef __opencl_c_integer_dot_product_input_4x8bit
#undef __opencl_c_integer_dot_product_input_4x8bit_packed
#undef cl_arm_integer_dot_product_int8
#undef cl_arm_integer_dot_product_accumulate_int8
#undef cl_arm_integer_dot_product_accumulate_int16
#undef cl_arm_integer_dot_product_accumulate_saturate_int8

#define SGEMU_OVL __attribute__((overloadable))

/* Intel block reads and writes through a pointer (cl_intel_subgroups_char,
 * _long, cl_intel_subgroup_local_block_io and the _ui spellings). */
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
/* ... and on 2-D images: reads of read_only images, writes of write_only
 * ones. */
#define SGEMU_BLK_IMG(SFX, T) \
    T SGEMU_OVL intel_sub_group_block_read##SFX(read_only image2d_t i, int2 c); \
    T##2 SGEMU_OVL intel_sub_group_block_read##SFX##2(read_only image2d_t i, int2 c); \
    T##4 SGEMU_OVL intel_sub_group_block_read##SFX##4(read_only image2d_t i, int2 c); \
    T##8 SGEMU_OVL intel_sub_group_block_read##SFX##8(read_only image2d_t i, int2 c); \
    void SGEMU_OVL intel_sub_group_block_write##SFX(write_only image2d_t i, int2 c, T v); \
    void SGEMU_OVL intel_sub_group_block_write##SFX##2(write_only image2d_t i, int2 c, T##2 v); \
    void SGEMU_OVL intel_sub_group_block_write##SFX##4(write_only image2d_t i, int2 c, T##4 v); \
    void SGEMU_OVL intel_sub_group_block_write##SFX##8(write_only image2d_t i, int2 c, T##8 v);
#define SGEMU_BLK_IMG16(SFX, T) \
    T##16 SGEMU_OVL intel_sub_group_block_read##SFX##16(read_only image2d_t i, int2 c); \
    void SGEMU_OVL intel_sub_group_block_write##SFX##16(write_only image2d_t i, int2 c, T##16 v);
/* ... and both on read_write ones (clang-14 has the _ui and _us forms). */
#if defined(__opencl_c_read_write_images)
#define SGEMU_BLK_IMG_RW(SFX, T) \
    T SGEMU_OVL intel_sub_group_block_read##SFX(read_write image2d_t i, int2 c); \
    T##2 SGEMU_OVL intel_sub_group_block_read##SFX##2(read_write image2d_t i, int2 c); \
    T##4 SGEMU_OVL intel_sub_group_block_read##SFX##4(read_write image2d_t i, int2 c); \
    T##8 SGEMU_OVL intel_sub_group_block_read##SFX##8(read_write image2d_t i, int2 c); \
    void SGEMU_OVL intel_sub_group_block_write##SFX(read_write image2d_t i, int2 c, T v); \
    void SGEMU_OVL intel_sub_group_block_write##SFX##2(read_write image2d_t i, int2 c, T##2 v); \
    void SGEMU_OVL intel_sub_group_block_write##SFX##4(read_write image2d_t i, int2 c, T##4 v); \
    void SGEMU_OVL intel_sub_group_block_write##SFX##8(read_write image2d_t i, int2 c, T##8 v);
#define SGEMU_BLK_IMG16_RW(SFX, T) \
    T##16 SGEMU_OVL intel_sub_group_block_read##SFX##16(read_write image2d_t i, int2 c); \
    void SGEMU_OVL intel_sub_group_block_write##SFX##16(read_write image2d_t i, int2 c, T##16 v);
#else
#define SGEMU_BLK_IMG_RW(SFX, T)
#define SGEMU_BLK_IMG16_RW(SFX, T)
#endif

/* the _ui spellings of cl_intel_subgroups (clang-14 has the plain ones) */
SGEMU_BLK_PTR(_ui, uint, __global)
SGEMU_BLK_IMG(_ui, uint)
/* cl_intel_subgroups_char */
SGEMU_BLK_PTR(_uc, uchar, __global)
SGEMU_BLK_PTR16(_uc, uchar, __global)
SGEMU_BLK_IMG(_uc, uchar)
SGEMU_BLK_IMG16(_uc, uchar)
SGEMU_BLK_IMG_RW(_uc, uchar)
SGEMU_BLK_IMG16_RW(_uc, uchar)
/* cl_intel_subgroups_long */
SGEMU_BLK_PTR(_ul, ulong, __global)
SGEMU_BLK_IMG(_ul, ulong)
SGEMU_BLK_IMG_RW(_ul, ulong)
/* cl_intel_subgroup_local_block_io (not _us16: llvm-spirv-14 asserts) */
SGEMU_BLK_PTR(, uint, __local)
SGEMU_BLK_PTR(_ui, uint, __local)
SGEMU_BLK_PTR(_us, ushort, __local)
SGEMU_BLK_PTR(_uc, uchar, __local)
SGEMU_BLK_PTR16(_uc, uchar, __local)
SGEMU_BLK_PTR(_ul, ulong, __local)

#undef SGEMU_BLK_PTR
#undef SGEMU_BLK_PTR16
#undef SGEMU_BLK_IMG
#undef SGEMU_BLK_IMG16
#undef SGEMU_BLK_IMG_RW
#undef SGEMU_BLK_IMG16_RW

/* The _us16 block reads and writes (cl_intel_subgroups_short).  llvm-spirv-14
 * asserts on a 16 x ushort block instruction, so these are defined here as
 * two _us8 blocks: values 0-7 of a buffer block are its first 8 * S
 * elements and values 8-15 the next 8 * S (S = sub-group size); those of an
 * image block are rows y .. y + 7 and y + 8 .. y + 15.  Redeclaring
 * get_sub_group_size keeps them valid where opencl-c.h does not declare it
 * (OpenCL C 1.2); the mangled name is the same. */
uint SGEMU_OVL get_sub_group_size(void);
#define SGEMU_BLK_US16_PTR(SPACE) \
    static inline ushort16 SGEMU_OVL intel_sub_group_block_read_us16(const SPACE ushort *p) \
    { \
        return (ushort16)(intel_sub_group_block_read_us8(p), \
                          intel_sub_group_block_read_us8(p + 8 * get_sub_group_size())); \
    } \
    static inline void SGEMU_OVL intel_sub_group_block_write_us16(SPACE ushort *p, ushort16 v) \
    { \
        intel_sub_group_block_write_us8(p, v.lo); \
        intel_sub_group_block_write_us8(p + 8 * get_sub_group_size(), v.hi); \
    }
SGEMU_BLK_US16_PTR(__global)
SGEMU_BLK_US16_PTR(__local)
#undef SGEMU_BLK_US16_PTR
/* clang-14 declares the image _us8 blocks with OpenCL C 2.0's image features */
#if defined(__opencl_c_images)
static inline ushort16 SGEMU_OVL intel_sub_group_block_read_us16(read_only image2d_t i, int2 c)
{
    return (ushort16)(intel_sub_group_block_read_us8(i, c),
                      intel_sub_group_block_read_us8(i, c + (int2)(0, 8)));
}
static inline void SGEMU_OVL intel_sub_group_block_write_us16(write_only image2d_t i, int2 c,
                                                              ushort16 v)
{
    intel_sub_group_block_write_us8(i, c, v.lo);
    intel_sub_group_block_write_us8(i, c + (int2)(0, 8), v.hi);
}
#if defined(__opencl_c_read_write_images)
static inline ushort16 SGEMU_OVL intel_sub_group_block_read_us16(read_write image2d_t i, int2 c)
{
    return (ushort16)(intel_sub_group_block_read_us8(i, c),
                      intel_sub_group_block_read_us8(i, c + (int2)(0, 8)));
}
static inline void SGEMU_OVL intel_sub_group_block_write_us16(read_write image2d_t i, int2 c,
                                                              ushort16 v)
{
    intel_sub_group_block_write_us8(i, c, v.lo);
    intel_sub_group_block_write_us8(i, c + (int2)(0, 8), v.hi);
}
#endif
#endif

/* cl_intel_media_block_io: a width x height block of an image2d_t at byte
 * x, row y (width in elements of the type).  llvm-spirv-14 turns the calls
 * into OpSubgroupImageMediaBlockReadINTEL / WriteINTEL
 * (SPV_INTEL_media_block_io); reads of read_only and read_write images,
 * writes of write_only and read_write ones. */
#define SGEMU_MB_READ(SFX, T, ACCESS) \
    T SGEMU_OVL intel_sub_group_media_block_read##SFX(int2 o, int w, int h, ACCESS image2d_t i); \
    T##2 SGEMU_OVL intel_sub_group_media_block_read##SFX##2(int2 o, int w, int h, \
                                                            ACCESS image2d_t i); \
    T##4 SGEMU_OVL intel_sub_group_media_block_read##SFX##4(int2 o, int w, int h, \
                                                            ACCESS image2d_t i); \
    T##8 SGEMU_OVL intel_sub_group_media_block_read##SFX##8(int2 o, int w, int h, \
                                                            ACCESS image2d_t i);
#define SGEMU_MB_WRITE(SFX, T, ACCESS) \
    void SGEMU_OVL intel_sub_group_media_block_write##SFX(int2 o, int w, int h, T v, \
                                                          ACCESS image2d_t i); \
    void SGEMU_OVL intel_sub_group_media_block_write##SFX##2(int2 o, int w, int h, T##2 v, \
                                                             ACCESS image2d_t i); \
    void SGEMU_OVL intel_sub_group_media_block_write##SFX##4(int2 o, int w, int h, T##4 v, \
                                                             ACCESS image2d_t i); \
    void SGEMU_OVL intel_sub_group_media_block_write##SFX##8(int2 o, int w, int h, T##8 v, \
                                                             ACCESS image2d_t i);
#define SGEMU_MB16(SFX, T, RACCESS, WACCESS) \
    T##16 SGEMU_OVL intel_sub_group_media_block_read##SFX##16(int2 o, int w, int h, \
                                                              RACCESS image2d_t i); \
    void SGEMU_OVL intel_sub_group_media_block_write##SFX##16(int2 o, int w, int h, T##16 v, \
                                                              WACCESS image2d_t i);
SGEMU_MB_READ(_uc, uchar, read_only)
SGEMU_MB_READ(_us, ushort, read_only)
SGEMU_MB_READ(_ui, uint, read_only)
SGEMU_MB_WRITE(_uc, uchar, write_only)
SGEMU_MB_WRITE(_us, ushort, write_only)
SGEMU_MB_WRITE(_ui, uint, write_only)
SGEMU_MB16(_uc, uchar, read_only, write_only)
SGEMU_MB16(_us, ushort, read_only, write_only)
#if defined(__opencl_c_read_write_images)
SGEMU_MB_READ(_uc, uchar, read_write)
SGEMU_MB_READ(_us, ushort, read_write)
SGEMU_MB_READ(_ui, uint, read_write)
SGEMU_MB_WRITE(_uc, uchar, read_write)
SGEMU_MB_WRITE(_us, ushort, read_write)
SGEMU_MB_WRITE(_ui, uint, read_write)
SGEMU_MB16(_uc, uchar, read_write, read_write)
SGEMU_MB16(_us, ushort, read_write, read_write)
#endif
#undef SGEMU_MB_READ
#undef SGEMU_MB_WRITE
#undef SGEMU_MB16

/* cl_intel_subgroups_char: shuffles, broadcast, reductions and scans of
 * 8-bit values (clang-14 has the 16-bit ones of cl_intel_subgroups_short) */
#define SGEMU_SHUF(T) \
    T SGEMU_OVL intel_sub_group_shuffle(T x, uint c); \
    T SGEMU_OVL intel_sub_group_shuffle_down(T cur, T next, uint c); \
    T SGEMU_OVL intel_sub_group_shuffle_up(T prev, T cur, uint c); \
    T SGEMU_OVL intel_sub_group_shuffle_xor(T x, uint c);
#define SGEMU_SHUF_VEC(T) \
    SGEMU_SHUF(T) SGEMU_SHUF(T##2) SGEMU_SHUF(T##3) SGEMU_SHUF(T##4) SGEMU_SHUF(T##8) \
    SGEMU_SHUF(T##16)
SGEMU_SHUF_VEC(char)
SGEMU_SHUF_VEC(uchar)
#define SGEMU_INTEL_ARITH(T) \
    T SGEMU_OVL intel_sub_group_broadcast(T x, uint sub_group_local_id); \
    T SGEMU_OVL intel_sub_group_reduce_add(T x); \
    T SGEMU_OVL intel_sub_group_reduce_min(T x); \
    T SGEMU_OVL intel_sub_group_reduce_max(T x); \
    T SGEMU_OVL intel_sub_group_scan_inclusive_add(T x); \
    T SGEMU_OVL intel_sub_group_scan_inclusive_min(T x); \
    T SGEMU_OVL intel_sub_group_scan_inclusive_max(T x); \
    T SGEMU_OVL intel_sub_group_scan_exclusive_add(T x); \
    T SGEMU_OVL intel_sub_group_scan_exclusive_min(T x); \
    T SGEMU_OVL intel_sub_group_scan_exclusive_max(T x);
SGEMU_INTEL_ARITH(char)
SGEMU_INTEL_ARITH(uchar)
#undef SGEMU_SHUF
#undef SGEMU_SHUF_VEC
#undef SGEMU_INTEL_ARITH

/* cl_khr_subgroup_rotate (newer than clang-14) */
#define SGEMU_ROTATE(T) \
    T SGEMU_OVL sub_group_rotate(T value, int delta); \
    T SGEMU_OVL sub_group_clustered_rotate(T value, int delta, uint clustersize);
SGEMU_ROTATE(char)
SGEMU_ROTATE(uchar)
SGEMU_ROTATE(short)
SGEMU_ROTATE(ushort)
SGEMU_ROTATE(int)
SGEMU_ROTATE(uint)
SGEMU_ROTATE(long)
SGEMU_ROTATE(ulong)
SGEMU_ROTATE(float)
#ifdef cl_khr_fp64
SGEMU_ROTATE(double)
#endif
#ifdef cl_khr_fp16
/* left enabled: Intel's compiler (ocloc 22.43, tgllp) takes half variables
 * and constants without the kernel's pragma, and libraries rely on it
 * (oneDNN declares __constant half before its pragma) */
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
SGEMU_ROTATE(half)
#endif
#undef SGEMU_ROTATE

#undef SGEMU_OVL
#endif
