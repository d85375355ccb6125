#!/usr/bin/env bash
# Session 16, run B (H100): gpu-build/s34 = run A's s33 + the warp-tile kernel's parameters
# (roll5.wtile, roll4.wtile.b4: 128 registers, four blocks an SM; sqrmod .wtile on the unrolled
# square). The DFMA mulmod and sqrmod variants at 1 Kbit, twice; ncu (full set, SASS source
# counters) on roll4.wtile; the DFMA mulmod suites; memcheck and racecheck.
set -u
b=/tmp/s34; mkdir -p $b
xz -dc gpu-build/s34/bin.tar.xz | tar -C $b -xf -
export BIGTUNE_DB=$(mktemp -d)/t.db BIGTUNE_TEST_SEED=20261228
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $OUT/gpu.txt
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > $OUT/$name.log 2>&1; echo "$name rc=$? s=$(( $(date +%s) - s ))" >> $OUT/steps.txt; }
mm="--no-gmp --powm-bits 64 --only none --mulmod-bits 1024 --only-mulmod dfma.u64.q16 --reps 7"
step mm1 60 $b/bigtune-bench-mod $mm
step sq1 60 $b/bigtune-bench-mod $mm --sqrmod
step mm2 60 $b/bigtune-bench-mod $mm
step sq2 60 $b/bigtune-bench-mod $mm --sqrmod
step ncu 120 ncu -k regex:dfma_mulmod_tiled -c 1 --set full --import-source no -f -o /tmp/mmt $b/bigtune-bench-mod --no-gmp --reps 1 --powm-bits 64 --only none --mulmod-bits 1024 --only-mulmod roll4.wtile
ncu -i /tmp/mmt.ncu-rep --page details > $OUT/mmt-ncu.txt 2>&1
ncu -i /tmp/mmt.ncu-rep --page source --print-source sass --csv 2>&1 | xz -T4 > $OUT/mmt-sass.csv.xz
step tests 120 $b/bigtune_gpu_tests --gtest_filter='ModDfma.BarrettOnFp64MatchesGmp:ModDfma.WarpTilesUnalignedRunUntiled' --gtest_brief=1
san="ModDfma.WarpTilesUnalignedRunUntiled:ModDfma.BarrettOnFp64MatchesGmp"
step memcheck 120 compute-sanitizer --tool memcheck --print-limit 20 $b/bigtune_gpu_tests --gtest_filter=$san --gtest_brief=1
step racecheck 120 compute-sanitizer --tool racecheck --print-limit 20 $b/bigtune_gpu_tests --gtest_filter=$san --gtest_brief=1
(cat $OUT/gpu.txt $OUT/steps.txt
 grep -hE "^ *(mulmod|sqrmod) |^ +1024 " $OUT/mm1.log $OUT/sq1.log $OUT/mm2.log $OUT/sq2.log
 grep -E "Duration|Registers Per|Achieved Occupancy|Issue Slots Busy|No Eligible|Warp Cycles Per Issued|Executed Instructions  |DRAM Throughput|Eligible Warps|L1/TEX Hit" $OUT/mmt-ncu.txt | head -14
 grep -hE "instances, .* mismatches|cases, .* mismatches|PASSED|FAILED|ERROR SUMMARY|RACECHECK SUMMARY" $OUT/tests.log $OUT/memcheck.log $OUT/racecheck.log | sort | uniq -c
 grep -hE "Failure|want|got" $OUT/tests.log | head -12) > $OUT/summary.txt
cat $OUT/summary.txt
