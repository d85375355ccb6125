#!/usr/bin/env bash
# Session 19, run G (H200): gpu-build/s61 = run E's build (s60) + the global loads staged with 16
# rows' loads in flight a thread (run F: the fused kernel waited on one load at a time), the
# constants' copies built from shared memory. Same steps as run E.
set -u
b=/tmp/s61; mkdir -p $b
xz -dc gpu-build/s61/bin.tar.xz | tar -C $b -xf -
export BIGTUNE_DB=$(mktemp -d)/t.db BIGTUNE_TEST_SEED=20261907
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $OUT/gpu.txt
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > $OUT/$name.log 2>&1; echo "$name rc=$? s=$(( $(date +%s) - s ))" >> $OUT/steps.txt; }
step tests 150 $b/bigtune_gpu_tests --gtest_filter='BarrettVsGmp.TensorCoreReductionProducts' --gtest_brief=1
step memcheck 90 compute-sanitizer --tool memcheck --print-limit 20 $b/bigtune_gpu_tests --gtest_filter='BarrettVsGmp.SanitizerSized' --gtest_brief=1
step racecheck 150 compute-sanitizer --tool racecheck --print-limit 20 $b/bigtune_gpu_tests --gtest_filter='BarrettVsGmp.SanitizerSized' --gtest_brief=1
step mm 200 $b/bigtune-bench-mod --powm-bits 64 --only none --no-gmp --mulmod-bits 1024 2048 4096 8192 16384 32768 65536 --only-mulmod barrett --reps 5
step sq 200 $b/bigtune-bench-mod --powm-bits 64 --only none --no-gmp --mulmod-bits 2048 4096 8192 16384 32768 --only-mulmod barrett --reps 5 --sqrmod
(cat $OUT/gpu.txt $OUT/steps.txt
 grep -hE "instances, .* mismatches|cases, .* mismatches|PASSED|FAILED|ERROR SUMMARY|RACECHECK SUMMARY" $OUT/tests.log $OUT/memcheck.log $OUT/racecheck.log | sort | uniq -c
 grep -hE "Failure|want|got|mismatch at|error" $OUT/tests.log | head -12
 grep -hE "^ +[0-9]+ +[0-9]+ " $OUT/mm.log $OUT/sq.log) > $OUT/summary.txt
(cd $OUT && tar -cJf logs.tar.xz *.log && rm -f *.log)
cat $OUT/summary.txt
