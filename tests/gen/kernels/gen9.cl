/* Gen9 code: mix() with a weight becomes lrp; and under register pressure
 * at SIMD32 IGC gives a two-dword gathering read its address registers as
 * the response (`send (16|M16) r80 r80`), which the hardware reads first */
__attribute__((intel_reqd_sub_group_size(WIDTH)))
kernel void lrp(global const float *x, global const float *y, global float *o)
{
    size_t i = get_global_id(0);
    o[3 * i] = mix(x[i], y[i], 0.25f);
    o[3 * i + 1] = mix(x[i], y[i], 0.75f);
    o[3 * i + 2] = mix(x[i], y[i], x[i] * 0.0078125f);
}

__attribute__((intel_reqd_sub_group_size(WIDTH)))
kernel void gather(global const uint *idx, global const uint2 *tab, global uint2 *g)
{
    size_t i = get_global_id(0);
    uint2 v[12];
    for (int k = 0; k < 12; k++)
        v[k] = tab[idx[i * 12 + k]];
    uint2 s = 0;
    for (int k = 0; k < 12; k++)
        s = s * 3u + v[k];
    g[i] = s;
}

/* a function IGC keeps as a subroutine (call/ret), called by the channels
 * of a divergent branch: the others wait at the endif */
__attribute__((noinline)) static int callee(int *q, int i)
{
    q[i & 3] += i;
    return q[(i + 1) & 3] * 3 + i;
}

__attribute__((intel_reqd_sub_group_size(WIDTH)))
kernel void callret(global int *o)
{
    int i = (int)get_global_id(0);
    int q[4] = { i, 2 * i, 3, 4 };
    int r = -1;
    if (i % 3)
        r = callee(q, i);
    o[i] = r + q[0] + 5 * q[1] + 7 * q[2] + 11 * q[3];
}

/* ulong to float: Gen9's mov from :uq, an unsigned source (values at and
 * above 2^63 too) */
__attribute__((intel_reqd_sub_group_size(WIDTH)))
kernel void u64_float(global const ulong *a, global float *f)
{
    size_t i = get_global_id(0);
    f[i] = convert_float(a[i]);
}

/* float to ulong at and above 2^63 (mov :uq from :f), and a ulong of
 * that range saturated to uint (mov.sat :ud from :uq) */
__attribute__((intel_reqd_sub_group_size(WIDTH)))
kernel void float_u64(global const float *f, global const ulong *a, global ulong *o,
                      global uint *u)
{
    size_t i = get_global_id(0);
    o[i] = convert_ulong(f[i]);
    u[i] = convert_uint_sat(a[i]);
}

/* float atomics on global memory: on skl IGC builds atomic_fetch_sub, _min
 * and _max of atomic_float as HDC A64 float atomic messages (MT1A_A64_UF),
 * with the old value returned where the kernel reads it */
__attribute__((intel_reqd_sub_group_size(WIDTH)))
kernel void fatomic(global atomic_float *g, global const float *v, global float *old)
{
    size_t i = get_global_id(0);
    atomic_fetch_sub(&g[0], isnan(v[i]) ? 0.0f : v[i]);
    atomic_fetch_min(&g[1], v[i]);
    atomic_fetch_max(&g[2], v[i]);
    old[i] = atomic_fetch_max(&g[3], v[i]);
}
