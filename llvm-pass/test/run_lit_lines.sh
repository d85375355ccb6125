#!/usr/bin/env bash
# Runs the "; RUN:" lines of one .ll test as lit would, with lit's usual
# substitutions, each line under `set -o pipefail`:
#   %s         the test file
#   %t         a path in a fresh temporary folder (removed afterwards)
#   %opt       opt with the plugin loaded (opt -load-pass-plugin=<plugin>)
#   %clangxx   clang++ of the same LLVM;  %plugin  the plugin's path
#   FileCheck  and  not   the LLVM tools found by CMake
# A line ending in '\' continues on the next RUN line.
# usage: run_lit_lines.sh TEST.ll PLUGIN.so OPT FILECHECK NOT [CLANGXX]
set -euo pipefail
test_file=$1 plugin=$2 opt=$3 filecheck=$4 not_tool=$5 clangxx=${6:-clang++}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mapfile -t lines < <(sed -n 's/^[;#/ ]*RUN:[[:space:]]*//p' "$test_file")
[ "${#lines[@]}" -gt 0 ] || { echo "no RUN lines in $test_file" >&2; exit 1; }
commands=() pending=""
for line in "${lines[@]}"; do
  if [[ $line == *\\ ]]; then pending+="${line%\\} "; continue; fi
  commands+=("$pending$line"); pending=""
done
status=0
for cmd in "${commands[@]}"; do
  cmd=${cmd//%opt/$opt -load-pass-plugin=$plugin}
  cmd=${cmd//%clangxx/$clangxx}
  cmd=${cmd//%plugin/$plugin}
  cmd=${cmd//%s/$test_file}
  cmd=${cmd//%t/$tmp/t}
  cmd=$(sed -E "s#(^|[|;&( ])FileCheck( |$)#\\1$filecheck\\2#g; s#(^|[|;&( ])not( |$)#\\1$not_tool\\2#g" <<<"$cmd")
  echo "RUN: $cmd"
  if ! bash -o pipefail -c "$cmd"; then
    echo "FAILED: $cmd" >&2
    status=1
  fi
done
exit $status
