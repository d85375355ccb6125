#!/usr/bin/env python3
"""Lone-warp issue time of each loop of a `cuobjdump -sass` listing (sm_70+), against its
FMA-heavy pipe cycles (task powmpipe, issue 9).

Each SASS instruction's control word (the second 64-bit word cuobjdump prints) holds ptxas's
fixed stall count (bits 41-44 of that word: cycles before the warp may issue its next
instruction) and the yield bit. A warp alone on its scheduler, never waiting on a variable-latency
scoreboard (shuffles, loads), issues a loop in sum(max(stall, 1)) cycles: its issue time. The
FMA-heavy pipe is held 4 cycles by an IMAD.WIDE and 2 by any other IMAD (ncu, task powmicache:
bench/notes/powmregs-bound.md). issue / FMA = 1.00 means one warp alone keeps the pipe busy; the
excess is time the pipe idles unless another warp of the scheduler fills it.
Caveat (measured, task powmpipe: bench/results/2026-11-23-h100-powmpipe.md): with two or more warps a
scheduler the other warp fills most of that excess; builds that cut this figure 6-10 % at +5-14 %
instructions ran 1-6 % slower. Compare instruction counts (scripts/sass_loop_count.py) first.
Usage: scripts/sass_stall_sum.py x.sass [name-filter]
"""
import re
import sys


def parse(path):
    funcs, cur, pending = {}, None, None
    for line in open(path):
        m = re.search(r"Function : (\S+)", line)
        if m:
            cur = m.group(1)
            funcs[cur] = []
            continue
        m = re.search(r"/\*([0-9a-f]{4,})\*/\s+(@!?U?P\w+\s+)?([A-Z0-9_.]+)(.*?);\s*/\* (0x[0-9a-f]+) \*/", line)
        if m and cur:
            pending = [int(m.group(1), 16), m.group(3), m.group(4), None]
            funcs[cur].append(pending)
            continue
        m = re.match(r"\s*/\* (0x[0-9a-f]{16}) \*/\s*$", line)
        if m and pending is not None and pending[3] is None:
            pending[3] = int(m.group(1), 16)
    return funcs


def stall(ctrl):
    return (ctrl >> 41) & 0xF


def fma_cycles(op):
    if op.startswith("IMAD.WIDE"):
        return 4
    return 2 if op.startswith("IMAD") else 0


def main():
    funcs = parse(sys.argv[1])
    flt = sys.argv[2] if len(sys.argv) > 2 else ""
    for name, ins in funcs.items():
        if flt not in name:
            continue
        print(name)
        for addr, op, args, _ in ins:
            if op != "BRA":
                continue
            m = re.search(r"0x([0-9a-f]+)", args)
            if not m or int(m.group(1), 16) >= addr:
                continue
            tgt = int(m.group(1), 16)
            body = [x for x in ins if tgt <= x[0] <= addr]
            issue = sum(max(stall(x[3] or 0), 1) for x in body)
            fma = sum(fma_cycles(x[1]) for x in body)
            wide = sum(1 for x in body if x[1].startswith("IMAD.WIDE"))
            print(f"  loop 0x{tgt:x}..0x{addr:x}: {len(body)} instr, IMAD.WIDE {wide}, "
                  f"issue {issue} cycles, FMA pipe {fma} cycles, issue/FMA {issue / max(fma, 1):.3f}")


if __name__ == "__main__":
    main()
