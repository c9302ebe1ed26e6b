#!/usr/bin/env python3
"""igc_fit_ratio.py - sgemu's register count against the smallest register
file in which Intel's compiler (IGC) builds each corpus kernel without a
spill, per kernel and width on one Intel config.

    python3 tools/igc_fit_ratio.py --sgemu build/tools/sgemu --config configs/intel-xe-hpc.yaml
                                   [--widths 16,32] [--files a.cl,b.cl] [--fit-log FILE]
                                   [--json FILE]

IGC side: tools/igc_fit.py for every corpus file (tools/igc_compare.py's
corpus) at each width: the smallest -TotalGRFNum without a spill, exact to
a register.  Its output, one `== FILE WIDTH` line before each run, is
written to --fit-log; an existing --fit-log is read instead of compiling
again (the IGC side does not depend on sgemu).  A kernel that IGC builds
in no file up to 256 registers has no row; one whose answer is IGC's
smallest file at that width (no code below it) is a floor: IGC needs at
most that many, so sgemu under it is no undercount.
sgemu side: `spv2asm --config C --sg W` live set before spilling (as
igc_compare.py), ceil(bytes per lane x W / grf_bytes_per_register).

Prints the distribution of sgemu / IGC over the rows above IGC's floor
(ratio buckets), then the largest overcounts and undercounts.  About 3 s
of CPU per IGC compile, 7 to 9 compiles per file and width.
docs/igc-comparison.md (Register counts against IGC's fit) quotes it.

Exit status: 0 ok, 1 bad usage or a tool missing.
"""
import argparse
import json
import math
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from igc_compare import config_values, corpus, kernel_names, sgemu_kernel  # noqa: E402

FIT_LINE = re.compile(r"^(\w+)\s+(>?)\s*(\d+)\s*(.*)$")
BUCKETS = [0.5, 0.8, 0.9, 0.95, 1.0, 1.05, 1.1, 1.2, 1.5]


def read_fit_log(path):
    """{(file, kernel, width): (registers, floor)} from igc_fit.py runs."""
    out, cur = {}, None
    for line in open(path, encoding="utf-8"):
        m = re.match(r"^== (\S+) (\d+)$", line.strip())
        if m:
            cur = (m.group(1), int(m.group(2)))
            continue
        m = FIT_LINE.match(line.strip())
        if m and cur and not m.group(2):      # "> hi": IGC built no code
            out[(cur[0], m.group(1), cur[1])] = (int(m.group(3)), "no code" in m.group(4))
    return out


def bucket(r):
    for b in BUCKETS:
        if r < b:
            return "< %.2f" % b
    return ">= %.2f" % BUCKETS[-1]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sgemu", required=True)
    ap.add_argument("--config", required=True)
    ap.add_argument("--src", default=".")
    ap.add_argument("--widths", default="16,32")
    ap.add_argument("--files")
    ap.add_argument("--fit-log", required=True)
    ap.add_argument("--json")
    a = ap.parse_args()
    cfg = config_values(a.config)
    if not cfg:
        print("igc_fit_ratio.py: %s has no ocloc_target" % a.config, file=sys.stderr)
        return 1
    widths = [int(w) for w in a.widths.split(",")]
    files = corpus(a.src, a.files.split(",") if a.files else None)
    if not os.path.exists(a.fit_log):
        if not shutil.which("ocloc"):
            print("igc_fit_ratio.py: ocloc not found", file=sys.stderr)
            return 1
        fit_py = os.path.join(os.path.dirname(os.path.abspath(__file__)), "igc_fit.py")
        with open(a.fit_log, "w", encoding="utf-8") as log:
            for w in widths:
                for f in files:
                    r = subprocess.run([sys.executable, fit_py, "--target", cfg["ocloc_target"],
                                        "--width", str(w), os.path.join(a.src, f)],
                                       capture_output=True, text=True, check=False)
                    log.write("== %s %d\n%s" % (f, w, r.stdout))
    fit = read_fit_log(a.fit_log)
    rows = []
    for f in files:
        for k in kernel_names(os.path.join(a.src, f)):
            for w in widths:
                if (f, k, w) not in fit:
                    continue
                s = sgemu_kernel(a.sgemu, os.path.join(a.src, f), k, w, a.config)
                if "error" in s:
                    continue
                need = math.ceil(s["live_bytes"] * w / cfg["grf_bytes_per_register"])
                igc, floor = fit[(f, k, w)]
                rows.append({"kernel": "%s:%s" % (os.path.basename(f), k), "width": w,
                             "sgemu": need, "igc": igc, "floor": floor,
                             "ratio": need / igc})
    if a.json:
        json.dump(rows, open(a.json, "w", encoding="utf-8"), indent=1)
    real = [r for r in rows if not (r["floor"] and r["sgemu"] <= r["igc"])]
    print("%s: %d kernel x width rows, %d above IGC's smallest file" %
          (cfg["name"], len(rows), len(real)))
    hist = {}
    for r in real:
        hist[bucket(r["ratio"])] = hist.get(bucket(r["ratio"]), 0) + 1
    print("sgemu / IGC registers:")
    for b in ["< %.2f" % x for x in BUCKETS] + [">= %.2f" % BUCKETS[-1]]:
        print("  %-8s %3d" % (b, hist.get(b, 0)))
    real.sort(key=lambda r: (r["sgemu"] - r["igc"], r["ratio"]))
    print("largest undercounts (registers):")
    for r in real[:8]:
        print("  %-40s SIMD%-2d sgemu %3d IGC %3d" % (r["kernel"], r["width"], r["sgemu"], r["igc"]))
    print("largest overcounts (registers):")
    for r in reversed(real[-8:]):
        print("  %-40s SIMD%-2d sgemu %3d IGC %3d" % (r["kernel"], r["width"], r["sgemu"], r["igc"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
