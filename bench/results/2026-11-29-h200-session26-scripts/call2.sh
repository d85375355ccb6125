#!/usr/bin/env bash
# Session 26, device call 2 (carry ["gpu-build/pending"], the build of call 1):
# the check of the set "both" (bench/pending/run-pending.sh check: Barrett
# suites, KeptModulus, ModOps mulmod/sqrmod, memcheck, racecheck) and, beside
# it, the five ModOps powm suites still owed since session 24, on main's own
# test binary (the set "base"), to DEADLINE seconds.
set -u
start=$(date +%s)
OUT=${OUT:-gpu-out}; mkdir -p "$OUT/check"
bin=/tmp/owed-bin; mkdir -p $bin && xz -dc gpu-build/pending/bin.tar.xz | tar -C $bin -xf - ./base/bigtune_gpu_tests 2>/dev/null ||
  xz -dc gpu-build/pending/bin.tar.xz | tar -C $bin -xf -
export BIGTUNE_DB=$(mktemp -d)/t.db BIGTUNE_TEST_SEED=20261130 BIGTUNE_TEST_PROGRESS=1 bin OUT
export deadline=$(( start + ${DEADLINE:-480} ))
(OUT=$OUT/check CHECK_SETS=both DEADLINE=$(( ${DEADLINE:-480} - 20 )) bash bench/pending/run-pending.sh check >/dev/null 2>&1) &
one() {  # VARIANT
  local s=$(date +%s) l=$(( deadline - $(date +%s) )); ((l < 1)) && l=1
  BIGTUNE_TEST_VARIANTS=$1 timeout $l stdbuf -oL $bin/base/bigtune_gpu_tests --gtest_brief=1 \
    --gtest_filter=ModOps/ModVsGmp.EveryVariantMatchesGmp/powm >"$OUT/owed-$1.log" 2>&1
  echo "$1 rc=$? s=$(( $(date +%s) - s ))" >>"$OUT/steps.txt"
}
export -f one
printf '%s\n' powm.bgfixed.u32.q8.l32.w5 powm.bgfixed.u32.q8.l32.w6 powm.bgsqr.u32.q8.l32.w6 \
  powm.bgsqr.u32.q16.l16.w5 powm.bgsqr.u32.q16.l16.w6 | xargs -P 5 -I{} bash -c 'one "$@"' _ {}
wait
(cat "$OUT/steps.txt"
 for f in "$OUT"/owed-*.log; do echo "$(basename "$f" .log): $(grep -hE ' cases' "$f" | tr -s ' ' | tr '\n' ' ') $(grep -hE 'PASSED|FAILED' "$f")"; tail -1 "$f"; grep -hE "Failure" -A4 "$f" | head -6; done
 echo "== check of both"; cat "$OUT/check/summary.txt"
) >"$OUT/summary.txt"
(cd "$OUT" && tar -cJf logs.tar.xz ./*.log && rm -f ./*.log)
cat "$OUT/summary.txt"
