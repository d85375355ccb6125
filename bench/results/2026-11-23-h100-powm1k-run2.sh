#!/usr/bin/env bash
# powm1k GPU run 2: whole-wave chunks of the global-table launch; default plan.
set -uo pipefail
C=.carry/powm1k
B=/tmp/p1k && mkdir -p $B
for f in $C/*.xz; do xz -dc "$f" > $B/$(basename "$f" .xz) && chmod +x $B/$(basename "$f" .xz); done
export BIGTUNE_DB=$(mktemp -d)/t.db BIGTUNE_TEST_SEED=20261122
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.sm --format=csv,noheader | tee $OUT/gpu.txt
t0=$(date +%s); el() { echo "[t=$(( $(date +%s) - t0 ))s] $*"; }
el bench
# large batches: 1048576 instances at 1 Kbit (>= 4 chunks), 262144 at 2 Kbit (2 chunks)
timeout 30 $B/bigtune-bench-mod --powm-bits 1024 --only q16.l2.w5 --no-gmp --no-mulmod --powm-ipb 64 128 --reps 3 --target-ms 1 --probe-count 4096 --min-count 1048576 > $OUT/bench4.log 2>&1; echo rc=$? >> $OUT/bench4.log
timeout 30 $B/bigtune-bench-mod --powm-bits 1024 --only q8.l4.w5 --no-gmp --no-mulmod --reps 3 --target-ms 1 --probe-count 4096 --min-count 1048576 >> $OUT/bench4.log 2>&1; echo rc=$? >> $OUT/bench4.log
timeout 30 $B/bigtune-bench-mod --powm-bits 2048 --only bgsqr.u32.q8.l8.w6 --no-gmp --no-mulmod --reps 3 --target-ms 1 --probe-count 4096 --min-count 262144 >> $OUT/bench4.log 2>&1; echo rc=$? >> $OUT/bench4.log
el tests
timeout 90 $B/bigtune_gpu_tests --gtest_filter='WarpModVsGmp.PowmGlobalTableChunks*:ModDefaultPlan.*' > $OUT/tests2.log 2>&1; echo rc=$? >> $OUT/tests2.log
el memcheck
timeout 45 compute-sanitizer --tool memcheck --report-api-errors no $B/bigtune_gpu_tests --gtest_filter='WarpModVsGmp.PowmTwoLaneSizes' > $OUT/memcheck2.log 2>&1; echo rc=$? >> $OUT/memcheck2.log
el done
grep -E "mismatch|PASSED|FAILED|rc=" $OUT/tests2.log; tail -3 $OUT/memcheck2.log
grep -E "^ +(1024|2048) " $OUT/bench4.log
