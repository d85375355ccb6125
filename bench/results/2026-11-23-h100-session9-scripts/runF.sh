#!/usr/bin/env bash
# Session 9, run F (binaries in .carry/s9), from the repository root: powm at 32 limbs on the FP64
# pipe (`powm.dfma.u32.q32.w5|w4`, kernels/modular/barrett_dfma.cuh): its GPU suites, memcheck, and
# powm at 1000-1024 bits with full exponents against the default (bgsqr.u32.q16.l2.w5).
set -u
b=/tmp/lb; rm -rf /tmp/o; mkdir -p $b /tmp/o
for f in bigtune_gpu_tests bigtune-bench-mod; do xz -dc .carry/s9/$f.xz > $b/$f; chmod +x $b/$f; done
export BIGTUNE_TEST_SEED=20261128 BIGTUNE_DB=/tmp/runF-$$.db
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee /tmp/o/gpu.txt
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > /tmp/o/$name.log 2>&1; local rc=$?; echo "$name rc=$rc s=$(( $(date +%s) - s ))" >> /tmp/o/steps.txt; }
t=$b/bigtune_gpu_tests; bm=$b/bigtune-bench-mod
step powm 150 $bm --powm-bits 1024 1000 --only dfma,bgsqr.u32.q16.l2.w5 --reps 3 --no-mulmod --no-gmp
step dfmatest 200 env BIGTUNE_TEST_VARIANTS=dfma $t --gtest_brief=1 --gtest_filter='ModOps/*powm:ModDfma*'
step memcheck 150 env BIGTUNE_TEST_VARIANTS=dfma BIGTUNE_TEST_MAX_BITS=1024 compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 99 $t --gtest_brief=1 --gtest_filter='ModOps/*powm'
cp /tmp/o/* $OUT/ 2>/dev/null
cat /tmp/o/steps.txt
grep -hE "FAILED|Failure" /tmp/o/dfmatest.log | head -20
grep -hE "PASSED|SKIPPED|mismatch|cases" /tmp/o/dfmatest.log | tail -12
grep -hE "ERROR SUMMARY|PASSED|FAILED" /tmp/o/memcheck.log | head
grep -vE "^$|device" /tmp/o/powm.log
