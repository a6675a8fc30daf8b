#!/usr/bin/env python3
"""check_portable_cl12.py CLANG KERNELS_DIR -- every program of the portable
flavor is OpenCL C 1.2 core plus the 32-bit atomics and nothing else, as any
OpenCL 1.2 GPU (NVIDIA's driver) builds it.

The programs, their defines and the flavor's come from kernels/embed_kernels.py
(the table the build embeds), the source as embedded (local headers inlined).
Each is compiled by clang for NVIDIA's OpenCL target with -cl-std=CL1.2 and
every extension off but cl_khr_{global,local}_int32_{base,extended}_atomics and
cl_khr_byte_addressable_store: a 64-bit atomic, an OpenCL C 2.0 built-in
(work_group_*, atomic_load/store), the generic address space or a sub-group
function is then an error. PoCL, which runs the portable flavor in the other
tests, would accept 64-bit atomics (it has cl_khr_int64_*_atomics), so this
check is what stands between them and a GPU without. Exit 0 when every program
compiles without an error; 77 (skip) without clang.
"""
import concurrent.futures
import os
import shutil
import subprocess
import sys

EXTENSIONS = ("-all,+cl_khr_global_int32_base_atomics,+cl_khr_global_int32_extended_atomics,"
              "+cl_khr_local_int32_base_atomics,+cl_khr_local_int32_extended_atomics,"
              "+cl_khr_byte_addressable_store")


def compile_one(clang, source, options):
    cmd = [clang, "-x", "cl", "-cl-std=CL1.2", "-target", "nvptx64-nvidia-nvcl",
           "-Xclang", "-cl-ext=" + EXTENSIONS, "-fsyntax-only", "-"] + options
    res = subprocess.run(cmd, input=source, capture_output=True, text=True)
    return res.returncode, res.stderr


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    clang, kernels = sys.argv[1], sys.argv[2]
    if not shutil.which(clang):
        print("SKIP: %s not found" % clang)
        return 77
    sys.path.insert(0, kernels)
    import embed_kernels  # the build's own table of programs and flavors

    portable = [f for f in embed_kernels.FLAVORS if f[0] == "ZS_FLAVOR_PORTABLE"]
    assert len(portable) == 1, "no portable flavor in embed_kernels.FLAVORS"
    flavor_defines = portable[0][1].split()
    jobs = []
    for enum, src, defines in embed_kernels.PROGRAMS:
        source = embed_kernels.inline_includes(os.path.join(kernels, src))
        jobs.append((enum, source, defines.split() + flavor_defines))
    failed = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        results = pool.map(lambda j: (j[0], compile_one(clang, j[1], j[2])), jobs)
        for enum, (rc, err) in results:
            if rc != 0:
                failed += 1
                print("FAIL %s:\n%s" % (enum, err.strip()[:3000]))
            else:
                print("ok   %s%s" % (enum, " (warnings: %s)" % err.strip() if err.strip() else ""))
    print("%d of %d portable programs are not plain OpenCL C 1.2" % (failed, len(jobs)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
