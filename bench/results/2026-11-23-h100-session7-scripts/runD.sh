#!/usr/bin/env bash
# Session 7, call D: after the warp Montgomery column helpers refactor (SASS: same instruction counts
# in every kernel but powm bgsqr q8.l32, +8 of 9816): the warp powm / modular suites, memcheck small.
set -u
b=/tmp/lb; mkdir -p $b /tmp/o
xz -dc .carry/s7b/bigtune_gpu_tests.xz > $b/t; chmod +x $b/t
export BIGTUNE_TEST_SEED=20261124 BIGTUNE_DB=/tmp/s7d-$$.db
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > /tmp/o/$name.log 2>&1; local rc=$?; echo "$name rc=$rc s=$(( $(date +%s) - s ))" | tee -a /tmp/o/steps.txt; }
step powm 200 env BIGTUNE_TEST_MAX_BITS=70000 $b/t --gtest_brief=1 --gtest_filter='WarpMod*:PowmRegs*:ModDefault*:DefaultPlan*'
step modwarp 80 env BIGTUNE_TEST_FAMILY=warp $b/t --gtest_brief=1 --gtest_filter='ModOps/*mulmod:ModOps/*sqrmod:ModOps/*powm'
step memcheck 60 env BIGTUNE_TEST_VARIANTS=bgsqr.u32.q16.l2.w5,bgsqr.u32.q8.l8.w6,bmont.u32.q8.l4 BIGTUNE_TEST_MAX_BITS=1100 compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 99 $b/t --gtest_brief=1 --gtest_filter='WarpModVsGmp.Powm*'
step racecheck 60 env BIGTUNE_TEST_VARIANTS=bgsqr.u32.q16.l2.w5,bgsqr.u32.q8.l8.w6 BIGTUNE_TEST_MAX_BITS=1100 compute-sanitizer --tool racecheck --report-api-errors no --error-exitcode 99 $b/t --gtest_brief=1 --gtest_filter='WarpModVsGmp.PowmFullExponents'
cp /tmp/o/* $OUT/ 2>/dev/null
cat /tmp/o/steps.txt
grep -hE "cases|mismatch|PASSED|FAILED|SKIPPED|SUMMARY" /tmp/o/powm.log /tmp/o/modwarp.log /tmp/o/memcheck.log /tmp/o/racecheck.log | grep -v "^  " | head -40
