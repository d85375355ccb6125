#!/usr/bin/env bash
# Session 17, run D (H200): gpu-build/s42's bench-mod-s43 = main (b87601d) + the input digits'
# conversion as Shoup products (run C: 1.008-1.014x); gpu-build/s45 = s43 + the NTT Montgomery
# powm's mu spectrum in shared memory (nttmont_layout.hpp: +M elements a block, still four blocks an
# SM at 32 Kbit and two at 64). Alternating pairs at 32 and 64 Kbit; then s45's NTT, NTT Montgomery,
# NTT Barrett, composed Barrett and Newton-division suites; memcheck; racecheck on the nttmont kernel.
set -u
o=/tmp/s42; b=/tmp/s45; mkdir -p $o $b
xz -dc gpu-build/s42/bin.tar.xz | tar -C $o -xf -; xz -dc gpu-build/s45/bin.tar.xz | tar -C $b -xf -
export BIGTUNE_DB=$(mktemp -d)/t.db BIGTUNE_TEST_SEED=20261304
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $OUT/gpu.txt
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > $OUT/$name.log 2>&1; echo "$name rc=$? s=$(( $(date +%s) - s ))" >> $OUT/steps.txt; }
one="--no-mulmod --no-gmp --probe-count 1 --min-count 1 --target-ms 1"
m32="--reps 3 --powm-bits 32768 --only nttmont.u64.q1.sw9 --max-e-bits 32768"
m64="--reps 2 --powm-bits 65536 --only nttmont.u64.q1.sw9 --max-e-bits 16384"
step d32 60 $o/bigtune-bench-mod-s43 $one $m32
step s32 60 $b/bigtune-bench-mod $one $m32
step s32b 60 $b/bigtune-bench-mod $one $m32
step d32b 60 $o/bigtune-bench-mod-s43 $one $m32
step d64 60 $o/bigtune-bench-mod-s43 $one $m64
step s64 60 $b/bigtune-bench-mod $one $m64
step s64b 60 $b/bigtune-bench-mod $one $m64
step d64b 60 $o/bigtune-bench-mod-s43 $one $m64
step tests 200 $b/bigtune_gpu_tests --gtest_filter='NttMontVsGmp.*:*NttVsGmp*:NttBarrettVsGmp.*:BarrettVsGmp.*' --gtest_brief=1
step div 90 $b/bigtune_gpu_tests --gtest_filter='DivNewtoncVsGmp.*' --gtest_brief=1
step memcheck 60 compute-sanitizer --tool memcheck --print-limit 20 $b/bigtune_gpu_tests --gtest_filter='NttMontVsGmp.SanitizerSized:NttBarrettVsGmp.SanitizerSized:BarrettVsGmp.SanitizerSized' --gtest_brief=1
step racecheck 90 compute-sanitizer --tool racecheck --print-limit 20 $b/bigtune_gpu_tests --gtest_filter='NttMontVsGmp.SanitizerSized' --gtest_brief=1
(cat $OUT/gpu.txt $OUT/steps.txt
 for f in d32 s32 s32b d32b d64 s64 s64b d64b; do grep -hE "^ *[0-9]+ (powm|GMP)" $OUT/$f.log | sed "s|^|$f |"; done
 grep -hE "instances, .* mismatches|cases, .* mismatches|mismatch|PASSED|FAILED|ERROR SUMMARY|RACECHECK SUMMARY" $OUT/tests.log $OUT/div.log $OUT/memcheck.log $OUT/racecheck.log | sort | uniq -c
 grep -hE "Failure|want|got" $OUT/tests.log $OUT/div.log | head -12) > $OUT/summary.txt
(cd $OUT && tar -cJf logs.tar.xz *.log && rm -f *.log)
cat $OUT/summary.txt
