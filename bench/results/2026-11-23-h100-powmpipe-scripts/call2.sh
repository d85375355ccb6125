#!/usr/bin/env bash
# powmpipe call 2: call 1's pipe candidates lost 1-6 %. (a) the quotient-only candidates
# powm.bgsqr.u32.q16.l{2.w5,8.w6}.pq (bits 16 | 256: +3-4 % instructions a reduction step instead of
# +10 %) against the defaults and .pipe in one process; (b) ncu of the 4 Kbit default, .pipe and .pq
# (512-bit exponents, whole waves); (c) the .pq variants against GMP, memcheck.
set -u
b=/tmp/pb; o=/tmp/po; mkdir -p $b $o
for f in bigtune-bench-mod bigtune_gpu_tests; do xz -dc .carry/powmpipe/$f.xz > $b/$f & done; wait
chmod +x $b/*
export BIGTUNE_TEST_SEED=20261128 BIGTUNE_DB=$(mktemp -d)/t.db
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $o/gpu.txt
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > $o/$name.log 2>&1; local rc=$?; echo "$name rc=$rc s=$(( $(date +%s) - s ))" | tee -a $o/steps.txt; }
m=$b/bigtune-bench-mod; t=$b/bigtune_gpu_tests; B="--no-gmp --no-mulmod --reps 3 --target-ms 1"
step p4k 45 $m --powm-bits 4096 --only bgsqr.u32.q16.l8.w6 --max-e-bits 4096 --min-count 63360 $B
step p1k 20 $m --powm-bits 1024 --only bgsqr.u32.q16.l2.w5 --max-e-bits 1024 --min-count 405504 $B
MET=sm__pipe_fmaheavy_cycles_active.avg.pct_of_peak_sustained_active,sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,gpu__time_duration.sum,smsp__pcsamp_warps_issue_stalled_wait,smsp__pcsamp_warps_issue_stalled_math_pipe_throttle,smsp__pcsamp_warps_issue_stalled_no_instructions,smsp__pcsamp_warps_issue_stalled_dispatch_stall,smsp__pcsamp_warps_issue_stalled_not_selected,smsp__pcsamp_warps_issue_stalled_selected,smsp__pcsamp_warps_issue_stalled_short_scoreboard,smsp__pcsamp_warps_issue_stalled_long_scoreboard,smsp__pcsamp_warps_issue_stalled_branch_resolving
for k in ELi0EE ELi284EE ELi272EE; do
  step ncu4k-$k 40 ncu --kernel-name-base mangled -k regex:powm_warp_global_kernelILi8ELi16E.*$k -c 1 --section WarpStateStats --section SchedulerStats --metrics $MET $m --powm-bits 4096 --only bgsqr.u32.q16.l8.w6 --max-e-bits 512 --probe-count 46464 --min-count 46464 --no-gmp --no-mulmod --reps 1 --target-ms 5
done
step tests 50 env BIGTUNE_TEST_VARIANTS=.pq $t --gtest_brief=1 --gtest_filter='WarpModVsGmp.PowmFullExponents'
step modops 40 env BIGTUNE_TEST_VARIANTS=.pq BIGTUNE_TEST_MAX_BITS=4200 $t --gtest_brief=1 --gtest_filter='ModOps/*powm'
step memcheck 25 env BIGTUNE_TEST_VARIANTS=q16.l2.w5.pq compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 99 $t --gtest_brief=1 --gtest_filter='WarpModVsGmp.PowmFullExponents'
cat $o/steps.txt
grep -hE "^ *[0-9]+ +(powm|bgsqr)" $o/p*.log
grep -hE "fmaheavy|pipe_alu|issue_active|inst_executed.sum|gpu__time|stalled_(wait|math|no_inst|selected|dispatch|not_sel|short|long|branch)|Eligible Warps|Issued Warp" $o/ncu4k-*.log | sed 's/  */ /g' | head -60
grep -hE "cases|mismatch|PASSED|FAILED|SKIPPED" $o/tests.log $o/modops.log | head
grep -hE "ERROR SUMMARY|PASSED|FAILED" $o/memcheck.log | head
tar czf $OUT/call2.tgz -C $o .
