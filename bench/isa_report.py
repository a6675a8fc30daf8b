#!/usr/bin/env python3
"""ISA report: what Intel's compiler makes of every zesort kernel, per target.

For each program (cm2, cm4, onesweep, seg, scan) compiled as the embedded native binaries are
(sg flavor), and each Intel target, this runs `ocloc compile` with IGC's shader
dump on and reads, per kernel: SIMD width, GRF count, instruction count, send
(memory message) count, GRF spill bytes and flag spills.

Instructions per key: what a hardware thread issues, over the keys it
handles. Issued counts every instruction once and the body of every loop as
often as the loop runs: its trip count, read from the code where a counter
steps by a constant towards a constant (the loops IGC keeps rolled: a retry
rolls the ones a first compile unrolls, so without this a retried kernel
looked cheaper than an unrolled one), or once where the count depends on the
data (onesweep's look-back: once is its usual count), which the table says
per kernel. Both sides of a branch count. The keys a thread handles come from
kernels/zesort_tuning.h (the srcdir's): a work-group's keys (a onesweep tile, a
CM chunk) over its hardware threads (work-items / SIMD width), so kernels of
another SIMD width compare too.

IGC retries: when a kernel's first compile spills, IGC compiles it again
with less aggressive settings (among them: private arrays stay in private
memory instead of being promoted to registers) and ships the retry. The dump
holds both, the retry's files named *_1_simd*. The table gives the shipped
(last) try, and the column "earlier try spilled" the spill bytes of the tries
IGC threw away: a retry is no spill-free kernel, only spills by another name
(scratch traffic for private arrays, lost optimizations).

With --dumps DIR it compiles nothing: it reads the assembly the build kept
(kernels/embed_kernels.py --isa-dir, build/kernels/isa) of the binaries the
library ships, which is how the ISA check runs.

Output: a Markdown table on stdout (or --out FILE). Exit status 1 if any
shipped kernel spills GRF on any target, and with --fail-on-retry also if IGC
had to retry one (listed on stderr either way; flag-register spills are
reported, not failed).
"""
import argparse
import glob
import gzip
import os
import re
import subprocess
import sys
import tempfile

# Every program the library embeds (kernels/embed_kernels.py), sg flavor.
PROGRAMS = []
for _vsuffix, _vdefs in (("", "-DZS_PAIRS=0"), ("_pairs", "-DZS_PAIRS=1 -DZS_VAL64=0"),
                         ("_pairs64", "-DZS_PAIRS=1 -DZS_VAL64=1")):
    for _key64 in (0, 1):
        suffix = ("_k64" if _key64 else "") + _vsuffix
        for _bits in (2, 4):
            PROGRAMS.append(("cm%d%s" % (_bits, suffix), "cm_radix.cl",
                             "-DRADIX_BITS=%d -DZS_KEY64=%d %s" % (_bits, _key64, _vdefs)))
        PROGRAMS.append(("onesweep%s" % suffix, "onesweep.cl",
                         "-DZS_KEY64=%d %s" % (_key64, _vdefs)))
        PROGRAMS.append(("seg%s" % suffix, "segsort.cl",
                         "-DZS_KEY64=%d %s" % (_key64, _vdefs)))
        PROGRAMS.append(("sel%s" % suffix, "select.cl",
                         "-DZS_KEY64=%d %s" % (_key64, _vdefs)))
PROGRAMS.append(("scan", "scan.cl", ""))


def tuning(srcdir):
    """Keys per work-group and work-items per work-group of the kernels with
    a per-key figure, from the srcdir's zesort_tuning.h (compiled and run: the
    very numbers the planner and the kernels use), keyed by (kernel, wide):
    wide is 1 for programs with 64-bit keys or pairs."""
    prog = ('#include <stdio.h>\n#include "zesort_tuning.h"\n'
            "int main(void) { printf(\"%lu %lu %lu %lu %lu\\n\", (unsigned long)ZS_OS_TILE(0, 0),"
            " (unsigned long)ZS_OS_TILE(0, 1), (unsigned long)ZS_OS_WG,"
            " (unsigned long)ZS_CHUNK_KEYS, (unsigned long)ZS_LANES); return 0; }\n")
    cc = os.environ.get("CC", "cc").split()
    with tempfile.TemporaryDirectory() as tmp:
        exe = os.path.join(tmp, "tuning")
        subprocess.run(cc + ["-I", srcdir, "-x", "c", "-", "-o", exe], input=prog, text=True,
                       check=True)
        out = subprocess.run([exe], capture_output=True, text=True, check=True).stdout
    tile32, tile_wide, os_wg, chunk, lanes = (int(x) for x in out.split())
    shapes = {}
    for wide, tile in ((0, tile32), (1, tile_wide)):
        shapes[("os_pass", wide)] = shapes[("os_histogram", wide)] = (tile, os_wg)
        shapes[("cm_bucket", wide)] = shapes[("cm_count", wide)] = (chunk, lanes)
    return shapes


LABEL = re.compile(r"^\s*([A-Za-z_]\w*):\s*$")
BRANCH = re.compile(r"^\s*(?:\((W&)?(~?)(f\d\.\d)(?:\.\w+)?\)\s*|\(W\)\s*)?"
                    r"(jmpi|goto|while|break|brc|brd)\b(?:\.\w+)?\s*(?:\(\d+\|M\d+\)\s*)?"
                    r"([A-Za-z_]\w*)(?:\s+([A-Za-z_]\w*))?")
# a loop counter's step (add|shl (N|Mk) R<1>:t R<...>:t IMM) and compare
# (cmp (N|Mk) (cond)F dst R<...>:t IMM), scalar or per lane, either SIMD16 half
ADD = re.compile(r"\b(add|shl) \((\d+)\|M\d+\)\s+(r\d+\.\d+)<1>:\w+\s+(r\d+\.\d+)<[\d;,]+>:\w+\s+"
                 r"(-?(?:0x[0-9a-fA-F]+|\d+)):\w+")
CMP = re.compile(r"\bcmp \(\d+\|M\d+\)\s+\((lt|le|gt|ge|eq|ne)\)(f\d\.\d)\s+\S+\s+"
                 r"(r\d+\.\d+)<[\d;,]+>:\w+\s+(-?(?:0x[0-9a-fA-F]+|\d+)):\w+")
MOV_IMM = re.compile(r"\bmov \(\d+\|M\d+\)\s+(r\d+\.\d+)<1>:(\w+)\s+(-?(?:0x[0-9a-fA-F]+|\d+)):\w+\b")
DEST = re.compile(r"^\s*(?:\([^)]*\)\s*)?[a-z][\w.]*(?:\s+\(\d+\|M\d+\))?(?:\s+\([a-z]+\)f\d\.\d)?"
                  r"\s+(r\d+\.\d+)<")
COND = {"lt": lambda a, b: a < b, "le": lambda a, b: a <= b, "gt": lambda a, b: a > b,
        "ge": lambda a, b: a >= b, "eq": lambda a, b: a == b, "ne": lambda a, b: a != b}


def _int(text, typ="d"):
    v = int(text, 16) if "0x" in text.lower() else int(text)
    if typ in ("f", "hf", "df") and v != 0:
        return None  # a float's bits: only 0 reads the same as an integer
    return v


def trip_count(insts, labels, head, tail, inner):
    """Iterations of the loop insts[head..tail] (its back edge at tail) when a
    counter steps by an immediate (add, or shl for doubling loops) and its
    compare with an immediate decides the loop's one way out: the shapes IGC
    gives a loop of constant trip count that it keeps rolled. The counter
    starts from the immediate it was last set to before the loop; a per-lane
    counter set otherwise (a lane id: `for (i = lid; i < K; i += WG)`) is
    taken to start at 0. Else None: a loop with several ways out (the
    look-back) or any other exit condition runs as the data say."""
    top = [i for i in range(head, tail + 1) if not any(a <= i <= b for a, b in inner)]
    way_out = []  # (instruction, branch match, True if a true predicate leaves the loop)
    for i in top:
        b = BRANCH.match(insts[i])
        if not b:
            continue
        if i == tail:
            if b.group(3):  # a predicated back edge: a true predicate stays
                way_out.append((i, b, False))
        elif b.group(4) == "break" or any(t in labels and not head <= labels[t] <= tail
                                          for t in (b.group(5), b.group(6))):
            way_out.append((i, b, True))
    if len(way_out) != 1 or not way_out[0][1].group(3):
        return None
    exit_at, branch, leaves = way_out[0]
    flag = branch.group(3)
    exit_when_true = leaves != (branch.group(2) == "~")
    # the last write of that flag before the decision: a counter's compare?
    cmp_at = m = None
    f = re.escape(flag)
    for j in range(exit_at - 1, head - 1, -1):
        if re.match(r"^\s*\(W&~?f\d\.\d[^)]*\)\s*mov \(1\|M0\)\s+%s<" % f, insts[j]):
            continue  # IGC 1.x merging a uniform loop's flag for lanes that left
        if re.search(r"\bcsel\b", insts[j]):
            continue  # compares its own source with 0: writes no flag
        if re.search(r"\((?:lt|le|gt|ge|eq|ne|nz|z|ov|un)\)%s\b" % f, insts[j]) or re.match(
                r"^\s*(?:\([^)]*\)\s*)?[a-z][\w.]*\s+\(\d+\|M\d+\)\s+%s<" % f, insts[j]):
            cmp_at, m = j, CMP.search(insts[j])
            break
    if m is None or m.group(2) != flag:
        return None
    cond, reg, bound = m.group(1), m.group(3), _int(m.group(4))
    steps = []  # the counter's step: reg = reg + imm (or << imm)
    for i in top:
        a = ADD.search(insts[i])
        if a and a.group(3) == a.group(4) == reg:
            steps.append((i, a))
    if len(steps) != 1:
        return None
    step_at, a = steps[0]
    op, step, per_lane = a.group(1), _int(a.group(5)), a.group(2) != "1"
    if any(j != step_at and (DEST.match(insts[j]) or [None, None])[1] == reg
           for j in range(head, tail + 1)):
        return None  # a register the loop also uses for something else
    start = None
    for j in range(head - 1, -1, -1):  # the counter's last write before the loop
        d = DEST.match(insts[j])
        if d and d.group(1) == reg:
            mv = MOV_IMM.search(insts[j])
            if mv and mv.group(1) == reg:
                start = _int(mv.group(3), mv.group(2))
            break
    if start is None and per_lane and op == "add":
        start = 0
    if start is None or not step:
        return None
    v, trips, result = start, 0, None
    while trips < 4096:
        trips += 1
        for pos in sorted((step_at, cmp_at)):
            if pos == step_at:
                v = v + step if op == "add" else v << step
            else:
                result = COND[cond](v, bound)
        if result == exit_when_true:
            return trips
    return None


def weighted_count(lines):
    """Instructions a hardware thread issues with every loop counted as often
    as it runs: a loop's body times its trip count where the code shows it
    (trip_count), once where it depends on the data (the look-back)."""
    insts, labels = [], {}
    for l in lines:
        m = LABEL.match(l)
        if m:
            labels[m.group(1)] = len(insts)
        else:
            insts.append(l)
    loops = []
    for i, l in enumerate(insts):
        b = BRANCH.match(l)
        if not b:
            continue
        targets = [t for t in (b.group(5), b.group(6)) if t in labels and labels[t] <= i]
        if targets and b.group(4) != "break":
            loops.append((min(labels[t] for t in targets), i))
    weight = [1] * len(insts)
    once = 0
    for head, tail in loops:
        inner = [(a, b) for a, b in loops if head <= a and b <= tail and (a, b) != (head, tail)]
        trips = trip_count(insts, labels, head, tail, inner)
        if trips is None:
            once += 1
            continue
        for i in range(head, tail + 1):
            weight[i] *= trips
    return sum(weight), len(loops), once


def analyse(asm_path):
    opener = gzip.open if asm_path.endswith(".gz") else open
    with opener(asm_path, "rt", encoding="utf-8", errors="replace") as f:
        text = f.read()
    name = re.search(r"^//\.kernel (\S+)", text, re.M).group(1)
    simd = int(re.search(r"_simd(\d+)_", os.path.basename(asm_path)).group(1))
    grf = re.search(r"numGRF=(\d+)", text)
    inst = re.search(r"^//\.instCount (\d+)", text, re.M)
    spill = re.search(r"^//\.spill size (\d+)", text, re.M)
    flag_spills = sum(int(x) for x in re.findall(r"^//\.spill flag (?:store|load) (\d+)", text, re.M))
    code = [l for l in text.splitlines() if l.strip() and not l.lstrip().startswith("//")]
    body = [l for l in code if not LABEL.match(l) and not re.match(r"^\s*L\d+:", l)]
    # memory messages: send/sends/sendc, and the LSC forms IGC 2.x prints by
    # name (load.ugm..., store.slm..., atomic_iinc.slm...), which it never
    # spells "send" and the count missed
    sends = sum(1 for l in body if re.search(r"\bsends?c?\.", l) or re.search(r"\bsends?c?\s", l)
                or re.search(r"^\s*(?:\([^)]*\)\s*)*(?:load|store|atomic)\w*\.(?:ugm|ugml|slm|tgm|scratch)\b", l))
    issued, loops, once = weighted_count(code)
    return {"kernel": name, "simd": simd, "grf": int(grf.group(1)) if grf else 0,
            "inst": int(inst.group(1)) if inst else len(body), "sends": sends,
            "spill": int(spill.group(1)) if spill else 0, "flag_spills": flag_spills,
            "issued": issued, "loops": loops, "loops_once": once}


def compile_target(ocloc, srcdir, src, defines, target, workdir):
    dump = os.path.join(workdir, "dump")
    env = dict(os.environ, IGC_ShaderDumpEnable="1", IGC_DumpToCustomDir=dump)
    opts = "-I%s %s -DZS_FLAVOR_SG=1 -cl-std=CL2.0" % (srcdir, defines)
    cmd = [ocloc, "compile", "-file", os.path.join(srcdir, src), "-device", target,
           "-out_dir", workdir, "-output", "k", "-output_no_suffix", "-q", "-options", opts]
    res = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if res.returncode != 0:
        raise RuntimeError("ocloc failed: %s\n%s%s" % (" ".join(cmd), res.stdout, res.stderr))
    return shipped_tries(glob.glob(os.path.join(dump, "*_simd*_entry_*.asm")))


def dumped_target(dumps, prog, target):
    """The build's own assembly of a program (kernels/embed_kernels.py --isa-dir):
    the binaries the library ships, not a compile of our own."""
    files = glob.glob(os.path.join(dumps, target, prog, "*_simd*_entry_*.asm.gz"))
    if not files:
        raise RuntimeError("no assembly of %s for %s in %s (was the library built with "
                           "embed_kernels.py --isa-dir?)" % (prog, target, dumps))
    return shipped_tries(files)


def shipped_tries(asm_files):
    """Per kernel, what ships: the widest SIMD variant IGC chose, and of it the
    last try (OCL_asm<hash>_simd32_entry_N.asm is the first compile,
    OCL_asm<hash>_1_simd32_entry_N.asm IGC's retry), with the spills of the
    tries IGC threw away. Glob order is the directory's, so pick by name,
    never by order."""
    tries = {}
    for asm in asm_files:
        m = re.search(r"^OCL_asm[0-9a-f]+(?:_(\d+))?_simd\d+_entry_", os.path.basename(asm))
        r = analyse(asm)
        r["try"] = int(m.group(1) or 0) if m else 0
        tries.setdefault(r["kernel"], []).append(r)
    best = []
    for rs in tries.values():
        simd = max(r["simd"] for r in rs)
        rs = sorted((r for r in rs if r["simd"] == simd), key=lambda r: r["try"])
        final = dict(rs[-1])
        final["earlier_spill"] = max([r["spill"] for r in rs[:-1]], default=0)
        final["retried"] = len(rs) > 1
        best.append(final)
    return sorted(best, key=lambda r: r["kernel"])


# The kernels that move keys, by program: instructions per key in the summary.
SUMMARY_COLUMNS = [("cm2", "cm_bucket"), ("cm4", "cm_bucket"), ("onesweep", "os_pass"),
                   ("onesweep_k64", "os_pass"), ("onesweep_pairs", "os_pass"),
                   ("onesweep_k64_pairs64", "os_pass")]


def summary_table(summary):
    head = ["target"] + ["%s %s" % c for c in SUMMARY_COLUMNS] + [
        "spill bytes (shipped)", "spill bytes (IGC's first try, retried)"]
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for target, t in summary.items():
        cells = [target] + [t.get(c, "-") for c in SUMMARY_COLUMNS] + [str(t["spill"]),
                                                                        str(t["retry"])]
        out.append("| " + " | ".join(cells) + " |")
    return out


def kernels_of(args, srcdir, src, defines, prog, target):
    """The program's kernels on target: from the build's dump, or compiled."""
    if args.dumps:
        return dumped_target(args.dumps, prog, target)
    with tempfile.TemporaryDirectory(dir=args.tmpdir) as work:
        return compile_target(args.ocloc, srcdir, src, defines, target, work)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ocloc", default="ocloc")
    ap.add_argument("--srcdir", default=os.path.join(os.path.dirname(__file__), "..", "kernels"))
    ap.add_argument("--targets", default="skl,tgllp,dg2")
    ap.add_argument("--out")
    ap.add_argument("--programs", help="comma separated subset of program names")
    ap.add_argument("--tmpdir", help="where the work directories go (an ocloc run in a "
                    "chroot, scripts/ocloc-sid, needs them inside the clone)")
    ap.add_argument("--dumps", help="read the build's assembly (build/kernels/isa, "
                    "written by embed_kernels.py --isa-dir) instead of compiling with --ocloc")
    ap.add_argument("--fail-on-retry", action="store_true",
                    help="also fail when a kernel's first compile spilled (IGC retried it)")
    ap.add_argument("--summary", action="store_true",
                    help="one row per target instead: instructions per key of the kernels "
                         "that move keys, and spill bytes over every kernel")
    args = ap.parse_args()
    srcdir = os.path.abspath(args.srcdir)
    shapes = tuning(srcdir)
    rows, spilled, retried = [], [], []
    summary = {}  # target -> {(program, kernel): per key, "spill": bytes, "retry": bytes}
    for target in [t for t in args.targets.split(",") if t]:
        for prog, src, defines in PROGRAMS:
            if args.programs and prog not in args.programs.split(","):
                continue
            wide = int("_k64" in prog or "_pairs" in prog)
            for r in kernels_of(args, srcdir, src, defines, prog, target):
                shape = shapes.get((r["kernel"], wide))
                # keys a hardware thread handles: the work-group's keys
                # over its threads (work-items / SIMD width)
                keys = shape[0] * r["simd"] / shape[1] if shape else None
                per_key = "%.1f" % (r["issued"] / keys) if keys else "-"
                send_key = "%.3f" % (r["sends"] / keys) if keys else "-"
                earlier = "%d" % r["earlier_spill"] if r["retried"] else "-"
                rows.append(
                            "| %s | %s | %s | %d | %d | %d | %d | %d | %s | %s | %s | %d | %s | %d | %s |"
                            % (target, prog, r["kernel"], r["simd"], r["grf"], r["inst"],
                               r["issued"], r["loops"], r["loops_once"] or "-",
                               "%d" % keys if keys else "-", per_key, r["sends"], send_key,
                               r["spill"], earlier))
                t = summary.setdefault(target, {"spill": 0, "retry": 0})
                t[(prog, r["kernel"])] = per_key
                t["spill"] += r["spill"]
                t["retry"] += r["earlier_spill"] if r["retried"] else 0
                if r["spill"]:
                    spilled.append("%s/%s/%s" % (target, prog, r["kernel"]))
                elif r["earlier_spill"]:
                    retried.append("%s/%s/%s" % (target, prog, r["kernel"]))
    out = ["| target | program | kernel | SIMD | GRF | instructions | issued (loops counted) "
           "| loops | loops counted once | keys per thread | per key | sends | sends per key "
           "| spill bytes | earlier try spilled |",
           "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"] + rows
    if args.summary:
        out = summary_table(summary)
    text = "\n".join(out) + "\n"
    if args.out:
        open(args.out, "w").write(text)
    sys.stdout.write(text)
    if retried:
        sys.stderr.write("isa_report: first compile spilled, IGC retried: %s\n" % ", ".join(retried))
    if spilled:
        sys.stderr.write("isa_report: GRF spills in %s\n" % ", ".join(spilled))
    if spilled or (retried and args.fail_on_retry):
        sys.exit(1)


if __name__ == "__main__":
    try:
        main()
    except RuntimeError as e:
        sys.exit("isa_report: %s" % e)
