// Intel sub-group block reads and writes on buffers: every element type and
// vector width.  Each sub-group owns a region of slots of 16*S elements; slot
// j holds one block (S = the maximum sub-group size), so every write starts
// 16-byte aligned.

#define REGION(T, p) ((p) + (get_group_id(0) * get_num_sub_groups() + get_sub_group_id()) \
                      * 5 * 16 * get_max_sub_group_size())
#define SLOT(p, j) ((p) + (j) * 16 * get_max_sub_group_size())

kernel void blk_u32(global uint *in, global uint *out)
{
    global uint *p = REGION(uint, in), *q = REGION(uint, out);
    uint l = get_sub_group_local_id();
    uint a = intel_sub_group_block_read(SLOT(p, 0));
    uint2 b = intel_sub_group_block_read_ui2(SLOT(p, 1));
    uint4 c = intel_sub_group_block_read4(SLOT(p, 2));
    uint8 d = intel_sub_group_block_read_ui8(SLOT(p, 3));
    uint e = intel_sub_group_block_read_ui(SLOT(p, 4));
    intel_sub_group_block_write_ui(SLOT(q, 0), a + 1);
    intel_sub_group_block_write2(SLOT(q, 1), b * 2u);
    intel_sub_group_block_write_ui4(SLOT(q, 2), c ^ 0xffu);
    intel_sub_group_block_write8(SLOT(q, 3), d + l);
    intel_sub_group_block_write(SLOT(q, 4), e - l);
}

kernel void blk_u16(global ushort *in, global ushort *out)
{
    global ushort *p = REGION(ushort, in), *q = REGION(ushort, out);
    ushort a = intel_sub_group_block_read_us(SLOT(p, 0));
    ushort2 b = intel_sub_group_block_read_us2(SLOT(p, 1));
    ushort4 c = intel_sub_group_block_read_us4(SLOT(p, 2));
    ushort8 d = intel_sub_group_block_read_us8(SLOT(p, 3));
    ushort16 e = intel_sub_group_block_read_us16(SLOT(p, 4)); // sgemu's header: two _us8 blocks
    intel_sub_group_block_write_us(SLOT(q, 0), a + 1);
    intel_sub_group_block_write_us2(SLOT(q, 1), b * (ushort)2);
    intel_sub_group_block_write_us4(SLOT(q, 2), c ^ (ushort)0xff);
    intel_sub_group_block_write_us8(SLOT(q, 3), d + (ushort)3);
    intel_sub_group_block_write_us16(SLOT(q, 4), e - (ushort)1);
}

kernel void blk_u8(global uchar *in, global uchar *out)
{
    global uchar *p = REGION(uchar, in), *q = REGION(uchar, out);
    uchar a = intel_sub_group_block_read_uc(SLOT(p, 0));
    uchar2 b = intel_sub_group_block_read_uc2(SLOT(p, 1));
    uchar4 c = intel_sub_group_block_read_uc4(SLOT(p, 2));
    uchar8 d = intel_sub_group_block_read_uc8(SLOT(p, 3));
    uchar16 e = intel_sub_group_block_read_uc16(SLOT(p, 4));
    intel_sub_group_block_write_uc(SLOT(q, 0), a + 1);
    intel_sub_group_block_write_uc2(SLOT(q, 1), b * (uchar)2);
    intel_sub_group_block_write_uc4(SLOT(q, 2), c ^ (uchar)0xf);
    intel_sub_group_block_write_uc8(SLOT(q, 3), d + (uchar)3);
    intel_sub_group_block_write_uc16(SLOT(q, 4), e - (uchar)1);
}

kernel void blk_u64(global ulong *in, global ulong *out)
{
    global ulong *p = REGION(ulong, in), *q = REGION(ulong, out);
    ulong a = intel_sub_group_block_read_ul(SLOT(p, 0));
    ulong2 b = intel_sub_group_block_read_ul2(SLOT(p, 1));
    ulong4 c = intel_sub_group_block_read_ul4(SLOT(p, 2));
    ulong8 d = intel_sub_group_block_read_ul8(SLOT(p, 3));
    intel_sub_group_block_write_ul(SLOT(q, 0), a + 1);
    intel_sub_group_block_write_ul2(SLOT(q, 1), b * 2ul);
    intel_sub_group_block_write_ul4(SLOT(q, 2), c ^ 0xfful);
    intel_sub_group_block_write_ul8(SLOT(q, 3), d + 3ul);
    intel_sub_group_block_write_ul(SLOT(q, 4), a << 8);
}

// cl_intel_subgroup_local_block_io: each sub-group writes its blocks into
// its own 16*S-uint part of a local tile (64 bytes per work-item: pass
// local:64*L) and reads them back with other widths.
kernel void blk_local(global uint *in, global uint *out, local uint *tile)
{
    uint S = get_max_sub_group_size(), l = get_sub_group_local_id();
    local uint *t = tile + get_sub_group_id() * 16 * S;
    global uint *p = in + get_global_id(0) - l;     // this sub-group's S values
    uint v = intel_sub_group_block_read(p);
    for (uint k = 0; k < 8; k++)                       // t[k*S + i] = v(lane i) + k
        intel_sub_group_block_write(t + k * S, v + k);
    uint8 a = intel_sub_group_block_read8(t);           // a[k] = t[i + k*S]
    local ushort *h = (local ushort *)t;
    ushort8 b = intel_sub_group_block_read_us8(h);       // 16-bit view of the first 4*S uints
    local uchar *c = (local uchar *)t;
    uchar16 d = intel_sub_group_block_read_uc16(c);
    local ulong *u = (local ulong *)t;
    ulong2 e = intel_sub_group_block_read_ul2(u);
    global uint *o = out + get_global_id(0) * 12;
    o[0] = a.s0; o[1] = a.s3; o[2] = a.s7;
    o[3] = b.s0 | ((uint)b.s7 << 16);
    o[4] = d.s0 | ((uint)d.s5 << 8) | ((uint)d.sa << 16) | ((uint)d.sf << 24);
    o[5] = (uint)e.s0; o[6] = (uint)(e.s0 >> 32); o[7] = (uint)e.s1; o[8] = (uint)(e.s1 >> 32);
    barrier(CLK_LOCAL_MEM_FENCE);
    intel_sub_group_block_write_us2(h, (ushort2)((ushort)l, (ushort)(l + 100)));  // uints [0, S)
    intel_sub_group_block_write_uc4(c + 32 * S, (uchar4)((uchar)l, 1, 2, 3));     // [8S, 9S)
    intel_sub_group_block_write_ul(u + 5 * S, (ulong)l << 40);                    // [10S, 12S)
    o[9] = intel_sub_group_block_read_ui(t);
    o[10] = intel_sub_group_block_read_ui(t + 8 * S);
    o[11] = (uint)(intel_sub_group_block_read_ul(u + 5 * S) >> 32);
}

// Image block I/O: a 32-bit, a 16-bit and an 8-bit image read in blocks and
// written to 32-bit output images.
kernel void blk_image(read_only image2d_t a32, read_only image2d_t a16, read_only image2d_t a8,
                      write_only image2d_t o32, write_only image2d_t o2)
{
    uint S = get_max_sub_group_size();
    int bx = get_group_id(0) * get_num_sub_groups() + get_sub_group_id();
    int y = get_group_id(1) * 8;
    uint4 a = intel_sub_group_block_read4(a32, (int2)(bx * S * 4, y));
    uint4 b = intel_sub_group_block_read_ui4(a32, (int2)(bx * S * 4, y + 4));
    ushort8 c = intel_sub_group_block_read_us8(a16, (int2)(bx * S * 2, y));
    uchar8 d = intel_sub_group_block_read_uc8(a8, (int2)(bx * S, y));
    intel_sub_group_block_write4(o32, (int2)(bx * S * 4, y), a + b);
    intel_sub_group_block_write_ui4(o32, (int2)(bx * S * 4, y + 4), b);
    uint8 m = convert_uint8(c) * 256u + convert_uint8(d);
    intel_sub_group_block_write8(o2, (int2)(bx * S * 4, y), m);
}

// Image block I/O the header adds: _us16 (two _us8 blocks) on a read_only
// and a write_only image, and _uc / _ul blocks on read_write images (rows
// y .. y+3 read, rows y+4 .. y+7 written).  One sub-group per 16 x S block.
kernel void blk_image_more(read_only image2d_t a16, write_only image2d_t o16,
                           read_write image2d_t c8, read_write image2d_t c64)
{
    uint S = get_max_sub_group_size();
    int bx = get_group_id(0) * get_num_sub_groups() + get_sub_group_id();
    int y = get_group_id(1) * 16;
    ushort16 h = intel_sub_group_block_read_us16(a16, (int2)(bx * S * 2, y));
    intel_sub_group_block_write_us16(o16, (int2)(bx * S * 2, y), h + (ushort)1);
    for (int r = y; r < y + 16; r += 8) {
        uchar4 c = intel_sub_group_block_read_uc4(c8, (int2)(bx * S, r));
        intel_sub_group_block_write_uc4(c8, (int2)(bx * S, r + 4), c + (uchar)1);
        ulong2 u = intel_sub_group_block_read_ul2(c64, (int2)(bx * S * 8, r));
        ulong2 u2 = intel_sub_group_block_read_ul2(c64, (int2)(bx * S * 8, r + 2));
        intel_sub_group_block_write_ul4(c64, (int2)(bx * S * 8, r + 4), (ulong4)(u, u2) << 1);
    }
}
