#!/usr/bin/env bash
# powm1k GPU run (one call): bench first, then GPU tests, sanitizers, ncu.
set -uo pipefail
C=.carry/powm1k
B=/tmp/p1k && mkdir -p $B
for f in $C/*.xz; do xz -dc "$f" > $B/$(basename "$f" .xz) && chmod +x $B/$(basename "$f" .xz); done
export BIGTUNE_DB=$(mktemp -d)/t.db BIGTUNE_TEST_SEED=20261122
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.sm --format=csv,noheader | tee $OUT/gpu.txt
t0=$(date +%s); el() { echo "[t=$(( $(date +%s) - t0 ))s] $*"; }
el bench1
timeout 65 $B/bigtune-bench-mod --powm-bits 1024 2048 --only bg --no-mulmod --reps 5 --target-ms 100 > $OUT/bench1.log 2>&1; echo rc=$? >> $OUT/bench1.log
el bench2
# 101376 instances = 4 waves at 12 warps/SM (ipb 16-64, 162 registers) and 6 at 8 (ipb 128), one chunk (ipb >= 64)
timeout 30 $B/bigtune-bench-mod --powm-bits 1024 --only q16.l2 --no-gmp --no-mulmod --powm-ipb 16 32 64 128 --reps 5 --target-ms 1 --probe-count 4096 --min-count 101376 > $OUT/bench2.log 2>&1; echo rc=$? >> $OUT/bench2.log
# q8.l4 on whole waves too (2 blocks of 256 threads per SM: 16896 instances a wave)
timeout 12 $B/bigtune-bench-mod --powm-bits 1024 --only q8.l4 --no-gmp --no-mulmod --powm-ipb 64 --reps 5 --target-ms 1 --probe-count 4096 --min-count 101376 >> $OUT/bench2.log 2>&1; echo rc=$? >> $OUT/bench2.log
el bench3
timeout 12 $B/bigtune-bench-mod --powm-bits 768 896 --only bgsqr.u32.q16.l2.w6 --no-gmp --no-mulmod --powm-ipb 64 128 --reps 5 --target-ms 150 > $OUT/bench3.log 2>&1; echo rc=$? >> $OUT/bench3.log
timeout 12 $B/bigtune-bench-mod --powm-bits 768 896 --only q8.l4.w5 --no-gmp --no-mulmod --reps 5 --target-ms 150 >> $OUT/bench3.log 2>&1; echo rc=$? >> $OUT/bench3.log
el tests
export BIGTUNE_TEST_VARIANTS=q16.l2
timeout 55 $B/bigtune_gpu_tests --gtest_filter='WarpModVsGmp.*:*ModVsGmp.*powm*' > $OUT/tests.log 2>&1; echo rc=$? >> $OUT/tests.log
el memcheck
export BIGTUNE_TEST_VARIANTS=bgsqr.u32.q16.l2.w5,bgfixed.u32.q16.l2.w6
timeout 30 compute-sanitizer --tool memcheck --report-api-errors no $B/bigtune_gpu_tests --gtest_filter='WarpModVsGmp.PowmFullExponents' > $OUT/memcheck.log 2>&1; echo rc=$? >> $OUT/memcheck.log
el racecheck
export BIGTUNE_TEST_VARIANTS=bgsqr.u32.q16.l2.w6
timeout 20 compute-sanitizer --tool racecheck --report-api-errors no $B/bigtune_gpu_tests --gtest_filter='WarpModVsGmp.PowmFullExponents' > $OUT/racecheck.log 2>&1; echo rc=$? >> $OUT/racecheck.log
el ncu
timeout 20 ncu --launch-count 1 -k regex:powm_warp_global --section SpeedOfLight --section Occupancy --section WarpStateStats --section SchedulerStats --section LaunchStats $B/bigtune-bench-mod --powm-bits 1024 --only bgsqr.u32.q16.l2.w6 --no-gmp --no-mulmod --reps 1 --probe-count 25344 --min-count 25344 --target-ms 1 --powm-ipb 64 --max-e-bits 256 > $OUT/ncu.txt 2>&1; echo rc=$? >> $OUT/ncu.txt
el done
tail -3 $OUT/tests.log $OUT/memcheck.log $OUT/racecheck.log
grep -E "^ +(768|896|1024|2048) " $OUT/bench1.log $OUT/bench2.log $OUT/bench3.log
