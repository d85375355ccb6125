#!/usr/bin/env bash
# Session 11, run A (binaries in gpu-build/s11 from the commit named in steps.txt): the team DFMA
# powm (powm.dfmat.*) against GMP, memcheck and racecheck on it (sizes to 4096 bits, 40-bit
# exponents), then powm at 4096 / 8192 bits with full exponents: the team variants against the
# warp defaults (bgsqr q16.l8 / q16.l16).
set -u
b=/tmp/lb; rm -rf /tmp/o; mkdir -p $b /tmp/o
for f in bigtune_gpu_tests bigtune-bench-mod; do xz -dc gpu-build/s11/$f.xz > $b/$f; chmod +x $b/$f; done
export BIGTUNE_TEST_SEED=20261140 BIGTUNE_DB=/tmp/runA-$$.db
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee /tmp/o/gpu.txt
cat gpu-build/s11/commit.txt >> /tmp/o/steps.txt
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > /tmp/o/$name.log 2>&1; local rc=$?; echo "$name rc=$rc s=$(( $(date +%s) - s ))" >> /tmp/o/steps.txt; }
t=$b/bigtune_gpu_tests; bm=$b/bigtune-bench-mod
step teams 200 $t --gtest_brief=1 --gtest_filter='ModDfma.PowmOnFp64Teams*'
step bench4k 120 $bm --powm-bits 4096 --only dfmat.u64.q64.t4.w6,dfmat.u64.q64.t8.w6,bgsqr.u32.q16.l8.w6 --reps 3 --no-mulmod --no-gmp --max-e-bits 4096
step bench8k 150 $bm --powm-bits 8192 --only dfmat.u64.q128.t8.w6,dfmat.u64.q128.t16.w6,bgsqr.u32.q16.l16.w6 --reps 3 --no-mulmod --no-gmp --max-e-bits 8192
step memcheck 150 env BIGTUNE_TEST_MAX_BITS=4096 compute-sanitizer --tool memcheck --error-exitcode 99 $t --gtest_brief=1 --gtest_filter='ModDfma.PowmOnFp64Teams*'
step racecheck 150 env BIGTUNE_TEST_MAX_BITS=2100 compute-sanitizer --tool racecheck --error-exitcode 99 $t --gtest_brief=1 --gtest_filter='ModDfma.PowmOnFp64Teams*'
cp /tmp/o/* $OUT/ 2>/dev/null
cat /tmp/o/steps.txt
grep -hE "FAILED|Failure" -A8 /tmp/o/teams.log | head -30
grep -hE "cases, .*mismatches|PASSED|FAILED" /tmp/o/teams.log | tail -4
grep -hE "ERROR SUMMARY|RACECHECK SUMMARY|mismatches" /tmp/o/memcheck.log /tmp/o/racecheck.log | tail -4
cat /tmp/o/bench*.log | grep -vE "^$|device"
