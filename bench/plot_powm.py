#!/usr/bin/env python3
"""Plots powm rates from bigtune-bench-mod logs: every variant's instances/s
per bit-size (the best of each family marked), against the CGBN figures of
TARGETS.md and, where a log has them, GMP on the host's cores (and 50x
that above 8 Kbit, issue 9's target there).
Usage: python3 bench/plot_powm.py OUT.png LOG|@LIST [LOG|@LIST ...]  (needs
matplotlib: BIGTUNE_SETUP_PLOTS=1 scripts/setup.sh installs it)
@LIST: a file naming one LOG or @LIST a line (blank lines and # comments
skipped), so a session's inputs can be the previous session's list plus its
own runs. Rows the logs repeat (one size in several runs) keep the last one
read."""
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

# TARGETS.md: the warp-level peer (CGBN) on the H100, full exponents.
CGBN = {1024: 2.09e6, 2048: 2.79e5, 4096: 3.68e4, 8192: 5.1e3}

ROW = re.compile(r"^\s*(\d+)\s+(powm\.\S+)\s+(\d+)\s+([\d.]+)\s+([\d.e+]+)\s*\|\s*([\d.e+]+)")


def family(variant):
    return variant.split(".")[1]


def expand(args):
    """The log paths of args, each @LIST replaced by its entries, in order."""
    for arg in args:
        if arg.startswith("@"):
            with open(arg[1:]) as f:
                entries = [ln.strip() for ln in f]
            yield from expand(e for e in entries if e and not e.startswith("#"))
        else:
            yield arg


def main():
    out, logs = sys.argv[1], list(expand(sys.argv[2:]))
    rate, gmp = {}, {}
    for path in logs:
        for line in open(path):
            m = ROW.match(line)
            if not m:
                continue
            bits, variant, r, g = int(m.group(1)), m.group(2), float(m.group(5)), float(m.group(6))
            rate[(variant, bits)] = r
            if g > 0:
                gmp[bits] = g
    fig, ax = plt.subplots(figsize=(8, 5))
    families = sorted({family(v) for v, _ in rate})
    for fam in families:
        points = {}
        for (v, bits), r in rate.items():
            if family(v) == fam and r > points.get(bits, 0):
                points[bits] = r
        xs = sorted(points)
        ax.plot(xs, [points[x] for x in xs], "o-", label=f"bigtune {fam} (best shape)")
    lo, hi = min(b for _, b in rate), max(b for _, b in rate)
    xs = [x for x in sorted(CGBN) if lo <= x <= hi]
    ax.plot(xs, [CGBN[x] for x in xs], "kx--", markersize=9, label="CGBN (TARGETS.md)")
    if gmp:
        xs = sorted(gmp)
        ax.plot(xs, [gmp[x] for x in xs], "s:", color="gray", label="GMP, 16 host cores")
        # Issue 9's target above 8 Kbit: 50x GMP on all host cores.
        xs = [x for x in xs if x > 8192]
        if xs:
            ax.plot(xs, [50 * gmp[x] for x in xs], "k^--", markersize=7, label="50x GMP-16 (issue 9, above 8 Kbit)")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("bits (modulus, operand and exponent)")
    ax.set_ylabel("powm / s")
    ax.set_title("powm, a modulus and full exponent per instance")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(out, dpi=110)


if __name__ == "__main__":
    main()
