#!/usr/bin/env python3
"""check_runner.py RUNNER — the CI contract of zesort-ze-runner (tests/ze/ze_runner.c).

Checks, on whatever Level Zero driver the environment loads (under meson:
the test driver with the validation layer, ze_test_env):
  * --help: usage on stdout, nothing on stderr, exit 0;
  * every bad value / unknown name / unknown option / missing value: exit 2,
    nothing on stdout, one line on stderr starting with "zesort-ze-runner: "
    and naming the argument;
  * --list (no device needed) == the TAP plan and test lines == the JUnit
    testcases of one --tap --junit run, in order; TAP is version 13 with a
    YAML block (duration_ms) per case and '#' comments only; the JUnit XML
    parses (xml.etree) and its counts and times agree with the TAP;
  * every case passes on the driver (a small matrix of both APIs, all four
    interop variants, --algo auto, bit range, pairs, descending);
  * --corrupt K: exactly case K is "not ok" and a JUnit <failure>, exit 1;
  * without a driver: exit 77, every case reported skipped in TAP and JUnit.
Exit status 0 passed, 1 failed, 77 no Level Zero driver.
"""
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

RUNNER = sys.argv[1]
PROG = "zesort-ze-runner"
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL: " + what, flush=True)
    return cond


def run(args, env=None, timeout=600):
    return subprocess.run([RUNNER] + args, capture_output=True, text=True, env=env,
                          timeout=timeout)


# ---- --help and usage errors (no device needed) ----------------------------

r = run(["--help"])
check(r.returncode == 0, "--help exits 0 (got %d)" % r.returncode)
check(r.stdout.startswith("usage: " + PROG), "--help prints the usage on stdout")
check(r.stderr == "", "--help prints nothing on stderr")

bad = [
    (["--sizes", "-5"], "--sizes"),
    (["--sizes", "4294967295"], "--sizes"),              # ZESORT_MAX_KEYS + 1
    (["--sizes", "18446744073709551616"], "--sizes"),    # overflows uint64
    (["--sizes", "12abc"], "--sizes"),
    (["--sizes", "+5"], "--sizes"),
    (["--sizes", ""], "--sizes"),
    (["--sizes", "1,,2"], "--sizes"),
    (["--sizes", ",".join(["1"] * 33)], "--sizes"),      # more than 32 entries
    (["--sizes"], "--sizes"),                             # missing value
    (["--types", "u16"], "--types"),
    (["--types", "u32,u32"], "--types"),
    (["--algo", "quick"], "--algo"),
    (["--dists", "gauss"], "--dists"),
    (["--scan", "sideways"], "--scan"),
    (["--api", "gpu"], "--api"),
    (["--interop", "regular"], "--interop"),
    (["--bits", "8:4"], "--bits"),
    (["--bits", "0:65"], "--bits"),
    (["--bits", "0:40"], "--bits"),                       # u32 keys are 32 bits
    (["--bits", "3"], "--bits"),
    (["--seed", "-1"], "--seed"),
    (["--device", "gpu0"], "--device"),
    (["--junit"], "--junit"),
    (["--corrupt", "0"], "--corrupt"),
    (["--corrupt", "99999", "--sizes", "1"], "--corrupt"),
    (["--frobnicate"], "--frobnicate"),
    (["stray"], "stray"),
    (["--api", "interop", "--scan", "host", "--algo", "cm4"], "--scan"),  # no case left
]
for args, name in bad:
    r = run(args)
    lines = r.stderr.splitlines()
    desc = " ".join(repr(a) for a in args)
    check(r.returncode == 2, "%s exits 2 (got %d)" % (desc, r.returncode))
    check(r.stdout == "", "%s prints nothing on stdout" % desc)
    check(len(lines) == 1 and lines[0].startswith(PROG + ": ") and name in lines[0],
          "%s: one stderr line '%s: ...' naming %s, got %r" % (desc, PROG, name, r.stderr))

if os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") < 200 << 30:
    r = run(["--sizes", "4294967294", "--api", "host"])
    check(r.returncode == 2 and r.stderr.startswith(PROG + ": ") and "--sizes" in r.stderr,
          "a size that cannot fit in host memory is a usage error naming --sizes: %d %r"
          % (r.returncode, r.stderr))
    r = run(["--sizes", "4294967294", "--list", "--api", "host", "--algo", "cm4", "--scan",
             "device", "--dists", "equal"])
    check(r.returncode == 0 and r.stdout == "host u32 cm4 scan=device equal n=4294967294\n",
          "--list lists ZESORT_MAX_KEYS keys without allocating them: %r" % r.stdout)


# ---- TAP and JUnit -----------------------------------------------------------

TEST_LINE = re.compile(r"^(not )?ok (\d+) - ([^#]*?)( # SKIP .*)?$")


def parse_tap(text):
    """-> (plan, [(ok, number, description, skipped, duration_ms, message)]); fails checks
    on anything that is not TAP 13 as the runner promises."""
    lines = text.splitlines()
    check(lines[:1] == ["TAP version 13"], "TAP starts with 'TAP version 13'")
    plan, cases, i = None, [], 1
    while i < len(lines):
        line = lines[i]
        m = TEST_LINE.match(line)
        if re.match(r"^1\.\.\d+$", line):
            check(plan is None, "one TAP plan line")
            check(not cases, "the TAP plan comes before the test lines")
            plan = int(line[3:])
        elif m:
            case = [m.group(1) is None, int(m.group(2)), m.group(3), m.group(4) is not None,
                    None, None]
            # the YAML block that follows: "  ---", "  key: value"..., "  ..."
            if i + 1 < len(lines) and lines[i + 1] == "  ---":
                j = i + 2
                while j < len(lines) and lines[j] != "  ...":
                    ym = re.match(r"^  (\w+): (.*)$", lines[j])
                    check(ym is not None, "YAML block line %r" % lines[j])
                    if ym and ym.group(1) == "duration_ms":
                        case[4] = float(ym.group(2))
                    if ym and ym.group(1) == "message":
                        case[5] = ym.group(2)
                    j += 1
                check(j < len(lines), "YAML block closed by '  ...'")
                i = j
            check(case[4] is not None and case[4] >= 0, "case %d has a duration_ms" % case[1])
            cases.append(case)
        else:
            check(line.startswith("#"), "non-TAP line on stdout: %r" % line)
        i += 1
    check(plan is not None, "TAP has a plan")
    check([c[1] for c in cases] == list(range(1, len(cases) + 1)),
          "TAP test numbers are 1..N in order")
    return plan, cases


def parse_junit(path):
    root = ET.parse(path).getroot()
    check(root.tag == "testsuites", "JUnit root is <testsuites>")
    suites = root.findall("testsuite")
    check(len(suites) == 1, "one <testsuite>")
    suite = suites[0]
    cases = []
    for tc in suite.findall("testcase"):
        failure, skipped = tc.find("failure"), tc.find("skipped")
        check(failure is None or failure.get("message"), "a <failure> has a message")
        cases.append((tc.get("name"), tc.get("classname"), float(tc.get("time")),
                      failure is not None, skipped is not None))
    n = len(cases)
    check(int(suite.get("tests")) == n and int(root.get("tests")) == n,
          "JUnit tests=%s == %d testcases" % (suite.get("tests"), n))
    nf = sum(c[3] for c in cases)
    check(int(suite.get("failures")) + int(suite.get("errors")) == nf,
          "JUnit failures+errors == %d <failure> elements" % nf)
    check(int(suite.get("skipped")) == sum(c[4] for c in cases), "JUnit skipped count")
    return suite, cases


def listing(args):
    r = run(args + ["--list"], env={k: v for k, v in os.environ.items()
                                    if not k.startswith("ZE_")})  # no driver needed
    check(r.returncode == 0 and r.stderr == "", "--list %s exits 0" % " ".join(args))
    lines = r.stdout.splitlines()
    check(len(set(lines)) == len(lines), "case descriptions are unique")
    return lines


def tap_junit_run(args, expect_rc, env=None):
    """Runs with --tap --junit; checks list == TAP == JUnit. -> (rc, tap cases, junit cases)"""
    names = listing(args)
    with tempfile.TemporaryDirectory() as tmp:
        xml_path = os.path.join(tmp, "r.xml")
        r = run(args + ["--tap", "--junit", xml_path], env=env)
        if r.returncode == 77 and expect_rc != 77:
            print("SKIP: no Level Zero driver: %s" % r.stdout.strip())
            sys.exit(77)
        check(r.returncode == expect_rc, "%s: exit %d, expected %d; stderr %r"
              % (" ".join(args), r.returncode, expect_rc, r.stderr[-2000:]))
        plan, tap = parse_tap(r.stdout)
        suite, junit = parse_junit(xml_path)
    check(plan == len(names) == len(tap) == len(junit),
          "--list %d == TAP plan %s == TAP lines %d == JUnit testcases %d"
          % (len(names), plan, len(tap), len(junit)))
    check([c[2] for c in tap] == names, "TAP descriptions == --list")
    check([c[0] for c in junit] == names, "JUnit testcase names == --list")
    for t, j in zip(tap, junit):
        check(j[1] == PROG + "." + t[2].split()[0], "classname of %s" % t[2])
        check(t[0] == (not j[3]), "TAP and JUnit agree on the verdict of %s" % t[2])
        check(t[3] == j[4], "TAP and JUnit agree on skipping %s" % t[2])
        check(abs(t[4] - j[2] * 1e3) < 0.01, "TAP and JUnit agree on the time of %s" % t[2])
    return r, tap, junit


# Both APIs, every interop variant, auto + cm4 + onesweep, two key types.
matrix = ["--sizes", "0,1,257,4097", "--dists", "uniform,equal", "--types", "u32,f64",
          "--algo", "auto,cm4,onesweep"]
names = listing(matrix)
check(len(names) == (5 + 3 * 4) * 2 * 2 * 4, "%d cases in the matrix" % len(names))
for api in ("host", "interop regular-direct", "interop regular-indirect",
            "interop immediate-direct", "interop immediate-indirect"):
    check(any(n.startswith(api + " ") for n in names), "the matrix has %s cases" % api)
r, tap, junit = tap_junit_run(matrix, 0)
check(all(c[0] and not c[3] for c in tap), "every case passes")

# Bit range, pairs, descending, signed and 64-bit keys, another seed.
matrix2 = ["--types", "i32,u64", "--pairs", "--descending", "--bits", "3:17", "--sizes",
           "1,257,4097", "--dists", "few-unique,uniform", "--seed", "7", "--algo", "cm2,onesweep",
           "--interop", "regular-indirect,immediate-direct"]
names2 = listing(matrix2)
check(all(n.endswith(" pairs descending bits=3:17") for n in names2),
      "descriptions name pairs, descending and the bit range")
r, tap, junit = tap_junit_run(matrix2, 0)
check("# seed 7," in r.stdout, "the seed is printed")
check(all(c[0] for c in tap), "every bit-range case passes")

# A device index past the last device is a usage error too (it needs the driver).
r = run(["--device", "4096", "--sizes", "1"])
check(r.returncode == 2 and r.stdout == "" and len(r.stderr.splitlines()) == 1
      and r.stderr.startswith(PROG + ": ") and "--device" in r.stderr,
      "--device past the last device: exit 2 naming --device, got %d %r" % (r.returncode, r.stderr))

# A corrupted case fails, alone, in TAP and JUnit; the table names it too.
small = ["--sizes", "0,5", "--dists", "uniform", "--algo", "cm4"]
n_small = len(listing(small))
for k in (2, n_small):
    r, tap, junit = tap_junit_run(small + ["--corrupt", str(k)], 1)
    check([c[1] for c in tap if not c[0]] == [k], "--corrupt %d: only case %d is not ok" % (k, k))
    check([i + 1 for i, c in enumerate(junit) if c[3]] == [k],
          "--corrupt %d: only testcase %d has a <failure>" % (k, k))
    check(tap[k - 1][5], "the failing TAP case has a message")
r = run(small + ["--corrupt", "1"])
check(r.returncode == 1 and "first failure: " + listing(small)[0] in r.stdout
      and "FAIL" in r.stdout, "the table reports the corrupted case")

# No driver: exit 77, every case skipped.
env = dict(os.environ, ZE_ENABLE_ALT_DRIVERS="/nonexistent/libze_no_driver.so")
env.pop("ZE_ENABLE_VALIDATION_LAYER", None)
r, tap, junit = tap_junit_run(small, 77, env=env)
check(all(c[0] and c[3] for c in tap), "without a driver every TAP case is '# SKIP'")
check(all(c[4] for c in junit), "without a driver every JUnit testcase is <skipped>")

if failures:
    print("%d check(s) failed" % len(failures))
    sys.exit(1)
print("all runner checks passed")
