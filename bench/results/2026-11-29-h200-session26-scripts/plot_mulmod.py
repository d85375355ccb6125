#!/usr/bin/env python3
"""mulmod / product per size before and after session 26 (H200), from the
calls' summaries in ../2026-11-29-h200-session26-logs: call 1's main (72b2772)
and call 5's main (689b8f7, the set "base"), each the mean of two alternated
runs. Writes ../2026-11-29-h200-session26-mulmod.png."""
import os
import re
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt

here = os.path.dirname(os.path.abspath(__file__))
logs = os.path.join(here, "..", "2026-11-29-h200-session26-logs")


def ratios(summary, sets):
    """bits -> mean of mulmod time / product time over the runs named in sets."""
    out, section = {}, None
    for line in open(os.path.join(logs, summary)):
        if line.startswith("== "):
            section = line[3:].strip()
            continue
        m = re.match(r"\s+(\d+)\s+\d+\s+mulmod\S+\s+([\d.e+]+) \|\s+\S+\s+([\d.e+]+)", line)
        if m and section in sets:
            bits, mm, prod = int(m.group(1)), float(m.group(2)), float(m.group(3))
            out.setdefault(bits, []).append(prod / mm)
    return {b: sum(v) / len(v) for b, v in out.items()}


before = ratios("call1-summary.txt", {"mm-base-1", "mm-base-2"})
after = ratios("call5-measure-summary.txt", {"mm-base-1", "mm-base-2"})
bits = sorted(after)
labels = [f"{b // 1024}K" if b % 1024 == 0 else str(b) for b in bits]
x = range(len(bits))
fig, ax = plt.subplots(figsize=(8, 4))
ax.bar([i - 0.2 for i in x], [before.get(b, 0) for b in bits], 0.4, label="72b2772 (before; 64K not timed)")
ax.bar([i + 0.2 for i in x], [after[b] for b in bits], 0.4, label="689b8f7 (kept modulus, glue exit, guard words)")
ax.axhline(1.5, color="k", linestyle="--", linewidth=1, label="target 1.5x")
for i, b in enumerate(bits):
    ax.text(i + 0.2, after[b] + 0.03, f"{after[b]:.2f}", ha="center", fontsize=8)
ax.set_xticks(list(x))
ax.set_xticklabels(labels)
ax.set_xlabel("bits")
ax.set_ylabel("mulmod time / full product time")
ax.set_title("tcbarrett mulmod, one modulus for the batch, H200 (session 26)")
ax.set_ylim(0, 3.4)
ax.legend(fontsize=8, loc="upper right", ncol=1)
fig.tight_layout()
fig.savefig(os.path.join(here, "..", "2026-11-29-h200-session26-mulmod.png"), dpi=110)
