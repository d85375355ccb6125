#!/usr/bin/env bash
# Session 16, run D (H100): gpu-build/s35 again (main at ef8e3ce); run C's test step had run
# ModDfma.* whole, whose 16-Kbit team powm against GMP's full exponents took it past its limit.
# The tests this session touched, by name, and memcheck on the warp-tile mulmod.
set -u
b=/tmp/s35; mkdir -p $b
xz -dc gpu-build/s35/bin.tar.xz | tar -C $b -xf -
export BIGTUNE_DB=$(mktemp -d)/t.db BIGTUNE_TEST_SEED=20261229
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $OUT/gpu.txt
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > $OUT/$name.log 2>&1; echo "$name rc=$? s=$(( $(date +%s) - s ))" >> $OUT/steps.txt; }
step tests 200 $b/bigtune_gpu_tests --gtest_filter='ModDfma.BarrettOnFp64MatchesGmp:ModDfma.WarpTilesUnalignedRunUntiled:ModDefaultPlan.*:GpuErrors.*:NttBarrettVsGmp.*:NttMontVsGmp.RefusedModuliRunBarrett' --gtest_brief=1
step memcheck 120 compute-sanitizer --tool memcheck --print-limit 20 $b/bigtune_gpu_tests --gtest_filter='ModDfma.WarpTilesUnalignedRunUntiled:ModDfma.BarrettOnFp64MatchesGmp' --gtest_brief=1
(cat $OUT/gpu.txt $OUT/steps.txt
 grep -hE "instances, .* mismatches|cases, .* mismatches|PASSED|FAILED|ERROR SUMMARY" $OUT/tests.log $OUT/memcheck.log | sort | uniq -c
 grep -hE "Failure|want|got" $OUT/tests.log | head -12) > $OUT/summary.txt
cat $OUT/summary.txt
