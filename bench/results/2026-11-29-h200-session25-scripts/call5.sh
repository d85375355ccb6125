#!/usr/bin/env bash
# Session 25, device call 5 (carry ["gpu-build/carry"], the build of call 4):
# four of the nine owed powm variants, alone on the GPU but for each other,
# to DEADLINE. Call 4 ran all nine at once for 393 s: each reached ~1 Kbit
# (40 of ~60 cases), no mismatch.
set -u
start=$(date +%s)
OUT=${OUT:-gpu-out}; mkdir -p "$OUT"
bin=/tmp/bigtune-bin; mkdir -p $bin && xz -dc gpu-build/carry/bin.tar.xz | tar -C $bin -xf -
export BIGTUNE_DB=$(mktemp -d)/t.db BIGTUNE_TEST_SEED=20261129 BIGTUNE_TEST_PROGRESS=1 bin OUT
export deadline=$(( start + ${DEADLINE:-330} ))
one() {  # VARIANT
  local s=$(date +%s) l=$(( deadline - $(date +%s) )); ((l < 1)) && l=1
  BIGTUNE_TEST_VARIANTS=$1 timeout $l stdbuf -oL $bin/bigtune_gpu_tests --gtest_brief=1 \
    --gtest_filter=ModOps/ModVsGmp.EveryVariantMatchesGmp/powm >"$OUT/owed-$1.log" 2>&1
  echo "$1 rc=$? s=$(( $(date +%s) - s ))" >>"$OUT/steps.txt"
}
export -f one
printf '%s\n' powm.fixed.u32.q8.l32.w4 powm.fixed.u32.q16.l16.w4 powm.bgfixed.u32.q8.l32.w4 powm.bgsqr.u32.q8.l32.w5 |
  xargs -P 4 -I{} bash -c 'one "$@"' _ {}
(cat "$OUT/steps.txt"
 for f in "$OUT"/owed-*.log; do echo "$(basename "$f" .log): $(grep -hE ' cases' "$f" | tr -s ' ' | tr '\n' ' ') $(grep -hE 'PASSED|FAILED' "$f")"; tail -1 "$f"; grep -hE "Failure" -A4 "$f" | head -6; done
) >"$OUT/summary.txt"
(cd "$OUT" && tar -cJf logs.tar.xz ./*.log && rm -f ./*.log)
cat "$OUT/summary.txt"
