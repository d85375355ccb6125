#!/usr/bin/env bash
# Session 12, run G (H100): the final build (raw column sums and four steps a pass in every team
# shape; .sq at 8 and 16 Kbit as the defaults there). GPU tests: the team test at full size on the
# default shapes, every shape in quick mode, the default-plan powm tests (2-8 Kbit, 16 Kbit with
# even moduli), racecheck / memcheck in quick mode; then full-exponent rates of the defaults at
# 2.5-16 Kbit, session 11's build of the same shapes beside them (gpu-build/carry), and at 10 Kbit the
# team kernel against the Barrett default there.
set -u
b=/tmp/lb; o=/tmp/old; mkdir -p $b $o; xz -dc gpu-build/s12/bin.tar.xz | tar -C $b -xf -
xz -dc gpu-build/carry/bin.tar.xz | tar -C $o -xf - ./bigtune-bench-mod
export BIGTUNE_DB=$(mktemp -d)/t.db BIGTUNE_TEST_SEED=20261130
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $OUT/gpu.txt
cat gpu-build/s12/commit.txt > $OUT/steps.txt
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > $OUT/$name.log 2>&1; echo "$name rc=$? s=$(( $(date +%s) - s ))" | tee -a $OUT/steps.txt; }
step teams 140 env BIGTUNE_TEST_VARIANTS=q40.t4,q48.t4,q64.t8,q96.t8,.sq $b/bigtune_gpu_tests --gtest_filter='ModDfma.PowmOnFp64Teams*' --gtest_brief=1
step quick 30 env BIGTUNE_TEST_MAX_BITS=2100 $b/bigtune_gpu_tests --gtest_filter='ModDfma.PowmOnFp64Teams*' --gtest_brief=1
step defaults 100 $b/bigtune_gpu_tests --gtest_filter='PowmRegsVsGmp.DefaultPlan*' --gtest_brief=1
step racecheck 40 env BIGTUNE_TEST_VARIANTS=.sq BIGTUNE_TEST_MAX_BITS=2100 compute-sanitizer --tool racecheck --print-limit 20 $b/bigtune_gpu_tests --gtest_filter='ModDfma.PowmOnFp64Teams*' --gtest_brief=1
step memcheck 30 env BIGTUNE_TEST_MAX_BITS=2100 compute-sanitizer --tool memcheck --print-limit 20 $b/bigtune_gpu_tests --gtest_filter='ModDfma.PowmOnFp64Teams*' --gtest_brief=1
a="--no-mulmod --no-gmp --reps 3 --probe-count 1 --min-count 1 --target-ms 1"
for s in "2560 q40.t4.w6 25" "3072 q48.t4.w6 25" "4096 q64.t8.w6 25" "6144 q96.t8.w6 25" "8192 q128.t16.w6 25" "16384 q256.t32.w6 40"; do
  set -- $s
  step new$1 $3 $b/bigtune-bench-mod $a --powm-bits $1 --only dfmat.u64.$2 --max-e-bits $1
done
# 4, 8 and 16 Kbit against session 11's build: run E.
for s in "2560 q40.t4.w6" "3072 q48.t4.w6" "6144 q96.t8.w6"; do
  set -- $s
  step old$1 15 $o/bigtune-bench-mod $a --powm-bits $1 --only dfmat.u64.$2 --max-e-bits $1
done
step new10240 45 $b/bigtune-bench-mod $a --powm-bits 10240 --only q256.t32.w6.sq,barrett.u64.q1.w6 --max-e-bits 10240
grep -hE "cases, .* mismatches|PASSED|FAILED|ERROR SUMMARY|RACECHECK SUMMARY" $OUT/teams.log $OUT/quick.log $OUT/defaults.log $OUT/racecheck.log $OUT/memcheck.log | sort | uniq -c | head -20
for f in $OUT/new*.log $OUT/old*.log; do grep -hE "^ *[0-9]+ powm" $f | sed "s|^|$(basename $f .log) |"; done
