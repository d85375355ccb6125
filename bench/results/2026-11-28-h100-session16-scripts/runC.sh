#!/usr/bin/env bash
# Session 16, run C (H100): gpu-build/s35 = main at ef8e3ce (the mulmod default on warp tiles).
# The suites this session touched and the default plans; `bigtune check` at 1000 and 1024 bits
# (every op through the runtime's default plans, the modular rows included); the mulmod table at
# 1 Kbit; powm at 16 and 32 Kbit against GMP-16 on this host (full exponents).
set -u
b=/tmp/s35; mkdir -p $b
xz -dc gpu-build/s35/bin.tar.xz | tar -C $b -xf -
export BIGTUNE_DB=$(mktemp -d)/t.db BIGTUNE_TEST_SEED=20261229
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $OUT/gpu.txt
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > $OUT/$name.log 2>&1; echo "$name rc=$? s=$(( $(date +%s) - s ))" >> $OUT/steps.txt; }
step tests 200 $b/bigtune_gpu_tests --gtest_filter='ModDfma.*:ModDefaultPlan.*:NttBarrettVsGmp.*:GpuErrors.*:BarrettVsGmp.DefaultPlanAndLimit' --gtest_brief=1
step check 120 $b/bigtune check --bits 1000 1024
step mm 60 $b/bigtune-bench-mod --no-gmp --powm-bits 64 --only none --mulmod-bits 1024 --only-mulmod dfma.u64.q16.roll4 --reps 7
step p16k 120 $b/bigtune-bench-mod --no-mulmod --probe-count 1 --min-count 4224 --target-ms 1 --reps 3 --powm-bits 16384 --only dfmat.u64.q256.t32.sw8.sq --max-e-bits 16384
step p32k 150 $b/bigtune-bench-mod --no-mulmod --probe-count 1 --min-count 1 --target-ms 1 --reps 3 --powm-bits 32768 --only nttmont.u64.q1.sw9 --max-e-bits 32768
(cat $OUT/gpu.txt $OUT/steps.txt
 grep -hE "^ *mulmod |^ +1024 " $OUT/mm.log
 for f in p16k p32k; do grep -hE "^ *[0-9]+ (powm|GMP)" $OUT/$f.log | sed "s|^|$f |"; done
 grep -cE " ok( |$)" $OUT/check.log | sed 's/^/check rows ok: /'; grep -E "FAIL|mismatch|error" $OUT/check.log | head -5
 grep -hE "instances, .* mismatches|cases, .* mismatches|PASSED|FAILED" $OUT/tests.log | sort | uniq -c
 grep -hE "Failure|want|got" $OUT/tests.log | head -12) > $OUT/summary.txt
cat $OUT/summary.txt
