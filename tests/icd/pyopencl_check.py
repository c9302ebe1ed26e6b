"""pyopencl against sgemu's OpenCL platform, run as `sgemu exec -- python3
pyopencl_check.py`: a plain kernel, a sub-group kernel at every sub-group
width the device lists, and an image kernel, each checked against numpy.
With --untimed (run under `sgemu exec --no-timing`) a kernel's profiling
times are zero-length instead of modelled.  Exits 1 with a message on the
first mismatch."""
import sys

import numpy as np
import pyopencl as cl

SOURCE = """
kernel void saxpy(float a, global const float *x, global float *y) {
    size_t i = get_global_id(0);
    y[i] = a * x[i] + y[i];
}
kernel void sg_scan(global const int *in, global int *out, global int *width) {
    size_t i = get_global_id(0);
    out[i] = sub_group_scan_inclusive_add(in[i]);
    if (i == 0) width[0] = get_max_sub_group_size();
}
kernel void blur_x(read_only image2d_t src, write_only image2d_t dst) {
    int x = get_global_id(0), y = get_global_id(1), w = get_image_width(src);
    float4 l = read_imagef(src, (int2)(max(x - 1, 0), y));
    float4 c = read_imagef(src, (int2)(x, y));
    float4 r = read_imagef(src, (int2)(min(x + 1, w - 1), y));
    write_imagef(dst, (int2)(x, y), (l + c + r) / 3.0f);
}
"""


def check(what, ok):
    if not ok:
        print(f"pyopencl_check: {what}: mismatch", file=sys.stderr)
        sys.exit(1)
    print(f"pyopencl_check: {what}: ok")


def main():
    platforms = cl.get_platforms()
    check("one platform, sgemu", len(platforms) == 1 and platforms[0].name == "sgemu")
    dev = platforms[0].get_devices()[0]
    ctx = cl.Context([dev])
    queue = cl.CommandQueue(ctx, properties=cl.command_queue_properties.PROFILING_ENABLE)
    prog = cl.Program(ctx, SOURCE).build(options="-cl-std=CL2.0")
    mf = cl.mem_flags

    n = 1000
    rng = np.random.default_rng(7)
    x = rng.random(n, dtype=np.float32)
    y = rng.random(n, dtype=np.float32)
    bx = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=x)
    by = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=y)
    ev = prog.saxpy(queue, (n,), None, np.float32(2.5), bx, by)
    ev.wait()
    out = np.empty_like(y)
    cl.enqueue_copy(queue, out, by)
    check("saxpy", np.array_equal(out, np.float32(2.5) * x + y))
    if "--untimed" in sys.argv:
        check("profiling: zero-length time without the model",
              ev.profile.end == ev.profile.start and ev.profile.start >= ev.profile.queued)
    else:
        check("profiling: modelled time", ev.profile.end > ev.profile.start)

    # the width the device runs a kernel at: its preferred work-group multiple
    width = prog.sg_scan.get_work_group_info(
        cl.kernel_work_group_info.PREFERRED_WORK_GROUP_SIZE_MULTIPLE, dev)
    m = 256
    data = rng.integers(-50, 50, m, dtype=np.int32)
    bin_ = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=data)
    bout = cl.Buffer(ctx, mf.WRITE_ONLY, data.nbytes)
    bw = cl.Buffer(ctx, mf.WRITE_ONLY, 4)
    prog.sg_scan(queue, (m,), (64,), bin_, bout, bw)
    scan = np.empty_like(data)
    w = np.zeros(1, dtype=np.int32)
    cl.enqueue_copy(queue, scan, bout)
    cl.enqueue_copy(queue, w, bw)
    check("sub-group width", int(w[0]) == width)
    want = np.concatenate([np.cumsum(data[i:i + width]) for i in range(0, m, width)])
    check(f"sub_group_scan_inclusive_add at SIMD{width}", np.array_equal(scan, want))

    h, wd = 9, 23
    img = rng.random((h, wd, 4), dtype=np.float32)
    fmt = cl.ImageFormat(cl.channel_order.RGBA, cl.channel_type.FLOAT)
    src = cl.Image(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, fmt, shape=(wd, h), hostbuf=img)
    dst = cl.Image(ctx, mf.WRITE_ONLY, fmt, shape=(wd, h))
    prog.blur_x(queue, (wd, h), None, src, dst)
    res = np.empty_like(img)
    cl.enqueue_copy(queue, res, dst, origin=(0, 0), region=(wd, h))
    left = np.concatenate([img[:, :1], img[:, :-1]], axis=1)
    right = np.concatenate([img[:, 1:], img[:, -1:]], axis=1)
    want_img = (left + img + right) / np.float32(3.0)
    check("image blur", np.allclose(res, want_img, rtol=1e-6, atol=1e-6))
    queue.finish()


if __name__ == "__main__":
    main()
