#!/usr/bin/env bash
# Session 18, run I (H200): gpu-build/s56 = main c7bf2ae (the final review's host-code
# change to barrett_launch). The composed Barrett and rem suites, memcheck.
set -u
b=/tmp/s56; mkdir -p $b
xz -dc gpu-build/s56/bin.tar.xz | tar -C $b -xf -
export BIGTUNE_DB=$(mktemp -d)/t.db BIGTUNE_TEST_SEED=20261809
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $OUT/gpu.txt
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > $OUT/$name.log 2>&1; echo "$name rc=$? s=$(( $(date +%s) - s ))" >> $OUT/steps.txt; }
step every 120 env BIGTUNE_TEST_VARIANTS=.rem.,.barrett. $b/bigtune_gpu_tests --gtest_filter='ModOps/ModVsGmp.EveryVariantMatchesGmp/mulmod:ModOps/ModVsGmp.EveryVariantMatchesGmp/sqrmod' --gtest_brief=1
step tests 200 $b/bigtune_gpu_tests --gtest_filter='BarrettVsGmp.*:ModDefaultPlan.*:GpuErrors.*' --gtest_brief=1
step memcheck 90 compute-sanitizer --tool memcheck --print-limit 20 $b/bigtune_gpu_tests --gtest_filter='BarrettVsGmp.SanitizerSized' --gtest_brief=1
(cat $OUT/gpu.txt $OUT/steps.txt
 grep -hE "\] .*mismatches|cases, .* mismatches|PASSED|FAILED|ERROR SUMMARY" $OUT/every.log $OUT/tests.log $OUT/memcheck.log | sort | uniq -c
 grep -hE "Failure|want|got" $OUT/every.log $OUT/tests.log | head -12) > $OUT/summary.txt
(cd $OUT && tar -cJf logs.tar.xz *.log && rm -f *.log)
cat $OUT/summary.txt
