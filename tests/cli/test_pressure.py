"""`sgemu spv2asm --pressure` (docs/cli.md, docs/regalloc.md, Demand): for
every kernel of tests/kernels at --sg 16 on the default config, the text
report's largest figure is the peak the allocator reports in its
`; registers:` line, the JSON form parses and gives the same figures,
peaks and live values as the text, the GRF registers are
ceil(bytes x 16 / bytes per register), and the annotated text still
assembles to the same program; the JSON prints exactly the keys docs/cli.md
lists; a hand-derived .regalloc kernel gives its
figures exactly through the CLI; bad combinations exit 1 with an error.

Run: python3 test_pressure.py SGEMU SRC_ROOT"""
import concurrent.futures
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

SGEMU, SRC = sys.argv[1], sys.argv[2]
LIVE = re.compile(r"^    (\S.*?)  ; live (\d+) B/lane(?: \((\d+) temporaries\))?"
                  r"(?:, (\d+) GRF at SIMD(\d+))?(  <- peak)?$")
VALUE = re.compile(r"^    ;     (\S+)\s+(?:predicate|(\d+) B( uniform)?)(, written here, never read)?"
                   r"(?:, .*:(\d+))?$")
HEADER = re.compile(r"live at once (\d+) bytes per lane")
failures = []


def run(*args, env=None):
    p = subprocess.run([SGEMU, *args], capture_output=True, text=True, env=env)
    return p.returncode, p.stdout, p.stderr


def check(cond, what):
    if not cond:
        failures.append(what)
    return cond


def parse_text(out):
    """(peak from the header, [(inst text, bytes, temps, regs, peak)], {pc: [values]})"""
    header = HEADER.search(out.splitlines()[0])
    insts, peaks, cur = [], {}, None
    for line in out.splitlines():
        m = LIVE.match(line)
        if m:
            insts.append((m.group(1).rstrip(), int(m.group(2)), int(m.group(3) or 0),
                          int(m.group(4)) if m.group(4) else None, bool(m.group(6))))
            cur = len(insts) - 1 if m.group(6) else None
            if cur is not None:
                peaks[cur] = []
            continue
        v = VALUE.match(line)
        if v and cur is not None:
            peaks[cur].append((v.group(1), int(v.group(2) or 0), bool(v.group(3)),
                               bool(v.group(4)), int(v.group(5)) if v.group(5) else None))
    return (int(header.group(1)) if header else None), insts, peaks


def check_kernel(path, kernel):
    """Failures of one kernel (a list of strings)."""
    global failures
    failures = []
    tag = f"{os.path.basename(path)}:{kernel}"
    kargs = ["spv2asm", path] + (["--kernel", kernel] if kernel else []) + ["--sg", "16"]
    rc, text, err = run(*kargs, "--pressure")
    if not check(rc == 0, f"{tag}: text rc {rc}: {err}"):
        return failures
    rc, js, err = run(*kargs, "--pressure=json")
    if not check(rc == 0, f"{tag}: json rc {rc}: {err}"):
        return failures
    d = json.loads(js)
    peak, insts, peaks = parse_text(text)
    figures = [b for _, b, _, _, _ in insts]
    check(len(insts) == len(d["instructions"]) > 0, f"{tag}: instruction counts")
    check(peak is not None and max(figures) == peak, f"{tag}: max {max(figures)} != {peak}")
    check(d["live_bytes"] == peak == d["peak_bytes"], f"{tag}: json peak")
    rb = d["grf_bytes_per_reg"]
    for i, (t, b, tmp, regs, pk) in enumerate(insts):
        j = d["instructions"][i]
        check(j["index"] == i and j["text"] == t and j["live_bytes"] == b and
              j["temp_bytes"] == tmp and j["registers"] == regs and j["peak"] == pk,
              f"{tag}: instruction {i}: text {insts[i]} json {j}")
        check(regs == (b * 16 + rb - 1) // rb, f"{tag}: {i}: registers {regs}")
        check(pk == (b == peak), f"{tag}: {i}: peak mark")
    check([p["index"] for p in d["peaks"]] == sorted(peaks), f"{tag}: peak list")
    for p in d["peaks"]:
        tv = peaks.get(p["index"], [])
        jv = [(v["reg"], 0 if v["predicate"] else v["bytes"], v["uniform"], v["dead"], v["line"])
              for v in p["live"]]
        check(tv == jv, f"{tag}: peak {p['index']} values: text {tv} json {jv}")
        check(len(jv) > 0, f"{tag}: peak {p['index']} lists no value")
    # comments only: the annotated text assembles to what the plain text does
    with tempfile.TemporaryDirectory() as t:
        a, b = os.path.join(t, "a.sgasm"), os.path.join(t, "b.sgasm")
        rc, plain, err = run(*kargs)
        check(rc == 0, f"{tag}: plain rc {rc}")
        open(a, "w").write(text)
        open(b, "w").write(plain)
        ra, da, ea = run("disasm", a)
        rb_, db, eb = run("disasm", b)
        check(ra == 0 and rb_ == 0 and da == db, f"{tag}: annotated text does not reassemble "
              f"to the same program: {ea} {eb}")
    return failures


def kernels_of(path):
    """The kernels of path: their names from the preprocessed source (macros
    make most), as many as sgemu's error for a module of several counts."""
    rc, _, err = run("spv2asm", path, "--no-regalloc")
    if rc == 0:
        return [None]
    m = re.search(r"has (\d+) kernels", err)
    assert m, f"{path}: {err}"
    pre = subprocess.run(["clang-14", "-E", "-x", "cl", "-cl-std=CL2.0", "-I",
                          os.path.dirname(path), path], capture_output=True, text=True).stdout
    names = re.findall(r"\b(?:__)?kernel\s+(?:__attribute__\s*\(\(.*?\)\)\s+)?void\s+(\w+)",
                       pre)
    assert len(names) == int(m.group(1)), (path, names, err)
    return names


def hand_kernel():
    """The uniform-values kernel of tests/isa/test_ra_pressure.c, derived there:
    4 5 5 9 9 9 9 9 9 9 5 at W = 16 (4 of them at 10 the store's payload)."""
    src = (".kernel uni\n.regalloc\n.arg out global u32\n.arg in global u32\n"
           "    mov.u32 r0, %global_id.x\n    mov.u32 r1, %group_id.x\n"
           "    mul.u32 r2, r1, 3\n    ld.global.u32 r3, [%in + r0*4]\n"
           "    sub_group_reduce_add.u32 r4, r3\n    add.u32 r5, r4, r2\n"
           "    ld.global.u32 r6, [%in + r2*4]\n    add.u32 r7, r3, r6\n"
           "    add.u32 r8, r7, r5\n    st.global.u32 [%out + r0*4], r8\n"
           "    st.global.u32 [%out + r2*4], r5\n")
    with tempfile.TemporaryDirectory() as t:
        p = os.path.join(t, "uni.sgasm")
        open(p, "w").write(src)
        rc, js, err = run("spv2asm", p, "--sg", "16", "--pressure", "--json")
        assert rc == 0, err
        d = json.loads(js)
        assert [i["live_bytes"] for i in d["instructions"]] == [4, 5, 5, 9, 9, 9, 9, 9, 9, 9, 5], d
        assert [i["temp_bytes"] for i in d["instructions"]] == [0] * 10 + [4], d
        assert [i["line"] for i in d["instructions"]] == list(range(5, 16)), d
        assert [p["index"] for p in d["peaks"]] == list(range(3, 10)), d
        rc, js, err = run("spv2asm", p, "--pressure=json")
        assert rc == 0, err
        d = json.loads(js)
        assert [i["live_bytes"] for i in d["instructions"]] == [4, 8, 8, 12, 16, 16, 20, 20, 16,
                                                                16, 8], d
        assert d["width"] is None and d["instructions"][0]["registers"] is None, d
        # a .sgasm kernel without .regalloc keeps its registers: nothing to report
        q = os.path.join(t, "fixed.sgasm")
        open(q, "w").write(src.replace(".regalloc\n", ""))
        rc, out, err = run("spv2asm", q, "--pressure")
        assert rc == 1 and "no .regalloc" in err and not out, (rc, out, err)


def bad_usage():
    k = os.path.join(SRC, "tests", "kernels", "vshuffle.cl")
    cases = [([k, "--pressure", "--no-regalloc"], "--no-regalloc"),
             ([k, "--json"], "give --pressure"),
             ([k, "--pressure=xml"], "text or json"),
             ([k, "--pressure", "--sg", "0"], "sub-group width")]
    for args, msg in cases:
        rc, out, err = run("spv2asm", *args)
        assert rc == 1 and msg in err and err.startswith("sgemu: error:"), (args, rc, err)
    env = dict(os.environ, SGEMU_REGALLOC="0")
    rc, out, err = run("spv2asm", k, "--pressure", env=env)
    assert rc == 1 and "SGEMU_REGALLOC=0" in err, (rc, err)
    rc, out, err = run("spv2asm", "--help")
    assert rc == 0 and "--pressure[=text|json]" in out, out


def key_paths(v, path=""):
    """Every key of a JSON value as docs/cli.md names it (`a[].b`)."""
    if isinstance(v, dict):
        out = set()
        for k, x in v.items():
            p = f"{path}.{k}" if path else k
            out |= {p} | key_paths(x, p)
        return out
    if isinstance(v, list):
        return set().union(*(key_paths(x, path + "[]") for x in v)) if v else set()
    return set()


def documented_keys():
    """The keys of docs/cli.md's table of spv2asm --pressure=json."""
    doc = open(os.path.join(SRC, "docs", "cli.md")).read()
    sec = doc[doc.index("`--pressure=json`"):doc.index("## sgemu collective")]
    return set(re.findall(r"^\| `([^`]+)` \|", sec, re.M))


def main():
    hand_kernel()
    rc, js, err = run("spv2asm", os.path.join(SRC, "tests", "kernels", "math.cl"), "--kernel",
                      "powk", "--sg", "16", "--pressure=json")
    assert rc == 0, err
    assert key_paths(json.loads(js)) == documented_keys(), (
        key_paths(json.loads(js)) ^ documented_keys())
    bad_usage()
    files = sorted(glob.glob(os.path.join(SRC, "tests", "kernels", "*.cl")))
    jobs = [(f, k) for f in files for k in kernels_of(f)]
    assert len(jobs) > 150, len(jobs)
    bad = []
    with concurrent.futures.ProcessPoolExecutor(max_workers=2) as ex:
        for fails in ex.map(check_kernel, *zip(*jobs)):
            bad += fails
    for b in bad[:40]:
        print(b)
    print(f"{len(jobs)} kernels, {len(bad)} failures")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
