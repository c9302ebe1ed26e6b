#!/usr/bin/env python3
"""igc_compare.py - sgemu's register fit, spills and instruction counts
against Intel's OpenCL compiler (IGC, through `ocloc`) for every OpenCL C
kernel of tests/kernels and examples, on every Intel config (its
device.ocloc_target) at every width the config supports.

    python3 tools/igc_compare.py --sgemu build/tools/sgemu [--src .] [-j N]
                                 [--md docs/igc-comparison-table.md] [--json FILE]
                                 [--files a.cl,b.cl] [--configs intel-xe-lp,...]

IGC side: the kernel source with __attribute__((intel_reqd_sub_group_size(W)))
put before every kernel, compiled by `ocloc compile -device TARGET` with
IGC_ShaderDumpEnable=1 into a private folder; each kernel's dumped Gen ISA
(.asm) header gives its instruction count (//.instCount), its register file
(//.thread_config numGRF=) and its spill size (//.spill size, absent: 0).
Where IGC refuses a file at a width (a kernel with `double` on a device
without FP64, a block read it does not take), the comparison goes per
kernel (tools/igc_isolate.py): the file's macros expanded (clang-14 -E),
the kernels in which IGC's errors lie are refused with their first error
and the file is built again without them; an error outside every kernel,
or one with no location (IGC's back end), makes each kernel left be built
alone.  So a row says IGC refuses only for a kernel that IGC refuses.
On a config with a large-GRF mode, a file in which IGC spilled is compiled
again with -ze-opt-large-register-file and its spilling kernels take that
build, as sgemu's occupancy takes the large mode where the normal one does
not hold the live set; rows whose two modes still differ say so.

sgemu side: `sgemu spv2asm --sg W --no-spill` translates and allocates the
kernel for width W with no register limit (docs/regalloc.md: uniform values
count once per thread, so the live set depends on W); its header line gives
the bytes per lane live at once.  At width W the kernel needs ceil(live bytes x W / grf_bytes_per_register)
registers (docs/timing-model.md, Occupancy); where that is above the config's
registers per thread (the larger of the normal and large-GRF modes),
`spv2asm --config C --sg W` allocates with that budget and its spill bytes and
instruction count (spill code included) are the row's.  So is a kernel
with elementary functions, or with sub-group broadcasts on a config with
`device.scalar_broadcast`, in any case: its live set is the config's.

Exit status: 0 ok (the table written), 1 bad usage or a tool missing.
docs/igc-comparison.md explains the table and the disagreements.
"""
import argparse
import concurrent.futures
import json
import math
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from igc_isolate import KERNEL_RE as KERNEL_NAME  # noqa: E402
from igc_isolate import keep_only, kernel_at, kernel_spans, preprocess  # noqa: E402
from igc_ocloc import compile_dump  # noqa: E402

CORPUS_DIRS = ["tests/kernels", "examples/opencl", "examples/bench"]
# a kernel definition, also inside a macro body (then the name may end in ##)
KERNEL_RE = re.compile(r"(?<![\w#])(__kernel|kernel)(\s+void\s+)(?=\w)")


def config_values(path):
    """The few device keys the comparison needs, read from a config file
    (plain `key: value` lines of its device section)."""
    want = {"name": None, "ocloc_target": None, "subgroup_widths": None,
            "grf_registers_per_thread": "128", "grf_bytes_per_register": "32",
            "large_grf_registers_per_thread": "0", "fp64": "1", "scalar_broadcast": "0",
            "payload_fold_distance": "0", "payload_copy_width": "0", "buffer_offset_bytes": "0",
            "shuffle2_temps": "0"}
    section = None
    for line in open(path, encoding="utf-8"):
        m = re.match(r"^(\w+):\s*(#.*)?$", line)
        if m:
            section = m.group(1)
            continue
        m = re.match(r"^\s+(\w+):\s*(\"[^\"]*\"|\[[^\]]*\]|[^#\s]+)", line)
        if m and section == "device" and m.group(1) in want:
            want[m.group(1)] = m.group(2).strip('"')
    if not want["ocloc_target"] or want["ocloc_target"] == "none":
        return None
    want["widths"] = [int(w) for w in want["subgroup_widths"].strip("[]").split(",")]
    for k in ("grf_registers_per_thread", "grf_bytes_per_register",
              "large_grf_registers_per_thread", "fp64", "scalar_broadcast",
              "payload_fold_distance", "payload_copy_width", "buffer_offset_bytes",
              "shuffle2_temps"):
        want[k] = int(want[k])
    return want


def with_width(src, width):
    """src with every kernel required to run at `width`."""
    attr = "__attribute__((intel_reqd_sub_group_size(%d))) " % width
    return KERNEL_RE.sub(lambda m: attr + m.group(1) + m.group(2), src)


def kernel_names(path):
    """The kernels of a file, macros expanded (clang-14 -E)."""
    r = subprocess.run(["clang-14", "-E", "-P", "-x", "cl", "-cl-std=CL2.0",
                        "-I" + os.path.dirname(os.path.abspath(path)), path],
                       capture_output=True, text=True, check=False)
    return KERNEL_NAME.findall(r.stdout) if r.returncode == 0 else []


# what a kernel author passes IGC to build a kernel in the large register
# file (IGC 1.0.12504 does not choose that mode by itself)
LARGE_GRF_OPTION = "-ze-opt-large-register-file"


def kernel_spilled(v):
    """An igc_compile kernel entry spilled registers: scratch that is not a
    call stack (an error entry did not)."""
    return v.get("spill", 0) > 0 and not v.get("stack_calls")


def igc_compile(path, target, width, extra=""):
    """{kernel: {instrs, grf, spill}} or {"error": message} for one file.
    Where IGC refuses the file, its kernels are built apart (igc_split):
    then each kernel's entry is its build or {"error": what IGC says of
    that kernel}."""
    src = open(path, encoding="utf-8").read()
    opts = "-cl-std=CL2.0 %s-I %s" % (extra + " " if extra else "",
                                      os.path.dirname(os.path.abspath(path)))
    r, dumps = compile_dump(with_width(src, width), target, opts, name=os.path.basename(path))
    if r.returncode == 0:
        return isa_entries(dumps, width)
    text = preprocess(path)
    if text is None:
        return {"error": first_error(r)}
    return igc_split(text, target, width, opts, os.path.basename(path))


ERROR_AT = re.compile(r":(\d+):(\d+): (error: .*)$", re.M)


def first_error(r):
    """IGC's first error line of a failed ocloc run, without its location."""
    lines = [l for l in (r.stdout + r.stderr).splitlines() if "error" in l.lower()]
    msg = lines[0] if lines else "ocloc exit %d" % r.returncode
    return re.sub(r"^.*?:\d+:\d+: ", "", msg).strip()


def igc_split(text, target, width, opts, name):
    """The kernels of a file IGC refuses (text: its macros expanded), built
    without the kernels IGC refuses: while each error IGC reports lies in a
    kernel, those kernels take their first error and the rest is built
    again; an error outside the kernels (a helper function) or with no
    location (a refusal of IGC's back end) makes each kernel left be built
    on its own.  Every entry built here has split: True."""
    left = [k for k, _, _ in kernel_spans(text)]
    out = {}
    while left:
        t = with_width(keep_only(text, set(left)), width)
        r, dumps = compile_dump(t, target, opts, name=name)
        if r.returncode == 0:
            out.update(isa_entries(dumps, width))
            break
        bad = {}
        for m in ERROR_AT.finditer(r.stdout + r.stderr):
            k = kernel_at(t, int(m.group(1)), int(m.group(2)))
            if k not in left:
                bad = {}
                break
            bad.setdefault(k, {"error": m.group(3).strip()})
        if not bad:
            for k in left:
                t = with_width(keep_only(text, {k}), width)
                r, dumps = compile_dump(t, target, opts, name=name)
                out.update(isa_entries(dumps, width) if r.returncode == 0
                           else {k: {"error": first_error(r)}})
            break
        out.update(bad)
        left = [k for k in left if k not in bad]
    for v in out.values():
        v["split"] = True
    return out


def isa_entries(dumps, width):
    """{kernel: {instrs, grf, spill, stack_calls}} from IGC's dumped Gen ISA
    (a kernel built at another width: {"error": ...})."""
    out = {}
    for name, text in dumps.items():
        m = re.match(r".*_simd(\d+)_.*\.asm$", name)
        if not m:
            continue
        k = re.search(r"^//\.kernel (\S+)", text, re.M)
        n = re.search(r"^//\.instCount (\d+)", text, re.M)
        g = re.search(r"numGRF=(\d+)", text)
        s = re.search(r"^//\.spill size (\d+)", text, re.M)
        if not k or not n:
            continue
        if int(m.group(1)) != width:     # IGC did not honour the required width
            out.setdefault(k.group(1), {"error": "IGC built SIMD%s code instead "
                                                 "(required width not honoured)"
                                                 % m.group(1)})
            continue
        # a subroutine (a call, or a return through a register) makes the
        # scratch size the call stack, not register spills
        calls = re.search(r"^[^/]*\b(call|calla|ret)\b|^[^/]*\bjmpi\s+r\d", text, re.M)
        out[k.group(1)] = {"instrs": int(n.group(1)),
                           "grf": int(g.group(1)) if g else None,
                           "spill": int(s.group(1)) if s else 0,
                           "stack_calls": bool(calls)}
    return out


# the broadcasts device.scalar_broadcast makes scalars (isa/uniform.c)
BCAST_OPS = ["sub_group_broadcast", "intel_sub_group_broadcast",
             "sub_group_non_uniform_broadcast"]
# shuffles, whose results a vector store may hold twice on a config with
# device.payload_fold_distance or device.payload_copy_width and whose
# two-source forms hold temporaries
# with device.shuffle2_temps (docs/regalloc.md); with
# device.buffer_offset_bytes every kernel's live set is the config's
SHUFFLE_RE = re.compile(r"\s+(?:@\S+\s+)?(intel_)?sub_group_(shuffle|rotate)")
# the ISA_OPF_MATH mnemonics (include/sgemu/opcodes.def)
MATH_OPS = ["atan", "asin", "acos", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "expm1",
            "log1p", "erf", "erfc", "tgamma", "lgamma", "atan2", "cbrt", "hypot", "exp", "exp10",
            "log", "log10", "pow", "rootn"]
RA_LINE = re.compile(r"^; registers: (\d+) values \((\d+) bytes per lane\) -> (\d+) registers, "
                     r"(\d+) predicates; live at once (\d+) bytes per lane; spilled (\d+) values "
                     r"\((\d+) bytes per work-item\)", re.M)


def sgemu_kernel(sgemu, path, kernel, width, config=None):
    """{instrs, live_bytes, spill_bytes} of sgemu's allocated translation
    (docs/regalloc.md) at `width`, or {"error": ...}.  Without a config the
    allocation has no register budget: the live set, nothing spilled."""
    cmd = [sgemu, "spv2asm", path, "--kernel", kernel, "--sg", str(width),
           "-I" + os.path.dirname(os.path.abspath(path))]
    cmd += ["--config", config] if config else ["--no-spill"]
    r = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if r.returncode != 0:
        lines = [l for l in r.stderr.splitlines() if l.strip()]
        return {"error": lines[0] if lines else "spv2asm failed"}
    m = RA_LINE.search(r.stdout)
    if not m:
        return {"error": "spv2asm printed no register allocation line"}
    before = re.search(r"before spilling (\d+) bytes per lane", r.stdout)
    lines = [l for l in r.stdout.splitlines() if l.startswith("    ") and not l.strip().startswith(";")]
    # an elementary function holds the config's temporaries (docs/regalloc.md):
    # such a kernel's live set depends on the config and width
    math = any(re.match(r"\s+(?:@\S+\s+)?(%s)\.f" % "|".join(MATH_OPS), l) for l in lines)
    # so does a sub-group broadcast's on a config whose broadcasts from a
    # uniform lane are scalars (device.scalar_broadcast)
    bcast = any(re.match(r"\s+(?:@\S+\s+)?(%s)\." % "|".join(BCAST_OPS), l) for l in lines)
    # and a shuffle's where vector stores hold unfolded payload copies
    shuffle = any(SHUFFLE_RE.match(l) for l in lines)
    return {"instrs": len(lines), "live_bytes": int(before.group(1)) if before else int(m.group(5)),
            "spill_bytes": int(m.group(7)), "math": math, "bcast": bcast,
            "shuffle": shuffle}


def sgemu_fits(k, cfg, width):
    """Registers needed at `width`, the registers of the GRF mode that
    occupancy picks for them (the normal mode while it is enough, else the
    large-GRF mode where the config has one: docs/timing-model.md), and
    whether they fit."""
    need = math.ceil(k["live_bytes"] * width / cfg["grf_bytes_per_register"])
    have = cfg["grf_registers_per_thread"]
    if need > have:
        have = max(have, cfg["large_grf_registers_per_thread"])
    return need, have, need <= have


def corpus(src, only):
    files = []
    for d in CORPUS_DIRS:
        full = os.path.join(src, d)
        for name in sorted(os.listdir(full)):
            if name.endswith(".cl") and (not only or name in only):
                files.append(os.path.join(d, name))
    return files


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sgemu", required=True)
    ap.add_argument("--src", default=".")
    ap.add_argument("-j", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--md")
    ap.add_argument("--json")
    ap.add_argument("--files", help="comma-separated .cl names (default: all)")
    ap.add_argument("--configs", help="comma-separated config names (default: all Intel)")
    a = ap.parse_args()
    for tool in ("ocloc", a.sgemu):
        if not shutil.which(tool):
            print("igc_compare: %s not found" % tool, file=sys.stderr)
            return 1
    only = set(a.files.split(",")) if a.files else None
    cfgs = {}
    for name in sorted(os.listdir(os.path.join(a.src, "configs"))):
        if not name.endswith(".yaml") or (a.configs and name[:-5] not in a.configs.split(",")):
            continue
        c = config_values(os.path.join(a.src, "configs", name))
        if c and name != "default.yaml":
            cfgs[name[:-5]] = c
    files = corpus(a.src, only)
    kernels = {f: kernel_names(os.path.join(a.src, f)) for f in files}
    jobs = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.j) as ex:
        widths = sorted({w for c in cfgs.values() for w in c["widths"]})
        for f in files:
            for k in kernels[f]:
                for w in widths:
                    jobs[("sgemu", f, k, w)] = ex.submit(sgemu_kernel, a.sgemu,
                                                         os.path.join(a.src, f), k, w)
            for cname, c in cfgs.items():
                for w in c["widths"]:
                    jobs[("igc", f, cname, w)] = ex.submit(igc_compile, os.path.join(a.src, f),
                                                           c["ocloc_target"], w)
        res = {key: fut.result() for key, fut in jobs.items()}
        # on a config with a large-GRF mode, a file where IGC spilled in its
        # normal mode is built again in the large one, as sgemu takes that
        # mode where the normal one does not hold the live set
        large = {}
        for (side, f, *rest), r in list(res.items()):
            if side != "igc" or "error" in r:
                continue
            cname, w = rest
            if cfgs[cname]["large_grf_registers_per_thread"] and any(
                    kernel_spilled(v) for v in r.values()):
                large[(f, cname, w)] = ex.submit(igc_compile, os.path.join(a.src, f),
                                                 cfgs[cname]["ocloc_target"], w, LARGE_GRF_OPTION)
        large = {key: fut.result() for key, fut in large.items()}
        later = {}
        for f in files:
            for k in kernels[f]:
                for cname, c in cfgs.items():
                    for w in c["widths"]:
                        sk = res[("sgemu", f, k, w)]
                        if "error" not in sk and (sk["math"] or not sgemu_fits(sk, c, w)[2] or
                                                  (sk["bcast"] and c["scalar_broadcast"]) or
                                                  (sk["shuffle"] and (c["payload_fold_distance"] or
                                                                      c["payload_copy_width"] or
                                                                      c["shuffle2_temps"])) or
                                                  c["buffer_offset_bytes"]):
                            later[(f, k, cname, w)] = ex.submit(
                                sgemu_kernel, a.sgemu, os.path.join(a.src, f), k, w,
                                os.path.join(a.src, "configs", cname + ".yaml"))
        spilled = {key: fut.result() for key, fut in later.items()}
    rows = []
    for cname, c in cfgs.items():
        for f in files:
            for k in kernels[f]:
                for w in c["widths"]:
                    sk = res[("sgemu", f, k, w)]
                    ig = res[("igc", f, cname, w)]
                    row = {"config": cname, "target": c["ocloc_target"], "file": f,
                           "kernel": k, "width": w}
                    if ig.get(k, {}).get("split"):
                        row["igc_split"] = True
                    if "error" in ig:
                        row["igc_error"] = ig["error"]
                    elif k in ig and "error" in ig[k]:
                        row["igc_error"] = ig[k]["error"]
                    elif k in ig:
                        v = ig[k]
                        lg = large.get((f, cname, w), {}).get(k, {})
                        if kernel_spilled(v) and "instrs" in lg:
                            row["igc_normal_spill"] = v["spill"]
                            v = lg
                        row.update(igc_instrs=v["instrs"], igc_grf=v["grf"],
                                   igc_spill=v["spill"], igc_stack_calls=v["stack_calls"])
                    else:
                        row["igc_error"] = "no code for this kernel at SIMD%d" % w
                    if "error" in sk:
                        row["sgemu_error"] = sk["error"]
                    else:
                        # with elementary functions, scalar broadcasts, payload
                        # copies, shuffle temporaries or buffer offsets, the
                        # live set of this config and width
                        sw = spilled.get((f, k, cname, w), sk)
                        need, have, fits = sgemu_fits(sw, c, w)
                        # where the live set does not fit, the allocation
                        # at this width has the spill code
                        row.update(sgemu_instrs=sw.get("instrs", sk["instrs"]),
                                   sgemu_regs=need, sgemu_grf=have,
                                   sgemu_spill=sw.get("spill_bytes", 0))
                    rows.append(row)
    if a.json:
        with open(a.json, "w", encoding="utf-8") as f:
            json.dump({"configs": cfgs, "rows": rows}, f, indent=1)
    text = markdown(cfgs, rows)
    if a.md:
        with open(a.md, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


def igc_spills(r):
    """IGC spilled registers: scratch that is not a call stack."""
    return r["igc_spill"] > 0 and not r.get("igc_stack_calls")


def modes_differ(r, c):
    """On a config with a large-GRF mode, IGC's build and sgemu's need sit
    in different modes (one above the normal mode's registers, one not)."""
    normal = c["grf_registers_per_thread"]
    return bool(c["large_grf_registers_per_thread"]) and \
        ((r["igc_grf"] or 0) > normal) != (r["sgemu_regs"] > normal)


def yn(b):
    return "yes" if b else "no"


def markdown(cfgs, rows):
    out = ["<!-- generated by tools/igc_compare.py; docs/igc-comparison.md explains it -->",
           "# sgemu against IGC: register fit, spills, instructions", ""]
    for cname, c in cfgs.items():
        mine = [r for r in rows if r["config"] == cname]
        both = [r for r in mine if "igc_instrs" in r and "sgemu_instrs" in r]
        agree = sum(1 for r in both if igc_spills(r) == (r["sgemu_spill"] > 0))
        refused = sum(1 for r in mine if "igc_error" in r)
        split = sum(1 for r in both if r.get("igc_split"))
        modes = ""
        if c["large_grf_registers_per_thread"]:
            differ = sum(1 for r in both if modes_differ(r, c))
            modes = " GRF mode (normal or large) differs in %d; IGC built again in the " \
                    "large mode where it spilled in the normal one: %d." % (
                        differ, sum(1 for r in both if "igc_normal_spill" in r))
        out += ["## %s (ocloc -device %s, widths %s)" % (cname, c["ocloc_target"],
                                                          ", ".join(map(str, c["widths"]))), "",
                "Spill agreement: %d of %d kernel x width pairs that both compile "
                "(%d of them built apart from kernels of their file that IGC refuses); "
                "IGC refused %d.%s" % (agree, len(both), split, refused, modes), "",
                "| kernel | SIMD | IGC spills | sgemu spills | IGC instrs | sgemu instrs | note |",
                "|---|---|---|---|---|---|---|"]
        for r in mine:
            name = "%s:%s" % (r["file"].replace("tests/kernels/", ""), r["kernel"])
            if "igc_error" in r:
                note = ("" if r["igc_error"].startswith("IGC built") else "IGC refuses: ") + \
                    r["igc_error"][:90].replace("|", "\\|")
                out.append("| %s | %d | - | %s | - | %s | %s |" % (
                    name, r["width"], yn(r.get("sgemu_spill", 0) > 0) if "sgemu_spill" in r else "-",
                    r.get("sgemu_instrs", "-"), note))
                continue
            if "sgemu_error" in r:
                out.append("| %s | %d | %s | - | %d | - | sgemu: %s |" % (
                    name, r["width"], yn(igc_spills(r)), r["igc_instrs"],
                    r["sgemu_error"][:90].replace("|", "\\|")))
                continue
            note = ""
            if "igc_normal_spill" in r:
                note = "IGC: %d B spilled in its normal GRF mode, built again with %s " \
                       "(numGRF=%s); " % (r["igc_normal_spill"], LARGE_GRF_OPTION, r["igc_grf"])
            if modes_differ(r, c):
                note += "GRF mode differs: IGC %s registers, sgemu needs %d of %d; " % (
                    r["igc_grf"], r["sgemu_regs"], c["grf_registers_per_thread"])
            if r["igc_stack_calls"]:
                note = "IGC: stack calls, its %d B scratch is the call stack; " % r["igc_spill"]
            if igc_spills(r) != (r["sgemu_spill"] > 0):
                note += "DISAGREE: IGC %d B in %s registers, sgemu %d B (%d of %d registers)" % (
                    r["igc_spill"], r["igc_grf"] or "?", r["sgemu_spill"], r["sgemu_regs"],
                    r["sgemu_grf"])
            elif igc_spills(r):
                note += "IGC %d B, sgemu %d B" % (r["igc_spill"], r["sgemu_spill"])
            out.append("| %s | %d | %s | %s | %d | %d | %s |" % (
                name, r["width"], yn(igc_spills(r)), yn(r["sgemu_spill"] > 0),
                r["igc_instrs"], r["sgemu_instrs"], note.rstrip("; ")))
        out.append("")
    return "\n".join(out)


if __name__ == "__main__":
    sys.exit(main())
