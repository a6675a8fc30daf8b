#!/usr/bin/env python3
"""The README, the help texts and the header examples against what the tool
and the headers really are (issue 18, items 12 and 13): each check prints
ok/FAIL with its name; exit 1 if any failed.

  check_docs.py ZESORT README INCLUDE_DIR BUILD_INCLUDE_DIR EXAMPLES_DIR CC [CC ARGS...]
"""
import os
import re
import subprocess
import sys
import tempfile

zesort, readme_path, inc_dir, build_inc, examples_dir = sys.argv[1:6]
cc = sys.argv[6:]
readme = open(readme_path, encoding="utf-8").read()
failures = 0


def check(name, ok, why=""):
    global failures
    print("%s %s%s" % ("ok  " if ok else "FAIL", name, "" if ok else ": " + why))
    failures += not ok


def run(*args):
    return subprocess.run([zesort, *args], capture_output=True, text=True).stdout


def section(title):
    """The README section under '## title...' up to the next '## '."""
    m = re.search(r"^## %s.*?(?=^## |\Z)" % re.escape(title), readme, re.S | re.M)
    return m.group(0) if m else ""


# --- header examples compile (zesort_ze.h's omitted the values argument) ---
def header_example(path):
    text = open(path, encoding="utf-8").read()
    # from " * Example...:" to the first comment line that is not code (" * text")
    block = re.search(r"\* Example.*?:\n \*\n(.*?)\n \*\n \* (?! )", text, re.S).group(1)
    return "\n".join(l[4:] if l.startswith(" *   ") else "" for l in block.splitlines())


ze_prelude = """#include <zesort_ze.h>
void example(ze_context_handle_t context, ze_device_handle_t device,
             ze_command_list_handle_t list, ze_kernel_handle_t produce,
             ze_kernel_handle_t consume, ze_event_handle_t produced,
             ze_event_handle_t sorted, void *keys, const uint32_t *count_on_device,
             uint64_t max_n, uint64_t n);
void example(ze_context_handle_t context, ze_device_handle_t device,
             ze_command_list_handle_t list, ze_kernel_handle_t produce,
             ze_kernel_handle_t consume, ze_event_handle_t produced,
             ze_event_handle_t sorted, void *keys, const uint32_t *count_on_device,
             uint64_t max_n, uint64_t n)
{
    ze_device_mem_alloc_desc_t dev_desc = {.stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
    ze_group_count_t groups = {1, 1, 1};
    void *temp;
"""
with tempfile.TemporaryDirectory() as tmp:
    src = os.path.join(tmp, "ze_example.c")
    with open(src, "w") as f:
        f.write(ze_prelude + header_example(os.path.join(inc_dir, "zesort_ze.h")) + "\n}\n")
    res = subprocess.run(cc + ["-std=c11", "-Wall", "-Wextra", "-Werror", "-fsyntax-only",
                               "-I" + inc_dir, "-I" + build_inc, src],
                         capture_output=True, text=True)
    check("header-example-zesort_ze.h-compiles", res.returncode == 0, res.stderr.strip()[:400])

# --- help texts ---
top, demo = run("--help"), run("demo", "--help")
check("help-demo-every-algorithm", "cm2 and cm4" not in top + demo and "onesweep" in demo,
      "zesort --help / demo --help still say demo runs cm2 and cm4")
info_help = run("info", "--help")
keys = {re.sub(r"-(level-zero|opencl|cpu)$", "-BACKEND", l.split(":")[0])
        for l in run("info").splitlines() if ":" in l}
missing = sorted(k for k in keys if not re.search(r"^  %s\b" % re.escape(k), info_help, re.M))
check("help-info-lists-every-key", not missing, "info --help lacks %s" % ", ".join(missing))

# --- the README's CLI synopsis has every option of each command's usage ---
synopsis = re.search(r"```\n(zesort sort .*?)```", section("The command line"), re.S)
synopsis = synopsis.group(1) if synopsis else ""
for cmd in ("sort", "argsort", "bench", "demo"):
    usage = run(cmd, "--help").split("\n\n")[0]
    in_readme = re.search(r"^zesort %s\b.*?(?=^zesort |\Z)" % cmd, synopsis, re.S | re.M)
    flags = set(re.findall(r"\[(--[a-z-]+)", usage))
    lacking = sorted(f for f in flags if not in_readme or f not in in_readme.group(0))
    check("readme-synopsis-%s" % cmd, not lacking, "README synopsis lacks %s" % ", ".join(lacking))

# --- the README's install table names every public header ---
install = section("Use zesort in your project")
headers = sorted(h for h in os.listdir(inc_dir) if h.startswith("zesort") and h.endswith(".h"))
headers.append("zesort_version.h")
lacking = [h for h in headers if h not in install.split("```")[0]]
check("readme-install-table-headers", not lacking, "install table lacks %s" % ", ".join(lacking))

# --- no test counts (they went stale: "115 tests") ---
counts = re.findall(r"\b\d+ tests\b", readme)
check("readme-no-test-counts", not counts, "README states %s" % ", ".join(counts))

# --- the serial flavor is not called by its old name cpu ---
old = re.findall(r".{0,30}(?:`cpu` flavor|\(cpu\)|\bcm2 cpu\b|named `cpu`).{0,10}", readme)
check("readme-serial-not-cpu", not old, "; ".join(old))

# --- a newcomer's order: CLI and API before the kernel design ---
titles = re.findall(r"^## (.*)$", readme, re.M)
want = ["What it does", "The command line", "The C API", "Level Zero interop",
        "OpenCL interop", "Reading the benchmark", "Measured results",
        "The CM design", "OneSweep"]
pos = [next((i for i, t in enumerate(titles) if t.startswith(w)), -1) for w in want]
check("readme-newcomer-order", -1 not in pos and pos == sorted(pos),
      "sections in order %s" % [titles[p] for p in sorted(p for p in pos if p >= 0)])
intro = readme.split("\n## ")[0]
check("readme-intro-opencl-interop", "OpenCL queue" in intro,
      "the intro does not mention the OpenCL interop")
check("readme-rpath-or-ld-library-path",
      "LD_LIBRARY_PATH" in install and "rpath" in install,
      "'Use zesort in your project' does not say how a non-system prefix is found")
check("readme-test-driver-needs-tests",
      "-Dtests=enabled" in section("Level Zero interop"),
      "the test driver section does not say it needs -Dtests=enabled")
example = open(os.path.join(examples_dir, "sort_example.c"), encoding="utf-8").read()
check("readme-first-example-no-pinned-algo",
      not re.search(r"^\s*opts\.algo\s*=", example, re.M),
      "sort_example.c pins an algorithm on the auto backend")

print("%d failed" % failures)
sys.exit(1 if failures else 0)
