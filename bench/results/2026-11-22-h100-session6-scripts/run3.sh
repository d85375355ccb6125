#!/usr/bin/env bash
# Session 6, call 3: after the AddSubForms and wlow-shape refactors (7f40d20): the division and warp product suites.
set -u
b=/tmp/lb; mkdir -p $b /tmp/o
xz -dc .carry/s6c/bigtune_gpu_tests.xz > $b/bigtune_gpu_tests; chmod +x $b/bigtune_gpu_tests
export BIGTUNE_TEST_SEED=20261124 BIGTUNE_DB=/tmp/lead-s6c-$$.db
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > /tmp/o/$name.log 2>&1; local rc=$?; echo "$name rc=$rc s=$(( $(date +%s) - s ))" | tee -a /tmp/o/steps.txt; }
step tests-all 170 env BIGTUNE_TEST_MAX_BITS=70000 $b/bigtune_gpu_tests --gtest_brief=1 --gtest_filter='-ModOps*'
step memcheck 50 env BIGTUNE_TEST_MAX_BITS=1100 compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 99 $b/bigtune_gpu_tests --gtest_brief=1 --gtest_filter='DivNewtoncVsGmp*:AllOps/*divmod*:WarpKaraLow*'
step racecheck 60 env BIGTUNE_TEST_MAX_BITS=1100 compute-sanitizer --tool racecheck --report-api-errors no --error-exitcode 99 $b/bigtune_gpu_tests --gtest_brief=1 --gtest_filter='DivNewtoncVsGmp*'
cp /tmp/o/*.log /tmp/o/steps.txt $OUT/
cat /tmp/o/steps.txt
grep -hE "cases|mismatch|FAILED|Failure|PASSED" /tmp/o/tests-all.log | head -70
grep -hE "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" /tmp/o/memcheck.log /tmp/o/racecheck.log | tail -6
