#!/usr/bin/env bash
# Session 15, run A (H100): where the time goes. gpu-build/s26 = main 4057b7e's bench-mod.
# ncu (full set, source counters) on nttmont .sw9 at 32 Kbit (4096-bit exponents: the
# squaring loop's steady state), the DFMA mulmod .roll4 at 1 Kbit and the 1-Kbit product.
set -u
b=/tmp/nm26; mkdir -p $b; xz -dc gpu-build/s26/bin.tar.xz | tar -C $b -xf -
export BIGTUNE_DB=$(mktemp -d)/t.db
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $OUT/gpu.txt
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > $OUT/$name.log 2>&1; echo "$name rc=$? s=$(( $(date +%s) - s ))" >> $OUT/steps.txt; }
prof() { local name=$1 k=$2 t=$3; shift 3
  step ${name}_ncu $t ncu -k regex:$k -c 1 --set full --import-source no -f -o /tmp/$name "$@"
  ncu -i /tmp/$name.ncu-rep --page details > $OUT/$name.txt 2>&1
  ncu -i /tmp/$name.ncu-rep --page source --print-source sass --csv > /tmp/${name}_sass.csv 2>&1
  xz -T4 -c /tmp/${name}_sass.csv > $OUT/${name}_sass.csv.xz; }
prof nm nttmont_powm 200 $b/bigtune-bench-mod --no-mulmod --no-gmp --probe-count 1 --min-count 1 --target-ms 1 --reps 1 --powm-bits 32768 --only nttmont.u64.q1.sw9 --max-e-bits 4096
prof mm dfma_mulmod 120 $b/bigtune-bench-mod --no-gmp --reps 1 --powm-bits 64 --only none --mulmod-bits 1024 --only-mulmod dfma.u64.q16.roll4
prof mul warp_mul 120 $b/bigtune-bench-mod --no-gmp --reps 1 --powm-bits 64 --only none --mulmod-bits 1024 --only-mulmod dfma.u64.q16.roll4
(cat $OUT/gpu.txt $OUT/steps.txt
 for f in nm mm mul; do echo "== $f"; grep -E "^  [a-z_]+.*\(|Duration|Registers Per|Achieved Occupancy|Theoretical Occupancy|Issue Slots Busy|No Eligible|Warp Cycles Per Issued|Compute \(SM\) Throughput|Memory Throughput|L1/TEX Hit|DRAM Throughput|Block Limit|Dynamic Shared|Executed Ipc A" $OUT/$f.txt | head -30; done) > $OUT/summary.txt
cat $OUT/summary.txt
