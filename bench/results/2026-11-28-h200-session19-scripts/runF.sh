#!/usr/bin/env bash
# Session 19, run F (H200): ncu of run E's build (s60), the fused reduction kernel at 16 Kbit:
# warp stall reasons and the SASS of the hot loop with its samples.
set -u
b=/tmp/s60; mkdir -p $b
xz -dc gpu-build/s60/bin.tar.xz | tar -C $b -xf -
export BIGTUNE_DB=$(mktemp -d)/t.db
common="--powm-bits 64 --only none --no-gmp --only-mulmod mulmod.tcbarrett --reps 1 --mulmod-bits 16384"
timeout 200 ncu --section WarpStateStats --section SourceCounters --print-details all -k regex:barrett_imma_reduce --launch-skip 1 --launch-count 1 $b/bigtune-bench-mod $common > $OUT/ncu-stalls.log 2>&1
timeout 200 ncu --section SourceCounters --page source --print-source sass -k regex:barrett_imma_reduce --launch-skip 1 --launch-count 1 $b/bigtune-bench-mod $common > $OUT/ncu-sass.log 2>&1
grep -iE "stall|Warp Cycles" $OUT/ncu-stalls.log | head -40
wc -l $OUT/ncu-sass.log
xz -9 $OUT/ncu-sass.log
