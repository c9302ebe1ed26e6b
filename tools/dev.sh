#!/usr/bin/env bash
# dev.sh - set up, build and run sgemu on a fresh Debian 12 machine.
#   bash tools/dev.sh demo   build, then run the main job on the bundled default config
#   bash tools/dev.sh test   build with -Werror, run the whole test suite and the Khronos
#                            CTS sub-/work-group and basic suites (docs/opencl-cts.md), then again
#                            under AddressSanitizer + UndefinedBehaviorSanitizer
#                            then valgrind memcheck of the CLI tests, lint, and 20 s
#                            of every fuzzer; prints each phase's time (docs/testing.md)
#   bash tools/dev.sh fuzz [SECONDS]  each libFuzzer harness of tests/fuzz for SECONDS
#                            (default 30) with clang; fails on any crash/leak/timeout
#   bash tools/dev.sh lint   clang-tidy (.clang-tidy) and cppcheck over the sources;
#                            fails on any finding (suppressions are inline, justified)
#   bash tools/dev.sh bench [--quick]  release build + Oclgrind/PoCL, run sgemu-bench
#                            (docs/performance.md); its packages stay out of `test`
# Missing Debian packages are installed first (as root, or through sudo).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"

packages=(gcc meson ninja-build pkg-config libyaml-dev libcmocka-dev python3 libzstd-dev gnuplot-nox
          spirv-headers clang-14 llvm-spirv-14 spirv-tools
          pocl-opencl-icd ocl-icd-opencl-dev opencl-headers clinfo python3-pyopencl python3-numpy
          cmake g++ make
          intel-opencl-icd libigc1 libigdfcl-dev)

install_missing() {   # [extra packages...]
    local missing=()
    packages+=("$@")
    for p in "${packages[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "dev.sh: installing ${missing[*]}" >&2
    local sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
}

configure() {   # configure DIR [meson options...]
    local dir=$1; shift
    if [ ! -f "$dir/build.ninja" ]; then
        meson setup "$dir" "$@" >"$dir.setup.log" 2>&1 || { cat "$dir.setup.log"; return 1; }
    else
        meson configure "$dir" "$@"
    fi
}
build() {   # build DIR [meson options...]
    configure "$@"
    ninja -C "$1" -j "$(nproc)"
}

demo() {
    build build-release -Dbuildtype=release -Dtests=false
    local sgemu=build-release/tools/sgemu
    echo "== the subgroup-width study: examples/sweeps/subgroup-width.yaml (docs/sweeps.md) =="
    "$sgemu" sweep examples/sweeps/subgroup-width.yaml -o build-release/sweep-width --plot
    echo "== local_reduce: per-work-group sums of 4096 ints, SIMD8 / SIMD16 / SIMD32 =="
    "$sgemu" run examples/local_reduce.sgasm --sg 8,16,32 --global 4096 --local 256 \
        --arg in=int:iota:4096 --arg out=int:zeros:16 --arg scratch=local:1024 --out out
    echo "== stream_compaction: sub-group scans, SIMD8 / SIMD16 / SIMD32 =="
    "$sgemu" run examples/stream_compaction.sgasm --sg 8,16,32 --global 1024 --local 128 \
        --arg in=int:random:1024:5 --arg out=int:zeros:1024 --arg count=uint:zeros:1 --out count
}

# Each phase of `test` is timed; the table prints at the end (also when a
# phase fails), so the ~15-minute budget of .ci/run is easy to watch.
phase_times=()
phase() {   # NAME command...
    local name=$1 t0=$SECONDS rc=0
    shift
    "$@" || rc=$?
    phase_times+=("$(printf '%-14s %5d s%s' "$name" $((SECONDS - t0)) "$([ $rc -eq 0 ] || echo '  FAILED')")")
    return $rc
}
print_phases() {
    [ ${#phase_times[@]} -gt 0 ] || return 0
    echo "== dev.sh test: phase times"
    printf '  %s\n' "${phase_times[@]}"
    echo "  total          $SECONDS s"
}

# The register allocator's A/B corpus reruns (suite regalloc-ab) and the
# pressure report over the corpus (suite corpus) compare outputs only; the
# sanitizers already see the allocator through every other test.
# gen-diff's compile cache is the plain build's: its entries do not depend
# on the build (tests/gen/compile_cache.c), so the compiles are not repeated.
asan_tests() {
    SGEMU_GEN_CACHE="$PWD/build/tests/gen/compile-cache" \
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
        meson test -C build-asan --print-errorlogs --num-processes "$(nproc)" --timeout-multiplier 4 \
        --no-suite regalloc-ab --no-suite corpus
}

test_all() {
    trap print_phases EXIT
    phase build build build -Dwerror=true -Dbuildtype=debugoptimized
    phase tests meson test -C build --print-errorlogs --num-processes "$(nproc)"
    phase install bash tests/install_check.sh build     # a program built against sgemu.pc
    phase cts cts                                       # Khronos CTS sub-/work-group, basic
    phase asan-build build build-asan -Dwerror=true -Dbuildtype=debug \
        -Db_sanitize=address,undefined -Db_lundef=false
    phase asan-tests asan_tests
    phase valgrind valgrind_cli
    phase lint lint
    phase fuzz fuzz "${SGEMU_FUZZ_SECS:-8}"
}

# The Khronos CTS's test_subgroups, test_workgroups and test_basic, built from
# ../shared/opencl-cts, against sgemu's ICD (docs/opencl-cts.md); without
# the CTS sources the script says so and the phase passes.
cts() {
    local rc=0
    bash tests/icd/cts_check.sh build || rc=$?
    [ $rc -eq 0 ] || [ $rc -eq 77 ]
}

# Packages of the robustness checks: clang + libFuzzer, clang-tidy, cppcheck, valgrind.
robust_packages=(clang-14 libclang-rt-14-dev clang-tidy-14 cppcheck valgrind)
# A one-node Slurm for the sweep array-job test (tests/sweep/slurm_check.sh).
slurm_packages=(slurm-wlm munge)
# Intel's offline OpenCL compiler (ocloc; docs/igc-comparison.md): the igc-ocloc-agree
# test and tools/igc_compare.py use it as an oracle.
igc_packages=(intel-opencl-icd)

# Each libFuzzer harness of tests/fuzz runs SECONDS on a scratch copy of its
# corpus (the checked-in seeds stay as they are); a crash, leak, sanitizer
# report or a unit slower than 10 s fails and leaves the reproducer.  A
# fuzzer is one process on one core: nproc of them run at a time.
fuzz_harnesses=(asm config values run spirv trace sweep image collective)
fuzz_one() {   # HARNESS SECONDS: its log and a `failed` mark in its work folder
    local h=$1 secs=$2 work=build-libfuzzer/fuzz-work/$1
    rm -f "$work/failed"
    mkdir -p "$work/corpus" "$work/artifacts" "$work/tmp"
    # TMPDIR: the loaders that read files get their scratch copies there
    TMPDIR="$here/$work/tmp" ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
        "build-libfuzzer/tests/fuzz/fuzz_$h" "$work/corpus" "tests/fuzz/corpus/$h" \
        -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
        -artifact_prefix="$work/artifacts/" -print_final_stats=1 >"$work/log" 2>&1 ||
        touch "$work/failed"
}
fuzz() {   # [SECONDS]
    local secs=${1:-30} h rc=0
    CC=clang-14 configure build-libfuzzer -Dfuzz=true -Dbuildtype=debugoptimized \
        -Db_sanitize=address,undefined -Db_lundef=false -Dc_args=-fsanitize=fuzzer-no-link
    # only the harnesses and what they link: the suite's programs are not fuzzed
    ninja -C build-libfuzzer -j "$(nproc)" "${fuzz_harnesses[@]/#/tests/fuzz/fuzz_}"
    echo "== fuzz: ${#fuzz_harnesses[@]} harnesses, ${secs} s each, $(nproc) at a time"
    for h in "${fuzz_harnesses[@]}"; do
        while [ "$(jobs -rp | wc -l)" -ge "$(nproc)" ]; do wait -n || true; done
        fuzz_one "$h" "$secs" &
    done
    wait
    for h in "${fuzz_harnesses[@]}"; do
        local work=build-libfuzzer/fuzz-work/$h
        echo "== fuzz_$h: $(grep -h "stat::number_of_executed_units" "$work/log" || echo "no stats")"
        if [ -f "$work/failed" ]; then
            tail -n 60 "$work/log"
            echo "dev.sh: fuzz_$h failed; the input is in $work/artifacts/ (fix it, then" \
                 "copy it to tests/fuzz/corpus/$h/crash-NAME: the replay test keeps it)" >&2
            rc=1
        fi
    done
    return $rc
}

# clang-tidy and cppcheck; any finding fails.  False positives carry an
# inline suppression with its reason (// NOLINT(check): why, or
# // cppcheck-suppress id ; why); docs/testing.md says how to add one.
lint() {
    local bd=${SGEMU_LINT_BUILD:-build}     # its compile_commands.json
    build "$bd" -Dwerror=true -Dbuildtype=debugoptimized
    local out=$bd/lint
    mkdir -p "$out"
    run-clang-tidy-14 -p "$bd" -j "$(nproc)" -quiet "$here/(isa|lanes|collectives|emu|load|tools)/" \
        >"$out/clang-tidy.log" 2>&1 || true
    cppcheck --quiet -j "$(nproc)" --enable=warning,portability --inline-suppr --std=c11 -D__GNUC__ \
        -I include/sgemu -I isa -I isa/spirv -I lanes -I collectives -I emu -I emu/timing -I emu/trace -I load -I tools \
        --suppressions-list=.cppcheck-suppressions \
        --template='{file}:{line}:{column}: warning: {message} [cppcheck-{id}]' \
        include isa lanes collectives emu load tools >"$out/cppcheck.log" 2>&1 || true
    cat "$out/clang-tidy.log" "$out/cppcheck.log" | sed 's/\x1b\[[0-9;]*m//g' |
        { grep -E '^[^ ]+:[0-9]+:[0-9]+: (warning|error): .*\[[A-Za-z0-9_.,-]+\]$' || true; } |
        sed -E "s#^$here/##; s#^.*\.\./##" | sort -u >"$out/findings.txt"
    echo "lint: $(wc -l <"$out/findings.txt") findings (logs in $out/)"
    if [ -s "$out/findings.txt" ]; then
        cat "$out/findings.txt" >&2
        return 1
    fi
}

# The CLI integration tests (suite cli) with the sgemu binary under valgrind
# memcheck; the suite is named, so no other test can slip under valgrind.
valgrind_cli() {
    SGEMU_WRAPPER="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite" \
        meson test -C build --print-errorlogs --num-processes "$(nproc)" --timeout-multiplier 10 \
        --suite cli
}

bench() {
    build build-release -Dbuildtype=release -Dtests=false
    ninja -C build-release tools/bench/sgemu-bench
    build-release/tools/bench/sgemu-bench "$@"
}

case "${1:-}" in
    demo) install_missing; demo ;;
    test) install_missing "${robust_packages[@]}" "${slurm_packages[@]}" "${igc_packages[@]}"; test_all ;;
    fuzz) shift; install_missing "${robust_packages[@]}"; fuzz "$@" ;;
    lint) install_missing "${robust_packages[@]}"; lint ;;
    bench) shift; install_missing oclgrind pocl-opencl-icd ocl-icd-opencl-dev opencl-c-headers
           bench "$@" ;;
    -h|--help|"") sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; [ -n "${1:-}" ] ;;
    *) echo "dev.sh: unknown command '$1' (demo, test, fuzz, lint or bench)" >&2; exit 1 ;;
esac
