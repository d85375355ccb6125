#!/usr/bin/env bash
# Session 7, call A (merged main 02e1e09): every GPU suite, the warp modular suites, sanitizers on the new paths.
set -u
b=/tmp/lb; mkdir -p $b /tmp/o
for f in bigtune_gpu_tests bigtune-bench-mod bigtune; do xz -dc .carry/s7b/$f.xz > $b/$f; chmod +x $b/$f; done
export BIGTUNE_TEST_SEED=20261123 BIGTUNE_DB=/tmp/s7a-$$.db
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee /tmp/o/gpu.txt
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > /tmp/o/$name.log 2>&1; local rc=$?; echo "$name rc=$rc s=$(( $(date +%s) - s ))" | tee -a /tmp/o/steps.txt; }
t=$b/bigtune_gpu_tests
step all 330 env BIGTUNE_TEST_MAX_BITS=70000 $t --gtest_brief=1 --gtest_filter='-ModOps*'
step modwarp 90 env BIGTUNE_TEST_FAMILY=warp $t --gtest_brief=1 --gtest_filter='ModOps/*mulmod:ModOps/*sqrmod'
step memcheck16k 60 env BIGTUNE_TEST_MAX_BITS=300 compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 99 $t --gtest_brief=1 --gtest_filter='PowmRegsVsGmp.*'
step memcheck8k 50 env BIGTUNE_TEST_VARIANTS=bgsqr.u32.q16.l16.w6,bgsqr.u32.q16.l2.w5 BIGTUNE_TEST_MAX_BITS=1100 compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 99 $t --gtest_brief=1 --gtest_filter='WarpModVsGmp.Powm*'
cp /tmp/o/* $OUT/ 2>/dev/null
cat /tmp/o/steps.txt
grep -hE "FAILED|Failure" /tmp/o/all.log | head -20
grep -hE "PASSED|SKIPPED" /tmp/o/all.log /tmp/o/modwarp.log | head
grep -hE "ERROR SUMMARY|PASSED|FAILED" /tmp/o/memcheck16k.log /tmp/o/memcheck8k.log | head
