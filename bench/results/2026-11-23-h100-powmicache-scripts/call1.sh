#!/usr/bin/env bash
# powmicache call 1: ncu on the 1/2/4/8 Kbit powm defaults (main 56b7222), short exponents, batches of whole waves.
set -u
b=/tmp/pb; mkdir -p $b; xz -dc .carry/powmicache/bench-mod.xz > $b/bm; chmod +x $b/bm
export BIGTUNE_DB=$(mktemp -d)/t.db
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $OUT/gpu.txt
ncu --version | tee -a $OUT/gpu.txt
ncu --query-metrics > $OUT/metrics.txt 2>&1
cand="sm__inst_executed_pipe_fmaheavy sm__inst_executed_pipe_fmalite sm__inst_executed_pipe_fma sm__inst_executed_pipe_alu sm__inst_executed_pipe_ipa sm__pipe_fmaheavy_cycles_active sm__pipe_fma_cycles_active sm__pipe_alu_cycles_active sm__pipe_shared_cycles_active sm__inst_executed_pipe_adu"
ms=""
for c in $cand; do grep -q "^$c " $OUT/metrics.txt && ms="$ms,$c.avg.pct_of_peak_sustained_active"; done
for c in $(grep -oE "^smsp__pcsamp_warps_issue_stalled_[a-z_]+" $OUT/metrics.txt | grep -v not_issued); do ms="$ms,$c.sum"; done
for c in $(grep -oE "^sm[sp_]*_(icc|imc|l1i|inst_cache)[a-z_]*" $OUT/metrics.txt); do ms="$ms,$c.sum"; done
ms=${ms#,}; echo "$ms" > $OUT/metric_list.txt
secs="--section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section SchedulerStats --section InstructionStats --section ComputeWorkloadAnalysis --section SourceCounters"
prof() { local tag=$1; shift; local s=$(date +%s)
  timeout 100 ncu -k regex:powm_warp_global -c 1 $secs --metrics "$ms" -o $OUT/$tag -f $b/bm --no-gmp --no-mulmod --reps 1 --target-ms 5 "$@" > $OUT/$tag.run.log 2>&1
  local rc=$?
  if [ $rc -ne 0 ]; then timeout 100 ncu -k regex:powm_warp_global -c 1 $secs -o $OUT/$tag -f $b/bm --no-gmp --no-mulmod --reps 1 --target-ms 5 "$@" > $OUT/$tag.run2.log 2>&1; rc=$?; fi
  ncu -i $OUT/$tag.ncu-rep --page details --print-details all > $OUT/$tag.txt 2>&1
  ncu -i $OUT/$tag.ncu-rep --page raw --csv > $OUT/$tag.raw.csv 2>&1
  echo "$tag rc=$rc s=$(( $(date +%s) - s ))" | tee -a $OUT/steps.txt; }
prof p1k --powm-bits 1024 --only bgsqr.u32.q16.l2.w5 --powm-ipb 64 --max-e-bits 512 --probe-count 50688 --min-count 50688
prof p2k --powm-bits 2048 --only bgsqr.u32.q8.l8.w6 --max-e-bits 512 --probe-count 16896 --min-count 16896
prof p4k --powm-bits 4096 --only bgsqr.u32.q16.l8.w6 --max-e-bits 512 --probe-count 8448 --min-count 8448
prof p8k --powm-bits 8192 --only bgsqr.u32.q16.l16.w6 --max-e-bits 512 --probe-count 4224 --min-count 4224
cat $OUT/steps.txt
for t in p1k p2k p4k p8k; do echo "== $t"; grep -E "Duration|Registers Per|Achieved Occupancy|Issued Ipc Active|Eligible Warps|No Eligible|Warp Cycles Per Issued|fmaheavy|pipe_fma|pipe_alu|no_instruction|math_pipe|stalled_wait|short_scoreboard" $OUT/$t.txt | head -40; done
