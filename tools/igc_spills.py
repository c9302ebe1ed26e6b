#!/usr/bin/env python3
"""igc_spills.py - what Intel's compiler (IGC, through `ocloc`) spills in one
kernel, where, and whether it rematerialised anything instead.

    python3 tools/igc_spills.py --target skl --width 32 --kernel vs_short16 FILE.cl [--grf N]

The kernel is built at the width (__attribute__((intel_reqd_sub_group_size(W))))
with IGC's shader dump and vISA's pressure estimate on
(IGC_VISAOptions="-dumpRPE", with -TotalGRFNum N where --grf is given).
Printed, from the dumped Gen ISA (.asm) and vISA (.visaasm):

  * the register file, the spill size and the instruction count;
  * vISA's largest register pressure (`max pressure` of -dumpRPE: registers
    of the target, after the pre-RA scheduler);
  * the temporaries of vISA's rematerialisation (declared `REMAT_...`: an
    instruction recomputed before a read instead of a value kept live);
  * every spilled variable: its size, its scratch slot, the vISA
    instructions ($N) that write it and those that read it;
  * every spill and fill send: its vISA instruction and scratch offset.

docs/regalloc.md (The payload rule, What IGC does at the spill) quotes its
output.  Exit status: 0 ok, 1 bad usage, a missing file, no ocloc, or no
dump of that kernel at that width.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from igc_ocloc import one_kernel_dump  # noqa: E402

SPILLED = re.compile(r"^//\.declare (\S+) \(\d+\)\s+rf=r size=(\d+) .*"
                     r"\(spilled -> Scratch\[(\d+)x(\d+)\]\)", re.M)
SCRATCH = re.compile(r"scratch space (spill|fill):.*?from offset\[(\d+)x(\d+)\]; \$(\d+)")
REMAT = re.compile(r"^//\.declare (REMAT_\S*)", re.M)
PRESSURE = re.compile(r"^max pressure: (\d+)", re.M)
ALIAS = re.compile(r"^\.decl (\S+) .*\balias=<?(\w+),", re.M)
VISA_INST = re.compile(r"^\s+(?:\([^)]*\)\s*)?[a-z][\w.]*\s+\([^)]*\)\s+(.*?)\s+/// \$(\d+)\s*$")


def parse_asm(asm):
    """{grf, spill, instrs, spilled: [(name, bytes, slot, slot bytes)],
    scratch: [(spill|fill, slot, slot bytes, $N)], remat: [names]} from a
    dumped Gen ISA kernel."""
    num = lambda rx: int(rx.group(1)) if rx else 0  # noqa: E731
    return {"grf": num(re.search(r"numGRF=(\d+)", asm)),
            "spill": num(re.search(r"^//\.spill size (\d+)", asm, re.M)),
            "instrs": num(re.search(r"^//\.instCount (\d+)", asm, re.M)),
            "spilled": [(m.group(1), int(m.group(2)), int(m.group(3)), int(m.group(4)))
                        for m in SPILLED.finditer(asm)],
            "scratch": [(m.group(1), int(m.group(2)), int(m.group(3)), int(m.group(4)))
                        for m in SCRATCH.finditer(asm)],
            "remat": REMAT.findall(asm)}


def aliases(visaasm, name):
    """name and the variables declared as aliases of it (`alias=NAME+off`),
    transitively: vISA reads a variable through such views."""
    names, grew = {name}, True
    while grew:
        grew = False
        for m in ALIAS.finditer(visaasm):
            if m.group(2) in names and m.group(1) not in names:
                names.add(m.group(1))
                grew = True
    return names


def refs(visaasm, name):
    """(the $N of the vISA instructions that write variable `name` or an
    alias of it, those that read it): the first operand after the execution
    size is the destination (a store's operands are all read)."""
    var = re.compile(r"(?<![\w])(%s)(?=[(.\s]|$)"
                     % "|".join(re.escape(n) for n in sorted(aliases(visaasm, name))))
    defs, uses = [], []
    for line in visaasm.splitlines():
        m = VISA_INST.match(line)
        if not m:
            continue
        ops = m.group(1).split()
        at = int(m.group(2))
        hit = [i for i, o in enumerate(ops) if var.match(o)]
        if not hit:
            continue
        op = line.split()[0] if not line.lstrip().startswith("(") else line.split()[1]
        writes = not op.startswith(("lsc_store", "scatter", "svm_scatter", "oword_st", "media_st"))
        if writes and hit[0] == 0:
            defs.append(at)
            if len(hit) > 1:
                uses.append(at)
        else:
            uses.append(at)
    return defs, uses


def main():
    got = one_kernel_dump("igc_spills.py", __doc__.split("\n\n")[0], "-dumpRPE")
    if got is None:
        return 1
    a, r, asm, visaasm = got
    p = parse_asm(asm)
    pressures = PRESSURE.findall(r.stdout + r.stderr)
    print("%s SIMD%d on %s: %d registers, spill size %d B, %d instructions"
          % (a.kernel, a.width, a.target, p["grf"], p["spill"], p["instrs"]))
    print("vISA max pressure: %s registers" % (", ".join(pressures) or "-"))
    print("rematerialised (REMAT_ temporaries): %d%s"
          % (len(p["remat"]), (" " + " ".join(p["remat"])) if p["remat"] else ""))
    for name, size, slot, sb in p["spilled"]:
        d, u = refs(visaasm, name)
        print("spilled %s: %d B, slot %d (offset %d B), written at %s, read at %s"
              % (name, size, slot, slot * sb, " ".join("$%d" % x for x in d) or "-",
                 " ".join("$%d" % x for x in u) or "-"))
    for kind, slot, sb, at in p["scratch"]:
        print("%s at $%d, offset %d B" % (kind, at, slot * sb))
    return 0


if __name__ == "__main__":
    sys.exit(main())
