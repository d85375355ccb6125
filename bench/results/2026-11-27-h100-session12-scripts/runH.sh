#!/usr/bin/env bash
# Session 12, run H (H100): the defaults at 4, 8 and 16 Kbit timed as session 11's run F timed them
# (bench-mod's own batch sizing: at least 16384 instances, here several waves; full exponents;
# 16 Kbit on 4224 instances, two waves), session 11's build (gpu-build/carry) beside the final one
# (gpu-build/s12, commit 7364af4), to put run G's one-wave figures on the README's footing.
set -u
b=/tmp/lb; o=/tmp/old; mkdir -p $b $o; xz -dc gpu-build/s12/bin.tar.xz | tar -C $b -xf - bigtune-bench-mod
xz -dc gpu-build/carry/bin.tar.xz | tar -C $o -xf - ./bigtune-bench-mod
export BIGTUNE_DB=$(mktemp -d)/t.db
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $OUT/gpu.txt
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > $OUT/$name.log 2>&1; echo "$name rc=$? s=$(( $(date +%s) - s ))" | tee -a $OUT/steps.txt; }
a="--no-mulmod --no-gmp --reps 3"
step old4k 40 $o/bigtune-bench-mod $a --powm-bits 4096 --only dfmat.u64.q64.t8.w6 --max-e-bits 4096
step new4k 40 $b/bigtune-bench-mod $a --powm-bits 4096 --only dfmat.u64.q64.t8.w6 --max-e-bits 4096
step old8k 60 $o/bigtune-bench-mod $a --powm-bits 8192 --only dfmat.u64.q128.t16.w6 --max-e-bits 8192
step new8k 90 $b/bigtune-bench-mod $a --powm-bits 8192 --only dfmat.u64.q128.t16.w6 --max-e-bits 8192
step old16k 60 $o/bigtune-bench-mod $a --powm-bits 16384 --only dfmat.u64.q256.t32.w6 --max-e-bits 16384 --probe-count 1 --min-count 4224 --target-ms 1
step new16k 60 $b/bigtune-bench-mod $a --powm-bits 16384 --only dfmat.u64.q256.t32.w6.sq --max-e-bits 16384 --probe-count 1 --min-count 4224 --target-ms 1
for f in old4k new4k old8k new8k old16k new16k; do grep -hE "^ *[0-9]+ powm" $OUT/$f.log | sed "s|^|$f |"; done
