#!/usr/bin/env bash
# The session 15 powm plot: session 14's inputs, then this session's run F (32 and 64 Kbit, GMP-16 of
# its host read last) (bench/plot_powm.py; needs matplotlib: BIGTUNE_SETUP_PLOTS=1 scripts/setup.sh).
set -eu
cd "$(dirname "$0")/.."
python3 ../plot_powm.py 2026-11-28-h100-session15-powm.png \
    2026-11-27-h200-session11-runB-bench2560.log \
  2026-11-27-h200-session11-runB-bench3072.log \
  2026-11-27-h200-session11-runB-bench4096.log \
  2026-11-27-h200-session11-runB-bench6144.log \
  2026-11-27-h200-session11-runB-bench8192.log \
  2026-11-27-h200-session11-runC-bench2560.log \
  2026-11-27-h200-session11-runC-bench3072.log \
  2026-11-27-h200-session11-runC-bench6144.log \
  2026-11-27-h200-session11-runD-bench.log \
  2026-11-27-h100-session11-runF-p4k.log \
  2026-11-27-h100-session11-runF-p8k.log \
  2026-11-27-h100-session11-runF-p12k.log \
  2026-11-27-h100-session11-runF-p16k.log \
  2026-11-27-h100-session12-runG-new2560.log \
  2026-11-27-h100-session12-runG-new3072.log \
  2026-11-27-h100-session12-runG-new10240.log \
  2026-11-27-h100-session12-runB-p12k.log \
  2026-11-27-h100-session12-runB-p16k.log \
  2026-11-27-h100-session12-runB-p32k.log \
  2026-11-27-h100-session12-runB-p64k.log \
  2026-11-27-h100-session12-runJ-new4k.log \
  2026-11-27-h100-session12-runJ-new8k.log \
  2026-11-27-h100-session12-runJ-new16k.log \
  2026-11-28-h100-session13-logs/runC-new4k.log \
  2026-11-28-h100-session13-logs/runC-new8k.log \
  2026-11-28-h100-session13-logs/runE-p10k.log \
  2026-11-28-h100-session13-logs/runE-p16k.log \
  2026-11-28-h100-session14-logs/runC-p32k.log \
  2026-11-28-h100-session14-logs/runC-p64k.log \
  2026-11-28-h100-session14-logs/runD-p16k32k.log \
  2026-11-28-h100-session14-logs/runD-p64k.log \
  2026-11-28-h100-session14-logs/runE-p16k.log \
  2026-11-28-h100-session14-logs/runE-p32k.log \
  2026-11-28-h100-session14-logs/runE-p64k.log \
  2026-11-28-h100-session15-logs/runF-n32.log \
  2026-11-28-h100-session15-logs/runF-n64.log
