#!/usr/bin/env python3
"""check_man.py ZESORT MANPAGE -- the man page zesort(1) against the tool's
own help: every command that `zesort --help` lists has a section, and each
section documents exactly the options that command's --help documents (its
usage lines and its option list), no more, no fewer. Prints ok/FAIL per
check; exit 1 if any failed.

In the help, the options are the flags in the usage paragraph and in the tag
column of the option list (lines starting "  -"). In the man page, they are
the flags in the tags of the .TP entries of the command's section: the
section `.SS "zesort CMD ..."` (or `mpirun ... zesort CMD`), and `.SH OPTIONS`
for the top level.
"""
import re
import subprocess
import sys

FLAG = re.compile(r"(?<![\w-])(--[a-z][a-z0-9-]*|-h)(?![\w-])")


def help_text(zesort, cmd):
    args = [zesort] + ([cmd] if cmd else []) + ["--help"]
    res = subprocess.run(args, capture_output=True, text=True)
    if res.returncode != 0:
        sys.exit("%s: exit %d" % (" ".join(args), res.returncode))
    return res.stdout


def help_options(text):
    """Flags of the usage paragraph and of the option list's tag column."""
    usage = text.split("\n\n")[0]
    flags = set(FLAG.findall(usage))
    in_list = False
    for line in text.splitlines():
        if re.match(r"^options:", line):
            in_list = True
            continue
        if in_list and line.startswith("  -"):
            # the tag: up to the gap before the description
            flags |= set(FLAG.findall(re.split(r"\s{2,}", line.strip())[0]))
        elif in_list and not line.strip():
            in_list = False
    return flags


def help_commands(text):
    """The commands of `zesort --help`: the first word of each line of its
    'commands:' list."""
    block = re.search(r"^commands:\n(.*?)\n\n", text, re.S | re.M)
    cmds = set()
    for line in block.group(1).splitlines() if block else []:
        m = re.match(r"^  ([a-z][a-z-]*)\b", line)
        if m:
            cmds.add(m.group(1))
    return cmds


def plain(roff):
    """Roff text to plain text: font escapes dropped, \\- and \\(em kept as text."""
    roff = re.sub(r"\\f[BIRP]|\\f\(..|\\f\[[^]]*\]", "", roff)
    roff = roff.replace("\\-", "-").replace("\\(em", "--").replace("\\&", "")
    return roff


def man_sections(page):
    """{command: the roff of its section}; '' is the top level (.SH OPTIONS)."""
    sections = {}
    current = None
    for line in page.splitlines():
        if line.startswith(".SH") or line.startswith(".SS"):
            title = plain(line[3:]).strip().strip('"')
            m = re.match(r"^(?:mpirun .*?)?zesort ([a-z][a-z-]*)\b", title)
            if line.startswith(".SS") and m:
                current = m.group(1)
            elif line.startswith(".SH") and title == "OPTIONS":
                current = ""
            else:
                current = None if line.startswith(".SH") else current
            if current is not None:
                sections.setdefault(current, [])
            continue
        if current is not None:
            sections[current].append(line)
    return sections


def man_options(lines):
    """Flags in the tags of the .TP entries (the line after each .TP)."""
    flags = set()
    for i, line in enumerate(lines):
        if re.match(r"^\.TP\b", line) and i + 1 < len(lines):
            flags |= set(FLAG.findall(plain(lines[i + 1])))
    return flags


def main():
    zesort, man_path = sys.argv[1:3]
    page = open(man_path, encoding="utf-8").read()
    sections = man_sections(page)
    failures = 0

    def check(name, ok, why=""):
        nonlocal failures
        print("%s %s%s" % ("ok  " if ok else "FAIL", name, "" if ok else ": " + why))
        failures += not ok

    top = help_text(zesort, None)
    commands = help_commands(top)
    check("man-has-commands", len(commands) >= 5, "zesort --help lists %s" % sorted(commands))
    have = set(sections) - {""}
    check("man-sections-are-the-commands", commands == have,
          "man page lacks %s; has extra %s" % (sorted(commands - have), sorted(have - commands)))
    # (`zesort help --help` is the top-level help: checked as the top level)
    for cmd in [None] + sorted(commands - {"help"}):
        hflags = help_options(help_text(zesort, cmd))
        mflags = man_options(sections.get(cmd or "", []))
        name = "man-options-%s" % (cmd or "zesort")
        check(name, hflags == mflags and hflags,
              "in --help only: %s; in the man page only: %s"
              % (sorted(hflags - mflags), sorted(mflags - hflags)))
    print("%d failed" % failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
