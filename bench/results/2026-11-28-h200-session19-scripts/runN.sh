#!/usr/bin/env bash
# Session 19, run N (H200): gpu-build/s68 = run M's device code + tcbarrett the default above 3584
# bits (host code). The default-plan and tcbarrett suites, memcheck on the sanitizer-sized cases;
# mulmod and sqrmod of the Barrett variants at 2560-4096 bits (where tcbarrett and the warp
# kernels cross).
set -u
b=/tmp/s68; mkdir -p $b
xz -dc gpu-build/s68/bin.tar.xz | tar -C $b -xf -
export BIGTUNE_DB=$(mktemp -d)/t.db BIGTUNE_TEST_SEED=20261914
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $OUT/gpu.txt
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > $OUT/$name.log 2>&1; echo "$name rc=$? s=$(( $(date +%s) - s ))" >> $OUT/steps.txt; }
step tests 200 $b/bigtune_gpu_tests --gtest_filter='BarrettVsGmp.DefaultPlanAndLimit:BarrettVsGmp.TensorCoreReductionProducts:ModDefaultPlan.*' --gtest_brief=1
step memcheck 90 compute-sanitizer --tool memcheck --print-limit 20 $b/bigtune_gpu_tests --gtest_filter='BarrettVsGmp.SanitizerSized' --gtest_brief=1
step mm 150 $b/bigtune-bench-mod --powm-bits 64 --only none --no-gmp --mulmod-bits 2560 3072 3584 4096 --only-mulmod barrett --reps 5
step sq 150 $b/bigtune-bench-mod --powm-bits 64 --only none --no-gmp --mulmod-bits 2560 3072 3584 --only-mulmod barrett --reps 5 --sqrmod
(cat $OUT/gpu.txt $OUT/steps.txt
 grep -hE "instances, .* mismatches|cases, .* mismatches|PASSED|FAILED|ERROR SUMMARY" $OUT/tests.log $OUT/memcheck.log | sort | uniq -c
 grep -hE "Failure|want|got|mismatch at|error" $OUT/tests.log | head -12
 grep -hE "^ +[0-9]+ +[0-9]+ " $OUT/mm.log $OUT/sq.log
 grep -hE "ipb" $OUT/mm.log $OUT/sq.log) > $OUT/summary.txt
(cd $OUT && tar -cJf logs.tar.xz *.log && rm -f *.log)
cat $OUT/summary.txt
