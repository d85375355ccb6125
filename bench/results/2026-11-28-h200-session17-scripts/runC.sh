#!/usr/bin/env bash
# Session 17, run C (H200): gpu-build/s39 = main's Shoup butterflies (b87601d); gpu-build/s42 holds two
# bench-mod builds on top of it: -s42 with the out-of-line radix-8 pass up to 2^11 points (the NTT
# Montgomery powm at 64 Kbit, kNmSharedPassMaxLog 10 -> 11) and -s43 with only the input digits'
# conversion as Shoup products (from_digit / from_digit_scaled by constant pairs; no table change,
# spills identical to s39). Alternating pairs; then GMP-16 at 8 Kbit on this host against TARGETS.md's
# reference (76 powm/s) and the host's CPU.
set -u
o=/tmp/s39; b=/tmp/s42; mkdir -p $o $b
xz -dc gpu-build/s39/bin.tar.xz | tar -C $o -xf -; xz -dc gpu-build/s42/bin.tar.xz | tar -C $b -xf -
export BIGTUNE_DB=$(mktemp -d)/t.db
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $OUT/gpu.txt
lscpu | grep -E "Model name|^CPU\(s\)|Thread|MHz" >> $OUT/gpu.txt
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > $OUT/$name.log 2>&1; echo "$name rc=$? s=$(( $(date +%s) - s ))" >> $OUT/steps.txt; }
one="--no-mulmod --no-gmp --probe-count 1 --min-count 1 --target-ms 1"
m32="--reps 3 --powm-bits 32768 --only nttmont.u64.q1.sw9 --max-e-bits 32768"
m64="--reps 2 --powm-bits 65536 --only nttmont.u64.q1.sw9 --max-e-bits 16384"
step o64 60 $o/bigtune-bench-mod $one $m64
step p64 60 $b/bigtune-bench-mod-s42 $one $m64
step p64b 60 $b/bigtune-bench-mod-s42 $one $m64
step o64b 60 $o/bigtune-bench-mod $one $m64
step o32 60 $o/bigtune-bench-mod $one $m32
step d32 60 $b/bigtune-bench-mod-s43 $one $m32
step d32b 60 $b/bigtune-bench-mod-s43 $one $m32
step o32b 60 $o/bigtune-bench-mod $one $m32
step d64 60 $b/bigtune-bench-mod-s43 $one $m64
step nb_o 40 $o/bigtune-bench-mod $one --reps 3 --powm-bits 32768 --only nttbarrett.u64.q1.w6 --max-e-bits 8192
step nb_d 40 $b/bigtune-bench-mod-s43 $one --reps 3 --powm-bits 32768 --only nttbarrett.u64.q1.w6 --max-e-bits 8192
step g8k 120 $o/bigtune-bench-mod --no-mulmod --probe-count 1 --min-count 4224 --target-ms 1 --reps 3 --powm-bits 8192 --only dfmat.u64.q128.t16.w6 --max-e-bits 8192
(cat $OUT/gpu.txt $OUT/steps.txt
 for f in o64 p64 p64b o64b o32 d32 d32b o32b d64 nb_o nb_d g8k; do grep -hE "^ *[0-9]+ (powm|GMP)" $OUT/$f.log | sed "s|^|$f |"; done) > $OUT/summary.txt
(cd $OUT && tar -cJf logs.tar.xz *.log && rm -f *.log)
cat $OUT/summary.txt
