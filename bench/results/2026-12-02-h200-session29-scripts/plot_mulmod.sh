#!/usr/bin/env bash
# mulmod / product per size before and after session 29 (H200), from call 1:
# main 361c1e5 ("base", device code a6c6f38's) and the set "quad" (session
# 28's exact quotient and wgmma parts with one store rule: 199dc54's kernels,
# which cap the parts at two, so at 40000 bits main runs the base line's
# mma.sync), each the mean of two alternated runs.
set -euo pipefail
cd "$(dirname "$0")/../../.."
r=bench/results
python3 bench/plot_mulmod.py $r/2026-12-02-h200-session29-mulmod.png \
  "361c1e5 (before session 29)=$r/2026-12-02-h200-session29-logs/call1-measure-summary.txt:mm-base-1,mm-base-2" \
  "199dc54 (session 29; 40000 bits: three parts, not kept)=$r/2026-12-02-h200-session29-logs/call1-measure-summary.txt:mm-quad-1,mm-quad-2"
