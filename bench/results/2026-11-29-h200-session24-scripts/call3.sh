#!/usr/bin/env bash
# Session 24, device call 3 (carry ["gpu-build/pending"]): what call 2 cut.
# The stream adds wait on other blocks of their grid, so they run alone,
# one after another; then the long powm variants, 12 at once; all cut at
# DEADLINE seconds.
set -u
start=$(date +%s)
OUT=${OUT:-gpu-out}; mkdir -p "$OUT"
mkdir -p /tmp/p && xz -dc gpu-build/pending/bin.tar.xz | tar -C /tmp/p -xf -
export BIGTUNE_DB=$(mktemp -d)/t.db BIGTUNE_TEST_SEED=20261129
export deadline=$(( start + ${DEADLINE:-400} )) OUT
one() {  # VARIANT
  local test=ModOps/ModVsGmp.EveryVariantMatchesGmp/powm s=$(date +%s)
  case $1 in add.*) test=AllOps/ArithVsGmp.EveryValidVariantMatchesGmp/add ;;
             sub.*) test=AllOps/ArithVsGmp.EveryValidVariantMatchesGmp/sub ;; esac
  local l=$(( deadline - s )); ((l < 1)) && l=1
  BIGTUNE_TEST_VARIANTS=$1 timeout $l stdbuf -oL /tmp/p/base/bigtune_gpu_tests --gtest_brief=1 \
    --gtest_filter="$test" >"$OUT/owed-$1.log" 2>&1
  echo "$1 rc=$? s=$(( $(date +%s) - s ))" >>"$OUT/steps.txt"
}
export -f one
for v in add.stream.u64.q4.t512 sub.stream.u64.q4.t512 add.stream.u64.q4.t256.s3 sub.stream.u64.q4.t256.s3; do
  (( $(date +%s) < start + 150 )) && deadline=$(( start + 150 )) one $v
done
printf '%s\n' powm.fixed.u32.q8.l32.w4 powm.fixed.u32.q16.l16.w4 powm.bgfixed.u32.q8.l32.w4 powm.bgfixed.u32.q8.l32.w5 \
  powm.bgfixed.u32.q8.l32.w6 powm.bgsqr.u32.q8.l32.w5 powm.bgsqr.u32.q8.l32.w6 powm.bgsqr.u32.q16.l16.w5 \
  powm.bgsqr.u32.q16.l16.w6 | xargs -P 12 -I{} bash -c 'one "$@"' _ {}
(cat gpu-build/pending/commit.txt "$OUT/steps.txt"
 for f in "$OUT"/owed-*.log; do echo "$(basename "$f" .log): $(grep -hE ' cases' "$f" | tr -s ' ' | tr '\n' ' ') $(grep -hE 'PASSED|FAILED' "$f")"; grep -hE "Failure" -A4 "$f" | head -6; done
) >"$OUT/summary.txt"
(cd "$OUT" && tar -cJf logs.tar.xz ./*.log && rm -f ./*.log)
cat "$OUT/summary.txt"
