// dbgline.cl: compiled with -gline-tables-only, so faults and diagnostics
// name this file and the source line
kernel void dbgline(global const uint *in, global uint *out)
{
    uint i = get_global_id(0);
    out[i + 3] = in[i] * 2u;    /* line 6: the last three items run off out's end */
}

// a phi after the debug scope that starts its block (llvm-spirv-14 puts an
// OpenCL.DebugInfo.100 DebugScope before the block's OpPhis): the division
// cannot be speculated, so the two paths meet in a phi
kernel void dbgphi(global const uint *in, global uint *out)
{
    uint i = get_global_id(0), x = in[i], y = i % 3, r;
    if (y != 0)
        r = x / y;
    else
        r = 7;
    out[i] = r;
}
