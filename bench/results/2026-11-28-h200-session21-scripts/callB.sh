set -u
OUT=${OUT:-gpu-out}; mkdir -p $OUT
export BIGTUNE_DB=/tmp/b.db
# run-gpu.sh tests, bounded so the table below fits the call
timeout 430 scripts/run-gpu.sh tests > $OUT/tests.txt 2>&1; echo "run-gpu tests rc=$?"; tail -12 $OUT/tests.txt
B="--powm-bits 64 --only none --no-gmp --only-mulmod tcbarrett --reps 5 --mulmod-bits 4096 8192 12288 16384"
timeout 60 /tmp/bigtune-bin/bigtune-bench-mod $B 2>&1 | grep -E "^ +[0-9]+ +[0-9]+ "
timeout 40 /tmp/bigtune-bin/bigtune-bench-mod $B --sqrmod 2>&1 | grep -E "^ +[0-9]+ +[0-9]+ "
