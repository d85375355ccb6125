#!/bin/bash
# powmregs GPU run 2: 16 Kbit bench (uncapped vs capped vs Barrett), tests, sanitizers.
set -u
C=.carry/powmregs
T0=$(date +%s)
el() { echo "[+$(( $(date +%s) - T0 ))s] $*"; }
(cd $C && xz -d -T4 bigtune_gpu_tests.xz bigtune-bench-mod.xz && chmod +x bigtune_gpu_tests bigtune-bench-mod)
export BIGTUNE_DB=$(mktemp -d)/t.db
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv > $OUT/gpu.txt 2>&1
B="$C/bigtune-bench-mod --no-mulmod --reps 3 --target-ms 1"
{
el 16384; timeout 30 $B --powm-bits 16384 --only q16.l32 --probe-count 256 --min-count 3168 --gmp-max-e-bits 2048
el 16384b; timeout 15 $B --powm-bits 16384 --only barrett.u64.q1.w6 --no-gmp --probe-count 256 --min-count 2048
el done
} > $OUT/bench.log 2>&1
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv >> $OUT/gpu.txt 2>&1
el tests > $OUT/tests.log
BIGTUNE_TEST_VARIANTS=bgsqr.u32.q16.l32. timeout 80 $C/bigtune_gpu_tests --gtest_filter='PowmRegsVsGmp.*:WarpModVsGmp.PowmFullExponents' >> $OUT/tests.log 2>&1; echo "rc $?" >> $OUT/tests.log
el memcheck > $OUT/memcheck.log
BIGTUNE_TEST_MAX_BITS=300 BIGTUNE_TEST_VARIANTS=bgsqr.u32.q16.l32. timeout 90 compute-sanitizer --tool memcheck --report-api-errors no $C/bigtune_gpu_tests --gtest_filter='PowmRegsVsGmp.Variants' >> $OUT/memcheck.log 2>&1; echo "rc $?" >> $OUT/memcheck.log
el racecheck > $OUT/racecheck.log
BIGTUNE_TEST_MAX_BITS=300 BIGTUNE_TEST_VARIANTS=bgsqr.u32.q16.l32.w6.t128b3 timeout 35 compute-sanitizer --tool racecheck --report-api-errors no $C/bigtune_gpu_tests --gtest_filter='PowmRegsVsGmp.Variants' >> $OUT/racecheck.log 2>&1; echo "rc $?" >> $OUT/racecheck.log
el end
for f in tests memcheck racecheck; do echo "== $f"; tail -6 $OUT/$f.log; done
cat $OUT/bench.log
