#!/usr/bin/env bash
# Session 18, run D (H200): gpu-build/s52 = main c0eeaf1 (the composed mulmod / sqrmod with moduli per
# instance: a*b divided by m, no mu); gpu-build/s49base = main's bigtune-bench-mod before the session
# (ed5a5ef). The Barrett suites, memcheck, racecheck; mulmod and sqrmod with moduli per instance at
# 16-128 Kbit, base / new alternating; the shared-modulus mulmod once more (unchanged path).
set -u
b=/tmp/s52; o=/tmp/s49base; mkdir -p $b $o
xz -dc gpu-build/s52/bin.tar.xz | tar -C $b -xf -
xz -dc gpu-build/s49base/bin.tar.xz | tar -C $o -xf -
export BIGTUNE_DB=$(mktemp -d)/t.db BIGTUNE_TEST_SEED=20261804
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $OUT/gpu.txt
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > $OUT/$name.log 2>&1; echo "$name rc=$? s=$(( $(date +%s) - s ))" >> $OUT/steps.txt; }
step tests 200 $b/bigtune_gpu_tests --gtest_filter='BarrettVsGmp.*:ModDefaultPlan.*' --gtest_brief=1
step memcheck 60 compute-sanitizer --tool memcheck --print-limit 20 $b/bigtune_gpu_tests --gtest_filter='BarrettVsGmp.SanitizerSized' --gtest_brief=1
step racecheck 120 compute-sanitizer --tool racecheck --print-limit 20 $b/bigtune_gpu_tests --gtest_filter='BarrettVsGmp.SanitizerSized' --gtest_brief=1
pi="--powm-bits 64 --only none --no-gmp --mulmod-bits 16384 32768 65536 131072 --only-mulmod mulmod.barrett --reps 5 --per-instance-moduli"
ps="--powm-bits 64 --only none --no-gmp --mulmod-bits 16384 32768 65536 131072 --only-mulmod sqrmod.barrett --reps 5 --per-instance-moduli --sqrmod"
for k in 1 2; do
  step pinew$k 90 $b/bigtune-bench-mod $pi
  step piold$k 120 $o/bigtune-bench-mod $pi
done
step psnew 90 $b/bigtune-bench-mod $ps
step psold 120 $o/bigtune-bench-mod $ps
step shared 90 $b/bigtune-bench-mod --powm-bits 64 --only none --no-gmp --mulmod-bits 16384 32768 65536 131072 --only-mulmod mulmod.barrett --reps 5
(cat $OUT/gpu.txt $OUT/steps.txt
 grep -hE "instances, .* mismatches|cases, .* mismatches|PASSED|FAILED|ERROR SUMMARY|RACECHECK SUMMARY" $OUT/tests.log $OUT/memcheck.log $OUT/racecheck.log | sort | uniq -c
 grep -hE "Failure|want|got" $OUT/tests.log | head -12
 for f in $OUT/pi*.log $OUT/ps*.log $OUT/shared.log; do echo "== $(basename $f)"; grep -E "^ *[0-9]+ +[0-9]+ " $f; done) > $OUT/summary.txt
(cd $OUT && tar -cJf logs.tar.xz *.log && rm -f *.log)
cat $OUT/summary.txt
