#!/usr/bin/env bash
# Session 14, run C (H100): gpu-build/s22 = run B's tree + nttmont's cyclic half fused (V = a b +
# q m mod 2^N' - 1 from one inverse transform: 7 transforms per squaring instead of 8) and
# sliding windows (.sw7-.sw9): the NttMontVsGmp suites, memcheck and racecheck on the
# sanitizer-sized cases, then 32 and 64 Kbit with full exponents (one-wave protocol) against
# the Barrett powm of the same binary.
set -u
b=/tmp/nm22; mkdir -p $b; xz -dc gpu-build/s22/bin.tar.xz | tar -C $b -xf -
export BIGTUNE_DB=$(mktemp -d)/t.db BIGTUNE_TEST_SEED=20261215
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $OUT/gpu.txt
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > $OUT/$name.log 2>&1; echo "$name rc=$? s=$(( $(date +%s) - s ))" >> $OUT/steps.txt; }
one="--no-mulmod --no-gmp --probe-count 1 --min-count 1 --target-ms 1"
step tests 300 $b/bigtune_gpu_tests --gtest_filter='NttMontVsGmp.*' --gtest_brief=1
step memcheck 120 compute-sanitizer --tool memcheck --print-limit 20 $b/bigtune_gpu_tests --gtest_filter='NttMontVsGmp.SanitizerSized' --gtest_brief=1
step racecheck 200 compute-sanitizer --tool racecheck --print-limit 20 $b/bigtune_gpu_tests --gtest_filter='NttMontVsGmp.SanitizerSized' --gtest_brief=1
step p32k 150 $b/bigtune-bench-mod $one --reps 3 --powm-bits 32768 --only nttmont.u64.q1.w7,nttmont.u64.q1.sw,nttbarrett.u64.q1.w6 --max-e-bits 32768
step p64k 300 $b/bigtune-bench-mod $one --reps 2 --powm-bits 65536 --only nttmont.u64.q1.w7,nttmont.u64.q1.sw8,nttmont.u64.q1.sw9,nttbarrett.u64.q1.w6.b2 --max-e-bits 65536
(cat $OUT/gpu.txt $OUT/steps.txt
 grep -hE "instances, .* mismatches|cases, .* mismatches|PASSED|FAILED|ERROR SUMMARY|RACECHECK SUMMARY" $OUT/tests.log $OUT/memcheck.log $OUT/racecheck.log | sort | uniq -c
 grep -hE "Failure|want|got|instance " $OUT/tests.log | head -12
 for f in p32k p64k; do grep -hE "^ *[0-9]+ powm" $OUT/$f.log | sed "s|^|$f |"; done) > $OUT/summary.txt
cat $OUT/summary.txt
