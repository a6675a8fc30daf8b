#!/usr/bin/env python3
"""Runs the cases of one group of oclgrind_sorts under Oclgrind; any report fails.

    run_group.py OCLGRIND PROGRAM GROUP [CASE]

OCLGRIND is the `oclgrind` launcher (Debian's package oclgrind): it runs
PROGRAM with the Oclgrind OpenCL runtime in place of any other, so the
library's OpenCL backend builds the embedded kernel source there, in the
flavor ZESORT_FLAVOR names. Checks on: data races (local and global memory,
between work-items and between work-groups; atomics excepted), uses of
uninitialised values, and out-of-bounds accesses (always on); --check-api
reports misused OpenCL calls. Oclgrind reports an error and carries on, so
its log is read afterwards: any report fails the group, as does a case's own
failure (a sort that differs from the host's stable sort). The reports are
summarised by kind, kernel and source line (`input.cl` is the program's
embedded source: the .cl file with its headers inlined).

Each case runs in a process of its own (PROGRAM GROUP lists them). Oclgrind
21.10 (Debian 12) keeps a released buffer's shadow memory for the next
buffer given the same id, so a larger buffer made later in the same process
(the library's buffer cache growing from one sort to the next) reads as
uninitialised beyond the old size: a false report, gone in a fresh process.

Kernels are built with -cl-opt-disable: every load and store of the source
is then simulated and checked, and Oclgrind 21.10 runs clang's optimised
code wrongly where a `switch` on a truncated value (the key kind, `flags &
3u` in kernels/zesort_keys.h) sees the bits above the truncation: signed and
float keys sorted descending, or argsorted, came out in the wrong order.
"""
import os
import re
import resource
import subprocess
import sys
import tempfile
import time


def split_reports(lines):
    """Oclgrind's log as reports: a line that does not start with white space
    opens one, the indented lines after it (kernel, work-item, instruction,
    source line) belong to it."""
    reports = []
    for line in lines:
        if not line[0].isspace() or not reports:
            reports.append([line])
        else:
            reports[-1].append(line)
    return reports


def summarise(reports):
    """(what, kernel, source line) -> count, most frequent first; addresses
    and work-item ids left out."""
    counts = {}
    for r in reports:
        what = re.sub(r"0x[0-9a-fA-F]+", "ADDR", r[0].strip())
        kernel = next((l.strip() for l in r if l.strip().startswith("Kernel:")), "")
        where = [i for i, l in enumerate(r) if l.strip().startswith("At line")]
        src = ""
        if where:
            i = where[0]
            src = r[i].strip() + " " + (r[i + 1].strip() if i + 1 < len(r) else "")
        key = " | ".join(x for x in (what, kernel, src) if x)
        counts[key] = counts.get(key, 0) + 1
    return sorted(counts.items(), key=lambda kv: -kv[1])


def run_one(oclgrind, program, group, case, tmp):
    """One case under Oclgrind: (exit status, reports, seconds)."""
    log = os.path.join(tmp, case + ".log")
    cmd = [oclgrind, "--data-races", "--uninitialized", "--check-api",
           "--build-options", "-cl-opt-disable",
           # one worker thread: meson runs the groups side by side
           "--num-threads", "1",
           # the first 2000 reports are summarised; more only cost time
           "--max-errors", "2000",
           "--log", log, program, group, case]
    start = time.monotonic()
    rc = subprocess.call(cmd)
    secs = time.monotonic() - start
    report = ""
    if os.path.exists(log):
        with open(log, errors="replace") as f:
            report = f.read()
    return rc, split_reports([l for l in report.splitlines() if l.strip()]), secs, cmd


def main():
    if len(sys.argv) not in (4, 5):
        print("usage: run_case.py OCLGRIND PROGRAM GROUP [CASE]", file=sys.stderr)
        return 2
    oclgrind, program, group = sys.argv[1:4]
    flavor = os.environ.get("ZESORT_FLAVOR", "?")
    if len(sys.argv) == 5:
        cases = [sys.argv[4]]
    else:
        listed = subprocess.run([program, group], stdout=subprocess.PIPE, text=True, check=True)
        cases = listed.stdout.split()
    failed = []
    with tempfile.TemporaryDirectory(prefix="zesort-oclgrind-") as tmp:
        for case in cases:
            rc, reports, secs, cmd = run_one(oclgrind, program, group, case, tmp)
            print(f"{flavor} {case}: exit status {rc}, {len(reports)} Oclgrind report(s), "
                  f"{secs:.1f} s", flush=True)
            if reports:
                print(f"+ {' '.join(cmd)}\nOclgrind reported (kind | kernel | source line: "
                      f"count among the first {len(reports)} reports):", file=sys.stderr)
                for key, count in summarise(reports):
                    print(f"  {count:6d}  {key}", file=sys.stderr)
                print("The first reports in full:", file=sys.stderr)
                print("\n".join("\n".join(r) for r in reports[:6]), file=sys.stderr)
            if reports or rc != 0:
                failed.append(case)
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(f"{len(cases)} case(s), {usage.ru_utime + usage.ru_stime:.0f} s of CPU; "
          f"failed: {' '.join(failed) if failed else 'none'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
