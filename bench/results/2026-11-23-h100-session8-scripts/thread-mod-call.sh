#!/usr/bin/env bash
# Session 8, calls B-F (thread mulmod/sqrmod; binaries in .carry/s8b), run from the repository root:
#   thread-mod-call.sh TAG "MULMOD BITS" "SQRMOD BITS"
# the thread-family mulmod/sqrmod GPU suites, the default-plan suites, memcheck on the thread
# mulmod/sqrmod, and the mulmod / sqrmod benchmark at the given sizes (each call's run*.sh says which).
set -u
b=/tmp/lb; mkdir -p $b /tmp/o
for f in bigtune_gpu_tests bigtune-bench-mod; do xz -dc .carry/s8b/$f.xz > $b/$f; chmod +x $b/$f; done
export BIGTUNE_TEST_SEED=20261123 BIGTUNE_DB=/tmp/$1-$$.db
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee /tmp/o/gpu.txt
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > /tmp/o/$name.log 2>&1; local rc=$?; echo "$name rc=$rc s=$(( $(date +%s) - s ))" | tee -a /tmp/o/steps.txt; }
t=$b/bigtune_gpu_tests; bm=$b/bigtune-bench-mod
step mulmod 60 $bm --powm-bits 64 --only none --no-gmp --mulmod-bits $2 --reps 3
step sqrmod 60 $bm --powm-bits 64 --only none --no-gmp --mulmod-bits $3 --reps 3 --sqrmod
step modthread 120 env BIGTUNE_TEST_FAMILY=thread $t --gtest_brief=1 --gtest_filter='ModOps/*mulmod:ModOps/*sqrmod'
step defaults 60 $t --gtest_brief=1 --gtest_filter='*DefaultPlan*:ModDefault*'
step memcheck 90 env BIGTUNE_TEST_FAMILY=thread BIGTUNE_TEST_MAX_BITS=1100 compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 99 $t --gtest_brief=1 --gtest_filter='ModOps/*mulmod:ModOps/*sqrmod'
cp /tmp/o/* $OUT/ 2>/dev/null
cat /tmp/o/steps.txt
grep -hE "FAILED|Failure" /tmp/o/modthread.log /tmp/o/defaults.log | head -20
grep -hE "PASSED|SKIPPED|mismatch" /tmp/o/modthread.log /tmp/o/defaults.log | tail -20
grep -hE "ERROR SUMMARY|PASSED|FAILED" /tmp/o/memcheck.log | head
cat /tmp/o/mulmod.log /tmp/o/sqrmod.log | grep -vE "^powm|bits variant|^$|device"
