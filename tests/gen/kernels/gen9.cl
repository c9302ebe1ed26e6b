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
