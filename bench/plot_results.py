#!/usr/bin/env python3
"""Plots a bigtune-bench CSV: add/sub bandwidth against the device copy
bandwidth, and multiplication throughput against the peers of TARGETS.md.
Usage: python3 bench/plot_results.py RUN.csv OUT.png  (needs matplotlib:
BIGTUNE_SETUP_PLOTS=1 scripts/setup.sh installs it)"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

# TARGETS.md, H100, best peer per size (instances/s).
PEER = {
    "mul_low": {2**10: 5.88e9, 2**11: 1.52e9, 2**12: 4.53e8, 2**13: 1.15e8, 2**14: 2.84e7, 2**15: 7.68e6,
                2**16: 2.04e6, 2**17: 5.28e5, 2**18: 1.26e5},
    "mul": {2**10: 4.55e9, 2**11: 1.37e9, 2**12: 3.74e8, 2**13: 1.05e8, 2**14: 2.69e7, 2**15: 6.36e6,
            2**16: 1.55e6, 2**17: 1.37e5, 2**18: 3.7e3},
}


def main():
    rows = list(csv.DictReader(open(sys.argv[1])))
    copy = float(rows[0]["copy_gbs"])
    best = {}
    for r in rows:
        k = (r["op"], int(r["bits"]))
        if k not in best or float(r["inst_per_s"]) > float(best[k]["inst_per_s"]):
            best[k] = r
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(12, 4.5))
    for op, style in (("add", "o-"), ("sub", "s--")):
        xs = sorted(b for (o, b) in best if o == op)
        ax1.plot(xs, [float(best[(op, b)]["gbs"]) for b in xs], style, label=f"bigtune {op}")
    ax1.axhline(copy, color="gray", ls=":", label=f"device copy {copy:.0f} GB/s")
    ax1.axhline(0.97 * copy, color="red", ls=":", lw=0.8, label="97 % of copy (target)")
    ax1.set_xscale("log", base=2)
    ax1.set_ylim(0, copy * 1.15)
    ax1.set_xlabel("bits per instance (bits x count = 2^32)")
    ax1.set_ylabel("GB/s (3 bits/8 bytes per instance)")
    ax1.set_title("add / sub")
    ax1.legend(fontsize=8)
    for op, color in (("mul_low", "C0"), ("mul", "C1")):
        xs = sorted(b for (o, b) in best if o == op)
        ax2.plot(xs, [float(best[(op, b)]["inst_per_s"]) for b in xs], "o-", color=color, label=f"bigtune {op}")
        px = sorted(PEER[op])
        ax2.plot(px, [PEER[op][b] for b in px], "x:", color=color, label=f"best peer {op} (TARGETS.md)")
        ax2.plot(xs, [float(best[(op, b)]["gmp_inst_per_s"]) for b in xs], "+--", color=color, alpha=0.5,
                 label=f"GMP 16 cores {op}")
    ax2.set_xscale("log", base=2)
    ax2.set_yscale("log")
    ax2.set_xlabel("bits per instance")
    ax2.set_ylabel("instances / s")
    ax2.set_title("multiplication (default plans)")
    ax2.legend(fontsize=7)
    fig.suptitle(f"bigtune on {rows[0]['device']}")
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=110)


if __name__ == "__main__":
    main()
