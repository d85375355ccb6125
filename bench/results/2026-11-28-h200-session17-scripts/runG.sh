#!/usr/bin/env bash
# Session 17, run G (H200): gpu-build/s48 = main after the review (one launch helper for the NTT
# twiddle tables; device code identical to run E's). The suites whose launches call it: the NTT
# products, the NTT Montgomery and NTT Barrett powms, the composed Barrett; memcheck.
set -u
b=/tmp/s48; mkdir -p $b
xz -dc gpu-build/s48/bin.tar.xz | tar -C $b -xf -
export BIGTUNE_DB=$(mktemp -d)/t.db BIGTUNE_TEST_SEED=20261307
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $OUT/gpu.txt
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > $OUT/$name.log 2>&1; echo "$name rc=$? s=$(( $(date +%s) - s ))" >> $OUT/steps.txt; }
step tests 170 $b/bigtune_gpu_tests --gtest_filter='*NttVsGmp*:NttMontVsGmp.*:NttBarrettVsGmp.SanitizerSized:BarrettVsGmp.*' --gtest_brief=1
step memcheck 40 compute-sanitizer --tool memcheck --print-limit 20 $b/bigtune_gpu_tests --gtest_filter='NttMontVsGmp.SanitizerSized:NttBarrettVsGmp.SanitizerSized' --gtest_brief=1
(cat $OUT/gpu.txt $OUT/steps.txt
 grep -hE "instances, .* mismatches|cases, .* mismatches|PASSED|FAILED|ERROR SUMMARY" $OUT/tests.log $OUT/memcheck.log | sort | uniq -c
 grep -hE "Failure|want|got" $OUT/tests.log | head -12) > $OUT/summary.txt
(cd $OUT && tar -cJf logs.tar.xz *.log && rm -f *.log)
cat $OUT/summary.txt
