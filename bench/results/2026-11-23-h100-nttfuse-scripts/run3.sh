#!/usr/bin/env bash
# Session 8, task nttfuse, call 3 (branch nttfuse, commit in steps.txt): tests incl. .b2/.r80, sanitizers, powm where the defaults change.
set -u
b=/tmp/nf; mkdir -p $b
tar -C $b -xJf .carry/nttfuse/bins.tar.xz; chmod +x $b/*
export BIGTUNE_TEST_SEED=20261123 BIGTUNE_DB=$(mktemp -d)/t.db BIGTUNE_PROFILES=$PWD/profiles
o=$OUT
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > $o/$name.log 2>&1; local rc=$?; echo "$name rc=$rc s=$(( $(date +%s) - s ))" | tee -a $o/steps.txt; }
t=$b/bigtune_gpu_tests; m=$b/bigtune-bench-mod
step tests 60 $t --gtest_brief=1 --gtest_filter='NttBarrettVsGmp.*'
step memcheck 25 compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 99 $t --gtest_brief=1 --gtest_filter='NttBarrettVsGmp.SanitizerSized'
step racecheck 25 compute-sanitizer --tool racecheck --report-api-errors no --error-exitcode 99 $t --gtest_brief=1 --gtest_filter='NttBarrettVsGmp.SanitizerSized'
step p32 40 $m --powm-bits 32768 --only nttbarrett.u64.q1.w6 --reps 3 --min-count 2048 --probe-count 512 --no-mulmod --no-gmp
step p64 100 $m --powm-bits 36864 40960 49152 65536 --only powm.barrett.u64.q1.w6,w6.b2 --reps 3 --min-count 2048 --probe-count 512 --no-mulmod --no-gmp
step sqr 40 $b/bigtune-bench --ops sqr --defaults-only --reps 5 --min-log2-bits 15 --max-log2-bits 16
cat $o/steps.txt
grep -hE "^ *[0-9]+ (powm|GMP)" $o/p32.log $o/p64.log
grep -hE "sqr .*bits" $o/sqr.log | head -4
grep -hE "^\[ nttbarrett|FAILED|PASSED|Failure|want|got|ERROR SUMMARY|RACECHECK SUMMARY" $o/tests.log $o/memcheck.log $o/racecheck.log | cut -c1-300 | head -40
