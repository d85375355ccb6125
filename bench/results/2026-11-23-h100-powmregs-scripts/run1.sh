#!/bin/bash
# powmregs GPU run 1: bench (first: the point), GMP tests, sanitizers. Each step time-boxed.
set -u
C=.carry/powmregs
T0=$(date +%s)
el() { echo "[+$(( $(date +%s) - T0 ))s] $*"; }
(cd $C && xz -d -T4 bigtune_gpu_tests.xz bigtune-bench-mod.xz && chmod +x bigtune_gpu_tests bigtune-bench-mod)
export BIGTUNE_DB=$(mktemp -d)/t.db
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv > $OUT/gpu.txt 2>&1
B="$C/bigtune-bench-mod --no-mulmod --reps 3 --target-ms 1"
{
el 2048; timeout 40 $B --powm-bits 2048 --only bgsqr,bgfixed.u32.q8.l8.w6 --probe-count 1024 --min-count 126720
el 4096; timeout 40 $B --powm-bits 4096 --only q8.l16.w6,q16.l8.w6 --probe-count 1024 --min-count 63360
el 8192; timeout 50 $B --powm-bits 8192 --only q8.l32.w6,q16.l16.w6 --probe-count 512 --min-count 31680 --gmp-max-e-bits 2048
el 16384; timeout 25 $B --powm-bits 16384 --only bgsqr --probe-count 256 --min-count 3168 --gmp-max-e-bits 2048
el 16384b; timeout 15 $B --powm-bits 16384 --only barrett --no-gmp --probe-count 256 --min-count 2048
el done
} > $OUT/bench.log 2>&1
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv >> $OUT/gpu.txt 2>&1
export BIGTUNE_TEST_VARIANTS=t128b
el tests > $OUT/tests.log
timeout 75 $C/bigtune_gpu_tests --gtest_filter='PowmRegsVsGmp.*:WarpModVsGmp.PowmFullExponents' >> $OUT/tests.log 2>&1; echo "rc $?" >> $OUT/tests.log
el memcheck > $OUT/memcheck.log
BIGTUNE_TEST_MAX_BITS=300 BIGTUNE_TEST_VARIANTS=q16.l8.w6.t128b3,q8.l8.w6.t128b5,q16.l32 timeout 45 compute-sanitizer --tool memcheck --report-api-errors no $C/bigtune_gpu_tests --gtest_filter='PowmRegsVsGmp.*' >> $OUT/memcheck.log 2>&1; echo "rc $?" >> $OUT/memcheck.log
el racecheck > $OUT/racecheck.log
BIGTUNE_TEST_MAX_BITS=300 BIGTUNE_TEST_VARIANTS=q16.l8.w6.t128b3,q8.l8.w6.t128b5 timeout 25 compute-sanitizer --tool racecheck --report-api-errors no $C/bigtune_gpu_tests --gtest_filter='PowmRegsVsGmp.*' >> $OUT/racecheck.log 2>&1; echo "rc $?" >> $OUT/racecheck.log
el end
tail -5 $OUT/tests.log $OUT/memcheck.log $OUT/racecheck.log
cat $OUT/bench.log
