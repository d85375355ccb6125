#!/usr/bin/env bash
# Session 14, run F (H100): gpu-build/s25 = 08b5e0e + the review's device-code changes (one
# exponent-length helper for the NTT Barrett and Montgomery powms, one barrier functor in
# nttmont): the NttMontVsGmp suites (default plans included), the NttBarrettVsGmp corrections
# and sanitizer cases, memcheck on nttmont's sanitizer cases.
set -u
b=/tmp/nm25; mkdir -p $b; xz -dc gpu-build/s25/bin.tar.xz | tar -C $b -xf -
export BIGTUNE_DB=$(mktemp -d)/t.db BIGTUNE_TEST_SEED=20261218
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $OUT/gpu.txt
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > $OUT/$name.log 2>&1; echo "$name rc=$? s=$(( $(date +%s) - s ))" >> $OUT/steps.txt; }
step tests 150 $b/bigtune_gpu_tests --gtest_filter='NttMontVsGmp.*:NttBarrettVsGmp.ReductionCorrectionsAndCarries:NttBarrettVsGmp.SanitizerSized' --gtest_brief=1
step memcheck 60 compute-sanitizer --tool memcheck --print-limit 20 $b/bigtune_gpu_tests --gtest_filter='NttMontVsGmp.SanitizerSized' --gtest_brief=1
(cat $OUT/gpu.txt $OUT/steps.txt
 grep -hE "instances, .* mismatches|cases, .* mismatches|corrections|PASSED|FAILED|default plan|ERROR SUMMARY" $OUT/tests.log $OUT/memcheck.log | sort | uniq -c
 grep -hE "Failure|want|got|instance " $OUT/tests.log | head -12) > $OUT/summary.txt
cat $OUT/summary.txt
