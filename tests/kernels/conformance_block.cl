// Conformance audit: Intel sub-group block reads and writes (cl_intel_
// subgroups _ui, _short _us, _char _uc, _long _ul; cl_intel_subgroup_
// local_block_io) on __global and __local memory, every width the specs
// define (1, 2, 4, 8; 16 for uchar), __global reads at an element offset
// `off` that is only 4-byte aligned, __local reads at `loff` (16-byte
// aligned: cl_intel_subgroup_local_block_io asks 16 bytes for both).  Sub-group s (of the whole NDRange) owns 80 W
// elements of each buffer (W = max sub-group size); full sub-groups only
// (block I/O in a partial sub-group is undefined).
//   reads: r[g*64 + 0 .. 30]: block reads at in + region + off
//          (1 + 2 + 4 + 8 [+ 16] components), r[g*64 + 32 ..] the same from
//          a __local copy of the region at loff;
//   writes: the values read, plus the lane, written back at slots of 16 W
//          elements (width 1 at 0, 2 at 16 W, 4 at 32 W, 8 at 48 W,
//          16 at 64 W) of gw (global) and lw (written to __local, copied out);
//          uchar16 from __local: r[g*64 + 47 .. 62].

#define PUTN(base, v, N) for (int k_ = 0; k_ < N; k_++) r[(base) + k_] = ((T##N)(v))[k_];

#define BLK(T, SFX, SIXTEEN, LSIXTEEN) \
kernel void blk_##T(global const T *in, global T *rout, global T *gw, global T *lw, \
                    local T *tile, uint off, uint loff) \
{ \
    uint W = get_max_sub_group_size(), l = get_sub_group_local_id(); \
    uint s = get_group_id(0) * get_num_sub_groups() + get_sub_group_id(); \
    global const T *p = in + s * 80 * W; \
    global T *r = rout + get_global_id(0) * 64; \
    local T *t = tile + get_sub_group_id() * 80 * W; \
    for (uint k = l; k < 80 * W; k += W) \
        t[k] = p[k]; \
    sub_group_barrier(CLK_LOCAL_MEM_FENCE); \
    T a = intel_sub_group_block_read##SFX(p + off); \
    T##2 b = intel_sub_group_block_read##SFX##2(p + off); \
    T##4 c = intel_sub_group_block_read##SFX##4(p + off); \
    T##8 d = intel_sub_group_block_read##SFX##8(p + off); \
    r[0] = a; \
    r[1] = b.s0; r[2] = b.s1; \
    r[3] = c.s0; r[4] = c.s1; r[5] = c.s2; r[6] = c.s3; \
    r[7] = d.s0; r[8] = d.s1; r[9] = d.s2; r[10] = d.s3; \
    r[11] = d.s4; r[12] = d.s5; r[13] = d.s6; r[14] = d.s7; \
    T la = intel_sub_group_block_read##SFX(t + loff); \
    T##2 lb = intel_sub_group_block_read##SFX##2(t + loff); \
    T##4 lc = intel_sub_group_block_read##SFX##4(t + loff); \
    T##8 ld = intel_sub_group_block_read##SFX##8(t + loff); \
    r[32] = la; \
    r[33] = lb.s0; r[34] = lb.s1; \
    r[35] = lc.s0; r[36] = lc.s1; r[37] = lc.s2; r[38] = lc.s3; \
    r[39] = ld.s0; r[40] = ld.s1; r[41] = ld.s2; r[42] = ld.s3; \
    r[43] = ld.s4; r[44] = ld.s5; r[45] = ld.s6; r[46] = ld.s7; \
    global T *q = gw + s * 80 * W; \
    T lane = (T)l; \
    intel_sub_group_block_write##SFX(q, a + lane); \
    intel_sub_group_block_write##SFX##2(q + 16 * W, b + lane); \
    intel_sub_group_block_write##SFX##4(q + 32 * W, c + lane); \
    intel_sub_group_block_write##SFX##8(q + 48 * W, d + lane); \
    SIXTEEN \
    sub_group_barrier(CLK_LOCAL_MEM_FENCE); \
    LSIXTEEN \
    intel_sub_group_block_write##SFX(t, la + lane); \
    intel_sub_group_block_write##SFX##2(t + 16 * W, lb + lane); \
    intel_sub_group_block_write##SFX##4(t + 32 * W, lc + lane); \
    intel_sub_group_block_write##SFX##8(t + 48 * W, ld + lane); \
    sub_group_barrier(CLK_LOCAL_MEM_FENCE); \
    global T *lq = lw + s * 80 * W; \
    for (uint k = l; k < 80 * W; k += W) \
        lq[k] = t[k]; \
}

#define U16 \
    uchar16 e = intel_sub_group_block_read_uc16(p + off); \
    r[15] = e.s0; r[16] = e.s1; r[17] = e.s2; r[18] = e.s3; r[19] = e.s4; r[20] = e.s5; \
    r[21] = e.s6; r[22] = e.s7; r[23] = e.s8; r[24] = e.s9; r[25] = e.sa; r[26] = e.sb; \
    r[27] = e.sc; r[28] = e.sd; r[29] = e.se; r[30] = e.sf; \
    intel_sub_group_block_write_uc16(q + 64 * W, e + lane);
#define L16 \
    uchar16 le = intel_sub_group_block_read_uc16(t + loff); \
    r[47] = le.s0; r[48] = le.s1; r[49] = le.s2; r[50] = le.s3; r[51] = le.s4; \
    r[52] = le.s5; r[53] = le.s6; r[54] = le.s7; r[55] = le.s8; r[56] = le.s9; \
    r[57] = le.sa; r[58] = le.sb; r[59] = le.sc; r[60] = le.sd; r[61] = le.se; \
    r[62] = le.sf; \
    intel_sub_group_block_write_uc16(t + 64 * W, le + lane);

BLK(uint, _ui, , )
BLK(ushort, _us, , )
BLK(uchar, _uc, U16, L16)
BLK(ulong, _ul, , )

// Image block I/O (row by row: component k of lane i is the data at byte
// x + i * sizeof(T) of row y + k).  a32, o32: CL_R CL_UNSIGNED_INT32,
// o16: CL_UNSIGNED_INT16, o8: CL_UNSIGNED_INT8, all IW x 16.  Work-item
// (gx, gy): sub-group s = its sub-group along x, rows y0 = 8 gy ...
//   r[gid*16 + 0..3]: _ul2 read of a32 at byte (8 W s, y0) (two elements per
//                     lane), as low/high uint halves;
//   o32: _ul2 write of those values + lane at the same place;
//   o16: _us2 write of (1000 lane + 10 k + s) at byte (2 W s, y0);
//   o8:  _uc4 write of (lane + 3 k + s) at byte (W s, y0);
//   sub-group 0 of row band 0 only: r[gid*16 + 4..7] _ui4 read at element
//   column IW - W/2, rows 14..17 (clamped to the edge: spec README
//   decision 6); _ui write of 7000 + lane at (IW - W/2, 15) (lanes past the
//   edge dropped).
kernel void blk_img(read_only image2d_t a32, write_only image2d_t o32,
                    write_only image2d_t o16, write_only image2d_t o8, global uint *r, int IW)
{
    uint W = get_max_sub_group_size(), l = get_sub_group_local_id();
    int s = get_group_id(0) * get_num_sub_groups() + get_sub_group_id();
    int y0 = get_group_id(1) * 8;
    global uint *o = r + (get_global_id(0) + get_global_id(1) * get_global_size(0)) * 16;
    ulong2 u = intel_sub_group_block_read_ul2(a32, (int2)(8 * W * s, y0));
    o[0] = (uint)u.s0; o[1] = (uint)(u.s0 >> 32); o[2] = (uint)u.s1; o[3] = (uint)(u.s1 >> 32);
    intel_sub_group_block_write_ul2(o32, (int2)(8 * W * s, y0), u + (ulong)l);
    intel_sub_group_block_write_us2(o16, (int2)(2 * W * s, y0),
                                    (ushort2)(1000 * l + s, 1000 * l + 10 + s));
    intel_sub_group_block_write_uc4(o8, (int2)(W * s, y0),
                                    (uchar4)(l + s, l + 3 + s, l + 6 + s, l + 9 + s));
    if (s == 0 && y0 == 0) {
        uint4 c = intel_sub_group_block_read4(a32, (int2)(4 * (IW - (int)W / 2), 14));
        o[4] = c.s0; o[5] = c.s1; o[6] = c.s2; o[7] = c.s3;
        intel_sub_group_block_write(o32, (int2)(4 * (IW - (int)W / 2), 15), 7000 + l);
    }
}

// Every image block width of every type: sub-group s (along x) reads the
// block of width N at byte (s * W * sizeof(T), row r_N) of a (r_1 = 0,
// r_2 = 1, r_4 = 3, r_8 = 7, r_16 = 15) and writes it, plus the lane, to b
// at the same place; a and b are CL_R CL_UNSIGNED_INT32 images (the block
// functions read and write bytes, whatever the format).
uchar16 __attribute__((overloadable)) intel_sub_group_block_read_uc16(read_only image2d_t i,
                                                                     int2 c);
void __attribute__((overloadable)) intel_sub_group_block_write_uc16(write_only image2d_t i, int2 c,
                                                                   uchar16 v);
#define IMG(T, SFX, SIXTEEN) \
kernel void img_##T(read_only image2d_t a, write_only image2d_t b) \
{ \
    int W = get_max_sub_group_size(); \
    int x = (get_group_id(0) * get_num_sub_groups() + get_sub_group_id()) * W * sizeof(T); \
    T lane = (T)get_sub_group_local_id(); \
    intel_sub_group_block_write##SFX(b, (int2)(x, 0), \
        intel_sub_group_block_read##SFX(a, (int2)(x, 0)) + lane); \
    intel_sub_group_block_write##SFX##2(b, (int2)(x, 1), \
        intel_sub_group_block_read##SFX##2(a, (int2)(x, 1)) + lane); \
    intel_sub_group_block_write##SFX##4(b, (int2)(x, 3), \
        intel_sub_group_block_read##SFX##4(a, (int2)(x, 3)) + lane); \
    intel_sub_group_block_write##SFX##8(b, (int2)(x, 7), \
        intel_sub_group_block_read##SFX##8(a, (int2)(x, 7)) + lane); \
    SIXTEEN \
}
IMG(uint, _ui, )
IMG(ushort, _us, )
IMG(uchar, _uc, intel_sub_group_block_write_uc16(b, (int2)(x, 15),
        intel_sub_group_block_read_uc16(a, (int2)(x, 15)) + lane);)
IMG(ulong, _ul, )
