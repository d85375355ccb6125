#!/usr/bin/env bash
# powmpipe call 1 (branch powmpipe; binaries carried in .carry/powmpipe): the column-pipelined
# squaring candidates powm.bgsqr.u32.*.pipe against the defaults they shadow, in the same process
# (--only substring matches both), full exponents, batches of whole waves (run A of session 8);
# then the GPU suites of the warp powm on the candidates, memcheck and racecheck at small sizes.
set -u
b=/tmp/pb; o=/tmp/po; mkdir -p $b $o
for f in bigtune-bench-mod bigtune_gpu_tests; do xz -dc .carry/powmpipe/$f.xz > $b/$f & done; wait
chmod +x $b/*
export BIGTUNE_TEST_SEED=20261127 BIGTUNE_DB=$(mktemp -d)/t.db
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $o/gpu.txt
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > $o/$name.log 2>&1; local rc=$?; echo "$name rc=$rc s=$(( $(date +%s) - s ))" | tee -a $o/steps.txt; }
m=$b/bigtune-bench-mod; t=$b/bigtune_gpu_tests; B="--no-gmp --no-mulmod --reps 3 --target-ms 1"
step p1k 20 $m --powm-bits 1024 --only bgsqr.u32.q16.l2.w5 --max-e-bits 1024 --min-count 405504 $B
step p2k 20 $m --powm-bits 2048 --only bgsqr.u32.q8.l8.w6 --max-e-bits 2048 --min-count 152064 $B
step p4k 35 $m --powm-bits 4096 --only bgsqr.u32.q16.l8.w6 --max-e-bits 4096 --min-count 63360 $B
step p8k 35 $m --powm-bits 8192 --only bgsqr.u32.q16.l16.w6 --max-e-bits 8192 --min-count 6336 $B
step p16k 20 $m --powm-bits 16384 --only bgsqr.u32.q16.l32.w6 --max-e-bits 2048 --min-count 3168 $B
step full 50 env BIGTUNE_TEST_VARIANTS=.pipe $t --gtest_brief=1 --gtest_filter='WarpModVsGmp.PowmFullExponents:PowmRegsVsGmp.Variants'
step modops 45 env BIGTUNE_TEST_VARIANTS=l2.w5.pipe,q8.l8.w6.pipe,q16.l8.w6.pipe BIGTUNE_TEST_MAX_BITS=4200 $t --gtest_brief=1 --gtest_filter='ModOps/*powm'
step memcheck 25 env BIGTUNE_TEST_VARIANTS=q16.l2.w5.pipe,q8.l8.w6.pipe compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 99 $t --gtest_brief=1 --gtest_filter='WarpModVsGmp.PowmFullExponents'
step racecheck 20 env BIGTUNE_TEST_VARIANTS=q16.l2.w5.pipe compute-sanitizer --tool racecheck --report-api-errors no --error-exitcode 99 $t --gtest_brief=1 --gtest_filter='WarpModVsGmp.PowmFullExponents'
cat $o/steps.txt
grep -hE "^ *[0-9]+ +(powm|bgsqr)" $o/p*.log
grep -hE "cases|mismatch|PASSED|FAILED|SKIPPED" $o/full.log $o/modops.log | head -20
grep -hE "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" $o/memcheck.log $o/racecheck.log | head
cp $o/* $OUT/ 2>/dev/null
