# report.sh — sourced by the CLI test scripts (tests/cli/test_*.sh,
# tests/mpi/test_mpi_cli.sh): their start, counting and printing results, and
# the helpers they share. Needs $T (the scratch directory, whose `err` file
# holds the last command's stderr) and, for run, $Z (the zesort binary).
CLI_TESTS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# cli_test_start NAME [CLEANUP]: $Z made absolute (meson passes a path
# relative to the build directory, and the tests run in the scratch
# directory), $KF the key-file checker, $T a fresh scratch directory removed
# at exit (by the script's CLEANUP function when given), and cd "$T".
cli_test_start() {
    Z=$(realpath -e "$Z") || exit 1
    KF=(python3 "$CLI_TESTS/keyfile.py")
    T=$(mktemp -d "${TMPDIR:-/tmp}/zesort-$1-test.XXXXXX") || exit 1
    if [ -n "${2:-}" ]; then trap "$2" EXIT; else trap 'rm -rf "$T"' EXIT; fi
    cd "$T" || exit 1
}
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok   - $1"; }
bad() {
    fail=$((fail + 1))
    echo "FAIL - $1"
    [ -s "$T/err" ] && sed 's/^/       stderr: /' "$T/err" | head -5
    return 0
}
skip() { echo "# skipped: $1"; }
# The last line of a script: "N passed, N failed", status 0 when none failed.
report_summary() {
    echo "$pass passed, $fail failed"
    [ "$fail" -eq 0 ]
}

# check STATUS NAME: ok or bad by STATUS (0: ok), usually $? of a test.
check() { if [ "$1" -eq 0 ]; then ok "$2"; else bad "$2"; fi; }
# run ARGS...: zesort with stdout and stderr in $T/out and $T/err, status in rc.
run() {
    "$Z" "$@" >"$T/out" 2>"$T/err"
    rc=$?
}
# One line on stderr, starting "zesort: ".
one_error_line() {
    [ "$(wc -l <"$T/err")" -eq 1 ] && head -c 8 "$T/err" | grep -q '^zesort: '
}
# DFL_EXEC: a command prefix that resets every signal to its default before
# the exec (background jobs of a script start with SIGINT and SIGQUIT ignored,
# and nohup ignores SIGHUP; zesort keeps an inherited ignore).
if env --default-signal true 2>/dev/null; then
    DFL_EXEC=(env --default-signal)
else
    DFL_EXEC=(python3 -c 'import os, signal, sys
for s in signal.valid_signals() - {signal.SIGKILL, signal.SIGSTOP}:
    try:
        signal.signal(s, signal.SIG_DFL)
    except (OSError, ValueError):
        pass
os.execv(sys.argv[1], sys.argv[1:])')
fi
# SAN_SIG: AddressSanitizer's own SIGSEGV/SIGBUS/... handlers (which zesort
# leaves in place) off, so that zesort's cleanup is what runs.
SAN_SIG=handle_segv=0:handle_sigbus=0:handle_sigfpe=0:handle_sigill=0:handle_abort=0

# expect NAME RC ARGS...: exit status RC; for RC != 0 also the one-line error
# and nothing on stdout.
expect() {
    local name=$1 want=$2
    shift 2
    run "$@"
    if [ "$rc" -ne "$want" ]; then
        bad "$name: exit $rc, want $want"
    elif [ "$want" -ne 0 ] && ! one_error_line; then
        bad "$name: stderr is not one 'zesort: ' line"
    elif [ "$want" -ne 0 ] && [ -s "$T/out" ]; then
        bad "$name: error printed something on stdout"
    else
        ok "$name"
    fi
}

# sort_case NAME TYPE N ARGS...: random keys of TYPE, sorted by zesort with
# ARGS, checked against Python's stable sort (keyfile.py).
sort_case() {
    local name=$1 type=$2 n=$3
    shift 3
    "${KF[@]}" gen "$type" "$n" "$n" in.bin
    run sort in.bin sorted.bin --type "$type" "$@"
    if [ "$rc" -ne 0 ]; then
        bad "$name: exit $rc"
    elif ! "${KF[@]}" check "$type" in.bin sorted.bin "$@" 2>"$T/check_err"; then
        bad "$name: wrong result: $(cat "$T/check_err")"
    else
        ok "$name"
    fi
}

# narrow_values_cases BACKEND: every narrow key type with u32 values
# (tvals.bin, 3000 of them, made here), descending and on a bit range.
narrow_values_cases() {
    local backend=$1 type range name
    "${KF[@]}" iota 3000 tvals.bin
    for type in u8 i8 u16 i16 f16 bf16; do
        case $type in u8 | i8) range=2:7 ;; *) range=3:13 ;; esac
        name="$backend --type $type"
        "${KF[@]}" gen "$type" 3000 5 tin.bin --dups
        run sort tin.bin tout.bin --type "$type" --values tvals.bin tvout.bin --descending \
            --backend "$backend"
        if [ "$rc" -eq 0 ] && "${KF[@]}" check "$type" tin.bin tout.bin --descending \
            --values tvals.bin tvout.bin 2>"$T/check_err"; then
            ok "$name --values --descending"
        else
            bad "$name --values --descending: exit $rc $(cat "$T/check_err" 2>/dev/null)"
        fi
        "${KF[@]}" gen "$type" 3000 6 tin.bin
        run sort tin.bin tout.bin --type "$type" --values tvals.bin tvout.bin --bits "$range" \
            --backend "$backend"
        if [ "$rc" -eq 0 ] && "${KF[@]}" check "$type" tin.bin tout.bin --bits "$range" \
            --values tvals.bin tvout.bin 2>"$T/check_err"; then
            ok "$name --values --bits $range"
        else
            bad "$name --values --bits $range: exit $rc $(cat "$T/check_err" 2>/dev/null)"
        fi
    done
}
