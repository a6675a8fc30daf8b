#!/usr/bin/env python3
"""Fails unless the page (README.md or a page of docs/) quotes the example
source verbatim, as a whole fenced block.

  check_readme_example.py EXAMPLE PAGE
"""
import re
import sys

example_path, page_path = sys.argv[1:3]
example, page = (open(p, encoding="utf-8").read() for p in (example_path, page_path))
blocks = [m.group(1) for m in re.finditer(r"^```[^\n`]*\n(.*?)^```[ \t]*$", page, re.S | re.M)]
if example.strip() not in (b.strip() for b in blocks):
    sys.exit("%s does not quote %s verbatim as a code block: update it" % (page_path, example_path))
print("%s quotes %s verbatim" % (page_path, example_path))
