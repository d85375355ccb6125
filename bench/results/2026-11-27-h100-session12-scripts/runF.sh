#!/usr/bin/env bash
# Session 12, run F (H100): m's limbs in shared memory (.ms: 96 registers, five 128-thread blocks an
# SM instead of four) on the U = 4 builds at 8 and 16 Kbit, against run E's best; quick-mode test of
# every dfmat shape, full-size test of the .ms shapes.
set -u
b=/tmp/lb; mkdir -p $b; xz -dc gpu-build/s12/bin.tar.xz | tar -C $b -xf -
export BIGTUNE_DB=$(mktemp -d)/t.db BIGTUNE_TEST_SEED=20261129
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $OUT/gpu.txt
cat gpu-build/s12/commit.txt > $OUT/steps.txt
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > $OUT/$name.log 2>&1; echo "$name rc=$? s=$(( $(date +%s) - s ))" | tee -a $OUT/steps.txt; }
a="--no-mulmod --no-gmp --reps 3 --probe-count 1 --min-count 1 --target-ms 1"
step p8k 40 $b/bigtune-bench-mod $a --powm-bits 8192 --only q128.t16.w6.u4,q128.t16.w6.sq.u4 --max-e-bits 8192
step p16k 70 $b/bigtune-bench-mod $a --powm-bits 16384 --only q256.t32.w6.u4,q256.t32.w6.sq.u4 --max-e-bits 16384
step quick 60 env BIGTUNE_TEST_MAX_BITS=2100 $b/bigtune_gpu_tests --gtest_filter='ModDfma.PowmOnFp64Teams*' --gtest_brief=1
step teams 100 env BIGTUNE_TEST_VARIANTS=.ms $b/bigtune_gpu_tests --gtest_filter='ModDfma.PowmOnFp64Teams*' --gtest_brief=1
grep -hE "cases, .* mismatches|PASSED|FAILED" $OUT/teams.log $OUT/quick.log | sort | uniq -c | head
grep -hE "^ *[0-9]+ powm" $OUT/p*.log
