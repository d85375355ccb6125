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
# Every binary embeds all kernels (~95 MB stripped each): one tar compressed
# with a dictionary larger than a binary stores the kernels once, so the set
# the GPU run needs fits the device tool's 64 MiB (session 11: 6 gzip files
# were 106 MB; the tar.xz of the same binaries and bench-mod, 25 MB):
# carry ["gpu-build/carry"], then scripts/run-gpu.sh there.
rm -rf gpu-build/carry gpu-build/strip && mkdir -p gpu-build/carry gpu-build/strip
for b in bigtune bigtune_gpu_tests bigtune-bench bigtune-bench-mod bigtune_profiler_gpu_tests bigtune_wgmma_probe tuned_add miller_rabin; do
  src=gpu-build/bin/$b
  [[ -x $src ]] || src=$(find gpu-build -name "$b" -type f -perm -u+x -not -path "*/strip/*" | head -1)
  strip -o "gpu-build/strip/$b" "$src"
done
tar -C gpu-build/strip -cf - . | xz -T1 --lzma2=preset=2,dict=384MiB >gpu-build/carry/bin.tar.xz
rm -rf gpu-build/strip
du -sh gpu-build/carry
