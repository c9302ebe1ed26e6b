"""igc_ocloc.py - one OpenCL C compile by Intel's offline compiler (`ocloc`,
IGC inside) with IGC's shader dump on, for the tools that read IGC's output
(igc_compare.py, igc_fit.py, igc_math_demand.py, igc_math_shared.py): the
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
