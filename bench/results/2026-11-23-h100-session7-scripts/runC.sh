#!/usr/bin/env bash
# Session 7, call C (same warm machine as call B, its binaries in /tmp/lb): fetch B's validation,
# powm at 4096 bits with full exponents on a whole batch, validate divmod and mul again on B's database.
cp /tmp/o/validate.tsv /tmp/o/validate.log $OUT/ 2>/dev/null; ls /tmp/s7tune.db
b=/tmp/lb; export BIGTUNE_DB=/tmp/s7c.db
$b/bigtune-bench-mod --powm-bits 4096 --only bgsqr.u32.q16.l8.w6 --max-e-bits 4096 --min-count 63360 --reps 3 --no-mulmod 2>&1 | tail -2 | tee $OUT/p4k-full.log
$b/bigtune --db /tmp/s7tune.db validate --ops divmod,mul --repetitions 3 --out $OUT/validate2.tsv > $OUT/validate2.log 2>&1; tail -5 $OUT/validate2.log
