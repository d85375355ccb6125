#!/bin/bash
# mulmodhalf run 2 (register-capped Q = 8 shapes b24/b32, q8.l8 and q8.l16): GMP differential tests (wbarrett2 mulmod/sqrmod), bench vs wbarrett and mul, sanitizers.
set -u
C=.carry/mulmodhalf
T=$(mktemp -d)
for b in bigtune_gpu_tests bigtune-bench-mod; do xz -dc $C/$b.xz > $T/$b & done; wait
chmod +x $T/*
export BIGTUNE_DB=$(mktemp -d)/t.db
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv,noheader | tee $OUT/gpu.txt
S=$SECONDS
BIGTUNE_TEST_VARIANTS=wbarrett2 timeout 80 $T/bigtune_gpu_tests \
  --gtest_filter='ModOps/ModVsGmp.EveryVariantMatchesGmp/mulmod:ModOps/ModVsGmp.EveryVariantMatchesGmp/sqrmod' > $OUT/tests.log 2>&1
echo "tests rc=$? $((SECONDS-S))s"; grep -E "cases|OK|FAILED|PASSED" $OUT/tests.log | head -8
S=$SECONDS
timeout 60 $T/bigtune-bench-mod --powm-bits 1024 --only NONE --no-gmp --mulmod-bits 1024 2048 4096 8192 --only-mulmod wbarrett --reps 3 > $OUT/bench-mulmod.log 2>&1
echo "bench mulmod rc=$? $((SECONDS-S))s"; sed -n '/^mulmod/,$p' $OUT/bench-mulmod.log
S=$SECONDS
timeout 60 $T/bigtune-bench-mod --powm-bits 1024 --only NONE --no-gmp --mulmod-bits 1024 2048 4096 8192 --only-mulmod wbarrett --reps 3 --sqrmod > $OUT/bench-sqrmod.log 2>&1
echo "bench sqrmod rc=$? $((SECONDS-S))s"; sed -n '/^mulmod/,$p' $OUT/bench-sqrmod.log
S=$SECONDS
BIGTUNE_TEST_MAX_BITS=300 BIGTUNE_TEST_VARIANTS=wbarrett2.u32.q8.l2.b32,wbarrett2.u32.q8.l8.b24,wbarrett2.u32.q16.l4 timeout 45 compute-sanitizer --tool memcheck --report-api-errors no \
  $T/bigtune_gpu_tests --gtest_filter='ModOps/ModVsGmp.EveryVariantMatchesGmp/mulmod' > $OUT/memcheck.log 2>&1
echo "memcheck rc=$? $((SECONDS-S))s"; grep -E "cases|ERROR SUMMARY|PASSED|FAILED" $OUT/memcheck.log | head -5
S=$SECONDS
BIGTUNE_TEST_MAX_BITS=300 BIGTUNE_TEST_VARIANTS=wbarrett2.u32.q8.l4.b32,wbarrett2.u32.q8.l16.b24,wbarrett2.u32.q16.l2 timeout 45 compute-sanitizer --tool racecheck --report-api-errors no \
  $T/bigtune_gpu_tests --gtest_filter='ModOps/ModVsGmp.EveryVariantMatchesGmp/sqrmod' > $OUT/racecheck.log 2>&1
echo "racecheck rc=$? $((SECONDS-S))s"; grep -E "cases|RACECHECK SUMMARY|hazard|PASSED|FAILED" $OUT/racecheck.log | head -5
S=$SECONDS
timeout 60 ncu --kernel-name regex:wbarrett2 --launch-count 1 --section SpeedOfLight --section Occupancy --section WarpStateStats --section LaunchStats \
  $T/bigtune-bench-mod --powm-bits 1024 --only NONE --no-gmp --mulmod-bits 4096 --only-mulmod wbarrett2.u32.q8.l8.b32 --reps 1 > $OUT/ncu-q8l8b32.log 2>&1
echo "ncu rc=$? $((SECONDS-S))s"; grep -E "Duration|Compute \(SM\) Throughput|Memory Throughput|Achieved Occupancy|Theoretical Occupancy|Registers Per|Stall|Warp Cycles Per Issued|Issued Warp" $OUT/ncu-q8l8b32.log | head -20
