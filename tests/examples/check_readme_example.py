#!/usr/bin/env python3
"""Fails unless README.md contains the example source verbatim."""
import sys

example, readme = (open(p, encoding="utf-8").read() for p in sys.argv[1:3])
if example.strip() not in readme:
    sys.exit("README.md does not quote %s verbatim: update the README" % sys.argv[1])
