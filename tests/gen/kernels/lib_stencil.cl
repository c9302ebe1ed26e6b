/* Stencils and convolutions: a 1D stencil with its halo in local memory, a
 * 3x3 convolution with its weights in a constant table, and a private
 * array indexed with data. */
constant float weights[9] = { 0.0625f, 0.125f, 0.0625f, 0.125f, 0.25f,
                              0.125f, 0.0625f, 0.125f, 0.0625f };
constant int perm[16] = { 3, 14, 7, 0, 9, 12, 1, 6, 15, 4, 11, 2, 13, 8, 5, 10 };

kernel void stencil5(global const float *in, global float *out, local float *s)
{
    int lid = get_local_id(0), lsz = get_local_size(0), g = get_global_id(0);
    int n = get_global_size(0);
    s[lid + 2] = in[g];
    if (lid < 2) {
        s[lid] = in[max(g - 2, 0)];
        s[lsz + 2 + lid] = in[min(g + lsz, n - 1)];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    out[g] = 0.1f * s[lid] + 0.2f * s[lid + 1] + 0.4f * s[lid + 2] + 0.2f * s[lid + 3] +
             0.1f * s[lid + 4];
}

kernel void conv3x3(global const float *img, global float *out)
{
    int g = get_global_id(0);
    int x = g & 15, y = g >> 4;
    float acc = 0.0f;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            int xx = clamp(x + dx, 0, 15), yy = clamp(y + dy, 0, 3);
            acc += weights[(dy + 1) * 3 + dx + 1] * img[yy * 16 + xx];
        }
    out[g] = acc;
}

kernel void private_dyn(global const int *in, global int *out)
{
    int g = get_global_id(0);
    int a[16];
    for (int i = 0; i < 16; i++)
        a[i] = in[g + i] * perm[i];
    for (int i = 0; i < 8; i++) {
        int j = in[g * 2 + i] & 15;
        a[j] += a[perm[j]] + i;
    }
    out[g] = a[in[g] & 15] + a[perm[g & 15]];
}
