#!/usr/bin/env bash
# Builds everything for the GPU machine (sm_90: H100/H200) into gpu-build/;
# the binaries land in gpu-build/bin, and compressed in gpu-build/carry
# (device tool: carry ["gpu-build/carry"], then run scripts/run-gpu.sh there).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
export PATH=/usr/local/cuda/bin:$PATH
# ccache (installed by setup.sh) makes rebuilds and other checkouts cheap on
# small machines; CCACHE_BASEDIR lets checkouts under one parent share it.
launcher=()
if command -v ccache >/dev/null; then
  export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$(cd .. && pwd)}"
  launcher=(-DCMAKE_CUDA_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
cmake -S . -B gpu-build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 "${launcher[@]}"
cmake --build gpu-build -j "$(nproc)"
# Every binary embeds all kernels; stripped and compressed, the ones the GPU
# run needs fit the device tool's 64 MiB: carry ["gpu-build/carry"].
rm -rf gpu-build/carry && mkdir -p gpu-build/carry
for b in bigtune bigtune_gpu_tests bigtune-bench bigtune_profiler_gpu_tests tuned_add miller_rabin; do
  src=gpu-build/bin/$b
  [[ -x $src ]] || src=$(find gpu-build -name "$b" -type f -perm -u+x | head -1)
  strip -o "gpu-build/carry/$b" "$src" && gzip -6 -f "gpu-build/carry/$b"
done
du -sh gpu-build/carry
