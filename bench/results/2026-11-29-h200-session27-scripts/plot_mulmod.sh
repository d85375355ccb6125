#!/usr/bin/env bash
# mulmod / product per size before and after session 27 (H200): session 26's
# call 5 main (689b8f7; at 12345 bits its operands were of full size, half of
# them >= m and reduced first) and session 27's call 8 set "st" (827781d's
# kernels, residues), each the mean of two alternated runs.
set -euo pipefail
cd "$(dirname "$0")/../../.."
r=bench/results
python3 bench/plot_mulmod.py $r/2026-11-29-h200-session27-mulmod.png \
  "689b8f7 (session 26; at 12345 bits half the operands reduced first)=$r/2026-11-29-h200-session26-logs/call5-measure-summary.txt:mm-base-1,mm-base-2" \
  "827781d (session 27; operands below m)=$r/2026-11-29-h200-session27-logs/call8-measure-summary.txt:mm-st-1,mm-st-2"
