#!/usr/bin/env bash
# Session 10, run E (same binaries as run D, 29d7b2c): the 2048-bit DFMA powm on whole waves
# (64-thread blocks, 4 an SM: 33792 instances a wave; run D's batches left a partial or a nearly
# empty second wave) against the warp default at 1792-2048 bits; memcheck on its ModOps cases.
set -u
b=/tmp/lb; rm -rf /tmp/o; mkdir -p $b /tmp/o
for f in bigtune_gpu_tests bigtune-bench-mod; do xz -dc .carry/s10/$f.xz > $b/$f; chmod +x $b/$f; done
export BIGTUNE_TEST_SEED=20261133 BIGTUNE_DB=/tmp/runE-$$.db
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > /tmp/o/$name.log 2>&1; local rc=$?; echo "$name rc=$rc s=$(( $(date +%s) - s ))" >> /tmp/o/steps.txt; }
t=$b/bigtune_gpu_tests; bm=$b/bigtune-bench-mod
step powm 240 $bm --powm-bits 1792 1920 2048 --only dfma.u64.q32.w6,bgsqr.u32.q8.l8.w6,bgfixed.u32.q8.l8.w6 --min-count 67584 --reps 3 --no-mulmod --no-gmp
step memcheck 300 env BIGTUNE_TEST_FAMILY=thread BIGTUNE_TEST_VARIANTS=dfma.u64.q32.w6 compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 99 $t --gtest_brief=1 --gtest_filter='ModOps/*powm'
cp /tmp/o/* $OUT/ 2>/dev/null
cat /tmp/o/steps.txt
grep -hE "ERROR SUMMARY|PASSED|FAILED|mismatch" /tmp/o/memcheck.log | head
grep -vE "^$|device|bits variant" /tmp/o/powm.log
