#!/usr/bin/env python3
"""igc_math_demand.py - the registers Intel's compiler (IGC, through
`ocloc`) needs for each elementary function sgemu runs as one instruction
(the ISA_OPF_MATH rows of include/sgemu/opcodes.def), per ocloc target,
element type and sub-group width.

    python3 tools/igc_math_demand.py [--targets skl,pvc] [--types f32,f64]
                                     [--widths 8,16,32] [--step 8] --out FILE.json
    python3 tools/igc_math_demand.py --out FILE.json --def emu/math_temps.def

Method: IGC's vISA takes `-TotalGRFNum N` (IGC_VISAOptions in the
environment): it allocates the kernel in an N-register file.  The smallest N
at which a kernel compiles with no spill (its dumped Gen ISA has no
`//.spill size` line and says `//.thread_config numGRF=N`) is IGC's register
demand for that kernel.  Each function f is compiled as a micro-kernel
`o[i] = f(a[i])` (`f(a[i], b[i])`, `rootn(a[i], n[i])`) next to a baseline of
the same shape without the call (`o[i] = a[i]`, `a[i] + b[i]`, `a[i] + n[i]`);
the function's demand is the difference, in registers of the target.

All micro-kernels of one target, type and width go into one file, compiled
at N = the target's register count, then N - step, ... (a kernel leaves the
file at the first N where it spills or gets no code); then each kernel's
last step is bisected (the kernels with the same bracket compiled together),
so the smallest N that fits is exact to a register.  A compile that
aborts is split in halves until the kernel that aborts is alone (it then
does not fit at that N).  Run it with `nice`; about 3 s of CPU per compile.

The JSON file has the ocloc and IGC versions, the command, and per target,
type and width each kernel's demand in registers; emu/math_temps.def is made
from it (docs/regalloc.md, Elementary functions).
"""
import argparse
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from igc_ocloc import TYPE_INDEX, compile_dump, versions  # noqa: E402
from igc_ocloc import write_def as write_def_file  # noqa: E402

# the ISA_OPF_MATH opcodes and the OpenCL C function that sgemu translates to
# each: (opcode, arity); arity 'n' is rootn's (float, int)
FUNCS = [("atan", 1), ("asin", 1), ("acos", 1), ("sinh", 1), ("cosh", 1), ("tanh", 1),
         ("asinh", 1), ("acosh", 1), ("atanh", 1), ("expm1", 1), ("log1p", 1), ("erf", 1),
         ("erfc", 1), ("tgamma", 1), ("lgamma", 1), ("atan2", 2), ("cbrt", 1), ("hypot", 2),
         ("exp", 1), ("exp10", 1), ("log", 1), ("log10", 1), ("pow", 2), ("rootn", "n")]
CTYPE = {"f16": "half", "f32": "float", "f64": "double"}
PRAGMA = {"f16": "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n",
          "f32": "", "f64": "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"}
TARGET_GRF = {"skl": 128, "tgllp": 128, "dg2-g10": 128, "pvc": 128}


def kernel_src(name, func, arity, ty, width):
    """One micro-kernel; func None is the baseline of that arity."""
    t = CTYPE[ty]
    head = ("__attribute__((intel_reqd_sub_group_size(%d))) __kernel void %s("
            "__global %s *o, __global const %s *a, __global const %s *b, "
            "__global const int *n)\n{\n    size_t i = get_global_id(0);\n" %
            (width, name, t, t, t))
    if arity == 1:
        e = "%s(a[i])" % func if func else "a[i]"
    elif arity == 2:
        e = "%s(a[i], b[i])" % func if func else "a[i] + b[i]"
    else:
        e = "rootn(a[i], n[i])" if func else "a[i] + (%s)n[i]" % t
    return head + "    o[i] = %s;\n}\n" % e


def kernels(ty, width):
    """{kernel name: source} for one type and width: every function and
    one baseline per arity."""
    ks = {}
    for arity in (1, 2, "n"):
        ks["base_%s" % arity] = kernel_src("base_%s" % arity, None, arity, ty, width)
    for func, arity in FUNCS:
        ks["f_" + func] = kernel_src("f_" + func, func, arity, ty, width)
    return ks


def spills_at(text, target, width, ngrf, opts="-cl-std=CL2.0", presched=True):
    """(ocloc's exit status, {kernel: spill bytes, 0 where it fits}) for the
    OpenCL C source text compiled in an ngrf-register file: the kernels IGC
    built at width in that file (tools/igc_fit.py uses it too).  presched
    False turns vISA's pre-RA scheduler off (IGC_EnableVISAPreSched=0: IGC
    sets vISA's own -nopresched itself, over IGC_VISAOptions)."""
    env = {"IGC_VISAOptions": "-TotalGRFNum %d" % ngrf}
    if not presched:
        env["IGC_EnableVISAPreSched"] = "0"
    r, dumps = compile_dump(text, target, opts, env=env)
    out = {}
    for name, asm in dumps.items():
        m = re.match(r".*_simd(\d+)_.*\.asm$", name)
        if not m or int(m.group(1)) != width:
            continue
        k = re.search(r"^//\.kernel (\S+)", asm, re.M)
        g = re.search(r"numGRF=(\d+)", asm)
        sp = re.search(r"^//\.spill size (\d+)", asm, re.M)
        if k and g and int(g.group(1)) == ngrf:
            out[k.group(1)] = int(sp.group(1)) if sp else 0
    return r.returncode, out


def compile_at(srcs, ty, target, ngrf, width):
    """{kernel: fits (bool)} for the kernels in srcs compiled together in an
    ngrf-register file; None if ocloc aborted."""
    rc, spills = spills_at(PRAGMA[ty] + "".join(srcs.values()), target, width, ngrf)
    if rc < 0 or rc >= 128:
        return None
    return {k: spills.get(k) == 0 for k in srcs}


def fits_at(srcs, ty, target, ngrf, width, log):
    """compile_at, splitting a batch that aborts."""
    r = compile_at(srcs, ty, target, ngrf, width)
    log.append(ngrf)
    if r is not None:
        return r
    if len(srcs) == 1:
        return {k: False for k in srcs}
    names = list(srcs)
    half = len(names) // 2
    out = fits_at({k: srcs[k] for k in names[:half]}, ty, target, ngrf, width, log)
    out.update(fits_at({k: srcs[k] for k in names[half:]}, ty, target, ngrf, width, log))
    return out


def measure(target, ty, width, step):
    """{kernel: smallest register count that fitted, or None when it did not
    fit even four times the target's file}: a sweep down in steps (and up,
    for a kernel that spills in the target's file), then a bisection of each
    kernel's last step (kernels with the same bracket compile together)."""
    srcs = kernels(ty, width)
    top = TARGET_GRF[target]
    demand = {k: None for k in srcs}
    failed = {k: 0 for k in srcs}
    live = dict(srcs)
    n = top
    log = []
    while live and n > 0:
        res = fits_at(live, ty, target, n, width, log)
        for k, ok in res.items():
            if ok:
                demand[k] = n
            else:
                failed[k] = n
                del live[k]
        n -= step
    # above the target's registers: vISA builds larger files too, so a
    # kernel that spills in the whole file gets its demand all the same
    n = top
    while n < 4 * top and any(demand[k] is None and failed[k] for k in srcs):
        n += step * 2
        big = {k: srcs[k] for k in srcs if demand[k] is None and failed[k]}
        for k, ok in fits_at(big, ty, target, n, width, log).items():
            if ok:
                demand[k] = n
            else:
                failed[k] = n
    while True:
        groups = {}
        for k in srcs:
            if demand[k] is not None and demand[k] - failed[k] > 1:
                groups.setdefault((failed[k], demand[k]), []).append(k)
        if not groups:
            break
        for (lo, hi), ks in sorted(groups.items()):
            mid = (lo + hi) // 2
            res = fits_at({k: srcs[k] for k in ks}, ty, target, mid, width, log)
            for k, ok in res.items():
                if ok:
                    demand[k] = mid
                else:
                    failed[k] = mid
    return demand, len(log)


OP_ENUM = {f: f.upper() for f, _ in FUNCS}
def write_def(data, path):
    """emu/math_temps.def: per target, function and type the registers the
    function needs beyond its baseline at SIMD8, 16 and 32 (-1: not
    measured; 0 also where both sit at the smallest file IGC builds)."""
    res = data["results"]
    comment = ["math_temps.def - registers an elementary function holds while it runs,",
               "measured from IGC's inlined math library (docs/regalloc.md, Elementary",
               "functions).  Generated by tools/igc_math_demand.py from",
               "tools/data/igc_math_demand.json (%(versions)s):",
               "IGC's smallest register file (-TotalGRFNum) that compiles `o[i] = f(a[i])`",
               "without a spill, minus that of the same kernel without the call.",
               "",
               "MATH_TEMPS(ocloc target, opcode, type (0 f16, 1 f32, 2 f64),",
               "           registers at SIMD8, SIMD16, SIMD32; -1 not measured)"]
    out = []
    targets = sorted({k.split("/")[0] for k in res}, key=lambda t: list(TARGET_GRF).index(t))
    for t in targets:
        for ty in ("f16", "f32", "f64"):
            if not any(k.startswith("%s/%s/" % (t, ty)) for k in res):
                continue
            for func, arity in FUNCS:
                regs = []
                for w in (8, 16, 32):
                    d = res.get("%s/%s/%d" % (t, ty, w))
                    f, b = (d or {}).get("f_" + func), (d or {}).get("base_%s" % arity)
                    regs.append(-1 if f is None or b is None else max(0, f - b))
                out.append('MATH_TEMPS("%s", %s, %d, %d, %d, %d)' % (
                    t, OP_ENUM[func], TYPE_INDEX[ty], *regs))
    write_def_file(path, comment, data["versions"], out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--targets", default="skl,tgllp,dg2-g10,pvc")
    ap.add_argument("--types", default="f16,f32,f64")
    ap.add_argument("--widths", default="8,16,32")
    ap.add_argument("--step", type=int, default=8)
    ap.add_argument("--out", required=True)
    ap.add_argument("--redo-missing", action="store_true",
                    help="measure again only the target/type/width results of --out "
                         "that have a kernel without a demand")
    ap.add_argument("--def", dest="def_path",
                    help="write emu/math_temps.def from --out and measure nothing")
    a = ap.parse_args()
    if a.def_path:
        write_def(json.load(open(a.out, encoding="utf-8")), a.def_path)
        return 0
    data = {"versions": versions(), "command": " ".join(sys.argv), "step": a.step,
            "method": "smallest -TotalGRFNum without spill; function minus baseline",
            "results": {}}
    if os.path.exists(a.out):
        data["results"] = json.load(open(a.out, encoding="utf-8")).get("results", {})
    for target in a.targets.split(","):
        for ty in a.types.split(","):
            if ty == "f64" and target in ("tgllp", "dg2-g10"):
                continue
            for w in map(int, a.widths.split(",")):
                key = "%s/%s/%d" % (target, ty, w)
                if target == "pvc" and w == 8:
                    continue
                if a.redo_missing and None not in data["results"].get(key, {None: 0}).values():
                    continue
                d, ncomp = measure(target, ty, w, a.step)
                data["results"]["%s/%s/%d" % (target, ty, w)] = d
                print("%s %s SIMD%d (%d compiles): %s" % (target, ty, w, ncomp, d), flush=True)
                with open(a.out, "w", encoding="utf-8") as f:
                    json.dump(data, f, indent=1, sort_keys=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
