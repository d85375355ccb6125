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
import sys

from sass_listing import loops, parse


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
        for tgt, addr, body in loops(ins):
            issue = sum(max(stall(x.ctrl or 0), 1) for x in body)
            fma = sum(fma_cycles(x.op) for x in body)
            wide = sum(1 for x in body if x.op.startswith("IMAD.WIDE"))
            print(f"  loop 0x{tgt:x}..0x{addr:x}: {len(body)} instr, IMAD.WIDE {wide}, "
                  f"issue {issue} cycles, FMA pipe {fma} cycles, issue/FMA {issue / max(fma, 1):.3f}")


if __name__ == "__main__":
    main()
