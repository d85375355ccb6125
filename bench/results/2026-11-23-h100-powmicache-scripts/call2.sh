#!/usr/bin/env bash
# powmicache call 2: lane Karatsuba in the Q = 16 warp Montgomery kernels (bgsqr q16.l8 / l16 / l32).
# GPU tests of the changed kernels, bench new vs base (main 56b7222) at 4/8/16 Kbit with full exponents,
# memcheck + racecheck small, ncu of the new 4 Kbit kernel.
set -u
b=/tmp/pb; o=/tmp/po; mkdir -p $b $o
for f in bench-mod-base bench-mod-new gpu-tests-new; do xz -dc .carry/powmicache/$f.xz > $b/$f & done; wait
chmod +x $b/*
export BIGTUNE_TEST_SEED=20261125 BIGTUNE_DB=$(mktemp -d)/t.db
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $o/gpu.txt
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > $o/$name.log 2>&1; local rc=$?; echo "$name rc=$rc s=$(( $(date +%s) - s ))" | tee -a $o/steps.txt; }
t=$b/gpu-tests-new
step tests 110 env BIGTUNE_TEST_VARIANTS=bgsqr.u32.q16.l8,bgsqr.u32.q16.l16 $t --gtest_brief=1 --gtest_filter='WarpModVsGmp.PowmFullExponents:PowmRegs*:ModDefault*'
B="--no-gmp --no-mulmod --reps 3"
for v in base new; do
  step p4k-$v 25 $b/bench-mod-$v --powm-bits 4096 --only bgsqr.u32.q16.l8.w6 --max-e-bits 4096 --min-count 63360 $B
  step p8k-$v 25 $b/bench-mod-$v --powm-bits 8192 --only bgsqr.u32.q16.l16.w6 --max-e-bits 8192 --min-count 8448 --probe-count 2112 $B
  step p16k-$v 40 $b/bench-mod-$v --powm-bits 16384 --only bgsqr.u32.q16.l32.w6 --max-e-bits 16384 --min-count 2112 --probe-count 1056 $B
done
step memcheck 45 env BIGTUNE_TEST_VARIANTS=bgsqr.u32.q16.l8.w6 BIGTUNE_TEST_MAX_BITS=1100 compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 99 $t --gtest_brief=1 --gtest_filter='WarpModVsGmp.PowmFullExponents'
step racecheck 25 env BIGTUNE_TEST_VARIANTS=bgsqr.u32.q16.l8.w6 BIGTUNE_TEST_MAX_BITS=1100 compute-sanitizer --tool racecheck --report-api-errors no --error-exitcode 99 $t --gtest_brief=1 --gtest_filter='WarpModVsGmp.PowmFullExponents'
step ncu4k 30 ncu -k regex:powm_warp_global -c 1 --section WarpStateStats --section SchedulerStats --metrics sm__pipe_fmaheavy_cycles_active.avg.pct_of_peak_sustained_active,sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed.avg.per_cycle_active,smsp__pcsamp_warps_issue_stalled_wait,smsp__pcsamp_warps_issue_stalled_math_pipe_throttle,smsp__pcsamp_warps_issue_stalled_no_instructions,smsp__pcsamp_warps_issue_stalled_selected,smsp__pcsamp_warps_issue_stalled_dispatch_stall $b/bench-mod-new --powm-bits 4096 --only bgsqr.u32.q16.l8.w6 --max-e-bits 512 --probe-count 8448 --min-count 8448 --no-gmp --no-mulmod --reps 1 --target-ms 5
cat $o/steps.txt
grep -hE "cases|mismatch|PASSED|FAILED|SKIPPED" $o/tests.log | head -20
grep -hE "^ *[0-9]+ +(powm|bgsqr)|bgsqr" $o/p*k-*.log | head -20
grep -hE "ERROR SUMMARY|PASSED|FAILED" $o/memcheck.log $o/racecheck.log | head
grep -E "fmaheavy|pipe_alu|stalled_(wait|math|no_inst|selected|dispatch)|Eligible|per_cycle_active" $o/ncu4k.log | head -12
tar czf $OUT/call2.tgz -C $o .
