# report.sh — sourced by the CLI test scripts (test_cli.sh, test_outputs.sh):
# counting and printing results. Needs $T (the scratch directory, whose
# `err` file holds the last command's stderr).
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
