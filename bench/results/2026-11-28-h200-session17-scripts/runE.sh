#!/usr/bin/env bash
# Session 17, run E (H200): gpu-build/s47 = main at 30e0195 (Shoup twiddles and input digits) + the
# NTT Montgomery powm's 96-register build to 2^10 points (variant powm.nttmont.u64.q1.sw9.r96: five
# 128-thread blocks an SM instead of four; with Shoup products its product functions spill <= 36
# bytes). sw9 against sw9.r96 in the same bench-mod call (twice at 32 Kbit, once at 24 Kbit); nttmont at
# 32 Kbit against GMP-16; the NTT products; the NTT, NTT Montgomery (r96 included), NTT Barrett,
# composed Barrett and Newton-division suites; memcheck; racecheck on the nttmont kernels.
set -u
b=/tmp/s47; mkdir -p $b
xz -dc gpu-build/s47/bin.tar.xz | tar -C $b -xf -
export BIGTUNE_DB=$(mktemp -d)/t.db BIGTUNE_TEST_SEED=20261305
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $OUT/gpu.txt
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > $OUT/$name.log 2>&1; echo "$name rc=$? s=$(( $(date +%s) - s ))" >> $OUT/steps.txt; }
one="--no-mulmod --no-gmp --probe-count 1 --min-count 1 --target-ms 1"
step r32 60 $b/bigtune-bench-mod $one --reps 3 --powm-bits 32768 --only nttmont.u64.q1.sw9 --max-e-bits 32768
step r32b 60 $b/bigtune-bench-mod $one --reps 3 --powm-bits 32768 --only nttmont.u64.q1.sw9 --max-e-bits 32768
step r24 60 $b/bigtune-bench-mod $one --reps 3 --powm-bits 24576 --only nttmont.u64.q1.sw9 --max-e-bits 24576
step p32k 120 $b/bigtune-bench-mod --no-mulmod --probe-count 1 --min-count 1 --target-ms 1 --reps 3 --powm-bits 32768 --only nttmont.u64.q1.sw9 --max-e-bits 32768
step tests 240 $b/bigtune_gpu_tests --gtest_filter='NttMontVsGmp.*:*NttVsGmp*:NttBarrettVsGmp.*:BarrettVsGmp.*:DivNewtoncVsGmp.*' --gtest_brief=1
step memcheck 60 compute-sanitizer --tool memcheck --print-limit 20 $b/bigtune_gpu_tests --gtest_filter='NttMontVsGmp.SanitizerSized:NttBarrettVsGmp.SanitizerSized:BarrettVsGmp.SanitizerSized' --gtest_brief=1
step racecheck 120 compute-sanitizer --tool racecheck --print-limit 20 $b/bigtune_gpu_tests --gtest_filter='NttMontVsGmp.SanitizerSized' --gtest_brief=1
(cat $OUT/gpu.txt $OUT/steps.txt
 for f in r32 r32b r24 p32k; do grep -hE "^ *[0-9]+ (powm|GMP)" $OUT/$f.log | sed "s|^|$f |"; done
 grep -hE "instances, .* mismatches|cases, .* mismatches|PASSED|FAILED|ERROR SUMMARY|RACECHECK SUMMARY" $OUT/tests.log $OUT/memcheck.log $OUT/racecheck.log | sort | uniq -c
 grep -hE "Failure|want|got" $OUT/tests.log | head -12) > $OUT/summary.txt
(cd $OUT && tar -cJf logs.tar.xz *.log && rm -f *.log)
cat $OUT/summary.txt
