#!/usr/bin/env bash
# Session 31's device calls (carry gpu-build/pending), in PHASES:
#   measure: run-pending measure of SETS (NCU off) and ncu of the wgmma
#            kernels of a mulmod at NCU_BITS (2048) for NCU_SETS;
#   check:   run-pending check of CHECK_SETS (cut at DEADLINE s) and memcheck
#            of the multi-group test for MG_SETS (default CHECK_SETS);
#   source:  the stall reasons and per-SASS-line samples of one kernel
#            (SRC_KERNEL, a regex: barrett_fused) at SRC_BITS (2048) for
#            SRC_SET (base), run-pending's source table;
#   ncuall:  every kernel's time in a mulmod at NCU_ALL_BITS (32768) for
#            NCU_ALL_SETS (base).
# Logs under $OUT/s31-PHASE.tar.xz; the summaries printed last.
set -u
O=${OUT:-gpu-out}; R=/tmp/s31; rm -rf $R; mkdir -p $R
SETS=${SETS:-base over}; CHECK_SETS=${CHECK_SETS:-over}; NCU_SETS=${NCU_SETS:-}
for phase in ${PHASES:-measure check}; do
  if [[ $phase == measure ]]; then
    OUT=$R/m SETS="$SETS" MM_BITS="${MM_BITS:-2048 3072 4096}" NCU=0 \
      bash bench/pending/run-pending.sh measure >/dev/null 2>&1
    export BIGTUNE_DB=$(mktemp -d)/t.db
    metrics=gpu__time_duration.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,l1tex__data_pipe_lsu_wavefronts.sum
    metrics+=,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
    metrics+=,sm__warps_active.avg.pct_of_peak_sustained_active,launch__occupancy_limit_shared_mem,launch__occupancy_limit_registers
    for v in $NCU_SETS; do for bits in ${NCU_BITS:-2048}; do
      timeout 120 ncu --metrics $metrics -k regex:'wgmma' --launch-count 2 /tmp/p/$v/bigtune-bench-mod --powm-bits 64 \
        --only none --no-gmp --only-mulmod tcbarrett --reps 1 --mulmod-bits $bits >$R/ncu-$v-$bits.log 2>&1
    done; done
    cat $R/m/summary.txt
    for f in $R/ncu-*.log; do echo "== $(basename $f .log)"; grep -hE "^  [a-zA-Z_].*\(|duration|sectors|wavefronts|conflicts|warps_active|occupancy" $f | sed -E 's/ +/ /g' | cut -c1-90; done
  fi
  if [[ $phase == check ]]; then
    OUT=$R/c CHECK_SETS="$CHECK_SETS" DEADLINE=${DEADLINE:-240} bash bench/pending/run-pending.sh check >/dev/null 2>&1
    for v in ${MG_SETS:-$CHECK_SETS}; do
      timeout 150 compute-sanitizer --tool memcheck --print-limit 20 /tmp/p/$v/bigtune_gpu_tests --gtest_brief=1 \
        --gtest_filter='BarrettVsGmp.TensorCoreMultiGroupLaunches' >$R/memcheck-mg-$v.log 2>&1; echo "memcheck-mg-$v rc=$?" >>$R/c/steps.txt
    done
    tail -22 $R/c/summary.txt; grep -hE "mismatches|PASSED|FAILED|ERROR SUMMARY" $R/memcheck-mg-*.log; cat $R/c/steps.txt
  fi
  if [[ $phase == source ]]; then
    mkdir -p $R/src; export BIGTUNE_DB=$(mktemp -d)/t.db
    timeout 150 ncu --section SourceCounters --section WarpStateStats --section Occupancy --import-source no \
      -k regex:"${SRC_KERNEL:-barrett_fused}" --launch-count 1 -o $R/src/src /tmp/p/${SRC_SET:-base}/bigtune-bench-mod \
      --powm-bits 64 --only none --no-gmp --only-mulmod tcbarrett --reps 1 --mulmod-bits ${SRC_BITS:-2048} >$R/src/run.log 2>&1
    echo "== source rc=$?"
    ncu --import $R/src/src.ncu-rep --page details >$R/src/details.txt 2>&1
    ncu --import $R/src/src.ncu-rep --page source --csv --print-source sass >$R/src/sass.csv 2>$R/src/page.log
    grep -E "Stall|Warp Cycles|Occupancy|Block Limit|Active Warps" $R/src/details.txt | sed -E 's/ +/ /g' | head -40
    python3 - $R/src/sass.csv <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
head = next((i for i, r in enumerate(rows) if any("Source" in c for c in r)), None)
if head is None: sys.exit(print("no header"))
h = rows[head]; src = next(i for i, c in enumerate(h) if "Source" in c)
def num(x):
    try: return float(x.replace(",", ""))
    except ValueError: return 0.0
cols = [i for i, c in enumerate(h) if c.startswith("stall_") or ("Sampl" in c)]
tot = {h[i]: sum(num(r[i]) for r in rows[head + 1:] if len(r) > i) for i in cols}
print("== totals:", ", ".join(f"{k}={v:.0f}" for k, v in sorted(tot.items(), key=lambda kv: -kv[1]) if v))
s = next((i for i, c in enumerate(h) if "Sampling" in c and "All" in c), None) or (cols[0] if cols else None)
if s is not None:
    for r in sorted(rows[head + 1:], key=lambda r: -num(r[s]) if len(r) > s else 0)[:30]:
        print(f"{r[s]:>8}  {r[src][:100]}")
PY
  fi
  if [[ $phase == ncuall ]]; then
    export BIGTUNE_DB=$(mktemp -d)/t.db
    for v in ${NCU_ALL_SETS:-base}; do for bits in ${NCU_ALL_BITS:-32768}; do
      timeout 120 ncu --metrics gpu__time_duration.sum --launch-count 120 /tmp/p/$v/bigtune-bench-mod --powm-bits 64 \
        --only none --no-gmp --only-mulmod tcbarrett --reps 1 --mulmod-bits $bits >$R/ncuall-$v-$bits.log 2>&1
      echo "== ncuall-$v-$bits rc=$?"
      grep -hE "^  [a-zA-Z_].*\(|gpu__time_duration" $R/ncuall-$v-$bits.log | paste - - | sed -E 's/^  (.{1,60}).* ([a-z]+) +([0-9.,]+)$/\1 \3 \2/' | tail -9
    done; done
  fi
  (cd /tmp && tar -cJf $O/s31-$phase.tar.xz s31)
done
