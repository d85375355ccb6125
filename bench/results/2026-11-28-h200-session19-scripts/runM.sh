#!/usr/bin/env bash
# Session 19, run M (H200): gpu-build/s67 = main 75215ed + q1, q1 mu_lo's high half and q = P_hi + q1 in
# one tensor-core pass (launch_barrett_imma_quotient: no q1 and qadd kernels, no P_hi row) and no
# operand pass for moduli of N bits (a b < 2^(2N) is within the bound; the check reads only the
# instances with s > 0). Same steps as run L.
set -u
b=/tmp/s67; mkdir -p $b
xz -dc gpu-build/s67/bin.tar.xz | tar -C $b -xf -
export BIGTUNE_DB=$(mktemp -d)/t.db BIGTUNE_TEST_SEED=20261913
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $OUT/gpu.txt
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > $OUT/$name.log 2>&1; echo "$name rc=$? s=$(( $(date +%s) - s ))" >> $OUT/steps.txt; }
step tests 200 $b/bigtune_gpu_tests --gtest_filter='BarrettVsGmp.*:ModDefaultPlan.*:GpuErrors.*' --gtest_brief=1
step every 150 env BIGTUNE_TEST_VARIANTS=tcbarrett $b/bigtune_gpu_tests --gtest_filter='ModOps/ModVsGmp.EveryVariantMatchesGmp/mulmod:ModOps/ModVsGmp.EveryVariantMatchesGmp/sqrmod' --gtest_brief=1
step memcheck 90 compute-sanitizer --tool memcheck --print-limit 20 $b/bigtune_gpu_tests --gtest_filter='BarrettVsGmp.SanitizerSized' --gtest_brief=1
step racecheck 150 compute-sanitizer --tool racecheck --print-limit 20 $b/bigtune_gpu_tests --gtest_filter='BarrettVsGmp.SanitizerSized' --gtest_brief=1
step mm 200 $b/bigtune-bench-mod --powm-bits 64 --only none --no-gmp --mulmod-bits 2048 4096 4608 8192 16384 32768 65536 --only-mulmod barrett --reps 5
step sq 200 $b/bigtune-bench-mod --powm-bits 64 --only none --no-gmp --mulmod-bits 2048 4096 8192 16384 32768 65536 --only-mulmod barrett --reps 5 --sqrmod
(cat $OUT/gpu.txt $OUT/steps.txt
 grep -hE "instances, .* mismatches|cases, .* mismatches|PASSED|FAILED|ERROR SUMMARY|RACECHECK SUMMARY" $OUT/tests.log $OUT/every.log $OUT/memcheck.log $OUT/racecheck.log | sort | uniq -c
 grep -hE "Failure|want|got|mismatch at|error" $OUT/tests.log $OUT/every.log | head -12
 grep -hE "^ +[0-9]+ +[0-9]+ " $OUT/mm.log $OUT/sq.log
 grep -hE "tcbarrett|wbarrett2" $OUT/mm.log $OUT/sq.log | grep ipb) > $OUT/summary.txt
(cd $OUT && tar -cJf logs.tar.xz *.log && rm -f *.log)
cat $OUT/summary.txt
