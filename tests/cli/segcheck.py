#!/usr/bin/env python3
"""segcheck.py: files for the segmented-sort CLI tests (issue 22).

  segcheck.py gen N SEED KEYS VALUES OFFSETS   u32 keys with ties, u32 values
                                              0..N-1, random offsets inside
                                              [N/5, 4N/5) (empty segments too)
  segcheck.py check KEYS VALUES OFFSETS OUT VOUT [--descending]
      exit 0 when every segment of OUT is KEYS' segment stably sorted, the
      values moved along, and everything outside the segments unchanged.
"""
import random
import struct
import sys


def u32s(path):
    data = open(path, "rb").read()
    return list(struct.unpack("<%dI" % (len(data) // 4), data))


def gen(n, seed, keys, values, offsets):
    rnd = random.Random(seed)
    open(keys, "wb").write(struct.pack("<%dI" % n, *[rnd.randrange(50) for _ in range(n)]))
    open(values, "wb").write(struct.pack("<%dI" % n, *range(n)))
    o, p = [n // 5], n // 5
    while p < 4 * n // 5:
        p = min(p + rnd.choice([0, 1, 2, 7, 300, 1000]), 4 * n // 5)
        o.append(p)
    open(offsets, "wb").write(struct.pack("<%dQ" % len(o), *o))


def check(keys, values, offsets, out, vout, descending):
    k, v, ok, ov = u32s(keys), u32s(values), u32s(out), u32s(vout)
    data = open(offsets, "rb").read()
    o = struct.unpack("<%dQ" % (len(data) // 8), data)
    want_k, want_v = list(k), list(v)
    for b, e in zip(o, o[1:]):
        seg = sorted(range(b, e), key=lambda i: -k[i] if descending else k[i])  # stable
        want_k[b:e] = [k[i] for i in seg]
        want_v[b:e] = [v[i] for i in seg]
    if ok != want_k or ov != want_v:
        bad = next(i for i in range(len(k)) if ok[i] != want_k[i] or ov[i] != want_v[i])
        sys.exit("position %d: got key %d value %d, want %d %d" %
                 (bad, ok[bad], ov[bad], want_k[bad], want_v[bad]))


if sys.argv[1] == "gen":
    gen(int(sys.argv[2]), int(sys.argv[3]), *sys.argv[4:7])
else:
    check(*sys.argv[2:7], descending="--descending" in sys.argv[7:])
