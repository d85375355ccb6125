#!/usr/bin/env bash
# Session 25, device call 4 (carry ["gpu-build/carry"], scripts/build-gpu.sh
# of main with the AllOps fix): the suites owed since session 22.
# 1. The streaming add/sub variants' AllOps suites, now with a 3 Mbit case in
#    place of 2^31 bits (their kernel has no inter-block wait: they may share
#    the GPU), four at once.
# 2. The nine long powm variants session 24 cut, at once, to DEADLINE, a line
#    before each case (BIGTUNE_TEST_PROGRESS) so that a cut one names its case.
# 3. Main's Barrett suites (the combination of session 25's four kernel
#    commits ran in call 3 as a patch set; this is the same code, built here).
set -u
start=$(date +%s)
OUT=${OUT:-gpu-out}; mkdir -p "$OUT"
bin=/tmp/bigtune-bin; mkdir -p $bin && xz -dc gpu-build/carry/bin.tar.xz | tar -C $bin -xf -
export BIGTUNE_DB=$(mktemp -d)/t.db BIGTUNE_TEST_SEED=20261129 BIGTUNE_TEST_PROGRESS=1 bin OUT
export deadline=$(( start + ${DEADLINE:-480} ))
one() {  # VARIANT-or-FILTER
  local test=ModOps/ModVsGmp.EveryVariantMatchesGmp/powm vars=$1 s=$(date +%s)
  case $1 in add.*) test=AllOps/ArithVsGmp.EveryValidVariantMatchesGmp/add ;;
             sub.*) test=AllOps/ArithVsGmp.EveryValidVariantMatchesGmp/sub ;;
             Barrett*) test=$1 vars= ;; esac
  local l=$(( deadline - s )); ((l < 1)) && l=1
  BIGTUNE_TEST_VARIANTS=$vars timeout $l stdbuf -oL $bin/bigtune_gpu_tests --gtest_brief=1 \
    --gtest_filter="$test" >"$OUT/owed-$1.log" 2>&1
  echo "$1 rc=$? s=$(( $(date +%s) - s ))" >>"$OUT/steps.txt"
}
export -f one
printf '%s\n' add.stream.u64.q4.t512 sub.stream.u64.q4.t512 add.stream.u64.q4.t256.s3 sub.stream.u64.q4.t256.s3 \
  'BarrettVsGmp.*' | xargs -P 5 -I{} bash -c 'one "$@"' _ {}
printf '%s\n' powm.fixed.u32.q8.l32.w4 powm.fixed.u32.q16.l16.w4 powm.bgfixed.u32.q8.l32.w4 powm.bgfixed.u32.q8.l32.w5 \
  powm.bgfixed.u32.q8.l32.w6 powm.bgsqr.u32.q8.l32.w5 powm.bgsqr.u32.q8.l32.w6 powm.bgsqr.u32.q16.l16.w5 \
  powm.bgsqr.u32.q16.l16.w6 | xargs -P 9 -I{} bash -c 'one "$@"' _ {}
(git log -1 --format=%h 2>/dev/null; cat "$OUT/steps.txt"
 for f in "$OUT"/owed-*.log; do echo "$(basename "$f" .log): $(grep -hE ' cases' "$f" | tr -s ' ' | tr '\n' ' ') $(grep -hE 'PASSED|FAILED' "$f")"; grep -hE "Failure" -A4 "$f" | head -6; done
) >"$OUT/summary.txt"
(cd "$OUT" && tar -cJf logs.tar.xz ./*.log && rm -f ./*.log)
cat "$OUT/summary.txt"
