#!/usr/bin/env bash
# Session 27's measure-and-check call (device, carry gpu-build/pending):
# run-pending measure of SETS (NCU off), ncu of the wgmma kernels of a 2 Kbit
# mulmod of NCU2K_SETS (time and the sector / wavefront counts the session's
# sets change), run-pending check of CHECK_SETS and memcheck of the
# multi-group test. Everything under $OUT/s27.tar.xz (the device returns at
# most 8 files).
set -u
O=${OUT:-gpu-out}; R=/tmp/s27; rm -rf $R; mkdir -p $R
SETS=${SETS:-base all}; CHECK_SETS=${CHECK_SETS:-all}; NCU2K_SETS=${NCU2K_SETS:-base all}
OUT=$R/m SETS="$SETS" MM_BITS="${MM_BITS:-2048 3072 4096 8192 12345 16384 32768 65536}" NCU=0 \
  bash bench/pending/run-pending.sh measure >/dev/null 2>&1
export BIGTUNE_DB=$(mktemp -d)/t.db
metrics=gpu__time_duration.sum,l1tex__throughput.avg.pct_of_peak_sustained_active,lts__throughput.avg.pct_of_peak_sustained_elapsed
metrics+=,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,l1tex__data_pipe_lsu_wavefronts.sum
metrics+=,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
metrics+=,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum
for v in $NCU2K_SETS; do
  timeout 120 ncu --metrics $metrics -k regex:'wgmma' --launch-count 2 /tmp/p/$v/bigtune-bench-mod --powm-bits 64 \
    --only none --no-gmp --only-mulmod tcbarrett --reps 1 --mulmod-bits 2048 >$R/ncu2k-$v.log 2>&1
done
OUT=$R/c CHECK_SETS="$CHECK_SETS" DEADLINE=${DEADLINE:-240} bash bench/pending/run-pending.sh check >/dev/null 2>&1
for v in $CHECK_SETS; do
  timeout 150 compute-sanitizer --tool memcheck --print-limit 20 /tmp/p/$v/bigtune_gpu_tests --gtest_brief=1 \
    --gtest_filter='BarrettVsGmp.TensorCoreMultiGroupLaunches' >$R/memcheck-mg-$v.log 2>&1; echo "memcheck-mg-$v rc=$?" >>$R/c/steps.txt
done
cat $R/m/summary.txt
for v in $NCU2K_SETS; do echo "== ncu2k-$v"; grep -hE "^  [a-zA-Z_].*\(|duration|throughput|sectors|wavefronts|conflicts" $R/ncu2k-$v.log | sed -E 's/ +/ /g' | cut -c1-90; done
tail -22 $R/c/summary.txt; grep -hE "mismatches|PASSED|FAILED|ERROR SUMMARY" $R/memcheck-mg-*.log; cat $R/c/steps.txt
(cd /tmp && tar -cJf $O/s27.tar.xz s27)
