#!/usr/bin/env bash
# Session 13, run C (H100): gpu-build/s15 = main + rank 0's division region in shared memory (where
# the block's static shared memory stays within 48 KB: q48.t8, q64.t8, q64.t16, q96.t16, q128.t16,
# q128.t32, q256.t32 and .sq) + sliding windows (powm.dfmat.u64.q256.t32.sw8.sq), against main's
# build (gpu-build/s13) on the same card: rates (16 Kbit as session 12's run J timed it), then the
# GPU tests at full size on the changed defaults, quick mode on every shape, the default plans,
# the sanitizers.
set -u
b=/tmp/nb; o=/tmp/ob; mkdir -p $b $o; xz -dc gpu-build/s15/bin.tar.xz | tar -C $b -xf -
xz -dc gpu-build/s13/bin.tar.xz | tar -C $o -xf - bigtune-bench-mod
export BIGTUNE_DB=$(mktemp -d)/t.db BIGTUNE_TEST_SEED=20261204
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $OUT/gpu.txt
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > $OUT/$name.log 2>&1; echo "$name rc=$? s=$(( $(date +%s) - s ))" >> $OUT/steps.txt; }
a="--no-mulmod --no-gmp --reps 3"
w16="--probe-count 1 --min-count 4224 --target-ms 1"
step new16k 60 $b/bigtune-bench-mod $a --powm-bits 16384 --only dfmat.u64.q256.t32.w6.sq,dfmat.u64.q256.t32.sw8.sq --max-e-bits 16384 $w16
step old16k 40 $o/bigtune-bench-mod $a --powm-bits 16384 --only dfmat.u64.q256.t32.w6.sq --max-e-bits 16384 $w16
step new8k 40 $b/bigtune-bench-mod $a --powm-bits 8192 --only dfmat.u64.q128.t16.w6 --max-e-bits 8192
step old8k 40 $o/bigtune-bench-mod $a --powm-bits 8192 --only dfmat.u64.q128.t16.w6 --max-e-bits 8192
step new4k 20 $b/bigtune-bench-mod $a --powm-bits 4096 --only dfmat.u64.q64.t8.w6 --max-e-bits 4096
step old4k 20 $o/bigtune-bench-mod $a --powm-bits 4096 --only dfmat.u64.q64.t8.w6 --max-e-bits 4096
step teams 150 env BIGTUNE_TEST_VARIANTS=q64.t8,q128.t16,.sq $b/bigtune_gpu_tests --gtest_filter='ModDfma.PowmOnFp64Teams*' --gtest_brief=1
step quick 30 env BIGTUNE_TEST_MAX_BITS=2100 $b/bigtune_gpu_tests --gtest_filter='ModDfma.PowmOnFp64Teams*' --gtest_brief=1
step defaults 60 $b/bigtune_gpu_tests --gtest_filter='PowmRegsVsGmp.DefaultPlan*' --gtest_brief=1
step racecheck 60 env BIGTUNE_TEST_VARIANTS=.sq,q128.t16 BIGTUNE_TEST_MAX_BITS=2100 compute-sanitizer --tool racecheck --print-limit 20 $b/bigtune_gpu_tests --gtest_filter='ModDfma.PowmOnFp64Teams*' --gtest_brief=1
step memcheck 40 env BIGTUNE_TEST_MAX_BITS=2100 compute-sanitizer --tool memcheck --print-limit 20 $b/bigtune_gpu_tests --gtest_filter='ModDfma.PowmOnFp64Teams*' --gtest_brief=1
(cat $OUT/gpu.txt $OUT/steps.txt
 grep -hE "cases, .* mismatches|PASSED|FAILED|ERROR SUMMARY|RACECHECK SUMMARY" $OUT/teams.log $OUT/quick.log $OUT/defaults.log $OUT/racecheck.log $OUT/memcheck.log | sort | uniq -c
 for f in new16k old16k new8k old8k new4k old4k; do grep -hE "^ *[0-9]+ powm" $OUT/$f.log | sed "s|^|$f |"; done) > $OUT/summary.txt
cat $OUT/summary.txt
