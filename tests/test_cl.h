/* test_cl.h - checking OpenCL calls in a cmocka test: CL_OK(call) fails
 * the test, naming the call and its error code, unless it returns
 * CL_SUCCESS.  Include after <CL/cl.h> and <cmocka.h>. */
#ifndef SGEMU_TEST_CL_H
#define SGEMU_TEST_CL_H

#define CL_OK(call)                                                          \
    do {                                                                     \
        cl_int e_ = (call);                                                  \
        if (e_ != CL_SUCCESS)                                                \
            fail_msg("%s failed: OpenCL error %d", #call, (int)e_);          \
    } while (0)

#endif
