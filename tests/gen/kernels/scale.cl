/* no required width: IGC compiles the width sgemu asks for (--sg) */
kernel void scale(global int *x, int k)
{
    size_t i = get_global_id(0);
    x[i] = x[i] * k + (int)get_max_sub_group_size();
}
