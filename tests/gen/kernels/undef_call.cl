/* a function the source declares and IGC's built-ins lack: IGC compiles
 * the call against an undefined symbol (test_gen_exec: undefined_call) */
int sgemu_not_defined(int x);

kernel void undef_call(global int *o)
{
    size_t i = get_global_id(0);
    o[i] = sgemu_not_defined((int)i);
}
