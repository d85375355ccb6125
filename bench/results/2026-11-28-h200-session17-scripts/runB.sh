#!/usr/bin/env bash
# Session 17, run B (H200): gpu-build/s39 = run A's Shoup butterflies (b87601d), gpu-build/s41 =
# s39 + every other table multiplier as a Shoup pair too: the twists of the input and the scaling
# (the whole table of pairs, 6N elements) and the input digits' conversion into Montgomery form
# (from_digit, from_digit_scaled: one Shoup product by a constant pair instead of mont()).
# s39 against s41 (alternating at 32 Kbit); nttmont at 32 Kbit and the lane team at 16 Kbit against
# GMP-16 on this host; the NTT, Barrett suites; memcheck.
set -u
o=/tmp/s39; b=/tmp/s41; mkdir -p $o $b
xz -dc gpu-build/s39/bin.tar.xz | tar -C $o -xf -; xz -dc gpu-build/s41/bin.tar.xz | tar -C $b -xf -
export BIGTUNE_DB=$(mktemp -d)/t.db BIGTUNE_TEST_SEED=20261302
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $OUT/gpu.txt
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > $OUT/$name.log 2>&1; echo "$name rc=$? s=$(( $(date +%s) - s ))" >> $OUT/steps.txt; }
one="--no-mulmod --no-gmp --probe-count 1 --min-count 1 --target-ms 1"
step o32 60 $o/bigtune-bench-mod $one --reps 3 --powm-bits 32768 --only nttmont.u64.q1.sw9 --max-e-bits 32768
step n32 60 $b/bigtune-bench-mod $one --reps 3 --powm-bits 32768 --only nttmont.u64.q1.sw9 --max-e-bits 32768
step n32b 60 $b/bigtune-bench-mod $one --reps 3 --powm-bits 32768 --only nttmont.u64.q1.sw9 --max-e-bits 32768
step o32b 60 $o/bigtune-bench-mod $one --reps 3 --powm-bits 32768 --only nttmont.u64.q1.sw9 --max-e-bits 32768
step o64 60 $o/bigtune-bench-mod $one --reps 2 --powm-bits 65536 --only nttmont.u64.q1.sw9 --max-e-bits 16384
step n64 60 $b/bigtune-bench-mod $one --reps 2 --powm-bits 65536 --only nttmont.u64.q1.sw9 --max-e-bits 16384
step nb_o 40 $o/bigtune-bench-mod $one --reps 3 --powm-bits 32768 --only nttbarrett.u64.q1.w6 --max-e-bits 8192
step nb_n 40 $b/bigtune-bench-mod $one --reps 3 --powm-bits 32768 --only nttbarrett.u64.q1.w6 --max-e-bits 8192
step mul_o 90 $o/bigtune-bench --ops mul --defaults-only --reps 10 --bits 32768 65536 131072 262144 1048576
step mul_n 90 $b/bigtune-bench --ops mul --defaults-only --reps 10 --bits 32768 65536 131072 262144 1048576
step p32k 150 $b/bigtune-bench-mod --no-mulmod --probe-count 1 --min-count 1 --target-ms 1 --reps 3 --powm-bits 32768 --only nttmont.u64.q1.sw9 --max-e-bits 32768
step p16k 120 $b/bigtune-bench-mod --no-mulmod --probe-count 1 --min-count 4224 --target-ms 1 --reps 3 --powm-bits 16384 --only dfmat.u64.q256.t32.sw8.sq --max-e-bits 16384
step tests 240 $b/bigtune_gpu_tests --gtest_filter='NttMontVsGmp.*:*NttVsGmp*:NttBarrettVsGmp.*:BarrettVsGmp.*' --gtest_brief=1
step memcheck 60 compute-sanitizer --tool memcheck --print-limit 20 $b/bigtune_gpu_tests --gtest_filter='NttMontVsGmp.SanitizerSized:NttBarrettVsGmp.SanitizerSized:BarrettVsGmp.SanitizerSized' --gtest_brief=1
(cat $OUT/gpu.txt $OUT/steps.txt
 for f in o32 n32 n32b o32b o64 n64 nb_o nb_n p32k p16k; do grep -hE "^ *[0-9]+ (powm|GMP)" $OUT/$f.log | sed "s|^|$f |"; done
 for f in mul_o mul_n; do echo "== $f"; grep -v "^ *$" $OUT/$f.log | tail -12; done
 grep -hE "instances, .* mismatches|cases, .* mismatches|PASSED|FAILED|ERROR SUMMARY" $OUT/tests.log $OUT/memcheck.log | sort | uniq -c
 grep -hE "Failure|want|got" $OUT/tests.log | head -12) > $OUT/summary.txt
(cd $OUT && tar -cJf logs.tar.xz *.log && rm -f *.log)
cat $OUT/summary.txt
