#!/usr/bin/env bash
# check_report.sh SOURCE_DIR ZESORT RUNNER ZE_DRIVER — scripts/report-hardware
# (--quick) on PoCL (opencl) and on the Level Zero test driver: the report is
# written, self-describing (machine, packages, devices, zesort info), has the
# runner's TAP with a summary that ran cases (Level Zero), the 15 bench rows
# of the standard set under the CSV header, and ends with "result: PASS".
set -euo pipefail
src=$1
ZESORT_BIN=$(realpath "$2") ZESORT_ZE_RUNNER_BIN=$(realpath "$3")
export ZESORT_BIN ZESORT_ZE_RUNNER_BIN
driver=$4
fail() { echo "FAIL: $*" >&2; exit 1; }
dir=$(mktemp -d /tmp/zesort-report-test.XXXXXX)
trap 'rm -rf "$dir"' EXIT

check() { # REPORT BACKEND
    local r=$1 b=$2
    for want in "^# zesort hardware report" "^zesort: zesort " "^cpu: " "^## driver packages" \
                "^## OpenCL devices" "^## zesort info" "^backends: " "^## correctness" \
                "^correctness: [0-9]+ cases" "^backend,device,algo,type,pairs,n,median_ms,mkeys_per_s" \
                "^result: PASS$"; do
        grep -qE "$want" "$r" || fail "$b report lacks /$want/"
    done
    local rows
    rows=$(grep -c "^$b," "$r")
    [ "$rows" = 15 ] || fail "$b report has $rows bench rows, want 15 (3 algorithms x 5 sets)"
    echo "$b: $(grep '^correctness:' "$r"), $rows bench rows, $(tail -1 "$r")"
}

OCL_ICD_VENDORS=/etc/OpenCL/vendors/pocl.icd ZE_ENABLE_ALT_DRIVERS=/nonexistent/libze.so \
    "$src/scripts/report-hardware" --quick --backend opencl --out "$dir/opencl.txt" >/dev/null ||
    fail "report-hardware on opencl exited $?"
check "$dir/opencl.txt" opencl

ZE_ENABLE_ALT_DRIVERS=$driver ZE_ENABLE_VALIDATION_LAYER=1 ZE_ENABLE_PARAMETER_VALIDATION=1 \
    OCL_ICD_VENDORS=/etc/OpenCL/vendors/pocl.icd \
    "$src/scripts/report-hardware" --quick --backend level-zero --out "$dir/ze.txt" >/dev/null ||
    fail "report-hardware on level-zero exited $?"
check "$dir/ze.txt" level-zero
grep -qE '^correctness: [1-9][0-9]* cases, 0 failed, 0 skipped' "$dir/ze.txt" ||
    fail "the Level Zero report did not run the correctness matrix: $(grep '^correctness' "$dir/ze.txt")"

rc=0
"$src/scripts/report-hardware" --backend nonsense >/dev/null 2>&1 || rc=$?
[ $rc = 2 ] || fail "a bad --backend gave exit $rc, want 2 (usage error)"
echo PASS
