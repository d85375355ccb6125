#!/usr/bin/env bash
# Session 7, call B: the wbarrett2 per-instance fix re-tested, powm / mulmod benchmark of the defaults, tune + validate.
set -u
b=/tmp/lb; mkdir -p $b /tmp/o
for f in bigtune_gpu_tests bigtune-bench-mod bigtune; do xz -dc .carry/s7b/$f.xz > $b/$f; chmod +x $b/$f; done
export BIGTUNE_TEST_SEED=20261123 BIGTUNE_DB=/tmp/s7b-$$.db BIGTUNE_PROFILES=$PWD/profiles
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > /tmp/o/$name.log 2>&1; local rc=$?; echo "$name rc=$rc s=$(( $(date +%s) - s ))" | tee -a /tmp/o/steps.txt; }
t=$b/bigtune_gpu_tests; m=$b/bigtune-bench-mod
step modwarp 80 env BIGTUNE_TEST_FAMILY=warp $t --gtest_brief=1 --gtest_filter='ModOps/*mulmod:ModOps/*sqrmod'
step p1k 40 $m --powm-bits 1024 --only bgsqr.u32.q16.l2.w5,bgfixed.u32.q8.l4.w5 --powm-ipb 64 --reps 5 --no-mulmod
step p2k 30 $m --powm-bits 2048 --only bgsqr.u32.q8.l8.w5,bgsqr.u32.q8.l8.w6 --reps 5 --no-mulmod
step p48k 90 $m --powm-bits 4096 8192 --only bgsqr.u32.q16.l8.w6,bgsqr.u32.q16.l16.w6 --max-e-bits 8192 --min-count 8192 --reps 3 --no-mulmod
step pbig 150 $m --powm-bits 16384 32768 65536 --only bgsqr.u32.q16.l32.w6,nttbarrett.u64.q1.w6,barrett.u64.q1.w6 --reps 3 --min-count 2048 --probe-count 512 --no-mulmod
step mulmod 60 $m --no-gmp --powm-bits 1024 --only none-such --mulmod-bits 1024 2048 4096 8192 --only-mulmod wbarrett --reps 5
rm -f /tmp/s7tune.db
step tune 200 $b/bigtune --db /tmp/s7tune.db tune --budget 178
step validate 130 $b/bigtune --db /tmp/s7tune.db validate --ops add,mul,divmod --repetitions 3 --out /tmp/o/validate.tsv
cp /tmp/o/* $OUT/ 2>/dev/null
cat /tmp/o/steps.txt
grep -hE "^\[ (mulmod|sqrmod) \]|PASSED|FAILED" /tmp/o/modwarp.log | head
grep -hE "^ *[0-9]+ (powm|GMP)" /tmp/o/p1k.log /tmp/o/p2k.log /tmp/o/p48k.log /tmp/o/pbig.log
grep -hE "^ *[0-9]+ +[0-9]+ (mulmod|sqrmod)" /tmp/o/mulmod.log
grep -E "tuned in|sampling done" /tmp/o/tune.log | cut -c1-160
tail -6 /tmp/o/validate.log
