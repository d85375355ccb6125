#!/usr/bin/env python3
"""Turns a bigtune-bench CSV into an import file of measured decisions: for
each (op, bits, count) timed, the fastest plan becomes the decision for the
standard buckets holding that size (db/buckets.hpp: bits in quarter octaves,
count in octaves; db/text_format.hpp, format v2). Import it into a database and export it as a profile:

  python3 bench/make_profile.py RUN.csv UUID > /tmp/decisions.tsv
  bigtune --db /tmp/p.db db import /tmp/decisions.tsv
  bigtune --db /tmp/p.db db export --profile "NVIDIA H100 80GB HBM3" -o profiles/...tsv

Only measured numbers go in (measured_us is the median kernel time).
"""
import csv
import sys
import time


def bits_bucket(bits):
    """db::bits_bucket: quarter octaves closed at the top, as [lo, hi)."""
    if bits <= 8:
        return bits, bits + 1
    below = bits - 1
    e = below.bit_length() - 1
    step = 1 << (e - 2)
    lo = below - below % step + 1
    return lo, lo + step


def count_bucket(count):
    k = count.bit_length() - 1
    return 1 << k, 1 << (k + 1)


def main():
    path, uuid = sys.argv[1], sys.argv[2]
    best = {}
    name = None
    with open(path) as f:
        for row in csv.DictReader(f):
            name = row["device"]
            key = (row["op"], int(row["bits"]), int(row["count"]))
            ms = float(row["median_ms"])
            if key not in best or ms < best[key][0]:
                best[key] = (ms, row["variant"], int(row["ipb"]))
    now = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    print("bigtune-tuning\t2")
    print(f"# decisions from {path}: fastest measured plan per (op, bits, count)")
    print("\t".join(["device", uuid, name, "9", "0", "132", "1024", "232448", "65536", "85520809984", now, ""]))
    for (op, bits, count), (ms, variant, ipb) in sorted(best.items()):
        blo, bhi = bits_bucket(bits)
        clo, chi = count_bucket(count)
        print("\t".join(["decision", uuid, op, str(blo), str(bhi), str(clo), str(chi), variant, str(ipb),
                         "\\N", repr(ms * 1000.0), "decision", now]))


if __name__ == "__main__":
    main()
