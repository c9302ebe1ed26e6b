#!/usr/bin/env python3
"""igc_placement.py - where Intel's compiler (IGC, through `ocloc`) put the
values of one straight-line kernel in the register file, how many registers
are live at once, and what the same values need when placed by a rule.

    python3 tools/igc_placement.py --target pvc --width 32 --kernel vs_float16 FILE.cl [--grf N]

The kernel is built alone at the width with IGC's shader dump on (and vISA's
-TotalGRFNum N where --grf is given).  From its dumped Gen ISA, whose
registers are physical, the tool computes:

  * liveness per register (GRF): a register is live from a write to the
    last read before the next write that covers it whole; a partial write
    kills nothing.  `most live` is the largest number of registers live (or
    written) at one instruction: the kernel's pressure under IGC's own
    assignment, which no placement can go below;
  * the highest register IGC used after the per-thread prolog (the prolog
    loads the payload through the file's last register, dead after it);
  * for each register above `most live`: its live range and the registers
    below `most live` that are free for the whole of it;
  * values: the register ranges one operand reads or writes together (a
    2-register float at SIMD32, a message's 8-register payload), joined over
    time, each keeping IGC's layout of its registers and the live range of
    each; those live into the body (r0, the payload) stay where IGC put them;
  * an indirect read (`r[a0.0]`) reads the variable whose address vISA
    took (`&V` in the .visaasm dump) at the register its address is based
    on (an immediate byte offset added into a0, or into a word register
    copied to a0);
  * those values placed again, first fit (the lowest register where each
    register of the value is free for its own live range, or, "whole", all
    of them for the value's whole live range, as vISA's interference is
    per variable): in order of
    definition, and in vISA's colour order (GraphColor.cpp, learnt from its
    source: live ranges sorted by spill cost, refs^2 * bytes^1.5 /
    (sqrt(degree + 1) * rows^0.25), a degree the sum of n1 + n2 - 1 over
    interfering values; the unconstrained ones (degree + size <= K) and
    then the cheapest constrained one removed in turn, relaxing their
    neighbours; colours given in the reverse order of removal).

docs/igc-comparison.md (Xe-HPC: placement, measured) quotes its output.
Only kernels without branches (no jmpi, goto, if, while, call) and with
LSC or plain sends are read.  Exit status: 0 ok, 1 bad usage, a missing
file, no ocloc, no dump of that kernel at that width, or a kernel it cannot
read.
"""
import math
import os
import re
import sys
from collections import Counter, deque

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

TYPE_BYTES = {"ub": 1, "b": 1, "uw": 2, "w": 2, "hf": 2, "bf": 2, "ud": 4, "d": 4, "f": 4,
              "uq": 8, "q": 8, "df": 8}
BRANCH = re.compile(r"^\s*(?:\([^)]*\)\s*)?(jmpi|goto|if|else|endif|while|break|cont|call|"
                    r"calla|ret|join|halt)\b")
EXEC = re.compile(r"\((\d+)\|M(\d+)\)")
REG_OPND = re.compile(r"(?<![\w.\[])(r\[a0\.\d+(?:,\s*\d+)?\]|r\d+\.\d+)(<[\d;,]*>)?:(\w+)")
MSG_OPND = re.compile(r"(\[?)(?<![\w.])r(\d+):(\d+)")
DECLARE = re.compile(r"^//\.declare (\S+) \(\d+\)\s+rf=r size=(\d+) (?:(?!alias=).)*?\(r(\d+)\.0\)",
                     re.M)
TAKEN = re.compile(r"\baddr_add\b.*?&(V\d+)")


class Inst:
    """One Gen instruction: the registers it reads, those it writes, and
    those of its writes that cover the register whole (kills)."""
    __slots__ = ("text", "reads", "writes", "kills", "opnds")

    def __init__(self, text):
        self.text = text
        self.reads, self.writes, self.kills = set(), set(), set()
        self.opnds = []     # (first register, registers) of each register operand


def grf_bytes_of(asm):
    """64 on Xe-HPC (its dump says //.platform PVC...), 32 elsewhere."""
    m = re.search(r"^//\.platform (\S+)", asm, re.M)
    return 64 if m and m.group(1).startswith(("PVC", "XE_HPC", "XE2", "LNL", "BMG")) else 32


def _span(n, ts, region, dst):
    """Bytes from an operand's first byte to past its last, for execution
    size n, type size ts and region <V;W,H>, <V;H> or <H>."""
    nums = [int(x) for x in re.findall(r"\d+", region or "<1>")]
    if dst:
        return ((n - 1) * nums[0] + 1) * ts if nums else n * ts
    if len(nums) == 3:
        v, w, h = nums
        if w == 0:
            return ts
        return ((n // w - 1) * v + (w - 1) * h + 1) * ts
    if len(nums) == 2:          # three-source <V;H>: rows of n, V the step
        v, h = nums
        return ((n - 1) * (h or v) + 1) * ts if (h or v) else ts
    return ((n - 1) * nums[0] + 1) * ts if nums and nums[0] else ts


def address_taken(visaasm):
    """Names of the variables whose address vISA takes (`addr_add ... &V`):
    those an indirect operand reads."""
    return set(TAKEN.findall(visaasm or ""))


def parse_gen(asm, taken=None):
    """[Inst] of a dumped Gen ISA kernel, in order; raises ValueError on a
    branch or a form it does not read.  taken: address_taken() of its vISA,
    whose variables' extents an indirect read covers (None: any variable
    declared at the register the address is based on, the largest)."""
    grf = grf_bytes_of(asm)
    extent = {}     # register -> registers of the variable an indirect read there reads
    for m in DECLARE.finditer(asm):
        if taken is None or m.group(1) in taken:
            r = int(m.group(3))
            extent[r] = max(extent.get(r, 1), (int(m.group(2)) + grf - 1) // grf)
    out, base, bases = [], None, {}
    for line in asm.splitlines():
        code = line.split("//")[0].rstrip()
        if line.startswith("//") or not code.strip() or code.strip().endswith(":"):
            continue
        if BRANCH.match(code):
            raise ValueError("a branch: %s" % code.strip())
        inst = Inst(code.strip())
        m = EXEC.search(code)
        n = int(m.group(1)) if m else 1
        rest = code[m.end():] if m else code

        def add(first, count, dst, whole=()):
            regs = set(range(first, first + count))
            (inst.writes if dst else inst.reads).update(regs)
            if dst:
                inst.kills.update(whole)
            inst.opnds.append((first, count))

        if re.match(r"^\s*(?:\(W\)\s*)?(load|store|atomic)\.", code):
            store = re.match(r"^\s*(?:\(W\)\s*)?store\.", code) is not None
            first = True
            for mm in MSG_OPND.finditer(rest):
                r, c = int(mm.group(2)), int(mm.group(3))
                dst = first and not store and not mm.group(1)
                add(r, c, dst, range(r, r + c) if dst else ())
                first = False
        elif re.match(r"^\s*(?:\(W\)\s*)?sends?c?(\.\w+)?\s", code):
            lens = re.search(r"wr:(\d+)h?\+(\d+), rd:(\d+)", line)
            regs = re.findall(r"(null|r\d+)(?::\w+)?", rest)[:3]
            if not lens or len(regs) < 2:
                raise ValueError("a send it cannot read: %s" % code.strip())
            w0, w1, rd = (int(x) for x in lens.groups())
            for k, (tok, cnt) in enumerate(zip(regs, (rd, w0, w1))):
                if tok != "null" and cnt:
                    r = int(tok[1:])
                    add(r, cnt, k == 0, range(r, r + cnt) if k == 0 else ())
        else:
            # the first operand is the destination; a0, acc, a flag or null
            # there leaves every register operand a source
            dst_grf = re.match(r"\s*(?:\([a-z]+\)\S+\s+)?r\d+\.\d+<", rest) is not None
            for k, (reg, region, t) in enumerate(REG_OPND.findall(rest)):
                ts = TYPE_BYTES.get(t, 4)
                is_dst = k == 0 and dst_grf
                if reg.startswith("r["):
                    # an indirect read: the variable its address register was
                    # last based on
                    if is_dst or base is None:
                        raise ValueError("an indirect operand it cannot place: %s" % code.strip())
                    add(base, extent.get(base, 1), False)
                    continue
                r, sub = (int(x) for x in reg[1:].split("."))
                start = sub * ts
                span = _span(n, ts, region, is_dst)
                g0, g1 = r + start // grf, r + (start + span - 1) // grf
                whole = ()
                if is_dst and (not region or re.findall(r"\d+", region)[:1] == ["1"]):
                    lo, hi = r * grf + start, r * grf + start + span
                    whole = [g for g in range(g0, g1 + 1) if lo <= g * grf and (g + 1) * grf <= hi]
                add(g0, g1 - g0 + 1, is_dst, whole)
        # address bases: an immediate byte offset added into a word register
        # (a0 or a GRF that a0 is later copied from), or copied along
        dst = re.search(r"\s(a0\.\d+|r\d+)\.?\d*<\d+>:uw\s", code)
        if dst:
            tail = code[dst.end() - 1:]
            imm = re.search(r"\s0x([0-9A-Fa-f]+):uw", tail)
            src = re.findall(r"\s(r\d+)\.\d+<[\d;,]+>:uw", tail)
            if imm:
                bases[dst.group(1)] = int(imm.group(1), 16) // grf
            elif src and re.match(r"^\s*(?:\(W\)\s*)?mov\s", code):
                bases[dst.group(1)] = bases.get(src[0])
            else:
                bases.pop(dst.group(1), None)
            if dst.group(1).startswith("a0"):
                base = bases.get(dst.group(1))
        elif re.search(r"\sa0\.\d+<", code):
            base = None
        out.append(inst)
    return out


def liveness(insts):
    """Per instruction, the registers live into it (read there or later
    before a write kills them)."""
    live, live_in = set(), [None] * len(insts)
    for i in range(len(insts) - 1, -1, -1):
        live = (live - insts[i].kills) | insts[i].reads
        live_in[i] = live
    return live_in


def occupied(insts, live_in):
    """Per instruction, the registers live into it or written by it."""
    return [live_in[i] | inst.writes for i, inst in enumerate(insts)]


def prolog_end(insts):
    """Index of the first instruction after the per-thread prolog (its
    loads of the payload), 0 where there is none."""
    end = 0
    for i, inst in enumerate(insts[:64]):
        if ".a32" in inst.text and "bti[255]" in inst.text:
            end = i + 1
    return end


def values(insts, live_in):
    """Register ranges one operand names together, joined over time: a list
    of {base, pinned, refs, mem: [(offset, first, last)]}, each member one
    live range of register base + offset."""
    start = prolog_end(insts)
    parent, seg, touched = {}, {}, []
    cur = {}

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def new(g, i):
        key = (g, i)
        parent[key] = key
        seg[key] = [i, i]
        cur[g] = key

    for i, inst in enumerate(insts):
        for g in sorted(inst.reads):
            if g not in cur:
                new(g, -1)          # live into the kernel
            seg[cur[g]][1] = i
        for g in sorted(inst.writes):
            if g not in cur or g in inst.kills or g not in live_in[i]:
                new(g, i)       # a partial write into a live register continues it
            seg[cur[g]][1] = i
        for first, count in inst.opnds:
            keys = [cur[g] for g in range(first, first + count) if g in cur]
            for k in keys[1:]:
                a, b = find(keys[0]), find(k)
                if a != b:
                    parent[b] = a
        touched.append({cur[g] for g in inst.reads | inst.writes})
    refs = Counter()
    for keys in touched:
        for root in {find(k) for k in keys}:
            refs[root] += 1
    groups = {}
    for key in seg:
        groups.setdefault(find(key), []).append(key)
    out = []
    for root, keys in groups.items():
        if all(seg[k][1] < start for k in keys):
            continue                # the prolog's own temporaries
        base = min(g for g, _ in keys)
        out.append({"base": base,
                    "pinned": min(seg[k][0] for k in keys) < start,
                    "refs": refs[root],
                    "mem": sorted((k[0] - base, seg[k][0], seg[k][1]) for k in keys)})
    return out


def size(v):
    return max(o for o, _, _ in v["mem"]) + 1


def span(v):
    return min(a for _, a, _ in v["mem"]), max(b for _, _, b in v["mem"])


def place(vals, order, whole=False):
    """(highest register + 1, {value index: first register}) when vals are
    placed first fit in order (a list of indices; pinned values keep their
    registers and go first).  whole: a value holds all its registers for
    its whole live range (vISA's interference is per variable), not each
    register for its own."""
    busy, where = {}, {}

    def free(g, a, b):
        return all(b < x or y < a for x, y in busy.get(g, ()))

    top = 0
    for i in [i for i, v in enumerate(vals) if v["pinned"]] + list(order):
        v = vals[i]
        a0, b0 = span(v)
        mem = [(o, a0, b0) for o in range(size(v))] if whole else v["mem"]
        at = v["base"] if v["pinned"] else 0
        while not v["pinned"] and not all(free(at + o, a, b) for o, a, b in mem):
            at += 1
        for o, a, b in mem:
            busy.setdefault(at + o, []).append((a, b))
        where[i] = at
        top = max(top, at + size(v))
    return top, where


def definition_order(vals):
    return sorted((i for i, v in enumerate(vals) if not v["pinned"]),
                  key=lambda i: (span(vals[i])[0], vals[i]["base"]))


def visa_order(vals, k):
    """vISA's colour order for k registers (see the module comment)."""
    n = len(vals)
    sp = [span(v) for v in vals]
    sz = [size(v) for v in vals]
    adj = [set() for _ in range(n)]
    active = []
    for i in sorted(range(n), key=lambda i: sp[i][0]):
        active = [j for j in active if sp[j][1] >= sp[i][0]]
        for j in active:
            adj[i].add(j)
            adj[j].add(i)
        active.append(i)
    deg = [sum(sz[i] + sz[j] - 1 for j in adj[i]) for i in range(n)]
    cost = [vals[i]["refs"] ** 2 * (64.0 * sz[i]) ** 1.5 /
            (math.sqrt(deg[i] + 1) * sz[i] ** 0.25) for i in range(n)]
    ranked = sorted((i for i in range(n) if not vals[i]["pinned"]), key=lambda i: (cost[i], i))
    waiting = {i for i in ranked if deg[i] + sz[i] > k}
    free_q = deque(i for i in ranked if i not in waiting)
    constrained = deque(i for i in ranked if i in waiting)
    removed = []

    def remove(i):
        removed.append(i)
        for j in adj[i]:
            if j in waiting:
                deg[j] -= sz[i] + sz[j] - 1
                if deg[j] + sz[j] <= k:
                    waiting.discard(j)
                    free_q.append(j)

    while free_q or constrained:
        while free_q:
            remove(free_q.popleft())
        while constrained and constrained[0] not in waiting:
            constrained.popleft()
        if constrained:
            i = constrained.popleft()
            waiting.discard(i)
            remove(i)
    return removed[::-1]


def report(asm, visaasm=None, out=sys.stdout):
    insts = parse_gen(asm, address_taken(visaasm) if visaasm else None)
    live_in = liveness(insts)
    occ = occupied(insts, live_in)
    start = prolog_end(insts)
    body = [i for i in range(start, len(insts))]
    used = set().union(*(occ[i] for i in body)) if body else set()
    high = max(used) + 1 if used else 0
    peak = max(body, key=lambda i: (len(occ[i]), -i)) if body else 0
    most = len(occ[peak]) if body else 0
    grf = re.search(r"numGRF=(\d+)", asm)
    grf = int(grf.group(1)) if grf else 0
    spill = re.search(r"^//\.spill size (\d+)", asm, re.M)
    print("file %d registers, spill %s B, %d instructions" %
          (grf, spill.group(1) if spill else "0", len(insts)), file=out)
    print("registers used after the prolog: %d; most live at one instruction: %d (#%d: %s)"
          % (high, most, peak, insts[peak].text[:60] if insts else "-"), file=out)
    for g in range(most, high):
        at = [i for i in body if g in occ[i]]
        if not at:
            continue
        a, b = at[0], at[-1]
        free = [r for r in range(most) if all(r not in occ[i] for i in range(a, b + 1))]
        print("  r%d live #%d..#%d, most live there %d; free throughout below r%d: %s"
              % (g, a, b, max(len(occ[i]) for i in range(a, b + 1)), most,
                 " ".join("r%d" % r for r in free) or "none"), file=out)
    vals = values(insts, live_in)
    sizes = Counter(size(v) for v in vals)
    print("values: %d (by registers: %s), %d pinned" %
          (len(vals), " ".join("%d:%d" % kv for kv in sorted(sizes.items())),
           sum(v["pinned"] for v in vals)), file=out)
    k = grf or high
    for whole in (False, True):
        print("placed first fit, %s: in order of definition %d; in vISA's colour order (K=%d) %d"
              % ("each value whole over its live range" if whole else "each register its own range",
                 place(vals, definition_order(vals), whole)[0], k,
                 place(vals, visa_order(vals, k), whole)[0]), file=out)


def main():
    from igc_ocloc import one_kernel_dump
    got = one_kernel_dump("igc_placement.py", __doc__.split("\n\n")[0])
    if got is None:
        return 1
    a, _, asm, visaasm = got
    print("%s SIMD%d on %s" % (a.kernel, a.width, a.target))
    try:
        report(asm, visaasm)
    except ValueError as e:
        print("igc_placement.py: %s: %s" % (a.kernel, e), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
