#!/usr/bin/env bash
# Builds everything for the GPU machine (sm_90: H100/H200) into gpu-build/;
# the binaries land in gpu-build/bin, small enough to carry to that machine
# (device tool: carry ["gpu-build/bin"], then run scripts/run-gpu.sh there).
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
du -sh gpu-build/bin
