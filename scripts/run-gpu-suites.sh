#!/usr/bin/env bash
# On the GPU machine: bigtune_gpu_tests one suite at a time within a time
# budget, for a whole run split over device calls of at most 10 minutes
# (the whole binary takes longer). Suites are started while BUDGET seconds
# last; each line of $OUT/suites.txt says passed, FAILED or cut (out of
# time), the last lines list what is left for the next call. A SUITE with a
# dot is a gtest filter of its own (one test of a long suite, e.g.
# 'ModOps/ModVsGmp.EveryVariantMatchesGmp/powm'); SUITE@PARTS runs it with
# BIGTUNE_TEST_VARIANTS=PARTS (the variants whose names contain one of the
# comma-separated parts: a long parameter split over calls, e.g.
# 'ModOps/ModVsGmp.EveryVariantMatchesGmp/powm@powm.fixed,powm.sliding').
# Output is line-buffered, so a cut suite's log shows how far it came
# (BIGTUNE_TEST_PROGRESS=1: ModVsGmp prints a line before each of its cases).
#   scripts/run-gpu-suites.sh BUDGET [SUITE ...]   (no suites: all, in order;
#   SKIP="A B": suites not to run, e.g. those done in an earlier call)
set -uo pipefail
cd "$(dirname "$0")/.."
budget=${1:?usage: $0 BUDGET_SECONDS [SUITE ...]}; shift
bin=gpu-build/bin
if [[ ! -x $bin/bigtune_gpu_tests ]]; then  # carried compressed (build-gpu.sh)
  bin=/tmp/bigtune-bin
  [[ -x $bin/bigtune_gpu_tests ]] || { mkdir -p $bin && xz -dc gpu-build/carry/bin.tar.xz | tar -C $bin -xf -; }
fi
out=${OUT:-gpu-out}; mkdir -p "$out"
export BIGTUNE_TEST_SEED=${BIGTUNE_TEST_SEED:-20261122}
suites=("$@")
((${#suites[@]})) || mapfile -t suites < <("$bin/bigtune_gpu_tests" --gtest_list_tests | grep -E '^[A-Za-z][A-Za-z0-9_/]*[.]$' | tr -d .)
end=$(($(date +%s) + budget))
left=()
for s in "${suites[@]}"; do
  [[ " ${SKIP:-} " == *" $s "* ]] && continue
  now=$(date +%s)
  if ((now + 20 > end)); then left+=("$s"); continue; fi
  name=${s%%@*} parts=""
  [[ $s == *@* ]] && parts=${s#*@}
  log="$out/suite-$(printf '%s' "$s" | tr '/@,' '_+-').log"
  filter=$name; [[ $name == *.* ]] || filter="$name.*"
  BIGTUNE_TEST_VARIANTS=${parts:-${BIGTUNE_TEST_VARIANTS:-}} timeout $((end - now)) \
    stdbuf -oL "$bin/bigtune_gpu_tests" --gtest_brief=1 --gtest_filter="$filter" >"$log" 2>&1
  rc=$?
  verdict=passed
  ((rc == 124)) && verdict=cut && left+=("$s")
  ((rc != 0 && rc != 124)) && verdict=FAILED
  printf '%-28s %-7s %4ss %s\n' "$s" "$verdict" $(($(date +%s) - now)) \
    "$(grep -hE '^\[  (PASSED|SKIPPED|FAILED) ' "$log" | tr '\n' ' ')" | tee -a "$out/suites.txt"
  [[ $verdict == FAILED ]] && grep -E "Failure|mismatch" -A4 "$log" | head -30
done
echo "left: ${left[*]:-none}" | tee -a "$out/suites.txt"
