#!/usr/bin/env bash
# Session 16, run H (H100): gpu-build/s37 = main at c3ded83, gpu-build/s38 = s37 + the input phase
# software-pipelined (ntt_input_fetch / ntt_input_finish: a thread fetches its next group while it
# computes this one).
# Affects every NTT kernel's input phase: nttmont at 32 and 64 Kbit, the NTT Barrett powm at 32 Kbit,
# s37 against s38 (alternating at 32 Kbit); the NTT suites (the products included);
# memcheck.
set -u
o=/tmp/s37; b=/tmp/s38; mkdir -p $o $b
xz -dc gpu-build/s37/bin.tar.xz | tar -C $o -xf -; xz -dc gpu-build/s38/bin.tar.xz | tar -C $b -xf -
export BIGTUNE_DB=$(mktemp -d)/t.db BIGTUNE_TEST_SEED=20261232
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $OUT/gpu.txt
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > $OUT/$name.log 2>&1; echo "$name rc=$? s=$(( $(date +%s) - s ))" >> $OUT/steps.txt; }
one="--no-mulmod --no-gmp --probe-count 1 --min-count 1 --target-ms 1"
step o32 60 $o/bigtune-bench-mod $one --reps 3 --powm-bits 32768 --only nttmont.u64.q1.sw9 --max-e-bits 32768
step n32 60 $b/bigtune-bench-mod $one --reps 3 --powm-bits 32768 --only nttmont.u64.q1.sw9 --max-e-bits 32768
step n32b 60 $b/bigtune-bench-mod $one --reps 3 --powm-bits 32768 --only nttmont.u64.q1.sw9 --max-e-bits 32768
step o32b 60 $o/bigtune-bench-mod $one --reps 3 --powm-bits 32768 --only nttmont.u64.q1.sw9 --max-e-bits 32768
step o64 60 $o/bigtune-bench-mod $one --reps 2 --powm-bits 65536 --only nttmont.u64.q1.sw9 --max-e-bits 16384
step n64 60 $b/bigtune-bench-mod $one --reps 2 --powm-bits 65536 --only nttmont.u64.q1.sw9 --max-e-bits 16384
step nb_o 40 $o/bigtune-bench-mod $one --reps 3 --powm-bits 32768 --only nttbarrett.u64.q1.w6 --max-e-bits 8192
step nb_n 40 $b/bigtune-bench-mod $one --reps 3 --powm-bits 32768 --only nttbarrett.u64.q1.w6 --max-e-bits 8192
step tests 220 $b/bigtune_gpu_tests --gtest_filter='NttMontVsGmp.*:*NttVsGmp*:NttBarrettVsGmp.*' --gtest_brief=1
step memcheck 60 compute-sanitizer --tool memcheck --print-limit 20 $b/bigtune_gpu_tests --gtest_filter='NttMontVsGmp.SanitizerSized:NttBarrettVsGmp.SanitizerSized' --gtest_brief=1
(cat $OUT/gpu.txt $OUT/steps.txt
 for f in o32 n32 n32b o32b o64 n64 nb_o nb_n; do grep -hE "^ *[0-9]+ (powm|GMP)" $OUT/$f.log | sed "s|^|$f |"; done
 grep -hE "instances, .* mismatches|cases, .* mismatches|PASSED|FAILED|ERROR SUMMARY" $OUT/tests.log $OUT/memcheck.log | sort | uniq -c
 grep -hE "Failure|want|got" $OUT/tests.log | head -12) > $OUT/summary.txt
cat $OUT/summary.txt
