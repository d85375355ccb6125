#!/usr/bin/env bash
# Session 13, run D (H100): gpu-build/s16 = run C's build with the sliding windows' products at one
# call site each (.sw7.sq, .sw8.sq at 16 Kbit), against main's build (gpu-build/s13) on the same
# card: 16 Kbit rates as session 12's run J timed them, then the GPU tests at full size on the
# 16 Kbit .sq shapes, quick mode on every shape, racecheck / memcheck on the sliding kernels.
set -u
b=/tmp/nb; o=/tmp/ob; mkdir -p $b $o; xz -dc gpu-build/s16/bin.tar.xz | tar -C $b -xf -
xz -dc gpu-build/s13/bin.tar.xz | tar -C $o -xf - bigtune-bench-mod
export BIGTUNE_DB=$(mktemp -d)/t.db BIGTUNE_TEST_SEED=20261205
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $OUT/gpu.txt
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > $OUT/$name.log 2>&1; echo "$name rc=$? s=$(( $(date +%s) - s ))" >> $OUT/steps.txt; }
a="--no-mulmod --no-gmp --reps 3"
w16="--probe-count 1 --min-count 4224 --target-ms 1"
step new16k 90 $b/bigtune-bench-mod $a --powm-bits 16384 --only dfmat.u64.q256.t32.w6.sq,dfmat.u64.q256.t32.sw7.sq,dfmat.u64.q256.t32.sw8.sq --max-e-bits 16384 $w16
step old16k 40 $o/bigtune-bench-mod $a --powm-bits 16384 --only dfmat.u64.q256.t32.w6.sq --max-e-bits 16384 $w16
step teams 150 env BIGTUNE_TEST_VARIANTS=.sq $b/bigtune_gpu_tests --gtest_filter='ModDfma.PowmOnFp64Teams*' --gtest_brief=1
step quick 30 env BIGTUNE_TEST_MAX_BITS=2100 $b/bigtune_gpu_tests --gtest_filter='ModDfma.PowmOnFp64Teams*' --gtest_brief=1
step racecheck 60 env BIGTUNE_TEST_VARIANTS=.sw BIGTUNE_TEST_MAX_BITS=2100 compute-sanitizer --tool racecheck --print-limit 20 $b/bigtune_gpu_tests --gtest_filter='ModDfma.PowmOnFp64Teams*' --gtest_brief=1
step memcheck 40 env BIGTUNE_TEST_VARIANTS=.sw BIGTUNE_TEST_MAX_BITS=2100 compute-sanitizer --tool memcheck --print-limit 20 $b/bigtune_gpu_tests --gtest_filter='ModDfma.PowmOnFp64Teams*' --gtest_brief=1
(cat $OUT/gpu.txt $OUT/steps.txt
 grep -hE "cases, .* mismatches|PASSED|FAILED|ERROR SUMMARY|RACECHECK SUMMARY" $OUT/teams.log $OUT/quick.log $OUT/racecheck.log $OUT/memcheck.log | sort | uniq -c
 for f in new16k old16k; do grep -hE "^ *[0-9]+ powm" $OUT/$f.log | sed "s|^|$f |"; done) > $OUT/summary.txt
cat $OUT/summary.txt
