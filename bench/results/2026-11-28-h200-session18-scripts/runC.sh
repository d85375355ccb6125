#!/usr/bin/env bash
# Session 18, run C (H200): gpu-build/s51 = main 5d5dd39 (the composed Barrett's reductions by cached
# spectra: a shared modulus, and a powm's moduli per instance); gpu-build/s49base = main's
# bigtune-bench-mod before the session (ed5a5ef). The Barrett and NTT suites, memcheck and racecheck;
# the composed Barrett powm at 100000 and 131072 bits (moduli per instance) base / new alternating;
# the whole mulmod and sqrmod tables (256 bits - 128 Kbit, every variant) on s51.
set -u
b=/tmp/s51; o=/tmp/s49base; mkdir -p $b $o
xz -dc gpu-build/s51/bin.tar.xz | tar -C $b -xf -
xz -dc gpu-build/s49base/bin.tar.xz | tar -C $o -xf -
export BIGTUNE_DB=$(mktemp -d)/t.db BIGTUNE_TEST_SEED=20261803
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $OUT/gpu.txt
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > $OUT/$name.log 2>&1; echo "$name rc=$? s=$(( $(date +%s) - s ))" >> $OUT/steps.txt; }
step tests 200 $b/bigtune_gpu_tests --gtest_filter='BarrettVsGmp.*:NttBarrettVsGmp.*:ModDefaultPlan.*' --gtest_brief=1
step memcheck 60 compute-sanitizer --tool memcheck --print-limit 20 $b/bigtune_gpu_tests --gtest_filter='BarrettVsGmp.SanitizerSized' --gtest_brief=1
step racecheck 120 compute-sanitizer --tool racecheck --print-limit 20 $b/bigtune_gpu_tests --gtest_filter='BarrettVsGmp.SanitizerSized' --gtest_brief=1
pw="--no-mulmod --no-gmp --only powm.barrett.u64.q1.w6 --probe-count 264 --min-count 264 --target-ms 1 --reps 3 --max-e-bits 512"
for k in 1 2; do
  step pnew$k 60 $b/bigtune-bench-mod $pw --powm-bits 100000 131072
  step pold$k 60 $o/bigtune-bench-mod $pw --powm-bits 100000 131072
done
tab="--powm-bits 64 --only none --no-gmp --mulmod-bits 256 1024 2048 4096 8192 16384 32768 65536 131072 --reps 5"
step mmtable 150 $b/bigtune-bench-mod $tab
step sqtable 150 $b/bigtune-bench-mod $tab --sqrmod
(cat $OUT/gpu.txt $OUT/steps.txt
 grep -hE "instances, .* mismatches|cases, .* mismatches|PASSED|FAILED|ERROR SUMMARY|RACECHECK SUMMARY" $OUT/tests.log $OUT/memcheck.log $OUT/racecheck.log | sort | uniq -c
 grep -hE "Failure|want|got" $OUT/tests.log | head -12
 for f in $OUT/p*.log; do echo "$(basename $f): $(grep -E 'powm.barrett' $f | tr -s ' ' | tr '\n' ';')"; done
 for f in $OUT/mmtable.log $OUT/sqtable.log; do echo "== $(basename $f)"; grep -E "^ *[0-9]+ +[0-9]+ " $f; done) > $OUT/summary.txt
(cd $OUT && tar -cJf logs.tar.xz *.log && rm -f *.log)
cat $OUT/summary.txt
