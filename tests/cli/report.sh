# report.sh — sourced by the CLI test scripts (test_cli.sh, test_outputs.sh,
# test_hostile.sh): counting and printing results, and the helpers they share.
# Needs $T (the scratch directory, whose `err` file holds the last command's
# stderr) and, for run, $Z (the zesort binary).
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
