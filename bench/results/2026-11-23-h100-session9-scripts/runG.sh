#!/usr/bin/env bash
# Session 9, run G (binaries in .carry/s9: the final kernels), from the repository root: every GPU
# suite (sizes to 70,000 bits) but ModOps, ModOps on the thread family (every op), `bigtune check`
# on the default plans, memcheck on the session's new kernels (preinv, q4, q32 DFMA), and the
# mulmod / sqrmod tables 64-2048 bits and powm 64-128 bits on the default plans.
set -u
b=/tmp/lb; rm -rf /tmp/o; mkdir -p $b /tmp/o
for f in bigtune_gpu_tests bigtune-bench-mod bigtune; do xz -dc .carry/s9/$f.xz > $b/$f; chmod +x $b/$f; done
export BIGTUNE_TEST_SEED=20261129 BIGTUNE_DB=/tmp/runG-$$.db
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee /tmp/o/gpu.txt
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > /tmp/o/$name.log 2>&1; local rc=$?; echo "$name rc=$rc s=$(( $(date +%s) - s ))" >> /tmp/o/steps.txt; }
t=$b/bigtune_gpu_tests; bm=$b/bigtune-bench-mod
step all 330 env BIGTUNE_TEST_MAX_BITS=70000 $t --gtest_brief=1 --gtest_filter='-ModOps*'
step modthread 120 env BIGTUNE_TEST_FAMILY=thread $t --gtest_brief=1 --gtest_filter='ModOps/*'
step check 120 $b/bigtune check
step memcheck 150 env BIGTUNE_TEST_FAMILY=thread BIGTUNE_TEST_VARIANTS=preinv,q4,q32 BIGTUNE_TEST_MAX_BITS=1024 compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 99 $t --gtest_brief=1 --gtest_filter='ModOps/*:ModDfma*'
step mulmod 90 $bm --powm-bits 64 128 --only preinv,fixed.u32.q4.w3 --no-gmp --mulmod-bits 64 128 256 512 1024 2048 --reps 5
step sqrmod 60 $bm --powm-bits 64 --only none --no-gmp --mulmod-bits 64 128 256 512 1024 2048 --reps 5 --sqrmod
cp /tmp/o/* $OUT/ 2>/dev/null
cat /tmp/o/steps.txt
grep -hE "FAILED|Failure" /tmp/o/all.log /tmp/o/modthread.log | head -20
grep -hE "PASSED|SKIPPED|FAILED" /tmp/o/all.log /tmp/o/modthread.log | tail -6
grep -hE "mismatch" /tmp/o/modthread.log | tail -8
tail -4 /tmp/o/check.log
grep -hE "ERROR SUMMARY|PASSED|FAILED" /tmp/o/memcheck.log | head
grep -hE "^ +[0-9]+ " /tmp/o/mulmod.log /tmp/o/sqrmod.log
