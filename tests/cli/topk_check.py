#!/usr/bin/env python3
"""topk_check.py TYPE INPUT K OUTPUT [--indices F | --values VIN VOUT]
[--descending] [--bits LO:HI] [--segments OFFSETS] [--make N SEED] -- the
outputs of `zesort topk` against an oracle: the stable sort of (ordered key
bits, input position), its first K (of each segment, one after the other).
With --make N SEED it writes INPUT instead (u32/f32 keys with ties, NaNs and
+-0 for f32) and exits. Exit 0 when right, 1 with a message otherwise."""
import random
import struct
import sys

FMT = {"u32": ("I", 4), "i32": ("i", 4), "f32": ("I", 4), "u64": ("Q", 8), "i64": ("q", 8),
       "f64": ("Q", 8)}


def ordered(raw, t, desc):
    bits = FMT[t][1] * 8
    allm = (1 << bits) - 1
    sign = 1 << (bits - 1)
    k = raw & allm
    if t[0] == "i":
        k ^= sign
    elif t[0] == "f":
        k = (~k & allm) if k & sign else k | sign
    return (~k & allm) if desc else k


def main(a):
    t, inp, k, out = a[0], a[1], int(a[2]), a[3]
    opt = a[4:]
    if "--make" in opt:
        n, seed = int(opt[opt.index("--make") + 1]), int(opt[opt.index("--make") + 2])
        r = random.Random(seed)
        pool = [r.getrandbits(32) for _ in range(max(1, n // 8))]
        if t == "f32":
            pool += [0x7FC00000, 0xFFC00001, 0x80000000, 0, 0x7F800000, 0xFF800000]
        keys = [r.choice(pool) for _ in range(n)]
        open(inp, "wb").write(struct.pack("<%dI" % n, *keys))
        return 0
    code, size = FMT[t]
    data = open(inp, "rb").read()
    n = len(data) // size
    keys = struct.unpack("<%d%s" % (n, code.upper() if code in "iq" else code), data)
    desc = "--descending" in opt
    lo, hi = 0, size * 8
    if "--bits" in opt:
        lo, hi = map(int, opt[opt.index("--bits") + 1].split(":"))
    segs = [(0, n)]
    if "--segments" in opt:
        o = open(opt[opt.index("--segments") + 1], "rb").read()
        offs = struct.unpack("<%dQ" % (len(o) // 8), o)
        segs = list(zip(offs[:-1], offs[1:]))
    want_k, want_i = [], []
    for b, e in segs:
        perm = sorted(range(b, e), key=lambda i: ((ordered(keys[i], t, desc) >> lo) &
                                                   ((1 << (hi - lo)) - 1), i))[:k]
        want_k += [keys[i] for i in perm]
        want_i += [i - b for i in perm]
    got = open(out, "rb").read()
    if got != struct.pack("<%d%s" % (len(want_k), code.upper() if code in "iq" else code),
                          *want_k):
        print("keys differ: %d bytes, want %d" % (len(got), len(want_k) * size))
        return 1
    if "--indices" in opt:
        gi = open(opt[opt.index("--indices") + 1], "rb").read()
        if gi != struct.pack("<%dI" % len(want_i), *want_i):
            print("indices differ")
            return 1
    if "--values" in opt:
        vin = open(opt[opt.index("--values") + 1], "rb").read()
        vals = struct.unpack("<%dI" % (len(vin) // 4), vin)
        gv = open(opt[opt.index("--values") + 2], "rb").read()
        seg_of = [b for b, e in segs for _ in range(min(k, e - b))]
        if gv != struct.pack("<%dI" % len(want_i), *[vals[s + i] for s, i in zip(seg_of, want_i)]):
            print("values differ")
            return 1
    return 0


sys.exit(main(sys.argv[1:]))
