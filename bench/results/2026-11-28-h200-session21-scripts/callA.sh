set -u
OUT=${OUT:-gpu-out}; mkdir -p $OUT /tmp/b && xz -dc gpu-build/carry/bin.tar.xz | tar -C /tmp/b -xf -
export BIGTUNE_DB=/tmp/a.db BIGTUNE_TEST_SEED=20261122
timeout 60 /tmp/b/bigtune_wgmma_probe --gtest_brief=1 2>&1 | tail -2
timeout 120 /tmp/b/bigtune_gpu_tests --gtest_brief=1 --gtest_filter='BarrettVsGmp.*:ModDefaultPlan.*:GpuErrors.*:BarrettEmul*' 2>&1 | grep -E "mismatches|PASSED|FAILED" | sort | uniq -c
for tool in memcheck racecheck; do timeout 150 compute-sanitizer --tool $tool --print-limit 20 /tmp/b/bigtune_gpu_tests --gtest_filter='BarrettVsGmp.SanitizerSized' --gtest_brief=1 2>&1 | grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED"; done
B="--powm-bits 64 --only none --no-gmp --only-mulmod barrett --reps 5 --mulmod-bits 2048 3072 4096 6144 8192 12288 16384 32768 65536"
timeout 150 /tmp/b/bigtune-bench-mod $B > $OUT/mulmod.log 2>&1; grep -E "^ +[0-9]+ +[0-9]+ " $OUT/mulmod.log
timeout 100 /tmp/b/bigtune-bench-mod $B --sqrmod > $OUT/sqrmod.log 2>&1; grep -E "^ +[0-9]+ +[0-9]+ " $OUT/sqrmod.log | grep tcbarrett
for b in 8192 16384; do ncu --metrics gpu__time_duration.sum -k regex:"mul_const|finish" --launch-skip 3 --launch-count 3 /tmp/b/bigtune-bench-mod --powm-bits 64 --only none --no-gmp --only-mulmod tcbarrett --reps 1 --mulmod-bits $b 2>&1 | grep -E "^  [a-z].*\(|gpu__time" | sed 's/  */ /g' | cut -c1-60; done
