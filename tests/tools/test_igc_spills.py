#!/usr/bin/env python3
"""tools/igc_spills.py, the reading of IGC's dumps (no ocloc needed): the
header figures, the spilled variables and their scratch slots, the spill and
fill sends, vISA's remat temporaries, and which vISA instructions write and
read a variable, through its aliases.  The excerpts below are written by
hand in the dumps' format (ocloc 22.43, IGC 1.0.12504); the expected values
are read off them, not computed by the tool."""
import sys

sys.path.insert(0, sys.argv[1])
import igc_spills as sp  # noqa: E402

ASM = """//.kernel k
//.platform SKL
//.thread_config numGRF=128, numAcc=2
//.instCount 859
//.RA type	GRAPH_COLORING_SPILL_FF_RA
//.spill size 96
//.declare V0040 (48)  rf=r size=64 type=d align=16 words (r4.0)
//.declare V0197 (221)  rf=r size=32 type=w align=16 words (spilled -> Scratch[0x32])
//.declare V0204 (229)  rf=r size=64 type=d align=16 words (spilled -> Scratch[1x32])
//.declare REMAT_V0050 (300)  rf=r size=64 type=d align=16 words (r6.0)
(W)     sends (16|M0)            null:uw  r82     r70     0x8A            0x020F1000           // wr:1h+2, rd:0; hdc.dc0; hword scratch block write x2 //  scratch space spill:  from offset[0x32]; $331
(W)     send (16|M0)             r99:uw   r82     0xA            0x024C2001           // wr:1h+0, rd:4; hdc.dc0; hword scratch block read x4 //  scratch space fill: FL_GRF_V0204_0 from offset[1x32]; $562
"""

VISAASM = """.decl V0089 v_type=G type=d num_elts=16 align=hword
.decl V0091 v_type=G type=ud num_elts=16 align=hword alias=<V0089, 0>
.decl V0095 v_type=G type=ud num_elts=16 align=hword alias=<V0091, 0>
.decl V0200 v_type=G type=d num_elts=16 align=hword
    shl (M1, 16) V0089(0,0)<1> V0055(0,0)<1;1,0> 0x2:d                           /// $101
    gather4_scaled.R (M1, 16) T6 0x0:ud V0091.0 V0093.0                          /// $104
    add (M1, 16) V0089(0,0)<1> V0089(0,0)<1;1,0> 0x1:d                           /// $105
    (P1) mov (M1, 16) V0200(0,0)<1> V0095(0,0)<1;1,0>                           /// $120
    scatter4_scaled.RGBA (M1, 16) T6 0x0:ud V0091.0 V0187.0                      /// $306
    mov (M1, 16) V00890(0,0)<1> V0200(0,0)<1;1,0>                                /// $307
"""


def check(failures, what, got, want):
    if got != want:
        failures.append("%s: got %r, want %r" % (what, got, want))


def main():
    failures = []
    p = sp.parse_asm(ASM)
    check(failures, "grf", p["grf"], 128)
    check(failures, "spill size", p["spill"], 96)
    check(failures, "instructions", p["instrs"], 859)
    check(failures, "spilled", p["spilled"], [("V0197", 32, 0, 32), ("V0204", 64, 1, 32)])
    check(failures, "sends", p["scratch"], [("spill", 0, 32, 331), ("fill", 1, 32, 562)])
    check(failures, "remat", p["remat"], ["REMAT_V0050"])
    check(failures, "nothing in an empty dump", sp.parse_asm("")["spilled"], [])
    check(failures, "aliases", sp.aliases(VISAASM, "V0089"), {"V0089", "V0091", "V0095"})
    # written at $101 and $105 (also read there), read through V0091 by a
    # message and through V0095 by a predicated move, and by a store at $306;
    # V00890 is another variable
    check(failures, "refs V0089", sp.refs(VISAASM, "V0089"), ([101, 105], [104, 105, 120, 306]))
    check(failures, "refs V0200", sp.refs(VISAASM, "V0200"), ([120], [307]))
    check(failures, "refs of an unknown variable", sp.refs(VISAASM, "V0999"), ([], []))
    for f in failures:
        print("FAIL " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
