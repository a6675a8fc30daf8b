#!/usr/bin/env python3
"""The manual (README.md and every docs/*.md) and the help texts against what
the tool, the headers and the tree really are. Each check prints ok/FAIL with
its name; exit 1 if any failed.

  check_docs.py --zesort EXE --root SRC --build-include DIR --lib LIBZESORT.so
                [--sanitize B_SANITIZE] [--keep DIR] -- CC [CC ARGS...]

Checks:
  * help texts: demo runs every algorithm, info --help lists every key;
  * the README: its sections in the newcomer's order, at most 400 lines, its
    CLI synopsis equal to the tool's usage lines (every flag both ways), a
    link to every page of docs/;
  * C blocks (```c) of every page compile: a whole program (one with main)
    is compiled, linked with the library and run when it includes only
    zesort.h; a verbatim copy of a file of tests/examples is left to the
    example tests that build and run it; any other block is a fragment,
    compiled at file scope or inside a function that declares the usual
    names (ctx, keys, values, n, opts, ...);
  * every table of measured numbers has the command that produced it above
    it in its section (a ```sh block or an inline `command`);
  * every `zesort CMD ...` command shown uses only flags CMD --help knows,
    and results.md names every CSV column that bench --help lists;
  * every relative link and image resolves: the file exists and a #anchor
    names a heading of it (GitHub's anchors);
  * every public function of a header is named in its reference page;
  * no page, and no comment of a public header, of src/, include/, kernels/
    or of a top-level meson.build, cites issue numbers or commit hashes or
    tells development history;
  * zesort_ze.h's own example compiles; the install page names every header
    and says how a non-system prefix is found; testing.md says the test
    driver needs -Dtests=enabled; no test counts, no old flavor name.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

ap = argparse.ArgumentParser()
ap.add_argument("--zesort", required=True)
ap.add_argument("--root", required=True, help="the source tree")
ap.add_argument("--build-include", required=True, help="the build's include dir (zesort_version.h)")
ap.add_argument("--lib", required=True, help="the shared library to link whole programs with")
ap.add_argument("--sanitize", default="none", help="the build's b_sanitize (programs link with it)")
ap.add_argument("--keep", help="write the generated C files here (debugging)")
ap.add_argument("cc", nargs="+", help="the C compiler and its arguments")
args = ap.parse_args()

root = args.root
inc_dir = os.path.join(root, "include")
examples_dir = os.path.join(root, "tests", "examples")
docs_dir = os.path.join(root, "docs")
readme_path = os.path.join(root, "README.md")
failures = 0


def check(name, ok, why=""):
    global failures
    print("%s %s%s" % ("ok  " if ok else "FAIL", name, "" if ok else ": " + why))
    failures += not ok


def read(path):
    return open(path, encoding="utf-8").read()


def run(*argv):
    return subprocess.run([args.zesort, *argv], capture_output=True, text=True).stdout


def rel(path):
    return os.path.relpath(path, root)


# The pages: the README and every page of docs/ (cli.md included).
pages = [readme_path] + sorted(os.path.join(docs_dir, f) for f in os.listdir(docs_dir)
                               if f.endswith(".md"))
text = {p: read(p) for p in pages}
readme = text[readme_path]

FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```[ \t]*$", re.S | re.M)


def blocks(page):
    """(language, body, line number of the opening fence) of each fenced block."""
    for m in FENCE.finditer(text[page]):
        yield m.group(1).strip(), m.group(2), text[page].count("\n", 0, m.start()) + 1


def prose(page):
    """The page without its fenced blocks (same line count) and inline code."""
    t = FENCE.sub(lambda m: "\n" * m.group(0).count("\n"), text[page])
    return re.sub(r"`[^`\n]*`", "``", t)


def section(page, title):
    """The section under '## title...' up to the next '## '."""
    m = re.search(r"^## %s.*?(?=^## |\Z)" % re.escape(title), text[page], re.S | re.M)
    return m.group(0) if m else ""


# --- help texts ---
top, demo = run("--help"), run("demo", "--help")
check("help-demo-every-algorithm", "cm2 and cm4" not in top + demo and "onesweep" in demo,
      "zesort --help / demo --help still say demo runs cm2 and cm4")
info_help = run("info", "--help")
keys = {re.sub(r"-(level-zero|opencl|cpu)$", "-BACKEND", l.split(":")[0])
        for l in run("info").splitlines() if ":" in l}
missing = sorted(k for k in keys if not re.search(r"^  %s\b" % re.escape(k), info_help, re.M))
check("help-info-lists-every-key", not missing, "info --help lacks %s" % ", ".join(missing))

# --- the README: a newcomer's order, its length, its links into the manual ---
titles = re.findall(r"^## (.*)$", readme, re.M)
want = ["A first sort", "Inside your Level Zero", "The command line", "Measured",
        "Licence", "The manual"]
pos = [next((i for i, t in enumerate(titles) if t.startswith(w)), -1) for w in want]
check("readme-newcomer-order", -1 not in pos and pos == sorted(pos) and len(titles) == len(want),
      "sections %s, want %s" % (titles, want))
intro = readme.split("\n## ")[0]
check("readme-intro-commands", "```sh\nscripts/demo " in intro and "\nscripts/test " in intro,
      "the two commands are not the README's first block")
check("readme-intro-opencl-interop", "OpenCL queue" in intro,
      "the intro does not mention the OpenCL interop")
nlines = readme.count("\n")
check("readme-at-most-400-lines", nlines <= 400, "%d lines" % nlines)
check("readme-licence-line", "\nMIT, see [LICENSE](LICENSE).\n" in section(readme_path, "Licence"),
      "the licence section is not 'MIT, see LICENSE'")
linked = set(re.findall(r"\]\((docs/[^)#\s]+)", readme))
unlinked = sorted(rel(p) for p in pages[1:] if rel(p) not in linked)
check("readme-links-every-page", not unlinked, "README links none of %s" % ", ".join(unlinked))

# --- the README's CLI synopsis against each command's usage, both ways ---
synopsis = re.search(r"```\n(zesort sort .*?)```", section(readme_path, "The command line"), re.S)
synopsis = synopsis.group(1) if synopsis else ""
for cmd in ("sort", "argsort", "bench", "info", "demo", "mpi-sort", "mpi-bench"):
    usage = run(cmd, "--help").split("\n\n")[0]
    entry = re.search(r"^(?:mpirun -np P )?zesort %s\b.*?(?=^(?:mpirun -np P )?zesort |\Z)"
                      % re.escape(cmd), synopsis, re.S | re.M)
    tool = set(re.findall(r"\[(--[a-z-]+)", usage))
    doc = set(re.findall(r"\[(--[a-z-]+)", entry.group(0))) if entry else set()
    lacking, unknown = sorted(tool - doc), sorted(doc - tool)
    check("readme-synopsis-%s" % cmd, entry and usage.startswith("usage:") and not lacking
          and not unknown,
          "no synopsis line" if not entry else "no usage from the tool" if
          not usage.startswith("usage:") else "; ".join(
              ([("README lacks %s" % ", ".join(lacking))] if lacking else []) +
              ([("zesort %s --help lacks %s" % (cmd, ", ".join(unknown)))] if unknown else [])))

# --- C blocks compile; whole programs are built and run ---
examples = {f: read(os.path.join(examples_dir, f)) for f in os.listdir(examples_dir)
            if f.endswith(".c")}
example_tests = read(os.path.join(examples_dir, "meson.build"))

FRAGMENT_PRELUDE = """#define CL_TARGET_OPENCL_VERSION 120
#include <stdio.h>
#include <stdlib.h>
#include <zesort.h>
#include <zesort_ze.h>
#include <zesort_cl.h>
"""
FRAGMENT_FUNCTION = """void fragment(zesort_context *ctx, void *keys, void *values, const void *keys_in,
              const void *values_in, void *keys_out, void *values_out, void *indices,
              uint64_t n, zesort_options opts, zesort_ze_sorter *ze_sorter,
              ze_command_list_handle_t list, zesort_cl_sorter *cl_sorter,
              cl_command_queue queue);
void fragment(zesort_context *ctx, void *keys, void *values, const void *keys_in,
              const void *values_in, void *keys_out, void *values_out, void *indices,
              uint64_t n, zesort_options opts, zesort_ze_sorter *ze_sorter,
              ze_command_list_handle_t list, zesort_cl_sorter *cl_sorter,
              cl_command_queue queue)
{
    (void)ctx; (void)keys; (void)values; (void)keys_in; (void)values_in; (void)keys_out;
    (void)values_out; (void)indices; (void)n; (void)opts; (void)ze_sorter; (void)list;
    (void)cl_sorter; (void)queue;
    {
"""
WARN = ["-std=c11", "-Wall", "-Wextra", "-Werror", "-Wno-unused-value",
        "-Wno-unused-result", "-Wno-unused-variable"]
lib_dir = os.path.dirname(os.path.abspath(args.lib))


def compile_c(src, name, link=False):
    """Compiles src (with -fsyntax-only, or linked with the library); returns
    (ok, message, executable or None)."""
    work = args.keep or tmp
    path = os.path.join(work, name + ".c")
    with open(path, "w") as f:
        f.write(src)
    flags = ["-I" + inc_dir, "-I" + args.build_include]
    if link:
        exe = os.path.join(work, name)
        san = [] if args.sanitize in ("", "none") else ["-fsanitize=" + args.sanitize]
        cmd = args.cc + WARN + flags + san + [path, "-o", exe, args.lib,
                                        "-Wl,-rpath," + lib_dir, "-lOpenCL", "-lze_loader"]
    else:
        exe = None
        cmd = args.cc + WARN + flags + ["-fsyntax-only", path]
    res = subprocess.run(cmd, capture_output=True, text=True)
    return res.returncode == 0, res.stderr.strip()[:600], exe


with tempfile.TemporaryDirectory() as tmp:
    # zesort_ze.h's own example (the values argument was once missing)
    hdr = read(os.path.join(inc_dir, "zesort_ze.h"))
    block = re.search(r"\* Example.*?:\n \*\n(.*?)\n \*\n \* (?! )", hdr, re.S).group(1)
    body = "\n".join(l[4:] if l.startswith(" *   ") else "" for l in block.splitlines())
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
    ok, why, _ = compile_c(ze_prelude + body + "\n}\n", "header_example_ze")
    check("header-example-zesort_ze.h-compiles", ok, why)

    counter = 0
    for page in pages:
        for lang, code, line in blocks(page):
            if lang != "c":
                continue
            counter += 1
            where = "%s:%d" % (rel(page), line)
            name = "block%d" % counter
            quoted = [f for f, t in examples.items() if t.strip() == code.strip()]
            if quoted:
                # built and run by tests/examples/meson.build (example-*-runs)
                stem = quoted[0][:-2]
                check("c-block-%s-is-a-tested-example" % where, stem in example_tests,
                      "%s quotes %s, which no test in tests/examples builds" % (where, quoted[0]))
                continue
            if re.search(r"\bint\s+main\s*\(", code):
                includes = set(re.findall(r"#include\s*<([^>]+)>", code))
                host_only = not any(h.startswith("zesort_") or "/" in h for h in includes)
                ok, why, exe = compile_c(code, name, link=host_only)
                check("c-block-%s-compiles" % where, ok, why)
                if ok and exe:
                    res = subprocess.run([exe], capture_output=True, text=True, timeout=60)
                    check("c-block-%s-runs" % where, res.returncode == 0,
                          "exit %d: %s" % (res.returncode, res.stderr.strip()[:300]))
                continue
            ok, why, _ = compile_c(FRAGMENT_PRELUDE + code, name + "_file")
            if not ok:
                ok, why, _ = compile_c(FRAGMENT_PRELUDE + FRAGMENT_FUNCTION + code + "\n    }\n}\n",
                                       name)
            check("c-block-%s-compiles" % where, ok, why)

# --- every table of measured numbers has its command; zesort commands use known flags ---
NUMBER = re.compile(r"^[~≈]?-?\d[\d.,]*(?:\s*(?:ms|s|us|µs|x|%|MB|GB/s|Mkeys/s|Gkeys/s|MiB))?"
                    r"(?:\s*(?:/|–|-)\s*-?\d[\d.,]*(?:\s*(?:ms|x|%))?)?(?:\s*\([\d.]+\))?$")
COMMAND = re.compile(r"^\s*(?:[A-Z_]+=\S+\s+)*(?:build/|scripts/|python3 |zesort |mpirun |"
                     r"meson |for |bench/|git |cmake )")


def cell_is_number(cell):
    return bool(NUMBER.match(re.sub(r"[*`]", "", cell).strip()))


def tables(page):
    """(first line, last line, rows) of each table outside fenced blocks."""
    lines = FENCE.sub(lambda m: "\n" * m.group(0).count("\n"), text[page]).split("\n")
    i = 0
    while i < len(lines):
        if lines[i].startswith("|") and i + 1 < len(lines) and re.match(r"^\|[-| :]+\|$",
                                                                         lines[i + 1]):
            j = i + 2
            while j < len(lines) and lines[j].startswith("|"):
                j += 1
            rows = [[c.strip() for c in l.strip().strip("|").split("|")] for l in lines[i + 2:j]]
            yield i, j, rows
            i = j
        else:
            i += 1


def has_command(chunk):
    for m in FENCE.finditer(chunk):
        if m.group(1).strip() in ("sh", "") and any(COMMAND.match(l)
                                                     for l in m.group(2).splitlines()):
            return True
    return any(COMMAND.match(c) for c in re.findall(r"`([^`\n]+)`", chunk))


for page in pages:
    lines = text[page].split("\n")
    bad = []
    previous_end = 0
    for start, end, rows in tables(page):
        numeric = any(cell_is_number(c) for r in rows for c in r)
        if numeric:
            heading = max([k for k in range(start) if lines[k].startswith("#")], default=0)
            chunk = "\n".join(lines[max(heading, previous_end):start])
            if not has_command(chunk):
                bad.append("line %d" % (start + 1))
        previous_end = end
    check("results-tables-have-commands-%s" % rel(page), not bad,
          "tables of numbers with no command above them in their section: %s" % ", ".join(bad))

# --- every CSV column of zesort bench is documented in results.md ---
bench_help = run("bench", "--help")
csv_help = re.search(r"^  --csv FILE.*?(?=^  --)", bench_help, re.S | re.M)
columns = re.findall(r"^ {20,24}([a-z_]+) {2,}\S", csv_help.group(0), re.M) if csv_help else []
reading = re.search(r"^## Reading the benchmark.*?(?=^## |\Z)",
                    text.get(os.path.join(docs_dir, "results.md"), ""), re.S | re.M)
lacking = [c for c in columns if not reading or "`%s`" % c not in reading.group(0)]
check("results-csv-columns", columns and not lacking,
      "no columns in bench --help" if not columns else
      "results.md's 'Reading the benchmark' lacks %s" % ", ".join(lacking))

helps = {}


def flags_of(cmd):
    if cmd not in helps:
        helps[cmd] = set(re.findall(r"(--[a-z][a-z-]*)", run(cmd, "--help")))
    return helps[cmd]


SUBCOMMANDS = ("sort", "argsort", "bench", "info", "demo", "mpi-sort", "mpi-bench")
for page in pages:
    bad = []
    candidates = [c for lang, code, _ in blocks(page) if lang in ("sh", "")
                  for c in code.replace("\\\n", " ").splitlines()]
    candidates += re.findall(r"`([^`\n]*zesort [a-z-]+ [^`\n]*)`", text[page])
    for line in candidates:
        if line.lstrip().startswith("usage:") or line.lstrip().startswith("#"):
            continue
        m = re.search(r"(?:^|[\s/])zesort ([a-z-]+)((?:\s+[^#|;&]*)?)", line)
        if not m or m.group(1) not in SUBCOMMANDS:
            continue
        if re.search(r"\[--", m.group(2)):  # a synopsis line, checked above
            continue
        unknown = [f for f in re.findall(r"(?:^|\s)(--[a-z][a-z-]*)", m.group(2))
                   if f not in flags_of(m.group(1))]
        if unknown:
            bad.append("'zesort %s ... %s'" % (m.group(1), " ".join(unknown)))
    check("commands-use-known-flags-%s" % rel(page), not bad,
          "unknown to the tool: %s" % "; ".join(sorted(set(bad))))

# --- relative links and images resolve, #anchors name headings ---


def slugs(md):
    """GitHub's heading anchors of a markdown text."""
    seen, out = {}, set()
    for title in re.findall(r"^#{1,6}\s+(.*?)\s*#*\s*$", FENCE.sub("", md), re.M):
        s = re.sub(r"[^\w\- ]", "", title.lower().replace("`", "")).replace(" ", "-")
        k = seen.get(s, 0)
        seen[s] = k + 1
        out.add(s if k == 0 else "%s-%d" % (s, k))
    return out


for page in pages:
    bad = []
    for target in re.findall(r"!?\[[^\]]*\]\(([^)\s]+)\)", prose(page)):
        if re.match(r"^[a-z]+:", target):
            continue  # http:, https:, mailto:
        path, _, anchor = target.partition("#")
        dest = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
        if not os.path.exists(dest):
            bad.append("%s (no file)" % target)
        elif anchor and (not dest.endswith(".md") or anchor not in slugs(read(dest))):
            bad.append("%s (no heading #%s)" % (target, anchor))
    check("links-resolve-%s" % rel(page), not bad, "; ".join(bad))

# --- every public function of a header is in its reference page ---
refs = {"zesort.h": "api.md", "zesort_ze.h": "interop.md", "zesort_cl.h": "interop.md",
        "zesort_mpi.h": "mpi.md"}
for header, page in refs.items():
    decl = read(os.path.join(inc_dir, header))
    funcs = sorted(set(re.findall(r"^[a-z_][a-z0-9_ ]*?[ *](zesort_[a-z0-9_]+)\(", decl, re.M)))
    doc = text.get(os.path.join(docs_dir, page), "")
    lacking = [f for f in funcs if not re.search(r"\b%s\b" % f, doc)]
    check("reference-%s-every-function" % header, funcs and not lacking,
          "docs/%s does not name %s" % (page, ", ".join(lacking)))

# --- no issue numbers, commit hashes or development history ---
HISTORY = re.compile(r"\bissues?[ -]\d+|\(issue|\bcommit [0-9a-f]{7}|"
                     r"(?<![\w/.-])(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,40}(?![\w/.-])|"
                     r"before this change|this round\b|this session\b|not measured again|"
                     r"\bwas [\d.]+ ?(?:MB|ms|s)\b[^.\n]*\bnow\b", re.I)


def history(t):
    return sorted({m.group(0) for m in HISTORY.finditer(t)})


for page in pages:
    found = history(text[page])
    check("no-history-%s" % rel(page), not found, "; ".join(found))
for header in sorted(os.listdir(inc_dir)):
    if header.endswith(".h"):
        comments = " ".join(re.findall(r"/\*.*?\*/|//[^\n]*", read(os.path.join(inc_dir, header)),
                                       re.S))
        found = history(comments)
        check("no-history-include/%s" % header, not found, "; ".join(found))


def source_comments(path):
    """The comments of a source file: # lines of meson.build and Python, C
    comments of anything else."""
    t = read(path)
    if os.path.basename(path) == "meson.build" or path.endswith(".py"):
        return "\n".join(re.findall(r"#[^\n]*", t))
    return "\n".join(re.findall(r"/\*.*?\*/|//[^\n]*", t, re.S))


# The sources' comments too: src/, include/ and kernels/ (every file), and the
# meson.build files of the top two levels.
sources = [os.path.join(root, "meson.build")]
sources += sorted(os.path.join(root, d, "meson.build") for d in os.listdir(root)
                  if os.path.isfile(os.path.join(root, d, "meson.build")))
for top in ("src", "include", "kernels"):
    for dirpath, _, files in os.walk(os.path.join(root, top)):
        sources += sorted(os.path.join(dirpath, f) for f in files)
cited = []
for path in sources:
    cited += ["%s: %s" % (rel(path), h) for h in history(source_comments(path))]
check("no-history-source-comments", not cited, "; ".join(cited))

# --- pages that must say particular things ---
install = text.get(os.path.join(docs_dir, "install.md"), "")
headers = sorted(h for h in os.listdir(inc_dir) if h.startswith("zesort") and h.endswith(".h")
                 and h != "zesort_mpi.h") + ["zesort_version.h"]
table = install.split("## pkg-config")[0]
lacking = [h for h in headers + ["zesort_mpi.h"] if h not in table]
check("install-table-headers", not lacking, "the install table lacks %s" % ", ".join(lacking))
check("install-rpath-or-ld-library-path", "LD_LIBRARY_PATH" in install and "rpath" in install,
      "install.md does not say how a non-system prefix is found")
check("install-cmake-find-package", "find_package(zesort CONFIG REQUIRED)" in install
      and "zesort::zesort" in install, "install.md does not show find_package(zesort CONFIG)")
testing = text.get(os.path.join(docs_dir, "testing.md"), "")
driver = re.search(r"^## The Level Zero test driver.*?(?=^## |\Z)", testing, re.S | re.M)
check("testing-test-driver-needs-tests", bool(driver) and "-Dtests=enabled" in driver.group(0),
      "testing.md's test driver section does not say it needs -Dtests=enabled")
for page in pages:
    counts = re.findall(r"\b\d+ tests\b", text[page])
    old = re.findall(r".{0,30}(?:`cpu` flavor|\(cpu\)|\bcm2 cpu\b|named `cpu`).{0,10}", text[page])
    check("no-test-counts-or-old-flavor-%s" % rel(page), not counts and not old,
          "; ".join(counts + old))
example = examples.get("sort_example.c", "")
check("first-example-no-pinned-algo", not re.search(r"^\s*opts\.algo\s*=", example, re.M),
      "sort_example.c pins an algorithm on the auto backend")

print("%d failed" % failures)
sys.exit(1 if failures else 0)
