/* Whole struct and array copies: clang emits OpCopyMemorySized (memcpy) for
 * them; isa/spirv_aggregate.c lowers it to chunked loads/stores. */
typedef struct { int a; float b; short c[3]; long d; } S;   /* 24 bytes */
typedef struct { float4 v; int k[5]; } T;                   /* 48 bytes */

__kernel void structs(__global const S *in, __global S *out, __global T *tio, __local S *ls)
{
    size_t i = get_global_id(0), l = get_local_id(0);
    S s = in[i];
    s.a += 1;
    s.c[1] = (short)(s.c[1] * 3);
    ls[l] = s;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[i] = ls[(l + 1) % get_local_size(0)];
    T p[2];
    p[0] = tio[i];
    p[1] = p[0];
    p[1].k[(int)i % 5] += 7;
    p[1].v.y *= 2.0f;
    __builtin_memcpy(&tio[i], &p[1], sizeof(T));
}

/* private byte arrays copied with an odd size (13) and alignment */
__kernel void bytes(__global const uchar *in, __global uchar *out, int sh)
{
    size_t i = get_global_id(0);
    uchar buf[13];
    for (int k = 0; k < 13; k++)
        buf[k] = in[i * 13 + k];
    uchar cp[13];
    __builtin_memcpy(cp, buf, 13);
    cp[(i + sh) % 13] ^= 0x5a;
    __builtin_memcpy(out + i * 13, cp, 13);
}

/* a packed struct (OpDecorate CPacked): members at odd offsets, loaded and
 * stored with Aligned 1 in pieces */
typedef struct __attribute__((packed)) { char c; int i; short s; float f; } PK;   /* 11 bytes */

__kernel void packed(__global PK *p, __global int *o)
{
    size_t i = get_global_id(0);
    o[i] = p[i].i + p[i].s;
    p[i].i = p[i].i * 3;
    p[i].f = p[i].f + 1.0f;
    p[i].s = (short)(p[i].s - 2);
}
