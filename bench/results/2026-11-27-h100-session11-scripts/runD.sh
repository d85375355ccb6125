#!/usr/bin/env bash
# Session 11, run D (binaries in gpu-build/s11, commit in steps.txt): the new team shapes (q40 at
# 2.5 Kbit, q256 at 16 Kbit) against GMP; the default plans at 2-16 Kbit against GMP
# (PowmRegsVsGmp.DefaultPlan*: the team defaults at 2-8 Kbit, and the composed Barrett path that
# moved to mod_large_instances.cu at 16 Kbit); memcheck on the default team shapes (sizes to
# 2100 bits, 40-bit exponents); powm at 2304 / 2560 bits (full exponents) and 16384 bits
# (2048-bit exponents, the rate scaled, as sessions 7-8 measured 16 Kbit; GMP-16 likewise).
set -u
b=/tmp/lb; rm -rf /tmp/o; mkdir -p $b /tmp/o
for f in bigtune_gpu_tests bigtune-bench-mod; do xz -dc gpu-build/s11/$f.xz > $b/$f; chmod +x $b/$f; done
export BIGTUNE_TEST_SEED=20261143 BIGTUNE_DB=/tmp/runD-$$.db
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee /tmp/o/gpu.txt
cat gpu-build/s11/commit.txt >> /tmp/o/steps.txt
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > /tmp/o/$name.log 2>&1; local rc=$?; echo "$name rc=$rc s=$(( $(date +%s) - s ))" >> /tmp/o/steps.txt; }
t=$b/bigtune_gpu_tests; bm=$b/bigtune-bench-mod
step teams 150 env BIGTUNE_TEST_VARIANTS=q40.,q256. $t --gtest_brief=1 --gtest_filter='ModDfma.PowmOnFp64Teams*'
step defaults 150 $t --gtest_brief=1 --gtest_filter='PowmRegsVsGmp.DefaultPlan*'
step memcheck 100 env BIGTUNE_TEST_MAX_BITS=2100 BIGTUNE_TEST_VARIANTS=q40.t4,q48.t4,q64.t8,q96.t8,q128.t16 compute-sanitizer --tool memcheck --error-exitcode 99 $t --gtest_brief=1 --gtest_filter='ModDfma.PowmOnFp64Teams*'
step bench 120 bash -c "$bm --powm-bits 2304 2560 --only dfmat.u64.q40.t4.w6,dfmat.u64.q48.t4.w6,bgfixed.u32.q8.l16.w6 --reps 3 --no-mulmod --no-gmp --max-e-bits 2560; $bm --powm-bits 16384 --only dfmat.u64.q256.t16.w6,dfmat.u64.q256.t32.w6,bgsqr.u32.q16.l32.w6 --reps 3 --no-mulmod --max-e-bits 2048 --gmp-max-e-bits 2048"
cp /tmp/o/* $OUT/ 2>/dev/null
cat /tmp/o/steps.txt
grep -hE "FAILED|Failure" -A8 /tmp/o/teams.log /tmp/o/defaults.log | head -30
grep -hE "cases, .*mismatches|PASSED|FAILED|default plan" /tmp/o/teams.log /tmp/o/defaults.log /tmp/o/memcheck.log | tail -16
grep -hE "ERROR SUMMARY" /tmp/o/memcheck.log | tail -2
grep -vE "^$|device|^powm|bits variant" /tmp/o/bench.log
