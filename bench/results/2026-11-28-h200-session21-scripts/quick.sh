#!/usr/bin/env bash
# Session 21 scratch: time set $1 (and base when $2 = base), ncu its products, run its Barrett tests.
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-gpu-out}; mkdir -p "$OUT" /tmp/p && xz -dc gpu-build/pending/bin.tar.xz | tar -C /tmp/p -xf -
export BIGTUNE_DB=$(mktemp -d)/t.db BIGTUNE_TEST_SEED=20262001
v=$1
B=(--powm-bits 64 --only none --no-gmp --only-mulmod tcbarrett --reps 5 --mulmod-bits ${BITS:-4096 8192 16384})
for r in 1 2; do for s in ${2:-} $v; do echo "== mm-$s-$r"; /tmp/p/$s/bigtune-bench-mod "${B[@]}" | grep -E "^ +[0-9]+ +[0-9]+ "; done; done
echo "== sq-$v"; /tmp/p/$v/bigtune-bench-mod "${B[@]}" --sqrmod | grep -E "^ +[0-9]+ +[0-9]+ "
for b in 8192 16384; do
  ncu --metrics gpu__time_duration.sum,sm__pipe_tensor_op_imma_cycles_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.per_cycle_active,smsp__inst_executed.sum --section WarpStateStats -k regex:mul_const --launch-skip 2 --launch-count 2 /tmp/p/$v/bigtune-bench-mod --powm-bits 64 --only none --no-gmp --only-mulmod tcbarrett --reps 1 --mulmod-bits $b >"$OUT/ncu-$v-$b.log" 2>&1
  echo "== ncu $b"; grep -E "gpu__time|pct_of|warps_active|inst_exec|Per Issued|Stall" "$OUT/ncu-$v-$b.log" | sed 's/  */ /g' | cut -c1-150
done
if [[ ${TESTS:-1} == 1 ]]; then
  /tmp/p/$v/bigtune_gpu_tests --gtest_brief=1 --gtest_filter='BarrettVsGmp.*:ModDefaultPlan.*:GpuErrors.*' 2>&1 | grep -E "mismatches|PASSED|FAILED" | sort | uniq -c
  compute-sanitizer --tool memcheck --print-limit 20 /tmp/p/$v/bigtune_gpu_tests --gtest_filter='BarrettVsGmp.SanitizerSized' --gtest_brief=1 2>&1 | grep -E "ERROR SUMMARY|PASSED|FAILED"
fi
