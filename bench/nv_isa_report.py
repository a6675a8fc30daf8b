#!/usr/bin/env python3
"""NVIDIA ISA report: what the zesort kernels become on an NVIDIA GPU, beside CUB.

zesort reaches an NVIDIA GPU through its OpenCL driver, which compiles the
embedded OpenCL C source. Two flavors run there (src/programs/kernel_select.h):
sg (nv), the sg kernels on warps through inline PTX (kernels/zesort_warp.h),
and portable. Without that driver, this script compiles the same source the
way it would be compiled, as far as Debian's tools go:

  clang-15 -target nvptx64 (OpenCL C 1.2, libclc's built-ins linked) -> PTX
  ptxas -arch=sm_90 -v                                                -> SASS

and reads per kernel: registers, spill bytes, shared memory, and the SASS
instruction count (static: the size of the kernel's code in the cubin over 16
bytes an instruction; loops count once, both sides of a branch count). Per
key: that count over the keys one warp handles in the kernel (a onesweep tile
or a CM chunk over the work-group's warps). CUB's own onesweep
(bench/cub_peer.cu) is compiled by nvcc for the same architecture beside it.

  --check   compile only, every program in both flavors, with clang-15 and
            no libclc, ptxas or nvcc: fails when a program does not compile,
            the sg (nv) programs lack the warp instructions, or a kernel
            declares more than 48 KiB of local memory (NVIDIA's limit). The test
            suite runs this (tests/meson.build, nv-ptx), so the PTX path
            cannot rot where no NVIDIA GPU or toolkit exists.

The report needs libclc-15 (Debian: /usr/lib/clc) and ptxas (CUDA: PATH or
/usr/local/cuda/bin; Debian non-free nvidia-cuda-toolkit), and nvcc for the
CUB rows: scripts/nv-isa-report installs what is missing, opt-in.
"""
import argparse
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SRCDIR = os.path.join(HERE, "..", "kernels")
LIBCLC = "/usr/lib/clc/nvptx64--nvidiacl.bc"
# NVIDIA's OpenCL C dialect: version 1.2. gnu89 inline: `inline` functions are
# also emitted out of line (C99 inline emits none), as NVIDIA's compiler does.
CLANG_FLAGS = ["-target", "nvptx64-unknown-nvidiacl", "-cl-std=CL1.2", "-Xclang",
               "-finclude-default-header", "-fgnu89-inline", "-O3", "-Werror",
               "-Xclang", "-target-cpu", "-Xclang", "sm_80", "-Xclang", "-target-feature",
               "-Xclang", "+ptx75"]
# Built as the OpenCL backend builds them for an NVIDIA GPU: its 48 KiB of
# local memory in ZS_LOCAL_MEM_BYTES (src/backends/opencl/opencl_common.c).
FLAVORS = {"sg-nv": "-DZS_FLAVOR_SG=1 -DZS_SG_NV=1 -DZS_LOCAL_MEM_BYTES=49152u",
           "portable": "-DZS_FLAVOR_SG=0 -DZS_LOCAL_MEM_BYTES=49152u"}
SHARED_LIMIT = 48 * 1024  # static shared memory a block may have on NVIDIA's OpenCL
WARP_INSTRUCTIONS = ["vote.sync.ballot.b32", "shfl.sync.idx.b32", "bar.warp.sync", "%laneid"]
# The report's programs (kernels/embed_kernels.py's defines) and the kernels
# that move keys, with the keys one work-group handles and its work-items.
REPORT = [("cm4", "cm_radix.cl", "-DRADIX_BITS=4 -DZS_KEY64=0 -DZS_PAIRS=0", "cm_bucket"),
          ("cm2", "cm_radix.cl", "-DRADIX_BITS=2 -DZS_KEY64=0 -DZS_PAIRS=0", "cm_bucket"),
          ("onesweep", "onesweep.cl", "-DZS_KEY64=0 -DZS_PAIRS=0", "os_pass"),
          ("onesweep_k64", "onesweep.cl", "-DZS_KEY64=1 -DZS_PAIRS=0", "os_pass"),
          ("onesweep_pairs", "onesweep.cl", "-DZS_KEY64=0 -DZS_PAIRS=1 -DZS_VAL64=0", "os_pass")]


def embedded_programs(srcdir):
    """Every program the library embeds: (name, source file, defines)."""
    sys.path.insert(0, srcdir)
    import embed_kernels  # pylint: disable=import-outside-toplevel
    return [(p[0], p[1], p[2]) for p in embed_kernels.PROGRAMS]


def tuning(srcdir):
    """The tuning header's plain numeric #defines (kernels/zesort_tuning.h)."""
    out = {}
    with open(os.path.join(srcdir, "zesort_tuning.h"), encoding="utf-8") as f:
        for m in re.finditer(r"#define\s+(ZS_\w+)\s+(\d+)u?\b", f.read()):
            out.setdefault(m.group(1), int(m.group(2)))
    return out


def keys_per_warp(t, kernel, defines):
    """Keys one warp handles in the kernel (the work-group's over its warps)."""
    if kernel == "cm_bucket":
        return t["ZS_CM_BATCHES"] * t["ZS_LANES"]  # one chunk a 32-lane group
    wide = "ZS_KEY64=1" in defines or "ZS_PAIRS=1" in defines
    batches = t["ZS_OS_BATCHES_WIDE"] if wide else t["ZS_OS_BATCHES_K32"]
    return batches * t["ZS_LANES"]  # a tile is OS_SUBGROUPS warps of `batches` batches


def clang_ptx(clang, srcdir, src, defines, out, libclc):
    cmd = [clang] + CLANG_FLAGS + ["-I", srcdir] + defines.split() + ["-S", "-o", out,
                                                                        os.path.join(srcdir, src)]
    if libclc:
        cmd[1:1] = ["-Xclang", "-mlink-builtin-bitcode", "-Xclang", libclc,
                    "-Wno-linker-warnings"]
    r = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if r.returncode != 0:
        raise RuntimeError("%s %s: %s" % (src, defines, r.stderr.strip()[-2000:]))
    with open(out, encoding="utf-8") as f:
        return f.read()


def shared_bytes(ptx):
    """Kernel -> bytes of the shared (OpenCL local) arrays declared in it."""
    out, kernel = {}, None
    for line in ptx.splitlines():
        m = re.search(r"\.entry (\w+)\(", line)
        if m:
            kernel = m.group(1)
            out[kernel] = 0
        m = re.search(r"\.shared .*\.b8 \S+\[(\d+)\]", line)
        if m and kernel:
            out[kernel] += int(m.group(1))
    return out


def check(args):
    failures, counts, most = 0, {w: 0 for w in WARP_INSTRUCTIONS}, (0, "")
    with tempfile.TemporaryDirectory() as work:
        for name, src, defines in embedded_programs(args.srcdir):
            for flavor, fdefs in FLAVORS.items():
                try:
                    ptx = clang_ptx(args.clang, args.srcdir, src, defines + " " + fdefs,
                                    os.path.join(work, "p.ptx"), None)
                except RuntimeError as e:
                    print("FAIL %s %s: %s" % (name, flavor, e), file=sys.stderr)
                    failures += 1
                    continue
                for kernel, size in shared_bytes(ptx).items():
                    most = max(most, (size, "%s %s %s" % (name, flavor, kernel)))
                    if size > SHARED_LIMIT:
                        print("FAIL %s %s %s: %d bytes of local memory, over %d" % (
                            name, flavor, kernel, size, SHARED_LIMIT), file=sys.stderr)
                        failures += 1
                found = {w: ptx.count(w) for w in WARP_INSTRUCTIONS}
                if flavor == "sg-nv":
                    for w, c in found.items():
                        counts[w] += c
                elif any(found.values()):
                    print("FAIL %s portable: warp instructions %s" % (name, found),
                          file=sys.stderr)
                    failures += 1
    print("nvptx64: every program compiled in the sg-nv and portable flavors; sg-nv warp "
          "instructions: " + ", ".join("%s %d" % kv for kv in counts.items()) +
          "; most local memory: %d bytes (%s), limit %d" % (most[0], most[1], SHARED_LIMIT))
    missing = [w for w, c in counts.items() if c == 0]
    if missing:
        print("FAIL: no %s in any sg-nv program" % ", ".join(missing), file=sys.stderr)
    return 1 if failures or missing else 0


def cubin_code_sizes(path):
    """Kernel name -> bytes of its code (.text.<kernel> sections of a 64-bit ELF)."""
    with open(path, "rb") as f:
        elf = f.read()
    shoff, = struct.unpack_from("<Q", elf, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", elf, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", elf, shoff + i * shentsize)
                for i in range(shnum)]
    names_off = sections[shstrndx][4]
    out = {}
    for s in sections:
        end = elf.index(b"\0", names_off + s[0])
        name = elf[names_off + s[0]:end].decode()
        if name.startswith(".text."):
            out[name[len(".text."):]] = s[5]
    return out


def ptxas_info(text):
    """Kernel name -> {registers, spill, smem} from ptxas -v."""
    out, current = {}, None
    for line in text.splitlines():
        m = re.search(r"Compiling entry function '([^']+)'", line)
        if m:
            current = out.setdefault(m.group(1), {"registers": 0, "spill": 0, "smem": 0})
            continue
        if current is None:
            continue
        m = re.search(r"(\d+) bytes spill stores, (\d+) bytes spill loads", line)
        if m:
            current["spill"] = int(m.group(1)) + int(m.group(2))
        m = re.search(r"Used (\d+) registers", line)
        if m:
            current["registers"] = int(m.group(1))
        m = re.search(r"(\d+) bytes smem", line)
        if m:
            current["smem"] = int(m.group(1))
    return out


def assemble(ptxas, arch, ptx_path, cubin):
    r = subprocess.run([ptxas, "-arch=" + arch, "-v", ptx_path, "-o", cubin],
                       capture_output=True, text=True, check=False)
    if r.returncode != 0:
        raise RuntimeError("ptxas %s: %s" % (ptx_path, r.stderr.strip()[-2000:]))
    info = ptxas_info(r.stderr + r.stdout)
    for kernel, size in cubin_code_sizes(cubin).items():
        if kernel in info:
            info[kernel]["sass"] = size // 16
    return info


def row(label, kernel, info, per_warp):
    sass = info.get("sass", 0)
    return "| %s | %s | %d | %d | %d | %d | %s | %s |" % (
        label, kernel, info["registers"], info["spill"], info["smem"], sass,
        per_warp or "-", "%.1f" % (sass / per_warp) if per_warp and sass else "-")


CUB_TILE_PROBE = r"""
#include <cub/device/device_radix_sort.cuh>
template <int Tag, int Threads, int Items> struct Tile; // undefined: nvcc prints the numbers
template <typename K, typename V, int Tag> void tile()
{
    using P = typename cub::detail::%s::policy_hub<K, V, unsigned>::Policy900::OnesweepPolicy;
    Tile<Tag, P::BLOCK_THREADS, P::ITEMS_PER_THREAD> t;
}
template void tile<unsigned, cub::NullType, 1>();
template void tile<unsigned long long, cub::NullType, 2>();
template void tile<unsigned, unsigned, 3>();
"""


def cub_keys_per_warp(args, work):
    """(key type, keys|pairs) -> keys a warp of CUB's sm_90 onesweep handles,
    read from CUB's tuning (its Policy900) through nvcc's error message."""
    probe = os.path.join(work, "tile.cu")
    for namespace in ("radix", "radix_sort"):
        with open(probe, "w", encoding="utf-8") as f:
            f.write(CUB_TILE_PROBE % namespace)
        r = subprocess.run([args.nvcc, "-arch=" + args.arch, "-std=c++17", "-c", probe, "-o",
                            os.devnull], capture_output=True, text=True, check=False)
        found = re.findall(r"Tile<(\d), (\d+), (\d+)>", r.stderr + r.stdout)
        if found:
            names = {"1": ("u32", "keys"), "2": ("u64", "keys"), "3": ("u32", "pairs")}
            return {names[t]: int(items) * 32 for t, _threads, items in found}
    return {}


def cub_rows(args, work):
    src = os.path.join(HERE, "cub_peer.cu")
    cubin = os.path.join(work, "cub.cubin")
    r = subprocess.run([args.nvcc, "-arch=" + args.arch, "-cubin", "-O3", "-std=c++17",
                        "-Xptxas", "-v", src, "-o", cubin],
                       capture_output=True, text=True, check=False)
    if r.returncode != 0:
        return ["| CUB | (nvcc failed: %s) | | | | | | |" % r.stderr.strip()[-200:]]
    info = ptxas_info(r.stderr + r.stdout)
    for kernel, size in cubin_code_sizes(cubin).items():
        if kernel in info:
            info[kernel]["sass"] = size // 16
    per_warp = cub_keys_per_warp(args, work)
    out = []
    for kernel, i in sorted(info.items()):
        m = re.search(r"DeviceRadixSort(Onesweep|Histogram)Kernel.*?policy_hubI(\w)(\w)", kernel)
        if not m:
            continue
        key = {"j": "u32", "m": "u64"}.get(m.group(2))
        pairs = "keys" if m.group(3) == "N" else "pairs"
        if key and (key, pairs) != ("u64", "pairs"):  # zesort's report rows only
            onesweep = m.group(1) == "Onesweep"
            out.append(row("CUB %s %s" % (key, pairs), m.group(1).lower(), i,
                           per_warp.get((key, pairs)) if onesweep else None))
    return out


def report(args):
    t = tuning(args.srcdir)
    lines = ["# zesort on NVIDIA: PTX from clang-15 (nvptx64, OpenCL C 1.2, libclc), "
             "SASS from ptxas -arch=%s" % args.arch, "",
             "| program / flavor | kernel | registers | spill bytes | shared bytes | "
             "SASS instructions (static) | keys a warp | static per key |",
             "|---|---|---|---|---|---|---|---|"]
    with tempfile.TemporaryDirectory() as work:
        for name, src, defines, kernel in REPORT:
            for flavor, fdefs in FLAVORS.items():
                ptx = os.path.join(work, "%s-%s.ptx" % (name, flavor))
                clang_ptx(args.clang, args.srcdir, src, defines + " " + fdefs, ptx, args.libclc)
                info = assemble(args.ptxas, args.arch, ptx, ptx + ".cubin")
                if kernel in info:
                    lines.append(row("%s %s" % (name, flavor), kernel, info[kernel],
                                     keys_per_warp(t, kernel, defines)))
        if args.nvcc:
            lines += cub_rows(args, work)
        else:
            lines.append("| CUB | (no nvcc) | | | | | | |")
    text = "\n".join(lines) + "\n"
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text)
    sys.stdout.write(text)
    return 0


def find_tool(name, override):
    if override:
        return override
    return shutil.which(name) or next((p for p in ("/usr/local/cuda/bin/" + name,)
                                       if os.access(p, os.X_OK)), None)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="compile only (the test)")
    ap.add_argument("--srcdir", default=SRCDIR)
    ap.add_argument("--clang", default="clang-15")
    ap.add_argument("--libclc", default=LIBCLC)
    ap.add_argument("--ptxas")
    ap.add_argument("--nvcc")
    ap.add_argument("--arch", default="sm_90")
    ap.add_argument("--out")
    args = ap.parse_args()
    if args.check:
        return check(args)
    args.ptxas = find_tool("ptxas", args.ptxas)
    args.nvcc = find_tool("nvcc", args.nvcc)
    if not args.ptxas or not os.path.exists(args.libclc):
        print("needs ptxas and %s: scripts/nv-isa-report --install" % args.libclc,
              file=sys.stderr)
        return 2
    return report(args)


if __name__ == "__main__":
    sys.exit(main())
