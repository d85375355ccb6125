#!/usr/bin/env bash
# Session 19, run J (H200): gpu-build/s64 = main e2a9493 (tcbarrett the default mulmod / sqrmod
# with a shared modulus above 7680 bits to 64 Kbit). The default-plan tests; the mulmod and sqrmod
# tables of the Barrett variants at 4.5-8 Kbit (where tcbarrett and the warp kernels cross);
# the time of each kernel of a 16-Kbit tcbarrett mulmod (ncu, gpu__time_duration).
set -u
b=/tmp/s64; mkdir -p $b
xz -dc gpu-build/s64/bin.tar.xz | tar -C $b -xf -
export BIGTUNE_DB=$(mktemp -d)/t.db BIGTUNE_TEST_SEED=20261910
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $OUT/gpu.txt
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > $OUT/$name.log 2>&1; echo "$name rc=$? s=$(( $(date +%s) - s ))" >> $OUT/steps.txt; }
step tests 200 $b/bigtune_gpu_tests --gtest_filter='BarrettVsGmp.DefaultPlanAndLimit:ModDefaultPlan.*:BarrettVsGmp.TensorCoreReductionProducts' --gtest_brief=1
step mm 200 $b/bigtune-bench-mod --powm-bits 64 --only none --no-gmp --mulmod-bits 4608 5120 6144 7168 7680 --only-mulmod barrett --reps 5
step sq 200 $b/bigtune-bench-mod --powm-bits 64 --only none --no-gmp --mulmod-bits 5120 6144 7168 7680 --only-mulmod barrett --reps 5 --sqrmod
step ncu 200 ncu --metrics gpu__time_duration.sum --launch-skip 30 --launch-count 12 $b/bigtune-bench-mod --powm-bits 64 --only none --no-gmp --mulmod-bits 16384 --only-mulmod mulmod.tcbarrett --reps 1
(cat $OUT/gpu.txt $OUT/steps.txt
 grep -hE "instances, .* mismatches|cases, .* mismatches|PASSED|FAILED" $OUT/tests.log | sort | uniq -c
 grep -hE "Failure|want|got|mismatch at|error" $OUT/tests.log | head -12
 grep -hE "^ +[0-9]+ +[0-9]+ " $OUT/mm.log $OUT/sq.log
 grep -hE "ipb" $OUT/mm.log $OUT/sq.log
 grep -hE "^  [a-z_:<>0-9A-Za-z]+.*\(|gpu__time_duration" $OUT/ncu.log | grep -oE "^  [A-Za-z_0-9:]+|[0-9.,]+ *$" | paste - - | head -14) > $OUT/summary.txt
(cd $OUT && tar -cJf logs.tar.xz *.log && rm -f *.log)
cat $OUT/summary.txt
