#!/usr/bin/env bash
# Session 22, device call 3 (carry ["gpu-build/carry"]): after the finish in
# registers moved to its own kernel (the rows form's registers back to
# main's at 4 and 8 Kbit): the Barrett suites, memcheck, racecheck, the
# tcbarrett tables and powm at 16 Kbit; then the GPU suites call 2 left.
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
step sq 60 $b "${mm[@]}" --sqrmod
step powm 60 $b --powm-shared-modulus --no-mulmod --reps 3 --powm-bits 16384 --only tcbarrett.u64.q1.w6
OUT=$OUT scripts/run-gpu-suites.sh $((545 - ($(date +%s) - start))) ModOps/ModVsGmp PowmRegsVsGmp NttBarrettVsGmp \
  NttMontVsGmp AllOps/ArithVsGmp Fused/FusedVsGmp ThreadOps/ThreadVsGmp WarpOps/WarpVsGmp MulSqr/NttVsGmp >/dev/null 2>&1
(cat "$OUT/gpu.txt" "$OUT/steps.txt"
 grep -hE "instances, .* mismatches|cases, .* mismatches|PASSED|FAILED|ERROR SUMMARY|RACECHECK SUMMARY" "$OUT"/tests.log "$OUT"/memcheck.log "$OUT"/racecheck.log
 grep -hE "Failure" -A5 "$OUT"/tests.log | head -20
 for f in mm sq powm; do echo "== $f"; grep -hE "^ +[0-9]+ +[0-9a-z]" "$OUT/$f.log"; done
 cat "$OUT/suites.txt") >"$OUT/summary.txt"
(cd "$OUT" && tar -cJf logs.tar.xz ./*.log && rm -f ./*.log)
cat "$OUT/summary.txt"
