#!/usr/bin/env bash
# Session 26, device call 6 (carry ["gpu-build/pending"]; its set "base" is
# main's code at 689b8f7): the ModOps suites of the tcbarrett variants
# (mulmod, sqrmod, powm: every edge case of issue 9's list) and the default
# plan / error suites, side by side, to DEADLINE seconds.
set -u
start=$(date +%s)
OUT=${OUT:-gpu-out}; mkdir -p "$OUT"
bin=/tmp/c6; mkdir -p $bin && xz -dc gpu-build/pending/bin.tar.xz | tar -C $bin -xf -
t=$bin/base/bigtune_gpu_tests
export BIGTUNE_DB=$(mktemp -d)/t.db BIGTUNE_TEST_SEED=20261131 BIGTUNE_TEST_PROGRESS=1
deadline=$(( start + ${DEADLINE:-250} ))
left() { local l=$(( deadline - $(date +%s) )); ((l < 1)) && l=1; echo $l; }
step() { local name=$1; shift; local s=$(date +%s); timeout "$(left)" "$@" >"$OUT/$name.log" 2>&1; echo "$name rc=$? s=$(( $(date +%s) - s ))" >>"$OUT/steps.txt"; }
for op in mulmod sqrmod powm; do
  BIGTUNE_TEST_VARIANTS=tcbarrett step "modops-$op" stdbuf -oL $t --gtest_brief=1 --gtest_filter="ModOps/ModVsGmp.EveryVariantMatchesGmp/$op" &
done
step plans $t --gtest_brief=1 --gtest_filter='ModDefaultPlan.*:DefaultPlan.*:GpuErrors.*:KeptModulus.*:BarrettVsGmp.*' &
wait
(cat "$OUT/steps.txt"
 grep -hE "cases, .* mismatches|instances, .* mismatches|PASSED|FAILED" "$OUT"/*.log | grep -v "so far" | sort | uniq -c
 grep -hE "Failure" -A6 "$OUT"/*.log | head -20
 for f in "$OUT"/modops-*.log; do echo "$(basename "$f" .log): $(grep -h "so far" "$f" | tail -1)"; done
) >"$OUT/summary.txt"
(cd "$OUT" && tar -cJf logs.tar.xz ./*.log && rm -f ./*.log)
cat "$OUT/summary.txt"
