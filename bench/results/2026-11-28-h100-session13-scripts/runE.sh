#!/usr/bin/env bash
# Session 13, run E (H100): main at e2876de (gpu-build/s17): the 16 Kbit rate with GMP-16 in the
# same run (GPU as run D timed it, GMP-16 = mpz_powm on the 16 host cores, full exponents on both
# sides), 10240 bits for the default's lower end, the default plans' GPU tests (16 Kbit now on
# .sw8.sq), quick mode on every team shape, memcheck on the sliding kernel.
set -u
b=/tmp/nb; mkdir -p $b; xz -dc gpu-build/s17/bin.tar.xz | tar -C $b -xf -
export BIGTUNE_DB=$(mktemp -d)/t.db BIGTUNE_TEST_SEED=20261206
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $OUT/gpu.txt
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > $OUT/$name.log 2>&1; echo "$name rc=$? s=$(( $(date +%s) - s ))" >> $OUT/steps.txt; }
w16="--reps 3 --no-mulmod --probe-count 1 --min-count 4224 --target-ms 1"
step p16k 240 $b/bigtune-bench-mod $w16 --powm-bits 16384 --only dfmat.u64.q256.t32.sw8.sq,dfmat.u64.q256.t32.w6.sq --max-e-bits 16384
step p10k 120 $b/bigtune-bench-mod --reps 3 --no-mulmod --no-gmp --powm-bits 10240 --only dfmat.u64.q256.t32.sw8.sq,dfmat.u64.q256.t32.w6.sq,barrett.u64.q1.w6 --max-e-bits 10240
step defaults 90 $b/bigtune_gpu_tests --gtest_filter='PowmRegsVsGmp.DefaultPlan*' --gtest_brief=1
step quick 30 env BIGTUNE_TEST_MAX_BITS=2100 $b/bigtune_gpu_tests --gtest_filter='ModDfma.PowmOnFp64Teams*' --gtest_brief=1
step memcheck 40 env BIGTUNE_TEST_VARIANTS=.sw BIGTUNE_TEST_MAX_BITS=2100 compute-sanitizer --tool memcheck --print-limit 20 $b/bigtune_gpu_tests --gtest_filter='ModDfma.PowmOnFp64Teams*' --gtest_brief=1
(cat $OUT/gpu.txt $OUT/steps.txt
 grep -hE "cases, .* mismatches|PASSED|FAILED|ERROR SUMMARY" $OUT/defaults.log $OUT/quick.log $OUT/memcheck.log | sort | uniq -c
 grep -hE "^ *[0-9]+ (powm|GMP)|GMP" $OUT/p16k.log $OUT/p10k.log) > $OUT/summary.txt
cat $OUT/summary.txt
