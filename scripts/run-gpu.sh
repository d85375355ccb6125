#!/usr/bin/env bash
# Runs on the GPU machine, from the repository root, with gpu-build/bin
# carried there: every GPU test, compute-sanitizer (memcheck, racecheck) on
# the kernels, the GMP check of the default plans and the benchmark; prints a
# short summary table last. Logs and the benchmark CSV go to $OUT (or ./gpu-out).
# The whole GPU suite takes longer than one 10-minute device call: split it
# with BIGTUNE_GPU_TEST_BUDGET and SKIP (below, scripts/run-gpu-suites.sh).
#   scripts/run-gpu.sh [all|tests|sanitize|bench|quick]
set -uo pipefail
cd "$(dirname "$0")/.."
mode=${1:-all}
bin=gpu-build/bin
if [[ ! -x $bin/bigtune_gpu_tests && -d gpu-build/carry ]]; then  # carried compressed (build-gpu.sh)
  bin=/tmp/bigtune-bin && mkdir -p $bin
  xz -dc gpu-build/carry/bin.tar.xz | tar -C $bin -xf -
fi
out=${OUT:-gpu-out}
mkdir -p "$out"
export BIGTUNE_TEST_SEED=${BIGTUNE_TEST_SEED:-20261122}
summary=()
note() { summary+=("$(printf '%-28s %s' "$1" "$2")"); }

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader | tee "$out/gpu.txt"
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)

if [[ $mode == all || $mode == tests || $mode == quick ]]; then
  # The main GPU suite runs one gtest suite at a time (scripts/run-gpu-suites.sh):
  # BIGTUNE_GPU_TEST_BUDGET=S stops starting suites after S seconds (a device
  # call of at most 10 minutes) and lists the rest; SKIP="A B" leaves out the
  # suites an earlier call ran.
  if [[ $mode != quick ]]; then
    rm -f "$out/suites.txt"
    OUT=$out scripts/run-gpu-suites.sh "${BIGTUNE_GPU_TEST_BUDGET:-86400}" >/dev/null 2>&1
    note "bigtune_gpu_tests (suites)" "passed=$(grep -c ' passed ' "$out/suites.txt") \
failed=$(grep -c ' FAILED ' "$out/suites.txt") cut=$(grep -c ' cut ' "$out/suites.txt") $(tail -1 "$out/suites.txt")"
    grep -h "cases, .* mismatches" "$out"/suite-*.log | tail -8
    grep -B1 -A30 " FAILED " "$out/suites.txt" | head -40
  fi
  for t in "$bin"/bigtune_gpu_tests "$bin"/bigtune_profiler_gpu_tests "$bin"/bigtune_wgmma_probe; do
    name=$(basename "$t")
    [[ $name == bigtune_gpu_tests && $mode != quick ]] && continue  # above, suite by suite
    "$t" --gtest_brief=1 >"$out/$name.log" 2>&1
    rc=$?
    passed=$(grep -oE '\[  PASSED  \] [0-9]+' "$out/$name.log" | grep -oE '[0-9]+$' || echo 0)
    failed=$(grep -oE '\[  FAILED  \] [0-9]+ test' "$out/$name.log" | grep -oE '[0-9]+' | head -1 || true)
    skipped=$(grep -oE '\[  SKIPPED \] [0-9]+' "$out/$name.log" | grep -oE '[0-9]+$' || echo 0)
    note "$name" "rc=$rc passed=${passed:-0} failed=${failed:-0} skipped=${skipped:-0}"
    grep -E "GPU differential summary|cases, .* mismatches" "$out/$name.log" | tail -8
    [[ $rc -ne 0 ]] && grep -E "Failure|FAILED|error" -A6 "$out/$name.log" | head -60
  done
fi

if [[ $mode == all || $mode == sanitize ]]; then
  # Sizes capped so that each tool finishes in a few minutes (racecheck is
  # the slower by far); every kernel and op still runs, at 1..cap bits.
  for tool in memcheck racecheck; do
    cap=9000; [[ $tool == racecheck ]] && cap=1100
    BIGTUNE_TEST_MAX_BITS=$cap compute-sanitizer --tool $tool --report-api-errors no --error-exitcode 99 \
      "$bin/bigtune_gpu_tests" --gtest_brief=1 --gtest_filter='AllOps/*:DefaultPlan*' >"$out/sanitize-$tool.log" 2>&1
    rc=$?
    errs=$(grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$out/sanitize-$tool.log" | tail -1)
    note "compute-sanitizer $tool" "rc=$rc ${errs}"
  done
fi

if [[ $mode == all || $mode == quick ]]; then
  "$bin/bigtune" check >"$out/check.log" 2>&1
  note "bigtune check" "rc=$? $(tail -1 "$out/check.log")"
fi

if [[ $mode == all || $mode == bench ]]; then
  "$bin/bigtune-bench" --csv "$out/bench.csv" >"$out/bench.log" 2>"$out/bench.err"
  note "bigtune-bench" "rc=$? rows=$(($(wc -l <"$out/bench.csv") - 1)) csv=$out/bench.csv"
  cat "$out/bench.log"
fi

echo
echo "== summary (commit $commit, $(head -1 "$out/gpu.txt")) =="
printf '%s\n' "${summary[@]}"
