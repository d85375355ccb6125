#!/usr/bin/env bash
# Session 8, call F (main ec86aa0 + mu by Algorithm D in the thread Barrett prep instead of bit by bit,
# uncommitted at the time; binaries in .carry/s8b): the thread mulmod/sqrmod GPU suites, memcheck, and
# the mulmod benchmark at 128-1024 bits (the thread variants against mul).
set -u
b=/tmp/lb; mkdir -p $b /tmp/o
for f in bigtune_gpu_tests bigtune-bench-mod; do xz -dc .carry/s8b/$f.xz > $b/$f; chmod +x $b/$f; done
export BIGTUNE_TEST_SEED=20261123 BIGTUNE_DB=/tmp/s8f-$$.db
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee /tmp/o/gpu.txt
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > /tmp/o/$name.log 2>&1; local rc=$?; echo "$name rc=$rc s=$(( $(date +%s) - s ))" | tee -a /tmp/o/steps.txt; }
t=$b/bigtune_gpu_tests; bm=$b/bigtune-bench-mod
step mulmod 60 $bm --powm-bits 64 --only none --no-gmp --mulmod-bits 128 256 512 1024 --reps 3
step sqrmod 60 $bm --powm-bits 64 --only none --no-gmp --mulmod-bits 128 256 512 --reps 3 --sqrmod
step modthread 120 env BIGTUNE_TEST_FAMILY=thread $t --gtest_brief=1 --gtest_filter='ModOps/*mulmod:ModOps/*sqrmod'
step defaults 60 $t --gtest_brief=1 --gtest_filter='*DefaultPlan*:ModDefault*'
step memcheck 90 env BIGTUNE_TEST_FAMILY=thread BIGTUNE_TEST_MAX_BITS=1100 compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 99 $t --gtest_brief=1 --gtest_filter='ModOps/*mulmod:ModOps/*sqrmod'
cp /tmp/o/* $OUT/ 2>/dev/null
cat /tmp/o/steps.txt
grep -hE "FAILED|Failure" /tmp/o/modthread.log /tmp/o/defaults.log | head -20
grep -hE "PASSED|SKIPPED|mismatch" /tmp/o/modthread.log /tmp/o/defaults.log | tail -20
grep -hE "ERROR SUMMARY|PASSED|FAILED" /tmp/o/memcheck.log | head
cat /tmp/o/mulmod.log /tmp/o/sqrmod.log | grep -vE "^powm|bits variant|^$|device"
