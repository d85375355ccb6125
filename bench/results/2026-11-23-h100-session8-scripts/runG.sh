#!/usr/bin/env bash
# Session 8, call G (main f572faa's binaries, the last device-code change; .carry/s8b): every GPU
# suite again, the thread-family powm suites (their shared-modulus prep kernel now also sets up the
# Barrett constants), memcheck on the thread modular kernels.
set -u
b=/tmp/lb; mkdir -p $b /tmp/o
for f in bigtune_gpu_tests; do xz -dc .carry/s8b/$f.xz > $b/$f; chmod +x $b/$f; done
export BIGTUNE_TEST_SEED=20261123 BIGTUNE_DB=/tmp/s8g-$$.db
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee /tmp/o/gpu.txt
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > /tmp/o/$name.log 2>&1; local rc=$?; echo "$name rc=$rc s=$(( $(date +%s) - s ))" | tee -a /tmp/o/steps.txt; }
t=$b/bigtune_gpu_tests
step modthread 150 env BIGTUNE_TEST_FAMILY=thread $t --gtest_brief=1 --gtest_filter='ModOps/*'
step all 240 env BIGTUNE_TEST_MAX_BITS=70000 $t --gtest_brief=1 --gtest_filter='-ModOps*'
step memcheck 90 env BIGTUNE_TEST_FAMILY=thread BIGTUNE_TEST_MAX_BITS=600 compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 99 $t --gtest_brief=1 --gtest_filter='ModOps/*powm:ModOps/*mulmod'
cp /tmp/o/* $OUT/ 2>/dev/null
cat /tmp/o/steps.txt
grep -hE "FAILED|Failure" /tmp/o/modthread.log /tmp/o/all.log | head -20
grep -hE "PASSED|SKIPPED|mismatch" /tmp/o/modthread.log /tmp/o/all.log | tail -12
grep -hE "ERROR SUMMARY|PASSED|FAILED" /tmp/o/memcheck.log | head
