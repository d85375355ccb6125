#!/usr/bin/env bash
# Session 24, device call 2 (carry ["gpu-build/pending"]): main's GPU tests
# of the variants the owed suites had not reached when call 1 cut them
# (call2-variants.txt: one process a variant, 16 at once, cut at DEADLINE
# seconds), after ncu of the remainder kernel at 8 Kbit (main, chains).
set -u
start=$(date +%s)
OUT=${OUT:-gpu-out}; mkdir -p "$OUT"
here=$(dirname "$0")
mkdir -p /tmp/p && xz -dc gpu-build/pending/bin.tar.xz | tar -C /tmp/p -xf -
export BIGTUNE_DB=$(mktemp -d)/t.db BIGTUNE_TEST_SEED=20261129
for v in base chains; do
  timeout 60 ncu --metrics gpu__time_duration.sum --section WarpStateStats --section ComputeWorkloadAnalysis \
    -k regex:barrett_rem --launch-count 1 /tmp/p/$v/bigtune-bench-mod --powm-bits 64 --only none --no-gmp \
    --only-mulmod tcbarrett --reps 1 --mulmod-bits 8192 >"$OUT/ncu-$v.log" 2>&1
done
export deadline=$(( start + ${DEADLINE:-540} )) OUT
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
xargs -P 16 -I{} bash -c 'one "$@"' _ {} <"$here/call2-variants.txt"
(cat gpu-build/pending/commit.txt "$OUT/steps.txt"
 for v in base chains; do echo "== ncu-$v"; grep -hE "gpu__time_duration|Warp Cycles Per Issued|Issue Slots Busy|Executed Ipc A|Stall|est. speedup|Pipe" "$OUT/ncu-$v.log" | head -16; done
 for f in "$OUT"/owed-*.log; do echo "$(basename "$f" .log): $(grep -hE ' cases' "$f" | tr -s ' ' | tr '\n' ' ') $(grep -hE 'PASSED|FAILED' "$f")"; grep -hE "Failure" -A4 "$f" | head -6; done
) >"$OUT/summary.txt"
(cd "$OUT" && tar -cJf logs.tar.xz ./*.log && rm -f ./*.log)
cat "$OUT/summary.txt"
