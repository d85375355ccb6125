#!/usr/bin/env bash
# Session 18, run G (H200): gpu-build/s54 = s53 (run F: mulmod.rem / sqrmod.rem, the product and its
# remainder by the registered division) with the runtime's default for moduli per instance from 65
# bits (run F: from 513) and bench-mod timing the rem variants. The rem variants' ModVsGmp suites,
# the Barrett suites (default-plan cases from 64 bits), memcheck, racecheck; mulmod with moduli per
# instance at 64 bits - 8 Kbit, every variant.
set -u
b=/tmp/s54; mkdir -p $b
xz -dc gpu-build/s54/bin.tar.xz | tar -C $b -xf -
export BIGTUNE_DB=$(mktemp -d)/t.db BIGTUNE_TEST_SEED=20261807
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $OUT/gpu.txt
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > $OUT/$name.log 2>&1; echo "$name rc=$? s=$(( $(date +%s) - s ))" >> $OUT/steps.txt; }
step every 150 env BIGTUNE_TEST_VARIANTS=rem $b/bigtune_gpu_tests --gtest_filter='ModOps/ModVsGmp.EveryVariantMatchesGmp/mulmod:ModOps/ModVsGmp.EveryVariantMatchesGmp/sqrmod' --gtest_brief=1
step tests 200 $b/bigtune_gpu_tests --gtest_filter='BarrettVsGmp.*:ModDefaultPlan.*:GpuErrors.*' --gtest_brief=1
step memcheck 90 compute-sanitizer --tool memcheck --print-limit 20 $b/bigtune_gpu_tests --gtest_filter='BarrettVsGmp.SanitizerSized' --gtest_brief=1
step racecheck 120 compute-sanitizer --tool racecheck --print-limit 20 $b/bigtune_gpu_tests --gtest_filter='BarrettVsGmp.SanitizerSized' --gtest_brief=1
pi="--powm-bits 64 --only none --no-gmp --mulmod-bits 64 128 256 512 1024 2048 4096 8192 --reps 5 --per-instance-moduli"
step pimm 150 $b/bigtune-bench-mod $pi
(cat $OUT/gpu.txt $OUT/steps.txt
 grep -hE "\] .*mismatches|cases, .* mismatches|PASSED|FAILED|ERROR SUMMARY|RACECHECK SUMMARY" $OUT/every.log $OUT/tests.log $OUT/memcheck.log $OUT/racecheck.log | sort | uniq -c
 grep -hE "Failure|want|got" $OUT/every.log $OUT/tests.log | head -12
 grep -E "mulmod |^ *[0-9]+ +[0-9]+ " $OUT/pimm.log) > $OUT/summary.txt
(cd $OUT && tar -cJf logs.tar.xz *.log && rm -f *.log)
cat $OUT/summary.txt
