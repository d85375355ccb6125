#!/usr/bin/env bash
# Session 10, run H (run G's binaries): small batches. The DFMA powm runs one instance a thread
# for the whole exponentiation, the warp kernels 2-8 lanes an instance: time both on batches
# from 256 to 65536 instances (bigtune profile, events, 3 runs after 1 warm-up).
set -u
b=/tmp/lb; rm -rf /tmp/o; mkdir -p $b /tmp/o
xz -dc .carry/s10/bigtune.xz > $b/bigtune; chmod +x $b/bigtune
export BIGTUNE_DB=/tmp/runH-$$.db
for spec in 1024:powm.dfma.u64.q16.w5.sq 1024:powm.bgsqr.u32.q16.l2.w5 1536:powm.dfma.u64.q24.w6 1536:powm.bgfixed.u32.q8.l8.w6 2048:powm.dfma.u64.q32.w6 2048:powm.bgsqr.u32.q8.l8.w6; do
  bits=${spec%%:*}; v=${spec#*:}
  for count in 256 1024 4096 16384 65536; do
    us=$(timeout 60 $b/bigtune profile $v --bits $bits --count $count --repetitions 3 --warmup 1 --no-counters --timer events 2>&1 | grep -oE "median [0-9.]+ us" | head -1)
    echo "$bits $v $count $us" | tee -a /tmp/o/small-batches.txt
  done
done
cp /tmp/o/* $OUT/ 2>/dev/null
