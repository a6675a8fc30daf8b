#!/usr/bin/env python3
"""Compile every zesort kernel variant with ocloc and embed the results in C.

For each program (cm2, cm4, scan, onesweep, seg, sel) and flavor (sg, portable) this
makes the SPIR-V (ocloc -spv_only), and for the sg flavor a native binary per
Intel target; the serial flavor only gets build options (source builds). It
writes one C file with the byte arrays, the OpenCL C source of each
program (local #includes inlined, for devices that build from source), and the
lookup tables declared in src/programs/kernel_blobs.h. Any ocloc failure fails the build.
"""
import argparse
import concurrent.futures
import collections
import glob
import gzip
import os
import struct
import re
import shutil
import subprocess
import sys
import tempfile
import time
import zlib

# (enum, source file, defines), in the order of zs_program (src/plan/plan.h):
# CM program index = (bits == 4) | key64 << 1 | vals << 2, then SCAN, then
# onesweep (key64 | vals << 1), then seg (the same); vals: 0 keys only, 1 u32 values, 2 u64 values.
VALUES = [("", "-DZS_PAIRS=0"), ("_PAIRS", "-DZS_PAIRS=1 -DZS_VAL64=0"),
          ("_PAIRS64", "-DZS_PAIRS=1 -DZS_VAL64=1")]
PROGRAMS = []
for _vsuffix, _vdefs in VALUES:
    for _key64 in (0, 1):
        for _bits in (2, 4):
            PROGRAMS.append(("ZS_PROG_CM%d%s%s" % (_bits, "_K64" if _key64 else "", _vsuffix),
                             "cm_radix.cl",
                             "-DRADIX_BITS=%d -DZS_KEY64=%d %s" % (_bits, _key64, _vdefs)))
PROGRAMS.append(("ZS_PROG_SCAN", "scan.cl", ""))
for _vsuffix, _vdefs in VALUES:
    for _key64 in (0, 1):
        PROGRAMS.append(("ZS_PROG_OS%s%s" % ("_K64" if _key64 else "", _vsuffix),
                         "onesweep.cl", "-DZS_KEY64=%d %s" % (_key64, _vdefs)))
# then the segmented sort, numbered like onesweep
for _vsuffix, _vdefs in VALUES:
    for _key64 in (0, 1):
        PROGRAMS.append(("ZS_PROG_SEG%s%s" % ("_K64" if _key64 else "", _vsuffix),
                         "segsort.cl", "-DZS_KEY64=%d %s" % (_key64, _vdefs)))
# then the top-k radix select, numbered like onesweep
for _vsuffix, _vdefs in VALUES:
    for _key64 in (0, 1):
        PROGRAMS.append(("ZS_PROG_SEL%s%s" % ("_K64" if _key64 else "", _vsuffix),
                         "select.cl", "-DZS_KEY64=%d %s" % (_key64, _vdefs)))
# (enum, defines, OpenCL C version for ocloc, embedded as SPIR-V and native
# binaries). The serial and sg (nv) flavors are built from source only: for
# CPU OpenCL devices (PoCL) and NVIDIA's OpenCL (inline PTX), which take source. The version is not part of the run-time
# options (zs_program_options): an OpenCL device that builds the sg source
# may need another one (PoCL 6 takes CL3.0 with sub-groups, not CL2.0), so the
# OpenCL backend asks zs_flavor_cl_std (kernel_select.c) for the device's.
FLAVORS = [("ZS_FLAVOR_SG", "-DZS_FLAVOR_SG=1", "-cl-std=CL2.0", True),
           ("ZS_FLAVOR_PORTABLE", "-DZS_FLAVOR_SG=0", "-cl-std=CL1.2", True),
           ("ZS_FLAVOR_SERIAL", "-DZS_FLAVOR_SG=0 -DZS_SERIAL=1", "-cl-std=CL1.2", False),
           ("ZS_FLAVOR_SG_NV", "-DZS_FLAVOR_SG=1 -DZS_SG_NV=1", "-cl-std=CL1.2", False)]


def inline_includes(path, seen=None):
    """Return the source of `path` with #include "local.h" lines replaced by the file."""
    seen = seen if seen is not None else set()
    out = []
    base = os.path.dirname(path)
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
            if m:
                inc = os.path.join(base, m.group(1))
                if inc not in seen:
                    seen.add(inc)
                    out.append(inline_includes(inc, seen))
                continue
            out.append(line)
    return "".join(out)


def isa_name(prog):
    """The program's name in the ISA report (bench/isa_report.py): ZS_PROG_OS_K64
    is onesweep_k64, ZS_PROG_CM2_PAIRS cm2_pairs."""
    name = prog[len("ZS_PROG_"):].lower()
    return "onesweep" + name[2:] if name.startswith("os") else name


def ocloc_compile(ocloc, src, device, options, outdir, name, spv_only, isa_dir=None):
    """The binary ocloc makes. With isa_dir, IGC's shader dump is on and the
    kernels' assembly (*_simd*_entry_*.asm, every try) goes to isa_dir, gzipped: the
    ISA check reads the very compile that ships instead of compiling again."""
    cmd = [ocloc, "compile", "-file", src, "-device", device, "-out_dir", outdir,
           "-output", name, "-output_no_suffix", "-q", "-options", options]
    if spv_only:
        cmd.insert(2, "-spv_only")
    env = None
    if isa_dir:
        dump = os.path.join(outdir, name + ".dump")
        env = dict(os.environ, IGC_ShaderDumpEnable="1", IGC_DumpToCustomDir=dump)
    res = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if isa_dir and res.returncode == 0:
        os.makedirs(isa_dir, exist_ok=True)
        for asm in glob.glob(os.path.join(dump, "*_simd*_entry_*.asm")):
            # (a megabyte of text a program; a tenth of it compressed)
            with open(asm, "rb") as f_in, gzip.open(
                    os.path.join(isa_dir, os.path.basename(asm) + ".gz"), "wb", 1) as f_out:
                shutil.copyfileobj(f_in, f_out)
    if isa_dir:
        shutil.rmtree(dump, ignore_errors=True)
    # ocloc 22.x writes NAME, 26.x NAME.bin despite -output_no_suffix
    candidates = [name + ".spv"] if spv_only else [name, name + ".bin"]
    paths = [os.path.join(outdir, c) for c in candidates if os.path.exists(os.path.join(outdir, c))]
    if res.returncode != 0 or not paths:
        raise RuntimeError("ocloc failed (%s):\n%s%s" % (" ".join(cmd), res.stdout, res.stderr))
    with open(paths[0], "rb") as f:
        return f.read()


def c_bytes(data):
    lines = []
    for i in range(0, len(data), 20):
        lines.append("    " + ",".join(str(b) for b in data[i:i + 20]) + ",")
    return "\n".join(lines) if lines else "    0,"


def zebin_ip_version(data):
    """The IP version a native binary's compatibility notes name (the
    .note.intelgt.compat section, note type 6, which ocloc 26 writes), or 0:
    the library skips a binary whose IP version is not its device's without
    decompressing it."""
    if len(data) < 64 or data[:4] != b"\x7fELF" or data[4] != 2:
        return 0
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    if shoff + shnum * shentsize > len(data) or shstrndx >= shnum:
        return 0
    def section(i):
        name, _type, _flags, _addr, off, size = struct.unpack_from("<IIQQQQ", data,
                                                                   shoff + i * shentsize)
        return name, off, size
    _n, names_off, _s = section(shstrndx)
    for i in range(shnum):
        name, off, size = section(i)
        end = data.find(b"\0", names_off + name)
        if data[names_off + name:end] != b".note.intelgt.compat":
            continue
        at = off
        while at + 12 <= off + size:
            namesz, descsz, ntype = struct.unpack_from("<III", data, at)
            desc = at + 12 + (namesz + 3 & ~3)
            if ntype == 6 and descsz == 4 and data[at + 12:at + 12 + namesz] == b"IntelGT\0":
                return struct.unpack_from("<I", data, desc)[0]
            at = desc + (descsz + 3 & ~3)
    return 0


def crc32(data):
    """CRC-32 (zlib's): the check kernel_frames.c repeats on the decompressed frame."""
    return zlib.crc32(data) & 0xFFFFFFFF


def zstd_compress(zstd, data, dictionary=None, level=19):
    """zstd with the frame's own XXH64 content checksum (--check), and
    `dictionary` (a file of raw bytes) as the frame's raw-content dictionary."""
    cmd = [zstd, "-%d" % level, "--check", "-q", "-c", "--stream-size=%d" % len(data)]
    if dictionary:
        cmd += ["-D", dictionary]
    res = subprocess.run(cmd, input=data, capture_output=True)
    if res.returncode != 0:
        raise RuntimeError("zstd failed: %s" % res.stderr.decode(errors="replace"))
    return res.stdout


def frame_of(target, flavor):
    """The frame a blob is stored in: what one device needs together."""
    if target != "spirv":
        return target
    return "spirv-sg" if flavor == "ZS_FLAVOR_SG" else "spirv-portable"


def wait_reporting(futures, jobs, every_s=5.0):
    """The results in job order. The build runs this in ninja's console pool,
    so a line every few seconds says how far the kernels are: a first build
    compiles for minutes and must not look stuck."""
    start = last = time.monotonic()
    done = 0
    for f in concurrent.futures.as_completed(futures):
        f.result()
        done += 1
        now = time.monotonic()
        if now - last >= every_s or done == len(futures):
            last = now
            print("kernels: %d of %d binaries compiled (%.0f s)" % (done, len(jobs), now - start),
                  flush=True)
    return [f.result() for f in futures]


class Frames(list):
    """The frames (dicts: name, data) plus where each blob and source lies."""
    where = None          # blob index -> (frame index, offset)
    source_offset = None  # source file -> offset in the source frame
    source_frame = None


def collect_frames(jobs, blobs, sources):
    """Concatenates the blobs of each frame (frame_of) and the sources, each
    NUL-terminated, into one more frame. A frame equal to an earlier one (kbl's
    binaries are skl's, adl-s's are rkl's) is stored once, under both names."""
    grouped = collections.OrderedDict()
    for i, (_prog, flavor, target, *_rest) in enumerate(jobs):
        grouped.setdefault(frame_of(target, flavor), []).append(i)
    frames = Frames()
    frames.where = {}
    by_data = {}
    for name, members in grouped.items():
        data, offsets = bytearray(), []
        for i in members:
            offsets.append(len(data))
            data += blobs[i]
        data = bytes(data)
        if data in by_data:
            idx = by_data[data]
            frames[idx]["name"] += "/" + name
        else:
            idx = by_data[data] = len(frames)
            frames.append({"name": name, "data": data})
        for i, off in zip(members, offsets):
            frames.where[i] = (idx, off)
    text, frames.source_offset = bytearray(), {}
    for src, body in sorted(sources.items()):
        frames.source_offset[src] = len(text)
        text += body.encode("utf-8") + b"\0"
    frames.source_frame = len(frames)
    frames.append({"name": "source", "data": bytes(text)})
    return frames


MAX_CHAIN = 3  # frames decompressed before a frame, at most: its dictionary's own and so on


def compress_frames(zstd, frames, tmpdir):
    """Compresses every frame; sets frame["dict"]. Every native binary holds the
    SPIR-V it was compiled from, and the binaries of related targets (tgllp,
    rkl, adl-s, dg1) differ in a few bytes: so each native frame, and the
    portable SPIR-V, takes as its raw-content dictionary whichever of the sg
    SPIR-V frame and the native frames before it compresses it smallest (tried
    at a fast level), with at most MAX_CHAIN frames to decompress before it."""
    sg = next(i for i, f in enumerate(frames) if f["name"] == "spirv-sg")
    depth = {sg: 0}
    for f in frames:
        f["dict"] = -1
    with tempfile.TemporaryDirectory(dir=tmpdir) as tmp, \
            concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        def dict_path(i):
            path = os.path.join(tmp, "frame%d" % i)
            if not os.path.exists(path):
                with open(path, "wb") as out:
                    out.write(frames[i]["data"])
            return path
        try:
            for idx, frame in enumerate(frames):
                if idx == sg or frame["name"] == "source":
                    continue
                candidates = [c for c in depth if depth[c] < MAX_CHAIN]
                sizes = pool.map(lambda c: len(zstd_compress(zstd, frame["data"], dict_path(c),
                                                             level=3)), candidates)
                best = min(zip(sizes, candidates))[1]
                frame["dict"] = best
                depth[idx] = depth[best] + 1
            return list(pool.map(
                lambda f: zstd_compress(zstd, f["data"],
                                        dict_path(f["dict"]) if f["dict"] >= 0 else None),
                frames))
        except RuntimeError as e:
            sys.exit("embed_kernels: %s" % e)


def isa_dir_of(isa_dir, job):
    """Where a job's assembly goes: native binaries only (the SPIR-V has none)."""
    prog, _flavor, target, _src, _device, _options, spv_only, _ocloc = job
    return None if not isa_dir or spv_only else os.path.join(isa_dir, target, isa_name(prog))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ocloc", required=True)
    ap.add_argument("--srcdir", required=True)
    ap.add_argument("--targets", required=True, help="comma separated ocloc targets")
    ap.add_argument("--ocloc-new", help="a newer ocloc (scripts/ocloc-sid: Debian sid's) "
                    "that builds --targets-new; every other target is built by --ocloc")
    ap.add_argument("--targets-new", default="",
                    help="comma separated targets for --ocloc-new (one ocloc per target: "
                         "the newest that knows it)")
    ap.add_argument("--zstd", default="zstd", help="the zstd command that compresses the frames")
    ap.add_argument("--out", required=True)
    ap.add_argument("--progress", action="store_true",
                    help="a line every few seconds on how many binaries are compiled")
    ap.add_argument("--isa-dir", help="keep IGC's assembly of every native binary here, "
                    "as ISA_DIR/TARGET/PROGRAM/*.asm.gz (bench/isa_report.py --dumps reads it)")
    ap.add_argument("--defines", default="",
                    help="extra -D options for every program (tests: a retuned "
                         "zesort_tuning.h; the library must be built with the same)")
    args = ap.parse_args()
    targets_new = [t for t in args.targets_new.split(",") if t] if args.ocloc_new else []
    targets = [t for t in args.targets.split(",") if t and t not in targets_new] + targets_new
    if not targets:
        sys.exit("embed_kernels: intel_targets is empty")
    compiler = {t: args.ocloc_new if t in targets_new else args.ocloc for t in targets}

    jobs = []  # (program enum, flavor enum, target, src, device, options, spv_only, ocloc)
    for prog, src, defines in PROGRAMS:
        src_path = os.path.join(args.srcdir, src)
        for flavor, flavor_defines, cl_std, embedded in FLAVORS:
            if not embedded:
                continue
            opts = "-I%s %s %s %s %s" % (args.srcdir, defines, flavor_defines, cl_std,
                                         args.defines)
            jobs.append((prog, flavor, "spirv", src_path, "skl", opts, True, args.ocloc))
            if flavor == "ZS_FLAVOR_SG":
                for t in targets:
                    jobs.append((prog, flavor, t, src_path, t, opts, False, compiler[t]))

    if args.isa_dir:  # no assembly of an earlier build left beside this one's
        shutil.rmtree(args.isa_dir, ignore_errors=True)
    # next to the output: an ocloc run in a chroot (scripts/ocloc-sid) sees
    # the build tree, not /tmp
    with tempfile.TemporaryDirectory(dir=os.path.dirname(os.path.abspath(args.out))) as tmp:
        with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
            futures = [pool.submit(ocloc_compile, j[7], j[3], j[4], j[5], tmp,
                                   "k%d" % i, j[6], isa_dir_of(args.isa_dir, j))
                       for i, j in enumerate(jobs)]
            try:
                blobs = (wait_reporting(futures, jobs) if args.progress
                         else [f.result() for f in futures])
            except RuntimeError as e:
                sys.exit("embed_kernels: %s" % e)

    sources = {}
    for prog, src, defines in PROGRAMS:
        sources.setdefault(src, inline_includes(os.path.join(args.srcdir, src)))
    frames = collect_frames(jobs, blobs, sources)
    packed = compress_frames(args.zstd, frames, os.path.dirname(os.path.abspath(args.out)))
    out = ['/* Generated by kernels/embed_kernels.py — do not edit. */',
           '#include "programs/kernel_blobs.h"', '#include <string.h>', '']
    for idx, (frame, z) in enumerate(zip(frames, packed)):
        out.append("/* %s: %d bytes, %d compressed%s */"
                   % (frame["name"], len(frame["data"]), len(z),
                      ", dictionary %s" % frames[frame["dict"]]["name"] if frame["dict"] >= 0
                      else ""))
        out.append("static const unsigned char frame_%d[] = {\n%s\n};" % (idx, c_bytes(z)))
    out.append("\nconst zs_frame zs_frames[] = {")
    for idx, (frame, z) in enumerate(zip(frames, packed)):
        out.append('    {"%s", frame_%d, %d, %d, 0x%08xu, %d},'
                   % (frame["name"], idx, len(z), len(frame["data"]), crc32(frame["data"]),
                      frame["dict"]))
    out.append("};")
    out.append("const size_t zs_frame_count = sizeof(zs_frames) / sizeof(zs_frames[0]);")
    out.append("_Atomic(const unsigned char *) zs_frame_cache[%d];" % len(frames))

    out.append("\nconst zs_blob zs_blobs[] = {")
    for i, (prog, flavor, target, *_rest) in enumerate(jobs):
        frame, offset = frames.where[i]
        ip = zebin_ip_version(blobs[i]) if target != "spirv" else 0
        out.append('    {%s, %s, "%s", %d, %d, %d, 0x%08xu},' % (prog, flavor, target, frame,
                                                               offset, len(blobs[i]), ip))
    out.append("};")
    out.append("const size_t zs_blob_count = sizeof(zs_blobs) / sizeof(zs_blobs[0]);")
    out.append('const char zs_aot_target_list[] = "%s";' % ",".join(targets))

    # Where each program's OpenCL C source starts in the source frame (read
    # by kernel_frames.c: this file holds data only, so that it calls nothing).
    out.append("\nconst unsigned zs_source_frame = %d;" % frames.source_frame)
    out.append("const size_t zs_source_offset[ZS_PROG_COUNT] = {")
    for prog, src, _ in PROGRAMS:
        out.append("    [%s] = %d," % (prog, frames.source_offset[src]))
    out.append("};")

    out.append("\nconst char *zs_program_options(zs_program program, zs_flavor flavor)\n{")
    for prog, _src, defines in PROGRAMS:
        for flavor, flavor_defines, _cl_std, _embedded in FLAVORS:
            out.append('    if (program == %s && flavor == %s) return "%s";'
                       % (prog, flavor, " ".join(x for x in (defines, flavor_defines,
                                                             args.defines) if x)))
    out.append("    return NULL;\n}")

    out.append("""
const zs_blob *zs_find_blob(zs_program program, zs_flavor flavor, const char *target)
{
    for (size_t i = 0; i < zs_blob_count; ++i)
        if (zs_blobs[i].program == program && zs_blobs[i].flavor == flavor &&
            strcmp(zs_blobs[i].target, target) == 0)
            return &zs_blobs[i];
    return NULL;
}""")
    with open(args.out, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
