#!/usr/bin/env python3
"""Counts the SASS instructions of the loops of each kernel in a
`cuobjdump -sass` listing: for every backward branch, the instructions from
its target to the branch, by opcode, and how many of them sit in forward
branches taken by part of the warp (e.g. a sink run by one lane; such code
still costs every lane its issue slots). Used for the warp products' step
counts in bench/notes/warp-multiplication.md.
Usage: cuobjdump -sass x.cubin > x.sass; scripts/sass_loop_count.py x.sass [name-filter]
"""
import collections
import sys

from sass_listing import loops, parse


def main():
    funcs = parse(sys.argv[1])
    flt = sys.argv[2] if len(sys.argv) > 2 else ""
    for name, ins in funcs.items():
        if flt not in name:
            continue
        print(name)
        for tgt, addr, body in loops(ins):
            cnt = collections.Counter(x.op for x in body)
            imad_wide = sum(v for k, v in cnt.items() if k.startswith("IMAD.WIDE"))
            imad_other = sum(v for k, v in cnt.items() if k.startswith("IMAD") and not k.startswith("IMAD.WIDE"))
            print(f"  loop 0x{tgt:x}..0x{addr:x}: {len(body)} instructions, IMAD.WIDE* {imad_wide}, "
                  f"other IMAD* {imad_other}, SHFL {cnt['SHFL.IDX']}")
            print("   ", ", ".join(f"{k} {v}" for k, v in cnt.most_common(14)))


if __name__ == "__main__":
    main()
