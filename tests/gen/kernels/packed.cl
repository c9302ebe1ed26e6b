/* members of a packed struct at odd offsets: on Xe-HPG+ IGC reads and
 * writes the int and float with LSC d32 messages at byte addresses
 * (test_gen_exec: lsc_unaligned) */
typedef struct __attribute__((packed)) { char c; int i; short s; float f; } PK;   /* 11 bytes */

__attribute__((intel_reqd_sub_group_size(WIDTH)))
kernel void packed(global PK *p, global int *o)
{
    size_t i = get_global_id(0);
    o[i] = p[i].i + p[i].s;
    p[i].i = p[i].i * 3;
    p[i].f = p[i].f + 1.0f;
}
