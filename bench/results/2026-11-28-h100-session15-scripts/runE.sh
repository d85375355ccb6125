#!/usr/bin/env bash
# Session 15, run E: gpu-build/s29 = s28 + the radix-8 passes out of line in nttmont (nm_pass, one
# copy a direction for all seven transforms). s28 and s29 at 32 Kbit on one machine; the NTT
# suites (ntt.cuh's passes now go through ntt_radix8_pass).
set -u
o=/tmp/nm28; b=/tmp/nm29; mkdir -p $o $b
xz -dc gpu-build/s28/bin.tar.xz | tar -C $o -xf -; xz -dc gpu-build/s29/bin.tar.xz | tar -C $b -xf -
export BIGTUNE_DB=$(mktemp -d)/t.db BIGTUNE_TEST_SEED=20261221
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $OUT/gpu.txt
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > $OUT/$name.log 2>&1; echo "$name rc=$? s=$(( $(date +%s) - s ))" >> $OUT/steps.txt; }
one="--no-mulmod --no-gmp --probe-count 1 --min-count 1 --target-ms 1"
step s28 60 $o/bigtune-bench-mod $one --reps 3 --powm-bits 32768 --only nttmont.u64.q1.sw9 --max-e-bits 32768
step s29 60 $b/bigtune-bench-mod $one --reps 3 --powm-bits 32768 --only nttmont.u64.q1.sw9 --max-e-bits 32768
step s29b 60 $b/bigtune-bench-mod $one --reps 2 --powm-bits 65536 --only nttmont.u64.q1.sw9 --max-e-bits 16384
step s28b 60 $o/bigtune-bench-mod $one --reps 2 --powm-bits 65536 --only nttmont.u64.q1.sw9 --max-e-bits 16384
step tests 150 $b/bigtune_gpu_tests --gtest_filter='NttMontVsGmp.PowmSizesOperandsExponents:NttMontVsGmp.RareValuesOnTheSerialPath:*NttVsGmp*' --gtest_brief=1
(cat $OUT/gpu.txt $OUT/steps.txt
 for f in s28 s29 s28b s29b; do grep -hE "^ *[0-9]+ (powm|GMP)" $OUT/$f.log | sed "s|^|$f |"; done
 grep -hE "instances, .* mismatches|PASSED|FAILED" $OUT/tests.log | sort | uniq -c) > $OUT/summary.txt
cat $OUT/summary.txt
