#!/usr/bin/env python3
"""keyfile.py -- test helper for test_cli.sh: makes raw key/value files and
checks `zesort sort` results against Python's (stable) sort.

  keyfile.py gen TYPE N SEED PATH [--dups]     random keys (floats include
                                              +-0, +-inf and NaNs of both signs)
  keyfile.py iota N PATH [u32|u64]            values 0..N-1
  keyfile.py check TYPE IN OUT [--descending] [--bits LO:HI] [--values VIN VOUT]
                 [--value-type u32|u64]       exit 0 when OUT (and VOUT) is what a
                                              stable sort of IN must give
  keyfile.py argsort TYPE IN INDICES [--index-type u32|u64] [--keys-out KOUT]
                 [--descending] [--bits LO:HI]
                                              exit 0 when INDICES (and KOUT) is the
                                              stable permutation of IN (sorted IN)
"""
import random
import struct
import sys

FMT = {"u32": "I", "i32": "I", "f32": "I", "u64": "Q", "i64": "Q", "f64": "Q",
       "u8": "B", "i8": "B", "u16": "H", "i16": "H", "f16": "H", "bf16": "H"}
SIGNED = ("i32", "i64", "i8", "i16")
FLOATS = ("f32", "f64", "f16", "bf16")


def width(t):
    return struct.calcsize("<" + FMT[t])


def order(t, v):
    """The unsigned value whose order is the sort order (docs/design.md 1.3)."""
    bits = width(t) * 8
    sign = 1 << (bits - 1)
    allbits = (1 << bits) - 1
    if t in SIGNED:
        return v ^ sign
    if t in FLOATS:
        return (~v & allbits) if v & sign else (v | sign)
    return v


def read(t, path):
    data = open(path, "rb").read()
    w = width(t)
    if len(data) % w:
        sys.exit(f"{path}: size {len(data)} not a multiple of {w}")
    return list(struct.unpack(f"<{len(data) // w}{FMT[t]}", data))


def write(t, path, keys):
    open(path, "wb").write(struct.pack(f"<{len(keys)}{FMT[t]}", *keys))


def gen(t, n, seed, path, dups):
    rnd = random.Random(seed)
    bits = width(t) * 8
    keys = [rnd.getrandbits(bits) for _ in range(n)]
    if dups:  # few distinct keys: stability matters
        keys = [rnd.getrandbits(3) * 0x01010101 % (1 << bits) for _ in range(n)]
    if t in FLOATS and n >= 16:
        if t == "f16":
            special = [0x0000, 0x8000, 0x7C00, 0xFC00, 0x7E00, 0xFE00, 0x7C01, 0x3C00, 0xBC00]
        elif t == "bf16":
            special = [0x0000, 0x8000, 0x7F80, 0xFF80, 0x7FC0, 0xFFC0, 0x7F81, 0x3F80, 0xBF80]
        elif t == "f32":
            special = [0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000,
                       0xFFC00000, 0x7F800001, 0x3F800000, 0xBF800000]
        else:
            special = [0, 1 << 63, 0x7FF0 << 48, 0xFFF0 << 48, 0x7FF8 << 48,
                       0xFFF8 << 48, (0x7FF0 << 48) | 1, 0x3FF0 << 48, 0xBFF0 << 48]
        for i, s in enumerate(special):
            keys[rnd.randrange(n)] = s
    write(t, path, keys)


def permutation(t, keys, descending, bits):
    """The stable sorting permutation."""
    lo, hi = bits if bits else (0, width(t) * 8)
    mask = (1 << (hi - lo)) - 1

    def sort_key(i):
        return (order(t, keys[i]) >> lo) & mask

    idx = list(range(len(keys)))
    # Stable descending: sort by the negated key, keeping input order for ties.
    idx.sort(key=(lambda i: -sort_key(i)) if descending else sort_key)
    return idx


def check(t, inp, out, descending, bits, values, vtype="u32"):
    keys = read(t, inp)
    got = read(t, out)
    idx = permutation(t, keys, descending, bits)
    want = [keys[i] for i in idx]
    if got != want:
        bad = next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
        sys.exit(f"keys differ at index {bad} (got {len(got)} keys, want {len(want)})")
    if values:
        vin = read(vtype, values[0])
        vout = read(vtype, values[1])
        if vout != [vin[i] for i in idx]:
            sys.exit("values differ from a stable sort")


def check_argsort(t, inp, indices, itype, keys_out, descending, bits):
    keys = read(t, inp)
    idx = permutation(t, keys, descending, bits)
    if read(itype, indices) != idx:
        sys.exit("indices differ from the stable permutation")
    if keys_out and read(t, keys_out) != [keys[i] for i in idx]:
        sys.exit("keys_out differs from the sorted keys")


def option(rest, name, default=None):
    return rest[rest.index(name) + 1] if name in rest else default


def bits_of(rest):
    if "--bits" not in rest:
        return None
    lo, hi = option(rest, "--bits").split(":")
    return (int(lo), int(hi))


def main(argv):
    if argv[1] == "gen":
        gen(argv[2], int(argv[3]), int(argv[4]), argv[5], "--dups" in argv)
    elif argv[1] == "iota":  # iota N PATH [u32|u64]: values 0..N-1
        write(argv[4] if len(argv) > 4 else "u32", argv[3], list(range(int(argv[2]))))
    elif argv[1] == "check":
        t, inp, out = argv[2], argv[3], argv[4]
        rest = argv[5:]
        values = None
        if "--values" in rest:
            i = rest.index("--values")
            values = (rest[i + 1], rest[i + 2])
        check(t, inp, out, "--descending" in rest, bits_of(rest), values,
              option(rest, "--value-type", "u32"))
    elif argv[1] == "argsort":
        rest = argv[5:]
        check_argsort(argv[2], argv[3], argv[4], option(rest, "--index-type", "u32"),
                      option(rest, "--keys-out"), "--descending" in rest, bits_of(rest))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
