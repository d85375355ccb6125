#!/usr/bin/env bash
# Session 10, run J: bench-mod's powm batches rounded up to whole waves (whole_waves()), without
# --min-count: the DFMA powm at 1024 / 2048 bits and the warp default at 4096.
set -u
b=/tmp/lb; rm -rf /tmp/o; mkdir -p $b /tmp/o
xz -dc .carry/s10/bigtune-bench-mod.xz > $b/bigtune-bench-mod; chmod +x $b/bigtune-bench-mod
export BIGTUNE_DB=/tmp/runJ-$$.db
timeout 120 $b/bigtune-bench-mod --powm-bits 1024 2048 4096 --only dfma.u64.q16.w5.sq,dfma.u64.q32.w6,bgsqr.u32.q16.l8.w6 --reps 3 --no-mulmod --no-gmp > /tmp/o/powm.log 2>&1
echo "rc=$?" >> /tmp/o/powm.log
cp /tmp/o/* $OUT/
grep -vE "^$|device|bits variant" /tmp/o/powm.log
