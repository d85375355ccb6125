#!/usr/bin/env bash
# Session 12, run E (H100): the team powm with raw column sums (no exponent-field corrections a
# step), and U = 4 builds (.u4), with and without the squaring by halves (.sq): GPU tests (full
# size on the 4 Kbit shapes and 16 Kbit .u4, quick mode on every dfmat shape), then full-exponent
# rates at 4, 8 and 16 Kbit against session 11's binaries (gpu-build/carry) on the same card.
set -u
b=/tmp/lb; o=/tmp/old; mkdir -p $b $o; xz -dc gpu-build/s12/bin.tar.xz | tar -C $b -xf -
xz -dc gpu-build/carry/bin.tar.xz | tar -C $o -xf - ./bigtune-bench-mod
export BIGTUNE_DB=$(mktemp -d)/t.db BIGTUNE_TEST_SEED=20261128
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $OUT/gpu.txt
cat gpu-build/s12/commit.txt > $OUT/steps.txt
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > $OUT/$name.log 2>&1; echo "$name rc=$? s=$(( $(date +%s) - s ))" | tee -a $OUT/steps.txt; }
step teams 120 env BIGTUNE_TEST_VARIANTS=q64.t8.w6,q256.t32.w6.u4 $b/bigtune_gpu_tests --gtest_filter='ModDfma.PowmOnFp64Teams*' --gtest_brief=1
step quick 60 env BIGTUNE_TEST_MAX_BITS=2100 $b/bigtune_gpu_tests --gtest_filter='ModDfma.PowmOnFp64Teams*' --gtest_brief=1
a="--no-mulmod --no-gmp --reps 3 --probe-count 1 --min-count 1 --target-ms 1"
step old4k 30 $o/bigtune-bench-mod $a --powm-bits 4096 --only dfmat.u64.q64.t8.w6 --max-e-bits 4096
step p4k 60 $b/bigtune-bench-mod $a --powm-bits 4096 --only dfmat.u64.q64.t8.w6 --max-e-bits 4096
step old8k 30 $o/bigtune-bench-mod $a --powm-bits 8192 --only dfmat.u64.q128.t16.w6 --max-e-bits 8192
step p8k 60 $b/bigtune-bench-mod $a --powm-bits 8192 --only dfmat.u64.q128.t16.w6 --max-e-bits 8192
step old16k 40 $o/bigtune-bench-mod $a --powm-bits 16384 --only dfmat.u64.q256.t32.w6 --max-e-bits 16384
step p16k 120 $b/bigtune-bench-mod $a --powm-bits 16384 --only dfmat.u64.q256.t32.w6 --max-e-bits 16384
grep -hE "cases, .* mismatches|PASSED|FAILED" $OUT/teams.log $OUT/quick.log | sort | uniq -c | head
for f in old4k p4k old8k p8k old16k p16k; do echo "== $f"; grep -hE "^ *[0-9]+ powm" $OUT/$f.log; done
