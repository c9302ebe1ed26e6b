// dbgline.cl: compiled with -gline-tables-only, so faults and diagnostics
// name this file and the source line
kernel void dbgline(global const uint *in, global uint *out)
{
    uint i = get_global_id(0);
    out[i + 3] = in[i] * 2u;    /* line 6: the last three items run off out's end */
}
