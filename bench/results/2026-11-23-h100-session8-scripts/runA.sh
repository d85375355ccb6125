#!/usr/bin/env bash
# Session 8, call A (main ec7e791 = nttfuse + powmicache merged, plus the unmeasured lane-0 quotient
# candidate powm.bgsqr.u32.q16.l{8,16,32}.w6.q0 of branch powmicache-lane0q; binaries built in the
# worktree of branch "final", carried in .carry/s8): the powm and mulmod benchmark (the candidate
# against the defaults in the same run), then every GPU suite and the warp modular suites.
set -u
b=/tmp/lb; mkdir -p $b /tmp/o
for f in bigtune_gpu_tests bigtune-bench-mod bigtune; do xz -dc .carry/s8/$f.xz > $b/$f; chmod +x $b/$f; done
export BIGTUNE_TEST_SEED=20261123 BIGTUNE_DB=/tmp/s8a-$$.db BIGTUNE_PROFILES=$PWD/profiles
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee /tmp/o/gpu.txt
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > /tmp/o/$name.log 2>&1; local rc=$?; echo "$name rc=$rc s=$(( $(date +%s) - s ))" | tee -a /tmp/o/steps.txt; }
t=$b/bigtune_gpu_tests; bm=$b/bigtune-bench-mod
step powm4k 45 $bm --powm-bits 4096 --only bgsqr.u32.q16.l8.w6 --max-e-bits 4096 --min-count 63360 --reps 3 --no-mulmod --no-gmp
step powm8k 45 $bm --powm-bits 8192 --only bgsqr.u32.q16.l16.w6 --max-e-bits 8192 --min-count 6336 --reps 3 --no-mulmod --no-gmp
step powm16k 40 $bm --powm-bits 16384 --only bgsqr.u32.q16.l32.w6 --max-e-bits 2048 --min-count 3168 --reps 3 --no-mulmod --no-gmp
step powmbig 80 $bm --powm-bits 32768 65536 --only nttbarrett.u64.q1.w6 --reps 3 --min-count 2048 --no-mulmod --no-gmp
step mulmod 40 $bm --powm-bits 64 --only none --no-gmp --mulmod-bits 64 128 256 512 1024 --reps 3
step all 230 env BIGTUNE_TEST_MAX_BITS=70000 $t --gtest_brief=1 --gtest_filter='-ModOps*'
step modwarp 50 env BIGTUNE_TEST_FAMILY=warp $t --gtest_brief=1 --gtest_filter='ModOps/*mulmod:ModOps/*sqrmod'
step modq0 40 env BIGTUNE_TEST_VARIANTS=w6.q0 BIGTUNE_TEST_MAX_BITS=9000 $t --gtest_brief=1 --gtest_filter='ModOps/*powm'
cp /tmp/o/* $OUT/ 2>/dev/null
cat /tmp/o/steps.txt
grep -hE "FAILED|Failure" /tmp/o/all.log /tmp/o/modwarp.log /tmp/o/modq0.log | head -20
grep -hE "PASSED|SKIPPED|mismatch" /tmp/o/all.log /tmp/o/modwarp.log /tmp/o/modq0.log | tail -40
grep -hE "^ +[0-9]+ (powm|mulmod)|^ +[0-9]+ +[0-9]+ " /tmp/o/powm*.log /tmp/o/mulmod.log
