#!/usr/bin/env bash
# Session 11, run F, on an H100 (binaries in gpu-build/s11, commit in steps.txt): the team DFMA
# powm defaults against the warp kernels they replace and GMP-16 on the H100 host: 4096 and
# 8192 bits with full exponents (GMP with 1024-bit exponents, scaled), 12288 / 16384 bits with
# 2048-bit exponents scaled (16 Kbit against bgsqr q16.l32, 12 Kbit against the composed Barrett
# default there).
set -u
b=/tmp/lb; rm -rf /tmp/o; mkdir -p $b /tmp/o
xz -dc gpu-build/s11/bigtune-bench-mod.xz > $b/bigtune-bench-mod; chmod +x $b/bigtune-bench-mod
export BIGTUNE_DB=/tmp/runF-$$.db
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee /tmp/o/gpu.txt
cat gpu-build/s11/commit.txt >> /tmp/o/steps.txt
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > /tmp/o/$name.log 2>&1; local rc=$?; echo "$name rc=$rc s=$(( $(date +%s) - s ))" >> /tmp/o/steps.txt; }
bm=$b/bigtune-bench-mod
step p4k 60 $bm --powm-bits 4096 --only dfmat.u64.q64.t8.w6,bgsqr.u32.q16.l8.w6 --reps 3 --no-mulmod --max-e-bits 4096 --gmp-max-e-bits 1024
step p8k 80 $bm --powm-bits 8192 --only dfmat.u64.q128.t16.w6,bgsqr.u32.q16.l16.w6 --reps 3 --no-mulmod --max-e-bits 8192 --gmp-max-e-bits 1024
step p16k 80 $bm --powm-bits 16384 --only dfmat.u64.q256.t32.w6,bgsqr.u32.q16.l32.w6 --reps 3 --no-mulmod --max-e-bits 2048 --gmp-max-e-bits 1024
step p12k 60 $bm --powm-bits 12288 --only dfmat.u64.q256.t32.w6,barrett.u64.q1.w6 --reps 3 --no-mulmod --no-gmp --max-e-bits 2048
cp /tmp/o/* $OUT/ 2>/dev/null
cat /tmp/o/steps.txt
cat /tmp/o/p*.log | grep -vE "^$|device|^powm|bits variant"
