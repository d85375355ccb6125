#!/usr/bin/env bash
# Session 12, run B (H100; session 11's final binaries, gpu-build/carry at a8ebca8): powm above 8
# Kbit with FULL exponents on both sides (GPU and GMP-16), one whole wave a launch. Run A showed
# the team kernel's fixed part (rank 0's Knuth division in local memory) at ~150 ms a wave, which
# the earlier 2048-bit-exponent rows multiplied by 8 when they scaled the rate.
set -u
b=/tmp/pb; mkdir -p $b; xz -dc gpu-build/carry/bin.tar.xz | tar -C $b -xf - ./bigtune-bench-mod
export BIGTUNE_DB=$(mktemp -d)/t.db
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $OUT/gpu.txt
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > $OUT/$name.log 2>&1; echo "$name rc=$? s=$(( $(date +%s) - s ))" | tee -a $OUT/steps.txt; }
bm="$b/bigtune-bench-mod --no-mulmod --reps 3 --probe-count 1 --min-count 1 --target-ms 1"
step p16k 150 $bm --powm-bits 16384 --only dfmat.u64.q256.t32.w6,bgsqr.u32.q16.l32.w6 --max-e-bits 16384
step p12k 60 $bm --powm-bits 12288 --only dfmat.u64.q256.t32.w6,barrett.u64.q1.w6 --max-e-bits 12288 --no-gmp
step p32k 150 $bm --powm-bits 32768 --only nttbarrett.u64.q1.w6 --max-e-bits 32768
step p64k 230 $bm --powm-bits 65536 --only nttbarrett.u64.q1.w6.b2 --max-e-bits 65536
grep -hE "^ *[0-9]+ (powm|GMP)" $OUT/p*.log
