#!/usr/bin/env bash
# Session 12, run D (H100): the team powm with squarings by half the pairs (`.sq`, dteam::mont_sqr;
# binaries in gpu-build/s12, built from the commit in steps.txt plus the uncommitted mont_sqr):
# its GPU tests (full size, every dfmat shape incl. .sq), racecheck and memcheck in quick mode on the
# .sq shapes, then full-exponent rates against the CIOS shapes at 4, 8, 12 and 16 Kbit.
set -u
b=/tmp/lb; mkdir -p $b; xz -dc gpu-build/s12/bin.tar.xz | tar -C $b -xf -
export BIGTUNE_DB=$(mktemp -d)/t.db BIGTUNE_TEST_SEED=20261127
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $OUT/gpu.txt
cat gpu-build/s12/commit.txt > $OUT/steps.txt
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > $OUT/$name.log 2>&1; echo "$name rc=$? s=$(( $(date +%s) - s ))" | tee -a $OUT/steps.txt; }
step teams 140 env BIGTUNE_TEST_VARIANTS=.sq,q256.t32.w6 $b/bigtune_gpu_tests --gtest_filter='ModDfma.PowmOnFp64Teams*' --gtest_brief=1
step racecheck 110 env BIGTUNE_TEST_VARIANTS=.sq BIGTUNE_TEST_MAX_BITS=2100 compute-sanitizer --tool racecheck --print-limit 20 $b/bigtune_gpu_tests --gtest_filter='ModDfma.PowmOnFp64Teams*' --gtest_brief=1
step memcheck 90 env BIGTUNE_TEST_VARIANTS=.sq BIGTUNE_TEST_MAX_BITS=2100 compute-sanitizer --tool memcheck --print-limit 20 $b/bigtune_gpu_tests --gtest_filter='ModDfma.PowmOnFp64Teams*' --gtest_brief=1
bm="$b/bigtune-bench-mod --no-mulmod --no-gmp --reps 3 --probe-count 1 --min-count 1 --target-ms 1"
step p4k 60 $bm --powm-bits 4096 --only dfmat.u64.q64.t8.w6 --max-e-bits 4096
step p8k 60 $bm --powm-bits 8192 --only dfmat.u64.q128.t16.w6 --max-e-bits 8192
step p16k 80 $bm --powm-bits 16384 --only dfmat.u64.q256.t32.w6 --max-e-bits 16384
step p12k 60 $bm --powm-bits 12288 --only dfmat.u64.q256.t32.w6 --max-e-bits 12288
grep -hE "cases, .* mismatches|PASSED|FAILED|ERROR SUMMARY|RACECHECK SUMMARY|hazard" $OUT/teams.log $OUT/racecheck.log $OUT/memcheck.log | sort | uniq -c | head -20
grep -hE "^ *[0-9]+ powm" $OUT/p*.log
