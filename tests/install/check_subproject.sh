#!/usr/bin/env bash
# check_subproject.sh SOURCE_DIR — zesort as a meson subproject of a user's
# project: subprojects/zesort is this source tree, dependency('zesort') is
# satisfied by meson.override_dependency in src/meson.build, and the README's
# C example is built against it and run. The subproject is configured as a
# library-only build for one Intel target, to keep the test short.
set -euo pipefail
src=$(cd "$1" && pwd)
fail() { echo "FAIL: $*" >&2; exit 1; }
work=$(mktemp -d /tmp/zesort-subproject.XXXXXX)
trap 'rm -rf "$work"' EXIT

mkdir -p "$work/user/subprojects"
ln -s "$src" "$work/user/subprojects/zesort"
cp "$src/tests/examples/sort_example.c" "$work/user/"
cat >"$work/user/meson.build" <<'MESON'
project('user', 'c', default_options: ['c_std=c11', 'warning_level=2', 'werror=true'])
zesort_dep = dependency('zesort', fallback: 'zesort')
executable('sort_example', 'sort_example.c', dependencies: zesort_dep)
MESON
cd "$work/user"
meson setup build -Dzesort:intel_targets=skl -Dzesort:tests=disabled -Dzesort:cli=false \
    -Dzesort:ze_runner=false -Dzesort:boost_peer=disabled >"$work/setup.log" 2>&1 ||
    { cat "$work/setup.log" >&2; fail "meson setup of the user's project"; }
# A library-only build looks for none of the test tools.
if grep -E "dependency check|llvm-spirv|spirv-val|Checking for .*check" "$work/setup.log"; then
    fail "a -Dtests=disabled build looked for a test-only tool (above)"
fi
ninja -C build sort_example >"$work/build.log" 2>&1 ||
    { tail -30 "$work/build.log" >&2; fail "building the user's project"; }
out=$(build/sort_example) || fail "sort_example exited $?"
[[ "$out" == *": 0 7 7 19 19 42 3000000000" ]] || fail "sort_example printed '$out'"
echo "subproject: $out"
echo PASS
