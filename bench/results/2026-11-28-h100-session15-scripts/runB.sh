#!/usr/bin/env bash
# Session 15, run B (H100): run A's nttmont profile again on a whole wave (528 blocks, the
# probe launch skipped), its SASS source counters back. gpu-build/s26 as run A.
set -u
b=/tmp/nm26; mkdir -p $b; xz -dc gpu-build/s26/bin.tar.xz | tar -C $b -xf -
export BIGTUNE_DB=$(mktemp -d)/t.db
timeout 300 ncu -k regex:nttmont_powm -c 1 --set full --import-source no -f -o /tmp/nm $b/bigtune-bench-mod --no-mulmod --no-gmp --probe-count 528 --min-count 528 --target-ms 1 --reps 1 --powm-bits 32768 --only nttmont.u64.q1.sw9 --max-e-bits 4096 > $OUT/nm_ncu.log 2>&1
ncu -i /tmp/nm.ncu-rep --page details > $OUT/nm.txt 2>&1
ncu -i /tmp/nm.ncu-rep --page source --print-source sass --csv 2>&1 | xz -T4 > $OUT/nm_sass.csv.xz
grep -E "Duration|Issue Slots Busy|No Eligible|Achieved Occupancy|Executed Instructions  " $OUT/nm.txt
