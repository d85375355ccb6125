#!/usr/bin/env bash
# Session 14, run E (H100): gpu-build/s24 = main 0c13d58 + nttmont's 96-register 128-thread build
# (.sw9.b5, to 32 Kbit): its sizes suite, then every target size above 8 Kbit on one host, GMP-16
# in the same run: 16 Kbit's default (the lane-team powm, session 12 run J's two-wave protocol),
# 32 Kbit (.sw9, .sw9.b5, .w7) and 64 Kbit (.sw9; GMP with 16384-bit exponents, rate scaled).
set -u
b=/tmp/nm24; mkdir -p $b; xz -dc gpu-build/s24/bin.tar.xz | tar -C $b -xf -
export BIGTUNE_DB=$(mktemp -d)/t.db BIGTUNE_TEST_SEED=20261217
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $OUT/gpu.txt
lscpu | grep -E "Model name|^CPU\(s\)|MHz" >> $OUT/gpu.txt
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > $OUT/$name.log 2>&1; echo "$name rc=$? s=$(( $(date +%s) - s ))" >> $OUT/steps.txt; }
one="--no-mulmod --probe-count 1 --min-count 1 --target-ms 1"
step tests 200 $b/bigtune_gpu_tests --gtest_filter='NttMontVsGmp.PowmSizesOperandsExponents' --gtest_brief=1
step p16k 90 $b/bigtune-bench-mod --no-mulmod --probe-count 1 --min-count 4224 --target-ms 1 --reps 3 --powm-bits 16384 --only dfmat.u64.q256.t32.sw8.sq --max-e-bits 16384
step p32k 150 $b/bigtune-bench-mod $one --reps 3 --powm-bits 32768 --only nttmont.u64.q1.sw9,nttmont.u64.q1.w7 --max-e-bits 32768
step p64k 150 $b/bigtune-bench-mod $one --reps 2 --powm-bits 65536 --only nttmont.u64.q1.sw9 --max-e-bits 65536 --gmp-max-e-bits 16384
(cat $OUT/gpu.txt $OUT/steps.txt
 grep -hE "instances, .* mismatches|PASSED|FAILED" $OUT/tests.log | sort | uniq -c
 grep -hE "Failure|want|got|instance " $OUT/tests.log | head -12
 for f in p16k p32k p64k; do grep -hE "^ *[0-9]+ (powm|GMP)" $OUT/$f.log | sed "s|^|$f |"; done) > $OUT/summary.txt
cat $OUT/summary.txt
