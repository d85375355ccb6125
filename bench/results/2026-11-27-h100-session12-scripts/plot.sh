#!/usr/bin/env bash
# The session 12 powm plot (bench/plot_powm.py; needs matplotlib: BIGTUNE_SETUP_PLOTS=1 scripts/setup.sh).
set -eu
cd "$(dirname "$0")/.."
python3 ../plot_powm.py 2026-11-27-h100-session12-powm.png @2026-11-27-h100-session12-scripts/plot-inputs.txt
