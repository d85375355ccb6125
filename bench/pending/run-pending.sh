#!/usr/bin/env bash
# On the GPU machine, with gpu-build/pending carried (bench/pending/build-pending.sh):
# 1. with NCU=1, where mul_const_imma_kernel's time goes on main (ncu:
#    duration, tensor pipe, warp stalls; one q m' launch of an 8 Kbit
#    mulmod); the wgmma probe of every set that carries it;
# 2. main ("base") against each patch set: tcbarrett mulmod and sqrmod at
#    4-64 Kbit, the builds alternated twice (median of 5 reps each); powm
#    with a shared modulus (tcbarrett windows against the per-instance
#    default, dfmat, at 8-16 Kbit, GMP-16 once) on base, its w6 on each set;
# 3. each set's GPU tests of the tensor-core path and the Barrett suites,
#    memcheck and racecheck on the sanitizer-sized cases (CHECK_SETS="a b":
#    only those sets).
# Prints a short table last; logs to $OUT. A device call is limited to 10
# minutes: run `measure` (1 and 2) and `check` (3) as two calls.
#   bash bench/pending/run-pending.sh measure|check|all
set -u
mode=${1:-all}
cd "$(dirname "$0")/../.."
OUT=${OUT:-gpu-out}; mkdir -p "$OUT"
mkdir -p /tmp/p && xz -dc gpu-build/pending/bin.tar.xz | tar -C /tmp/p -xf -
sets=(base $(cd /tmp/p && ls -d */ | tr -d / | grep -vx base))
export BIGTUNE_DB=$(mktemp -d)/t.db BIGTUNE_TEST_SEED=${BIGTUNE_TEST_SEED:-20262001}
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader >"$OUT/gpu.txt"
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout "$t" "$@" >"$OUT/$name.log" 2>&1; echo "$name rc=$? s=$(( $(date +%s) - s ))" >>"$OUT/steps.txt"; }
read -r -a mm_bits <<<"${MM_BITS:-2048 3072 4096 8192 12288 16384 32768 65536}"  # MM_BITS: the sizes timed
bench=(--powm-bits 64 --only none --no-gmp --only-mulmod tcbarrett --reps 5 --mulmod-bits "${mm_bits[@]}")
# Timings only for sets whose benchmark differs from main's (kernel patches).
timed=(base)
for v in "${sets[@]:1}"; do
  cmp -s /tmp/p/base/bigtune-bench-mod /tmp/p/$v/bigtune-bench-mod || timed+=("$v")
done
if [[ $mode == all || $mode == measure ]]; then
  [[ ${NCU:-0} == 1 ]] && step ncu 150 ncu --metrics gpu__time_duration.sum,sm__pipe_tensor_op_imma_cycles_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.per_cycle_active \
    --section WarpStateStats -k regex:mul_const --launch-skip 2 --launch-count 2 \
    /tmp/p/base/bigtune-bench-mod --powm-bits 64 --only none --no-gmp --only-mulmod tcbarrett --reps 1 --mulmod-bits 8192
  # The wgmma probe (wgmma-probe.patch): does Hopper read the model's layouts?
  for v in "${sets[@]}"; do
    [[ -x /tmp/p/$v/bigtune_wgmma_probe ]] && step "probe-$v" 60 /tmp/p/$v/bigtune_wgmma_probe
  done
  for r in 1 2; do
    for v in "${timed[@]}"; do step "mm-$v-$r" 120 /tmp/p/$v/bigtune-bench-mod "${bench[@]}"; done
  done
  for v in "${timed[@]}"; do step "sq-$v" 120 /tmp/p/$v/bigtune-bench-mod "${bench[@]}" --sqrmod; done
  powm=(--powm-shared-modulus --no-mulmod --reps 3)
  step powm-base 240 /tmp/p/base/bigtune-bench-mod "${powm[@]}" --powm-bits 8192 12288 16384 \
    --only tcbarrett,dfmat.u64.q128.t16.w6,dfmat.u64.q256.t32.sw8.sq
  step powm-base-65536 60 /tmp/p/base/bigtune-bench-mod "${powm[@]}" --no-gmp --powm-bits 16384 \
    --only tcbarrett.u64.q1.w6 --min-count 65536
  for v in "${timed[@]:1}"; do
    step "powm-$v" 60 /tmp/p/$v/bigtune-bench-mod "${powm[@]}" --no-gmp --powm-bits 12288 16384 --only tcbarrett.u64.q1.w6
  done
fi
if [[ $mode == all || $mode == check ]]; then
  for v in ${CHECK_SETS:-${timed[@]:1}}; do
    step "tests-$v" 200 /tmp/p/$v/bigtune_gpu_tests --gtest_brief=1 --gtest_filter='BarrettVsGmp.*:ModDefaultPlan.*:GpuErrors.*'
    for tool in memcheck racecheck; do
      step "$tool-$v" 150 compute-sanitizer --tool $tool --print-limit 20 /tmp/p/$v/bigtune_gpu_tests \
        --gtest_filter='BarrettVsGmp.SanitizerSized' --gtest_brief=1
    done
  done
fi
(cat "$OUT/gpu.txt" gpu-build/pending/commit.txt gpu-build/pending/sets.txt "$OUT/steps.txt"
 grep -hE "gpu__time_duration|imma_cycles_active|warps_active|Stall|Warp Cycles Per Issued" "$OUT/ncu.log" 2>/dev/null | head -24
 for f in "$OUT"/mm-*.log "$OUT"/sq-*.log; do echo "== $(basename "$f" .log)"; grep -hE "^ +[0-9]+ +[0-9]+ " "$f"; done 2>/dev/null
 for f in "$OUT"/powm-*.log; do echo "== $(basename "$f" .log)"; grep -hE "^ +[0-9]+ +[a-z]" "$f"; done 2>/dev/null
 grep -hE "instances, .* mismatches|cases, .* mismatches|PASSED|FAILED|ERROR SUMMARY|RACECHECK SUMMARY" \
   "$OUT"/tests-*.log "$OUT"/memcheck-*.log "$OUT"/racecheck-*.log "$OUT"/probe-*.log 2>/dev/null | sort | uniq -c
 grep -hE "Failure|do not follow|row [0-9]+ col" "$OUT"/probe-*.log 2>/dev/null | head -12) >"$OUT/summary.txt"
(cd "$OUT" && tar -cJf logs.tar.xz ./*.log && rm -f ./*.log)
cat "$OUT/summary.txt"
