#!/usr/bin/env bash
# Session 10, run I (binaries in .carry/s10 from the review commit): the DFMA powm after the
# refactor (reduce_step, square_columns): ModDfma, ModOps thread DFMA, powm at 1024 / 2048 bits.
set -u
b=/tmp/lb; rm -rf /tmp/o; mkdir -p $b /tmp/o
for f in bigtune_gpu_tests bigtune-bench-mod; do xz -dc .carry/s10/$f.xz > $b/$f; chmod +x $b/$f; done
export BIGTUNE_TEST_SEED=20261136 BIGTUNE_DB=/tmp/runI-$$.db
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > /tmp/o/$name.log 2>&1; local rc=$?; echo "$name rc=$rc s=$(( $(date +%s) - s ))" >> /tmp/o/steps.txt; }
t=$b/bigtune_gpu_tests; bm=$b/bigtune-bench-mod
step dfmatest 120 $t --gtest_brief=1 --gtest_filter='ModDfma*'
step modthread 90 env BIGTUNE_TEST_FAMILY=thread BIGTUNE_TEST_VARIANTS=dfma $t --gtest_brief=1 --gtest_filter='ModOps/*mulmod:ModOps/*sqrmod:ModOps/*powm'
step powm 60 $bm --powm-bits 1024 2048 --only dfma.u64.q16.w5.sq,dfma.u64.q32.w6 --reps 3 --no-mulmod --no-gmp --min-count 67584
cp /tmp/o/* $OUT/ 2>/dev/null
cat /tmp/o/steps.txt
grep -hE "FAILED|Failure" /tmp/o/dfmatest.log /tmp/o/modthread.log | head -10
grep -hE "PASSED|mismatch|cases" /tmp/o/dfmatest.log /tmp/o/modthread.log | tail -8
grep -vE "^$|device|bits variant" /tmp/o/powm.log
