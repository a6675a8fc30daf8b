#!/usr/bin/env bash
# test_segments.sh ZESORT — issue 22's CLI contract end to end: `zesort sort
# INPUT OUTPUT --segments OFFSETS` on every backend in $BACKENDS (default:
# cpu opencl), checked by segcheck.py; malformed and out-of-range OFFSETS
# files (exit 1, one message, an existing OUTPUT untouched); OFFSETS bounded
# by (n + 1) x 8 bytes, endless ones too (issue 33, defect 6); `bench
# --segments` with lengths and ragged.
# Ends with "N passed, N failed"; exits non-zero when anything failed.
set -u

Z=${1:?usage: test_segments.sh PATH/TO/zesort}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SC=(python3 "$HERE/segcheck.py")
# shellcheck source=report.sh
source "$HERE/report.sh"
cli_test_start segments

echo "# results"
"${SC[@]}" gen 20011 5 k.bin v.bin o.bin
for b in ${BACKENDS:-cpu opencl}; do
    for order in --ascending --descending; do
        run sort k.bin out.bin --values v.bin vout.bin --segments o.bin --backend "$b" "$order"
        check "$rc" "$b $order: sort --segments exits 0"
        "${SC[@]}" check k.bin v.bin o.bin out.bin vout.bin "$order"
        check $? "$b $order: every segment stably sorted, the rest untouched"
    done
done

echo "# bad offsets: exit 1, one message, OUTPUT untouched"
bad_offsets() { # NAME PYTHON-EXPRESSION-OF-BYTES
    python3 -c "import struct, sys; sys.stdout.buffer.write($2)" >bad.bin
    echo keep >out.bin
    run sort k.bin out.bin --segments bad.bin --backend cpu
    [ "$rc" -eq 1 ] && one_error_line && [ "$(cat out.bin)" = keep ]
    check $? "$1"
}
bad_offsets "empty file" "b''"
bad_offsets "not a multiple of 8 bytes" "struct.pack('<QI', 0, 5)"
bad_offsets "decreasing" "struct.pack('<3Q', 0, 10, 9)"
bad_offsets "beyond n" "struct.pack('<2Q', 0, 20012)"
run sort k.bin out.bin --segments missing.bin --backend cpu
[ "$rc" -eq 1 ] && one_error_line
check $? "missing OFFSETS file: exit 1"
run sort k.bin out.bin --segments
[ "$rc" -eq 2 ]
check $? "--segments without a file: usage, exit 2"
run argsort k.bin idx.bin --segments o.bin
[ "$rc" -eq 2 ]
check $? "argsort has no --segments: exit 2"
python3 -c "import struct, sys; sys.stdout.buffer.write(struct.pack('<Q', 3))" >none.bin
run sort k.bin out.bin --segments none.bin --backend cpu
[ "$rc" -eq 0 ] && cmp -s k.bin out.bin
check $? "no segment at all (S = 0): keys unchanged"

echo "# OFFSETS bounded by the keys: S + 1 offsets for S <= n (issue 33, defect 6)"
# k.bin holds 20011 keys: n + 1 offsets all 0 (every segment empty) are fine,
# one more is refused at once, from a file by its size and from an endless
# stream (/dev/zero, a pipe, a FIFO) as soon as it passes the bound, with a
# message that names it (not half of the host memory, as before).
python3 -c "import sys; sys.stdout.buffer.write(bytes(8 * 20012))" >full.bin
run sort k.bin out.bin --segments full.bin --backend cpu
[ "$rc" -eq 0 ] && cmp -s k.bin out.bin
check $? "n + 1 offsets (n empty segments): exit 0, keys unchanged"
too_many() { # NAME: the last run refused OFFSETS for its length, OUTPUT untouched
    [ "$rc" -eq 1 ] && one_error_line && [ "$(cat out.bin)" = keep ] &&
        grep -q "holds more than 20012 segment offsets" "$T/err"
    check $? "$1: exit 1 naming the bound, OUTPUT untouched"
}
python3 -c "import sys; sys.stdout.buffer.write(bytes(8 * 20013))" >over.bin
# ARGS...: zesort ARGS within 60 s and, but under ASan, 4 GB of address
# space (a regression that reads on would otherwise take half the memory)
run_bounded() {
    echo keep >out.bin
    if ldd "$Z" 2>/dev/null | grep -q libasan; then
        timeout 60 "$Z" "$@" >"$T/out" 2>"$T/err"
    else
        (ulimit -v 4000000 && exec timeout 60 "$Z" "$@") >"$T/out" 2>"$T/err"
    fi
    rc=$?
}
run_bounded sort k.bin out.bin --segments over.bin --backend cpu
too_many "n + 2 offsets"
run_bounded sort k.bin out.bin --segments /dev/zero --backend cpu
too_many "--segments /dev/zero"
run_bounded sort k.bin out.bin --segments - --backend cpu </dev/zero
too_many "--segments - from /dev/zero"
run_bounded sort k.bin out.bin --segments - --backend cpu < <(yes "")
too_many "--segments - from an endless pipe"
mkfifo endless.fifo
(exec cat /dev/zero >endless.fifo) 2>/dev/null &
writer=$!
run_bounded sort k.bin out.bin --segments endless.fifo --backend cpu
kill "$writer" 2>/dev/null
wait "$writer" 2>/dev/null
too_many "--segments an endless FIFO"

echo "# bench --segments"
run bench --backend cpu --n 64k --segments 16,4096,ragged --repeat 1
[ "$rc" -eq 0 ] && grep -q "ragged" "$T/out" && grep -q "4096" "$T/out"
check $? "bench --segments 16,4096,ragged runs"
run bench --backend cpu --segments 0
[ "$rc" -eq 2 ]
check $? "bench --segments 0: exit 2"
report_summary
