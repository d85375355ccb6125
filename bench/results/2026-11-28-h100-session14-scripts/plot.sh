#!/usr/bin/env bash
# The session 14 powm plot (session 13's logs, then this session's runs C, D and E: the NTT
# Montgomery powm at 16-64 Kbit; GMP-16 at 16-64 Kbit from run E, read last: one host) (bench/plot_powm.py; needs matplotlib: BIGTUNE_SETUP_PLOTS=1 scripts/setup.sh).
set -eu
cd "$(dirname "$0")/.."
python3 ../plot_powm.py 2026-11-28-h100-session14-powm.png @2026-11-28-h100-session14-scripts/plot-inputs.txt
