#!/usr/bin/env bash
# Session 10, run K (binaries in .carry/s10: 6982ac5 + the per-instance DFMA Montgomery mulmod,
# committed next): the dfma mulmod/sqrmod variants' per-instance path (dmont_mulmod_kernel and the
# even-only pass): ModDfma, the thread-family mulmod/sqrmod suites (every modulus mode), memcheck,
# and mulmod/sqrmod at 1024 bits with per-instance moduli.
set -u
b=/tmp/lb; rm -rf /tmp/o; mkdir -p $b /tmp/o
for f in bigtune_gpu_tests bigtune-bench-mod; do xz -dc .carry/s10/$f.xz > $b/$f; chmod +x $b/$f; done
export BIGTUNE_TEST_SEED=20261137 BIGTUNE_DB=/tmp/runK-$$.db
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > /tmp/o/$name.log 2>&1; local rc=$?; echo "$name rc=$rc s=$(( $(date +%s) - s ))" >> /tmp/o/steps.txt; }
t=$b/bigtune_gpu_tests; bm=$b/bigtune-bench-mod
step modthread 90 env BIGTUNE_TEST_FAMILY=thread BIGTUNE_TEST_VARIANTS=dfma $t --gtest_brief=1 --gtest_filter='ModOps/*mulmod:ModOps/*sqrmod:ModDfma.Barrett*'
step memcheck 90 env BIGTUNE_TEST_FAMILY=thread BIGTUNE_TEST_VARIANTS=dfma.u64.q16.roll4 compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 99 $t --gtest_brief=1 --gtest_filter='ModOps/*mulmod'
step perinst 40 $bm --powm-bits 64 --only none --no-gmp --mulmod-bits 1024 --reps 3 --per-instance-moduli
step perinstsqr 40 $bm --powm-bits 64 --only none --no-gmp --mulmod-bits 1024 --reps 3 --per-instance-moduli --sqrmod
cp /tmp/o/* $OUT/ 2>/dev/null
cat /tmp/o/steps.txt
grep -hE "FAILED|Failure" /tmp/o/modthread.log | head -10
grep -hE "PASSED|mismatch|cases" /tmp/o/modthread.log | tail -6
grep -hE "ERROR SUMMARY|PASSED|FAILED|mismatch" /tmp/o/memcheck.log | head
cat /tmp/o/perinst.log /tmp/o/perinstsqr.log | grep -vE "^$|device|^powm|bits variant"
