#!/usr/bin/env bash
# The main job on defaults: build bigtune, tune this machine's GPU (probe,
# sample, fit, store decisions; about 80 s on an H100; resumable), print the
# chosen plan per op and size, then check every op against GMP with the
# chosen plans and time them.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
export PATH=/usr/local/cuda/bin:$PATH
build=${BIGTUNE_BUILD_DIR:-build}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CUDA_ARCHITECTURES=${BIGTUNE_CUDA_ARCHS:-80;90}"
cmake --build "$build" -j "$(nproc)" --target bigtune_cli bigtune_bench
"$build/bin/bigtune" variants
"$build/bin/bigtune" tune
"$build/bin/bigtune" check
"$build/bin/bigtune-bench" --defaults-only --min-log2-bits 10 --max-log2-bits 18
