#!/usr/bin/env bash
# Session 10, run B (binaries in .carry/s10, branch dfma-columns at a8cd236), from the repository
# root: the dfma variants' fallback with its own geometry (run A left per-instance results
# unwritten), the rolled mulmod (.r4 / .r5) and the DFMA Montgomery powm (.w4 / .w5 / .sq):
# ModDfma, the thread-family mulmod/sqrmod/powm suites, memcheck and racecheck (shared memory
# slots now), then mulmod/sqrmod at 1024 bits and powm at 1000 / 1024 bits against the default.
set -u
b=/tmp/lb; rm -rf /tmp/o; mkdir -p $b /tmp/o
for f in bigtune_gpu_tests bigtune-bench-mod; do xz -dc .carry/s10/$f.xz > $b/$f; chmod +x $b/$f; done
export BIGTUNE_TEST_SEED=20261131 BIGTUNE_DB=/tmp/runB-$$.db
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee /tmp/o/gpu.txt
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > /tmp/o/$name.log 2>&1; local rc=$?; echo "$name rc=$rc s=$(( $(date +%s) - s ))" >> /tmp/o/steps.txt; }
t=$b/bigtune_gpu_tests; bm=$b/bigtune-bench-mod
step dfmatest 120 $t --gtest_brief=1 --gtest_filter='ModDfma*'
step powm 150 $bm --powm-bits 1024 1000 --only dfma,bgsqr.u32.q16.l2.w5 --reps 3 --no-mulmod --no-gmp
step mulmod 60 $bm --powm-bits 64 --only none --no-gmp --mulmod-bits 1024 --reps 5
step sqrmod 40 $bm --powm-bits 64 --only none --no-gmp --mulmod-bits 1024 --reps 5 --sqrmod
step perinst 40 $bm --powm-bits 64 --only none --no-gmp --mulmod-bits 1024 --reps 3 --per-instance-moduli
step modthread 150 env BIGTUNE_TEST_FAMILY=thread $t --gtest_brief=1 --gtest_filter='ModOps/*mulmod:ModOps/*sqrmod:ModOps/*powm'
step memcheck 120 env BIGTUNE_TEST_VARIANTS=dfma compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 99 $t --gtest_brief=1 --gtest_filter='ModDfma*'
step racecheck 60 compute-sanitizer --tool racecheck --error-exitcode 99 $t --gtest_brief=1 --gtest_filter='ModDfma.Powm*'
cp /tmp/o/* $OUT/ 2>/dev/null
cat /tmp/o/steps.txt
grep -hE "FAILED|Failure" /tmp/o/dfmatest.log /tmp/o/modthread.log | head -10
grep -hE "PASSED|SKIPPED|mismatch|cases" /tmp/o/dfmatest.log /tmp/o/modthread.log | tail -12
grep -hE "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" /tmp/o/memcheck.log /tmp/o/racecheck.log | head
grep -vE "^$|device|bits variant" /tmp/o/powm.log
cat /tmp/o/mulmod.log /tmp/o/sqrmod.log /tmp/o/perinst.log | grep -vE "^$|device|^powm|bits variant"
