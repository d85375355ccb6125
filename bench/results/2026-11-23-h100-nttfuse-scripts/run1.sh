#!/usr/bin/env bash
# Session 8, task nttfuse, call 1 (branch nttfuse 9470a57): block-wide Barrett glue in the fused NTT powm.
set -u
b=/tmp/nf; mkdir -p $b /tmp/o
for f in bigtune_gpu_tests bigtune-bench-mod; do xz -dc .carry/nttfuse/$f.xz > $b/$f; chmod +x $b/$f; done
export BIGTUNE_TEST_SEED=20261123 BIGTUNE_DB=$(mktemp -d)/t.db BIGTUNE_PROFILES=$PWD/profiles
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > /tmp/o/$name.log 2>&1; local rc=$?; echo "$name rc=$rc s=$(( $(date +%s) - s ))" | tee -a /tmp/o/steps.txt; }
t=$b/bigtune_gpu_tests; m=$b/bigtune-bench-mod
step pbig 100 $m --powm-bits 16384 32768 65536 --only nttbarrett.u64.q1.w6 --reps 3 --min-count 2048 --probe-count 512 --no-mulmod --no-gmp
step tests 110 $t --gtest_brief=1 --gtest_filter='NttBarrettVsGmp.*'
step memcheck 35 compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 99 $t --gtest_brief=1 --gtest_filter='NttBarrettVsGmp.SanitizerSized'
step racecheck 35 compute-sanitizer --tool racecheck --report-api-errors no --error-exitcode 99 $t --gtest_brief=1 --gtest_filter='NttBarrettVsGmp.SanitizerSized'
cp /tmp/o/* $OUT/ 2>/dev/null
cat /tmp/o/steps.txt
grep -hE "^ *[0-9]+ (powm|GMP)" /tmp/o/pbig.log
grep -hE "^\[ nttbarrett|FAILED|PASSED|Failure|want|got|ERROR SUMMARY|RACECHECK SUMMARY|Unsupported" /tmp/o/tests.log /tmp/o/memcheck.log /tmp/o/racecheck.log | cut -c1-300 | head -40
