#!/usr/bin/env bash
# The session 15 powm plot: session 14's inputs, then this session's run F (32 and 64 Kbit, GMP-16 of
# its host read last) (bench/plot_powm.py; needs matplotlib: BIGTUNE_SETUP_PLOTS=1 scripts/setup.sh).
set -eu
cd "$(dirname "$0")/.."
python3 ../plot_powm.py 2026-11-28-h100-session15-powm.png @2026-11-28-h100-session15-scripts/plot-inputs.txt
