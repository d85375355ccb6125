#!/usr/bin/env bash
# Session 10, run F (binaries in .carry/s10: 29d7b2c + the 128-1536-bit DFMA powm shapes, committed
# next): their GPU tests (ModDfma), memcheck on the small shapes, and powm at 128-1536 bits against
# each size's default (whole waves for the 1536-bit shapes).
set -u
b=/tmp/lb; rm -rf /tmp/o; mkdir -p $b /tmp/o
for f in bigtune_gpu_tests bigtune-bench-mod; do xz -dc .carry/s10/$f.xz > $b/$f; chmod +x $b/$f; done
export BIGTUNE_TEST_SEED=20261134 BIGTUNE_DB=/tmp/runF-$$.db
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > /tmp/o/$name.log 2>&1; local rc=$?; echo "$name rc=$rc s=$(( $(date +%s) - s ))" >> /tmp/o/steps.txt; }
t=$b/bigtune_gpu_tests; bm=$b/bigtune-bench-mod
step dfmatest 150 $t --gtest_brief=1 --gtest_filter='ModDfma.Powm*'
step small 150 $bm --powm-bits 128 192 256 384 512 --only dfma.u64.q2.,dfma.u64.q4.,dfma.u64.q8.,fixed.u32.q4.w3,fixed.u32.q8.w4,fixed.u32.q16.w4 --reps 3 --no-mulmod --no-gmp
step large 150 $bm --powm-bits 1152 1280 1536 --only dfma.u64.q24,bgfixed.u32.q8.l8.w6 --min-count 67584 --reps 3 --no-mulmod --no-gmp
step memcheck 120 env BIGTUNE_TEST_FAMILY=thread BIGTUNE_TEST_VARIANTS=dfma.u64.q2.,dfma.u64.q4.,dfma.u64.q8. compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 99 $t --gtest_brief=1 --gtest_filter='ModOps/*powm'
cp /tmp/o/* $OUT/ 2>/dev/null
cat /tmp/o/steps.txt
grep -hE "FAILED|Failure" /tmp/o/dfmatest.log | head -10
grep -hE "PASSED|mismatch|cases" /tmp/o/dfmatest.log | tail -4
grep -hE "ERROR SUMMARY|PASSED|FAILED|mismatch" /tmp/o/memcheck.log | head
grep -vhE "^$|device|bits variant" /tmp/o/small.log /tmp/o/large.log
