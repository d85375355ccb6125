#!/usr/bin/env bash
# Session 6, call 8: after the warp Montgomery finish() refactor: every suite, warp modular suites, sanitizers.
set -u
b=/tmp/lb; mkdir -p $b /tmp/o
xz -dc .carry/s6f/bigtune_gpu_tests.xz > $b/t; chmod +x $b/t
export BIGTUNE_TEST_SEED=20261127 BIGTUNE_DB=/tmp/s6f-$$.db
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > /tmp/o/$name.log 2>&1; local rc=$?; echo "$name rc=$rc s=$(( $(date +%s) - s ))" | tee -a /tmp/o/steps.txt; }
step all 170 env BIGTUNE_TEST_MAX_BITS=70000 $b/t --gtest_brief=1 --gtest_filter='-ModOps*'
step modwarp 90 env BIGTUNE_TEST_FAMILY=warp $b/t --gtest_brief=1 --gtest_filter='ModOps/*mulmod:ModOps/*sqrmod'
step memcheck 60 env BIGTUNE_TEST_VARIANTS=bgsqr.u32.q8.l8.w5,bgfixed.u32.q8.l4.w5,fixed.u32.q8.l4 compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 99 $b/t --gtest_brief=1 --gtest_filter='WarpModVsGmp.PowmFullExponents'
step racecheck 60 env BIGTUNE_TEST_VARIANTS=bgsqr.u32.q8.l8.w6,bmont.u32.q8.l4 compute-sanitizer --tool racecheck --report-api-errors no --error-exitcode 99 $b/t --gtest_brief=1 --gtest_filter='WarpModVsGmp.PowmFullExponents'
cat /tmp/o/steps.txt
grep -hE "cases|mismatch|FAILED|Failure|PASSED" /tmp/o/all.log | grep -E "powm|PASSED|FAILED|Failure|warp mul |divmod \]" | head
grep -hE "cases|mismatch|FAILED|PASSED|SUMMARY" /tmp/o/modwarp.log /tmp/o/memcheck.log /tmp/o/racecheck.log | head -20
