#!/usr/bin/env bash
# Installs what bigtune needs to build on a Debian 12 machine with the CUDA
# toolkit in /usr/local/cuda. Idempotent: installs only what is missing.
set -euo pipefail
packages=(cmake ninja-build pkg-config g++ libgmp-dev libsqlite3-dev sqlite3
          liblapack-dev libgtest-dev libbenchmark-dev libcli11-dev libfmt-dev
          llvm-14-dev clang-14 llvm-14-tools ccache
          chromium)  # headless browser: the tuner report test renders the HTML
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -q "${missing[@]}"
fi
if ! command -v nvcc >/dev/null && [ -x /usr/local/cuda/bin/nvcc ]; then
  echo "setup: nvcc is in /usr/local/cuda/bin; add it to PATH"
fi
[ -x /usr/local/cuda/bin/nvcc ] || command -v nvcc >/dev/null || {
  echo "setup: the CUDA toolkit (nvcc, CUPTI) is required: install CUDA 12.4+ in /usr/local/cuda" >&2; exit 1; }
# The plots of bench/ (bench/plot_results.py, bench/plot_powm.py) need
# matplotlib; only on request, so that CI's setup stays short:
#   BIGTUNE_SETUP_PLOTS=1 scripts/setup.sh
if [[ ${BIGTUNE_SETUP_PLOTS:-0} == 1 ]] && ! python3 -c "import matplotlib" 2>/dev/null; then
  echo "setup: installing matplotlib for python3 ($(command -v python3))"
  python3 -m pip install -q matplotlib
fi
