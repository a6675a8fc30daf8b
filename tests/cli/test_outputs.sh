#!/usr/bin/env bash
# test_outputs.sh ZESORT — how the `zesort` CLI writes its outputs (issue 12,
# defects 1-5; DESIGN.md §5.2): special files written directly, the --values
# pair committed together, symlinks followed, permissions and owner kept,
# temporary files removed on every fatal signal and stale ones after SIGKILL,
# and the smaller message fixes. Root-only cases (device nodes, bind mounts,
# chattr, running as `nobody`) are skipped when not root or not possible.
# Ends with "N passed, N failed"; exits non-zero when anything failed.
set -u

Z=${1:?usage: test_outputs.sh PATH/TO/zesort}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
MOUNTS=()
cleanup() {
    for m in "${MOUNTS[@]}"; do umount "$m" 2>/dev/null; done
    chattr -R -i "$T" 2>/dev/null
    rm -rf "$T"
}
# shellcheck source=report.sh
source "$HERE/report.sh"
cli_test_start out cleanup
no_temp_files() {
    ! ls -A "$1" | grep -q '^\.zesort-tmp-'
}
is_root() { [ "$(id -u)" -eq 0 ]; }

"${KF[@]}" gen u32 1000 1 keys.bin
"${KF[@]}" iota 1000 vals.bin
"$Z" sort keys.bin want.bin --backend cpu --values vals.bin want_vals.bin || exit 1

# ---------------------------------------------------------------------------
echo "# 1. an existing non-regular OUTPUT is written directly, never replaced"
# Root gets private device nodes, so a regression cannot destroy /dev/null.
if is_root && mknod null c 1 3 2>/dev/null && mknod full c 1 7 2>/dev/null; then
    NULL=$T/null
    FULL=$T/full
else
    NULL=/dev/null
    FULL=/dev/full
fi
run sort keys.bin "$NULL" --backend cpu
[ "$rc" -eq 0 ] && [ -c "$NULL" ] && no_temp_files "$(dirname "$NULL")"
check $? "sort to $NULL: exit 0, still a character device"
run sort keys.bin "$NULL" --values vals.bin "$NULL" --backend cpu
[ "$rc" -eq 0 ] && [ -c "$NULL" ]
check $? "sort --values with both outputs to $NULL"
if [ -w "$FULL" ]; then
    run sort keys.bin "$FULL" --backend cpu
    [ "$rc" -eq 1 ] && one_error_line && grep -q 'No space left on device' "$T/err" && [ -c "$FULL" ]
    check $? "sort to $FULL: exit 1, 'No space left on device', still a device"
    run bench --backend cpu --n 1k --algo cm4 --scan device --repeat 1 --csv "$FULL"
    [ "$rc" -eq 1 ] && grep -q 'No space left on device' "$T/err" && [ -c "$FULL" ]
    check $? "bench --csv $FULL: exit 1, ENOSPC reported"
fi
mkfifo fifo
timeout 60 cat fifo >fifo.got &
reader=$!
run sort keys.bin fifo --backend cpu
[ -p fifo ] || kill "$reader" 2>/dev/null # replaced: the reader would wait forever
wait "$reader"
[ "$rc" -eq 0 ] && [ -p fifo ] && cmp -s fifo.got want.bin && no_temp_files .
check $? "sort to a FIFO: the reader gets the sorted keys, FIFO kept"
# As root a regression would replace the system's /dev/stdout: root tests
# /dev/fd/1 (whose directory is /proc/self/fd, where nothing can be created).
if is_root; then STDOUT=/dev/fd/1 STDERR=/dev/fd/2; else STDOUT=/dev/stdout STDERR=/dev/stderr; fi
"$Z" sort keys.bin $STDOUT --backend cpu 2>"$T/err" | cat >piped.got
cmp -s piped.got want.bin
check $? "sort to $STDOUT (a pipe)"
"$Z" sort keys.bin $STDOUT --backend cpu >redirected.got 2>"$T/err"
cmp -s redirected.got want.bin && [ ! -L redirected.got ]
check $? "sort to $STDOUT (redirected to a file)"
"$Z" sort keys.bin /proc/self/fd/1 --backend cpu 2>"$T/err" | cat >proc.got
cmp -s proc.got want.bin
check $? "sort to /proc/self/fd/1"
ln -s /proc/self/fd/1 to-stdout
"$Z" sort keys.bin to-stdout --backend cpu 2>"$T/err" | cat >linked.got
cmp -s linked.got want.bin && [ -L to-stdout ]
check $? "sort to a symlink to /proc/self/fd/1"
ln -s /dev/stdout to-dev-stdout
"$Z" sort keys.bin to-dev-stdout --backend cpu 2>"$T/err" | cat >linked2.got
cmp -s linked2.got want.bin && [ -L to-dev-stdout ]
check $? "sort to a symlink to /dev/stdout"
"$Z" bench --backend cpu --n 1k --algo cm4 --scan device --repeat 1 --csv $STDOUT 2>"$T/err" >bench.got
grep -q '^backend,device,algo,' bench.got && grep -q ',cm4,u32,0,1024,' bench.got
check $? "bench --csv $STDOUT"
if command -v gnuplot >/dev/null; then
    # (stdout has the table: the PNG goes to stderr here)
    "$Z" bench --backend cpu --n 1k,2k --algo cm4 --scan device --repeat 1 --plot $STDERR 2>plot.got >/dev/null
    [ "$(head -c 8 plot.got | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] && no_temp_files "${TMPDIR:-/tmp}"
    check $? "bench --plot $STDERR writes the PNG there"
    run bench --backend cpu --n 1k --algo cm4 --scan device --repeat 1 --plot "$NULL"
    [ "$rc" -eq 0 ] && [ -c "$NULL" ] && no_temp_files "${TMPDIR:-/tmp}"
    check $? "bench --plot $NULL"
fi

# ---------------------------------------------------------------------------
echo "# 2. --values: after an error both old outputs are intact"
mkdir -p pair
reset_pair() {
    printf 'old keys' >pair/k.out
    printf 'old vals' >pair/v.out
}
pair_intact() {
    [ "$(cat pair/k.out)" = 'old keys' ] && [ "$(cat pair/v.out)" = 'old vals' ] && no_temp_files pair
}
# The second rename fails although nothing could tell beforehand: VALUES_OUT
# is a mount point (EBUSY). The keys output must be put back.
if is_root && reset_pair && printf 'mounted' >pair/src && mount --bind pair/src pair/v.out 2>/dev/null; then
    MOUNTS+=("$T/pair/v.out")
    printf 'old vals' >pair/v.out # writes through to pair/src
    run sort keys.bin pair/k.out --values vals.bin pair/v.out --backend cpu
    [ "$rc" -eq 1 ] && one_error_line && pair_intact
    check $? "second rename fails (VALUES_OUT is a mount point): exit 1, OUTPUT restored"
    rm -f pair/k.out
    run sort keys.bin pair/k.out --values vals.bin pair/v.out --backend cpu
    [ "$rc" -eq 1 ] && [ ! -e pair/k.out ] && no_temp_files pair
    check $? "second rename fails, OUTPUT did not exist: still does not"
    umount pair/v.out && MOUNTS=()
else
    skip "bind mount (needs root)"
fi
# An immutable VALUES_OUT: refused before anything is renamed.
reset_pair
if chattr +i pair/v.out 2>/dev/null; then
    run sort keys.bin pair/k.out --values vals.bin pair/v.out --backend cpu
    [ "$rc" -eq 1 ] && one_error_line && pair_intact
    check $? "immutable VALUES_OUT: exit 1, both outputs intact"
    chattr -i pair/v.out
else
    skip "chattr +i (file system or privileges)"
fi

# ---------------------------------------------------------------------------
echo "# 3. symlinks are followed; mode, owner and write permission respected"
mkdir -p links/t links/l
cp keys.bin links/t/target.bin
chmod 640 links/t/target.bin
ln -s ../t/target.bin links/l/out.bin
run sort keys.bin links/l/out.bin --backend cpu
[ "$rc" -eq 0 ] && [ -L links/l/out.bin ] && cmp -s links/t/target.bin want.bin &&
    [ "$(stat -c %a links/t/target.bin)" = 640 ] && no_temp_files links/l && no_temp_files links/t
check $? "symlink OUTPUT: link kept, target written (mode 640 kept), no temp files"
ln -s ../t/new.bin links/l/dangling.bin
run sort keys.bin links/l/dangling.bin --backend cpu
[ "$rc" -eq 0 ] && [ -L links/l/dangling.bin ] && cmp -s links/t/new.bin want.bin
check $? "dangling symlink OUTPUT: its target is created, link kept"
ln -s vt.bin links/t/vlink.bin
cp vals.bin links/t/vt.bin
run sort keys.bin links/l/out.bin --values vals.bin links/t/vlink.bin --backend cpu
[ "$rc" -eq 0 ] && [ -L links/t/vlink.bin ] && cmp -s links/t/vt.bin want_vals.bin
check $? "symlink VALUES_OUT: target written"

if is_root; then
    # As root, like cp: a read-only file is replaced, keeping mode and owner.
    cp keys.bin ro.bin
    chmod 444 ro.bin
    chown nobody:nogroup ro.bin 2>/dev/null
    owner=$(stat -c %U:%G ro.bin)
    run sort keys.bin ro.bin --backend cpu
    [ "$rc" -eq 0 ] && cmp -s ro.bin want.bin && [ "$(stat -c %a ro.bin)" = 444 ] &&
        [ "$(stat -c %U:%G ro.bin)" = "$owner" ]
    check $? "root replaces a 0444 file ($owner) keeping mode and owner"
fi
# Runs a command as an unprivileged user: `nobody` when root, else ourselves.
AS=()
USERDIR=$T/user
mkdir -p "$USERDIR"
if is_root; then
    if command -v setpriv >/dev/null && id nobody >/dev/null 2>&1; then
        AS=(setpriv --reuid=nobody --regid="$(id -gn nobody)" --clear-groups)
        chmod 711 "$T"
        chown nobody "$USERDIR"
        "${AS[@]}" "$Z" --version >/dev/null 2>&1 || AS=(none)
    else
        AS=(none)
    fi
fi
if [ "${AS[*]}" != none ]; then
    urun() {
        (cd "$USERDIR" && "${AS[@]}" "$Z" "$@") >"$T/out" 2>"$T/err"
        rc=$?
    }
    cp keys.bin "$USERDIR/in.bin"
    chmod 644 "$USERDIR/in.bin"
    "${AS[@]}" cp "$USERDIR/in.bin" "$USERDIR/mine_ro.bin" 2>/dev/null ||
        cp keys.bin "$USERDIR/mine_ro.bin"
    chmod 444 "$USERDIR/mine_ro.bin"
    urun sort in.bin mine_ro.bin --backend cpu
    [ "$rc" -eq 1 ] && one_error_line && grep -q 'Permission denied' "$T/err" &&
        cmp -s "$USERDIR/mine_ro.bin" keys.bin && no_temp_files "$USERDIR"
    check $? "unprivileged: own 0444 OUTPUT refused (exit 1), untouched"
    if is_root; then
        printf 'root file' >"$USERDIR/roots.bin"
        chmod 644 "$USERDIR/roots.bin"
        urun sort in.bin roots.bin --backend cpu
        [ "$rc" -eq 1 ] && [ "$(cat "$USERDIR/roots.bin")" = 'root file' ] &&
            [ "$(stat -c %U "$USERDIR/roots.bin")" = root ]
        check $? "unprivileged: another user's 0644 file in a writable directory refused"
        ln -s roots.bin "$USERDIR/link-to-roots.bin"
        urun sort in.bin link-to-roots.bin --backend cpu
        [ "$rc" -eq 1 ] && [ "$(cat "$USERDIR/roots.bin")" = 'root file' ]
        check $? "unprivileged: symlink to a file not writable refused"
        # Defect 2 as the issue met it: the old values file is someone else's
        # (writable for all) in a sticky directory, so rename() over it fails.
        mkdir -p "$T/sticky"
        chmod 1777 "$T/sticky"
        printf 'old vals' >"$T/sticky/v.out"
        chmod 666 "$T/sticky/v.out"
        "${AS[@]}" sh -c "printf 'old keys' >'$T/sticky/k.out'"
        urun sort in.bin "$T/sticky/k.out" --values "$T/vals.bin" "$T/sticky/v.out" --backend cpu
        [ "$rc" -eq 1 ] && one_error_line && [ "$(cat "$T/sticky/k.out")" = 'old keys' ] &&
            [ "$(cat "$T/sticky/v.out")" = 'old vals' ] && no_temp_files "$T/sticky"
        check $? "unprivileged: VALUES_OUT not replaceable (sticky directory): both outputs intact"
    fi
else
    skip "unprivileged cases (no setpriv or no nobody user)"
fi

# ---------------------------------------------------------------------------
echo "# 4. temporary files: removed on fatal signals, stale ones after SIGKILL"
# A values output that is a FIFO nobody reads holds zesort in open(), after
# the keys' temporary file exists: a real signal then arrives at a known point.
mkdir -p sig
mkfifo sig/vfifo
printf 'old keys' >sig/k.out
# start_blocked: runs the sort in the background, sets $pid once its temp file
# exists (0 if it never appeared).
# Background jobs of a script start with SIGINT and SIGQUIT ignored (and
# zesort keeps an inherited "ignore"), SIGPIPE may be ignored too (the test
# runner is python), and SIGHUP under nohup: every signal is reset to the
# default before the exec (DFL_EXEC, report.sh). Sanitizer builds:
# AddressSanitizer's own signal handlers are turned off (SAN_SIG, report.sh)
# so zesort's cleanup runs.
start_blocked() {
    (ulimit -c 0 && export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}$SAN_SIG" &&
        exec "${DFL_EXEC[@]}" "$Z" sort keys.bin sig/k.out --values vals.bin sig/vfifo \
        --backend cpu) >/dev/null 2>&1 &
    pid=$!
    for _ in $(seq 100); do
        ls -A sig | grep -q "^\.zesort-tmp-$pid-" && return 0
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.05
    done
    kill -KILL "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    pid=0
}
for sig in INT QUIT ABRT SEGV BUS FPE ILL SYS TRAP HUP TERM USR1 ALRM PIPE; do
    start_blocked
    if [ "$pid" -eq 0 ]; then
        bad "SIG$sig: no temporary file appeared (sort did not block on the FIFO)"
        continue
    fi
    kill -"$sig" "$pid"
    for _ in $(seq 100); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.05
    done
    kill -KILL "$pid" 2>/dev/null # still blocked: the signal did not end it
    wait "$pid" 2>/dev/null
    rc=$?
    [ "$rc" -eq $((128 + $(kill -l "$sig"))) ] && no_temp_files sig && [ "$(cat sig/k.out)" = 'old keys' ]
    check $? "SIG$sig during a sort: temp file removed, died of the signal (exit $rc), OUTPUT untouched"
done
start_blocked
if [ "$pid" -ne 0 ]; then
    kill -KILL "$pid"
    wait "$pid" 2>/dev/null
    killed=$pid
    stale=$(ls -A sig | grep "^\.zesort-tmp-$killed-")
    [ -n "$stale" ]
    check $? "SIGKILL leaves .zesort-tmp-<pid>-* (recognisable by its pid)"
    # A dead run's file is swept once a minute old (issue 18 item 7).
    touch -d '2 hours ago' "sig/$stale"
    printf x >"sig/.zesort-tmp-$$-live123" # a live process's (this shell's)
    if is_root; then
        printf x >"sig/.zesort-tmp-$killed-other1"
        chown nobody "sig/.zesort-tmp-$killed-other1" 2>/dev/null
    fi
    run sort keys.bin sig/k.out --backend cpu
    [ -n "$stale" ] && [ ! -e "sig/$stale" ] && [ -e "sig/.zesort-tmp-$$-live123" ] &&
        cmp -s sig/k.out want.bin
    check $? "the next run in that directory removes the dead process's temp file, not a live one's"
    if is_root; then
        [ -e "sig/.zesort-tmp-$killed-other1" ]
        check $? "another user's stale temp file is left alone"
    fi
else
    bad "SIGKILL: sort did not block"
fi

# ---------------------------------------------------------------------------
echo "# 5. smaller points"
"${KF[@]}" gen u32 999 2 values999.bin
run sort keys.bin out.bin --values values999.bin vout.bin
[ "$rc" -eq 1 ] && one_error_line && [ ! -e out.bin ] && [ ! -e vout.bin ]
check $? "values count differs from keys: a data error, exit 1"

ZESORT_FLAVOR=simd "$Z" info >"$T/out" 2>"$T/err"
rc=$?
if grep -q '^default-backend: none$' "$T/out" || grep -q '^backends: .*opencl' "$T/out" ||
    grep -q '^error-' "$T/out"; then
    grep -q 'ZESORT_FLAVOR=simd' "$T/out" && ! grep -vEq '^[a-z0-9-]+: ' "$T/out"
    check $? "info with a bad ZESORT_FLAVOR says why (key: value lines)"
else
    skip "info with a bad ZESORT_FLAVOR: no OpenCL here, the flavor is not read"
fi

mem_kib=$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo 2>/dev/null)
if [ -n "$mem_kib" ] && [ "$mem_kib" -lt $((60 * 1024 * 1024)) ]; then
    run bench --backend cpu --type u64 --n 1k,4294967294 --repeat 1 --algo cm4 --scan device
    [ "$rc" -eq 1 ] && one_error_line && grep -q 'host memory' "$T/err" && [ ! -s "$T/out" ]
    check $? "bench with an n beyond host memory fails before measuring anything"
fi

name=$(printf 'no\nsuch\033[31m\tfile')
run sort "$name" out.bin
[ "$rc" -eq 1 ] && one_error_line && grep -qF "'no\\nsuch\\x1b[31m\\tfile'" "$T/err"
check $? "control characters in a file name are escaped in the message"
run sort keys.bin "$(printf 'dir\001/x')/out.bin"
[ "$rc" -eq 1 ] && one_error_line && grep -qF 'dir\x01/x' "$T/err"
check $? "control characters in an OUTPUT name are escaped"

OCL_ICD_VENDORS=$T/no-icds OCL_ICD_FILENAMES= "$Z" sort keys.bin ocl.bin --backend opencl >"$T/out" 2>"$T/err"
rc=$?
if [ "$rc" -eq 1 ] && grep -q 'no OpenCL' "$T/err"; then
    ! grep -q '  ' "$T/err"
    check $? "'no OpenCL device found' without a double space"
else
    skip "OpenCL message (rc $rc)"
fi

list=$(seq -s, 1 33)
run bench --n "$list"
[ "$rc" -eq 2 ] && one_error_line && grep -q 'at most 32 entries' "$T/err"
check $? "bench --n with 33 entries: the error names the limit of 32"
run bench --algo "$(printf 'cm2,%.0s' $(seq 33))cm2"
[ "$rc" -eq 2 ] && grep -q 'at most 32 entries' "$T/err"
check $? "bench --algo with too many entries: the error names the limit of 32"

no_temp_files . && no_temp_files pair && no_temp_files links/l && no_temp_files links/t
check $? "no temporary files left anywhere"

report_summary
