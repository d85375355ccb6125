#!/usr/bin/env bash
# Session 14, run B (H100): gpu-build/s21 = run A's tree + nttmont's 85-register build (.b3) and
# 7-bit windows: 32 and 64 Kbit with full exponents, one-wave protocol, GMP-16 in the same run
# (32 Kbit with full exponents, 64 Kbit with 16384-bit ones, rate scaled).
set -u
b=/tmp/nm21; mkdir -p $b; xz -dc gpu-build/s21/bin.tar.xz | tar -C $b -xf -
export BIGTUNE_DB=$(mktemp -d)/t.db BIGTUNE_TEST_SEED=20261214
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $OUT/gpu.txt
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > $OUT/$name.log 2>&1; echo "$name rc=$? s=$(( $(date +%s) - s ))" >> $OUT/steps.txt; }
one="--no-mulmod --probe-count 1 --min-count 1 --target-ms 1"
step p32k 200 $b/bigtune-bench-mod $one --reps 3 --powm-bits 32768 --only nttmont.u64.q1.w6,nttmont.u64.q1.w7 --max-e-bits 32768
step p64k 300 $b/bigtune-bench-mod $one --reps 2 --powm-bits 65536 --only nttmont.u64.q1.w6,nttmont.u64.q1.w7 --max-e-bits 65536 --gmp-max-e-bits 16384
(cat $OUT/gpu.txt $OUT/steps.txt
 for f in p32k p64k; do grep -hE "^ *[0-9]+ (powm|GMP)" $OUT/$f.log | sed "s|^|$f |"; done) > $OUT/summary.txt
cat $OUT/summary.txt
