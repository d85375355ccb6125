#!/usr/bin/env bash
# Session 18, run E (H200): gpu-build/s52 (device code of main d0d82e7). mulmod and sqrmod with moduli
# per instance at 1-8 Kbit, every variant: where the default (wbarrett/wbarrett2 launching bmont for
# moduli per instance, the DFMA Montgomery at 1 Kbit) stands against the composed Barrett's new path
# (a b divided by m).
set -u
b=/tmp/s52; mkdir -p $b
xz -dc gpu-build/s52/bin.tar.xz | tar -C $b -xf -
export BIGTUNE_DB=$(mktemp -d)/t.db
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $OUT/gpu.txt
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > $OUT/$name.log 2>&1; echo "$name rc=$? s=$(( $(date +%s) - s ))" >> $OUT/steps.txt; }
pi="--powm-bits 64 --only none --no-gmp --mulmod-bits 1024 2048 4096 8192 12288 --reps 5 --per-instance-moduli"
step pimm 200 $b/bigtune-bench-mod $pi
step pisq 200 $b/bigtune-bench-mod $pi --sqrmod
(cat $OUT/gpu.txt $OUT/steps.txt; cat $OUT/pimm.log $OUT/pisq.log | grep -E "mulmod |^ *[0-9]+ +[0-9]+ ") > $OUT/summary.txt
(cd $OUT && tar -cJf logs.tar.xz *.log && rm -f *.log)
cat $OUT/summary.txt
