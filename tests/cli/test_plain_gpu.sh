#!/usr/bin/env bash
# test_plain_gpu.sh ZESORT — the CLI on "any OpenCL GPU" (issue 36, item 3):
# with ZESORT_TEST_OPENCL_PLAIN_GPU=1 (src/common/test_hooks.h) PoCL looks like
# a plain OpenCL 1.2 GPU of another vendor. Checks: `zesort info` says the
# default backend is opencl, flavor portable; sort (every algorithm, u32 and
# i64, pairs, --descending, --bits, --scan host), argsort and a segmented
# sort with --backend auto run on it, right (keyfile.py, segcheck.py), and
# ZESORT_TEST_SORT_LOG shows each as "opencl portable". Without the variable
# the same PoCL device is a CPU again (flavor serial, default backend cpu).
# Ends with "N passed, N failed".
set -u

Z=${1:?usage: test_plain_gpu.sh PATH/TO/zesort}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=report.sh
source "$HERE/report.sh" # ok, bad, run, report_summary
cli_test_start plain-gpu
SC=(python3 "$HERE/segcheck.py")

export ZESORT_TEST_OPENCL_PLAIN_GPU=1
# no Level Zero GPU (AUTO's first choice): the machine played has only this one
export ZE_ENABLE_ALT_DRIVERS=libzesort-test-no-such-driver.so.1
export ZESORT_TEST_SORT_LOG="$T/sorts.log"

run info
if [ "$rc" -eq 0 ] && grep -qx "default-backend: opencl" "$T/out" &&
    grep -qx "flavor-opencl: portable" "$T/out" && grep -q "^test-hook: ZESORT_TEST_OPENCL_PLAIN_GPU=1" "$T/out"; then
    ok "info: default backend opencl, flavor portable, the hook said"
else
    bad "info: exit $rc, $(grep -E '^(default-backend|flavor-opencl):' "$T/out" | tr '\n' ' ')"
fi

# ran_portable NAME: the last command noted sorts, each "opencl portable".
ran_portable() {
    if [ -s "$ZESORT_TEST_SORT_LOG" ] && ! grep -vqx "opencl portable" "$ZESORT_TEST_SORT_LOG"; then
        ok "$1: ran as opencl portable"
    else
        bad "$1: sort log '$(sort -u "$ZESORT_TEST_SORT_LOG" 2>/dev/null | tr '\n' ' ')'"
    fi
    rm -f "$ZESORT_TEST_SORT_LOG"
}

"${KF[@]}" gen u32 100003 3 k32.bin --dups
"${KF[@]}" gen i64 4099 5 k64.bin --dups
"${KF[@]}" iota 100003 v32.bin
for algo in cm2 cm4 onesweep; do
    run sort k32.bin out.bin --algo "$algo" --backend auto
    [ "$rc" -eq 0 ] && "${KF[@]}" check u32 k32.bin out.bin 2>"$T/err"
    check $? "sort u32 --algo $algo"
    ran_portable "sort u32 --algo $algo"

    run sort k64.bin out.bin --type i64 --algo "$algo" --descending --bits 3:50 --scan host
    [ "$rc" -eq 0 ] && "${KF[@]}" check i64 k64.bin out.bin --descending --bits 3:50 2>"$T/err"
    check $? "sort i64 --descending --bits 3:50 --scan host --algo $algo"
    ran_portable "sort i64 --algo $algo"

    run sort k32.bin out.bin --values v32.bin vout.bin --algo "$algo"
    [ "$rc" -eq 0 ] && "${KF[@]}" check u32 k32.bin out.bin --values v32.bin vout.bin 2>"$T/err"
    check $? "sort u32 pairs --algo $algo"
    ran_portable "sort u32 pairs --algo $algo"
done

run argsort k64.bin idx.bin --type i64 --index-type u64 --keys-out kout.bin
[ "$rc" -eq 0 ] && "${KF[@]}" argsort i64 k64.bin idx.bin --index-type u64 --keys-out kout.bin \
    2>"$T/err"
check $? "argsort i64 --index-type u64 --keys-out"
ran_portable "argsort"

"${SC[@]}" gen 20011 9 sk.bin sv.bin so.bin
run sort sk.bin sout.bin --values sv.bin svout.bin --segments so.bin --backend auto
[ "$rc" -eq 0 ] && "${SC[@]}" check sk.bin sv.bin so.bin sout.bin svout.bin 2>"$T/err"
check $? "sort --segments"
ran_portable "sort --segments"

# the variable off: PoCL is the CPU device it is
unset ZESORT_TEST_OPENCL_PLAIN_GPU
run info
if [ "$rc" -eq 0 ] && grep -qx "flavor-opencl: serial" "$T/out" &&
    ! grep -qx "default-backend: opencl" "$T/out" && ! grep -q "^test-hook:" "$T/out"; then
    ok "info without the hook: flavor serial, default backend not opencl"
else
    bad "info without the hook: $(grep -E '^(default-backend|flavor-opencl):' "$T/out" | tr '\n' ' ')"
fi

report_summary
