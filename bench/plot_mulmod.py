#!/usr/bin/env python3
"""Plots mulmod (or sqrmod) time over the full product's, per bit-size, from
the mulmod tables of bigtune-bench-mod logs (the row after each size's
variants: bits, count, best variant, its rate | product plan, its rate |
ratio), against issue 9's target of 1.5x.
Usage: python3 bench/plot_mulmod.py OUT.png LABEL=LOG [LABEL=LOG ...]  (needs
matplotlib: BIGTUNE_SETUP_PLOTS=1 scripts/setup.sh installs it)
Each LABEL=LOG is one line of the plot; a LOG with several tables (mulmod and
sqrmod) gives one line per table, its kind added to the label.
LABEL=SUMMARY:SECTION[,SECTION...] takes the rows of the named sections of a
bench/pending/run-pending.sh summary ("== mm-base-1" ...), each size's ratio
the mean over them (runs of one build alternated with others)."""
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import matplotlib.ticker

ROW = re.compile(r"^\s*(\d+)\s+(\d+)\s+((?:mulmod|sqrmod)\.\S+)\s+([\d.e+]+)\s*\|\s*(\S+)\s+([\d.e+]+)\s*\|\s*([\d.]+)")
TABLE = re.compile(r"^mulmod \((shared|per-instance) odd modulus[,)]")  # (since session 27: ", operands ...")


def tables(path, sections=None):
    """{(op, moduli): {bits: (ratio, variant)}} of one log; with sections, of
    the rows under those "== NAME" headings, the ratios averaged."""
    runs = {}
    moduli, section = "shared", None
    with open(path) as f:
        for line in f:
            if line.startswith("== "):
                section = line[3:].strip()
                continue
            t = TABLE.match(line)
            if t:
                moduli = t.group(1)
                continue
            m = ROW.match(line)
            if m and (sections is None or section in sections):
                op = m.group(3).split(".")[0]
                runs.setdefault((op, moduli), {}).setdefault(int(m.group(1)), []).append(
                    (float(m.group(7)), m.group(3)))
    return {key: {bits: (sum(r for r, _ in v) / len(v), v[-1][1]) for bits, v in rows.items()}
            for key, rows in runs.items()}


def main(argv):
    if len(argv) < 3 or any("=" not in a for a in argv[2:]):
        print(__doc__, file=sys.stderr)
        return 2
    fig, ax = plt.subplots(figsize=(8, 4.8))
    for arg in argv[2:]:
        label, spec = arg.split("=", 1)
        path, _, names = spec.partition(":")
        found = tables(path, set(names.split(",")) if names else None)
        for (op, moduli), rows in sorted(found.items()):
            bits = sorted(rows)
            name = label if len(found) == 1 else f"{label} ({op}, {moduli})"
            ax.plot(bits, [rows[b][0] for b in bits], marker="o", label=name)
    ax.axhline(1.5, color="grey", linestyle="--", label="issue 9 target (1.5x)")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log", base=2)
    # (ticks of their own: within 1.3-1.9x a base-2 axis has none)
    ax.yaxis.set_major_locator(matplotlib.ticker.FixedLocator([1, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6, 1.8, 2, 2.5, 3, 4, 5]))
    ax.yaxis.set_minor_locator(matplotlib.ticker.NullLocator())
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
