#!/usr/bin/env bash
# Session 6 final registry (c2b7370): tune all ops + validate + report.
set -u
b=/tmp/lb; mkdir -p $b /tmp/o
xz -dc .carry/s6d/bigtune.xz > $b/bigtune; chmod +x $b/bigtune
export BIGTUNE_DB=/tmp/lead-s6d-$$.db BIGTUNE_PROFILES=$PWD/profiles
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > /tmp/o/$name.log 2>&1; local rc=$?; echo "$name rc=$rc s=$(( $(date +%s) - s ))" | tee -a /tmp/o/steps.txt; }
rm -f /tmp/lead-tune.db
step tune 200 $b/bigtune --db /tmp/lead-tune.db tune --budget 178
step validate 130 $b/bigtune --db /tmp/lead-tune.db validate --ops add,mul,divmod --repetitions 3 --out /tmp/o/validate.tsv
timeout 30 $b/bigtune --db /tmp/lead-tune.db report --validation /tmp/o/validate.tsv -o /tmp/o/report.html > /tmp/o/report.log 2>&1; echo "report rc=$?" | tee -a /tmp/o/steps.txt
cp /tmp/o/* $OUT/
cat /tmp/o/steps.txt
grep -E "^  [a-z_]+: [0-9]+ samples|tuned in|sampling done|skipped|left out" /tmp/o/tune.log | cut -c1-160
tail -8 /tmp/o/validate.log
