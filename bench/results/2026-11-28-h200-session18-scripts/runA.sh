#!/usr/bin/env bash
# Session 18, run A (H200): gpu-build/s49 = main + the fused NTT Barrett mulmod / sqrmod
# (kernels/modular/nttbarrett_mulmod.cuh, NbSteps shared with the powm); gpu-build/s49base =
# main's bigtune-bench-mod (ed5a5ef). GPU suites of the NTT Barrett kernels (new mulmod cases),
# memcheck and racecheck on the sanitizer-sized cases; the mulmod and sqrmod tables at 16-64 Kbit
# (composed Barrett against the fused kernels, against the default mul / sqr); the NTT Barrett
# powm before / after the NbSteps refactor in alternating pairs.
set -u
b=/tmp/s49; o=/tmp/s49base; mkdir -p $b $o
xz -dc gpu-build/s49/bin.tar.xz | tar -C $b -xf -
xz -dc gpu-build/s49base/bin.tar.xz | tar -C $o -xf -
export BIGTUNE_DB=$(mktemp -d)/t.db BIGTUNE_TEST_SEED=20261801
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $OUT/gpu.txt
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > $OUT/$name.log 2>&1; echo "$name rc=$? s=$(( $(date +%s) - s ))" >> $OUT/steps.txt; }
step tests 200 $b/bigtune_gpu_tests --gtest_filter='NttBarrettVsGmp.*:NttMontVsGmp.SanitizerSized' --gtest_brief=1
step memcheck 60 compute-sanitizer --tool memcheck --print-limit 20 $b/bigtune_gpu_tests --gtest_filter='NttBarrettVsGmp.SanitizerSized' --gtest_brief=1
step racecheck 90 compute-sanitizer --tool racecheck --print-limit 20 $b/bigtune_gpu_tests --gtest_filter='NttBarrettVsGmp.SanitizerSized' --gtest_brief=1
mm="--powm-bits 64 --only none --no-gmp --mulmod-bits 16384 32768 65536 --only-mulmod barrett --reps 5"
step mulmod 90 $b/bigtune-bench-mod $mm
step sqrmod 90 $b/bigtune-bench-mod $mm --sqrmod
pw="--no-mulmod --no-gmp --probe-count 1 --min-count 1 --target-ms 1 --reps 3"
for k in 1 2; do
  step p32new$k 40 $b/bigtune-bench-mod $pw --powm-bits 32768 --only nttbarrett.u64.q1.w6 --max-e-bits 8192
  step p32old$k 40 $o/bigtune-bench-mod $pw --powm-bits 32768 --only nttbarrett.u64.q1.w6 --max-e-bits 8192
done
(cat $OUT/gpu.txt $OUT/steps.txt
 grep -hE "instances, .* mismatches|cases, .* mismatches|PASSED|FAILED|ERROR SUMMARY|RACECHECK SUMMARY" $OUT/tests.log $OUT/memcheck.log $OUT/racecheck.log | sort | uniq -c
 grep -hE "Failure|want|got" $OUT/tests.log | head -12
 grep -hE "^ +[0-9]+ |mulmod " $OUT/mulmod.log $OUT/sqrmod.log
 for f in $OUT/p32*.log; do echo "$(basename $f): $(grep -E '^ +32768 ' $f | tr -s ' ' | tr '\n' ';')"; done) > $OUT/summary.txt
(cd $OUT && tar -cJf logs.tar.xz *.log && rm -f *.log)
cat $OUT/summary.txt
