#!/usr/bin/env bash
# Session 15, run D: gpu-build/s28 = 42b8a5c + NmParts' bias chosen word by word (no local copy of
# the struct). s27 (42b8a5c) and s28 at 32 Kbit on one machine, then ncu of s28 as run B.
set -u
o=/tmp/nm27; b=/tmp/nm28; mkdir -p $o $b
xz -dc gpu-build/s27/bin.tar.xz | tar -C $o -xf -; xz -dc gpu-build/s28/bin.tar.xz | tar -C $b -xf -
export BIGTUNE_DB=$(mktemp -d)/t.db BIGTUNE_TEST_SEED=20261220
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $OUT/gpu.txt
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > $OUT/$name.log 2>&1; echo "$name rc=$? s=$(( $(date +%s) - s ))" >> $OUT/steps.txt; }
one="--no-mulmod --no-gmp --probe-count 1 --min-count 1 --target-ms 1"
step s27 60 $o/bigtune-bench-mod $one --reps 3 --powm-bits 32768 --only nttmont.u64.q1.sw9 --max-e-bits 32768
step s28 60 $b/bigtune-bench-mod $one --reps 3 --powm-bits 32768 --only nttmont.u64.q1.sw9 --max-e-bits 32768
step tests 100 $b/bigtune_gpu_tests --gtest_filter='NttMontVsGmp.PowmSizesOperandsExponents:NttMontVsGmp.RareValuesOnTheSerialPath' --gtest_brief=1
step ncu 200 ncu -k regex:nttmont_powm -c 1 --set full --import-source no -f -o /tmp/nm $b/bigtune-bench-mod --no-mulmod --no-gmp --probe-count 528 --min-count 528 --target-ms 1 --reps 1 --powm-bits 32768 --only nttmont.u64.q1.sw9 --max-e-bits 4096
ncu -i /tmp/nm.ncu-rep --page details > $OUT/nm.txt 2>&1
ncu -i /tmp/nm.ncu-rep --page source --print-source sass --csv 2>&1 | xz -T4 > $OUT/nm_sass.csv.xz
(cat $OUT/gpu.txt $OUT/steps.txt
 for f in s27 s28; do grep -hE "^ *[0-9]+ (powm|GMP)" $OUT/$f.log | sed "s|^|$f |"; done
 grep -hE "instances, .* mismatches|PASSED|FAILED" $OUT/tests.log | sort | uniq -c
 grep -E "Duration|Issue Slots Busy|No Eligible|Executed Instructions  " $OUT/nm.txt) > $OUT/summary.txt
cat $OUT/summary.txt
