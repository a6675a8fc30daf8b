#!/usr/bin/env bash
# test_hostile.sh ZESORT RENAME_HOOK.so — issue 18, defects a hostile user met
# (DESIGN.md §5.2): outputs aliased through a dangling symlink or a path
# longer than PATH_MAX (3), a signal or SIGKILL between the two renames of a
# --values pair (4), endless or huge inputs (5), demo's up-front memory check
# (6), the sweep of a live run's temporary files (7), a driver's signal
# handlers (8), cheap refusals (9), demo on the C fallback (11).
# Ends with "N passed, N failed"; exits non-zero when anything failed.
set -u

Z=${1:?usage: test_hostile.sh PATH/TO/zesort PATH/TO/rename_hook.so}
HOOK=$(realpath -e "${2:?usage: test_hostile.sh PATH/TO/zesort PATH/TO/rename_hook.so}") || exit 1
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
BG=()
cleanup() {
    for p in "${BG[@]}"; do kill -KILL "$p" 2>/dev/null; done
    rm -rf "$T"
}
# shellcheck source=report.sh
source "$HERE/report.sh"
cli_test_start hostile cleanup
# No temporary file (nor kept old OUTPUT) of ours in directory $1.
no_temp_files() {
    ! ls -A "$1" | grep -q '^\.zesort-'
}
# A sanitizer build: `ulimit -v` would stop AddressSanitizer itself.
ASAN=0
ldd "$Z" 2>/dev/null | grep -q libasan && ASAN=1
# A guard against a regression that reads or allocates without limit: an
# address-space limit (not under ASan) so that it fails instead of eating the
# machine's memory. Runs "$@" in a subshell.
guarded() {
    if [ "$ASAN" -eq 0 ]; then
        (ulimit -v 8000000 && exec "$@")
    else
        "$@"
    fi
}
# Signals reset before the exec: DFL_EXEC; ASan's signal handlers off:
# SAN_SIG (both from report.sh). LD_PRELOAD of the hook puts it before the
# ASan runtime, which ASan would refuse unless told not to check.
SAN_ENV=(ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}$SAN_SIG:verify_asan_link_order=0")
# A pid that is not running here (the process has exited).
dead_pid() {
    local p
    sh -c 'echo $$' >"$T/pid"
    p=$(cat "$T/pid")
    while kill -0 "$p" 2>/dev/null; do p=$((p + 1)); done
    echo "$p"
}
has_opencl() { "$Z" info 2>/dev/null | grep -q '^backends: .*opencl'; }

"${KF[@]}" gen u32 1000 1 keys.bin
"${KF[@]}" iota 1000 vals.bin
"$Z" sort keys.bin want.bin --backend cpu --values vals.bin want_vals.bin || exit 1

# ---------------------------------------------------------------------------
echo "# 3. OUTPUT and VALUES_OUT the same file by another name: refused (exit 2)"
mkdir -p alias
ln -s o.bin alias/link.bin
run sort keys.bin alias/o.bin --values vals.bin alias/link.bin --backend cpu
[ "$rc" -eq 2 ] && one_error_line && [ ! -e alias/o.bin ] && no_temp_files alias
check $? "VALUES_OUT a dangling symlink to OUTPUT: exit 2, nothing written"
run sort keys.bin alias/link.bin --values vals.bin alias/o.bin --backend cpu
[ "$rc" -eq 2 ] && [ ! -e alias/o.bin ]
check $? "OUTPUT a dangling symlink to VALUES_OUT: exit 2, nothing written"
# A directory whose absolute path is longer than PATH_MAX (realpath fails).
deep=$T/deep
mkdir deep
(
    cd deep || exit 1
    comp=$(printf 'd%.0s' $(seq 200))
    for _ in $(seq 25); do mkdir "$comp" && cd "$comp" || exit 1; done
    "$Z" sort "$T/keys.bin" o.bin --values "$T/vals.bin" ./o.bin --backend cpu >"$T/out" 2>"$T/err"
    rc=$?
    [ "$rc" -eq 2 ] && [ ! -e o.bin ] && no_temp_files .
)
check $? "OUTPUT and ./OUTPUT in a directory deeper than PATH_MAX: exit 2, nothing written"
rm -rf "$deep"

# ---------------------------------------------------------------------------
echo "# 4. a signal between the two renames of a pair"
mkdir -p pair
printf 'old keys' >old_keys
printf 'old vals' >old_vals
reset_pair() {
    rm -f pair/.zesort-* 2>/dev/null
    cp old_keys pair/k.out
    cp old_vals pair/v.out
}
pair_consistent() {
    { cmp -s pair/k.out old_keys && cmp -s pair/v.out old_vals; } ||
        { cmp -s pair/k.out want.bin && cmp -s pair/v.out want_vals.bin; }
}
# hooked N WHEN SIGNAL: a pair sort whose N-th rename raises SIGNAL.
hooked() {
    (export "${SAN_ENV[@]}" LD_PRELOAD="$HOOK" ZESORT_TEST_RENAME_AT="$1" \
        ZESORT_TEST_RENAME_WHEN="$2" ZESORT_TEST_RENAME_SIGNAL="$(kill -l "$3")" &&
        ulimit -c 0 && exec "${DFL_EXEC[@]}" "$Z" sort keys.bin pair/k.out \
        --values vals.bin pair/v.out --backend cpu) >"$T/out" 2>"$T/err" &
    wait $! 2>/dev/null
    rc=$?
}
for at in 1 2; do
    for sig in TERM INT SEGV; do
        reset_pair
        hooked "$at" after "$sig"
        [ "$rc" -eq $((128 + $(kill -l "$sig"))) ] && pair_consistent && no_temp_files pair
        check $? "SIG$sig right after rename $at of the pair: died of it, OUTPUT and VALUES_OUT match, no temp files"
    done
done
# SIGKILL between the renames: OUTPUT has the new keys, VALUES_OUT the old
# values; the old keys must survive the next run's sweep of stale files.
reset_pair
hooked 2 before KILL
killed_rc=$rc
touch -d '2 hours ago' pair/.zesort-* 2>/dev/null # old enough to be swept
run sort keys.bin pair/other.out --backend cpu
old_keys=$(grep -lx 'old keys' pair/.zesort-* 2>/dev/null | head -1)
[ "$killed_rc" -eq 137 ] && [ "$rc" -eq 0 ] && [ -n "$old_keys" ] && ! ls -A pair | grep -q '^\.zesort-tmp-'
check $? "SIGKILL between the renames: the next run's sweep keeps the old keys (${old_keys:-gone}), removes the temp file"
if [ -n "$old_keys" ]; then
    mv "$old_keys" pair/k.out
    cmp -s pair/k.out old_keys && cmp -s pair/v.out old_vals
    check $? "mv .zesort-old-* OUTPUT gives the old pair back"
fi

# ---------------------------------------------------------------------------
echo "# 7. the sweep of stale temporary files spares a live run's"
mkdir -p sweep
mkfifo sweep/vfifo
("${DFL_EXEC[@]}" "$Z" sort keys.bin sweep/k.out --values vals.bin sweep/vfifo --backend cpu) \
    >/dev/null 2>&1 &
live=$!
BG+=("$live")
temp=
for _ in $(seq 100); do
    temp=$(ls -A sweep | grep "^\.zesort-tmp-$live-" | head -1)
    [ -n "$temp" ] && break
    sleep 0.05
done
if [ -n "$temp" ]; then
    # As a run in another pid namespace (or on another NFS client) would look:
    # a pid that kill(pid, 0) says does not exist, and an old file.
    ghost=.zesort-tmp-$(dead_pid)-${temp##*-}
    mv "sweep/$temp" "sweep/$ghost"
    touch -d '2 hours ago' "sweep/$ghost"
    run sort keys.bin sweep/other.out --backend cpu
    [ "$rc" -eq 0 ] && [ -e "sweep/$ghost" ]
    check $? "a live run's temp file whose pid is not ours to see is not swept (it holds a lock)"
else
    bad "the live run's temp file did not appear"
fi
kill -KILL "$live" 2>/dev/null
wait "$live" 2>/dev/null
ghost=.zesort-tmp-$(dead_pid)-fresh1
printf x >"sweep/$ghost"
run sort keys.bin sweep/other.out --backend cpu
[ -e "sweep/$ghost" ]
check $? "an unlocked dead run's temp file younger than a minute is left alone"
touch -d '2 hours ago' "sweep/$ghost"
run sort keys.bin sweep/other.out --backend cpu
[ ! -e "sweep/$ghost" ]
check $? "an unlocked old temp file of a dead run is swept"

# ---------------------------------------------------------------------------
echo "# 8. a driver's signal handlers (PoCL's LLVM) do not replace zesort's"
if has_opencl; then
    "${KF[@]}" gen u32 100000 3 big.bin
    "${KF[@]}" iota 100000 bigvals.bin
    mkdir -p drv
    for sig in SEGV ABRT INT; do
        printf 'old keys' >drv/k.out
        rm -f drv/vfifo
        mkfifo drv/vfifo
        # Nobody reads the FIFO but it is open: zesort blocks writing the
        # values, after the sort, with the keys' temp file complete.
        exec 7<>drv/vfifo
        (export "${SAN_ENV[@]}" && ulimit -c 0 &&
            exec "${DFL_EXEC[@]}" "$Z" sort big.bin drv/k.out --values bigvals.bin drv/vfifo \
            --backend opencl) >/dev/null 2>"$T/err" &
        pid=$!
        BG+=("$pid")
        ready=0
        for _ in $(seq 600); do
            temp=$(ls -A drv | grep "^\.zesort-tmp-$pid-" | head -1)
            if [ -n "$temp" ] && [ "$(stat -c %s "drv/$temp" 2>/dev/null)" = 400000 ]; then
                ready=1
                break
            fi
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.05
        done
        sleep 0.3
        kill -"$sig" "$pid"
        for _ in $(seq 100); do
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.05
        done
        kill -KILL "$pid" 2>/dev/null # still running: the signal was swallowed
        wait "$pid" 2>/dev/null
        rc=$?
        exec 7>&-
        [ "$ready" -eq 1 ] && [ "$rc" -eq $((128 + $(kill -l "$sig"))) ] && no_temp_files drv &&
            [ "$(cat drv/k.out)" = 'old keys' ]
        check $? "opencl: SIG$sig after the sort ends zesort (exit $rc), temp file removed, OUTPUT untouched"
    done
else
    skip "driver signal handlers: no OpenCL backend"
fi

# ---------------------------------------------------------------------------
echo "# 5. endless or huge inputs stop at a limit named in the message"
run_guarded() {
    guarded timeout 120 "$Z" "$@" >"$T/out" 2>"$T/err"
    rc=$?
}
run_guarded sort keys.bin z.bin --values /dev/zero zv.bin --backend cpu
[ "$rc" -eq 1 ] && one_error_line && grep -q 'more values than' "$T/err" && [ ! -e z.bin ]
check $? "--values /dev/zero: exit 1 once it holds more values than INPUT keys"
if [ "$ASAN" -eq 0 ]; then
    # (the limit keeps the data read small: ~0.6 GiB)
    (ulimit -v 1500000 && exec "$Z" sort /dev/zero z.bin --backend cpu) >"$T/out" 2>"$T/err"
    rc=$?
    [ "$rc" -eq 1 ] && one_error_line && grep -q 'of the host memory' "$T/err" && [ ! -e z.bin ]
    check $? "sort /dev/zero (cpu) under ulimit -v: exit 1 naming the host memory limit"
fi
if has_opencl; then
    # INPUT bigger than the device takes at once (PoCL with a 1 GiB limit
    # allows 256 MiB per allocation): split on the host into parts, said on
    # stderr first, and the same bytes as the C fallback's sort (issue 23)
    head -c 300000000 /dev/urandom >big.bin
    run_guarded sort big.bin ref.bin --backend cpu
    POCL_MEMORY_LIMIT=1 run_guarded sort big.bin z.bin --backend opencl
    [ "$rc" -eq 0 ] && grep -q 'parts of at most' "$T/err" && cmp -s z.bin ref.bin
    check $? "a 300 MB INPUT on a 1 GiB PoCL device: split into parts, said first, sorted right"
    rm -f big.bin ref.bin z.bin
fi
# 17 GiB of keys (beyond ZESORT_MAX_KEYS, which the host API now splits)
# where half the available host memory is less: refused before reading
avail_kb=$(awk '/^MemAvailable:/ {print $2}' /proc/meminfo)
if [ -n "$avail_kb" ] && [ "$avail_kb" -lt $((34 * 1024 * 1024)) ] &&
    truncate -s 17G sparse.bin 2>/dev/null; then
    run_guarded sort sparse.bin z.bin --backend cpu
    [ "$rc" -eq 1 ] && one_error_line && grep -q 'host memory' "$T/err" && [ ! -e z.bin ]
    check $? "a 17 GiB (sparse) INPUT: refused before reading, naming the host memory"
    rm -f sparse.bin
fi

# ---------------------------------------------------------------------------
echo "# 6. demo with an n beyond host memory: refused up front"
mem_kib=$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo 2>/dev/null)
if [ -n "$mem_kib" ] && [ "$mem_kib" -lt $((45 * 1024 * 1024)) ]; then
    run_guarded demo --n 4294967294 --backend cpu
    [ "$rc" -eq 1 ] && one_error_line && [ ! -s "$T/out" ] &&
        grep -q '^zesort: demo n=4294967294: its data takes 48.0 GiB of host memory, more than this machine has' "$T/err"
    check $? "demo --n 4294967294: exit 1 with bench's message, nothing printed"
fi

# ---------------------------------------------------------------------------
echo "# 9. cheap refusals (usage errors, exit 2)"
expect2() {
    local name=$1
    shift
    run "$@"
    [ "$rc" -eq 2 ] && one_error_line && [ ! -s "$T/out" ]
    check $? "$name"
}
expect2 "bench --csv X --plot X" bench --backend cpu --n 1k --algo cm4 --scan device --repeat 1 --csv same.out --plot same.out
[ ! -e same.out ]
check $? "bench --csv X --plot X: X not written"
expect2 "bench --csv ./X --plot X" bench --backend cpu --n 1k --algo cm4 --scan device --repeat 1 --csv ./same.out --plot same.out
expect2 "bench --csv given twice" bench --backend cpu --n 1k --csv a.csv --csv b.csv
expect2 "sort --values A B --values C D" sort keys.bin r.out --values vals.bin v1.out --values vals.bin v2.out --backend cpu
[ ! -e r.out ] && [ ! -e v1.out ] && [ ! -e v2.out ]
check $? "repeated --values: nothing written"
expect2 "sort k.bin ''" sort keys.bin ""
grep -q 'empty' "$T/err" && ! grep -q 'rename' "$T/err"
check $? "sort k.bin '': the message says the name is empty"
expect2 "sort '' out" sort "" r.out
expect2 "sort --values '' B" sort keys.bin r.out --values "" v.out
expect2 "sort --values A ''" sort keys.bin r.out --values vals.bin ""
expect2 "bench --csv ''" bench --backend cpu --n 1k --csv ""
if has_opencl; then
    (ulimit -n 5 && exec "$Z" sort keys.bin lim.out --backend opencl) >"$T/out" 2>"$T/err"
    rc=$?
    [ "$rc" -eq 1 ] && one_error_line && grep -q 'ulimit -n' "$T/err" && ! grep -q 'ICD' "$T/err"
    check $? "ulimit -n 5: the message names the open-file limit, not a missing ICD"
    if [ "$ASAN" -eq 0 ]; then
        (ulimit -v 200000 && exec "$Z" sort keys.bin lim.out --backend opencl) >"$T/out" 2>"$T/err"
        rc=$?
        [ "$rc" -eq 1 ] && one_error_line && grep -q 'ulimit -v' "$T/err" && ! grep -q 'ICD' "$T/err"
        check $? "ulimit -v 200000: the message names the address-space limit, not a missing ICD"
    fi
fi

# ---------------------------------------------------------------------------
echo "# 11. demo on the C fallback: one row, the header says how it was chosen"
run demo --backend cpu --n 64k
rows=$(grep -cE '^(cm2|cm4|onesweep|cpu-radix) .* yes ' "$T/out")
[ "$rc" -eq 0 ] && [ "$rows" -eq 1 ] && ! grep -q ' vs ' "$T/out" &&
    ! grep -q 'the best one present' "$T/out" &&
    grep -q '^backend: cpu, device 0 (--backend cpu)' "$T/out"
check $? "demo --backend cpu: one row, no ratios, 'backend: cpu, device 0 (--backend cpu)'"
if has_opencl; then
    run demo --backend opencl --n 64k
    rows=$(grep -cE '^(cm2|cm4|onesweep) .* yes ' "$T/out")
    [ "$rc" -eq 0 ] && [ "$rows" -eq 3 ] &&
        grep -q '^backend: opencl, device 0 (--backend opencl)' "$T/out"
    check $? "demo --backend opencl: three rows, 'backend: opencl, device 0 (--backend opencl)'"
fi

report_summary
