#!/usr/bin/env bash
# Session 12, run I (H100; run G's binaries, the final kernels): the team test at full size on
# q128.t16.w6 (and its .sq build), since run H put the plain build back as the 8 Kbit default.
set -u
b=/tmp/lb; mkdir -p $b; xz -dc gpu-build/s12/bin.tar.xz | tar -C $b -xf - bigtune_gpu_tests
export BIGTUNE_TEST_SEED=20261201
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 200 env BIGTUNE_TEST_VARIANTS=q128.t16.w6 $b/bigtune_gpu_tests --gtest_filter='ModDfma.PowmOnFp64Teams*' --gtest_brief=1 > $OUT/teams8k.log 2>&1
echo "rc=$?"
grep -E "cases, .* mismatches|PASSED|FAILED" $OUT/teams8k.log
