#!/usr/bin/env bash
# Builds the GPU binaries a measurement of bench/pending/*.patch needs (here,
# no GPU): main as it is ("base") and main with each named set of patches
# applied, in one build directory (each set recompiles only what it touches),
# stripped into one xz-compressed tar (gpu-build/pending/bin.tar.xz), so that one device
# call compares them all (carry ["gpu-build/pending"], then
# bench/pending/run-pending.sh there). A set's patches are applied to the
# working tree for its build only and taken back afterwards.
#   bench/pending/build-pending.sh pair=bench/pending/wgmma-pair.patch
set -euo pipefail
cd "$(dirname "$0")/../.."
(($#)) || { echo "usage: $0 NAME=PATCH[,PATCH...] ..." >&2; exit 2; }
scripts/setup.sh >/dev/null
export PATH=/usr/local/cuda/bin:$PATH CCACHE_BASEDIR="${CCACHE_BASEDIR:-$(cd .. && pwd)}"
targets=(bigtune_gpu_tests bigtune-bench-mod bigtune_mul_const_imma_emulation_tests)
cmake -S . -B gpu-build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache >/dev/null
strip_root=$(mktemp -d)
build() {  # NAME: build, check on the CPU emulation, strip into $strip_root/NAME
  local extra=() gpu=(bigtune_gpu_tests bigtune-bench-mod)
  if grep -q "add_executable(bigtune_wgmma_probe " tests/CMakeLists.txt; then  # wgmma-probe.patch
    extra=(bigtune_wgmma_probe bigtune_wgmma_probe_emulation_tests) gpu+=(bigtune_wgmma_probe)
  fi
  cmake --build gpu-build -j "$(nproc)" --target "${targets[@]}" "${extra[@]}"
  echo "$1: $(gpu-build/bin/bigtune_mul_const_imma_emulation_tests --gtest_brief=1 | tail -1)"
  [[ ${#extra[@]} -gt 0 ]] && echo "$1 (wgmma probe): $(gpu-build/bin/bigtune_wgmma_probe_emulation_tests --gtest_brief=1 | tail -1)"
  mkdir -p "$strip_root/$1"
  for t in "${gpu[@]}"; do
    strip -o "$strip_root/$1/$t" "$(find gpu-build/bin gpu-build/bench -name "$t" -type f | head -1)"
  done
}
unapply() {  # the set's patches taken back, the last applied first
  local i
  for ((i = ${#applied[@]} - 1; i >= 0; i--)); do git apply -R "${applied[i]}"; done
  applied=()
}
rm -rf gpu-build/pending && mkdir -p gpu-build/pending
build base
for set in "$@"; do
  name=${set%%=*}
  IFS=, read -r -a patches <<<"${set#*=}"
  # One at a time: each patch applies on the tree the ones before it left
  # (patches of one file written with one line of context, git diff -U1,
  # apply in either order where their hunks do not overlap).
  applied=()
  trap unapply EXIT
  for p in "${patches[@]}"; do git apply "$p"; applied+=("$p"); done
  build "$name"
  unapply
  trap - EXIT
  printf '%s: %s\n' "$name" "${patches[*]}" >>gpu-build/pending/sets.txt
done
# One tar for all sets: their binaries differ in a few kernels, and a
# dictionary larger than a binary stores the rest once (~25 MB in all; the
# device tool carries at most 64 MiB).
tar -C "$strip_root" -cf - . | xz -T1 --lzma2=preset=2,dict=384MiB >gpu-build/pending/bin.tar.xz
rm -rf "$strip_root"
git rev-parse --short HEAD >gpu-build/pending/commit.txt
du -sh gpu-build/pending
