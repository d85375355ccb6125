#!/usr/bin/env bash
# On the GPU machine, with gpu-build/pending carried (bench/pending/build-pending.sh):
#   measure (one device call, ~7 minutes for five sets):
#   1. the carry-flag chains' PTX (BorrowChains.*) of every set that has them,
#      before anything is timed;
#   2. main ("base") against each set whose benchmark differs from main's:
#      tcbarrett mulmod at MM_BITS (2-32 Kbit and 12345 bits), the builds
#      alternated twice (median of 5 reps each); sqrmod once for SQ_SETS
#      (base, all); powm with a shared modulus (tcbarrett w6, POWM_BITS: 4 and
#      8 Kbit);
#   3. with NCU=1, ncu of an 8 Kbit mulmod's reduction kernels (duration,
#      issue, warp states) for NCU_SETS (base, all), and every kernel's time
#      in main's mulmod at NCU_ALL_BITS (2, 4, 8, 32 Kbit); NCU_SOURCE=1
#      adds a kernel's stall samples per SASS line (NCU_SOURCE_KERNEL, NCU_SOURCE_BITS: the remainder kernel at 8 Kbit).
#   About a minute a set timed: eight builds fit one call.
#   check (one device call): each set's GPU tests of the Barrett paths
#   (BarrettVsGmp, BorrowChains, ModDefaultPlan, GpuErrors, ModOps mulmod and
#   sqrmod), memcheck and racecheck on the sanitizer-sized cases; the sets
#   run side by side (CHECK_SETS="a b": only those), cut at DEADLINE seconds.
# Each prints a short table last; logs go to $OUT.
#   bash bench/pending/run-pending.sh measure|check
set -u
shopt -s nullglob  # (the summary's globs: a mode writes only its own logs)
mode=${1:?usage: $0 measure|check}
cd "$(dirname "$0")/../.."
start=$(date +%s)
OUT=${OUT:-gpu-out}; mkdir -p "$OUT"
mkdir -p /tmp/p && xz -dc gpu-build/pending/bin.tar.xz | tar -C /tmp/p -xf -
sets=(base $(cd /tmp/p && ls -d */ | tr -d / | grep -vx base))
[[ -n ${SETS:-} ]] && read -r -a sets <<<"$SETS"  # SETS="base a": only those (base first)
export BIGTUNE_DB=$(mktemp -d)/t.db BIGTUNE_TEST_SEED=${BIGTUNE_TEST_SEED:-20262001}
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader >"$OUT/gpu.txt"
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout "$t" "$@" >"$OUT/$name.log" 2>&1; echo "$name rc=$? s=$(( $(date +%s) - s ))" >>"$OUT/steps.txt"; }
read -r -a mm_bits <<<"${MM_BITS:-2048 3072 4096 8192 12345 16384 32768}"  # MM_BITS: the sizes timed
mm=(--powm-bits 64 --only none --no-gmp --only-mulmod tcbarrett --reps 5)
# Timings only for sets whose benchmark differs from main's (kernel patches).
timed=(base)
for v in "${sets[@]:1}"; do
  cmp -s /tmp/p/base/bigtune-bench-mod /tmp/p/$v/bigtune-bench-mod || timed+=("$v")
done
if [[ $mode == measure ]]; then
  for v in "${sets[@]}"; do
    /tmp/p/$v/bigtune_gpu_tests --gtest_list_tests --gtest_filter='BorrowChains.*' | grep -q Gmp &&
      step "chains-$v" 60 /tmp/p/$v/bigtune_gpu_tests --gtest_brief=1 --gtest_filter='BorrowChains.*'
  done
  for r in 1 2; do
    for v in "${timed[@]}"; do step "mm-$v-$r" 60 /tmp/p/$v/bigtune-bench-mod "${mm[@]}" --mulmod-bits "${mm_bits[@]}"; done
  done
  for v in ${SQ_SETS:-base all}; do  # (sqrmod runs the same reduction: main and the set of all)
    [[ -d /tmp/p/$v ]] && step "sq-$v" 60 /tmp/p/$v/bigtune-bench-mod "${mm[@]}" --mulmod-bits "${mm_bits[@]}" --sqrmod
  done
  for v in "${timed[@]}"; do
    step "powm-$v" 40 /tmp/p/$v/bigtune-bench-mod --powm-shared-modulus --no-mulmod --no-gmp --reps 3 \
      --powm-bits ${POWM_BITS:-4096 8192} --only tcbarrett.u64.q1.w6
  done
  if [[ ${NCU:-0} == 1 ]]; then
    # Every kernel of main's mulmod (warm-up and one timed call) at
    # NCU_ALL_BITS: where a call's time goes, glue and mu's division included.
    for bits in ${NCU_ALL_BITS:-2048 4096 8192 32768}; do
      step "ncuall-$bits" 90 ncu --metrics gpu__time_duration.sum --launch-count 120 /tmp/p/base/bigtune-bench-mod \
        --powm-bits 64 --only none --no-gmp --only-mulmod tcbarrett --reps 1 --mulmod-bits "$bits"
    done
    # NCU_SOURCE=1: a kernel's stall samples (and shared-memory wavefronts,
    # where the page has them) per SASS line, main's build: the remainder
    # kernel at 8 Kbit unless NCU_SOURCE_KERNEL (a regex) and
    # NCU_SOURCE_BITS say otherwise; the report and its source page as CSV
    # in $OUT.
    if [[ ${NCU_SOURCE:-0} == 1 ]]; then
      step "ncusrc-run" 90 ncu --section SourceCounters --section WarpStateStats --import-source no \
        -k regex:"${NCU_SOURCE_KERNEL:-barrett_rem}" --launch-count 1 -o "$OUT/src" /tmp/p/base/bigtune-bench-mod \
        --powm-bits 64 --only none --no-gmp --only-mulmod tcbarrett --reps 1 --mulmod-bits "${NCU_SOURCE_BITS:-8192}"
      ncu --import "$OUT/src.ncu-rep" --page source --csv --print-source sass >"$OUT/src-sass.csv" 2>"$OUT/ncusrc-page.log"
    fi
    for v in ${NCU_SETS:-base all}; do
      [[ -d /tmp/p/$v ]] && step "ncu-$v" 60 ncu --metrics gpu__time_duration.sum --section WarpStateStats --section ComputeWorkloadAnalysis \
        -k regex:'mul_const|barrett_rem|barrett_finish|barrett_check' --launch-count 6 /tmp/p/$v/bigtune-bench-mod \
        --powm-bits 64 --only none --no-gmp --only-mulmod tcbarrett --reps 1 --mulmod-bits 8192
    done
  fi
fi
if [[ $mode == check ]]; then
  deadline=$(( start + ${DEADLINE:-540} ))
  left() { local l=$(( deadline - $(date +%s) )); ((l < 1)) && l=1; echo $l; }  # timeout 0 would mean none
  for v in ${CHECK_SETS:-${sets[@]:1}}; do
    ( t=/tmp/p/$v/bigtune_gpu_tests
      step "tests-$v" "$(left)" $t --gtest_brief=1 --gtest_filter='BarrettVsGmp.*:BorrowChains.*:ModDefaultPlan.*:GpuErrors.*:KeptModulus.*'
      BIGTUNE_TEST_VARIANTS=barrett step "modops-$v" "$(left)" $t --gtest_brief=1 \
        --gtest_filter='ModOps/ModVsGmp.EveryVariantMatchesGmp/mulmod:ModOps/ModVsGmp.EveryVariantMatchesGmp/sqrmod'
      for tool in memcheck racecheck; do
        step "$tool-$v" "$(left)" compute-sanitizer --tool $tool --print-limit 20 $t \
          --gtest_filter='BarrettVsGmp.SanitizerSized' --gtest_brief=1
      done ) &
  done
  wait
fi
(cat "$OUT/gpu.txt" gpu-build/pending/commit.txt gpu-build/pending/sets.txt "$OUT/steps.txt"
 for f in "$OUT"/mm-*.log "$OUT"/sq-*.log; do echo "== $(basename "$f" .log)"; grep -hE "^ +[0-9]+ +[0-9]+ " "$f"; done 2>/dev/null
 for f in "$OUT"/powm-*.log; do echo "== $(basename "$f" .log)"; grep -hE "^ +[0-9]+ +[a-z]" "$f"; done 2>/dev/null
 for f in "$OUT"/ncu-*.log; do echo "== $(basename "$f" .log)"; grep -hE "^  [a-z_].*\(|gpu__time_duration|Executed Ipc A|Warp Cycles Per Issued" "$f" | head -24; done 2>/dev/null
 [[ -s $OUT/src-sass.csv ]] && python3 - "$OUT/src-sass.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
head = next((i for i, r in enumerate(rows) if any("Source" in c for c in r)), None)
if head is None:
    sys.exit(print("== src-sass: no header found"))
h = rows[head]
src = next(i for i, c in enumerate(h) if "Source" in c)
samples = next((i for i, c in enumerate(h) if "Sampling" in c and "All" in c), None) or next((i for i, c in enumerate(h) if "Sampl" in c), None)
waves = next((i for i, c in enumerate(h) if "Wavefronts" in c and "Shared" in c and "Ideal" not in c), None)
def num(x):
    try: return float(x.replace(",", ""))
    except ValueError: return 0.0
for col in (samples, waves):
    if col is None:
        continue
    print("== src-sass: top SASS lines by", h[col])
    for r in sorted(rows[head + 1:], key=lambda r: -num(r[col]) if len(r) > col else 0)[:25]:
        print(f"{r[col]:>10}  {r[src][:90]}")
PY
 for f in "$OUT"/ncuall-*.log; do  # kernel (first 60 characters) and its time, in launch order
   echo "== $(basename "$f" .log)"
   grep -hE "^  [a-zA-Z_].*\(|gpu__time_duration" "$f" | paste - - | sed -E 's/^  (.{1,60}).* ([a-z]+) +([0-9.,]+)$/\1 \3 \2/' | tail -40
 done 2>/dev/null
 grep -hE "instances, .* mismatches|cases, .* mismatches|PASSED|FAILED|ERROR SUMMARY|RACECHECK SUMMARY" \
   "$OUT"/chains-*.log "$OUT"/tests-*.log "$OUT"/modops-*.log "$OUT"/memcheck-*.log "$OUT"/racecheck-*.log /dev/null | sort | uniq -c
 grep -hE "Failure" -A6 "$OUT"/chains-*.log "$OUT"/tests-*.log "$OUT"/modops-*.log /dev/null | head -20
) >"$OUT/summary.txt"
(cd "$OUT" && tar -cJf logs.tar.xz ./*.log && rm -f ./*.log)
cat "$OUT/summary.txt"
