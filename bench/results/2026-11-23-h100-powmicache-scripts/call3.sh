#!/usr/bin/env bash
# powmicache call 3: block size of the 2-16 Kbit powm defaults (one-warp blocks: registers cap the resident
# warps at 11 instead of 8 per SM at Q = 16). Kernels = main 56b7222's (bench-mod-base); tests of the default
# plans with one-warp blocks (gpu-tests3), sanitizers, ncu of 4 Kbit at ipb 4 and 32.
set -u
b=/tmp/pb; o=/tmp/po; mkdir -p $b $o
for f in bench-mod-base gpu-tests3; do xz -dc .carry/powmicache/$f.xz > $b/$f & done; wait
chmod +x $b/*
export BIGTUNE_TEST_SEED=20261126 BIGTUNE_DB=$(mktemp -d)/t.db
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $o/gpu.txt
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > $o/$name.log 2>&1; local rc=$?; echo "$name rc=$rc s=$(( $(date +%s) - s ))" | tee -a $o/steps.txt; }
t=$b/gpu-tests3; m=$b/bench-mod-base; B="--no-gmp --no-mulmod --reps 2"
step tests 100 $t --gtest_brief=1 --gtest_filter='PowmRegsVsGmp.*:ModDefaultPlan*'
step p2k 25 $m --powm-bits 2048 --only bgsqr.u32.q8.l8.w6 --max-e-bits 2048 --min-count 143616 --powm-ipb 32 4 $B
step p4k 35 $m --powm-bits 4096 --only bgsqr.u32.q16.l8.w6 --max-e-bits 4096 --min-count 46464 --powm-ipb 32 16 8 4 $B
step p8k 45 $m --powm-bits 8192 --only bgsqr.u32.q16.l16.w6 --max-e-bits 8192 --min-count 23232 --probe-count 2112 --powm-ipb 16 2 $B
step p16k-a 30 $m --powm-bits 16384 --only bgsqr.u32.q16.l32.w6 --max-e-bits 16384 --min-count 4224 --probe-count 1056 --powm-ipb 8 --no-gmp --no-mulmod --reps 2
step p16k-b 30 $m --powm-bits 16384 --only bgsqr.u32.q16.l32.w6 --max-e-bits 16384 --min-count 4356 --probe-count 1452 --powm-ipb 1 --no-gmp --no-mulmod --reps 2
step memcheck 50 env BIGTUNE_TEST_MAX_BITS=2048 compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 99 $t --gtest_brief=1 --gtest_filter='PowmRegsVsGmp.DefaultPlan2To8Kbit'
step racecheck 30 env BIGTUNE_TEST_MAX_BITS=2048 compute-sanitizer --tool racecheck --report-api-errors no --error-exitcode 99 $t --gtest_brief=1 --gtest_filter='PowmRegsVsGmp.DefaultPlan2To8Kbit'
for ipb in 32 4; do
  step ncu4k-$ipb 25 ncu -k regex:powm_warp_global -c 1 --section WarpStateStats --section SchedulerStats --section Occupancy --metrics sm__pipe_fmaheavy_cycles_active.avg.pct_of_peak_sustained_active,sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active,smsp__pcsamp_warps_issue_stalled_wait,smsp__pcsamp_warps_issue_stalled_math_pipe_throttle,smsp__pcsamp_warps_issue_stalled_no_instructions,smsp__pcsamp_warps_issue_stalled_selected,smsp__pcsamp_warps_issue_stalled_dispatch_stall,smsp__pcsamp_warps_issue_stalled_not_selected $m --powm-bits 4096 --only bgsqr.u32.q16.l8.w6 --max-e-bits 512 --probe-count 46464 --min-count 46464 --powm-ipb $ipb --no-gmp --no-mulmod --reps 1 --target-ms 5
done
cat $o/steps.txt
grep -hE "cases|mismatch|default plan|PASSED|FAILED|SKIPPED" $o/tests.log | head -20
grep -hE "^ *[0-9]+ +(powm|bgsqr)|bgsqr" $o/p*.log | head -20
grep -hE "ERROR SUMMARY|PASSED|FAILED" $o/memcheck.log $o/racecheck.log | head
grep -hE "fmaheavy|pipe_alu|stalled_(wait|math|no_inst|selected|dispatch|not_sel)|Eligible Warps|Achieved Active Warps|Theoretical Occ" $o/ncu4k-*.log | head -24
tar czf $OUT/call3.tgz -C $o .
