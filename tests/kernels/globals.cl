/* Program-scope __global variables (OpenCL C 2.0 and 3.0): initialised
 * scalars, arrays and structs, zero-initialised ones, a counter every
 * work-item increments atomically, a value one work-item of work-group 0
 * writes, pointers initialised with addresses of other program-scope
 * variables (global and constant), and `static global` locals.  They live in
 * the kernel's .global_data block (isa/spirv_globaldata.c). */
typedef struct { int a; float b; short c[3]; long d; } rec;
typedef struct { int tag; global int *p; } link;

global int scal = 42;
global int arr[6] = { 1, -2, 3, -4, 5, -6 };
global rec st = { 7, 2.5f, { 10, 20, 30 }, -(1L << 40) };
global float zf;                        /* zero-initialised */
global int zarr[8];
global uint counter;                    /* atomic_inc by every work-item */
global int maxid = -1;                  /* atomic_max of the global ids */
global long marker;                     /* one work-item of work-group 0 */
global int *ptr_arr = &arr[3];
global int *ptr_scal = &scal;
global short *ptr_member = &st.c[2];
constant int ctab[4] = { 100, 200, 300, 400 };
constant int *global ptr_const = &ctab[2];
global link links[2] = { { 1, &arr[0] }, { 2, &zarr[5] } };

kernel void globals(global int *out)
{
    static global int calls = 5;        /* +2 per work-item */
    size_t i = get_global_id(0);
    atomic_inc(&counter);
    atomic_max(&maxid, (int)i);
    atomic_add(&calls, 2);
    out[i * 6 + 0] = scal + arr[i % 6];
    out[i * 6 + 1] = st.a * 1000 + st.c[i % 3] + (int)(st.b * 2.0f);
    out[i * 6 + 2] = (int)(st.d >> 32) + (int)zf + zarr[i % 8];
    out[i * 6 + 3] = *ptr_arr + *ptr_scal * 10 + *ptr_member * 100;
    out[i * 6 + 4] = *ptr_const + links[i & 1].tag * 10000 + *links[i & 1].p;
    out[i * 6 + 5] = (int)sizeof(rec) + ctab[i % 4];
    if (get_group_id(0) == 0 && get_local_id(0) == 3)
        marker = 0x1234567890abcdefL ^ (long)i;
}

/* A `static global` the optimiser keeps as a bool (its only values are 9
 * and 1): one byte in the block.  Work-item 0 reads it (9), then sets it. */
kernel void flag(global int *out)
{
    static global int state = 9;
    size_t i = get_global_id(0);
    if (i == 0) {
        out[0] = state;
        state = 1;
    } else {
        out[i] = (int)i;
    }
}

/* Writes through a pointer read from a program-scope pointer variable: every
 * work-item stores 3 x its id into its own element of zarr2 (read back with
 * `--out zarr2`). */
global int zarr2[64];
global int *wp = &zarr2[0];
kernel void through(global int *out)
{
    size_t i = get_global_id(0);
    wp[i] = (int)i * 3;
    out[i] = (int)(wp - zarr2) + (int)i;   /* wp still points at zarr2[0] */
}

/* OpenCL C 2.0 atomic types at program scope: atomic_fetch_add on an
 * initialised atomic_int and relaxed device-scope adds on an array. */
global atomic_int ai = ATOMIC_VAR_INIT(5);
global atomic_uint hist[4];
kernel void c11atomics(global int *out)
{
    size_t i = get_global_id(0);
    out[i] = atomic_fetch_add(&ai, 1) >= 5;
    atomic_fetch_add_explicit(&hist[i % 4], 1u, memory_order_relaxed, memory_scope_device);
}
