#!/usr/bin/env python3
"""Traffic model: bytes of device memory moved per key by each zesort algorithm.

A model, not a measurement: it counts the loads and stores the kernels issue
(kernels/*.cl), assuming every access goes to memory once (no cache reuse),
and turns them into an upper bound on keys/s at a given memory bandwidth.

  cm2/cm4 (per pass of BITS bits, BINS = 2^BITS, tables of BINS/256 entries
  per key): count reads the keys; the device scan reads the table twice
  (reduce, apply) and writes it once; bucket reads the table, the keys (and
  values) and writes keys (and values).
  onesweep: one histogram read of the keys; per 8-bit pass: status fill
  (2 x 256 words per tile), publish (2 x 256 words per tile), look-back
  (~1 predecessor tile's 256 words), keys (and values) read once, written once.
  The cpu flavor's tiles are 65536 keys (src/plan/plan.h, ZS_OS_SERIAL_TILE) and it
  reads a tile's keys twice (count, scatter), the second time from cache.

--measured CSV (a `zesort bench --csv` file) adds, for every zesort row, the
measured Mkeys/s next to the model's bytes/key and the memory throughput the
two imply (bytes/key x keys/s): how close a run came to the model's bound.
"""
import argparse
import csv
import sys

KEY_BYTES = {"u32": 4, "i32": 4, "f32": 4, "u64": 8, "i64": 8, "f64": 8}


def cm_bytes(bits, key_bytes, pairs, key_bits):
    bins = 1 << bits
    passes = -(-key_bits // bits)
    table = bins * 4 / 256.0                    # table bytes per key
    per_pass = (2 * key_bytes + key_bytes       # count read, bucket read + write
                + (8 if pairs else 0)           # values: bucket read + write
                + table                         # count writes the table
                + 3 * table                     # device scan: 2 reads + 1 write
                + table)                        # bucket reads its offsets
    return passes * per_pass


def onesweep_bytes(key_bytes, pairs, key_bits, flavor="sg"):
    tile = 65536 if flavor == "cpu" else 1024 if (key_bytes == 8 or pairs) else 2048
    passes = -(-key_bits // 8)
    status = (2 * 256 * 4) * 3 / float(tile)    # fill + publish + ~1 tile of look-back
    per_pass = 2 * key_bytes + (8 if pairs else 0) + status
    return key_bytes + passes * per_pass


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bandwidth", type=float, default=560.0, help="GB/s (default: Arc A770)")
    ap.add_argument("--measured", metavar="CSV", help="zesort bench --csv output")
    args = ap.parse_args()
    print("| type | pairs | algorithm | bytes/key (model) | bound at %g GB/s (Gkeys/s) |" % args.bandwidth)
    print("|---|---|---|---|---|")
    for t in ("u32", "u64"):
        kb = KEY_BYTES[t]
        for pairs in (0, 1):
            for name, b in (("cm2", cm_bytes(2, kb, pairs, 8 * kb)),
                            ("cm4", cm_bytes(4, kb, pairs, 8 * kb)),
                            ("onesweep", onesweep_bytes(kb, pairs, 8 * kb))):
                print("| %s | %s | %s | %.1f | %.2f |" % (t, "yes" if pairs else "no", name, b,
                                                          args.bandwidth / b))
    if args.measured:
        print_measured(args.measured)


def model_bytes(algo, key_type, pairs, flavor):
    kb = KEY_BYTES[key_type]
    if algo in ("cm2", "cm4"):
        return cm_bytes(int(algo[2]), kb, pairs, 8 * kb)
    if algo == "onesweep":
        return onesweep_bytes(kb, pairs, 8 * kb, flavor)
    return None


def print_measured(path):
    print()
    print("| backend | flavor | type | pairs | algorithm | scan | n | measured Mkeys/s "
          "| bytes/key (model) | implied GB/s |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    rows = 0
    with open(path, newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            pairs = row["pairs"] == "1"
            b = model_bytes(row["algo"], row["type"], pairs, row.get("flavor", "sg"))
            if b is None:  # a peer's row: no model of its traffic
                continue
            mkeys = float(row["mkeys_per_s"])
            print("| %s | %s | %s | %s | %s | %s | %s | %.1f | %.1f | %.2f |" % (
                row["backend"], row.get("flavor", ""), row["type"], "yes" if pairs else "no",
                row["algo"], row["scan"], row["n"], mkeys, b, mkeys * 1e6 * b / 1e9))
            rows += 1
    if rows == 0:
        sys.exit("traffic_model: no zesort rows in %s" % path)


if __name__ == "__main__":
    main()
