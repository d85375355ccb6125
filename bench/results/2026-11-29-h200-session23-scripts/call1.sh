#!/usr/bin/env bash
# Session 23, device call 1 (carry ["gpu-build/carry"], main 1f1ec2b): what
# session 22 owed. First the tensor-core launches through
# launch_resident_wave (BarrettVsGmp covers each), memcheck and racecheck on
# the sanitizer-sized cases, main's tcbarrett tables; then the GPU suites
# session 22 did not run on its final code, ModOps one parameter at a time.
set -u
OUT=${OUT:-gpu-out}; mkdir -p "$OUT"
start=$(date +%s)
bin=/tmp/bigtune-bin; mkdir -p $bin; xz -dc gpu-build/carry/bin.tar.xz | tar -C $bin -xf -
export BIGTUNE_TEST_SEED=20261122 BIGTUNE_DB=$(mktemp -d)/t.db
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader >"$OUT/gpu.txt"
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout "$t" "$@" >"$OUT/$name.log" 2>&1; echo "$name rc=$? s=$(( $(date +%s) - s ))" >>"$OUT/steps.txt"; }
t=$bin/bigtune_gpu_tests b=$bin/bigtune-bench-mod
step tests 120 $t --gtest_brief=1 --gtest_filter='BarrettVsGmp.*:ModDefaultPlan.*:GpuErrors.*'
step memcheck 60 compute-sanitizer --tool memcheck --print-limit 20 $t --gtest_filter=BarrettVsGmp.SanitizerSized --gtest_brief=1
step racecheck 100 compute-sanitizer --tool racecheck --print-limit 20 $t --gtest_filter=BarrettVsGmp.SanitizerSized --gtest_brief=1
mm=(--powm-bits 64 --only none --no-gmp --only-mulmod tcbarrett --reps 5 --mulmod-bits 4096 8192 12288 16384 32768 65536)
step mm 60 $b "${mm[@]}"
p=ModOps/ModVsGmp.EveryVariantMatchesGmp
OUT=$OUT scripts/run-gpu-suites.sh $((560 - ($(date +%s) - start))) $p/mulmod $p/sqrmod $p/gcd $p/modinv $p/sqrt \
  PowmRegsVsGmp NttBarrettVsGmp NttMontVsGmp Fused/FusedVsGmp ThreadOps/ThreadVsGmp WarpOps/WarpVsGmp \
  AllOps/ArithVsGmp MulSqr/NttVsGmp $p/powm >/dev/null 2>&1
(cat "$OUT/gpu.txt" "$OUT/steps.txt"
 grep -hE "instances, .* mismatches|cases, .* mismatches|PASSED|FAILED|ERROR SUMMARY|RACECHECK SUMMARY" "$OUT"/tests.log "$OUT"/memcheck.log "$OUT"/racecheck.log
 grep -hE "Failure" -A5 "$OUT"/tests.log | head -20
 echo "== mm"; grep -hE "^ +[0-9]+ +[0-9a-z]" "$OUT/mm.log"
 grep -hE "cases, .* mismatches|instances, .* mismatches" "$OUT"/suite-*.log | sort | uniq -c | head -40
 cat "$OUT/suites.txt") >"$OUT/summary.txt"
(cd "$OUT" && tar -cJf logs.tar.xz ./*.log && rm -f ./*.log)
cat "$OUT/summary.txt"
