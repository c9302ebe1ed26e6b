/* float ALU: mul, mad (fma), min, source modifiers, rounding, conversions */
__attribute__((intel_reqd_sub_group_size(WIDTH)))
kernel void alu_float(global const float *a, global const float *b, global float *out,
                      global int *iout)
{
    size_t i = get_global_id(0);
    float x = a[i], y = b[i];
    global float *o = out + i * 6;
    o[0] = x * y;
    o[1] = fma(x, y, 1.5f);
    o[2] = fmin(x, y);
    o[3] = fabs(x) - y;
    o[4] = floor(x);
    o[5] = (float)(int)y;
    iout[i] = (int)(x * 100.0f);
}
