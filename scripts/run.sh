#!/usr/bin/env bash
# The main job on defaults: build bigtune, then on this machine's GPU check
# every op against GMP with the chosen plans and time them. (Once the tuner
# lands this becomes: tune this GPU, then show the chosen plans.)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
export PATH=/usr/local/cuda/bin:$PATH
build=${BIGTUNE_BUILD_DIR:-build}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CUDA_ARCHITECTURES=${BIGTUNE_CUDA_ARCHS:-80;90}"
cmake --build "$build" -j "$(nproc)" --target bigtune_cli bigtune_bench
"$build/bin/bigtune" variants
"$build/bin/bigtune" check
"$build/bin/bigtune-bench" --defaults-only --min-log2-bits 10 --max-log2-bits 18
