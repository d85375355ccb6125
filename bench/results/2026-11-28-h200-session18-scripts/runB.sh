#!/usr/bin/env bash
# Session 18, run B (H200): gpu-build/s50 = main + the composed Barrett's reduction products by
# the cached spectra of a shared modulus (kernels/variants/ntt_cached_launch.hpp, the CRT NTT
# product at 30721-131072 bits); gpu-build/s49base = main's bigtune-bench-mod (ed5a5ef). The Barrett
# suites (new: SharedModulusCachedSpectra), memcheck and racecheck on the sanitizer-sized cases;
# the mulmod and sqrmod tables at 32, 64 and 128 Kbit, base and new alternating.
set -u
b=/tmp/s50; o=/tmp/s49base; mkdir -p $b $o
xz -dc gpu-build/s50/bin.tar.xz | tar -C $b -xf -
xz -dc gpu-build/s49base/bin.tar.xz | tar -C $o -xf -
export BIGTUNE_DB=$(mktemp -d)/t.db BIGTUNE_TEST_SEED=20261802
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $OUT/gpu.txt
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > $OUT/$name.log 2>&1; echo "$name rc=$? s=$(( $(date +%s) - s ))" >> $OUT/steps.txt; }
step tests 200 $b/bigtune_gpu_tests --gtest_filter='BarrettVsGmp.*:*NttVsGmp*' --gtest_brief=1
step memcheck 60 compute-sanitizer --tool memcheck --print-limit 20 $b/bigtune_gpu_tests --gtest_filter='BarrettVsGmp.SanitizerSized' --gtest_brief=1
step racecheck 120 compute-sanitizer --tool racecheck --print-limit 20 $b/bigtune_gpu_tests --gtest_filter='BarrettVsGmp.SanitizerSized' --gtest_brief=1
mm="--powm-bits 64 --only none --no-gmp --mulmod-bits 32768 65536 131072 --only-mulmod mulmod.barrett --reps 7"
sq="--powm-bits 64 --only none --no-gmp --mulmod-bits 32768 65536 131072 --only-mulmod sqrmod.barrett --reps 7 --sqrmod"
for k in 1 2; do
  step mmnew$k 60 $b/bigtune-bench-mod $mm
  step mmold$k 60 $o/bigtune-bench-mod $mm
done
step sqnew 60 $b/bigtune-bench-mod $sq
step sqold 60 $o/bigtune-bench-mod $sq
(cat $OUT/gpu.txt $OUT/steps.txt
 grep -hE "instances, .* mismatches|cases, .* mismatches|PASSED|FAILED|ERROR SUMMARY|RACECHECK SUMMARY" $OUT/tests.log $OUT/memcheck.log $OUT/racecheck.log | sort | uniq -c
 grep -hE "Failure|want|got" $OUT/tests.log | head -12
 for f in $OUT/mm*.log $OUT/sq*.log; do echo "== $(basename $f)"; grep -E "^ +[0-9]+ +[0-9]+ " $f; done) > $OUT/summary.txt
(cd $OUT && tar -cJf logs.tar.xz *.log && rm -f *.log)
cat $OUT/summary.txt
