#!/usr/bin/env bash
# Session 23, device call 3 (carry ["gpu-build/pending"]; sets from
# bench/pending/build-pending.sh rem=barrett-rem-wgmma.patch
# bwin=imma-b-window.patch stage=wgmma-stage-top-slices.patch,wgmma-stage-e-helper.patch).
# 1. rem (the finish in the q m' pass): Barrett suites, memcheck, racecheck,
#    ModVsGmp's tcbarrett mulmod and sqrmod;
# 2. tcbarrett mulmod at 2-64 Kbit, base / rem / bwin / stage alternated
#    twice (median of 5 reps each), sqrmod and powm (shared modulus) for
#    base and rem;
# 3. ncu: the kernels of one 8 Kbit mulmod, base and rem.
set -u
OUT=${OUT:-gpu-out}; mkdir -p "$OUT"
mkdir -p /tmp/p && xz -dc gpu-build/pending/bin.tar.xz | tar -C /tmp/p -xf -
export BIGTUNE_DB=$(mktemp -d)/t.db BIGTUNE_TEST_SEED=20261122
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader >"$OUT/gpu.txt"
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout "$t" "$@" >"$OUT/$name.log" 2>&1; echo "$name rc=$? s=$(( $(date +%s) - s ))" >>"$OUT/steps.txt"; }
t=/tmp/p/rem/bigtune_gpu_tests
step tests-rem 150 $t --gtest_brief=1 --gtest_filter='BarrettVsGmp.*:ModDefaultPlan.*:GpuErrors.*'
step memcheck-rem 60 compute-sanitizer --tool memcheck --print-limit 20 $t --gtest_filter=BarrettVsGmp.SanitizerSized --gtest_brief=1
step racecheck-rem 120 compute-sanitizer --tool racecheck --print-limit 20 $t --gtest_filter=BarrettVsGmp.SanitizerSized --gtest_brief=1
BIGTUNE_TEST_VARIANTS=tcbarrett step modops-rem 90 $t --gtest_brief=1 \
  --gtest_filter='ModOps/ModVsGmp.EveryVariantMatchesGmp/mulmod:ModOps/ModVsGmp.EveryVariantMatchesGmp/sqrmod'
bench=(--powm-bits 64 --only none --no-gmp --only-mulmod tcbarrett --reps 5 --mulmod-bits 2048 3072 4096 8192 12288 12345 16384 32768 65536)
for r in 1 2; do
  for v in base rem bwin stage; do step "mm-$v-$r" 90 /tmp/p/$v/bigtune-bench-mod "${bench[@]}"; done
done
for v in base rem; do step "sq-$v" 90 /tmp/p/$v/bigtune-bench-mod "${bench[@]}" --sqrmod; done
for v in base rem; do
  step "powm-$v" 90 /tmp/p/$v/bigtune-bench-mod --powm-shared-modulus --no-mulmod --no-gmp --reps 3 \
    --powm-bits 4096 8192 --only tcbarrett.u64.q1.w6
done
for v in base rem; do
  step "ncu-$v" 60 ncu --metrics gpu__time_duration.sum -k 'regex:mul_const|barrett_rem|barrett_finish|wkara' \
    --launch-count 8 /tmp/p/$v/bigtune-bench-mod --powm-bits 64 --only none --no-gmp --only-mulmod tcbarrett \
    --reps 1 --mulmod-bits 8192
done
(cat "$OUT/gpu.txt" gpu-build/pending/commit.txt gpu-build/pending/sets.txt "$OUT/steps.txt"
 grep -hE "instances, .* mismatches|cases, .* mismatches|PASSED|FAILED|ERROR SUMMARY|RACECHECK SUMMARY" \
   "$OUT"/tests-rem.log "$OUT"/memcheck-rem.log "$OUT"/racecheck-rem.log "$OUT"/modops-rem.log | sort | uniq -c
 grep -hE "Failure" -A6 "$OUT"/tests-rem.log "$OUT"/modops-rem.log | head -20
 for f in "$OUT"/mm-*.log "$OUT"/sq-*.log; do echo "== $(basename "$f" .log)"; grep -hE "^ +[0-9]+ +[0-9]+ " "$f"; done
 for f in "$OUT"/powm-*.log; do echo "== $(basename "$f" .log)"; grep -hE "^ +[0-9]+ +[a-z]" "$f"; done
 for f in "$OUT"/ncu-*.log; do echo "== $(basename "$f" .log)"; grep -hE "^  [a-z_].*\(|gpu__time_duration" "$f" | head -16; done
) >"$OUT/summary.txt"
(cd "$OUT" && tar -cJf logs.tar.xz ./*.log && rm -f ./*.log)
cat "$OUT/summary.txt"
