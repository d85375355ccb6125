#!/usr/bin/env bash
# Session 30's device calls (carry gpu-build/pending), in PHASES:
#   measure: run-pending measure of SETS (NCU off) and ncu of the wgmma
#            kernels of a 2 Kbit mulmod for NCU2K_SETS;
#   check:   run-pending check of CHECK_SETS (cut at DEADLINE s) and memcheck
#            of the multi-group test for MG_SETS (default CHECK_SETS);
#   powmplan: powm with a shared modulus at PLAN_BITS, tcbarrett against the
#            NTT Montgomery powm (main's build: where the runtime's rule
#            should hand over);
#   ncuall:  every kernel's time in a mulmod at NCU_ALL_BITS, for NCU_ALL_SETS
#            (default base);
#   barrett: mulmod of the non-tensor Barrett variants (modulus per instance)
#            at BARRETT_BITS for BARRETT_SETS, alternated twice.
# Logs under $OUT/s30-PHASE.tar.xz; the summaries printed last.
set -u
O=${OUT:-gpu-out}; R=/tmp/s30; rm -rf $R; mkdir -p $R
SETS=${SETS:-base all}; CHECK_SETS=${CHECK_SETS:-all}; NCU2K_SETS=${NCU2K_SETS:-}
for phase in ${PHASES:-measure check}; do
  if [[ $phase == measure ]]; then
    OUT=$R/m SETS="$SETS" MM_BITS="${MM_BITS:-2048 3072 4096 8192 12345 16384 32768 65536}" NCU=0 \
      bash bench/pending/run-pending.sh measure >/dev/null 2>&1
    export BIGTUNE_DB=$(mktemp -d)/t.db
    metrics=gpu__time_duration.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,l1tex__data_pipe_lsu_wavefronts.sum
    metrics+=,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
    for v in $NCU2K_SETS; do
      timeout 120 ncu --metrics $metrics -k regex:'wgmma' --launch-count 2 /tmp/p/$v/bigtune-bench-mod --powm-bits 64 \
        --only none --no-gmp --only-mulmod tcbarrett --reps 1 --mulmod-bits 2048 >$R/ncu2k-$v.log 2>&1
    done
    cat $R/m/summary.txt
    for v in $NCU2K_SETS; do echo "== ncu2k-$v"; grep -hE "^  [a-zA-Z_].*\(|duration|sectors|wavefronts|conflicts" $R/ncu2k-$v.log | sed -E 's/ +/ /g' | cut -c1-90; done
  fi
  if [[ $phase == check ]]; then
    OUT=$R/c CHECK_SETS="$CHECK_SETS" DEADLINE=${DEADLINE:-240} bash bench/pending/run-pending.sh check >/dev/null 2>&1
    for v in ${MG_SETS:-$CHECK_SETS}; do
      timeout 150 compute-sanitizer --tool memcheck --print-limit 20 /tmp/p/$v/bigtune_gpu_tests --gtest_brief=1 \
        --gtest_filter='BarrettVsGmp.TensorCoreMultiGroupLaunches' >$R/memcheck-mg-$v.log 2>&1; echo "memcheck-mg-$v rc=$?" >>$R/c/steps.txt
    done
    tail -22 $R/c/summary.txt; grep -hE "mismatches|PASSED|FAILED|ERROR SUMMARY" $R/memcheck-mg-*.log; cat $R/c/steps.txt
  fi
  if [[ $phase == powmplan ]]; then
    timeout ${PLAN_TIMEOUT:-240} /tmp/p/base/bigtune-bench-mod --powm-shared-modulus --no-mulmod --no-gmp --reps 3 \
      --powm-bits ${PLAN_BITS:-16384 24576 32768} --only ${PLAN_ONLY:-tcbarrett.u64.q1.w6,nttmont.u64.q1.sw9} >$R/powmplan.log 2>&1
    echo "== powmplan rc=$?"; grep -hE "^ +[0-9]+ +[a-z]" $R/powmplan.log
  fi
  if [[ $phase == ncuall ]]; then
    for v in ${NCU_ALL_SETS:-base}; do for bits in ${NCU_ALL_BITS:-32768}; do
      timeout 120 ncu --metrics gpu__time_duration.sum --launch-count 120 /tmp/p/$v/bigtune-bench-mod --powm-bits 64 \
        --only none --no-gmp --only-mulmod tcbarrett --reps 1 --mulmod-bits $bits >$R/ncuall-$v-$bits.log 2>&1
      echo "== ncuall-$v-$bits rc=$?"
      grep -hE "^  [a-zA-Z_].*\(|gpu__time_duration" $R/ncuall-$v-$bits.log | paste - - | sed -E 's/^  (.{1,60}).* ([a-z]+) +([0-9.,]+)$/\1 \3 \2/' | tail -40
    done; done
  fi
  if [[ $phase == barrett ]]; then
    for round in 1 2; do for v in ${BARRETT_SETS:-base finish}; do
      timeout 120 /tmp/p/$v/bigtune-bench-mod --powm-bits 64 --only none --no-gmp --per-instance-moduli \
        --only-mulmod barrett --mulmod-bits ${BARRETT_BITS:-1024 2048 4096 8192} >$R/barrett-$v-$round.log 2>&1
      echo "== barrett-$v-$round rc=$?"; grep -hE "^ +[0-9]+ +[a-z]" $R/barrett-$v-$round.log
    done; done
  fi
  (cd /tmp && tar -cJf $O/s30-$phase.tar.xz s30)
done
