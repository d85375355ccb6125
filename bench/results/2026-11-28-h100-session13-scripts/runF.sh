#!/usr/bin/env bash
# Session 13, run F (H100): gpu-build/s18 = main + sliding windows in the fused NTT Barrett powm
# (powm.nttbarrett.u64.q1.sw8 / sw9 and their .b2 builds), against the fixed windows of the same
# binary and of main's (gpu-build/s17, e2876de) on the same card: 32 and 64 Kbit with full
# exponents in session 12 run B's one-wave protocol, then the NttBarrettVsGmp suites and memcheck
# on their sanitizer-sized cases.
set -u
b=/tmp/nb; o=/tmp/ob; mkdir -p $b $o; xz -dc gpu-build/s18/bin.tar.xz | tar -C $b -xf -
xz -dc gpu-build/s17/bin.tar.xz | tar -C $o -xf - bigtune-bench-mod
export BIGTUNE_DB=$(mktemp -d)/t.db BIGTUNE_TEST_SEED=20261207
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $OUT/gpu.txt
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > $OUT/$name.log 2>&1; echo "$name rc=$? s=$(( $(date +%s) - s ))" >> $OUT/steps.txt; }
one="--no-mulmod --no-gmp --probe-count 1 --min-count 1 --target-ms 1"
step new32k 90 $b/bigtune-bench-mod $one --reps 3 --powm-bits 32768 --only nttbarrett.u64.q1.w6,nttbarrett.u64.q1.sw8,nttbarrett.u64.q1.sw9 --max-e-bits 32768
step old32k 40 $o/bigtune-bench-mod $one --reps 3 --powm-bits 32768 --only nttbarrett.u64.q1.w6 --max-e-bits 32768
step new64k 200 $b/bigtune-bench-mod $one --reps 2 --powm-bits 65536 --only nttbarrett.u64.q1.w6.b2,nttbarrett.u64.q1.sw8.b2,nttbarrett.u64.q1.sw9.b2 --max-e-bits 65536
step old64k 70 $o/bigtune-bench-mod $one --reps 2 --powm-bits 65536 --only nttbarrett.u64.q1.w6.b2 --max-e-bits 65536
step tests 200 $b/bigtune_gpu_tests --gtest_filter='NttBarrettVsGmp.*' --gtest_brief=1
step memcheck 60 compute-sanitizer --tool memcheck --print-limit 20 $b/bigtune_gpu_tests --gtest_filter='NttBarrettVsGmp.SanitizerSized' --gtest_brief=1
(cat $OUT/gpu.txt $OUT/steps.txt
 grep -hE "cases, .* mismatches|instances, .* mismatches|PASSED|FAILED|ERROR SUMMARY" $OUT/tests.log $OUT/memcheck.log | sort | uniq -c
 for f in new32k old32k new64k old64k; do grep -hE "^ *[0-9]+ powm" $OUT/$f.log | sed "s|^|$f |"; done) > $OUT/summary.txt
cat $OUT/summary.txt
