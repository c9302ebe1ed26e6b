/* Structs by value, constant tables, barriers in data-dependent loops,
 * printf, and switch-heavy code. */
typedef struct {
    float scale;
    int shift;
    float4 bias;
    char tag;
} params;

constant uint crc_table[16] = { 0x00000000u, 0x1db71064u, 0x3b6e20c8u, 0x26d930acu,
                                0x76dc4190u, 0x6b6b51f4u, 0x4db26158u, 0x5005713cu,
                                0xedb88320u, 0xf00f9344u, 0xd6d6a3e8u, 0xcb61b38cu,
                                0x9b64c2b0u, 0x86d3d2d4u, 0xa00ae278u, 0xbdbdf21cu };

kernel void struct_arg(global const float4 *in, global float4 *out, params p)
{
    size_t g = get_global_id(0);
    out[g] = in[g] * p.scale + p.bias + (float)((int)g >> p.shift) + (float)p.tag;
}

kernel void crc_nibble(global const uchar *data, global uint *crc)
{
    size_t g = get_global_id(0);
    uint c = 0xffffffffu;
    for (int i = 0; i < 8; i++) {
        uchar b = data[g * 8 + i];
        c = crc_table[(c ^ b) & 15] ^ (c >> 4);
        c = crc_table[(c ^ (b >> 4)) & 15] ^ (c >> 4);
    }
    crc[g] = ~c;
}

kernel void barrier_loop(global const int *in, global int *out, local int *sh)
{
    size_t lid = get_local_id(0), lsz = get_local_size(0);
    int rounds = in[0] % 5 + 2;   /* the same for the whole work-group */
    int v = in[get_global_id(0)];
    for (int r = 0; r < rounds; r++) {
        sh[lid] = v;
        barrier(CLK_LOCAL_MEM_FENCE);
        v = v + sh[(lid + 1) % lsz] * (r + 1) - sh[(lid + lsz - 1) % lsz];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    out[get_global_id(0)] = v;
}

kernel void printf_lib(global const int *in, global float *out)
{
    size_t g = get_global_id(0);
    float f = in[g] * 0.25f;
    if (g % 16 == 3)
        printf("item %d: %d %.2f %#x %s\n", (int)g, in[g], f, in[g] * 17, "ok");
    out[g] = f;
}
