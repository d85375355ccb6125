#!/usr/bin/env python3
"""mulmod / product per size before and after session 27 (H200): session 26's
call 5 main (689b8f7, ../2026-11-29-h200-session26-logs) and session 27's
call 8 set "st" (827781d's kernels, ../2026-11-29-h200-session27-logs), each
the mean of two alternated runs. At 12345 bits the before bar had operands of
full size (half of them >= m, reduced first); session 27's table passes
residues. Writes ../2026-11-29-h200-session27-mulmod.png."""
import os
import re
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt

here = os.path.dirname(os.path.abspath(__file__))
results = os.path.join(here, "..")


def ratios(summary, sets):
    """bits -> mean of product rate / mulmod rate over the runs named in sets."""
    out, section = {}, None
    for line in open(os.path.join(results, summary)):
        if line.startswith("== "):
            section = line[3:].strip()
            continue
        m = re.match(r"\s+(\d+)\s+\d+\s+mulmod\S+\s+([\d.e+]+) \|\s+\S+\s+([\d.e+]+)", line)
        if m and section in sets:
            bits, mm, prod = int(m.group(1)), float(m.group(2)), float(m.group(3))
            out.setdefault(bits, []).append(prod / mm)
    return {b: sum(v) / len(v) for b, v in out.items()}


before = ratios("2026-11-29-h200-session26-logs/call5-measure-summary.txt", {"mm-base-1", "mm-base-2"})
after = ratios("2026-11-29-h200-session27-logs/call8-measure-summary.txt", {"mm-st-1", "mm-st-2"})
bits = sorted(after)
labels = [f"{b // 1024}K" if b % 1024 == 0 else str(b) for b in bits]
x = range(len(bits))
fig, ax = plt.subplots(figsize=(8, 4))
ax.bar([i - 0.2 for i in x], [before.get(b, 0) for b in bits], 0.4, label="689b8f7 (session 26; 12345: operands of full size)")
ax.bar([i + 0.2 for i in x], [after[b] for b in bits], 0.4, label="827781d (cp.async A, sector stores; residues)")
ax.axhline(1.5, color="k", linestyle="--", linewidth=1, label="target 1.5x")
for i, b in enumerate(bits):
    ax.text(i + 0.2, after[b] + 0.03, f"{after[b]:.2f}", ha="center", fontsize=8)
ax.set_xticks(list(x))
ax.set_xticklabels(labels)
ax.set_xlabel("bits")
ax.set_ylabel("mulmod time / full product time")
ax.set_title("tcbarrett mulmod, one modulus for the batch, H200 (session 27)")
ax.set_ylim(0, 3.0)
ax.legend(fontsize=8, loc="upper right", ncol=1)
fig.tight_layout()
fig.savefig(os.path.join(results, "2026-11-29-h200-session27-mulmod.png"), dpi=110)
