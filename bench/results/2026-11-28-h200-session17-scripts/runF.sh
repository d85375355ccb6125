#!/usr/bin/env bash
# Session 17, run F (H200): gpu-build/s47 (main's device code; its sw9 variant is main's kernel). Where
# the time goes in nttmont .sw9 at 32 Kbit after the Shoup products, for the next step: ncu (full
# set, SASS source counters) on one wave (528 instances, 4096-bit exponents), as session 16 run E.
set -u
b=/tmp/s47; mkdir -p $b
xz -dc gpu-build/s47/bin.tar.xz | tar -C $b -xf -
export BIGTUNE_DB=$(mktemp -d)/t.db
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $OUT/gpu.txt
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > $OUT/$name.log 2>&1; echo "$name rc=$? s=$(( $(date +%s) - s ))" >> $OUT/steps.txt; }
step nm_ncu 240 ncu -k regex:nttmont_powm -c 1 --set full --import-source no -f -o /tmp/nm $b/bigtune-bench-mod --no-mulmod --no-gmp --target-ms 1 --reps 1 --probe-count 528 --min-count 528 --powm-bits 32768 --only nttmont.u64.q1.sw9 --max-e-bits 4096
ncu -i /tmp/nm.ncu-rep --page details > $OUT/nm-ncu.txt 2>&1
ncu -i /tmp/nm.ncu-rep --page raw --csv 2>/dev/null | xz -T4 > $OUT/nm-raw.csv.xz
ncu -i /tmp/nm.ncu-rep --page source --print-source sass --csv 2>&1 | xz -T4 > $OUT/nm-sass.csv.xz
(cat $OUT/gpu.txt $OUT/steps.txt
 grep -E "Duration|Registers Per|Achieved Occupancy|Theoretical Occupancy|Issue Slots Busy|No Eligible|Warp Cycles Per Issued|Executed Instructions  |Block Limit Reg|Block Limit Shared|Dynamic Shared" $OUT/nm-ncu.txt | head -16) > $OUT/summary.txt
cat $OUT/summary.txt
