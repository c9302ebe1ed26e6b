#!/usr/bin/env python3
"""tools/bench_ab.py against two fake sgemu-bench programs whose figures
differ from round to round: the rounds alternate, each cell is the median
of its build's rounds, rows pair by their key columns, and an existing
output directory is refused."""
import json
import os
import subprocess
import sys
import tempfile

TOOL = sys.argv[1]


def fake_build(root, name, rows):
    """A build directory whose sgemu-bench appends its name to LOG and prints
    the next round's table; rows[r] = (S=8, S=16, S=32 figures)."""
    d = os.path.join(root, name, "tools", "bench")
    os.makedirs(d)
    exe = os.path.join(d, "sgemu-bench")
    state = os.path.join(root, name + ".round")
    with open(exe, "w", encoding="utf-8") as f:
        f.write("#!/bin/sh\n")
        f.write(f'r=$(cat {state} 2>/dev/null || echo 0)\n')
        f.write(f'echo $((r + 1)) > {state}\n')
        f.write(f'echo {name} >> {os.path.join(root, "LOG")}\n')
        f.write('echo "# sgemu-bench"\necho\necho "## Workloads (1 host thread)"\necho\n')
        f.write('echo "| workload | S | rate | output |"\necho "|---|---|---|---|"\n')
        f.write('case $r in\n')
        for r, (a, b, c) in enumerate(rows):
            f.write(f'{r}) echo "| vadd | 8 | {a} | = native |"; '
                    f'echo "| vadd | 16 | {b} | = native |"; '
                    f'echo "| vadd | 32 | {c} | = native |";;\n')
        f.write('esac\n')
    os.chmod(exe, 0o755)
    return os.path.join(root, name)


def main():
    failures = []

    def check(cond, what):
        if not cond:
            failures.append(what)

    with tempfile.TemporaryDirectory() as root:
        before = fake_build(root, "before", [("1.00", "2.0", "1.5 (.cl)"), ("3.00", "2.0", "0.5 (.cl)"),
                                             ("2.00", "9.0", "1.0 (.cl)")])
        after = fake_build(root, "after", [("4.00", "2.0", "2.0 (.cl)"), ("4.00", "2.0", "3.0 (.cl)"),
                                           ("1.00", "2.0", "9.0 (.cl)")])
        out = os.path.join(root, "out")
        p = subprocess.run([sys.executable, TOOL, "--before", before, "--after", after,
                            "--rounds", "3", "--out", out], capture_output=True, text=True,
                           check=False)
        check(p.returncode == 0, f"exit status {p.returncode}: {p.stderr}")
        with open(os.path.join(root, "LOG"), encoding="utf-8") as f:
            order = f.read().split()
        check(order == ["before", "after", "after", "before", "before", "after"],
              f"round order {order}")
        md = p.stdout
        # medians: before S=8 of 1, 3, 2 is 2.00; after 4, 4, 1 is 4.00
        check("| vadd | 8 | 2.00 -> 4.00 (2.00) | = native |" in md, "S=8 row:\n" + md)
        # S=16: before median 2.0, after 2.0: equal cells print once
        check("| vadd | 16 | 2.0 | = native |" in md, "S=16 row:\n" + md)
        # a figure with a note: the median of the figures, the note kept
        # (before 1.5, 0.5, 1.0 -> 1.0; after 2, 3, 9 -> 3.0)
        check("| vadd | 32 | 1.0 (.cl) -> 3.0 (.cl) (3.00) | = native |" in md, "S=32 row:\n" + md)
        with open(os.path.join(out, "side-by-side.json"), encoding="utf-8") as f:
            js = json.load(f)
        rows = js["tables"]["Workloads (1 host thread)"]
        check(rows[0]["rate"] == {"before": "2.00", "after": "4.00"}, f"json {rows[0]}")
        check(os.path.exists(os.path.join(out, "round2-after.md")), "raw outputs kept")
        p = subprocess.run([sys.executable, TOOL, "--before", before, "--after", after,
                            "--out", out], capture_output=True, text=True, check=False)
        check(p.returncode == 1 and "exists" in p.stderr, "existing --out must be refused")
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
