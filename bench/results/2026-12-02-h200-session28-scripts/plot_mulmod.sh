#!/usr/bin/env bash
# mulmod / product per size before and after session 28 (H200), from call 3:
# main fc57d6d ("base") and the set "both" (a6c6f38's kernels: the quotient
# pass's edge tiles by whole sectors, W's rows skewed), each the mean of two
# alternated runs.
set -euo pipefail
cd "$(dirname "$0")/../../.."
r=bench/results
python3 bench/plot_mulmod.py $r/2026-12-02-h200-session28-mulmod.png \
  "fc57d6d (before session 28's stores and skew)=$r/2026-12-02-h200-session28-logs/call3-measure-summary.txt:mm-base-1,mm-base-2" \
  "a6c6f38 (session 28)=$r/2026-12-02-h200-session28-logs/call3-measure-summary.txt:mm-both-1,mm-both-2"
