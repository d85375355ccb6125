#!/usr/bin/env bash
# Session 15, run H: gpu-build/s32 = the CLI of de71677 (main's head, code as run G's s31):
# `bigtune check` at the sizes the session's device changes reach through the runtime's default
# plans (nttmont powm at 20000-65536 bits, the NTT products and the divisions built on them above).
set -u
b=/tmp/bt32; mkdir -p $b; xz -dc gpu-build/s32/bin.tar.xz | tar -C $b -xf -
export BIGTUNE_DB=$(mktemp -d)/t.db
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
s=$(date +%s); timeout 200 $b/bigtune check --bits 20000 32768 65536 100003 > $OUT/check.log 2>&1; echo "check rc=$? s=$(( $(date +%s) - s ))" >> $OUT/gpu.txt
cat $OUT/gpu.txt; tail -40 $OUT/check.log
