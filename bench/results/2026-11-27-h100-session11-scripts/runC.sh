#!/usr/bin/env bash
# Session 11, run C: run B again after the fallback fix (q48 / q96 were refused), without the
# sizes run B measured: the GPU test of every shape, memcheck and racecheck, powm at 2560,
# 3072 and 6144 bits.
set -u
b=/tmp/lb; rm -rf /tmp/o; mkdir -p $b /tmp/o
for f in bigtune_gpu_tests bigtune-bench-mod; do xz -dc gpu-build/s11/$f.xz > $b/$f; chmod +x $b/$f; done
export BIGTUNE_TEST_SEED=20261142 BIGTUNE_DB=/tmp/runC-$$.db
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee /tmp/o/gpu.txt
cat gpu-build/s11/commit.txt >> /tmp/o/steps.txt
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > /tmp/o/$name.log 2>&1; local rc=$?; echo "$name rc=$rc s=$(( $(date +%s) - s ))" >> /tmp/o/steps.txt; }
t=$b/bigtune_gpu_tests; bm=$b/bigtune-bench-mod
step teams 240 $t --gtest_brief=1 --gtest_filter='ModDfma.PowmOnFp64Teams*'
step memcheck 120 env BIGTUNE_TEST_MAX_BITS=2100 compute-sanitizer --tool memcheck --error-exitcode 99 $t --gtest_brief=1 --gtest_filter='ModDfma.PowmOnFp64Teams*'
pw() { step bench$1 $2 $bm --powm-bits $1 --only $3 --reps 3 --no-mulmod --no-gmp --max-e-bits $1; }
step racecheck 120 env BIGTUNE_TEST_MAX_BITS=2100 compute-sanitizer --tool racecheck --error-exitcode 99 $t --gtest_brief=1 --gtest_filter="ModDfma.PowmOnFp64Teams*"
pw 2560 60 dfmat.u64.q48.t4.w6,dfmat.u64.q48.t8.w6,dfmat.u64.q64.t8.w6,bgfixed.u32.q8.l16.w6
pw 3072 60 dfmat.u64.q48.t4.w6,dfmat.u64.q48.t8.w6,dfmat.u64.q64.t8.w6,bgfixed.u32.q8.l16.w6
pw 6144 90 dfmat.u64.q96.t8.w6,dfmat.u64.q96.t16.w6,dfmat.u64.q128.t16.w6,bgfixed.u32.q8.l32.w6
cp /tmp/o/* $OUT/ 2>/dev/null
cat /tmp/o/steps.txt
grep -hE "FAILED|Failure" -A8 /tmp/o/teams.log | head -30
grep -hE "cases, .*mismatches|PASSED|FAILED" /tmp/o/teams.log /tmp/o/memcheck.log | tail -4
grep -hE "ERROR SUMMARY|RACECHECK SUMMARY" /tmp/o/memcheck.log /tmp/o/racecheck.log | tail -2
cat /tmp/o/bench*.log | grep -vE "^$|device|^powm|bits variant"
