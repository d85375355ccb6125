#!/usr/bin/env bash
# Session 16, run E (H100): gpu-build/s35 (main at ef8e3ce). Where the time goes in the two powm
# kernels behind the 50x-GMP target: ncu (full set, SASS source counters) on nttmont .sw9 at 32 Kbit
# (528 instances, one wave, 4096-bit exponents: the squaring loop's steady state) and on the lane
# team .sw8.sq at 16 Kbit (one wave, 2112 instances, 2048-bit exponents). The probe launch is one wave
# too (ncu -c 1 takes the first launch: a one-instance probe was what a first try of this run profiled).
set -u
b=/tmp/s35; mkdir -p $b
xz -dc gpu-build/s35/bin.tar.xz | tar -C $b -xf -
export BIGTUNE_DB=$(mktemp -d)/t.db
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $OUT/gpu.txt
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > $OUT/$name.log 2>&1; echo "$name rc=$? s=$(( $(date +%s) - s ))" >> $OUT/steps.txt; }
prof() { local name=$1 k=$2 t=$3; shift 3
  step ${name}_ncu $t ncu -k regex:$k -c 1 --set full --import-source no -f -o /tmp/$name "$@"
  ncu -i /tmp/$name.ncu-rep --page details > $OUT/$name-ncu.txt 2>&1
  ncu -i /tmp/$name.ncu-rep --page source --print-source sass --csv 2>&1 | xz -T4 > $OUT/$name-sass.csv.xz; }
one="--no-mulmod --no-gmp --target-ms 1 --reps 1"
prof nm nttmont_powm 240 $b/bigtune-bench-mod $one --probe-count 528 --min-count 528 --powm-bits 32768 --only nttmont.u64.q1.sw9 --max-e-bits 4096
prof dt dfma_team 240 $b/bigtune-bench-mod $one --probe-count 2112 --min-count 2112 --powm-bits 16384 --only dfmat.u64.q256.t32.sw8.sq --max-e-bits 2048
(cat $OUT/gpu.txt $OUT/steps.txt
 for f in nm dt; do echo "== $f"; grep -E "^  [a-z_]+.*\(|Duration|Registers Per|Achieved Occupancy|Theoretical Occupancy|Issue Slots Busy|No Eligible|Warp Cycles Per Issued|Executed Instructions  |Block Limit Reg|Block Limit Shared|Dynamic Shared" $OUT/$f-ncu.txt | head -16; done) > $OUT/summary.txt
cat $OUT/summary.txt
