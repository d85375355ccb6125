#!/usr/bin/env bash
# Session 15, run F (H100): gpu-build/s30 = s29 with the out-of-line passes only up to M = 2^10
# (kNmSharedPassMaxLog). s28 and s30 at 32 and 64 Kbit on one machine, GMP-16 on the same host,
# the NTT / NttMont / NttBarrett suites, memcheck and racecheck on nttmont's sanitizer cases.
set -u
o=/tmp/nm28; b=/tmp/nm30; mkdir -p $o $b
xz -dc gpu-build/s28/bin.tar.xz | tar -C $o -xf -; xz -dc gpu-build/s30/bin.tar.xz | tar -C $b -xf -
export BIGTUNE_DB=$(mktemp -d)/t.db BIGTUNE_TEST_SEED=20261222
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $OUT/gpu.txt
lscpu | grep -E "Model name|^CPU\(s\)" >> $OUT/gpu.txt
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > $OUT/$name.log 2>&1; echo "$name rc=$? s=$(( $(date +%s) - s ))" >> $OUT/steps.txt; }
one="--no-mulmod --probe-count 1 --min-count 1 --target-ms 1"
step o32 60 $o/bigtune-bench-mod $one --no-gmp --reps 3 --powm-bits 32768 --only nttmont.u64.q1.sw9 --max-e-bits 32768
step n32 150 $b/bigtune-bench-mod $one --reps 3 --powm-bits 32768 --only nttmont.u64.q1.sw9 --max-e-bits 32768
step o64 60 $o/bigtune-bench-mod $one --no-gmp --reps 2 --powm-bits 65536 --only nttmont.u64.q1.sw9 --max-e-bits 16384
step n64 200 $b/bigtune-bench-mod $one --reps 2 --powm-bits 65536 --only nttmont.u64.q1.sw9 --max-e-bits 65536 --gmp-max-e-bits 16384
step tests 200 $b/bigtune_gpu_tests --gtest_filter='NttMontVsGmp.*:*NttVsGmp*:NttBarrettVsGmp.SanitizerSized:NttBarrettVsGmp.ReductionCorrectionsAndCarries' --gtest_brief=1
step memcheck 60 compute-sanitizer --tool memcheck --print-limit 20 $b/bigtune_gpu_tests --gtest_filter='NttMontVsGmp.SanitizerSized' --gtest_brief=1
step racecheck 90 compute-sanitizer --tool racecheck --print-limit 20 $b/bigtune_gpu_tests --gtest_filter='NttMontVsGmp.SanitizerSized' --gtest_brief=1
(cat $OUT/gpu.txt $OUT/steps.txt
 for f in o32 n32 o64 n64; do grep -hE "^ *[0-9]+ (powm|GMP)" $OUT/$f.log | sed "s|^|$f |"; done
 grep -hE "instances, .* mismatches|cases, .* mismatches|PASSED|FAILED|ERROR SUMMARY|RACECHECK SUMMARY" $OUT/tests.log $OUT/memcheck.log $OUT/racecheck.log | sort | uniq -c
 grep -hE "Failure|want|got" $OUT/tests.log | head -12) > $OUT/summary.txt
cat $OUT/summary.txt
