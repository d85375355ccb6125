#!/usr/bin/env bash
# Session 8, task nttfuse, call 2 (branch nttfuse d7fb93c): tests, sanitizers, powm 16-64 Kbit with GMP.
set -u
b=/tmp/nf; mkdir -p $b
for f in bigtune_gpu_tests bigtune-bench-mod; do xz -dc .carry/nttfuse/$f.xz > $b/$f; chmod +x $b/$f; done
export BIGTUNE_TEST_SEED=20261123 BIGTUNE_DB=$(mktemp -d)/t.db BIGTUNE_PROFILES=$PWD/profiles
o=$OUT
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > $o/$name.log 2>&1; local rc=$?; echo "$name rc=$rc s=$(( $(date +%s) - s ))" | tee -a $o/steps.txt; }
t=$b/bigtune_gpu_tests; m=$b/bigtune-bench-mod
step tests 75 $t --gtest_brief=1 --gtest_filter='NttBarrettVsGmp.*'
step memcheck 25 compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 99 $t --gtest_brief=1 --gtest_filter='NttBarrettVsGmp.SanitizerSized'
step racecheck 25 compute-sanitizer --tool racecheck --report-api-errors no --error-exitcode 99 $t --gtest_brief=1 --gtest_filter='NttBarrettVsGmp.SanitizerSized'
step nttmul 40 $t --gtest_brief=1 --gtest_filter='MulSqr/NttVsGmp.*'
step pbig 120 $m --powm-bits 16384 32768 65536 --only nttbarrett.u64.q1.w6,barrett.u64.q1.w6 --reps 3 --min-count 2048 --probe-count 512 --no-mulmod
cat $o/steps.txt
grep -hE "^ *[0-9]+ (powm|GMP)" $o/pbig.log
grep -hE "^\[ nttbarrett|^\[ *ntt|FAILED|PASSED|Failure|want|got|ERROR SUMMARY|RACECHECK SUMMARY" $o/tests.log $o/memcheck.log $o/racecheck.log $o/nttmul.log | cut -c1-300 | head -40
