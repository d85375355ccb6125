#!/usr/bin/env bash
# Session 14, run A (H100): gpu-build/s20 = 9b5c22a + the NTT Montgomery powm on R = 2^N' + 1
# (powm.nttmont.u64.q1.w5/w6, uncommitted tree): its GPU suites, memcheck on the sanitizer-sized
# cases, the NTT products' suite (ntt.cuh's carry phase and scale-out were generalized), then
# 32 and 64 Kbit with full exponents in the one-wave protocol against the Barrett powm of the
# same binary (w6 at 32 Kbit, w6.b2 at 64 Kbit: the defaults).
set -u
b=/tmp/nm; mkdir -p $b; xz -dc gpu-build/s20/bin.tar.xz | tar -C $b -xf -
export BIGTUNE_DB=$(mktemp -d)/t.db BIGTUNE_TEST_SEED=20261214
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $OUT/gpu.txt
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > $OUT/$name.log 2>&1; echo "$name rc=$? s=$(( $(date +%s) - s ))" >> $OUT/steps.txt; }
one="--no-mulmod --no-gmp --probe-count 1 --min-count 1 --target-ms 1"
step tests 300 $b/bigtune_gpu_tests --gtest_filter='NttMontVsGmp.*' --gtest_brief=1
step memcheck 120 compute-sanitizer --tool memcheck --print-limit 20 $b/bigtune_gpu_tests --gtest_filter='NttMontVsGmp.SanitizerSized' --gtest_brief=1
step p32k 150 $b/bigtune-bench-mod $one --reps 3 --powm-bits 32768 --only nttmont.u64.q1.w5,nttmont.u64.q1.w6,nttbarrett.u64.q1.w6 --max-e-bits 32768
step p64k 240 $b/bigtune-bench-mod $one --reps 2 --powm-bits 65536 --only nttmont.u64.q1.w6,nttbarrett.u64.q1.w6.b2 --max-e-bits 65536
step ntt 200 $b/bigtune_gpu_tests --gtest_filter='*NttVsGmp*:NttBarrettVsGmp.SanitizerSized' --gtest_brief=1
(cat $OUT/gpu.txt $OUT/steps.txt
 grep -hE "instances, .* mismatches|cases, .* mismatches|PASSED|FAILED|ERROR SUMMARY" $OUT/tests.log $OUT/memcheck.log $OUT/ntt.log | sort | uniq -c
 grep -hE "Failure|want|got|instance" $OUT/tests.log | head -12
 for f in p32k p64k; do grep -hE "^ *[0-9]+ powm" $OUT/$f.log | sed "s|^|$f |"; done) > $OUT/summary.txt
cat $OUT/summary.txt
