#!/usr/bin/env bash
# Session 10, run G (binaries in .carry/s10 from 2dc27fb, the final kernels and defaults):
# every GPU suite but ModOps (sizes to 70,000 bits), ModOps on the thread family's powm (every
# DFMA shape), `bigtune check` at 100-2048 bits (the default plans against GMP), and powm on
# each size's new default with GMP-16.
set -u
b=/tmp/lb; rm -rf /tmp/o; mkdir -p $b /tmp/o
for f in bigtune_gpu_tests bigtune-bench-mod bigtune; do xz -dc .carry/s10/$f.xz > $b/$f; chmod +x $b/$f; done
export BIGTUNE_TEST_SEED=20261135 BIGTUNE_DB=/tmp/runG-$$.db
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee /tmp/o/gpu.txt
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > /tmp/o/$name.log 2>&1; local rc=$?; echo "$name rc=$rc s=$(( $(date +%s) - s ))" >> /tmp/o/steps.txt; }
t=$b/bigtune_gpu_tests; bm=$b/bigtune-bench-mod
step all 280 env BIGTUNE_TEST_MAX_BITS=70000 $t --gtest_brief=1 --gtest_filter='-ModOps*'
step modthread 90 env BIGTUNE_TEST_FAMILY=thread BIGTUNE_TEST_VARIANTS=dfma $t --gtest_brief=1 --gtest_filter='ModOps/*'
step check 100 $b/bigtune check --bits 100 256 700 1024 1500 2048
for pair in 128:q2.w3.sq 256:q4.w4.sq 512:q8.w4.sq 1024:q16.w5.sq 1536:q24.w6 2048:q32.w6; do
  step powm${pair%%:*} 40 $bm --powm-bits ${pair%%:*} --only dfma.u64.${pair#*:} --reps 3 --no-mulmod --min-count 67584
done
cp /tmp/o/* $OUT/ 2>/dev/null
cat /tmp/o/steps.txt
grep -hE "FAILED|Failure" /tmp/o/all.log /tmp/o/modthread.log | head -20
grep -hE "PASSED|SKIPPED|FAILED" /tmp/o/all.log /tmp/o/modthread.log | tail -6
grep -hE "mismatch" /tmp/o/modthread.log | tail -8
grep -cE " ok" /tmp/o/check.log; grep -vE " ok" /tmp/o/check.log | tail -8
cat /tmp/o/powm*.log | grep -vE "^$|device|bits variant|^powm"
