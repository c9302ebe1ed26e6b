#!/usr/bin/env bash
# Rebuild the committed examples/opencl/*.spv from their .cl with the pipeline
# of `sgemu run K.cl` (docs/spirv.md), then validate them with spirv-val.
#   bash examples/opencl/rebuild.sh
set -euo pipefail
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for cl in *.cl; do
    k=${cl%.cl}
    clang-14 -cl-std=CL2.0 -target spir64 -emit-llvm -c -include opencl-c.h \
             -cl-kernel-arg-info -O2 "$cl" -o "$tmp/$k.bc"
    llvm-spirv-14 --spirv-ext=+SPV_INTEL_subgroups,+SPV_EXT_shader_atomic_float_add,+SPV_EXT_shader_atomic_float_min_max \
             --preserve-ocl-kernel-arg-type-metadata-through-string "$tmp/$k.bc" -o "$k.spv"
    spirv-val "$k.spv"
    echo "$k.spv"
done
