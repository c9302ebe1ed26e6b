"""igc_ocloc.py - one OpenCL C compile by Intel's offline compiler (`ocloc`,
IGC inside) with IGC's shader dump on, for the tools that read IGC's output
(igc_compare.py, igc_fit.py, igc_math_demand.py, igc_math_shared.py,
igc_spills.py, igc_placement.py): the
source is written to a private folder, built for one ocloc target, and the
dump files of the wanted kinds come back as text.  Also the package
versions those tools stamp on what they measure, and the writing of the
generated .def tables.
"""
import os
import subprocess
import tempfile


def compile_dump(text, target, options="-cl-std=CL2.0", suffixes=(".asm",),
                 env=None, name="k.cl"):
    """(ocloc's CompletedProcess, {dump file name: its text}) for the OpenCL C
    source text built for target; the dump files kept are those whose name
    ends in one of suffixes (".asm": Gen ISA, "_optimized.ll": IGC's LLVM IR
    after its optimizations).  env adds IGC variables (IGC_VISAOptions...)."""
    with tempfile.TemporaryDirectory(prefix="igc-") as tmp:
        cl = os.path.join(tmp, name)
        with open(cl, "w", encoding="utf-8") as f:
            f.write(text)
        dump = os.path.join(tmp, "dump")
        os.mkdir(dump)
        full_env = dict(os.environ, IGC_ShaderDumpEnable="1", IGC_DumpToCustomDir=dump,
                        **(env or {}))
        r = subprocess.run(["ocloc", "compile", "-file", cl, "-device", target,
                            "-options", options, "-output", os.path.join(tmp, "out"),
                            "-output_no_suffix"],
                           env=full_env, capture_output=True, text=True, check=False)
        files = {}
        for fn in sorted(os.listdir(dump)):
            if fn.endswith(tuple(suffixes)):
                with open(os.path.join(dump, fn), encoding="utf-8", errors="replace") as f:
                    files[fn] = f.read()
        return r, files


def one_kernel_dump(prog, description, visa_options=""):
    """For a tool that reads IGC's dumps of one kernel of an OpenCL C file:
    its command line (file, --target, --width, --kernel, --grf, --options)
    parsed, the kernel built alone (macros expanded) at that width, and
    (args, ocloc's CompletedProcess, the kernel's .asm, its .visaasm); None
    after saying on stderr why there is none.  visa_options go to vISA,
    with -TotalGRFNum N when --grf N is given."""
    import argparse
    import re
    import shutil
    import sys
    from igc_compare import with_width
    from igc_isolate import keep_only, preprocess
    ap = argparse.ArgumentParser(prog=prog, description=description)
    ap.add_argument("file")
    ap.add_argument("--target", required=True)
    ap.add_argument("--width", type=int, required=True)
    ap.add_argument("--kernel", required=True)
    ap.add_argument("--grf", type=int, help="vISA's -TotalGRFNum (default: IGC's own)")
    ap.add_argument("--options", default="-cl-std=CL2.0")
    a = ap.parse_args()
    if not shutil.which("ocloc"):
        print("%s: ocloc not found (Debian: intel-opencl-icd)" % prog, file=sys.stderr)
        return None
    if not os.path.isfile(a.file):
        print("%s: %s: no such file" % (prog, a.file), file=sys.stderr)
        return None
    src = preprocess(a.file)
    if src is None:
        print("%s: clang-14 -E failed on %s" % (prog, a.file), file=sys.stderr)
        return None
    src = keep_only(src, {a.kernel})
    visa = " ".join(o for o in (visa_options, "-TotalGRFNum %d" % a.grf if a.grf else "") if o)
    opts = a.options + " -I " + os.path.dirname(os.path.abspath(a.file))
    r, dumps = compile_dump(with_width(src, a.width), a.target, opts, (".asm", ".visaasm"),
                            env={"IGC_VISAOptions": visa} if visa else None,
                            name=os.path.basename(a.file))
    asm = visaasm = None
    for name, text in sorted(dumps.items()):
        if name.endswith(".asm") and re.search(r"_simd%d_" % a.width, name) and \
                re.search(r"^//\.kernel %s$" % re.escape(a.kernel), text, re.M):
            asm = text
            visaasm = dumps.get(name[:-len(".asm")] + ".visaasm", "")
    if asm is None:
        print("%s: no SIMD%d dump of kernel %s for %s (ocloc exit %d)"
              % (prog, a.width, a.kernel, a.target, r.returncode), file=sys.stderr)
        return None
    return a, r, asm, visaasm


def versions():
    """The Debian versions of ocloc's package and of IGC."""
    out = {}
    for pkg in ("intel-opencl-icd", "libigc1"):
        r = subprocess.run(["dpkg-query", "-W", "-f", "${Version}", pkg],
                           capture_output=True, text=True, check=False)
        out[pkg] = r.stdout.strip() or "?"
    return out


# the type column of the generated tables (emu/math_*.def)
TYPE_INDEX = {"f16": 0, "f32": 1, "f64": 2}


def write_def(path, comment, versions_of, rows):
    """A generated .def table: a C comment whose lines are `comment` (each
    "%(versions)s" in them the packages that measured it), then the rows."""
    stamp = "intel-opencl-icd %s, libigc1 %s" % (
        versions_of.get("intel-opencl-icd", "?"), versions_of["libigc1"])
    out = ["/*"] + [(" * " + l % {"versions": stamp}).rstrip() for l in comment] + [" */"]
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("\n".join(out + rows) + "\n")
