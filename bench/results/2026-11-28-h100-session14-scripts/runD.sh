#!/usr/bin/env bash
# Session 14, run D (H100): gpu-build/s23 = run C's kernel + sliding tables sized 2^(w-1) + 1 and
# .sw9 the default above 16 Kbit: the NttMontVsGmp suites (with the default plans at 16385-65536
# bits), then the default at 16, 32 and 64 Kbit with full exponents (one-wave protocol) and
# GMP-16 in the same run (full exponents at 16 and 32 Kbit, 16384-bit ones at 64 Kbit).
set -u
b=/tmp/nm23; mkdir -p $b; xz -dc gpu-build/s23/bin.tar.xz | tar -C $b -xf -
export BIGTUNE_DB=$(mktemp -d)/t.db BIGTUNE_TEST_SEED=20261216
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $OUT/gpu.txt
lscpu | grep -E "Model name|^CPU\(s\)" >> $OUT/gpu.txt
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > $OUT/$name.log 2>&1; echo "$name rc=$? s=$(( $(date +%s) - s ))" >> $OUT/steps.txt; }
one="--no-mulmod --probe-count 1 --min-count 1 --target-ms 1"
step tests 300 $b/bigtune_gpu_tests --gtest_filter='NttMontVsGmp.*:NttBarrettVsGmp.SanitizerSized' --gtest_brief=1
step p16k32k 150 $b/bigtune-bench-mod $one --reps 3 --powm-bits 16384 32768 --only nttmont.u64.q1.sw9 --max-e-bits 32768
# (run D's p16k32k step first failed on the comma; it was rerun alone on the same warm machine: runD-p16k32k.log)
step p64k 150 $b/bigtune-bench-mod $one --reps 2 --powm-bits 65536 --only nttmont.u64.q1.sw9 --max-e-bits 65536 --gmp-max-e-bits 16384
(cat $OUT/gpu.txt $OUT/steps.txt
 grep -hE "instances, .* mismatches|cases, .* mismatches|PASSED|FAILED|default plan" $OUT/tests.log | sort | uniq -c
 grep -hE "Failure|want|got|instance " $OUT/tests.log | head -12
 for f in p16k32k p64k; do grep -hE "^ *[0-9]+ (powm|GMP)" $OUT/$f.log | sed "s|^|$f |"; done) > $OUT/summary.txt
cat $OUT/summary.txt
