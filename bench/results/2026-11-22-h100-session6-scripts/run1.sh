#!/usr/bin/env bash
# Session 6 merged tree, call 1: every GPU suite, sanitizers, benchmarks of the defaults.
set -u
b=/tmp/lb; mkdir -p $b /tmp/o
for f in .carry/s6a/*.xz; do xz -dc "$f" > $b/$(basename $f .xz); chmod +x $b/$(basename $f .xz); done
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee /tmp/o/gpu.txt
export BIGTUNE_TEST_SEED=20261123 BIGTUNE_DB=/tmp/lead-s6-$$.db
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > /tmp/o/$name.log 2>&1; local rc=$?; echo "$name rc=$rc s=$(( $(date +%s) - s ))" | tee -a /tmp/o/steps.txt; }
step tests-all 170 env BIGTUNE_TEST_MAX_BITS=70000 $b/bigtune_gpu_tests --gtest_brief=1 --gtest_filter='-ModOps*'
step tests-mod-warp 50 env BIGTUNE_TEST_FAMILY=warp $b/bigtune_gpu_tests --gtest_brief=1 --gtest_filter='ModOps/*mulmod:ModOps/*sqrmod'
step memcheck 50 env BIGTUNE_TEST_MAX_BITS=1100 compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 99 $b/bigtune_gpu_tests --gtest_brief=1 --gtest_filter='AllOps/*:DefaultPlan*:DivNewtoncVsGmp*'
step racecheck 35 env BIGTUNE_TEST_MAX_BITS=600 compute-sanitizer --tool racecheck --report-api-errors no --error-exitcode 99 $b/bigtune_gpu_tests --gtest_brief=1 --gtest_filter='DefaultPlan*'
step bench-add 75 $b/bigtune-bench --ops add sub --defaults-only --reps 30 --min-log2-bits 6 --max-log2-bits 20 --csv /tmp/o/bench-add.csv
step bench-add-noflags 75 $b/bigtune-bench --ops add sub --defaults-only --reps 30 --no-flags --min-log2-bits 6 --max-log2-bits 20 --csv /tmp/o/bench-add-noflags.csv
step bench-mul 110 $b/bigtune-bench --ops mul_low mul sqr divmod --defaults-only --reps 5 --min-log2-bits 8 --max-log2-bits 20 --csv /tmp/o/bench-mul.csv
step bench-mod 90 $b/bigtune-bench-mod --powm-bits 1024 2048 4096 8192 --only bg --reps 3 --mulmod-bits 1024 2048 4096 8192 --only-mulmod wbarrett
cp /tmp/o/steps.txt $OUT/
tar czf $OUT/logs.tgz -C /tmp/o .
cat /tmp/o/steps.txt
grep -hE "cases|mismatch|FAILED|Failure|PASSED|SKIPPED" /tmp/o/tests-*.log | head -80
grep -hE "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" /tmp/o/memcheck.log /tmp/o/racecheck.log | tail -6
grep -E "^(add|sub) |copy" /tmp/o/bench-add.log | tail -40
