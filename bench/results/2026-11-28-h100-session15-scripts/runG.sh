#!/usr/bin/env bash
# Session 15, run G (H100): gpu-build/s31 = a30a4b2 + the review's refactor (nm_spectrum is
# ntt_cache_operand<Crt3, false>; nm_cached_plus and ntt_cached_coefficients share
# ntt_transform_pointwise / ntt_middle_pass_with). s30 against s31 at 32 and 64 Kbit, the suites.
set -u
o=/tmp/nm30; b=/tmp/nm31; mkdir -p $o $b
xz -dc gpu-build/s30/bin.tar.xz | tar -C $o -xf -; xz -dc gpu-build/s31/bin.tar.xz | tar -C $b -xf -
export BIGTUNE_DB=$(mktemp -d)/t.db BIGTUNE_TEST_SEED=20261223
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $OUT/gpu.txt
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > $OUT/$name.log 2>&1; echo "$name rc=$? s=$(( $(date +%s) - s ))" >> $OUT/steps.txt; }
one="--no-mulmod --no-gmp --probe-count 1 --min-count 1 --target-ms 1"
step o32 60 $o/bigtune-bench-mod $one --reps 3 --powm-bits 32768 --only nttmont.u64.q1.sw9 --max-e-bits 32768
step n32 60 $b/bigtune-bench-mod $one --reps 3 --powm-bits 32768 --only nttmont.u64.q1.sw9 --max-e-bits 32768
step n64 60 $b/bigtune-bench-mod $one --reps 2 --powm-bits 65536 --only nttmont.u64.q1.sw9 --max-e-bits 16384
step o64 60 $o/bigtune-bench-mod $one --reps 2 --powm-bits 65536 --only nttmont.u64.q1.sw9 --max-e-bits 16384
step tests 200 $b/bigtune_gpu_tests --gtest_filter='NttMontVsGmp.*:*NttVsGmp*:NttBarrettVsGmp.*' --gtest_brief=1
step memcheck 60 compute-sanitizer --tool memcheck --print-limit 20 $b/bigtune_gpu_tests --gtest_filter='NttMontVsGmp.SanitizerSized:NttBarrettVsGmp.SanitizerSized' --gtest_brief=1
(cat $OUT/gpu.txt $OUT/steps.txt
 for f in o32 n32 o64 n64; do grep -hE "^ *[0-9]+ (powm|GMP)" $OUT/$f.log | sed "s|^|$f |"; done
 grep -hE "instances, .* mismatches|cases, .* mismatches|PASSED|FAILED|ERROR SUMMARY" $OUT/tests.log $OUT/memcheck.log | sort | uniq -c
 grep -hE "Failure|want|got" $OUT/tests.log | head -12) > $OUT/summary.txt
cat $OUT/summary.txt
