#!/usr/bin/env bash
# Session 15, run C: gpu-build/s27 = 4057b7e + register copies of the plan and tables in nttmont's
# __noinline__ functions + NttTables::pick as one load and a select. Old (s26) and new .sw9 at
# 32 Kbit on the same machine (GMP-16 with the new), the NTT suites (pick is shared), memcheck.
set -u
o=/tmp/nm26; b=/tmp/nm27; mkdir -p $o $b
xz -dc gpu-build/s26/bin.tar.xz | tar -C $o -xf -; xz -dc gpu-build/s27/bin.tar.xz | tar -C $b -xf -
export BIGTUNE_DB=$(mktemp -d)/t.db BIGTUNE_TEST_SEED=20261219
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $OUT/gpu.txt
lscpu | grep -E "Model name|^CPU\(s\)" >> $OUT/gpu.txt
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > $OUT/$name.log 2>&1; echo "$name rc=$? s=$(( $(date +%s) - s ))" >> $OUT/steps.txt; }
one="--no-mulmod --probe-count 1 --min-count 1 --target-ms 1"
step old32 60 $o/bigtune-bench-mod $one --no-gmp --reps 3 --powm-bits 32768 --only nttmont.u64.q1.sw9 --max-e-bits 32768
step new32 150 $b/bigtune-bench-mod $one --reps 3 --powm-bits 32768 --only nttmont.u64.q1.sw9 --max-e-bits 32768
step tests 200 $b/bigtune_gpu_tests --gtest_filter='NttMontVsGmp.*:*NttVsGmp*:NttBarrettVsGmp.SanitizerSized:NttBarrettVsGmp.ReductionCorrectionsAndCarries' --gtest_brief=1
step memcheck 60 compute-sanitizer --tool memcheck --print-limit 20 $b/bigtune_gpu_tests --gtest_filter='NttMontVsGmp.SanitizerSized' --gtest_brief=1
(cat $OUT/gpu.txt $OUT/steps.txt
 for f in old32 new32; do grep -hE "^ *[0-9]+ (powm|GMP)" $OUT/$f.log | sed "s|^|$f |"; done
 grep -hE "instances, .* mismatches|cases, .* mismatches|PASSED|FAILED|ERROR SUMMARY" $OUT/tests.log $OUT/memcheck.log | sort | uniq -c
 grep -hE "Failure|want|got" $OUT/tests.log | head -12) > $OUT/summary.txt
cat $OUT/summary.txt
