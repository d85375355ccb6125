#!/usr/bin/env bash
# Session 23, device call 2 (one H200; carry ["gpu-build/carry",
# "gpu-build/pending"]; the two-GPU kind was not lent). Correctness only,
# four processes side by side on the one GPU (no timings: those wait for a
# quiet GPU in call 3): bench/pending/run-pending.sh check (the Barrett
# suites, memcheck and racecheck of imma-b-window and the two wgmma staging
# patches) and the GPU suites call 1 left (AllOps one parameter at a time,
# MulSqr, ModOps powm).
set -u
OUT=${OUT:-gpu-out}; mkdir -p "$OUT/pending" "$OUT/suites-a" "$OUT/suites-b" "$OUT/suites-c"
start=$(date +%s)
bin=/tmp/bigtune-bin; mkdir -p $bin; xz -dc gpu-build/carry/bin.tar.xz | tar -C $bin -xf -
export BIGTUNE_TEST_SEED=20261122
nvidia-smi --query-gpu=index,name,driver_version,clocks.max.sm --format=csv,noheader >"$OUT/gpu.txt"
(OUT=$OUT/pending timeout 560 bash bench/pending/run-pending.sh check >"$OUT/pending.txt" 2>&1) &
a=AllOps/ArithVsGmp.EveryValidVariantMatchesGmp
suites() { local o=$1; shift; BIGTUNE_DB=$(mktemp -d)/t.db OUT=$OUT/$o \
  scripts/run-gpu-suites.sh $((555 - ($(date +%s) - start))) "$@" >/dev/null 2>&1; }
suites suites-a $a/mul $a/mul_low $a/add $a/sub $a/cmp $a/shl $a/shr &
suites suites-b MulSqr/NttVsGmp &
suites suites-c ModOps/ModVsGmp.EveryVariantMatchesGmp/powm &
wait
(cat "$OUT/gpu.txt"
 echo "== pending"; cat "$OUT/pending.txt"
 echo "== suites"; grep -hE "cases, .* mismatches|instances, .* mismatches|summary" "$OUT"/suites-*/suite-*.log | sort | uniq -c | head -30
 grep -hE "Failure" -A5 "$OUT"/suites-*/suite-*.log | head -20
 cat "$OUT"/suites-*/suites.txt) >"$OUT/summary.txt"
(cd "$OUT" && tar -cJf logs.tar.xz ./suites-* pending && rm -rf ./suites-* pending)
cat "$OUT/summary.txt"
