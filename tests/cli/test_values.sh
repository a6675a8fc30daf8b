#!/usr/bin/env bash
# test_values.sh ZESORT — issue 21 item 5 end to end: `zesort sort --values
# ... --value-type u64` and `zesort argsort` (u32/u64 indices, --keys-out)
# on every backend given in $BACKENDS (default: cpu opencl), results checked
# by keyfile.py; the size checks per type and the usage errors.
# Ends with "N passed, N failed"; exits non-zero when anything failed.
set -u

Z=${1:?usage: test_values.sh PATH/TO/zesort}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=report.sh
source "$HERE/report.sh"
cli_test_start values

echo "# results"
"${KF[@]}" gen u32 4099 7 k32.bin --dups
"${KF[@]}" gen f64 3001 8 k64.bin
"${KF[@]}" iota 4099 v32.bin u32
"${KF[@]}" iota 4099 v64.bin u64
"${KF[@]}" iota 3001 w64.bin u64
for b in ${BACKENDS:-cpu opencl}; do
    for algo in cm2 cm4 onesweep; do
        o=(--backend "$b" --algo "$algo")
        expect "$b $algo: sort u32 keys + u64 values" 0 sort k32.bin out.bin \
            --values v64.bin vout.bin --value-type u64 "${o[@]}" --descending
        "${KF[@]}" check u32 k32.bin out.bin --values v64.bin vout.bin --value-type u64 \
            --descending 2>"$T/err"
        check $? "$b $algo: u64 values stable"
        expect "$b $algo: sort f64 keys + u64 values, bits" 0 sort k64.bin out.bin \
            --values w64.bin vout.bin --value-type u64 --type f64 --bits 5:47 "${o[@]}"
        "${KF[@]}" check f64 k64.bin out.bin --values w64.bin vout.bin --value-type u64 \
            --bits 5:47 2>"$T/err"
        check $? "$b $algo: f64 keys, u64 values, bits 5:47"
        expect "$b $algo: sort u32 values (default)" 0 sort k32.bin out.bin \
            --values v32.bin vout.bin "${o[@]}"
        "${KF[@]}" check u32 k32.bin out.bin --values v32.bin vout.bin 2>"$T/err"
        check $? "$b $algo: u32 values"
        for it in u32 u64; do
            expect "$b $algo: argsort $it indices" 0 argsort k32.bin idx.bin --index-type "$it" \
                "${o[@]}" --descending
            "${KF[@]}" argsort u32 k32.bin idx.bin --index-type "$it" --descending 2>"$T/err"
            check $? "$b $algo: argsort $it = the stable permutation"
            expect "$b $algo: argsort f64 $it --keys-out" 0 argsort k64.bin idx.bin \
                --keys-out ks.bin --type f64 --index-type "$it" "${o[@]}"
            "${KF[@]}" argsort f64 k64.bin idx.bin --index-type "$it" --keys-out ks.bin \
                2>"$T/err"
            check $? "$b $algo: argsort f64 $it with the sorted keys"
        done
    done
done
cp k32.bin k32.orig
run argsort k32.bin idx.bin --keys-out ks.bin --backend cpu
cmp -s k32.bin k32.orig
check $? "argsort: INPUT unchanged"

echo "# size checks per type and usage errors"
head -c 16392 v64.bin >v64short.bin   # 2049 u64 values for 4099 keys
head -c 16396 v64.bin >v64odd.bin     # not a multiple of 8
expect "u64 values: count differs from the keys" 1 sort k32.bin out.bin \
    --values v64short.bin vout.bin --value-type u64
grep -q "holds 2049 values" "$T/err"
check $? "u64 values: the message counts u64 values"
expect "u64 values: size not a multiple of 8" 1 sort k32.bin out.bin \
    --values v64odd.bin vout.bin --value-type u64
grep -q "multiple of 8" "$T/err"
check $? "u64 values: the message names 8 bytes"
expect "u32 values file read as u64: count differs" 1 sort k32.bin out.bin \
    --values v32.bin vout.bin --value-type u64
expect "unknown --value-type" 2 sort k32.bin out.bin --values v32.bin vout.bin --value-type u16
expect "unknown --index-type" 2 argsort k32.bin idx.bin --index-type i64
expect "argsort: --values is sort's" 2 argsort k32.bin idx.bin --values a b
expect "argsort: missing INDICES_OUT" 2 argsort k32.bin
expect "argsort: KEYS_OUT = INDICES_OUT" 2 argsort k32.bin idx.bin --keys-out idx.bin
expect "argsort: --device with auto" 2 argsort k32.bin idx.bin --device 0
expect "argsort: no such device" 1 argsort k32.bin idx.bin --backend cpu --device 5
grep -q "there" "$T/err"
check $? "argsort: the message says how many devices there are"
expect "argsort: missing input" 1 argsort no-such.bin idx.bin
# 2^32 + 1 u32 keys (a sparse file: nothing is read) with u32 indices: refused
# at once, naming the index type that holds them, whatever the host's memory
truncate -s $(((1 << 34) + 4)) big.bin
expect "argsort: 2^32 + 1 keys, u32 indices" 1 argsort big.bin idx.bin --index-type u32
grep -q -- "--index-type u64" "$T/err"
check $? "argsort: the message names --index-type u64"
rm -f big.bin
[ ! -e idx2.bin ] && ! ls -A | grep -q '^\.zesort-tmp-'
check $? "no output, no temporary file after errors"
echo "# bench --value-type u64"
run bench --backend cpu --n 4k --algo cm4 --scan device --value-type u64 --repeat 1 --csv b.csv
[ "$rc" -eq 0 ] && [ "$(tail -n +2 b.csv | cut -d, -f12 | tr '\n' ' ')" = "u32 u64 u32+gather " ]
check $? "bench --value-type u64: rows u32, u64, u32+gather"
grep -q "u64/(u32+gather)" "$T/out"
check $? "bench --value-type u64: prints the cost ratios"
run argsort --help
grep -q -- "--index-type" "$T/out"
check $? "argsort --help names --index-type"
report_summary
