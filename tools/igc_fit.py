#!/usr/bin/env python3
"""igc_fit.py - the smallest register file in which Intel's compiler (IGC,
through `ocloc`) compiles each kernel of an OpenCL C file without a spill.

    python3 tools/igc_fit.py --target pvc --width 32 FILE.cl [--lo 16] [--hi 256] [--no-presched]

IGC's vISA takes `-TotalGRFNum N` (IGC_VISAOptions in the environment) and
allocates the kernel in an N-register file; its dumped Gen ISA says
`//.thread_config numGRF=N` and has a `//.spill size` line where it spilled.
Every kernel gets __attribute__((intel_reqd_sub_group_size(W))); all of them
are compiled together at --hi, and each kernel's bracket (largest N that
spilled, smallest that fitted) is bisected, one compile of the whole file
per distinct midpoint, so the result is exact to a register.  Prints one
line per kernel: its name, the smallest N that fits ("> hi" where it
spills in --hi registers) and what IGC did at N - 1 (spilled so many
bytes, or built no code at all: the smallest file IGC builds at that
width; "--lo" where N is --lo).  docs/regalloc.md quotes its measurements
(Two-source shuffles).  About 3 s of CPU per compile.

Below about 100 registers the answer is the pre-RA scheduler's, not the
kernel's: vISA schedules a block for latency when its pressure is under
its threshold (`-presched-rp 100` on every Intel target) and keeps the
new order while that stays at or under 100 registers, for any file of up
to 128, so the schedule it allocates at N is as long-lived as 100 allows.
--no-presched turns that scheduler off (docs/regalloc.md, What IGC holds
in a vector copy).

Exit status: 0 ok, 1 bad usage, a missing file or no ocloc.
"""
import argparse
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from igc_compare import kernel_names, with_width  # noqa: E402
from igc_math_demand import spills_at  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("file")
    ap.add_argument("--target", required=True)
    ap.add_argument("--width", type=int, required=True)
    ap.add_argument("--lo", type=int, default=16)
    ap.add_argument("--hi", type=int, default=256)
    ap.add_argument("--options", default="-cl-std=CL2.0")
    ap.add_argument("--no-presched", action="store_true",
                    help="vISA's pre-RA scheduler off (IGC_EnableVISAPreSched=0)")
    a = ap.parse_args()
    if not shutil.which("ocloc"):
        print("igc_fit.py: ocloc not found (Debian: intel-opencl-icd)", file=sys.stderr)
        return 1
    if not 1 <= a.lo <= a.hi:
        print("igc_fit.py: need 1 <= --lo <= --hi", file=sys.stderr)
        return 1
    try:
        src = open(a.file, encoding="utf-8").read()
    except OSError as e:
        print("igc_fit.py: %s" % e, file=sys.stderr)
        return 1
    opts = a.options + " -I " + os.path.dirname(os.path.abspath(a.file))
    names = kernel_names(a.file)
    if not names:
        print("igc_fit.py: no kernels in %s (clang-14 -E failed?)" % a.file, file=sys.stderr)
        return 1
    fit = {k: None for k in names}
    fail = {k: (a.lo - 1, None) for k in names}
    top = spills_at(with_width(src, a.width), a.target, a.width, a.hi, opts, not a.no_presched)[1]
    for k in names:
        if top.get(k) == 0:
            fit[k] = a.hi
    while True:
        groups = {}
        for k in names:
            if fit[k] is not None and fit[k] - fail[k][0] > 1:
                groups.setdefault((fail[k][0], fit[k]), []).append(k)
        if not groups:
            break
        # one compile per distinct midpoint: the file compiles as a whole
        mids = sorted({(lo + hi) // 2 for lo, hi in groups})
        for mid in mids:
            res = spills_at(with_width(src, a.width), a.target, a.width, mid, opts, not a.no_presched)[1]
            for (lo, hi), ks in groups.items():
                if (lo + hi) // 2 != mid:
                    continue
                for k in ks:
                    if res.get(k) == 0:
                        fit[k] = mid
                    else:
                        fail[k] = (mid, res.get(k))
    for k in names:
        if fit[k] is None:
            print("%-24s > %d" % (k, a.hi))
        else:
            lo, sp = fail[k]
            why = ("--lo" if lo < a.lo else "no code" if sp is None else "spills %d B" % sp)
            print("%-24s %4d   (at %d: %s)" % (k, fit[k], lo if lo >= a.lo else fit[k], why))
    return 0


if __name__ == "__main__":
    sys.exit(main())
