/* vectors and a struct passed by value: IGC passes them in pieces of the
 * cross-thread data (arg_byvalue, with source_offset past a padding hole) */
typedef struct { char c; float4 v; int i; short s; } P;   /* 48 bytes: v at 16, i at 32 */

__attribute__((intel_reqd_sub_group_size(WIDTH)))
kernel void byval(global int *o, P p, uchar16 u, float3 t)
{
    int i = (int)get_global_id(0);
    o[4 * i] = p.c + p.i * i + p.s;
    o[4 * i + 1] = (int)(p.v.y * (float)i + p.v.w);
    o[4 * i + 2] = u.s0 + u.sf * 3 + u.s7 * i + u.s9;
    o[4 * i + 3] = (int)(t.z * (float)i + t.x - t.y);
}
