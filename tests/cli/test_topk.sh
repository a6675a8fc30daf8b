#!/usr/bin/env bash
# test_topk.sh ZESORT — `zesort topk` end to end: results on every backend
# in $BACKENDS (default: cpu opencl) against topk_check.py's oracle (keys,
# --indices, --values, --descending, --bits, --segments, K from 0 past n),
# usage errors (exit 2) and bad files (exit 1) writing nothing, and
# `bench --topk`. Ends with "N passed, N failed"; non-zero when any failed.
set -u

Z=${1:?usage: test_topk.sh PATH/TO/zesort}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=report.sh
source "$HERE/report.sh"
cli_test_start topk
TC=(python3 "$HERE/topk_check.py")

echo "# results"
"${TC[@]}" u32 k.bin 0 - --make 3001 7
"${TC[@]}" f32 f.bin 0 - --make 3001 8
"${KF[@]}" iota 3001 v.bin u32
python3 -c "import struct; open('off.bin','wb').write(struct.pack('<7Q',0,5,5,1000,1001,2500,3001))"
for b in ${BACKENDS:-cpu opencl}; do
    for k in 0 1 33 1500 3000 3001 5000; do
        expect "$b: topk u32 K=$k --indices" 0 topk k.bin "$k" out.bin --indices i.bin --backend "$b"
        "${TC[@]}" u32 k.bin "$k" out.bin --indices i.bin >"$T/err" 2>&1
        check $? "$b: K=$k keys and indices"
    done
    expect "$b: topk f32 --descending --values" 0 topk f.bin 100 out.bin --type f32 \
        --descending --values v.bin vo.bin --backend "$b"
    "${TC[@]}" f32 f.bin 100 out.bin --descending --values v.bin vo.bin >"$T/err" 2>&1
    check $? "$b: f32 descending (NaN, +-0) with values"
    expect "$b: topk --bits 4:20" 0 topk k.bin 200 out.bin --bits 4:20 --indices i.bin \
        --backend "$b"
    "${TC[@]}" u32 k.bin 200 out.bin --bits 4:20 --indices i.bin >"$T/err" 2>&1
    check $? "$b: bits 4:20 ties in input order"
    for k in 3 600; do
        expect "$b: topk --segments K=$k" 0 topk k.bin "$k" out.bin --segments off.bin \
            --indices i.bin --backend "$b"
        "${TC[@]}" u32 k.bin "$k" out.bin --segments off.bin --indices i.bin >"$T/err" 2>&1
        check $? "$b: segments K=$k (short and empty segments)"
    done
done
expect "topk to stdout" 0 topk k.bin 10 - --backend cpu
cp "$T/out" out.bin
"${TC[@]}" u32 k.bin 10 out.bin >"$T/err" 2>&1
check $? "topk to stdout: the keys"

echo "# errors: nothing written, an existing OUTPUT untouched"
echo old >keep.bin
printf 'abcdefg' >odd.bin
head -c 400 v.bin >short.bin
python3 -c "import struct; open('badoff.bin','wb').write(struct.pack('<3Q',0,9,4))"
while IFS='|' read -r want name args; do
    # shellcheck disable=SC2086
    expect "$name" "$want" topk $args
    [ "$(cat keep.bin)" = old ] && [ ! -e vo2.bin ] && [ ! -e i2.bin ]
    check $? "$name: nothing written"
done <<'CASES'
2|K negative|k.bin -3 keep.bin
2|K not a number|k.bin ten keep.bin
2|K with junk|k.bin 5x keep.bin
2|missing OUTPUT|k.bin 5
2|missing K and OUTPUT|k.bin
2|--values with --indices|k.bin 5 keep.bin --values v.bin vo2.bin --indices i2.bin
2|bad --bits|k.bin 5 keep.bin --bits 12:8
2|bad --type|k.bin 5 keep.bin --type u7
2|unknown flag|k.bin 5 keep.bin --algo cm4
1|missing INPUT|nosuch.bin 5 keep.bin
1|INPUT size not a multiple|odd.bin 1 keep.bin
1|values count differs|k.bin 5 keep.bin --values short.bin vo2.bin
1|decreasing offsets|k.bin 5 keep.bin --segments badoff.bin --indices i2.bin
CASES

echo "# bench --topk"
expect "bench --topk" 0 bench --topk 10 --n 100k --repeat 1 --backend cpu
grep -q '^topk ' "$T/out"
check $? "bench --topk prints its rows"
expect "bench --topk with --pairs" 2 bench --topk 10 --pairs
expect "bench --topk -1" 2 bench --topk -1

report_summary
