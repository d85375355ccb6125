#!/usr/bin/env bash
# Session 11, run G (binaries in gpu-build/s11, commit in steps.txt): after the review's refactor
# (dfma::add_row, launch_even_powm_pass; kernels' SASS unchanged, the even moduli's launch moved):
# the thread and team DFMA powm tests (the team test on the default shapes) and the 16 Kbit
# default plan test (team kernel; even moduli through the composed Barrett).
set -u
b=/tmp/lb; rm -rf /tmp/o; mkdir -p $b /tmp/o
xz -dc gpu-build/s11/bigtune_gpu_tests.xz > $b/bigtune_gpu_tests; chmod +x $b/bigtune_gpu_tests
export BIGTUNE_TEST_SEED=20261145 BIGTUNE_DB=/tmp/runG-$$.db
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee /tmp/o/gpu.txt
cat gpu-build/s11/commit.txt >> /tmp/o/steps.txt
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > /tmp/o/$name.log 2>&1; local rc=$?; echo "$name rc=$rc s=$(( $(date +%s) - s ))" >> /tmp/o/steps.txt; }
t=$b/bigtune_gpu_tests
step dfma 100 env BIGTUNE_TEST_VARIANTS=q40.t4,q64.t8,q128.t16,q256.t32 $t --gtest_brief=1 --gtest_filter='ModDfma.Powm*'
step p16k 50 $t --gtest_brief=1 --gtest_filter='PowmRegsVsGmp.DefaultPlan16Kbit'
cp /tmp/o/* $OUT/ 2>/dev/null
cat /tmp/o/steps.txt
grep -hE "cases, .*mismatches|default plan|PASSED|FAILED|Failure" /tmp/o/dfma.log /tmp/o/p16k.log | tail -12
