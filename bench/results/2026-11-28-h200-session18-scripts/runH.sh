#!/usr/bin/env bash
# Session 18, run H (H200): gpu-build/s55 = main after the review (barrett_instances.cu's launches
# share their call setup and scratch layout helpers; host code only). Every suite the composed
# Barrett, the cached spectra and the rem variants run; memcheck; the mulmod tables with a shared
# modulus and with moduli per instance, 256 bits - 128 Kbit.
set -u
b=/tmp/s55; mkdir -p $b
xz -dc gpu-build/s55/bin.tar.xz | tar -C $b -xf -
export BIGTUNE_DB=$(mktemp -d)/t.db BIGTUNE_TEST_SEED=20261808
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $OUT/gpu.txt
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > $OUT/$name.log 2>&1; echo "$name rc=$? s=$(( $(date +%s) - s ))" >> $OUT/steps.txt; }
step every 120 env BIGTUNE_TEST_VARIANTS=.rem.,.barrett. $b/bigtune_gpu_tests --gtest_filter='ModOps/ModVsGmp.EveryVariantMatchesGmp/mulmod:ModOps/ModVsGmp.EveryVariantMatchesGmp/sqrmod' --gtest_brief=1
step tests 200 $b/bigtune_gpu_tests --gtest_filter='BarrettVsGmp.*:ModDefaultPlan.*:GpuErrors.*' --gtest_brief=1
step memcheck 90 compute-sanitizer --tool memcheck --print-limit 20 $b/bigtune_gpu_tests --gtest_filter='BarrettVsGmp.SanitizerSized' --gtest_brief=1
tab="--powm-bits 64 --only none --no-gmp --mulmod-bits 256 1024 4096 16384 32768 131072 --only-mulmod .rem. --reps 5"
step shared 90 $b/bigtune-bench-mod --powm-bits 64 --only none --no-gmp --mulmod-bits 32768 65536 131072 --only-mulmod barrett --reps 5
step perinst 90 $b/bigtune-bench-mod $tab --per-instance-moduli
(cat $OUT/gpu.txt $OUT/steps.txt
 grep -hE "\] .*mismatches|cases, .* mismatches|PASSED|FAILED|ERROR SUMMARY" $OUT/every.log $OUT/tests.log $OUT/memcheck.log | sort | uniq -c
 grep -hE "Failure|want|got" $OUT/every.log $OUT/tests.log | head -12
 grep -hE "^ *[0-9]+ +[0-9]+ " $OUT/shared.log $OUT/perinst.log) > $OUT/summary.txt
(cd $OUT && tar -cJf logs.tar.xz *.log && rm -f *.log)
cat $OUT/summary.txt
