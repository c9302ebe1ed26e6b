// correct.cl: local-memory patterns that are race-free under OpenCL's
// rules; the detectors must report nothing on them.

// Store, barrier, neighbour's load; then a second round after a barrier.
kernel void with_barrier(global int *out, local int *tile)
{
    uint lid = get_local_id(0), n = (lid + 1) % get_local_size(0);
    tile[lid] = (int)get_global_id(0);
    barrier(CLK_LOCAL_MEM_FENCE);
    int v = tile[n];
    barrier(CLK_LOCAL_MEM_FENCE);
    tile[lid] = v * 2;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = tile[n];
}

// A neighbour inside the sub-group, ordered by a sub-group barrier.
kernel void sg_with_barrier(global int *out, local int *tile)
{
    uint lid = get_local_id(0);
    tile[lid] = (int)lid * 3;
    sub_group_barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = tile[lid ^ 1u];
}

// Every work-item counts into one local counter with atomics; the count is
// read after the barrier.
kernel void local_atomics(global int *out, local int *count)
{
    if (get_local_id(0) == 0)
        count[0] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_inc(&count[0]);
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = count[0];
}

// Global memory: a neighbour's element inside the work-group after a
// barrier that fences global memory; a second one orders those loads
// before the stores that overwrite the elements.
kernel void global_with_fence(global int *out, local int *tile)
{
    uint g = get_global_id(0), l = get_local_id(0);
    out[g] = (int)g;
    barrier(CLK_GLOBAL_MEM_FENCE);
    int v = out[g - l + (l + 1) % get_local_size(0)];
    barrier(CLK_GLOBAL_MEM_FENCE);
    out[g] = v * 2;
}

// Global atomics of every work-item of two work-groups on one counter and
// one atomic_int: atomics never race with atomics.
kernel void global_atomics(global int *out, local int *tile)
{
    atomic_inc(&out[0]);
    global atomic_int *a = (global atomic_int *)out + 1;
    atomic_store(a, (int)get_global_id(0));
    tile[get_local_id(0)] = atomic_load(a);
    barrier(CLK_LOCAL_MEM_FENCE);
    out[2 + get_global_id(0)] = tile[get_local_id(0)];
}

// Width independent up to float rounding: a work-group sum adds the
// sub-groups' partial sums, whose grouping follows the width.
kernel void float_sum(global float *in, global float *out, local int *tile)
{
    float s = work_group_reduce_add(in[get_global_id(0)]);
    if (get_local_id(0) == 0)
        out[get_group_id(0)] = s;
}

// The same out-of-range shuffle, its undefined lanes never used: the
// select picks -1 for them.
kernel void shuffle_guarded(global int *out, local int *tile)
{
    uint l = get_sub_group_local_id();
    int v = sub_group_shuffle((int)get_global_id(0), l + 4);
    out[get_global_id(0)] = l + 4 < get_sub_group_size() ? v : -1;
}

// buggy.cl's wg_reduce_order with the barrier it needs.
kernel void wg_reduce_barrier(global int *out, local int *tile)
{
    uint l = get_local_id(0);
    tile[l] = (int)l;
    int s = work_group_reduce_add((int)l);
    barrier(CLK_LOCAL_MEM_FENCE);
    out[l] = tile[(l + 8) % 16] + s;
}

// buggy.cl's block_neighbour with the barrier it needs.
kernel void block_barrier(global uint *out, local int *tile)
{
    uint s = get_sub_group_id(), n = get_num_sub_groups();
    intel_sub_group_block_write(out + s * 8, (uint)get_global_id(0));
    barrier(CLK_GLOBAL_MEM_FENCE);
    uint v = intel_sub_group_block_read(out + (s + 1) % n * 8);
    out[16 + get_global_id(0)] = v;
}

// buggy.cl's wg_flag_relaxed with a release store and an acquire load:
// the store of tile[1] happens before the load.
kernel void wg_flag_release(global int *out, local int *tile)
{
    local atomic_int *flag = (local atomic_int *)tile;
    uint l = get_local_id(0);
    if (l == 0) {
        tile[1] = 42;
        atomic_store_explicit(flag, 1, memory_order_release, memory_scope_work_group);
    }
    int v = -1;
    if (l == 8 && atomic_load_explicit(flag, memory_order_acquire, memory_scope_work_group))
        v = tile[1];
    out[l] = v;
}

// buggy.cl's dev_flag_relaxed with release and acquire at device scope.
kernel void dev_flag_release(global int *out, local int *tile)
{
    global atomic_int *flag = (global atomic_int *)(out + 63);
    uint g = get_global_id(0);
    if (g == 0) {
        out[1] = 42;
        atomic_store_explicit(flag, 1, memory_order_release, memory_scope_device);
    }
    int v = -1;
    if (g == 16 && atomic_load_explicit(flag, memory_order_acquire, memory_scope_device))
        v = out[1];
    out[2 + g] = v;
}

// The same with fences around relaxed atomics: a release fence before the
// flag's store, an acquire fence after its load; and an atomic add
// between continues the release sequence.
kernel void dev_flag_fences(global int *out, local int *tile)
{
    global atomic_int *flag = (global atomic_int *)(out + 63);
    uint g = get_global_id(0);
    if (g == 0) {
        out[1] = 42;
        atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_release, memory_scope_device);
        atomic_store_explicit(flag, 1, memory_order_relaxed, memory_scope_device);
    }
    if (g == 5)
        atomic_fetch_add_explicit(flag, 1, memory_order_relaxed, memory_scope_device);
    int v = -1;
    if (g == 16 && atomic_load_explicit(flag, memory_order_relaxed, memory_scope_device) == 2) {
        atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_acquire, memory_scope_device);
        v = out[1];
    }
    out[2 + g] = v;
}

// buggy.cl's img_neighbour and img_block_neighbour with the barrier they
// need: CLK_IMAGE_MEM_FENCE (CLK_GLOBAL_MEM_FENCE orders images too).
kernel void img_with_fence(global int *out, local int *tile, read_write image2d_t img)
{
    int l = get_local_id(0);
    write_imageui(img, (int2)(l, 0), (uint4)(l, 0, 0, 0));
    barrier(CLK_IMAGE_MEM_FENCE);
    out[l] = read_imageui(img, (int2)((l + 1) % 16, 0)).x;
}

kernel void img_block_fence(global int *out, local int *tile, read_write image2d_t img)
{
    int s = get_sub_group_id(), n = get_num_sub_groups();
    intel_sub_group_block_write_ui(img, (int2)(s * 32, 0), (uint)get_local_id(0));
    barrier(CLK_GLOBAL_MEM_FENCE);
    out[get_local_id(0)] = intel_sub_group_block_read_ui(img, (int2)((s + 1) % n * 32, 0));
}

// A release read-modify-write inside a release sequence: work-group 0's
// item 0 releases the flag at device scope, work-group 1's item 16 adds
// to it with a release at work-group scope, and work-group 2's item 32
// acquires at device scope: the add continues the first release's
// sequence, so the acquire synchronises with it and out[1] is ordered.
kernel void flag_sequence(global int *out, local int *tile)
{
    global atomic_int *flag = (global atomic_int *)(out + 63);
    uint g = get_global_id(0);
    if (g == 0) {
        out[1] = 42;
        atomic_store_explicit(flag, 1, memory_order_release, memory_scope_device);
    }
    if (g == 16)
        atomic_fetch_add_explicit(flag, 1, memory_order_release, memory_scope_work_group);
    int v = -1;
    if (g == 32 && atomic_load_explicit(flag, memory_order_acquire, memory_scope_device) == 2)
        v = out[1];
    out[2 + g] = v;
}
