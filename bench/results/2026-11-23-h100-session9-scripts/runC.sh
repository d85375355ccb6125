#!/usr/bin/env bash
# Session 9, run C (binaries in .carry/s9), from the repository root: the thread modular variants
# on 4 limbs for every op (powm, gcd, modinv, sqrt added to mulmod/sqrmod), the GPU suites whose
# harness moved to tests/gpu/mod_check.hpp (ModOps thread family, Barrett, NttBarrett, PowmRegs),
# memcheck on the 4-limb variants, powm at 65-128 bits on 4 and 8 limbs.
set -u
b=/tmp/lb; rm -rf /tmp/o; mkdir -p $b /tmp/o
for f in bigtune_gpu_tests bigtune-bench-mod; do xz -dc .carry/s9/$f.xz > $b/$f; chmod +x $b/$f; done
export BIGTUNE_TEST_SEED=20261126 BIGTUNE_DB=/tmp/runC-$$.db
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee /tmp/o/gpu.txt
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > /tmp/o/$name.log 2>&1; local rc=$?; echo "$name rc=$rc s=$(( $(date +%s) - s ))" >> /tmp/o/steps.txt; }
t=$b/bigtune_gpu_tests; bm=$b/bigtune-bench-mod
step powm 120 $bm --powm-bits 65 128 --only fixed.u32.q4,fixed.u32.q8 --no-mulmod --reps 3
step modthread 200 env BIGTUNE_TEST_FAMILY=thread $t --gtest_brief=1 --gtest_filter='ModOps/*'
step harness 240 $t --gtest_brief=1 --gtest_filter='BarrettVsGmp*:NttBarrettVsGmp*:PowmRegsVsGmp*'
step memcheck 150 env BIGTUNE_TEST_FAMILY=thread BIGTUNE_TEST_VARIANTS=q4 compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 99 $t --gtest_brief=1 --gtest_filter='ModOps/*'
cp /tmp/o/* $OUT/ 2>/dev/null
cat /tmp/o/steps.txt
grep -hE "FAILED|Failure" /tmp/o/modthread.log /tmp/o/harness.log | head -20
grep -hE "PASSED|SKIPPED|mismatch|cases" /tmp/o/modthread.log /tmp/o/harness.log | tail -24
grep -hE "ERROR SUMMARY|PASSED|FAILED" /tmp/o/memcheck.log | head
grep -vE "^$|device" /tmp/o/powm.log
