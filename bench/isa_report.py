#!/usr/bin/env python3
"""ISA report: what Intel's compiler makes of every zesort kernel, per target.

For each program (cm2, cm4, onesweep, seg, scan) compiled as the embedded native binaries are
(sg flavor), and each Intel target, this runs `ocloc compile` with IGC's shader
dump on and reads, per kernel: SIMD width, GRF count, instruction count, send
(memory message) count, GRF spill bytes and flag spills. Per-key figures divide
by the keys a hardware thread handles (256 for the CM kernels; IGC unrolls the
8-batch loop fully, so "per batch" is the kernel's count / 8).

IGC retries: when a kernel's first compile spills, IGC compiles it again
with less aggressive settings (among them: private arrays stay in private
memory instead of being promoted to registers) and ships the retry. The dump
holds both, the retry's files named *_1_simd*. The table gives the shipped
(last) try, and the column "earlier try spilled" the spill bytes of the tries
IGC threw away: a retry is no spill-free kernel, only spills by another name
(scratch traffic for private arrays, lost optimizations). Before this column
the report kept whichever try the directory listed first.

Output: a Markdown table on stdout (or --out FILE). Exit status 1 if any
shipped kernel spills GRF on any target, and with --fail-on-retry also if IGC
had to retry one (listed on stderr either way; flag-register spills are
reported, not failed).
"""
import argparse
import glob
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
PROGRAMS.append(("scan", "scan.cl", ""))
# Keys one hardware thread (one 32-lane sub-group) handles per launch: a CM
# chunk, or a onesweep sub-group's share of a 2048-key tile.
KEYS_PER_THREAD = {"cm_count": 256, "cm_bucket": 256, "os_histogram": 256, "os_pass": 256}
# onesweep programs with 64-bit keys or pairs use 4 batches (kernels/onesweep.cl)
def batches_of(prog):
    return 4 if prog.startswith("onesweep_") else BATCHES
BATCHES = 8


def analyse(asm_path):
    text = open(asm_path, encoding="utf-8", errors="replace").read()
    name = re.search(r"^//\.kernel (\S+)", text, re.M).group(1)
    simd = int(re.search(r"_simd(\d+)_", os.path.basename(asm_path)).group(1))
    grf = re.search(r"numGRF=(\d+)", text)
    inst = re.search(r"^//\.instCount (\d+)", text, re.M)
    spill = re.search(r"^//\.spill size (\d+)", text, re.M)
    flag_spills = sum(int(x) for x in re.findall(r"^//\.spill flag (?:store|load) (\d+)", text, re.M))
    body = [l for l in text.splitlines() if l.strip() and not l.lstrip().startswith("//")
            and not re.match(r"^\s*L\d+:", l)]
    # memory messages: send/sends/sendc, and the LSC forms IGC 2.x prints by
    # name (load.ugm..., store.slm..., atomic_iinc.slm...), which it never
    # spells "send" and the count missed
    sends = sum(1 for l in body if re.search(r"\bsends?c?\.", l) or re.search(r"\bsends?c?\s", l)
                or re.search(r"^\s*(?:\([^)]*\)\s*)*(?:load|store|atomic)\w*\.(?:ugm|ugml|slm|tgm|scratch)\b", l))
    return {"kernel": name, "simd": simd, "grf": int(grf.group(1)) if grf else 0,
            "inst": int(inst.group(1)) if inst else len(body), "sends": sends,
            "spill": int(spill.group(1)) if spill else 0, "flag_spills": flag_spills}


def compile_target(ocloc, srcdir, src, defines, target, workdir):
    dump = os.path.join(workdir, "dump")
    env = dict(os.environ, IGC_ShaderDumpEnable="1", IGC_DumpToCustomDir=dump)
    opts = "-I%s %s -DZS_FLAVOR_SG=1 -cl-std=CL2.0" % (srcdir, defines)
    cmd = [ocloc, "compile", "-file", os.path.join(srcdir, src), "-device", target,
           "-out_dir", workdir, "-output", "k", "-output_no_suffix", "-q", "-options", opts]
    res = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if res.returncode != 0:
        raise RuntimeError("ocloc failed: %s\n%s%s" % (" ".join(cmd), res.stdout, res.stderr))
    # keep the widest SIMD variant IGC chose for each kernel, and of it the
    # last try (OCL_asm<hash>_simd32_entry_N.asm is the first compile,
    # OCL_asm<hash>_1_simd32_entry_N.asm IGC's retry); glob order is the
    # directory's, so pick by name, never by order
    tries = {}
    for asm in glob.glob(os.path.join(dump, "*_simd*_entry_*.asm")):
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
                   ("onesweep_k64", "os_pass"), ("onesweep_k64_pairs", "os_pass"),
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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ocloc", default="ocloc")
    ap.add_argument("--srcdir", default=os.path.join(os.path.dirname(__file__), "..", "kernels"))
    ap.add_argument("--targets", default="skl,tgllp,dg2")
    ap.add_argument("--out")
    ap.add_argument("--programs", help="comma separated subset of program names")
    ap.add_argument("--tmpdir", help="where the work directories go (an ocloc run in a "
                    "chroot, scripts/ocloc-sid, needs them inside the clone)")
    ap.add_argument("--fail-on-retry", action="store_true",
                    help="also fail when a kernel's first compile spilled (IGC retried it)")
    ap.add_argument("--summary", action="store_true",
                    help="one row per target instead: instructions per key of the kernels "
                         "that move keys, and spill bytes over every kernel")
    args = ap.parse_args()
    srcdir = os.path.abspath(args.srcdir)
    rows, spilled, retried = [], [], []
    summary = {}  # target -> {(program, kernel): per key, "spill": bytes, "retry": bytes}
    for target in [t for t in args.targets.split(",") if t]:
        for prog, src, defines in PROGRAMS:
            if args.programs and prog not in args.programs.split(","):
                continue
            with tempfile.TemporaryDirectory(dir=args.tmpdir) as work:
                for r in compile_target(args.ocloc, srcdir, src, defines, target, work):
                    keys = KEYS_PER_THREAD.get(r["kernel"])
                    if keys and r["kernel"].startswith("os_"):
                        keys = batches_of(prog) * 32
                    per_key = "%.1f" % (r["inst"] / keys) if keys else "-"
                    per_batch = "%d" % round(r["inst"] / (keys // 32)) if keys else "-"
                    send_key = "%.3f" % (r["sends"] / keys) if keys else "-"
                    earlier = "%d" % r["earlier_spill"] if r["retried"] else "-"
                    rows.append("| %s | %s | %s | %d | %d | %d | %s | %s | %d | %s | %d | %s |" % (
                        target, prog, r["kernel"], r["simd"], r["grf"], r["inst"], per_batch,
                        per_key, r["sends"], send_key, r["spill"], earlier))
                    t = summary.setdefault(target, {"spill": 0, "retry": 0})
                    t[(prog, r["kernel"])] = per_key
                    t["spill"] += r["spill"]
                    t["retry"] += r["earlier_spill"] if r["retried"] else 0
                    if r["spill"]:
                        spilled.append("%s/%s/%s" % (target, prog, r["kernel"]))
                    elif r["earlier_spill"]:
                        retried.append("%s/%s/%s" % (target, prog, r["kernel"]))
    out = ["| target | program | kernel | SIMD | GRF | instructions | per batch of 32 | per key "
           "| sends | sends per key | spill bytes | earlier try spilled |",
           "|---|---|---|---|---|---|---|---|---|---|---|---|"] + rows
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
    main()
