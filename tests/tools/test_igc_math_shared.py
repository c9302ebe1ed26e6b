#!/usr/bin/env python3
"""tools/igc_math_shared.py, the step that reads IGC's optimized LLVM IR of
`o[2i] = f(a); o[2i+1] = g(a)`: the values defined before the first store
and read after it, each counted by the type of the value it defines (a
compare defines a flag, no GRF bytes; a cast its target type; a select its
operands' type; a bitcast is its source).  The body below is written by
hand; its expected bytes are read off it.  Needs no ocloc."""
import sys

sys.path.insert(0, sys.argv[1])
import igc_math_shared as ms  # noqa: E402

# f's part defines: %0 the operand load (live in sgemu's code: not counted),
# %bits a bitcast of it (its source), %abs = and (4), %neg fneg (4),
# %lt a compare (i1: a flag), %sel a select of floats (4), %wide a zext to
# i64 (8), %ptr an address (both kernels have it), %dead f's result, read
# by the first store (4: the kernel of other operands has it too, so the
# pair's difference drops it).
BODY = """entry:
  %p = getelementptr inbounds float, float addrspace(1)* %a, i64 %i
  %0 = load float, float addrspace(1)* %p, align 4
  %bits = bitcast float %0 to i32
  %abs = and i32 %bits, 2147483647
  %neg = fneg float %0
  %lt = fcmp olt float %0, 0.000000e+00
  %sel = select i1 %lt, float %neg, float %0
  %wide = zext i32 %abs to i64
  %dead = fmul float %0, 2.000000e+00
  %ptr = getelementptr inbounds float, float addrspace(1)* %o, i64 %i
  store float %dead, float addrspace(1)* %ptr, align 4
  %r1 = add i32 %bits, 1
  %r2 = fadd float %neg, %sel
  %r3 = select i1 %lt, i32 %abs, i32 %r1
  %r4 = trunc i64 %wide to i32
  %ptr2 = getelementptr inbounds float, float addrspace(1)* %o, i64 %r4
  store float %r2, float addrspace(1)* %ptr2, align 4"""


def main():
    failures = []
    types = {"fcmp olt float %0, 0.0": "i1", "icmp eq i32 %x, 255": "i1",
             "zext i32 %a to i64": "i64", "trunc i64 %w to i32": "i32",
             "select i1 %c, float %a, float %b": "float",
             "select i1 %c, double %a, double 1.0": "double",
             "phi half [ %a, %b ], [ %c, %d ]": "half",
             "add nuw i32 %x, 2139095040": "i32", "fneg float %0": "float",
             "call float @llvm.fma.f32(float %a, float %b, float %c)": "float"}
    for rhs, want in types.items():
        got = ms.result_type(rhs)
        if got != want:
            failures.append("result_type(%r) = %r, want %r" % (rhs, got, want))
    live = ms.live_across(BODY)
    got = sorted(live.values())
    # %abs 4, %neg 4, %sel 4, %dead 4, %wide 8; %bits is the load %0 (not
    # counted), %lt a flag (the reading before counted it 4 bytes, %sel 0
    # and %wide 4: [4, 4, 4, 4, 4])
    want = [4, 4, 4, 4, 8]
    if got != want:
        failures.append("live_across bytes %r, want %r" % (got, want))
    for f in failures:
        print("FAIL:", f)
    print("%d failures" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
