#!/usr/bin/env bash
# Builds fake_launch.cpp with clang++ and the plugin at -O0 and -O2 (with the
# hook from runtime/launch_hook.cpp) and runs it. CPU only.
# usage: run_fake_launch.sh CLANGXX PLUGIN SOURCE HOOK_SOURCE INCLUDE_DIR
set -euo pipefail
clangxx=$1 plugin=$2 source=$3 hook=$4 include=$5
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for opt in -O0 -O2; do
  echo "== $opt"
  "$clangxx" -std=c++17 $opt -fpass-plugin="$plugin" -I"$include" -c "$source" -o "$tmp/test.o"
  "$clangxx" -std=c++17 -O2 -I"$include" -c "$hook" -o "$tmp/hook.o"
  "$clangxx" "$tmp/test.o" "$tmp/hook.o" -o "$tmp/fake_launch"
  "$tmp/fake_launch"
done
