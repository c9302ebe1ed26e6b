#!/usr/bin/env python3
"""igc_math_shared.py - the values Intel's compiler (IGC, through `ocloc`)
keeps live between two elementary functions of the same operands, per ocloc
target, element type and pair of the functions sgemu runs as one
instruction (the ISA_OPF_MATH rows of include/sgemu/opcodes.def).

    python3 tools/igc_math_shared.py [--targets skl,pvc] [--types f32,f64] --out FILE.json
    python3 tools/igc_math_shared.py --out FILE.json --def emu/math_shared.def

Mechanism: IGC inlines its math library, and LLVM's global value numbering
(GVN, with partial redundancy elimination) then computes once what two
inlined bodies compute alike from the same operands (the operand's bits,
exponent and mantissa fields, range-reduction terms, an operand split into
high and low halves).  The first call computes such a value; it stays live
across the rest of that call's body until the second call reads it.

Method: the micro-kernel `o[2i] = f(a); o[2i+1] = g(a)` (binary functions
take (a, b), rootn (a, n)) is compiled with IGC_ShaderDumpEnable=1; in its
optimized LLVM IR (the dump's *_optimized.ll) the values defined before the
first store and read after it are the ones live from f into g.  The same is
done with g of other operands (c, d, m); the pair's shared bytes per lane
are the difference (what the shared operands add, beyond the address and
id values both kernels carry).  A bitcast is its source's register and
counts once; i1 values are predicates (flags), not GRF bytes; the operands
(the kernel's loads) are live in sgemu's code already.  All pairs
of one target and type go into one file: one compile each (about a minute).
For pow, the pair (pow, pow) is pow and powr of the same operands (sgemu
translates powr to pow).  pown is measured as a function of its own, paired
with each of the others (`--pairs pown` measures those pairs alone and merges
them): sgemu runs it as pow of the exponent converted from an integer, which
isa/regalloc.c tells apart, while IGC's library has a pown body that shares
other terms (with rootn twice what pow does).  An integer operand is never
shared in a pown pair: pown's is m, in both kernels.
"""
import argparse
import hashlib
import json
import os
import re
import sys

# the functions, their OpenCL C types and pragmas: those the temporaries
# were measured for
from igc_math_demand import CTYPE, FUNCS, PRAGMA  # noqa: E402
from igc_ocloc import TYPE_INDEX, compile_dump, versions  # noqa: E402
from igc_ocloc import write_def as write_def_file  # noqa: E402

SIZE = {"i8": 1, "i16": 2, "half": 2, "i32": 4, "float": 4, "i64": 8, "double": 8}
TARGETS = ["skl", "tgllp", "dg2-g10", "pvc"]


def call(func, arity, x, y, n):
    if arity == 1:
        return "%s(%s)" % (func, x)
    return "%s(%s, %s)" % (func, x, y if arity == 2 else n)


# functions sgemu runs as another one's opcode but IGC as a body of its own
POWN = ("pown", "n")


def pairs(which="all"):
    """(f, g, name of g's OpenCL function): every unordered pair, pow with
    powr, and each function with pown ("pown": those alone)."""
    out = [(FUNCS[i], FUNCS[j], FUNCS[j][0]) for i in range(len(FUNCS))
           for j in range(i + 1, len(FUNCS))]
    pow_ = dict(FUNCS)["pow"]
    out += [(("pow", pow_), ("pow", pow_), "powr")]
    pown = [(f, POWN, "pown") for f in FUNCS]
    return pown if which == "pown" else out + pown


def kernel(name, f, g, gname, same, ty):
    t = CTYPE[ty]
    ops = ("a0", "b0", "n0") if same else ("c0", "d0", "m0")
    if g == POWN:
        ops = ops[:2] + ("m0",)
    return ("__attribute__((intel_reqd_sub_group_size(16))) __kernel void %s(__global %s *o, "
            "__global const %s *a, __global const %s *b, __global const %s *c, "
            "__global const %s *d, __global const int *n)\n{\n    size_t i = get_global_id(0);\n"
            "    %s a0 = a[i], b0 = b[i], c0 = c[i], d0 = d[i];\n"
            "    int n0 = n[i], m0 = n[i + 1];\n"
            "    o[2 * i] = %s;\n    o[2 * i + 1] = %s;\n}\n" %
            (name, t, t, t, t, t, t, call(f[0], f[1], "a0", "b0", "n0"),
             call(gname, g[1], *ops)))


def signatures(body):
    """A function naming each value by a hash of its expression in terms of
    the kernel's argument loads and constants (a phi node by its incoming
    expressions, sorted), so that a value two kernels compute alike has one
    name."""
    rhs = {}
    for l in body.splitlines():
        m = re.match(r"\s*(%[\w.\-]+) = (.*)", l)
        if m:
            rhs[m.group(1)] = re.sub(r", !.*$", "", m.group(2))
    memo = {}

    def sig(v):
        if v not in rhs:
            return v                    # an argument of the kernel
        if v in memo:
            return memo[v]
        memo[v] = "cycle"
        r = rhs[v]
        if r.startswith("phi "):
            inc = re.findall(r"\[ ([^,]+), %[\w.\-]+ \]", r)
            text = "phi(%s)" % ",".join(sorted(sig(x.strip()) for x in inc))
        else:
            text = re.sub(r"%[\w.\-]+", lambda m: "(" + sig(m.group(0)) + ")", r)
        memo[v] = hashlib.sha1(text.encode()).hexdigest()[:16]
        return memo[v]
    return sig


CASTS = ("zext", "sext", "trunc", "fpext", "fptrunc", "fptosi", "fptoui", "sitofp",
         "uitofp", "bitcast", "ptrtoint", "inttoptr", "addrspacecast")
IR_TYPE = re.compile(r"\b(i1|i8|i16|i32|i64|half|float|double)\b")


def result_type(rhs):
    """The scalar type of the value an IR instruction (its right-hand side)
    defines: a compare's is i1 (a flag), a cast's the type after `to`, a
    select's its operands' (after the i1 condition), any other's the first
    type named (phi, arithmetic, load, call)."""
    op = rhs.split()[0]
    if op in ("icmp", "fcmp"):
        return "i1"
    if op in CASTS and " to " in rhs:
        rhs = rhs.rsplit(" to ", 1)[1]
    elif op == "select":
        rhs = rhs.split(",", 1)[1] if "," in rhs else rhs
    t = IR_TYPE.search(rhs)
    return t.group(1) if t else None


def live_across(body):
    """{expression: bytes per lane} of the values defined before the first
    store and read after it."""
    lines = body.splitlines()
    first = next(i for i, l in enumerate(lines) if l.strip().startswith("store "))
    size, alias = {}, {}
    for l in lines[:first]:
        m = re.match(r"\s*(%[\w.\-]+) = (.*)", l)
        if not m:
            continue
        v, rhs = m.group(1), m.group(2)
        b = re.match(r"bitcast \S+ (%[\w.\-]+) to (\S+)$", rhs)
        if b and not b.group(2).endswith("*"):
            alias[v] = b.group(1)
            continue
        if "*" in rhs.split(",")[0] or rhs.startswith("getelementptr"):
            continue                    # addresses: both kernels have them
        if rhs.startswith("load ") and "addrspace(1)*" in rhs:
            continue                    # the operands: live in sgemu's code too
        size[v] = SIZE.get(result_type(rhs), 0)
    read = set()
    for l in lines[first:]:
        read.update(re.findall(r"%[\w.\-]+", l.split(" = ", 1)[-1]))
    sig = signatures(body)
    live = {}
    for v in read:
        while v in alias:
            v = alias[v]
        if v in size and size[v]:
            live[sig(v)] = size[v]
    return live


def measure(target, ty, which="all"):
    """{"f g": shared bytes per lane} for one target and type."""
    ps = pairs(which)
    src = PRAGMA[ty]
    for f, g, gname in ps:
        for same in (True, False):
            src += kernel("%s_%s_%s" % ("s" if same else "d", f[0], gname), f, g, gname, same, ty)
    r, dumps = compile_dump(src, target, suffixes=("_optimized.ll",))
    if r.returncode != 0 or not dumps:
        sys.exit("ocloc failed for %s %s: %s" % (target, ty, (r.stdout + r.stderr)[-400:]))
    text = next(iter(dumps.values()))
    bodies = dict(re.findall(r"^define spir_kernel void @(\w+)\(.*?\{\n(.*?)\n\}", text,
                             re.S | re.M))
    out = {}
    for f, _, gname in ps:
        s = live_across(bodies["s_%s_%s" % (f[0], gname)])
        d = live_across(bodies["d_%s_%s" % (f[0], gname)])
        out["%s %s" % (f[0], gname)] = {e: b for e, b in s.items() if e not in d}
    return out


def write_def(data, path):
    """emu/math_shared.def: per target and type, the terms each pair of
    functions shares, each term numbered once per target and type (one
    value, whichever pairs share it)."""
    res = data["results"]
    comment = ["math_shared.def - what IGC keeps live from one elementary function into a",
               "later one of the same operands (docs/regalloc.md, Elementary functions).",
               "Generated by tools/igc_math_shared.py from tools/data/igc_math_shared.json",
               "(%(versions)s): the values IGC's",
               "optimized LLVM IR of `f(a); g(a)` defines in f and reads in g, less those",
               "of `f(a); g(c)`.  A term is one such value, numbered per target and type",
               "by its expression, so that pairs sharing one value name the same term.",
               "",
               "MATH_SHARED(ocloc target, opcode, opcode, type (0 f16, 1 f32, 2 f64),",
               "            term, bytes per lane)"]
    out = []
    for t in TARGETS:
        for ty in ("f16", "f32", "f64"):
            d = res.get("%s/%s" % (t, ty))
            if not d:
                continue
            terms = {}
            for key in sorted(d, key=lambda k: [n for n, _ in FUNCS].index(k.split()[0])):
                f, g = key.split()
                g = "pow" if g == "powr" else g
                for e, b in sorted(d[key].items()):
                    n = terms.setdefault(e, len(terms))
                    out.append('MATH_SHARED("%s", %s, %s, %d, %d, %d)' % (
                        t, f.upper(), g.upper(), TYPE_INDEX[ty], n, b))
    write_def_file(path, comment, data["versions"], out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--targets", default=",".join(TARGETS))
    ap.add_argument("--types", default="f16,f32,f64")
    ap.add_argument("--out", required=True)
    ap.add_argument("--pairs", choices=("all", "pown"), default="all",
                    help="pown: only the pairs with pown, merged into --out")
    ap.add_argument("--def", dest="def_path",
                    help="write emu/math_shared.def from --out and measure nothing")
    a = ap.parse_args()
    if a.def_path:
        write_def(json.load(open(a.out, encoding="utf-8")), a.def_path)
        return 0
    data = {"versions": versions(), "commands": [],
            "method": "optimized LLVM IR: bytes per lane defined in f, read in g, "
                      "same operands minus other operands", "results": {}}
    if os.path.exists(a.out):
        old = json.load(open(a.out, encoding="utf-8"))
        data["results"] = old.get("results", {})
        data["commands"] = old.get("commands", [old["command"]] if "command" in old else [])
    data["commands"].append(" ".join(sys.argv))
    for target in a.targets.split(","):
        for ty in a.types.split(","):
            if ty == "f64" and target in ("tgllp", "dg2-g10"):
                continue
            key = "%s/%s" % (target, ty)
            if a.pairs == "pown":
                data["results"].setdefault(key, {}).update(measure(target, ty, "pown"))
            else:
                data["results"][key] = measure(target, ty)
            print("%s %s done" % (target, ty), flush=True)
            with open(a.out, "w", encoding="utf-8") as fh:
                json.dump(data, fh, indent=1, sort_keys=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
