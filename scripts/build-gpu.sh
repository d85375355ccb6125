#!/usr/bin/env bash
# Builds everything for the GPU machine (sm_90: H100/H200) into gpu-build/;
# the binaries land in gpu-build/bin, small enough to carry to that machine
# (device tool: carry ["gpu-build/bin"], then run scripts/run-gpu.sh there).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
export PATH=/usr/local/cuda/bin:$PATH
cmake -S . -B gpu-build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90
cmake --build gpu-build -j "$(nproc)"
du -sh gpu-build/bin
