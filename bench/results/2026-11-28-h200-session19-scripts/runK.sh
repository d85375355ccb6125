#!/usr/bin/env bash
# Session 19, run K (H200): gpu-build/s65 = main 725f912. The time of each kernel of one tcbarrett
# mulmod call at 2, 8 and 16 Kbit (ncu gpu__time_duration; the batch of bits x count = 2^32).
set -u
b=/tmp/s65; mkdir -p $b
xz -dc gpu-build/s65/bin.tar.xz | tar -C $b -xf -
export BIGTUNE_DB=$(mktemp -d)/t.db
for bits in 2048 8192 16384; do
  timeout 120 ncu --metrics gpu__time_duration.sum -k 'regex:barrett_|mul_const_imma|warp_|thread_|blockrot|kara' --launch-count 14 \
    $b/bigtune-bench-mod --powm-bits 64 --only none --no-gmp --mulmod-bits $bits --only-mulmod mulmod.tcbarrett --reps 1 > $OUT/ncu$bits.log 2>&1
  echo "== $bits"
  grep -E "^  [a-zA-Z_].*\(|gpu__time_duration" $OUT/ncu$bits.log | sed -E 's/\(.*//' | paste - - | awk '{print $1, $2, $(NF-1), $(NF)}'
done
