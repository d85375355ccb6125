#!/bin/bash
# session 7 baseline: powm above 8 Kbit and products at those sizes on main 4eb61d1
set -x
cd "$(dirname "$0")"; xz -d -k -f *.xz; chmod +x bench-mod bench
export BIGTUNE_DB=$(mktemp -d)/t.db
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv
./bench-mod --powm-bits 16384 32768 65536 --only barrett.u64.q1.w6 --reps 3 --min-count 2048 --no-mulmod 2>&1 | tee $OUT/powmbig.log
./bench --ops mul sqr mul_low --defaults-only --reps 5 --min-log2-bits 13 --max-log2-bits 17 2>&1 | tail -30 | tee $OUT/products.log
