#!/usr/bin/env bash
# Session 10, run C (same binaries as run B, branch dfma-columns at a8cd236): where the DFMA
# Montgomery powm (a fixed 20-limb kernel) beats each size's default, 129-1024 bits, and the
# rolled mulmod at 989 / 1000 bits.
set -u
b=/tmp/lb; rm -rf /tmp/o; mkdir -p $b /tmp/o
for f in bigtune-bench-mod; do xz -dc .carry/s10/$f.xz > $b/$f; chmod +x $b/$f; done
export BIGTUNE_DB=/tmp/runC-$$.db
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > /tmp/o/$name.log 2>&1; local rc=$?; echo "$name rc=$rc s=$(( $(date +%s) - s ))" >> /tmp/o/steps.txt; }
bm=$b/bigtune-bench-mod
step powm 400 $bm --powm-bits 192 256 384 512 640 768 896 1024 --only dfma.u64.q16.w5.sq,dfma.u64.q16.w4.sq,fixed.u32.q8.w4,fixed.u32.q16.w4,fixed.u32.q32.w4,bgfixed.u32.q8.l4.w5,bgsqr.u32.q16.l2.w5 --reps 3 --no-mulmod --no-gmp
step mulmod 60 $bm --powm-bits 64 --only none --no-gmp --mulmod-bits 989 1000 --reps 5
cp /tmp/o/* $OUT/ 2>/dev/null
cat /tmp/o/steps.txt
grep -vE "^$|device|bits variant" /tmp/o/powm.log
grep -E "^ +[0-9]+ +[0-9]+ " /tmp/o/mulmod.log; grep -E "dfma" /tmp/o/mulmod.log
