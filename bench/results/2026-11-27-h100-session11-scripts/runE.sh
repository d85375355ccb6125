#!/usr/bin/env bash
# Session 11, run E (binaries in gpu-build/s11, commit in steps.txt): memcheck on every team DFMA
# powm variant (sizes to 2100 bits, 40-bit exponents, shared odd moduli and m = 1: the quick
# mode of ModDfma.PowmOnFp64TeamsMatchesGmp), then the same test without a sanitizer.
set -u
b=/tmp/lb; rm -rf /tmp/o; mkdir -p $b /tmp/o
xz -dc gpu-build/s11/bigtune_gpu_tests.xz > $b/bigtune_gpu_tests; chmod +x $b/bigtune_gpu_tests
export BIGTUNE_TEST_SEED=20261144 BIGTUNE_DB=/tmp/runE-$$.db
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee /tmp/o/gpu.txt
cat gpu-build/s11/commit.txt >> /tmp/o/steps.txt
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > /tmp/o/$name.log 2>&1; local rc=$?; echo "$name rc=$rc s=$(( $(date +%s) - s ))" >> /tmp/o/steps.txt; }
t=$b/bigtune_gpu_tests
step memcheck 270 env BIGTUNE_TEST_MAX_BITS=2100 compute-sanitizer --tool memcheck --error-exitcode 99 $t --gtest_brief=1 --gtest_filter='ModDfma.PowmOnFp64Teams*'
step quick 60 env BIGTUNE_TEST_MAX_BITS=2100 $t --gtest_brief=1 --gtest_filter='ModDfma.PowmOnFp64Teams*'
cp /tmp/o/* $OUT/ 2>/dev/null
cat /tmp/o/steps.txt
grep -hE "cases, .*mismatches|PASSED|FAILED|ERROR SUMMARY" /tmp/o/memcheck.log /tmp/o/quick.log | tail -8
