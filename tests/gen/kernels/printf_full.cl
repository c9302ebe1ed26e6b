/* more printf records than IGC's 4 MiB buffer holds: each call's record
 * is 16 bytes (format address 8, type id 4, the int 4), so 262143 fit
 * after the 4-byte counter (test_gen_exec: printf_full) */
__attribute__((intel_reqd_sub_group_size(16)))
kernel void printf_full(int n)
{
    for (int i = 0; i < n; i++)
        printf("%d\n", i);
}
