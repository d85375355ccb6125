#!/usr/bin/env bash
# The test command: installs what is missing, configures, builds everything and
# runs every test. GPU tests skip (with their reason) when no GPU is present.
#   scripts/test.sh            build in build/ for the default architectures
#   BIGTUNE_CUDA_ARCHS=90 scripts/test.sh   narrow the device code
#   BIGTUNE_CUDA_ARCHS=90-virtual ...       PTX only, no ptxas (CI: no GPU runs it)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
export PATH=/usr/local/cuda/bin:$PATH
build=${BIGTUNE_BUILD_DIR:-build}
archs=${BIGTUNE_CUDA_ARCHS:-"80;90"}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CUDA_ARCHITECTURES=$archs"
cmake --build "$build" -j "$(nproc)"
ctest --test-dir "$build" --output-on-failure -j "$(nproc)"
