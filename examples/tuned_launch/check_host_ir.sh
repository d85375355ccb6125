#!/usr/bin/env bash
# Compiles a .cu file's host side to LLVM IR the way bigtune_enable_launch_pass
# builds it (nvcc -ccbin clang++ -Xcompiler -fpass-plugin=...), asking clang
# for textual IR instead of an object, and FileChecks it.
# usage: check_host_ir.sh NVCC CLANGXX PLUGIN FILECHECK SOURCE.cu INCLUDE_DIR OUT.ll CHECKS
set -euo pipefail
nvcc=$1 clangxx=$2 plugin=$3 filecheck=$4 source=$5 include=$6 out=$7 checks=$8
set -x
"$nvcc" -std=c++17 -arch=sm_90 -ccbin "$clangxx" -I"$include" -I"$include/.." \
  -Xcompiler -fpass-plugin="$plugin" -Xcompiler -emit-llvm -Xcompiler -S \
  -c "$source" -o "$out"
"$filecheck" --input-file="$out" "$checks"
"$filecheck" --input-file="$out" --check-prefix=REG "$checks"
