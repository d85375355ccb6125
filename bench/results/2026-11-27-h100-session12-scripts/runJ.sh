#!/usr/bin/env bash
# Session 12, run J (H100): the Montgomery-friendly modulus (m~ = m (-m^-1 mod b), q = t_0 mod b;
# every team shape but q48.t4) in gpu-build/s13, against the committed kernels (gpu-build/s12) on the
# same card: GPU tests (full size at 4 and 16 Kbit, quick mode on every shape, the default plans,
# sanitizers in quick mode), then rates as run H timed them.
set -u
b=/tmp/lb; o=/tmp/old; mkdir -p $b $o; xz -dc gpu-build/s13/bin.tar.xz | tar -C $b -xf -
xz -dc gpu-build/s12/bin.tar.xz | tar -C $o -xf - bigtune-bench-mod
export BIGTUNE_DB=$(mktemp -d)/t.db BIGTUNE_TEST_SEED=20261202
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $OUT/gpu.txt
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > $OUT/$name.log 2>&1; echo "$name rc=$? s=$(( $(date +%s) - s ))" >> $OUT/steps.txt; }
a="--no-mulmod --no-gmp --reps 3"
step new16k 40 $b/bigtune-bench-mod $a --powm-bits 16384 --only dfmat.u64.q256.t32.w6.sq --max-e-bits 16384 --probe-count 1 --min-count 4224 --target-ms 1
step old16k 40 $o/bigtune-bench-mod $a --powm-bits 16384 --only dfmat.u64.q256.t32.w6.sq --max-e-bits 16384 --probe-count 1 --min-count 4224 --target-ms 1
step new4k 20 $b/bigtune-bench-mod $a --powm-bits 4096 --only dfmat.u64.q64.t8.w6 --max-e-bits 4096
step old4k 20 $o/bigtune-bench-mod $a --powm-bits 4096 --only dfmat.u64.q64.t8.w6 --max-e-bits 4096
step new8k 40 $b/bigtune-bench-mod $a --powm-bits 8192 --only dfmat.u64.q128.t16.w6 --max-e-bits 8192
step teams 80 env BIGTUNE_TEST_VARIANTS=q64.t8.w6,q256.t32.w6.sq $b/bigtune_gpu_tests --gtest_filter='ModDfma.PowmOnFp64Teams*' --gtest_brief=1
step quick 20 env BIGTUNE_TEST_MAX_BITS=2100 $b/bigtune_gpu_tests --gtest_filter='ModDfma.PowmOnFp64Teams*' --gtest_brief=1
step defaults 60 $b/bigtune_gpu_tests --gtest_filter='PowmRegsVsGmp.DefaultPlan*' --gtest_brief=1
step memcheck 20 env BIGTUNE_TEST_MAX_BITS=2100 compute-sanitizer --tool memcheck $b/bigtune_gpu_tests --gtest_filter='ModDfma.PowmOnFp64Teams*' --gtest_brief=1
(cat $OUT/gpu.txt $OUT/steps.txt
 grep -hE "cases, .* mismatches|PASSED|FAILED|ERROR SUMMARY" $OUT/teams.log $OUT/quick.log $OUT/defaults.log $OUT/memcheck.log | sort | uniq -c
 for f in new16k old16k new4k old4k new8k; do grep -hE "^ *[0-9]+ powm" $OUT/$f.log | sed "s|^|$f |"; done) | tee $OUT/summary.txt
