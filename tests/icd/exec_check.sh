#!/usr/bin/env bash
# exec_check.sh CHECK - `sgemu exec` with programs nobody here wrote:
#   clinfo     clinfo lists the platform and a device whose info is that of a
#              config written here (values no bundled config has)
#   pyopencl   tests/icd/pyopencl_check.py (a plain, a sub-group and an image
#              kernel against numpy); the --report JSON names its kernels, and
#              each --record trace replays to the cycles the report gives
#              (and again with --no-timing: zero-length kernel times, one note)
#   errors     bad usage is exit status 1 with a message; the program's own
#              exit status comes back
# Environment: SGEMU (the binary), SGEMU_SRC, PYTHON, CLINFO.  sgemu exec
# sets OCL_ICD_VENDORS to exactly sgemu's library itself.
set -euo pipefail
check=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "exec_check $check: $*" >&2; exit 1; }

case "$check" in
clinfo)
    cat >"$tmp/odd.yaml" <<'YAML'
extends: default
device:
  name: "exec-check device"
  subgroup_widths: [8, 32]
  default_subgroup_width: 8
  compute_units: 3
  local_memory_per_compute_unit: 40960
  max_work_group_size: 384
  clock_mhz: 777
YAML
    "$SGEMU" exec --quiet --config "$tmp/odd.yaml" -- "$CLINFO" >"$tmp/out" 2>"$tmp/err" ||
        { cat "$tmp/err"; fail "clinfo failed"; }
    want=(
        "Number of platforms *1$"      # no other installed ICD was opened
        "Platform Name *sgemu$"
        "Device Name *exec-check device$"
        "Max compute units *3$"
        "Max clock frequency *777MHz$"
        "Max work group size *384$"
        "Sub-group sizes (Intel) *8, 32$"
        "Local memory size *40960 (40KiB)$"
        "Max sub-groups per work group *48$"
        "Device Extensions .*cl_khr_subgroup_ballot"
    )
    for w in "${want[@]}"; do
        grep -q -- "$w" "$tmp/out" || { cat "$tmp/out"; fail "no line matching '$w'"; }
    done
    ;;
pyopencl)
    "$SGEMU" exec --report "$tmp/r.json" --record "$tmp/rec" -- \
        "$PYTHON" "$SGEMU_SRC/tests/icd/pyopencl_check.py" >"$tmp/out" 2>"$tmp/err" ||
        { cat "$tmp/out" "$tmp/err"; fail "the script failed"; }
    grep -q "kernel  *SIMD  *launches" "$tmp/err" || { cat "$tmp/err"; fail "no table"; }
    for k in saxpy sg_scan blur_x; do
        grep -q "^  $k " "$tmp/err" || fail "no table row for $k"
        trace=$(ls "$tmp/rec/"*"-$k.sgtrace") || fail "no trace for $k"
        "$SGEMU" replay "$trace" --json >"$tmp/replay.json" || fail "replay of $trace failed"
        "$PYTHON" - "$tmp/r.json" "$tmp/replay.json" "$k" <<'PY' || fail "report vs replay of $k"
import json, sys
rep = json.load(open(sys.argv[1]))
rows = [r for r in rep["kernels"] if r["kernel"] == sys.argv[3]]
assert rep["exit_status"] == 0, rep
assert len(rows) == 1 and rows[0]["launches"] == 1 and rows[0]["timed"], rows
replay = json.load(open(sys.argv[2]))
assert replay["timing"]["cycles"] == rows[0]["cycles"], (replay["timing"]["cycles"], rows[0])
assert replay["sg_width"] == rows[0]["sg_width"]
PY
    done
    # without the model: the same results, zero-length kernel times, one note
    "$SGEMU" exec --no-timing --quiet -- "$PYTHON" "$SGEMU_SRC/tests/icd/pyopencl_check.py" \
        --untimed >"$tmp/out" 2>"$tmp/err" || { cat "$tmp/out" "$tmp/err"; fail "--no-timing failed"; }
    [ "$(grep -c "sgemu: note: the timing model is off" "$tmp/err")" = 1 ] ||
        { cat "$tmp/err"; fail "--no-timing: not one note about zero-length times"; }
    ;;
errors)
    set +e
    "$SGEMU" exec 2>"$tmp/err"; rc=$?
    [ $rc = 1 ] && grep -q "no program given" "$tmp/err" || fail "no program: rc $rc"
    "$SGEMU" exec --bogus -- true 2>"$tmp/err"; rc=$?
    [ $rc = 1 ] && grep -q "unknown option '--bogus'" "$tmp/err" || fail "bad option: rc $rc"
    "$SGEMU" exec --config no-such-config -- true 2>"$tmp/err"; rc=$?
    [ $rc = 1 ] && grep -q "neither a file nor a bundled config" "$tmp/err" || fail "config: rc $rc"
    "$SGEMU" exec --sg 0 -- true 2>"$tmp/err"; rc=$?
    [ $rc = 1 ] || fail "--sg 0: rc $rc"
    "$SGEMU" exec --quiet -- sh -c 'exit 7'; rc=$?
    [ $rc = 7 ] || fail "the program's status 7 came back as $rc"
    "$SGEMU" exec --quiet -- /nonexistent/program 2>"$tmp/err"; rc=$?
    [ $rc = 127 ] && grep -q "cannot run" "$tmp/err" || fail "missing program: rc $rc"
    "$SGEMU" exec --help | grep -q "usage: sgemu exec" || fail "--help"
    ;;
*) fail "unknown check" ;;
esac
echo "exec_check $check: ok"
