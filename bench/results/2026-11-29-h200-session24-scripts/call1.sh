#!/usr/bin/env bash
# Session 24, device call 1 (carry ["gpu-build/pending"]; sets from
# bench/pending/build-pending.sh bwin=imma-b-window.patch
# prefetch=barrett-rem-prefetch-t.patch chains=barrett-rem-cc-chains.patch
# both=chains+prefetch).
# 1. correctness first: the chains' PTX (BorrowChains), main's Barrett suites;
# 2. timing, alone on the GPU: tcbarrett mulmod, main at 2-64 Kbit, each set
#    at the sizes its kernel runs (bwin: 32/64 Kbit, the others: 2-8 Kbit),
#    alternated twice (median of 5 reps each); sqrmod; powm (shared modulus,
#    w6); the Barrett default at 1.6-2 Kbit (wbarrett2 against tcbarrett in
#    one run); ncu of the remainder kernel at 8 Kbit (main, chains);
# 3. in parallel: chains' and both's Barrett suites, memcheck and racecheck, and the
#    owed suites (AllOps add/sub/cmp/shl/shr, ModOps powm) split by variant,
#    all cut at DEADLINE seconds from the start.
set -u
start=$(date +%s)
OUT=${OUT:-gpu-out}; mkdir -p "$OUT"
mkdir -p /tmp/p && xz -dc gpu-build/pending/bin.tar.xz | tar -C /tmp/p -xf -
export BIGTUNE_DB=$(mktemp -d)/t.db BIGTUNE_TEST_SEED=20261129
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader >"$OUT/gpu.txt"
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout "$t" "$@" >"$OUT/$name.log" 2>&1; echo "$name rc=$? s=$(( $(date +%s) - s ))" >>"$OUT/steps.txt"; }
step chains-ptx 60 /tmp/p/chains/bigtune_gpu_tests --gtest_brief=1 --gtest_filter='BorrowChains.*'
step tests-base 150 /tmp/p/base/bigtune_gpu_tests --gtest_brief=1 --gtest_filter='BarrettVsGmp.*'
mm=(--powm-bits 64 --only none --no-gmp --only-mulmod tcbarrett --reps 5)
small=(--mulmod-bits 2048 3072 4096 8192)
for r in 1 2; do
  step mm-base-$r 60 /tmp/p/base/bigtune-bench-mod "${mm[@]}" --mulmod-bits 2048 3072 4096 8192 12288 16384 32768 65536
  step mm-bwin-$r 40 /tmp/p/bwin/bigtune-bench-mod "${mm[@]}" --mulmod-bits 32768 65536
  for v in prefetch chains both; do step mm-$v-$r 40 /tmp/p/$v/bigtune-bench-mod "${mm[@]}" "${small[@]}"; done
done
for v in base chains both; do step sq-$v 40 /tmp/p/$v/bigtune-bench-mod "${mm[@]}" "${small[@]}" --sqrmod; done
for v in base prefetch chains both; do
  step powm-$v 40 /tmp/p/$v/bigtune-bench-mod --powm-shared-modulus --no-mulmod --no-gmp --reps 3 \
    --powm-bits 4096 8192 --only tcbarrett.u64.q1.w6
done
step default-base 60 /tmp/p/base/bigtune-bench-mod --powm-bits 64 --only none --no-gmp --only-mulmod barrett \
  --reps 5 --mulmod-bits 1536 1600 1800 2048 2560
for v in base chains; do
  step ncu-$v 60 ncu --metrics gpu__time_duration.sum --section WarpStateStats --section ComputeWorkloadAnalysis \
    -k regex:barrett_rem --launch-count 1 /tmp/p/$v/bigtune-bench-mod "${mm[@]}" --reps 1 --mulmod-bits 8192
done
echo "timing done at $(( $(date +%s) - start )) s" >>"$OUT/steps.txt"
deadline=$(( start + ${DEADLINE:-545} ))
left() { local l=$(( deadline - $(date +%s) )); ((l < 1)) && l=1; echo $l; }  # timeout 0 would mean none
for v in ${CHECK_SETS:-chains both}; do  # bwin and prefetch: checked in the first try of this call
  ( step tests-$v $(left) /tmp/p/$v/bigtune_gpu_tests --gtest_brief=1 --gtest_filter='BarrettVsGmp.*:ModDefaultPlan.*:GpuErrors.*'
    for tool in memcheck racecheck; do
      step $tool-$v $(left) compute-sanitizer --tool $tool --print-limit 20 /tmp/p/$v/bigtune_gpu_tests \
        --gtest_filter='BarrettVsGmp.SanitizerSized' --gtest_brief=1
    done ) &
done
a=AllOps/ArithVsGmp.EveryValidVariantMatchesGmp p=ModOps/ModVsGmp.EveryVariantMatchesGmp/powm
owed=("$a/add@add.scan" "$a/add@add.ballot" "$a/add@add.chained,add.cluster,add.direct,add.ripple,add.stream"
      "$a/sub@sub.scan" "$a/sub@sub.ballot" "$a/sub@sub.chained,sub.cluster,sub.direct,sub.ripple,sub.stream"
      "$a/cmp@cmp." "$a/shl@shl." "$a/shr@shr."
      "$p@powm.fixed" "$p@powm.sliding" "$p@powm.bgfixed" "$p@powm.bgsqr" "$p@powm.dfma." "$p@powm.dfmat"
      "$p@powm.preinv,powm.barrett" "$p@powm.tcbarrett" "$p@powm.nttbarrett,powm.nttmont")
owed_one() {  # SUITE@PARTS
  local name=${1%%@*} parts=${1#*@} log="$OUT/owed-$(printf '%s' "$1" | tr '/@,' '_+-' | sed 's/.*EveryV[a-zA-Z]*Gmp_//').log"
  local s=$(date +%s)
  BIGTUNE_TEST_VARIANTS=$parts timeout $(left) stdbuf -oL /tmp/p/base/bigtune_gpu_tests --gtest_brief=1 \
    --gtest_filter="$name" >"$log" 2>&1
  echo "owed $1 rc=$? s=$(( $(date +%s) - s ))" >>"$OUT/steps.txt"
}
export -f owed_one left step; export OUT deadline
printf '%s\n' "${owed[@]}" | xargs -P 8 -I{} bash -c 'owed_one "$@"' _ {}
wait
(cat "$OUT/gpu.txt" gpu-build/pending/commit.txt gpu-build/pending/sets.txt "$OUT/steps.txt"
 grep -hE "PASSED|FAILED|ERROR SUMMARY|RACECHECK SUMMARY" "$OUT"/chains-ptx.log "$OUT"/tests-*.log "$OUT"/memcheck-*.log "$OUT"/racecheck-*.log | sort | uniq -c
 grep -hE "Failure" -A6 "$OUT"/chains-ptx.log "$OUT"/tests-*.log | head -20
 for f in "$OUT"/mm-*.log "$OUT"/sq-*.log "$OUT"/default-*.log; do echo "== $(basename "$f" .log)"; grep -hE "^ +[0-9]+ +[0-9]+ " "$f"; done
 for f in "$OUT"/powm-*.log; do echo "== $(basename "$f" .log)"; grep -hE "^ +[0-9]+ +[a-z]" "$f"; done
 for f in "$OUT"/ncu-*.log; do echo "== $(basename "$f" .log)"; grep -hE "gpu__time_duration|Warp Cycles Per Issued|Issue Slots Busy|Executed Ipc A|Stall|est. speedup" "$f" | head -12; done
 for f in "$OUT"/owed-*.log; do echo "== $(basename "$f" .log): $(grep -cE 'mismatches' "$f") variant lines, $(grep -hE 'PASSED|FAILED' "$f" | tr '\n' ' ')"; grep -hE "Failure" -A4 "$f" | head -6; done
) >"$OUT/summary.txt"
(cd "$OUT" && tar -cJf logs.tar.xz ./*.log && rm -f ./*.log)
cat "$OUT/summary.txt"
