#!/usr/bin/env bash
# Session 13, run B (H100; rerun with --launch-skip 2: the first two launches are the one-instance probe and its warm-up): where the 16 Kbit squaring kernel (powm.dfmat.u64.q256.t32.w6.sq, main's
# build gpu-build/s13) spends its issue slots: ncu's per-instruction warp-state samples on one launch
# of one wave with a 256-bit exponent, plus the scheduler and warp-state sections.
set -u
b=/tmp/ob; mkdir -p $b; xz -dc gpu-build/s13/bin.tar.xz | tar -C $b -xf -
export BIGTUNE_DB=$(mktemp -d)/t.db
ncu --version | tail -1
timeout 300 ncu -k regex:dfma_team_powm --launch-skip 2 --launch-count 1 --section SourceCounters --section WarpStateStats \
  --section SchedulerStats --section ComputeWorkloadAnalysis --section InstructionStats -o $OUT/sq16k \
  $b/bigtune-bench-mod --no-mulmod --no-gmp --reps 1 --powm-bits 16384 --only dfmat.u64.q256.t32.w6.sq \
  --max-e-bits 256 --probe-count 1 --min-count 2112 --target-ms 1 > $OUT/ncu.log 2>&1; echo "ncu rc=$?"
tail -5 $OUT/ncu.log
ncu -i $OUT/sq16k.ncu-rep --print-details all > $OUT/details.txt 2>&1
ncu -i $OUT/sq16k.ncu-rep --page source --print-source sass --csv > $OUT/source.csv 2>$OUT/source.err; echo "source rc=$? $(wc -l < $OUT/source.csv) lines"
head -c 600 $OUT/source.err
grep -E "Grid Size|Issue Slots Busy|Issued Ipc|No Eligible|Active Warps Per|Eligible Warps|Warp Cycles Per Issued|Stall|FP64  " $OUT/details.txt | head -40
