#!/usr/bin/env bash
# dev.sh - set up, build and run sgemu on a fresh Debian 12 machine.
#   bash tools/dev.sh demo   build, then run the main job on the bundled default config
#   bash tools/dev.sh test   build with -Werror, run the whole test suite, then again
#                            under AddressSanitizer + UndefinedBehaviorSanitizer
#   bash tools/dev.sh bench [--quick]  release build + Oclgrind/PoCL, run sgemu-bench
#                            (docs/performance.md); its packages stay out of `test`
# Missing Debian packages are installed first (as root, or through sudo).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"

packages=(gcc meson ninja-build pkg-config libyaml-dev libcmocka-dev python3 libzstd-dev gnuplot-nox
          spirv-headers clang-14 llvm-spirv-14)

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

build() {   # build DIR [meson options...]
    local dir=$1; shift
    if [ ! -f "$dir/build.ninja" ]; then
        meson setup "$dir" "$@" >"$dir.setup.log" 2>&1 || { cat "$dir.setup.log"; return 1; }
    else
        meson configure "$dir" "$@"
    fi
    ninja -C "$dir" -j "$(nproc)"
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

test_all() {
    build build -Dwerror=true -Dbuildtype=debugoptimized
    meson test -C build --print-errorlogs --num-processes "$(nproc)"
    bash tests/install_check.sh build     # install + build a program against sgemu.pc
    build build-asan -Dwerror=true -Dbuildtype=debug -Db_sanitize=address,undefined -Db_lundef=false
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
        meson test -C build-asan --print-errorlogs --num-processes "$(nproc)" --timeout-multiplier 4
}

bench() {
    build build-release -Dbuildtype=release -Dtests=false
    ninja -C build-release tools/bench/sgemu-bench
    build-release/tools/bench/sgemu-bench "$@"
}

case "${1:-}" in
    demo) install_missing; demo ;;
    test) install_missing; test_all ;;
    bench) shift; install_missing oclgrind pocl-opencl-icd ocl-icd-opencl-dev opencl-c-headers
           bench "$@" ;;
    -h|--help|"") sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; [ -n "${1:-}" ] ;;
    *) echo "dev.sh: unknown command '$1' (demo, test or bench)" >&2; exit 1 ;;
esac
