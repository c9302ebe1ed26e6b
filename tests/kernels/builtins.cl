// One call of each built-in that docs/opencl.md lists as supported, with
// nothing declared here: sgemu's own header (load/sgemu_opencl.h, included
// by `sgemu run` / `spv2asm`) supplies what clang-14's opencl-c.h lacks.
// test_builtins.c translates it as OpenCL C 2.0 and 3.0.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

kernel void math_fns(global float *f, global double *d, global int *n)
{
    size_t g = get_global_id(0);
    float x = f[g], y = f[g + 1], z = f[g + 2], r = 0;
    int k = n[g], q;
    float ip;
    r += fma(x, y, z) + mad(x, y, z) + fabs(x) + fmin(x, y) + fmax(x, y) + fmod(x, y);
    r += sqrt(x) + rsqrt(x) + native_sqrt(x) + half_sqrt(x) + native_rsqrt(x) + half_rsqrt(x);
    r += native_recip(x) + half_recip(x) + exp2(x) + log2(x) + sin(x) + cos(x);
    r += native_exp2(x) + half_exp2(x) + native_log2(x) + half_log2(x) + native_sin(x) + half_sin(x);
    r += native_cos(x) + half_cos(x) + native_divide(x, y) + half_divide(x, y);
    r += exp(x) + exp10(x) + log(x) + log10(x) + native_exp(x) + half_exp(x) + native_exp10(x);
    r += half_exp10(x) + native_log(x) + half_log(x) + native_log10(x) + half_log10(x);
    r += powr(x, y) + native_powr(x, y) + half_powr(x, y) + pow(x, y) + pown(x, k) + rootn(x, k);
    r += floor(x) + ceil(x) + trunc(x) + rint(x) + round(x) + copysign(x, y) + fdim(x, y);
    r += maxmag(x, y) + minmag(x, y) + tan(x) + native_tan(x) + half_tan(x) + ldexp(x, k);
    r += fract(x, &ip) + ip + modf(y, &ip) + ip + sincos(z, &ip) + ip + hypot(x, y);
    r += ilogb(x) + logb(x) + nan(3u) + frexp(x, &q) + q + cbrt(x) + nextafter(x, y);
    r += remainder(x, y) + remquo(x, y, &q) + q;
    r += atan(x) + asin(x) + acos(x) + atan2(x, y) + sinh(x) + cosh(x) + tanh(x) + asinh(x);
    r += acosh(x) + atanh(x) + expm1(x) + log1p(x) + erf(x) + erfc(x) + tgamma(x) + lgamma(x);
    r += lgamma_r(x, &q) + q + sinpi(x) + cospi(x) + tanpi(x) + asinpi(x) + acospi(x);
    r += atanpi(x) + atan2pi(x, y);
    // common and geometric
    r += clamp(x, y, z) + min(x, y) + max(x, y) + mix(x, y, z) + step(x, y) + sign(x);
    r += degrees(x) + radians(x) + smoothstep(x, y, z);
    float4 v = vload4(0, f + g), w = vload4(1, f + g);
    r += dot(v, w) + cross(v, w).x + length(v) + distance(v, w) + fast_length(v);
    r += fast_distance(v, w) + normalize(v).y + fast_normalize(v).z;
    // relational
    r += isequal(x, y) + isnotequal(x, y) + isgreater(x, y) + isgreaterequal(x, y);
    r += isless(x, y) + islessequal(x, y) + islessgreater(x, y) + isnan(x) + isinf(x);
    r += isfinite(x) + isnormal(x) + signbit(x) + isordered(x, y) + isunordered(x, y);
    int4 iv = isless(v, w);
    r += any(iv) + all(iv) + select(x, y, k) + bitselect(x, y, z);
    // vector data, shuffles, conversions
    vstore4(v, 2, f + g);
    half h = (half)x;
    r += vload_half(0, (global half *)f) + vload_half4(0, (global half *)f).x;
    r += vloada_half4(0, (global half *)f).y;
    vstore_half(x, 0, (global half *)f);
    vstore_half4(v, 1, (global half *)f);
    vstorea_half4(v, 2, (global half *)f);
    vstore_half_rte(x, 3, (global half *)f);
    vstore_half4_rtz(v, 4, (global half *)f);
    r += shuffle(v, (uint4)(3, 2, 1, 0)).x + shuffle2(v, w, (uint4)(7, 2, 5, 0)).y;
    r += vec_step(v) + convert_int_sat_rte(x) + convert_float(k) + as_float(k) + (float)h;
    f[g] = r;
    double dx = d[g], dy = d[g + 1];
    d[g] = sqrt(dx) + pow(dx, dy) + sinpi(dx) + ldexp(dx, k) + fma(dx, dy, dx);
}

kernel void int_fns(global int *a, global uint *u, global long *l)
{
    size_t g = get_global_id(0);
    int x = a[g], y = a[g + 1], z = a[g + 2], r = 0;
    uint p = u[g], s = u[g + 1];
    r += abs(x) + min(x, y) + max(x, y) + clamp(x, y, z) + clz(x) + popcount(x);
    r += mul_hi(x, y) + mad24(x, y, z) + mul24(x, y) + add_sat(x, y) + sub_sat(x, y);
    r += hadd(x, y) + rhadd(x, y) + abs_diff(x, y) + mad_hi(x, y, z) + rotate(x, y);
    r += upsample((short)x, (ushort)y) + ctz(x) + mad_sat(x, y, z);
    r += (int)(upsample(p, s) >> 7);
    l[g] = mad_sat(l[g], l[g + 1], l[g + 2]) + add_sat(l[g], l[g + 1]);
    a[g] = r + (int)(p * s);
}

kernel void work_items(global size_t *o)
{
    size_t g = get_global_linear_id();
    o[g] = get_global_id(0) + get_local_id(0) + get_group_id(0) + get_global_size(0) +
           get_local_size(0) + get_enqueued_local_size(0) + get_num_groups(0) +
           get_global_offset(0) + get_work_dim() + get_local_linear_id() +
           get_sub_group_size() + get_max_sub_group_size() + get_num_sub_groups() +
           get_enqueued_num_sub_groups() + get_sub_group_id() + get_sub_group_local_id();
}

kernel void sync_atomics(global int *a, local int *t, global float *f)
{
    size_t l = get_local_id(0);
    t[l] = a[l];
    barrier(CLK_LOCAL_MEM_FENCE);
    work_group_barrier(CLK_GLOBAL_MEM_FENCE);
    sub_group_barrier(CLK_LOCAL_MEM_FENCE);
    mem_fence(CLK_GLOBAL_MEM_FENCE);
    read_mem_fence(CLK_GLOBAL_MEM_FENCE);
    write_mem_fence(CLK_GLOBAL_MEM_FENCE);
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_relaxed, memory_scope_device);
    int r = atomic_add(a, 1) + atomic_sub(a, 1) + atomic_inc(a) + atomic_dec(a) +
            atomic_min(a, 3) + atomic_max(a, 3) + atomic_and(a, 3) + atomic_or(a, 3) +
            atomic_xor(a, 3) + atomic_xchg(a, 3) + atomic_cmpxchg(a, 3, 4) + atom_add(t, 1);
    r += (int)atomic_xchg(f, 1.0f);
    global atomic_int *ai = (global atomic_int *)a + 8;
    r += atomic_load(ai) + atomic_fetch_add(ai, 1) + atomic_exchange(ai, 2);
    atomic_store(ai, 5);
    int e = 5;
    r += atomic_compare_exchange_strong(ai, &e, 6) + atomic_compare_exchange_weak(ai, &e, 7);
    a[16 + l] = r;
}

kernel void groups(global int *a, global uchar *bc, global ulong *bl, global uint *bu,
                   local uint *lu, local ushort *ls, local uchar *lc, local ulong *ll,
                   read_only image2d_t ri, write_only image2d_t wi)
{
    size_t g = get_global_id(0);
    int x = a[g], r = 0;
    uint p = (uint)x;
    r += work_group_all(x) + work_group_any(x) + work_group_broadcast(x, 0) +
         work_group_reduce_add(x) + work_group_reduce_min(x) + work_group_reduce_max(x) +
         work_group_scan_inclusive_add(x) + work_group_scan_exclusive_max(x);
    r += sub_group_all(x) + sub_group_any(x) + sub_group_broadcast(x, 0) +
         sub_group_reduce_add(x) + sub_group_scan_inclusive_min(x) +
         sub_group_scan_exclusive_add(x);
    r += sub_group_elect() + sub_group_non_uniform_all(x) + sub_group_non_uniform_any(x) +
         sub_group_non_uniform_all_equal(x) + sub_group_non_uniform_broadcast(x, 1) +
         sub_group_broadcast_first(x);
    uint4 b = sub_group_ballot(x & 1);
    r += sub_group_inverse_ballot(b) + sub_group_ballot_bit_extract(b, 1) +
         sub_group_ballot_bit_count(b) + sub_group_ballot_inclusive_scan(b) +
         sub_group_ballot_exclusive_scan(b) + sub_group_ballot_find_lsb(b) +
         sub_group_ballot_find_msb(b) + get_sub_group_eq_mask().x + get_sub_group_lt_mask().x;
    r += sub_group_shuffle(x, 1u) + sub_group_shuffle_xor(x, 1u) + sub_group_shuffle_up(x, 1u) +
         sub_group_shuffle_down(x, 1u);
    r += sub_group_non_uniform_reduce_add(x) + sub_group_non_uniform_scan_inclusive_mul(x) +
         sub_group_non_uniform_scan_exclusive_xor(x) + sub_group_non_uniform_reduce_logical_and(x) +
         sub_group_clustered_reduce_max(x, 4) + sub_group_clustered_reduce_logical_or(x, 2);
    r += sub_group_rotate(x, 1) + sub_group_clustered_rotate(x, 1, 4u);
    // Intel sub-group functions
    char c = (char)x;
    r += intel_sub_group_shuffle(x, 1u) + intel_sub_group_shuffle_down(x, x, 1u) +
         intel_sub_group_shuffle_up(x, x, 1u) + intel_sub_group_shuffle_xor(x, 1u) +
         intel_sub_group_shuffle(c, 1u) + intel_sub_group_shuffle((short)x, 1u) +
         intel_sub_group_shuffle((float)x, 1u) + intel_sub_group_shuffle((long)x, 1u) +
         intel_sub_group_shuffle((uchar4)(c), 1u).x;
    r += intel_sub_group_broadcast(c, 0u) + intel_sub_group_reduce_add(c) +
         intel_sub_group_scan_inclusive_max((short)x) + intel_sub_group_scan_exclusive_min(c);
    uint ui = intel_sub_group_block_read(bu) + intel_sub_group_block_read_ui2(bu).x;
    intel_sub_group_block_write(bu, ui);
    intel_sub_group_block_write_ui4(bu, (uint4)(ui));
    ushort us = intel_sub_group_block_read_us((global ushort *)bu);
    intel_sub_group_block_write_us8((global ushort *)bu, (ushort8)(us));
    uchar16 uc = intel_sub_group_block_read_uc16(bc);
    intel_sub_group_block_write_uc(bc, uc.s3);
    ulong8 ul = intel_sub_group_block_read_ul8(bl);
    intel_sub_group_block_write_ul2(bl, ul.s01);
    uint lui = intel_sub_group_block_read(lu) + intel_sub_group_block_read_ui4(lu).y;
    intel_sub_group_block_write_ui(lu, lui);
    intel_sub_group_block_write_us2(ls, intel_sub_group_block_read_us2(ls));
    intel_sub_group_block_write_uc8(lc, intel_sub_group_block_read_uc8(lc));
    intel_sub_group_block_write_ul(ll, intel_sub_group_block_read_ul(ll));
    int2 co = (int2)(0, (int)g);
    uint iu = intel_sub_group_block_read(ri, co) + intel_sub_group_block_read_ui(ri, co);
    intel_sub_group_block_write(wi, co, iu);
    intel_sub_group_block_write_ui2(wi, co, (uint2)(iu));
    intel_sub_group_block_write_us(wi, co, intel_sub_group_block_read_us(ri, co));
    intel_sub_group_block_write_uc4(wi, co, intel_sub_group_block_read_uc4(ri, co));
    intel_sub_group_block_write_ul(wi, co, intel_sub_group_block_read_ul(ri, co));
    a[g] = r + (int)ui + (int)lui + (int)uc.s0 + (int)ul.s1;
}

constant sampler_t smp = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;

kernel void images(read_only image2d_t ri, write_only image2d_t wi, global int *o,
                   global const int *src, local int *tile)
{
    int2 c = (int2)(get_global_id(0), 0);
    uint4 u = read_imageui(ri, c);
    int4 i = read_imagei(ri, smp, c);
    float4 f = read_imagef(ri, smp, (float2)(0.5f, 0.5f));
    write_imageui(wi, c, u);
    write_imagei(wi, c, i);
    write_imagef(wi, c, f);
    int2 dim = get_image_dim(ri);
    o[c.x] = get_image_width(ri) + get_image_height(ri) + dim.x +
             get_image_channel_data_type(ri) + get_image_channel_order(ri);
    event_t e = async_work_group_copy(tile, src, 16, 0);
    e = async_work_group_strided_copy(tile, src, 4, 2, e);
    wait_group_events(1, &e);
    prefetch(src, 16);
    o[c.x + 1] = tile[0];
}
