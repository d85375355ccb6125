"""Reading a `cuobjdump -sass` listing (sm_70+), shared by scripts/sass_loop_count.py and
scripts/sass_stall_sum.py: the instructions of each function and its loops."""
import re
from collections import namedtuple

# addr: byte offset; op: opcode with modifiers; args: operands; pred: the guard ("" if none);
# ctrl: the control word (the second 64-bit word cuobjdump prints), None if missing.
Instr = namedtuple("Instr", "addr op args pred ctrl")


def parse(path):
    """{function name: [Instr, ...]} in listing order."""
    funcs, cur, pending = {}, None, None
    for line in open(path):
        m = re.search(r"Function : (\S+)", line)
        if m:
            cur = m.group(1)
            funcs[cur] = []
            pending = None
            continue
        m = re.search(r"/\*([0-9a-f]{4,})\*/\s+(@!?U?P\w+\s+)?([A-Z0-9_.]+)(.*?);\s*(?:/\* (0x[0-9a-f]+) \*/)?", line)
        if m and cur:
            pending = Instr(int(m.group(1), 16), m.group(3), m.group(4), m.group(2) or "", None)
            funcs[cur].append(pending)
            continue
        m = re.match(r"\s*/\* (0x[0-9a-f]{16}) \*/\s*$", line)
        if m and pending is not None and pending.ctrl is None:
            funcs[cur][-1] = pending = pending._replace(ctrl=int(m.group(1), 16))
    return funcs


def loops(ins):
    """(target, branch address, body) for every backward branch: the instructions from its
    target to the branch."""
    for x in ins:
        if x.op != "BRA":
            continue
        m = re.search(r"0x([0-9a-f]+)", x.args)
        if not m or int(m.group(1), 16) >= x.addr:
            continue
        tgt = int(m.group(1), 16)
        yield tgt, x.addr, [y for y in ins if tgt <= y.addr <= x.addr]
