#!/usr/bin/env python3
"""Plots mulmod (or sqrmod) time over the full product's, per bit-size, from
the mulmod tables of bigtune-bench-mod logs (the row after each size's
variants: bits, count, best variant, its rate | product plan, its rate |
ratio), against issue 9's target of 1.5x.
Usage: python3 bench/plot_mulmod.py OUT.png LABEL=LOG [LABEL=LOG ...]  (needs
matplotlib: BIGTUNE_SETUP_PLOTS=1 scripts/setup.sh installs it)
Each LABEL=LOG is one line of the plot; a LOG with several tables (mulmod and
sqrmod) gives one line per table, its kind added to the label."""
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import matplotlib.ticker

ROW = re.compile(r"^\s*(\d+)\s+(\d+)\s+((?:mulmod|sqrmod)\.\S+)\s+([\d.e+]+)\s*\|\s*(\S+)\s+([\d.e+]+)\s*\|\s*([\d.]+)")
TABLE = re.compile(r"^mulmod \((shared|per-instance) odd modulus\)")


def tables(path):
    """{(op, moduli): {bits: (ratio, variant)}} of one log."""
    out = {}
    moduli = "shared"
    with open(path) as f:
        for line in f:
            t = TABLE.match(line)
            if t:
                moduli = t.group(1)
                continue
            m = ROW.match(line)
            if m:
                op = m.group(3).split(".")[0]
                out.setdefault((op, moduli), {})[int(m.group(1))] = (float(m.group(7)), m.group(3))
    return out


def main(argv):
    if len(argv) < 3 or any("=" not in a for a in argv[2:]):
        print(__doc__, file=sys.stderr)
        return 2
    fig, ax = plt.subplots(figsize=(8, 4.8))
    for arg in argv[2:]:
        label, path = arg.split("=", 1)
        found = tables(path)
        for (op, moduli), rows in sorted(found.items()):
            bits = sorted(rows)
            name = label if len(found) == 1 else f"{label} ({op}, {moduli})"
            ax.plot(bits, [rows[b][0] for b in bits], marker="o", label=name)
    ax.axhline(1.5, color="grey", linestyle="--", label="issue 9 target (1.5x)")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log", base=2)
    ax.yaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda y, _: f"{y:g}x"))
    ax.set_xlabel("bits")
    ax.set_ylabel("time / full product's time")
    ax.set_title("mulmod against the full product (default plans)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(argv[1], dpi=110)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
