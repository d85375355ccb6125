#!/usr/bin/env bash
# Session 16, run G (H100): gpu-build/s37 = main's head after the review (the tile launch's grid cap;
# device code as s35). The DFMA mulmod suites and the 1-Kbit mulmod table once more; memcheck.
set -u
b=/tmp/s37; mkdir -p $b
xz -dc gpu-build/s37/bin.tar.xz | tar -C $b -xf -
export BIGTUNE_DB=$(mktemp -d)/t.db BIGTUNE_TEST_SEED=20261231
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $OUT/gpu.txt
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > $OUT/$name.log 2>&1; echo "$name rc=$? s=$(( $(date +%s) - s ))" >> $OUT/steps.txt; }
step tests 120 $b/bigtune_gpu_tests --gtest_filter='ModDfma.BarrettOnFp64MatchesGmp:ModDfma.WarpTilesUnalignedRunUntiled:ModDefaultPlan.*' --gtest_brief=1
step memcheck 90 compute-sanitizer --tool memcheck --print-limit 20 $b/bigtune_gpu_tests --gtest_filter='ModDfma.WarpTilesUnalignedRunUntiled:ModDfma.BarrettOnFp64MatchesGmp' --gtest_brief=1
step mm 60 $b/bigtune-bench-mod --no-gmp --powm-bits 64 --only none --mulmod-bits 1024 --only-mulmod dfma.u64.q16.roll4 --reps 7
(cat $OUT/gpu.txt $OUT/steps.txt
 grep -hE "^ *mulmod |^ +1024 " $OUT/mm.log
 grep -hE "instances, .* mismatches|cases, .* mismatches|PASSED|FAILED|ERROR SUMMARY" $OUT/tests.log $OUT/memcheck.log | sort | uniq -c
 grep -hE "Failure|want|got" $OUT/tests.log | head -12) > $OUT/summary.txt
cat $OUT/summary.txt
