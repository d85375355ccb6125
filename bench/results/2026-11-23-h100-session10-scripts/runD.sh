#!/usr/bin/env bash
# Session 10, run D (binaries in .carry/s10): the 2048-bit DFMA Montgomery powm (SOS forms,
# powm.dfma.u64.q32.*) and the generic 1 Kbit kernels: ModDfma, the thread-family powm suite,
# memcheck and racecheck, then powm at 1024-2048 bits against the defaults.
set -u
b=/tmp/lb; rm -rf /tmp/o; mkdir -p $b /tmp/o
for f in bigtune_gpu_tests bigtune-bench-mod; do xz -dc .carry/s10/$f.xz > $b/$f; chmod +x $b/$f; done
export BIGTUNE_TEST_SEED=20261132 BIGTUNE_DB=/tmp/runD-$$.db
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee /tmp/o/gpu.txt
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > /tmp/o/$name.log 2>&1; local rc=$?; echo "$name rc=$rc s=$(( $(date +%s) - s ))" >> /tmp/o/steps.txt; }
t=$b/bigtune_gpu_tests; bm=$b/bigtune-bench-mod
step dfmatest 150 $t --gtest_brief=1 --gtest_filter='ModDfma*'
step powm 200 $bm --powm-bits 1024 1536 1792 2048 --only dfma.u64.q16.w5.sq,dfma.u64.q32,bgsqr.u32.q8.l8.w6,bgfixed.u32.q8.l8.w6 --reps 3 --no-mulmod --no-gmp
step modthread 150 env BIGTUNE_TEST_FAMILY=thread BIGTUNE_TEST_VARIANTS=dfma $t --gtest_brief=1 --gtest_filter='ModOps/*powm'
step memcheck 150 compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 99 $t --gtest_brief=1 --gtest_filter='ModDfma.Powm*'
cp /tmp/o/* $OUT/ 2>/dev/null
cat /tmp/o/steps.txt
grep -hE "FAILED|Failure" /tmp/o/dfmatest.log /tmp/o/modthread.log | head -10
grep -hE "PASSED|SKIPPED|mismatch|cases" /tmp/o/dfmatest.log /tmp/o/modthread.log | tail -8
grep -hE "ERROR SUMMARY|PASSED|FAILED" /tmp/o/memcheck.log | head
grep -vE "^$|device|bits variant" /tmp/o/powm.log
