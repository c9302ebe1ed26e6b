#!/usr/bin/env python3
"""tools/igc_placement.py, the reading of a Gen ISA dump (no ocloc needed):
the registers each instruction reads, writes and kills, liveness, the values
one operand names together, and first-fit placement in order of definition
and in vISA's colour order.  The excerpt is written by hand in the dumps'
format (ocloc 22.43, `pvc`: 64-byte registers); every expected value below
is worked out by hand from it (the comments), not computed by the tool."""
import sys

sys.path.insert(0, sys.argv[1])
import igc_placement as ip  # noqa: E402

ASM = """//.kernel t
//.platform PVCXT
//.thread_config numGRF=128, numAcc=4, numSWSB=16
//.declare V0011 (11)  rf=r size=256 type=f align=32 words (r20.0)
//.declare V0012 (12)  rf=r size=1024 type=f align=32 words (r20.0)
        load.ugm.d32x4.a64 (32|M0)  r4:8        [r40:4]            {$1} // ex_desc:0x0; desc:0x8803580 // $1
        mov (32|M0)              r12.0<1>:f    r4.0<1;1,0>:f                    {Compacted,$1.dst}   // $2
        add (16|M0)              a0.0<1>:uw    r1.0<1;1,0>:uw    0x500:uw              {I@1}          // $3
        mov (16|M0)              r14.0<1>:d    r[a0.0]<1,0>:d                   {A@1}                // $4
(W)     mov (8|M0)               r15.0<1>:d    r14.0<1;1,0>:d                   {I@1}                // $5
        add (32|M0)              r16.0<1>:f    r12.0<1;1,0>:f    r8.0<1;1,0>:f    {Compacted}          // $6
        store.ugm.d32.a64 (32|M0)  [r40:4]     r16:2              {A@1,$2} // ex_desc:0x0; desc:0x8000584 // $7
"""
VISAASM = "    addr_add (M1, 16) A0(0)<1> &V0011 V0010(0,0)<1;1,0>   /// $3\n"


def check(failures, what, got, want):
    if got != want:
        failures.append("%s: got %r, want %r" % (what, got, want))


def value(base, refs, mem, pinned=False):
    return {"base": base, "pinned": pinned, "refs": refs, "mem": mem}


def main():
    failures = []
    check(failures, "register bytes on pvc", ip.grf_bytes_of(ASM), 64)
    check(failures, "register bytes elsewhere", ip.grf_bytes_of("//.platform TGLLP\n"), 32)
    check(failures, "address taken", ip.address_taken(VISAASM), {"V0011"})
    insts = ip.parse_gen(ASM, ip.address_taken(VISAASM))
    check(failures, "instructions", len(insts), 7)
    # #0 a load: its 8-register destination r4..r11 written whole, its
    # address r40..r43 read
    check(failures, "#0 reads", insts[0].reads, {40, 41, 42, 43})
    check(failures, "#0 kills", insts[0].kills, set(range(4, 12)))
    # #1 SIMD32 float: 128 bytes, two registers each way
    check(failures, "#1 reads", insts[1].reads, {4, 5})
    check(failures, "#1 kills", insts[1].kills, {12, 13})
    # #2 writes a0, so r1 (16 words, half of r1) is a source
    check(failures, "#2 reads", insts[2].reads, {1})
    check(failures, "#2 writes", insts[2].writes, set())
    # #3 reads through a0 based at 0x500 = r20: the address-taken V0011,
    # 256 bytes, r20..r23 (not the larger V0012 declared there)
    check(failures, "#3 reads", insts[3].reads, {20, 21, 22, 23})
    check(failures, "#3 kills", insts[3].kills, {14})
    # #4 writes 8 dwords, half of r15: written, not killed
    check(failures, "#4 writes", insts[4].writes, {15})
    check(failures, "#4 kills", insts[4].kills, set())
    # #6 a store: every operand read
    check(failures, "#6 reads", insts[6].reads, {40, 41, 42, 43, 16, 17})
    check(failures, "#6 writes", insts[6].writes, set())
    without = ip.parse_gen(ASM)     # no vISA: the largest variable at r20
    check(failures, "#3 reads, no vISA", without[3].reads, set(range(20, 36)))
    live = ip.liveness(insts)
    occ = ip.occupied(insts, live)
    # backwards: #6 {40-43,16,17}; #5 kills 16,17, reads 12,13,8,9; #4
    # reads 14; #3 kills 14, reads 20-23; #2 reads 1; #1 kills 12,13,
    # reads 4,5; #0 kills 4..11, reads 40-43
    a = {40, 41, 42, 43}
    check(failures, "live into #6", live[6], a | {16, 17})
    check(failures, "live into #4", live[4], a | {8, 9, 12, 13, 14})
    check(failures, "live into #1", live[1], a | {1, 4, 5, 8, 9, 20, 21, 22, 23})
    check(failures, "live into #0", live[0], a | {1, 20, 21, 22, 23})
    check(failures, "occupied", [len(s) for s in occ], [17, 15, 13, 13, 10, 10, 6])
    check(failures, "no prolog", ip.prolog_end(insts), 0)
    vals = ip.values(insts, live)
    got = sorted((v["base"], ip.size(v), v["pinned"], v["refs"], v["mem"]) for v in vals)
    # live into the kernel (pinned): r1, the address r40..r43, V0011 r20..r23;
    # the load's r4..r11 one value (its r4,r5 read at #1, r8,r9 at #5)
    want = [(1, 1, True, 1, [(0, -1, 2)]),
            (4, 8, False, 3, [(0, 0, 1), (1, 0, 1), (2, 0, 0), (3, 0, 0),
                              (4, 0, 5), (5, 0, 5), (6, 0, 0), (7, 0, 0)]),
            (12, 2, False, 2, [(0, 1, 5), (1, 1, 5)]),
            (14, 1, False, 2, [(0, 3, 4)]),
            (15, 1, False, 1, [(0, 4, 4)]),
            (16, 2, False, 2, [(0, 5, 6), (1, 5, 6)]),
            (20, 4, True, 1, [(0, -1, 3), (1, -1, 3), (2, -1, 3), (3, -1, 3)]),
            (40, 4, True, 2, [(0, -1, 6), (1, -1, 6), (2, -1, 6), (3, -1, 6)])]
    check(failures, "values", got, want)
    # first fit in order of definition: r4..r11 cannot start at r0 or r1
    # (r1 is pinned over #-1..#2, the value's r4,r5 part lives #0..#1), so
    # r2; r12,r13 (#1..#5) then at r4 (the load's r6,r7 are dead after #0);
    # r14 (#3..#4) at r0; r15 (#4) at r1 (r1 free after #2); r16,r17 (#5..#6)
    # at r0
    order = ip.definition_order(vals)
    top, where = ip.place(vals, order)
    by_base = {vals[i]["base"]: r for i, r in where.items()}
    check(failures, "definition order", by_base,
          {1: 1, 40: 40, 20: 20, 4: 2, 12: 4, 14: 0, 15: 1, 16: 0})
    check(failures, "definition order top", top, 44)
    # each value whole over its live range: r4..r11 over #0..#5 at r2..r9
    # again; r12,r13 (#1..#5) now above it, at r10; r14 (#3..#4) at r0;
    # r15 (#4) at r1 (r0 is r14's at #4; r1 pinned only to #2); r16,r17
    # (#5..#6) at r0
    top, where = ip.place(vals, order, whole=True)
    by_base = {vals[i]["base"]: r for i, r in where.items()}
    check(failures, "whole values", by_base,
          {1: 1, 40: 40, 20: 20, 4: 2, 12: 10, 14: 0, 15: 1, 16: 0})
    # vISA's colour order, three values made by hand, K = 3:
    # v0 1 reg #0..#3 1 ref; v1 1 reg #0..#10 1 ref; v2 2 regs #5..#12 4 refs.
    # edges v0-v1, v1-v2; degrees (n1+n2-1 summed) 1, 3, 2; spill costs
    # refs^2 bytes^1.5 / (sqrt(deg+1) rows^.25): 362, 256, 11250.
    # v0 unconstrained (1+1 <= 3) removed first: v1 to 2 (unconstrained);
    # v1 removed: v2 to 0; v2 removed.  Colours in reverse: v2, v1, v0:
    # v2 r0,r1; v1 r2; v0 r0 (v2 starts after #3): 3 registers, where
    # definition order (v0 r0, v1 r1, v2 r2,r3) needs 4
    hand = [value(0, 1, [(0, 0, 3)]), value(1, 1, [(0, 0, 10)]),
            value(2, 4, [(0, 5, 12), (1, 5, 12)])]
    check(failures, "vISA order", ip.visa_order(hand, 3), [2, 1, 0])
    check(failures, "vISA order placed", ip.place(hand, [2, 1, 0]), (3, {2: 0, 1: 2, 0: 0}))
    check(failures, "definition order placed", ip.place(hand, ip.definition_order(hand)),
          (4, {0: 0, 1: 1, 2: 2}))
    try:
        ip.parse_gen(ASM + "(W)     jmpi (1|M0)              L100                // $9\n")
        failures.append("a branch: no error")
    except ValueError as e:
        check(failures, "a branch", str(e).startswith("a branch"), True)
    for f in failures:
        print("FAIL " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
