#!/usr/bin/env bash
# Session 6, call 7: GPU tests after the test-harness refactor (variant_filter.hpp, split_product_case.hpp).
set -u
b=/tmp/lb; mkdir -p $b /tmp/o
xz -dc .carry/s6e/bigtune_gpu_tests.xz > $b/t; chmod +x $b/t
export BIGTUNE_TEST_SEED=20261126 BIGTUNE_DB=/tmp/s6e-$$.db
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > /tmp/o/$name.log 2>&1; local rc=$?; echo "$name rc=$rc s=$(( $(date +%s) - s ))" | tee -a /tmp/o/steps.txt; }
step all 170 env BIGTUNE_TEST_MAX_BITS=70000 $b/t --gtest_brief=1 --gtest_filter='-ModOps*'
step modwarp 60 env BIGTUNE_TEST_FAMILY=warp BIGTUNE_TEST_VARIANTS=wbarrett,bsqr $b/t --gtest_brief=1 --gtest_filter='ModOps/*mulmod:ModOps/*sqrmod'
step filters 60 env BIGTUNE_WKARA_VARIANTS=l4 BIGTUNE_WLOW_VARIANTS=l8 BIGTUNE_WARP_VARIANTS=ballot.u32.q2 BIGTUNE_ROUNDS_VARIANTS=q16.l2 BIGTUNE_TEST_VARIANTS=q16.l16 $b/t --gtest_brief=1 --gtest_filter='WarpKara*:WarpOps/*add:WarpRounds*:WarpModVsGmp.PowmFullExponents'
cat /tmp/o/steps.txt
grep -hE "cases|mismatch|FAILED|Failure|PASSED" /tmp/o/all.log | grep -E "karatsuba|by halves|mul_low default|warp add|warp mul |rounds|powm|PASSED|FAILED|Failure" | head -20
grep -hE "cases|mismatch|FAILED|PASSED" /tmp/o/modwarp.log /tmp/o/filters.log | head -20
