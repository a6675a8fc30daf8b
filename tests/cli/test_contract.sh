#!/usr/bin/env bash
# test_contract.sh ZESORT — the CLI habits of DESIGN.md §5.2 that users
# bring from other tools: '-' as standard input and output (as in sort(1)),
# bench's --input, --descending and --bits with verified rows, its default
# algorithms, an auto row naming what ran, and messages that say what to do
# (the Level Zero driver's Debian package; why demo's device can differ from
# default-backend).
# Ends with "N passed, N failed"; exits non-zero when anything failed.
set -u

Z=${1:?usage: test_contract.sh PATH/TO/zesort PATH/TO/zesort.1}
MAN=$(realpath -e "${2:?usage: test_contract.sh PATH/TO/zesort PATH/TO/zesort.1}") || exit 1
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=report.sh
source "$HERE/report.sh"
cli_test_start contract

KEYS() { "${KF[@]}" "$@"; }

KEYS gen u32 5000 7 keys.bin --dups
KEYS gen i64 3000 8 keys64.bin
KEYS iota 5000 vals.bin
"$Z" sort keys.bin want.bin --backend cpu || exit 1

# ---------------------------------------------------------------------------
echo "# '-' is standard input and output"
"$Z" sort - out.bin --backend cpu <keys.bin 2>"$T/err"
check $? "sort - FILE: reads standard input"
cmp -s out.bin want.bin
check $? "sort - FILE: the same result as a file sort"
"$Z" sort keys.bin - --backend cpu 2>"$T/err" | cat >piped.bin
[ "${PIPESTATUS[0]}" -eq 0 ] && cmp -s piped.bin want.bin
check $? "sort FILE -: writes standard output (through cat)"
cat keys.bin | "$Z" sort - - --backend cpu 2>"$T/err" | cat >round.bin
[ "${PIPESTATUS[1]}" -eq 0 ] && cmp -s round.bin want.bin
check $? "sort - -: stdin to stdout, the same as a file sort"
cat keys64.bin | "$Z" sort - - --type i64 --descending --bits 0:16 2>"$T/err" | cat >round64.bin
[ "${PIPESTATUS[1]}" -eq 0 ] && KEYS check i64 keys64.bin round64.bin --descending --bits 0:16
check $? "sort - - --type i64 --descending --bits 0:16: a stable sort"
"$Z" sort keys.bin k.out --values - v.out --backend cpu <vals.bin 2>"$T/err" &&
    KEYS check u32 keys.bin k.out --values vals.bin v.out
check $? "sort --values - VALUES_OUT: values from standard input"
"$Z" sort keys.bin k2.out --values vals.bin - --backend cpu 2>"$T/err" | cat >v2.out &&
    KEYS check u32 keys.bin k2.out --values vals.bin v2.out
check $? "sort --values VALUES_IN -: values to standard output"
"$Z" argsort - - --keys-out ak.out --backend cpu <keys.bin 2>"$T/err" | cat >ai.out &&
    KEYS argsort u32 keys.bin ai.out --keys-out ak.out
check $? "argsort - -: indices to standard output"
"$Z" argsort keys.bin ai2.out --keys-out - --backend cpu 2>"$T/err" | cat >ak2.out &&
    KEYS argsort u32 keys.bin ai2.out --keys-out ak2.out
check $? "argsort --keys-out -: sorted keys to standard output"
python3 -c 'import struct, sys; sys.stdout.buffer.write(struct.pack("<4Q", 0, 1000, 1000, 5000))' >offsets.bin
"$Z" sort keys.bin seg-file.bin --segments offsets.bin --backend cpu 2>"$T/err" &&
    "$Z" sort keys.bin seg-pipe.bin --segments - --backend cpu <offsets.bin 2>"$T/err" &&
    cmp -s seg-file.bin seg-pipe.bin
check $? "sort --segments -: offsets from standard input"
printf 'abc' | "$Z" sort - never.bin 2>"$T/err"
[ $? -eq 1 ] && one_error_line && [ ! -e never.bin ]
check $? "sort - with 3 bytes on stdin: exit 1, nothing written"
# An endless standard input stops at the host-memory limit, as any INPUT
# does (a 1 GiB address-space limit makes that limit small, and quick).
# (not under ASan: an address-space limit stops AddressSanitizer itself)
if ! ldd "$Z" 2>/dev/null | grep -q libasan; then
    (ulimit -v 1048576; "$Z" sort - never.bin --backend cpu </dev/zero 2>"$T/err")
    [ $? -eq 1 ] && one_error_line && [ ! -e never.bin ]
    check $? "sort - from /dev/zero: refused (exit 1), bounded"
fi

expect "sort --values - -: both values files '-' is a usage error" 2 \
    sort keys.bin x.bin --values - -
expect "sort - x --values - y: two files from standard input" 2 \
    sort - x.bin --values - y.bin
expect "sort - x --segments -: two files from standard input" 2 \
    sort - x.bin --segments -
expect "sort x - --values v -: two files to standard output" 2 \
    sort keys.bin - --values vals.bin -
expect "argsort x - --keys-out -: two files to standard output" 2 \
    argsort keys.bin - --keys-out -
[ ! -e x.bin ] && [ ! -e y.bin ]
check $? "usage errors wrote nothing"
run bench --backend cpu --n 1k --algo cm4 --scan device --repeat 1 --csv -
[ "$rc" -eq 0 ] && [ "$(head -n 1 "$T/out" | cut -d, -f1-8)" = \
    backend,device,algo,type,pairs,n,median_ms,mkeys_per_s ] &&
    [ "$(wc -l <"$T/out")" -eq 2 ] && grep -q '^backend ' "$T/err"
check $? "bench --csv -: the CSV alone on stdout, the table on stderr"
expect "bench --csv - --plot -: both to standard output" 2 \
    bench --csv - --plot -
if command -v gnuplot >/dev/null; then
    "$Z" bench --backend cpu --n 1k,2k --algo cm4 --scan device --repeat 1 --plot - \
        2>"$T/err" | cat >plot.png
    [ "${PIPESTATUS[0]}" -eq 0 ] &&
        [ "$(head -c 8 plot.png | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]
    check $? "bench --plot -: a PNG on standard output"
else
    skip "gnuplot not installed: bench --plot - not run"
fi

# ---------------------------------------------------------------------------
echo "# bench: --input, --descending, --bits, the default algorithms, auto"
# csv_all FILE COL VALUE: every row (one at least) has VALUE in column COL;
# col FILE NAME: the column of NAME in FILE's header (1-based).
csv_all() { tail -n +2 "$1" | awk -F, -v c="$2" -v v="$3" '$c != v { bad = 1 } END { exit bad || NR == 0 }'; }
col() { head -n 1 "$1" | tr , '\n' | grep -nx "$2" | cut -d: -f1; }
for kind in random sorted reversed few equal top-bits; do
    for backend in cpu opencl; do
        [ "$backend" = opencl ] && ! "$Z" info 2>/dev/null | grep -q '^backends: .*opencl' && continue
        run bench --backend "$backend" --n 3000 --algo cm4,onesweep --scan device --repeat 1 \
            --input "$kind" --csv "in-$kind-$backend.csv"
        [ "$rc" -eq 0 ] && csv_all "in-$kind-$backend.csv" "$(col "in-$kind-$backend.csv" input)" "$kind" &&
            [ "$(tail -n +2 "in-$kind-$backend.csv" | wc -l)" -eq 2 ] && grep -q "input $kind," "$T/out"
        check $? "bench --input $kind on $backend: verified rows, input column $kind"
    done
done
run bench --backend cpu --n 3000 --algo cm4 --scan device --repeat 1 --descending --csv desc.csv
[ "$rc" -eq 0 ] && csv_all desc.csv "$(col desc.csv order)" descending
check $? "bench --descending: verified rows, order column descending"
run bench --backend cpu --n 3000 --type u64 --algo cm2,onesweep --scan device --repeat 1 \
    --bits 8:40 --input few --csv bits.csv
[ "$rc" -eq 0 ] && csv_all bits.csv "$(col bits.csv bits)" 8:40 &&
    [ "$(tail -n +2 bits.csv | wc -l)" -eq 2 ]
check $? "bench --bits 8:40 on u64 keys: verified rows, bits column 8:40"
run bench --backend cpu --n 2000 --algo cm4 --scan device --repeat 1 --pairs --descending \
    --bits 0:3 --csv pairs.csv
[ "$rc" -eq 0 ] && csv_all pairs.csv "$(col pairs.csv pairs)" 1
check $? "bench --pairs --descending --bits 0:3: verified stable"
run bench --backend cpu --n 2000 --repeat 1 --csv default.csv
algos=$(tail -n +2 default.csv | cut -d, -f3 | sort -u | tr '\n' ' ')
[ "$rc" -eq 0 ] && [ "$algos" = "cm2 cm4 onesweep " ]
check $? "bench's default --algo: cm2, cm4 and onesweep (got: $algos)"
run bench --backend cpu --n 2000 --algo auto,cm4 --scan device --repeat 1 --csv auto.csv
ran=$(awk -F, -v c="$(col auto.csv algo_ran)" 'NR > 1 && $3 == "auto" { print $c }' auto.csv)
[ "$rc" -eq 0 ] && [ -n "$ran" ] && [ "$ran" != auto ] &&
    grep -Eq "^cpu +auto\\($ran\\) " "$T/out" &&
    awk -F, -v c="$(col auto.csv algo_ran)" 'NR > 1 && $3 == "cm4" && $c != "cm4" { bad = 1 } END { exit bad }' auto.csv
check $? "bench auto: the row names the algorithm that ran (auto($ran), algo_ran $ran)"
for flag in --bits --input --descending; do
    for where in "bench --help" "zesort.1"; do
        if [ "$where" = zesort.1 ]; then
            grep -qF -- "${flag//-/\\-}" "$MAN" # roff writes \-\-bits
        else
            "$Z" bench --help | grep -q -- "$flag"
        fi
        check $? "$where describes bench $flag"
    done
done
for column in $(head -n 1 default.csv | tr , ' '); do
    "$Z" bench --help | grep -Eq "^ +$column +[a-z(0-9]"
    check $? "bench --help documents CSV column $column"
done
expect "bench --input bogus" 2 bench --input bogus
expect "bench --bits 0:33 on u32" 2 bench --bits 0:33
expect "bench --bits given twice" 2 bench --bits 0:8 --bits 0:9
expect "bench --descending=1" 2 bench --descending=1
expect "bench --segments with --input" 2 bench --segments 100 --input sorted

# ---------------------------------------------------------------------------
echo "# messages that say what to do"
# No Level Zero driver can load: the loader is told to load one that is not there.
ZE_ENABLE_ALT_DRIVERS=/nonexistent/x.so "$Z" sort keys.bin lz.bin --backend level-zero \
    >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 1 ] && one_error_line && grep -q intel-opencl-icd "$T/err" && grep -q libze1 "$T/err"
check $? "sort --backend level-zero without a driver names intel-opencl-icd and libze1"
ZE_ENABLE_ALT_DRIVERS=/nonexistent/x.so "$Z" bench --backend level-zero --n 1k >"$T/out" 2>"$T/err"
[ $? -eq 1 ] && grep -q intel-opencl-icd "$T/err"
check $? "bench --backend level-zero without a driver names intel-opencl-icd"
ZE_ENABLE_ALT_DRIVERS=/nonexistent/x.so "$Z" info >"$T/out" 2>"$T/err"
[ $? -eq 0 ] && grep -q '^note-level-zero: .*intel-opencl-icd' "$T/out"
check $? "info without a Level Zero driver: note-level-zero names intel-opencl-icd"
# A wrong device index of a backend that has devices is no missing driver.
"$Z" sort keys.bin dev.bin --backend cpu --device 3 >"$T/out" 2>"$T/err"
[ $? -eq 1 ] && ! grep -q intel-opencl-icd "$T/err"
check $? "a wrong --device names no driver package"
run info
default=$(sed -n 's/^default-backend: //p' "$T/out")
demo=$(sed -n 's/^demo-backend: //p' "$T/out")
[ "$rc" -eq 0 ] && [ -n "$demo" ]
check $? "info: demo-backend: $demo (default-backend: $default)"
if [ "$demo" != "$default" ]; then
    grep -q '^demo-backend-why: .*OpenCL CPU' "$T/out"
    check $? "info: demo-backend-why explains the difference"
    run demo --n 16k
    grep -q "^backend: $demo," "$T/out"
    check $? "demo measures on demo-backend ($demo)"
else
    ! grep -q '^demo-backend-why:' "$T/out"
    check $? "info: no demo-backend-why when both agree"
fi

report_summary
