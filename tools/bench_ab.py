#!/usr/bin/env python3
"""Run two builds' sgemu-bench in alternating rounds and print their tables
side by side.

A before/after comparison on a shared host is only fair when both builds
see the same load, so the two benches alternate (before, after; then after,
before; ...) and each figure is the median over the rounds.  The tables of
the two outputs are matched by their heading and their rows by the key
columns (workload, size, S, ...); a cell reads "before -> after", and a
numeric pair also gets after/before.  A table or row only one side has is
printed with its side's figures alone.

Exit status: 0 ok, 1 bad arguments or a bench that failed.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time

# columns that name a row rather than measure it
KEY_COLUMNS = {"run", "threads", "workload", "size", "S", "items", "mode"}


def parse_tables(text):
    """{heading: (header, {row key: cells})} of a bench's markdown output."""
    tables = {}
    heading = None
    header = None
    for line in text.splitlines():
        if line.startswith("## "):
            heading = line[3:].strip()
            header = None
            continue
        if not line.startswith("|") or heading is None:
            header = None if not line.startswith("|") else header
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if header is None:
            header = cells
            tables[heading] = (header, {})
            continue
        if all(set(c) <= set("-") for c in cells):
            continue
        key = tuple(c for h, c in zip(header, cells) if h in KEY_COLUMNS)
        tables[heading][1][key] = cells
    return tables


def table_name(heading):
    """The heading up to its first ':' or '(' so that two bench versions'
    wordings of the same section match."""
    return re.split(r"[:(]", heading, maxsplit=1)[0].strip()


# a figure with a note after it, such as "243.31 (.cl)": number, 'x', note
NOTED = re.compile(r"^(-?[0-9]+(?:\.[0-9]+)?)(x?)(\s.*)?$")


def figure(cell):
    """The number a cell starts with, or None (a cell with no figure)."""
    m = NOTED.match(cell)
    return float(m.group(1)) if m else None


def median_cell(values):
    """The median of the rounds' figures, printed with the first round's
    decimals, 'x' and note; the first value when a round has no figure or
    another note."""
    first = NOTED.match(values[0])
    if not first:
        return values[0]
    nums = []
    for v in values:
        m = NOTED.match(v)
        if not m or m.group(2, 3) != first.group(2, 3):
            return values[0]
        nums.append(float(m.group(1)))
    med = statistics.median(nums)
    number = first.group(1)
    decimals = len(number.split(".")[1]) if "." in number else 0
    return f"{med:.{decimals}f}{first.group(2)}{first.group(3) or ''}"


def merge_rounds(outputs):
    """Median per cell over the rounds of one build."""
    merged = {}
    parsed = [parse_tables(o) for o in outputs]
    for heading, (header, rows) in parsed[0].items():
        out_rows = {}
        for key, cells in rows.items():
            per_col = []
            for i, cell in enumerate(cells):
                vals = [p[heading][1][key][i] for p in parsed
                        if heading in p and key in p[heading][1]
                        and i < len(p[heading][1][key])]
                per_col.append(median_cell(vals) if vals else cell)
            out_rows[key] = per_col
        merged[table_name(heading)] = (heading, header, out_rows)
    return merged


def side_by_side(before, after):
    """Markdown of every table of after (and of before alone), cells as
    'before -> after (after/before)'."""
    lines = []
    result = {}
    names = list(after) + [n for n in before if n not in after]
    for name in names:
        b = before.get(name)
        a = after.get(name)
        heading, header, _ = a if a else b
        lines.append(f"### {heading}")
        lines.append("")
        if not a or not b:
            side = "after" if a else "before"
            lines.append(f"(only the {side} build's bench has this table)")
            lines.append("")
        lines.append("| " + " | ".join(header) + " |")
        lines.append("|" + "---|" * len(header))
        rows_out = []
        keys = list(a[2]) if a else []
        keys += [k for k in (b[2] if b else {}) if k not in keys]
        for key in keys:
            ac = a[2].get(key) if a else None
            bc = b[2].get(key) if b else None
            cells = []
            row_json = {}
            for i, h in enumerate(header):
                av = ac[i] if ac and i < len(ac) else None
                bi = b[1].index(h) if b and h in b[1] else None
                bv = bc[bi] if bc and bi is not None and bi < len(bc) else None
                row_json[h] = {"before": bv, "after": av}
                if h in KEY_COLUMNS or av == bv:
                    cells.append(av if av is not None else bv)
                elif av is None or bv is None:
                    cells.append(f"{bv or '-'} -> {av or '-'}")
                elif figure(av) is not None and figure(bv):
                    r = figure(av) / figure(bv)
                    cells.append(f"{bv} -> {av} ({r:.2f})")
                else:
                    cells.append(f"{bv} -> {av}")
            rows_out.append(row_json)
            lines.append("| " + " | ".join(cells) + " |")
        lines.append("")
        result[heading] = rows_out
    return "\n".join(lines), result


def run_bench(build, args, log):
    exe = os.path.join(build, "tools", "bench", "sgemu-bench")
    t0 = time.time()
    p = subprocess.run([exe] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, check=False)
    with open(log, "w", encoding="utf-8") as f:
        f.write(p.stdout)
    if p.returncode != 0:
        sys.stderr.write(p.stderr[-2000:])
        sys.exit(f"bench_ab.py: error: {exe} exited {p.returncode}")
    return p.stdout, time.time() - t0


def main():
    ap = argparse.ArgumentParser(
        description="Alternate two builds' sgemu-bench and print the tables side by side "
                    "(medians over the rounds).",
        epilog="Exit status: 0 ok, 1 bad arguments or a failed bench.")
    ap.add_argument("--before", required=True, help="build directory of the before build")
    ap.add_argument("--after", required=True, help="build directory of the after build")
    ap.add_argument("--rounds", type=int, default=2,
                    help="rounds; each runs both benches, alternating which goes first")
    ap.add_argument("--out", required=True,
                    help="directory for the raw outputs, the markdown and the JSON "
                         "(must not exist: nothing is overwritten)")
    ap.add_argument("bench_args", nargs="*", help="arguments for both benches (after --)")
    try:
        o = ap.parse_args()
    except SystemExit as e:
        sys.exit(0 if e.code == 0 else 1)
    if o.rounds < 1:
        print("bench_ab.py: error: --rounds must be at least 1", file=sys.stderr)
        sys.exit(1)
    for build in (o.before, o.after):
        exe = os.path.join(build, "tools", "bench", "sgemu-bench")
        if not os.access(exe, os.X_OK):
            print(f"bench_ab.py: error: {exe}: not an executable sgemu-bench", file=sys.stderr)
            sys.exit(1)
    try:
        os.makedirs(o.out)
    except FileExistsError:
        print(f"bench_ab.py: error: {o.out} exists; give a new directory", file=sys.stderr)
        sys.exit(1)
    outs = {"before": [], "after": []}
    tty = sys.stderr.isatty()
    for r in range(o.rounds):
        order = ["before", "after"] if r % 2 == 0 else ["after", "before"]
        for side in order:
            build = o.before if side == "before" else o.after
            if tty:
                print(f"round {r + 1}/{o.rounds}: {side} ...", file=sys.stderr)
            text, secs = run_bench(build, o.bench_args,
                                   os.path.join(o.out, f"round{r + 1}-{side}.md"))
            outs[side].append(text)
            if tty:
                print(f"round {r + 1}/{o.rounds}: {side} took {secs:.0f} s", file=sys.stderr)
    md, js = side_by_side(merge_rounds(outs["before"]), merge_rounds(outs["after"]))
    head = (f"Before: {o.before}; after: {o.after}; {o.rounds} alternating rounds, "
            f"median per cell; cells read before -> after (after/before).\n\n")
    with open(os.path.join(o.out, "side-by-side.md"), "w", encoding="utf-8") as f:
        f.write(head + md)
    with open(os.path.join(o.out, "side-by-side.json"), "w", encoding="utf-8") as f:
        json.dump({"before": o.before, "after": o.after, "rounds": o.rounds,
                   "tables": js}, f, indent=1)
    sys.stdout.write(head + md)
    return 0


if __name__ == "__main__":
    sys.exit(main())
