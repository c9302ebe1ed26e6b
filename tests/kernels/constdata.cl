/* Program-scope __constant data (module-scope UniformConstant variables) and
 * an initialised private array: the bytes travel in the kernel's .const_data
 * block (isa/spirv_constdata.c) and are read with ld.constant. */
typedef struct { float scale; int off[3]; short tag; } P;
__constant int table[8] = { 3, 1, 4, 1, 5, 9, 2, 6 };
__constant P params[2] = { { 1.5f, { 10, 20, 30 }, 7 }, { -2.0f, { -1, -2, -3 }, -9 } };
__constant float4 vtab[3] = { (float4)(1, 2, 3, 4), (float4)(5, 6, 7, 8), 0 };
__constant char msg[] = "sgemu";
__constant long big[2][3] = { { 1, -2, 3 }, { 1L << 40, 5, -(1L << 50) } };
__kernel void cdata(__global const int *in, __global float *out)
{
    size_t i = get_global_id(0);
    int v = in[i];
    __constant P *p = &params[v & 1];
    float4 q = vtab[v % 3];
    out[i * 4 + 0] = (float)table[v & 7] * p->scale + (float)p->off[v % 3] + (float)p->tag;
    out[i * 4 + 1] = q.x + q.y * 10.0f + q.z * 100.0f + q.w * 1000.0f;
    out[i * 4 + 2] = (float)msg[v % 6];
    out[i * 4 + 3] = (float)(big[v & 1][v % 3] >> 20);
    int lut[5] = { 11, 22, 33, 44, 55 };     /* initialised private array */
    out[i * 4 + 0] += (float)lut[(v >> 3) % 5] * 1000.0f;
}
