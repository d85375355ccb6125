#!/usr/bin/env bash
# Session 12, run C (H100; session 11's final binaries): ncu on the 16 Kbit team powm (q256.t32)
# with 4096-bit exponents, so the hot loop and not the conversion fills the samples (run A's
# 512-bit exponents were dominated by rank 0's Knuth division); the source page (SASS with its
# stall samples) is kept to find the hot loop's stalls.
set -u
b=/tmp/pb; mkdir -p $b; xz -dc gpu-build/carry/bin.tar.xz | tar -C $b -xf - ./bigtune-bench-mod
export BIGTUNE_DB=$(mktemp -d)/t.db
ms="sm__inst_executed_pipe_fp64.avg.pct_of_peak_sustained_active,sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_alu.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active"
secs="--section SpeedOfLight --section Occupancy --section WarpStateStats --section SchedulerStats --section InstructionStats --section SourceCounters"
s=$(date +%s)
timeout 240 ncu -k regex:dfma_team_powm -c 1 $secs --metrics "$ms" --import-source no -o /tmp/c16k -f $b/bigtune-bench-mod --no-gmp --no-mulmod --reps 1 --powm-bits 16384 --only dfmat.u64.q256.t32.w6 --max-e-bits 4096 --probe-count 2112 --min-count 2112 > $OUT/c16k.run.log 2>&1
echo "ncu rc=$? s=$(( $(date +%s) - s ))"
ncu -i /tmp/c16k.ncu-rep --page details --print-details all > $OUT/c16k.txt 2>&1
ncu -i /tmp/c16k.ncu-rep --page source --csv --print-source sass > $OUT/c16k-sass.csv 2>&1
ls -la $OUT
grep -E "Duration|SM Frequency|Issue Slots Busy|Issued Ipc|No Eligible|Eligible Warps|Warp Cycles Per Issued|pipe_fp64|pipe_alu|pipe_lsu|Stall [A-Z]" $OUT/c16k.txt | head -40
