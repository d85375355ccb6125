#!/usr/bin/env bash
# mulmod / product per size before and after session 31 (H200), each the mean
# of two alternated runs: at 2-4 Kbit call 1's main 0bba990 ("base") and the
# fused kernel at three blocks an SM ("sq", landed as a78230b); at 20000-40000
# bits call 3's main a78230b (the same code there as 0bba990) and call 5's
# split points on top of the exact mark ("split", landed as e088d0f).
set -euo pipefail
cd "$(dirname "$0")/../../.."
r=bench/results/2026-12-02-h200-session31-logs
both=$(mktemp)
sed 's/^== mm-sq-/== mm-after-/' $r/call1/m/summary.txt >"$both"
sed 's/^== mm-split-/== mm-after-/' $r/call5/m/summary.txt >>"$both"
before=$(mktemp)
cat $r/call1/m/summary.txt $r/call3/m/summary.txt >"$before"
python3 bench/plot_mulmod.py bench/results/2026-12-02-h200-session31-mulmod.png \
  "before session 31 (0bba990)=$before:mm-base-1,mm-base-2" \
  "after (e088d0f)=$both:mm-after-1,mm-after-2"
rm -f "$both" "$before"
