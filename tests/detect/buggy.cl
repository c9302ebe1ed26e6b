// buggy.cl: kernels with local-memory bugs that `sgemu run --races
// --uninitialized` reports; test_detect.c holds each one's expected report.
// Line numbers matter: the reports name them (compiled -gline-tables-only).

// A barrier is missing between the store and the load of the neighbour's
// element: lane 0 reads lane 1's element (same sub-group: a lockstep
// assumption), the last lane of a sub-group the next sub-group's first.
kernel void missing_barrier(global int *out, local int *tile)
{
    uint lid = get_local_id(0);
    tile[lid] = (int)get_global_id(0);
    uint n = (lid + 1) % get_local_size(0);
    out[get_global_id(0)] = tile[n];
}

// Each work-item reads its neighbour's element inside its own sub-group,
// without a sub_group_barrier: correct only where the sub-group runs in
// lockstep.
kernel void sg_neighbour(global int *out, local int *tile)
{
    uint lid = get_local_id(0);
    tile[lid] = (int)lid * 3;
    out[get_global_id(0)] = tile[lid ^ 1u];
}

// Only the first half of the work-group writes the tile; the whole
// work-group reads it after the barrier.
kernel void uninit_read(global int *out, local int *tile)
{
    uint lid = get_local_id(0);
    if (lid < get_local_size(0) / 2)
        tile[lid] = 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = tile[lid];
}

// Work-item 0 writes a flag the others read without a barrier.
kernel void flag_no_barrier(global int *out, local int *flag)
{
    if (get_local_id(0) == 0)
        flag[0] = 42;
    out[get_global_id(0)] = flag[0];
}

// Global memory.  The barrier fences local memory only, so the store to
// out[g] is not ordered before the neighbour's load of it: a missing fence
// flag (barrier(CLK_GLOBAL_MEM_FENCE) was needed).
kernel void missing_fence(global int *out, local int *tile)
{
    uint g = get_global_id(0), n = get_global_size(0);
    out[g] = (int)g;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[n + g] = out[(g + 1) % n];
}

// Each work-group reads the elements the next work-group stores: no
// barrier orders work-items of two work-groups.
kernel void wg_neighbour(global int *out, local int *tile)
{
    uint g = get_global_id(0), n = get_global_size(0);
    out[g] = (int)g;
    barrier(CLK_GLOBAL_MEM_FENCE);
    out[n + g] = out[(g + get_local_size(0)) % n];
}

// Width dependence: the sub-group sums land at out[g / 16], right only
// when a sub-group has 16 work-items (at SIMD8 two sub-groups write one
// element, at SIMD32 one sub-group covers two).
kernel void assumes_simd16(global int *out, local int *tile)
{
    uint g = get_global_id(0);
    int s = sub_group_reduce_add((int)g);
    if (get_sub_group_local_id() == 0)
        out[g / 16] = s;
}

// Private memory: the array's upper half is never written, and work-items
// 2..5 (of every 8) read an element from it.
kernel void private_uninit(global int *out, local int *tile)
{
    int a[8];
    uint l = get_local_id(0);
    for (uint i = 0; i < 4; i++)
        a[i] = (int)(i * l);
    out[get_global_id(0)] = a[(l + 2) % 8];
}

// The shuffle index of lanes 4..7 (at SIMD8) is past the sub-group: their
// results are undefined, and the store uses them.
kernel void shuffle_range(global int *out, local int *tile)
{
    uint l = get_sub_group_local_id();
    int v = sub_group_shuffle((int)get_global_id(0), l + 4);
    out[get_global_id(0)] = v + 1;
}

// Global shadow runs: each sub-group's coalesced store leaves one record
// per run of 8 words; work-item 2 then reads out[3] and writes out[4]
// (lanes of its own sub-group's run), and work-item 9 of the next
// sub-group writes out[3] (item 3's word, spelt out of the run).
kernel void run_then_lane(global int *out, local int *tile)
{
    uint g = get_global_id(0);
    out[g] = (int)g;
    if (g == 2)
        out[4] = out[3];
    if (g == 9)
        out[3] = 0;
}

// A work-group function is no barrier: it orders no memory, so item 0's
// load of tile[8] races with the store of sub-group 1's lane 0.
kernel void wg_reduce_order(global int *out, local int *tile)
{
    uint l = get_local_id(0);
    tile[l] = (int)l;
    int s = work_group_reduce_add((int)l);
    out[l] = tile[(l + 8) % 16] + s;
}

// Sub-group block I/O: each sub-group writes its block of out, then
// reads the next sub-group's block with no barrier between.
kernel void block_neighbour(global uint *out, local int *tile)
{
    uint s = get_sub_group_id(), n = get_num_sub_groups();
    intel_sub_group_block_write(out + s * 8, (uint)get_global_id(0));
    uint v = intel_sub_group_block_read(out + (s + 1) % n * 8);
    out[16 + get_global_id(0)] = v;
}

// Message passing through local memory: item 0 writes tile[1], then sets
// the flag in tile[0]; item 8 (sub-group 1) reads tile[1] once it sees the
// flag.  A relaxed flag orders nothing: the load races with the store.
kernel void wg_flag_relaxed(global int *out, local int *tile)
{
    local atomic_int *flag = (local atomic_int *)tile;
    uint l = get_local_id(0);
    if (l == 0) {
        tile[1] = 42;
        atomic_store_explicit(flag, 1, memory_order_relaxed, memory_scope_work_group);
    }
    int v = -1;
    if (l == 8 && atomic_load_explicit(flag, memory_order_relaxed, memory_scope_work_group))
        v = tile[1];
    out[l] = v;
}

// The same through global memory between work-groups: work-group 0's
// item 0 writes out[1] and sets the flag out[63], work-group 1's item 16
// reads out[1] once it sees the flag.
kernel void dev_flag_relaxed(global int *out, local int *tile)
{
    global atomic_int *flag = (global atomic_int *)(out + 63);
    uint g = get_global_id(0);
    if (g == 0) {
        out[1] = 42;
        atomic_store_explicit(flag, 1, memory_order_relaxed, memory_scope_device);
    }
    int v = -1;
    if (g == 16 && atomic_load_explicit(flag, memory_order_relaxed, memory_scope_device))
        v = out[1];
    out[2 + g] = v;
}

// Release and acquire, but at work-group scope between two work-groups:
// neither is in the other's scope, so they do not synchronise.
kernel void dev_flag_wg_scope(global int *out, local int *tile)
{
    global atomic_int *flag = (global atomic_int *)(out + 63);
    uint g = get_global_id(0);
    if (g == 0) {
        out[1] = 42;
        atomic_store_explicit(flag, 1, memory_order_release, memory_scope_work_group);
    }
    int v = -1;
    if (g == 16 && atomic_load_explicit(flag, memory_order_acquire, memory_scope_work_group))
        v = out[1];
    out[2 + g] = v;
}

// Images: each work-item writes its element of row 0, then reads its
// neighbour's, with no barrier between (read_write image).
kernel void img_neighbour(global int *out, local int *tile, read_write image2d_t img)
{
    int l = get_local_id(0);
    write_imageui(img, (int2)(l, 0), (uint4)(l, 0, 0, 0));
    out[l] = read_imageui(img, (int2)((l + 1) % 16, 0)).x;
}

// A barrier between whose fence flags lack the image.
kernel void img_missing_fence(global int *out, local int *tile, read_write image2d_t img)
{
    int l = get_local_id(0);
    write_imageui(img, (int2)(l, 0), (uint4)(l, 0, 0, 0));
    barrier(CLK_LOCAL_MEM_FENCE);
    out[l] = read_imageui(img, (int2)((l + 1) % 16, 0)).x;
}

// Image block I/O: each sub-group block-writes its 8 elements of row 0,
// then block-reads the next sub-group's.
kernel void img_block_neighbour(global int *out, local int *tile, read_write image2d_t img)
{
    int s = get_sub_group_id(), n = get_num_sub_groups();
    intel_sub_group_block_write_ui(img, (int2)(s * 32, 0), (uint)get_local_id(0));
    out[get_local_id(0)] = intel_sub_group_block_read_ui(img, (int2)((s + 1) % n * 32, 0));
}
