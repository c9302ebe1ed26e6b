#!/usr/bin/env bash
# cts_check.sh BUILD_DIR - build the Khronos OpenCL CTS's test_subgroups,
# test_workgroups and test_basic from ../shared/opencl-cts (outside this
# repository: it is built where it lies, never copied in) and run them
# against sgemu's ICD, with OCL_ICD_VENDORS naming exactly sgemu's
# build-tree .icd.  Every test must pass, or be skipped for a reason
# docs/opencl-cts.md lists (the feature sgemu does not claim); a failure,
# or a skip the page does not list, fails.  test_basic runs in wimpy mode
# (-w), without the tests the page's "Left out of CI" table names (too slow
# for CI's time; their hand-run results are on the page).  The JSON
# results and logs stay in BUILD_DIR/cts-results/.  Without the CTS sources
# (SGEMU_CTS_DIR, default ../shared/opencl-cts) it says so and exits 77.
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "$1" && pwd)
cts=${SGEMU_CTS_DIR:-$here/../shared/opencl-cts}
if [ -z "${SGEMU_CTS_DIR:-}" ] && [ ! -d "$cts" ]; then
    # a git worktree elsewhere: beside the main checkout
    common=$(git -C "$here" rev-parse --path-format=absolute --git-common-dir 2>/dev/null || true)
    [ -n "$common" ] && cts=$(dirname "$(dirname "$common")")/shared/opencl-cts
fi
icd=$build/tools/icd/sgemu-build.icd
doc=$here/docs/opencl-cts.md
if [ ! -f "$cts/CMakeLists.txt" ]; then
    echo "cts_check: no OpenCL CTS sources at $cts (set SGEMU_CTS_DIR); skipped" >&2
    exit 77
fi
[ -f "$icd" ] || { echo "cts_check: $icd is missing (build first)" >&2; exit 1; }
out=$build/cts-results
mkdir -p "$out"
if ! grep -q '^CTS_BUILD_BASIC:BOOL=ON$' "$build/cts/CMakeCache.txt" 2>/dev/null; then
    cmake -S "$cts" -B "$build/cts" -DCTS_BUILD_BASIC=ON >"$out/configure.log" 2>&1 ||
        { cat "$out/configure.log"; exit 1; }
fi
make -C "$build/cts" -j "$(nproc)" test_subgroups test_workgroups test_basic >"$out/build.log" 2>&1 ||
    { tail -n 50 "$out/build.log"; exit 1; }

# test_basic's names, less the ones the page leaves out of CI
basic=$build/cts/test_conformance/basic/test_basic
mapfile -t left_out < <(sed -n 's/^| `\([a-z0-9_]*\)` | left out |.*/\1/p' "$doc")
mapfile -t basic_tests < <("$basic" --list 2>/dev/null | sed -n 's/^\t\([A-Za-z0-9_]*\)$/\1/p' |
                           grep -vxF -f <(printf '%s\n' "${left_out[@]}" ""))
[ ${#basic_tests[@]} -gt 0 ] || { echo "cts_check: test_basic lists no tests" >&2; exit 1; }

rc=0
for suite in subgroups workgroups basic; do
    bin=$build/cts/test_conformance/$suite/test_$suite
    json=$out/$suite.json
    args=()
    [ "$suite" = basic ] && args=(-w "${basic_tests[@]}")
    rm -f "$json"
    t0=$SECONDS
    # the suites time themselves; sgemu runs every kernel with the timing model off
    if ! OCL_ICD_VENDORS=$icd SGEMU_DEVICES=default SGEMU_TIMING=0 \
         CL_CONFORMANCE_RESULTS_FILENAME=$json "$bin" "${args[@]}" >"$out/$suite.log" 2>&1; then
        echo "cts_check: test_$suite reported failures (log: $out/$suite.log)" >&2
        rc=1
    fi
    echo "cts_check: test_$suite ran $((SECONDS - t0)) s"
    python3 - "$json" "$doc" "$suite" <<'PY' || rc=1
import json, re, sys
results = json.load(open(sys.argv[1]))["results"]
# the page's skip table: | `test` | suite | reason |
listed = set(re.findall(r"^\| `([a-z0-9_]+)` \| " + sys.argv[3] + r" \|", open(sys.argv[2]).read(), re.M))
counts = {}
bad = []
for name, r in sorted(results.items()):
    counts[r] = counts.get(r, 0) + 1
    if r == "fail":
        bad.append(f"{name}: fail")
    elif r == "skip" and name not in listed:
        bad.append(f"{name}: skipped, but docs/opencl-cts.md gives no reason")
    elif r == "pass" and name in listed:
        bad.append(f"{name}: passes now; take it off the skip list in docs/opencl-cts.md")
print(f"cts_check: test_{sys.argv[3]}: " + ", ".join(f"{v} {k}" for k, v in sorted(counts.items())))
for b in bad:
    print(f"cts_check: test_{sys.argv[3]}: {b}", file=sys.stderr)
sys.exit(1 if bad else 0)
PY
done
exit $rc
