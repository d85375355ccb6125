#!/usr/bin/env bash
# Session 12, run A: ncu on the team DFMA powm (session 11's final binaries, gpu-build/carry from
# scripts/build-gpu.sh at a8ebca8) at 16 Kbit (q256.t32) and 4 Kbit (q64.t8), 512-bit exponents,
# one whole wave: which pipe or stall holds it at 46-50 % of the FP64 bound.
set -u
b=/tmp/pb; mkdir -p $b; xz -dc gpu-build/carry/bin.tar.xz | tar -C $b -xf - ./bigtune-bench-mod
export BIGTUNE_DB=$(mktemp -d)/t.db
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $OUT/gpu.txt
ncu --version | tail -1 | tee -a $OUT/gpu.txt
ncu --query-metrics > /tmp/metrics.txt 2>&1
cand="sm__inst_executed_pipe_fp64 sm__pipe_fp64_cycles_active sm__inst_executed_pipe_alu sm__pipe_alu_cycles_active sm__inst_executed_pipe_fmaheavy sm__pipe_fmaheavy_cycles_active sm__inst_executed_pipe_lsu sm__pipe_shared_cycles_active sm__inst_executed_pipe_xu"
ms=""
for c in $cand; do grep -q "^$c " /tmp/metrics.txt && ms="$ms,$c.avg.pct_of_peak_sustained_active"; done
for c in $(grep -oE "^smsp__pcsamp_warps_issue_stalled_[a-z_]+" /tmp/metrics.txt | grep -v not_issued); do ms="$ms,$c.sum"; done
ms=${ms#,}
secs="--section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section SchedulerStats --section InstructionStats --section ComputeWorkloadAnalysis --section SourceCounters"
prof() { local tag=$1; shift; local s=$(date +%s)
  timeout 150 ncu -k regex:dfma_team_powm -c 1 $secs --metrics "$ms" -o /tmp/$tag -f $b/bigtune-bench-mod --no-gmp --no-mulmod --reps 1 "$@" > $OUT/$tag.run.log 2>&1
  local rc=$?
  ncu -i /tmp/$tag.ncu-rep --page details --print-details all > $OUT/$tag.txt 2>&1
  echo "$tag rc=$rc s=$(( $(date +%s) - s ))" | tee -a $OUT/steps.txt; }
prof n16k --powm-bits 16384 --only dfmat.u64.q256.t32.w6 --max-e-bits 512 --probe-count 2112 --min-count 2112
prof n4k --powm-bits 4096 --only dfmat.u64.q64.t8.w6 --max-e-bits 512 --probe-count 8448 --min-count 8448
for t in n16k n4k; do echo "== $t"; grep -E "Duration|SM Frequency|Registers Per|Achieved Occupancy|Issued Ipc Active|Issue Slots Busy|Eligible Warps|No Eligible|Warp Cycles Per Issued|pipe_fp64|pipe_alu|pipe_lsu|pipe_shared|pcsamp_warps_issue_stalled_(wait|short|long|math|dispatch|no_inst|barrier|membar|mio|lg|selected|not_selected|branch|sleep|drain|tex)" $OUT/$t.txt | head -46; done
