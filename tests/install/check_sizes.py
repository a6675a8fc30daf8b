#!/usr/bin/env python3
"""The package's size limits: each FILE at most LIMIT bytes.

    check_sizes.py WHAT=FILE=LIMIT...

The embedded kernels are stored compressed (kernels/embed_kernels.py), which
keeps libzesort.so and libzesort.a at most 4 MiB, and a program linked with
libzesort.a at most 6 MiB, with every default Intel target. Exit 1 when one
is over, naming it; symbolic links are followed (libzesort.so -> .so.1.x).
"""
import os
import sys


def main():
    over = 0
    for arg in sys.argv[1:]:
        what, path, limit = arg.rsplit("=", 2)
        size = os.path.getsize(os.path.realpath(path))
        ok = size <= int(limit)
        print("%-4s %-16s %10d bytes (limit %d) %s" % ("ok" if ok else "OVER", what, size,
                                                      int(limit), path))
        over += not ok
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
