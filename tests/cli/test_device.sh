#!/usr/bin/env bash
# test_device.sh ZESORT BACKEND — `--device N` and the devices-BACKEND line of
# `zesort info` (issue 21, item 4) on a backend with two devices: opencl on
# PoCL with POCL_DEVICES="pthread pthread", level-zero on the test driver
# with ZE_CL_DRIVER_DEVICES=2 (meson sets the environment). Checks: info
# lists both with indices, --device 1 sorts correctly (sort, demo, bench),
# --device 2 is exit 1 naming the count, --device x and --device with
# --backend auto are exit 2; --devices all|I,J (issue 23 item 2) sorts on
# both (pairs, argsort, descending f64 with a bit range, a segmented sort),
# says how many devices and parts before and how the time split after, and
# refuses bad lists. Ends with "N passed, N failed".
set -u

Z=${1:?usage: test_device.sh PATH/TO/zesort BACKEND}
B=${2:?usage: test_device.sh PATH/TO/zesort BACKEND}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=report.sh
source "$HERE/report.sh" # ok, bad, run, report_summary
cli_test_start device

# expect_fail NAME RC PATTERN ARGS...: exit RC, one "zesort: " line on
# stderr matching the extended regular expression PATTERN.
expect_fail() {
    local name=$1 want=$2 pattern=$3
    shift 3
    run "$@"
    if [ "$rc" -ne "$want" ]; then
        bad "$name: exit $rc, want $want"
    elif [ "$(wc -l <"$T/err")" -ne 1 ] || ! grep -Eq "^zesort: .*$pattern" "$T/err"; then
        bad "$name: stderr is not one 'zesort: ' line matching '$pattern'"
    else
        ok "$name"
    fi
}

run info
line=$(grep "^devices-$B: " "$T/out")
if [ "$rc" -eq 0 ] && [[ "$line" == "devices-$B: 0: "*"; 1: "* ]] && [[ "$line" != *"; 2: "* ]]; then
    ok "info: devices-$B lists devices 0 and 1"
else
    bad "info: devices-$B line is '$line' (exit $rc)"
fi
grep -q "^device-$B: " "$T/out" && ok "info: device-$B kept" || bad "info: device-$B missing"

"${KF[@]}" gen u32 3000 7 keys.bin
for dev in 0 1; do
    run sort keys.bin out$dev.bin --backend "$B" --device "$dev"
    if [ "$rc" -eq 0 ] && "${KF[@]}" check u32 keys.bin out$dev.bin 2>"$T/err"; then
        ok "sort --device $dev"
    else
        bad "sort --device $dev: exit $rc or wrong result"
    fi
done

run demo --n 4k --backend "$B" --device 1
if [ "$rc" -eq 0 ] && grep -q "^backend: $B, device 1 " "$T/out" && ! grep -q " NO " "$T/out"; then
    ok "demo --device 1"
else
    bad "demo --device 1: exit $rc"
fi
run bench --n 4k --algo cm4 --scan device --repeat 1 --backend "$B" --device=1
if [ "$rc" -eq 0 ] && grep -q "backend $B, device 1: " "$T/out"; then
    ok "bench --device=1"
else
    bad "bench --device=1: exit $rc"
fi

expect_fail "sort --device 2 (2 devices)" 1 "device 2: there are 2 " \
    sort keys.bin out.bin --backend "$B" --device 2
expect_fail "demo --device 2 (2 devices)" 1 "device 2: there are 2 " \
    demo --n 4k --backend "$B" --device 2
expect_fail "bench --device 2 (2 devices)" 1 "device 2: there are 2 " \
    bench --n 4k --repeat 1 --backend "$B" --device 2
[ -e out.bin ] && bad "sort --device 2 left out.bin" || ok "sort --device 2 wrote nothing"
for v in x -1 1x "" 4294967296; do
    expect_fail "sort --device '$v'" 2 "bad --device" sort keys.bin out.bin --backend "$B" --device "$v"
done
expect_fail "sort --device without --backend" 2 "needs --backend" sort keys.bin out.bin --device 1
expect_fail "demo --device with --backend auto" 2 "needs --backend" demo --backend auto --device 0
expect_fail "bench --device with --backend auto" 2 "needs --backend" bench --device 0
run sort keys.bin outc.bin --backend cpu --device 0
[ "$rc" -eq 0 ] && ok "sort --backend cpu --device 0" || bad "sort --backend cpu --device 0: exit $rc"
expect_fail "sort --backend cpu --device 1" 1 "device 1: there is 1 " \
    sort keys.bin out.bin --backend cpu --device 1

# --devices: one sort over both devices (enough keys for both: 4096 a device)
"${KF[@]}" gen f64 50000 11 big.bin
"${KF[@]}" iota 50000 vals.bin u64
run sort big.bin bigout.bin --type f64 --descending --bits 3:60 --values vals.bin valsout.bin \
    --value-type u64 --backend "$B" --devices all
if [ "$rc" -eq 0 ] && "${KF[@]}" check f64 big.bin bigout.bin --descending --bits 3:60 \
    --values vals.bin valsout.bin --value-type u64 2>/dev/null; then
    ok "sort --devices all (f64 pairs, descending, bits 3:60)"
else
    bad "sort --devices all: exit $rc or wrong result"
fi
grep -Eq "^zesort: sorting 50000 keys on 2 of the context's 2 $B devices, in about 2 parts" "$T/err" &&
    ok "sort --devices all: stderr says 2 devices, 2 parts before" ||
    bad "sort --devices all: no devices/parts line before the sort"
grep -Eq "^zesort: [0-9]+ parts on 2 devices: partition .* ms, sort .*device 0: .*device 1: .* gather" \
    "$T/err" && ok "sort --devices all: stderr says how the time split" ||
    bad "sort --devices all: no time split line"
# --devices with --segments: runs of segments on both devices, the report after
SC=(python3 "$HERE/segcheck.py")
"${SC[@]}" gen 50000 13 sk.bin sv.bin so.bin
run sort sk.bin skout.bin --values sv.bin svout.bin --segments so.bin --backend "$B" --devices all
if [ "$rc" -eq 0 ] && "${SC[@]}" check sk.bin sv.bin so.bin skout.bin svout.bin --ascending; then
    ok "sort --segments --devices all"
else
    bad "sort --segments --devices all: exit $rc or wrong result"
fi
grep -Eq "^zesort: [0-9]+ parts on 2 devices: .*device 0: [1-9][0-9]* keys.*device 1: [1-9][0-9]* keys" \
    "$T/err" && ok "sort --segments --devices all: stderr says both devices sorted keys" ||
    bad "sort --segments --devices all: no time split line with keys on both devices"
"${KF[@]}" gen u32 30000 12 mid.bin
run argsort mid.bin idx.bin --keys-out kout.bin --backend "$B" --devices 1,0
if [ "$rc" -eq 0 ] && "${KF[@]}" argsort u32 mid.bin idx.bin --keys-out kout.bin 2>/dev/null; then
    ok "argsort --devices 1,0"
else
    bad "argsort --devices 1,0: exit $rc or wrong result"
fi
expect_fail "sort --devices 0,0" 2 "named twice" sort mid.bin out.bin --backend "$B" --devices 0,0
for v in x "" 0, ,1 -1 1x; do
    expect_fail "sort --devices '$v'" 2 "bad --devices" sort mid.bin out.bin --backend "$B" --devices "$v"
done
expect_fail "sort --devices without --backend" 2 "needs --backend" sort mid.bin out.bin --devices all
expect_fail "sort --devices with --device" 2 "exclude each other" \
    sort mid.bin out.bin --backend "$B" --device 0 --devices all
expect_fail "sort --devices 0,2 (2 devices)" 1 "device 2: there are 2 " \
    sort mid.bin out.bin --backend "$B" --devices 0,2
[ -e out.bin ] && bad "sort --devices 0,2 left out.bin" || ok "sort --devices 0,2 wrote nothing"

report_summary
