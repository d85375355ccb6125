#!/usr/bin/env bash
# mulmod / product per size before and after session 30 (H200): main 3db6352
# ("base" of call 1), session 29's pending patches landed (09ec1d6, the set
# "all" of call 1), and the fused quotient + remainder kernel on top (the set
# "fused" of call 3, at 2-8 and 32 Kbit), each the mean of two alternated runs.
set -euo pipefail
cd "$(dirname "$0")/../../.."
r=bench/results/2026-12-02-h200-session30-logs
python3 bench/plot_mulmod.py bench/results/2026-12-02-h200-session30-mulmod.png \
  "3db6352 (before session 30)=$r/m/summary.txt:mm-base-1,mm-base-2" \
  "09ec1d6 (the q m' pass with its finish at 32 Kbit)=$r/m/summary.txt:mm-all-1,mm-all-2" \
  "fused quotient + remainder (1-4 Kbit)=$r/call3/m/summary.txt:mm-fused-1,mm-fused-2"
