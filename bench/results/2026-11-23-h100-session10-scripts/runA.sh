#!/usr/bin/env bash
# Session 10, run A (binaries in .carry/s10), from the repository root: the DFMA Barrett
# mulmod/sqrmod in its own kernel (mulmod/sqrmod.dfma.u64.q16 and .b4, by columns, constants
# as a kernel parameter): its GPU test, the thread-family mulmod/sqrmod suites (every modulus
# kind: per-instance and even moduli take the wbarrett fallback), memcheck, and the
# mulmod/sqrmod tables at 989-1024 bits, shared and per-instance moduli.
set -u
b=/tmp/lb; rm -rf /tmp/o; mkdir -p $b /tmp/o
for f in bigtune_gpu_tests bigtune-bench-mod; do xz -dc .carry/s10/$f.xz > $b/$f; chmod +x $b/$f; done
export BIGTUNE_TEST_SEED=20261130 BIGTUNE_DB=/tmp/runA-$$.db
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee /tmp/o/gpu.txt
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > /tmp/o/$name.log 2>&1; local rc=$?; echo "$name rc=$rc s=$(( $(date +%s) - s ))" >> /tmp/o/steps.txt; }
t=$b/bigtune_gpu_tests; bm=$b/bigtune-bench-mod
step dfmatest 120 $t --gtest_brief=1 --gtest_filter='ModDfma*'
step mulmod 90 $bm --powm-bits 64 --only none --no-gmp --mulmod-bits 989 1000 1024 --reps 5
step sqrmod 60 $bm --powm-bits 64 --only none --no-gmp --mulmod-bits 1024 --reps 5 --sqrmod
step perinst 60 $bm --powm-bits 64 --only none --no-gmp --mulmod-bits 1024 --reps 3 --per-instance-moduli
step modthread 200 env BIGTUNE_TEST_FAMILY=thread $t --gtest_brief=1 --gtest_filter='ModOps/*mulmod:ModOps/*sqrmod'
step memcheck 150 env BIGTUNE_TEST_FAMILY=thread BIGTUNE_TEST_VARIANTS=dfma compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 99 $t --gtest_brief=1 --gtest_filter='ModOps/*mulmod:ModOps/*sqrmod:ModDfma*'
cp /tmp/o/* $OUT/ 2>/dev/null
cat /tmp/o/steps.txt
grep -hE "FAILED|Failure" /tmp/o/dfmatest.log /tmp/o/modthread.log | head -20
grep -hE "PASSED|SKIPPED|mismatch|cases" /tmp/o/dfmatest.log /tmp/o/modthread.log | tail -12
grep -hE "ERROR SUMMARY|PASSED|FAILED" /tmp/o/memcheck.log | head
cat /tmp/o/mulmod.log /tmp/o/sqrmod.log /tmp/o/perinst.log | grep -vE "^$|device|^powm|bits variant"
