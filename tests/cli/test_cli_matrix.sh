#!/usr/bin/env bash
# test_cli_matrix.sh ZESORT BACKEND — the sort matrices of the `zesort` CLI on
# one backend (cpu, opencl or level-zero), results checked by
# tests/cli/keyfile.py: u32 sorts per algorithm, scan mode and size (tile
# edges), every key type with --values, --descending and --bits per algorithm,
# and the narrow types. They were test_cli.sh's loops over every backend; one
# meson test per backend lets `meson test` run them side by side.
# Ends with "N passed, N failed"; exits non-zero when anything failed, 77
# (skipped) when BACKEND is not available here.
set -u

Z=${1:?usage: test_cli_matrix.sh PATH/TO/zesort BACKEND}
backend=${2:?usage: test_cli_matrix.sh PATH/TO/zesort BACKEND}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=report.sh
source "$HERE/report.sh"
cli_test_start "cli-$backend"

# Environment for zesort (set for the level-zero backend only).
ZENV=()
case $backend in
  cpu) ;;
  opencl)
    "$Z" info 2>/dev/null | grep -q '^backends:.*opencl' ||
        { echo "# no opencl backend here: skipped"; exit 77; } ;;
  level-zero)
    ZE_DRIVER="$(dirname "$Z")/tests/ze_cl_driver/libze_cl_driver.so"
    if [ ! -f "$ZE_DRIVER" ] ||
        ! ZE_ENABLE_ALT_DRIVERS="$ZE_DRIVER" "$Z" info 2>/dev/null | grep -q '^backends:.*level-zero'; then
        echo "# no level-zero backend on the test driver here: skipped"
        exit 77
    fi
    ZENV=(ZE_ENABLE_ALT_DRIVERS="$ZE_DRIVER"
          ZE_ENABLE_VALIDATION_LAYER=1 ZE_ENABLE_PARAMETER_VALIDATION=1) ;;
  *) echo "test_cli_matrix.sh: unknown backend $backend" >&2; exit 2 ;;
esac
# run ARGS...: runs zesort, sets $rc, stdout in $T/out, stderr in $T/err.
run() {
    env "${ZENV[@]}" "$Z" "$@" >"$T/out" 2>"$T/err"
    rc=$?
}
gen() { "${KF[@]}" gen "$@"; }
# (replaces report.sh's check: here it compares an output file with keyfile.py)
check() { "${KF[@]}" check "$@" 2>"$T/check_err"; }


# ---------------------------------------------------------------------------
echo "# sorting on $backend"
for algo in cm2 cm4; do
    for scan in host device; do
        for n in 1 255 256 257 100003; do
            sort_case "$backend $algo scan=$scan n=$n" u32 "$n" --backend "$backend" --algo "$algo" --scan "$scan"
        done
    done
done
: >empty.bin
run sort empty.bin empty.out --backend "$backend"
[ "$rc" -eq 0 ] && [ -f empty.out ] && [ ! -s empty.out ] && ok "$backend: empty file sorts to empty" ||
    bad "$backend: empty file: exit $rc"
rm -f empty.out

# ---------------------------------------------------------------------------
echo "# every --type with --values, --descending and --bits on $backend, per algorithm"
# (issue 4: the stable order on opencl, level-zero and cpu, for cm2 and cm4;
# tests/unit/test_types.c covers the library in depth)
"${KF[@]}" iota 3000 tvals.bin
for algo in cm2 cm4; do
    for type in u32 i32 f32 u64 i64 f64; do
        case $type in u32 | i32 | f32) range=3:17 ;; *) range=5:47 ;; esac
        name="$backend $algo --type $type"
        # few distinct keys (and the float specials): stability shows in the values
        "${KF[@]}" gen "$type" 3000 5 tin.bin --dups
        run sort tin.bin tout.bin --type "$type" --values tvals.bin tvout.bin --descending \
            --backend "$backend" --algo "$algo"
        if [ "$rc" -ne 0 ]; then
            bad "$name --values --descending: exit $rc"
        elif check "$type" tin.bin tout.bin --descending --values tvals.bin tvout.bin; then
            ok "$name --values --descending"
        else
            bad "$name --values --descending: $(cat "$T/check_err")"
        fi
        "${KF[@]}" gen "$type" 3000 6 tin.bin
        run sort tin.bin tout.bin --type "$type" --values tvals.bin tvout.bin --bits "$range" \
            --backend "$backend" --algo "$algo"
        if [ "$rc" -ne 0 ]; then
            bad "$name --values --bits $range: exit $rc"
        elif check "$type" tin.bin tout.bin --bits "$range" --values tvals.bin tvout.bin; then
            ok "$name --values --bits $range"
        else
            bad "$name --values --bits $range: $(cat "$T/check_err")"
        fi
    done
done

# ---------------------------------------------------------------------------
echo "# the narrow types on $backend (issue 37: the device kernels read them at"
echo "# their width), with values, descending, bit ranges"
narrow_values_cases "$backend"

report_summary
