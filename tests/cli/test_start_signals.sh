#!/usr/bin/env bash
# test_start_signals.sh ZESORT CL_START_HOOK.so — issue 33, defect 7: a
# signal that arrives while the OpenCL backend starts (PoCL has just put
# LLVM's handlers in place of zesort's; cl_start_hook.so raises it right
# then, after the first clGetDeviceIDs) ends the run as it would at any other
# moment: died of that signal, OUTPUT (here INPUT = OUTPUT) untouched, no
# temporary file left. LLVM's handler for SIGQUIT, SIGABRT, SIGXCPU and
# SIGTRAP puts the previous handler back and returns: the signal was lost and
# the sort replaced OUTPUT.
# Ends with "N passed, N failed"; exits non-zero when anything failed.
set -u

Z=${1:?usage: test_start_signals.sh PATH/TO/zesort PATH/TO/cl_start_hook.so}
HOOK=$(realpath -e "${2:?usage: test_start_signals.sh PATH/TO/zesort PATH/TO/cl_start_hook.so}") ||
    exit 1
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=report.sh
source "$HERE/report.sh"
cli_test_start start-signals

if ! "$Z" info 2>/dev/null | grep -q '^backends: .*opencl'; then
    skip "no OpenCL backend"
    report_summary
    exit
fi
# As test_hostile.sh: signals reset before the exec, ASan's handlers off and
# its link-order check too (the hook is preloaded before its runtime).
SAN_ENV=(ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}$SAN_SIG:verify_asan_link_order=0")
"${KF[@]}" gen u32 1000 1 orig.bin

# started SIGNAL BACKEND: sort k.bin k.bin with SIGNAL raised as the backend starts.
started() {
    cp orig.bin k.bin
    (export "${SAN_ENV[@]}" LD_PRELOAD="$HOOK" ZESORT_TEST_CL_START_SIGNAL="$(kill -l "$1")" &&
        ulimit -c 0 && exec "${DFL_EXEC[@]}" "$Z" sort k.bin k.bin --backend "$2") \
        >"$T/out" 2>"$T/err" &
    wait $! 2>/dev/null
    rc=$?
    [ "$rc" -eq $((128 + $(kill -l "$1"))) ] && cmp -s k.bin orig.bin &&
        ! ls -A | grep -q '^\.zesort-'
    check $? "--backend $2: SIG$1 as the backend starts ends the run (exit $rc), OUTPUT untouched, no temp file"
}
for sig in QUIT ABRT XCPU TRAP INT TERM; do
    started "$sig" opencl
done
started QUIT auto
report_summary
