#!/usr/bin/env bash
# Session 16, run A (H100): gpu-build/s31 = main's device code before this session (78927c8),
# gpu-build/s33 = the NTT Barrett powm's register copies + mulmod.dfma.u64.q16.roll4.wtile (warp tiles).
# mulmod at 1 Kbit (roll4 against roll4.wtile, one binary, twice); the NTT Barrett powm s31 against
# s33 at 32 Kbit (w6) and 64 Kbit (w6.b2); the suites the change touches; memcheck and racecheck.
set -u
o=/tmp/s31; b=/tmp/s33; mkdir -p $o $b
xz -dc gpu-build/s31/bin.tar.xz | tar -C $o -xf -; xz -dc gpu-build/s33/bin.tar.xz | tar -C $b -xf -
export BIGTUNE_DB=$(mktemp -d)/t.db BIGTUNE_TEST_SEED=20261228
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $OUT/gpu.txt
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > $OUT/$name.log 2>&1; echo "$name rc=$? s=$(( $(date +%s) - s ))" >> $OUT/steps.txt; }
mm="--no-gmp --powm-bits 64 --only none --mulmod-bits 1024 --only-mulmod dfma.u64.q16.roll4 --reps 7"
step mm1 60 $b/bigtune-bench-mod $mm
step mm2 60 $b/bigtune-bench-mod $mm
one="--no-mulmod --no-gmp --probe-count 1 --min-count 1 --target-ms 1"
step o32 60 $o/bigtune-bench-mod $one --reps 3 --powm-bits 32768 --only nttbarrett.u64.q1.w6 --max-e-bits 8192
step n32 60 $b/bigtune-bench-mod $one --reps 3 --powm-bits 32768 --only nttbarrett.u64.q1.w6 --max-e-bits 8192
step n64 60 $b/bigtune-bench-mod $one --reps 2 --powm-bits 65536 --only nttbarrett.u64.q1.w6.b2 --max-e-bits 4096
step o64 60 $o/bigtune-bench-mod $one --reps 2 --powm-bits 65536 --only nttbarrett.u64.q1.w6.b2 --max-e-bits 4096
step tests 240 $b/bigtune_gpu_tests --gtest_filter='ModDfma.BarrettOnFp64MatchesGmp:ModDfma.WarpTilesUnalignedRunUntiled:NttBarrettVsGmp.*:NttMontVsGmp.RefusedModuliRunBarrett:*NttVsGmp*:WarpModVsGmp.PowmGlobalTableChunks*' --gtest_brief=1
san="ModDfma.WarpTilesUnalignedRunUntiled:ModDfma.BarrettOnFp64MatchesGmp:NttBarrettVsGmp.SanitizerSized"
step memcheck 90 compute-sanitizer --tool memcheck --print-limit 20 $b/bigtune_gpu_tests --gtest_filter=$san --gtest_brief=1
step racecheck 90 compute-sanitizer --tool racecheck --print-limit 20 $b/bigtune_gpu_tests --gtest_filter='ModDfma.WarpTilesUnalignedRunUntiled:ModDfma.BarrettOnFp64MatchesGmp' --gtest_brief=1
(cat $OUT/gpu.txt $OUT/steps.txt
 grep -hE "^ *mulmod|^ +1024 " $OUT/mm1.log $OUT/mm2.log
 for f in o32 n32 o64 n64; do grep -hE "^ *[0-9]+ (powm|GMP)" $OUT/$f.log | sed "s|^|$f |"; done
 grep -hE "instances, .* mismatches|cases, .* mismatches|PASSED|FAILED|ERROR SUMMARY|RACECHECK SUMMARY" $OUT/tests.log $OUT/memcheck.log $OUT/racecheck.log | sort | uniq -c
 grep -hE "Failure|want|got" $OUT/tests.log | head -12) > $OUT/summary.txt
cat $OUT/summary.txt
