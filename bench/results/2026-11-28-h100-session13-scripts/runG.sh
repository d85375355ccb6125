#!/usr/bin/env bash
# Session 13, run G (H100): gpu-build/s19 = main + the team powm's result always through the short
# division (store_result, the last shape's final subtraction, removed): the team suites at full size
# on q48.t4 (the only shape that took the subtraction) and q40.t4, quick mode on every shape, the
# default plans, memcheck on q48.t4.
set -u
b=/tmp/nb; mkdir -p $b; xz -dc gpu-build/s19/bin.tar.xz | tar -C $b -xf -
export BIGTUNE_DB=$(mktemp -d)/t.db BIGTUNE_TEST_SEED=20261208
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $OUT/gpu.txt
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > $OUT/$name.log 2>&1; echo "$name rc=$? s=$(( $(date +%s) - s ))" >> $OUT/steps.txt; }
step teams 90 env BIGTUNE_TEST_VARIANTS=q48.t4,q40.t4 $b/bigtune_gpu_tests --gtest_filter='ModDfma.PowmOnFp64Teams*' --gtest_brief=1
step quick 30 env BIGTUNE_TEST_MAX_BITS=2100 $b/bigtune_gpu_tests --gtest_filter='ModDfma.PowmOnFp64Teams*' --gtest_brief=1
step defaults 60 $b/bigtune_gpu_tests --gtest_filter='PowmRegsVsGmp.DefaultPlan*' --gtest_brief=1
step memcheck 40 env BIGTUNE_TEST_VARIANTS=q48.t4 BIGTUNE_TEST_MAX_BITS=2100 compute-sanitizer --tool memcheck --print-limit 20 $b/bigtune_gpu_tests --gtest_filter='ModDfma.PowmOnFp64Teams*' --gtest_brief=1
(cat $OUT/gpu.txt $OUT/steps.txt
 grep -hE "cases, .* mismatches|PASSED|FAILED|ERROR SUMMARY" $OUT/teams.log $OUT/quick.log $OUT/defaults.log $OUT/memcheck.log) > $OUT/summary.txt
cat $OUT/summary.txt
