#!/usr/bin/env bash
# Session 6 merged tree, call 2: tune all ops + validate + report; add/sub repeat at 2^17-2^20; mul_low 4 Kbit default.
set -u
b=/tmp/lb; mkdir -p $b /tmp/o
for f in .carry/s6b/*.xz; do xz -dc "$f" > $b/$(basename $f .xz); chmod +x $b/$(basename $f .xz); done
export BIGTUNE_DB=/tmp/lead-s6b-$$.db BIGTUNE_PROFILES=$PWD/profiles
step() { local name=$1 t=$2; shift 2; local s=$(date +%s); timeout $t "$@" > /tmp/o/$name.log 2>&1; local rc=$?; echo "$name rc=$rc s=$(( $(date +%s) - s ))" | tee -a /tmp/o/steps.txt; }
rm -f /tmp/lead-tune.db
step tune 200 $b/bigtune --db /tmp/lead-tune.db tune --budget 178
step validate 130 $b/bigtune --db /tmp/lead-tune.db validate --ops add,mul,divmod --repetitions 3 --out /tmp/o/validate.tsv
timeout 30 $b/bigtune --db /tmp/lead-tune.db report --validation /tmp/o/validate.tsv -o $OUT/report.html > /tmp/o/report.log 2>&1; echo "report rc=$?" | tee -a /tmp/o/steps.txt
gzip -c /tmp/lead-tune.db > /tmp/o/tune-db.gz
for k in 1 2; do
step add-noflags-$k 40 $b/bigtune-bench --ops add sub --defaults-only --reps 30 --no-flags --min-log2-bits 17 --max-log2-bits 20 --csv /tmp/o/add-noflags-$k.csv
step add-flags-$k 40 $b/bigtune-bench --ops add sub --defaults-only --reps 30 --min-log2-bits 17 --max-log2-bits 20 --csv /tmp/o/add-flags-$k.csv
done
step mullow 30 $b/bigtune-bench --ops mul_low --defaults-only --reps 10 --min-log2-bits 12 --max-log2-bits 12 --csv /tmp/o/mullow.csv
cp /tmp/o/steps.txt $OUT/
tar czf $OUT/logs.tgz -C /tmp/o .
cat /tmp/o/steps.txt
grep -E "^  [a-z_]+: [0-9]+ samples|tuned in|sampling done|skipped|left out" /tmp/o/tune.log | cut -c1-160
tail -8 /tmp/o/validate.log
grep -hE "^(add|sub|mul_low) " /tmp/o/add-*.log /tmp/o/mullow.log | awk '{print $1,$2,$5,$(NF-4),$(NF-3)}'
