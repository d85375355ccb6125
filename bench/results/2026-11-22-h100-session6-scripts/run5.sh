#!/usr/bin/env bash
# q16 branch: GPU tests of the new powm.bgsqr.u32.q16.l{8,16} variants and the default plans.
set -u
b=/tmp/lb; mkdir -p $b /tmp/o
xz -dc .carry/q16b/bigtune_gpu_tests.xz > $b/t; chmod +x $b/t
export BIGTUNE_TEST_SEED=20261125 BIGTUNE_DB=/tmp/q16b-$$.db
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > /tmp/o/$name.log 2>&1; local rc=$?; echo "$name rc=$rc s=$(( $(date +%s) - s ))" | tee -a /tmp/o/steps.txt; }
step powm 150 $b/t --gtest_brief=1 --gtest_filter='WarpModVsGmp.*:DefaultPlan*:ProfileTarget*'
step memcheck 80 env BIGTUNE_TEST_VARIANTS=bgsqr.u32.q16.l8.w5 compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 99 $b/t --gtest_brief=1 --gtest_filter='WarpModVsGmp.PowmFullExponents'
step racecheck 80 env BIGTUNE_TEST_VARIANTS=bgsqr.u32.q16.l8.w6 compute-sanitizer --tool racecheck --report-api-errors no --error-exitcode 99 $b/t --gtest_brief=1 --gtest_filter='WarpModVsGmp.PowmFullExponents'
cat /tmp/o/steps.txt
grep -hE "cases|mismatch|FAILED|Failure|PASSED|q16" /tmp/o/powm.log | head -30
grep -hE "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" /tmp/o/memcheck.log /tmp/o/racecheck.log | tail -6
