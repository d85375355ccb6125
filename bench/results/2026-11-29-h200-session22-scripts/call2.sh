#!/usr/bin/env bash
# Session 22, device call 2 (carry ["gpu-build/carry"], scripts/build-gpu.sh at
# the commit named in the results): the Barrett GPU suites with the new
# powm.tcbarrett cases, memcheck and racecheck on BarrettVsGmp.SanitizerSized
# (now with the pair kernel and the finish in registers), the tcbarrett mulmod
# and sqrmod tables, powm with a shared modulus against dfmat, and as many
# whole GPU suites as the call has time for.
set -u
OUT=${OUT:-gpu-out}; mkdir -p "$OUT"
start=$(date +%s)
bin=/tmp/bigtune-bin; mkdir -p $bin; xz -dc gpu-build/carry/bin.tar.xz | tar -C $bin -xf -
export BIGTUNE_TEST_SEED=20261122 BIGTUNE_DB=$(mktemp -d)/t.db
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader >"$OUT/gpu.txt"
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout "$t" "$@" >"$OUT/$name.log" 2>&1; echo "$name rc=$? s=$(( $(date +%s) - s ))" >>"$OUT/steps.txt"; }
t=$bin/bigtune_gpu_tests b=$bin/bigtune-bench-mod
step tests 240 $t --gtest_brief=1 --gtest_filter='BarrettVsGmp.*:ModDefaultPlan.*:GpuErrors.*'
step memcheck 120 compute-sanitizer --tool memcheck --print-limit 20 $t --gtest_filter=BarrettVsGmp.SanitizerSized --gtest_brief=1
step racecheck 200 compute-sanitizer --tool racecheck --print-limit 20 $t --gtest_filter=BarrettVsGmp.SanitizerSized --gtest_brief=1
mm=(--powm-bits 64 --only none --no-gmp --only-mulmod tcbarrett --reps 5 --mulmod-bits 4096 8192 12288 16384 32768 65536)
step mm 60 $b "${mm[@]}"
step sq 60 $b "${mm[@]}" --sqrmod
powm=(--powm-shared-modulus --no-mulmod --reps 3)
step powm 150 $b "${powm[@]}" --powm-bits 8192 12288 16384 --only tcbarrett.u64.q1.w6,dfmat.u64.q128.t16.w6,dfmat.u64.q256.t32.sw8.sq
for c in 4224 8448; do
  step powm-$c 60 $b "${powm[@]}" --no-gmp --powm-bits 16384 --only tcbarrett.u64.q1.w6,dfmat.u64.q256.t32.sw8.sq \
    --probe-count $c --min-count $c
done
SKIP="BarrettVsGmp ModDefaultPlan GpuErrors" OUT=$OUT scripts/run-gpu-suites.sh $((560 - ($(date +%s) - start))) >/dev/null 2>&1
(cat "$OUT/gpu.txt" "$OUT/steps.txt"
 grep -hE "instances, .* mismatches|cases, .* mismatches|PASSED|FAILED|ERROR SUMMARY|RACECHECK SUMMARY" "$OUT"/tests.log "$OUT"/memcheck.log "$OUT"/racecheck.log
 grep -hE "Failure" -A5 "$OUT"/tests.log | head -20
 for f in mm sq powm powm-4224 powm-8448; do echo "== $f"; grep -hE "^ +[0-9]+ +[0-9a-z]" "$OUT/$f.log"; done
 cat "$OUT/suites.txt") >"$OUT/summary.txt"
(cd "$OUT" && tar -cJf logs.tar.xz ./*.log && rm -f ./*.log)
cat "$OUT/summary.txt"
