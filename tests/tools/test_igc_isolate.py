#!/usr/bin/env python3
"""tools/igc_isolate.py, the step of tools/igc_compare.py that keeps one
kernel of a file IGC refuses: kernel spans by brace matching (braces in
strings, structs, helper functions and attributes before `kernel` around
them), the copy with only the chosen kernels (lines kept in place), the
kernel an error location falls in, and, where clang-14 is installed,
kernels that a macro defines.  Needs no ocloc."""
import os
import shutil
import sys
import tempfile

sys.path.insert(0, sys.argv[1])
import igc_isolate as iso  # noqa: E402

SRC = """#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef struct { int a; } S;
static int helper(int x) { return x + 1; }
kernel void k_float(global float *p) { if (p[0] > 0) { p[0] = 1.0f; } }
__attribute__((reqd_work_group_size(64, 1, 1))) kernel void k_double(global double *p)
{
    printf("{ not a brace }\\n");
    p[0] = '}';
}
__kernel void k_int(global int *p) { S s = {2}; p[0] = helper(s.a); }
"""


def check(failures, what, got, want):
    if got != want:
        failures.append("%s: got %r, want %r" % (what, got, want))


def main():
    failures = []
    spans = iso.kernel_spans(SRC)
    check(failures, "names", [s[0] for s in spans], ["k_float", "k_double", "k_int"])
    texts = {name: SRC[a:b] for name, a, b in spans}
    check(failures, "k_float span", texts["k_float"].strip(),
          "kernel void k_float(global float *p) { if (p[0] > 0) { p[0] = 1.0f; } }")
    check(failures, "k_double starts at its attribute", texts["k_double"].strip()[:30],
          "__attribute__((reqd_work_group")
    check(failures, "k_double ends at its brace", texts["k_double"].endswith("p[0] = '}';\n}"),
          True)

    only = iso.keep_only(SRC, {"k_int"})
    check(failures, "kept kernels", [s[0] for s in iso.kernel_spans(only)], ["k_int"])
    check(failures, "lines kept", only.count("\n"), SRC.count("\n"))
    check(failures, "k_int on its line", only.splitlines()[9], SRC.splitlines()[9])
    for keep in ("#pragma OPENCL", "typedef struct", "static int helper"):
        check(failures, "keeps " + keep, keep in only, True)
    check(failures, "double gone", "double" in only, False)

    # line 7 is inside k_double, line 3 a helper, line 10 k_int
    check(failures, "error in k_double", iso.kernel_at(SRC, 7, 5), "k_double")
    check(failures, "error in helper", iso.kernel_at(SRC, 3, 20), None)
    check(failures, "error in k_int", iso.kernel_at(SRC, 10, 30), "k_int")
    check(failures, "line past the end", iso.kernel_at(SRC, 99, 1), None)

    if shutil.which("clang-14"):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "m.cl")
            with open(path, "w", encoding="utf-8") as f:
                f.write("#define K(T) kernel void k_##T(global T *p) { p[0] = (T)1; }\n"
                        "K(int) K(double) K(float)\n"
                        "kernel void fence(global int *p) { barrier(CLK_LOCAL_MEM_FENCE); }\n")
            text = iso.preprocess(path)
            check(failures, "macro kernels", [s[0] for s in iso.kernel_spans(text or "")],
                  ["k_int", "k_double", "k_float", "fence"])
            # the OpenCL header stays out: the device compiler's defines it
            check(failures, "header macro left", "CLK_LOCAL_MEM_FENCE" in (text or ""), True)
            check(failures, "one macro kernel kept",
                  [s[0] for s in iso.kernel_spans(iso.keep_only(text or "", {"k_float"}))],
                  ["k_float"])
        check(failures, "missing file", iso.preprocess(os.path.join(tmp, "none.cl")), None)
    else:
        print("clang-14 not found: macro expansion not checked")

    for f in failures:
        print("FAIL " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
