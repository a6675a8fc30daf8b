#!/usr/bin/env bash
# check_install.sh BUILD_DIR SOURCE_DIR ZE_DRIVER — zesort used as an installed
# library, as a user would: `meson install` into a temporary DESTDIR, the
# staged tree moved elsewhere, then, in a directory outside the source tree
# and with nothing but the moved files, PKG_CONFIG_PATH and CMAKE_PREFIX_PATH,
# build and run
#   * the README's C example (tests/examples/sort_example.c), shared and static
#     (zesort-static.pc, and pkg-config --static zesort),
#   * a C++17 translation unit that includes every public header,
#   * the README's CMake snippet (tests/install/cmake/CMakeLists.txt),
#   * the README's Level Zero interop example (tests/examples/ze_interop_example.c),
#     shared and static, on the test driver ZE_DRIVER with the validation layer,
#   * the README's OpenCL interop example (tests/examples/cl_interop_example.c) on PoCL,
#   * a program that includes zesort_cl.h first and uses the OpenCL 2.0 API
#     (tests/install/cl_api_version.c): the header must not narrow it,
# and check what is installed: files, soname, and that libzesort.so exports
# zesort_* symbols only, and that the installed README's links resolve in the
# doc dir. The staged tree is first moved elsewhere: the .pc files and the
# CMake package must find it there (relocatable).
set -euo pipefail
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
driver=$3

fail() { echo "FAIL: $*" >&2; exit 1; }
stage=$(mktemp -d /tmp/zesort-install.XXXXXX)
trap 'rm -rf "$stage"' EXIT

DESTDIR="$stage/root" meson install -C "$build" --no-rebuild --quiet >"$stage/install.log" 2>&1 ||
    { cat "$stage/install.log" >&2; fail "meson install"; }

# Relocatable: the staged tree is moved away from where it was installed, and
# everything below uses it there, found through PKG_CONFIG_PATH (the .pc
# files compute their prefix from ${pcfiledir}) and CMAKE_PREFIX_PATH (the
# CMake package from its own location) alone.
option() { # NAME: the build's value of a meson option
    python3 -c 'import json, sys
print(next(o["value"] for o in json.load(open(sys.argv[1])) if o["name"] == sys.argv[2]))' \
        "$build/meson-info/intro-buildoptions.json" "$1"
}
# (the project default; an existing build dir keeps the value it was set up with)
[ "$(option pkgconfig.relocatable)" = True ] ||
    fail "pkgconfig.relocatable is false in $build: meson configure $build -Dpkgconfig.relocatable=true"
install_prefix=$(option prefix)
moved=$stage/moved
mv "$stage/root$install_prefix" "$moved"
rm -rf "$stage/root"

pc=$(find "$moved" -name zesort.pc)
[ -n "$pc" ] || fail "zesort.pc not installed"
static_pc=$(find "$moved" -name zesort-static.pc)
[ -n "$static_pc" ] || fail "zesort-static.pc not installed"
for f in "$pc" "$static_pc" $(find "$moved" -name zesort-mpi.pc); do
    grep -q '^prefix=${pcfiledir}/' "$f" ||
        fail "$(basename "$f"): $(grep '^prefix=' "$f" || echo 'no prefix'), not relative to \${pcfiledir}"
done
# The system's .pc files without Highway's and TBB's: what a machine has that
# installed only the runtime libraries of zesort's private dependencies
# (libhwy1, not libhwy-dev). `pkg-config --libs zesort` must still answer.
mkdir "$stage/system-pc"
for d in /usr/lib/x86_64-linux-gnu/pkgconfig /usr/lib/pkgconfig /usr/share/pkgconfig; do
    [ -d "$d" ] || continue
    find "$d" -maxdepth 1 -name '*.pc' ! -name 'libhwy*' ! -name 'tbb*' -exec cp -n {} "$stage/system-pc/" \;
done
export PKG_CONFIG_LIBDIR="$stage/system-pc"
export PKG_CONFIG_PATH="$(dirname "$pc")"
prefix=$(pkg-config --variable=prefix zesort)
libdir=$(pkg-config --variable=libdir zesort)
includedir=$(pkg-config --variable=includedir zesort)
[ "$(cd "$prefix" 2>/dev/null && pwd -P)" = "$(cd "$moved" && pwd -P)" ] ||
    fail "zesort.pc: prefix is '$prefix', not the moved tree $moved"
[ -d "$libdir" ] && [ -d "$includedir" ] || fail "zesort.pc: libdir/includedir not under its prefix"
version=$(pkg-config --modversion zesort)

# ---- what is installed ----------------------------------------------------
for f in "$prefix/bin/zesort" "$prefix/bin/zesort-ze-runner" \
         "$includedir/zesort.h" "$includedir/zesort_ze.h" "$includedir/zesort_version.h" \
         "$libdir/libzesort.a" "$libdir/libzesort.so.1" "$libdir/libzesort.so.$version" \
         "$libdir/libzesort.so"; do
    [ -e "$f" ] || fail "not installed: ${f#"$moved/"}"
done
for h in "$src"/include/*.h; do
    # zesort_mpi.h comes with libzesort_mpi, which a build without MPI lacks
    [ "$(basename "$h")" != zesort_mpi.h ] || [ -e "$libdir/libzesort_mpi.so.1" ] || continue
    [ -e "$includedir/$(basename "$h")" ] || fail "public header not installed: $(basename "$h")"
done
soname=$(objdump -p "$libdir/libzesort.so.1" | awk '$1 == "SONAME" {print $2}')
[ "$soname" = libzesort.so.1 ] || fail "soname is '$soname', want libzesort.so.1"
# Each exported function carries its version node (zesort_sort@@ZESORT_1.0,
# src/libzesort.map); the nodes themselves are absolute symbols (nm: A).
exported=$(nm -D --defined-only "$libdir/libzesort.so" | awk '$2 != "A" {print $NF}')
[ -n "$exported" ] || fail "libzesort.so exports nothing"
others=$(grep -Ev '^zesort_[a-z0-9_]+@@?ZESORT_[0-9]+\.[0-9]+$' <<<"$exported" || true)
[ -z "$others" ] || fail "libzesort.so exports non-zesort_* or unversioned symbols: $(echo $others)"
nodes=$(nm -D --defined-only "$libdir/libzesort.so" | awk '$2 == "A" {print $NF}')
others=$(grep -Ev '^ZESORT_[0-9]+\.[0-9]+$' <<<"$nodes" || true)
[ -z "$others" ] || fail "libzesort.so defines other version nodes: $(echo $others)"
echo "installed: $(ls "$libdir" | grep zesort | tr '\n' ' ')+ headers, zesort.pc $version, bin/"
echo "exports: $(wc -l <<<"$exported") symbols, all zesort_*, versions $(echo $nodes)"
[ "$("$prefix/bin/zesort" --version)" = "zesort $version" ] || fail "zesort --version"

# ---- a user's programs, built outside the source tree -------------------
work=$stage/user
mkdir "$work"
cp "$src/tests/examples/sort_example.c" "$src/tests/examples/ze_interop_example.c" \
   "$src/tests/examples/cl_interop_example.c" \
   "$src/tests/install/all_headers.cpp" "$src/tests/install/cl_api_version.c" "$work/"
cd "$work"
cflags=$(pkg-config --cflags zesort) || fail "pkg-config --cflags zesort (no Highway .pc files)"
libs=$(pkg-config --libs zesort) || fail "pkg-config --libs zesort (no Highway .pc files)"
for f in zesort zesort-static; do
    fl=$(pkg-config --cflags "$f") || fail "pkg-config --cflags $f"
    ! grep -qE '(^| )-D' <<<"$fl" || fail "$f.pc puts -D flags into the user's CFLAGS: $fl"
done
pc_static_libs=$(pkg-config --static --libs zesort) || fail "pkg-config --static --libs zesort"
# Static, as the README says: zesort-static.pc, whose Libs name libzesort.a
# (`pkg-config --static zesort` keeps -lzesort, which finds the .so first).
static_libs=$(pkg-config --cflags --libs zesort-static)
warn="-Wall -Wextra -Werror"

cc -std=c11 $warn sort_example.c $cflags $libs -o sort_shared
cc -std=c11 $warn sort_example.c $cflags $static_libs -o sort_static
cc -std=c11 $warn sort_example.c $cflags $pc_static_libs -o sort_pc_static
c++ -std=c++17 $warn all_headers.cpp $cflags $libs -o all_headers
cc -std=c11 $warn ze_interop_example.c $cflags $libs -o ze_shared
cc -std=c11 $warn ze_interop_example.c $cflags $static_libs -o ze_static
cc -std=c11 $warn cl_interop_example.c $cflags $libs -o cl_shared
cc -std=c11 $warn cl_interop_example.c $cflags $static_libs -o cl_static
cc -std=c11 $warn cl_api_version.c $cflags $libs -o cl_api_version 2>cl_api_version.log ||
    { cat cl_api_version.log >&2; fail "zesort_cl.h included first hides the caller's OpenCL 2.0+ API"; }

# A program that uses only the Level Zero API needs nothing of the OpenCL
# backend: libzesort.a, the Level Zero loader, libzstd (the embedded kernels)
# and libc suffice.
cc -std=c11 $warn ze_interop_example.c $cflags "$libdir/libzesort.a" -lze_loader -lzstd -lm -pthread \
   -o ze_only 2>ze_only.log || { cat ze_only.log >&2; fail "a Level-Zero-only static link needs more than -lze_loader -lzstd"; }

needs() { objdump -p "$1" | awk '$1 == "NEEDED" {print $2}'; }
! needs ze_only | grep -q OpenCL || fail "ze_only needs libOpenCL"
needs sort_shared | grep -qx libzesort.so.1 || fail "sort_shared does not load libzesort.so.1"
# Truly static: neither a NEEDED entry (readelf) nor a library the loader
# would map (ldd, with libzesort.so findable on LD_LIBRARY_PATH) is libzesort.
for p in sort_static ze_static cl_static; do
    ! readelf -d "$p" | grep NEEDED | grep -q libzesort || fail "$p still needs libzesort.so (readelf -d)"
    ! LD_LIBRARY_PATH="$libdir" ldd "./$p" | grep -q libzesort || fail "$p still loads libzesort.so (ldd)"
done

expect="0 7 7 19 19 42 3000000000"
run_check() { # NAME EXPECTED-SUFFIX COMMAND...
    local name=$1 want=$2
    shift 2
    local out
    out=$("$@") || fail "$name exited $?: $out"
    [[ "$out" == *": $want" ]] || fail "$name printed '$out', want '...: $want'"
    echo "$name: $out"
}
run_check sort_shared "$expect" env LD_LIBRARY_PATH="$libdir" ./sort_shared
run_check sort_static "$expect" ./sort_static
run_check sort_pc_static "$expect" env LD_LIBRARY_PATH="$libdir" ./sort_pc_static
LD_LIBRARY_PATH="$libdir" ./all_headers || fail "all_headers"
# The interop example on the Level Zero test driver, validation layer on.
ze_env=(ZE_ENABLE_ALT_DRIVERS="$driver" ZE_ENABLE_VALIDATION_LAYER=1
        ZE_ENABLE_PARAMETER_VALIDATION=1 OCL_ICD_VENDORS=/etc/OpenCL/vendors/pocl.icd)
run_check ze_shared "$expect" env "${ze_env[@]}" LD_LIBRARY_PATH="$libdir" ./ze_shared
run_check ze_static "$expect" env "${ze_env[@]}" ./ze_static
run_check ze_only "$expect" env "${ze_env[@]}" ./ze_only
# The OpenCL interop example on PoCL.
run_check cl_shared "$expect" env OCL_ICD_VENDORS=/etc/OpenCL/vendors/pocl.icd LD_LIBRARY_PATH="$libdir" ./cl_shared
run_check cl_static "$expect" env OCL_ICD_VENDORS=/etc/OpenCL/vendors/pocl.icd ./cl_static
run_check cl_api_version "ZESORT_OK" env OCL_ICD_VENDORS=/etc/OpenCL/vendors/pocl.icd LD_LIBRARY_PATH="$libdir" ./cl_api_version
# CMake: the documented find_package(zesort CONFIG REQUIRED) project, found
# through CMAKE_PREFIX_PATH alone (the config file locates itself), then the
# static target and a version request that must be refused.
cmake_user() { # NAME CMAKELISTS [SOURCE]: configure and build in NAME/build
    local name=$1 lists=$2 source=${3:-sort_example.c}
    mkdir "$name"
    cp "$lists" "$name/CMakeLists.txt"
    cp "$source" "$name/"
    cmake -S "$name" -B "$name/build" -DCMAKE_PREFIX_PATH="$prefix" >"$name.log" 2>&1 &&
        cmake --build "$name/build" >>"$name.log" 2>&1
}
cmake_user cmake_user "$src/tests/install/cmake/CMakeLists.txt" ||
    { cat cmake_user.log >&2; fail "cmake: find_package(zesort CONFIG REQUIRED)"; }
run_check cmake_sort "$expect" env LD_LIBRARY_PATH="$libdir" cmake_user/build/sort_example
sed -e 's/zesort::zesort)/zesort::zesort_static)/' "$src/tests/install/cmake/CMakeLists.txt" >static.cmake
cmake_user cmake_static static.cmake || { cat cmake_static.log >&2; fail "cmake: zesort::zesort_static"; }
run_check cmake_static "$expect" cmake_static/build/sort_example
! readelf -d cmake_static/build/sort_example | grep NEEDED | grep -q libzesort ||
    fail "zesort::zesort_static still needs libzesort.so"
sed -e "s/find_package(zesort CONFIG REQUIRED)/find_package(zesort $((${version%%.*} + 1)) CONFIG REQUIRED)/" \
    "$src/tests/install/cmake/CMakeLists.txt" >newer.cmake
! cmake_user cmake_newer newer.cmake || fail "cmake: find_package(zesort $((${version%%.*} + 1))) accepted version $version"
grep -q "zesortConfigVersion.cmake\|version: $version" cmake_newer.log ||
    { cat cmake_newer.log >&2; fail "cmake: the refused version request does not name the version file"; }

# Licence, man page and examples, with the docs.
docdir="$prefix/share/doc/zesort"
for f in "$docdir/LICENSE" "$prefix/share/man/man1/zesort.1" \
         "$docdir/examples/sort_example.c" "$docdir/examples/ze_interop_example.c" \
         "$docdir/examples/cl_interop_example.c"; do
    [ -e "$f" ] || fail "not installed: ${f#"$moved/"}"
done
# The manual: every page of docs/ in the doc dir's docs/, so that each
# relative link of the installed README.md finds its file there.
for f in "$src"/docs/*.md; do
    [ -e "$docdir/docs/$(basename "$f")" ] || fail "not installed: share/doc/zesort/docs/$(basename "$f")"
done
links=$(grep -oE '\]\([^)]+\)' "$docdir/README.md" | sed -e 's/^](//' -e 's/)$//' -e 's/#.*//' |
        grep -vE '^([a-z]+:|$)' | sort -u)
[ -n "$links" ] || fail "the installed README.md has no relative links (the check reads none)"
for l in $links; do
    [ -e "$docdir/$l" ] || fail "the installed README.md links to $l, not in share/doc/zesort"
done
echo "manual: README.md's $(wc -l <<<"$links") relative links resolve in the doc dir"
# Each installed example builds with the command at its top (pkg-config).
for f in "$docdir"/examples/*.c; do
    cmd=$(sed -n 's/.*Build: *\(cc .*\)$/\1/p; s/.*Build: *\(cc .*\) \*\/$/\1/p' "$f" | head -1)
    cmd=${cmd% \*/}
    [ -n "$cmd" ] || fail "$(basename "$f") has no 'Build: cc ...' line at its top"
    (cd "$docdir/examples" && eval "$cmd -o $work/built_$(basename "$f" .c)") >build_example.log 2>&1 ||
        { cat build_example.log >&2; fail "installed $(basename "$f"): '$cmd' failed"; }
done
echo "examples: $(ls "$docdir/examples" | tr '\n' ' ')built with their own commands"

# ---- libzesort_mpi (issue 24), when built: its own library, header and .pc;
# libzesort and bin/zesort never need MPI -------------------------------------
! needs "$libdir/libzesort.so.1" | grep -qi mpi || fail "libzesort.so.1 needs MPI"
! needs "$prefix/bin/zesort" | grep -qi mpi || fail "bin/zesort needs MPI"
if [ -e "$libdir/libzesort_mpi.so.1" ]; then
    mpi_pc=$(find "$moved" -name zesort-mpi.pc)
    [ -n "$mpi_pc" ] || fail "zesort-mpi.pc not installed"
    for f in "$prefix/bin/zesort-mpi" "$includedir/zesort_mpi.h" "$libdir/libzesort_mpi.a"; do
        [ -e "$f" ] || fail "not installed: ${f#"$moved/"}"
    done
    mpi_exported=$(nm -D --defined-only "$libdir/libzesort_mpi.so.1" | awk '$2 != "A" {print $NF}')
    others=$(grep -Ev '^zesort_mpi_[a-z0-9_]+@@?ZESORT_MPI_[0-9]+\.[0-9]+$' <<<"$mpi_exported" || true)
    [ -z "$others" ] || fail "libzesort_mpi.so exports non-zesort_mpi_* or unversioned symbols: $(echo $others)"
    cp "$src/tests/examples/mpi_sort_example.c" .
    cc -std=c11 $warn mpi_sort_example.c $(pkg-config --cflags --libs zesort-mpi) -o mpi_example
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,tcp
    export OMPI_MCA_btl_tcp_if_include=lo OMPI_MCA_oob_tcp_if_include=lo OMPI_MCA_mpi_yield_when_idle=1
    run_check mpi_example "ok" env LD_LIBRARY_PATH="$libdir" \
        timeout -k 5 120 "$(command -v mpirun.openmpi || command -v mpirun)" --oversubscribe -np 2 \
        -x LD_LIBRARY_PATH ./mpi_example
    sed -e 's/zesort::zesort)/zesort::zesort_mpi)/' -e 's/sort_example.c/mpi_sort_example.c/' \
        "$src/tests/install/cmake/CMakeLists.txt" >mpi.cmake
    cmake_user cmake_mpi mpi.cmake mpi_sort_example.c || { cat cmake_mpi.log >&2; fail "cmake: zesort::zesort_mpi"; }
    echo "libzesort_mpi: zesort-mpi.pc, zesort_mpi.h, $(wc -l <<<"$mpi_exported") symbols, all zesort_mpi_*"
fi
echo "PASS"
