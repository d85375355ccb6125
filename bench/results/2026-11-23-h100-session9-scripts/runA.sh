#!/usr/bin/env bash
# Session 9, run A (binaries in .carry/s9), from the repository root: the 64-bit modular
# variants (mulmod/sqrmod/powm .preinv.u64.q1): their GPU suites against GMP, memcheck on them,
# the default-plan suites, and the benchmark at 64 bits (mulmod and sqrmod against mul and sqr,
# powm against the 32-bit thread kernels and GMP).
set -u
b=/tmp/lb; mkdir -p $b /tmp/o
for f in bigtune_gpu_tests bigtune-bench-mod; do xz -dc .carry/s9/$f.xz > $b/$f; chmod +x $b/$f; done
export BIGTUNE_TEST_SEED=20261124 BIGTUNE_DB=/tmp/runA-$$.db
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee /tmp/o/gpu.txt
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > /tmp/o/$name.log 2>&1; local rc=$?; echo "$name rc=$rc s=$(( $(date +%s) - s ))" | tee -a /tmp/o/steps.txt; }
t=$b/bigtune_gpu_tests; bm=$b/bigtune-bench-mod
step mod64 120 env BIGTUNE_TEST_VARIANTS=preinv $t --gtest_brief=1 --gtest_filter='ModOps/*mulmod:ModOps/*sqrmod:ModOps/*powm'
step defaults 90 $t --gtest_brief=1 --gtest_filter='*DefaultPlan*:ModDefault*'
step memcheck 120 env BIGTUNE_TEST_VARIANTS=preinv compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 99 $t --gtest_brief=1 --gtest_filter='ModOps/*mulmod:ModOps/*sqrmod:ModOps/*powm'
step mulmod 90 $bm --powm-bits 64 --only none --no-gmp --mulmod-bits 32 64 128 --reps 5
step sqrmod 90 $bm --powm-bits 64 --only none --no-gmp --mulmod-bits 32 64 128 --reps 5 --sqrmod
step powm 120 $bm --powm-bits 32 64 --only preinv,fixed.u32.q8,fixed.u32.q4 --no-mulmod --reps 3
cp /tmp/o/* $OUT/ 2>/dev/null
cat /tmp/o/steps.txt
grep -hE "FAILED|Failure" /tmp/o/mod64.log /tmp/o/defaults.log | head -20
grep -hE "PASSED|SKIPPED|mismatch|cases" /tmp/o/mod64.log /tmp/o/defaults.log | tail -20
grep -hE "ERROR SUMMARY|PASSED|FAILED" /tmp/o/memcheck.log | head
cat /tmp/o/mulmod.log /tmp/o/sqrmod.log /tmp/o/powm.log | grep -vE "bits variant|^$|device"
