#!/usr/bin/env bash
# test_mpi_cli.sh NP ZESORT — `mpirun -np NP zesort mpi-sort` end to end
# (issue 24): results checked by keyfile.py (a stable sort in Python) for
# every key type, values of both widths, descending, bit ranges, an empty
# file, INPUT = OUTPUT, small MPI-IO and exchange chunks (test hook); the
# output contract on errors, each rank's exit status seen: a file whose size
# is not a multiple of the key size, values that do not match, a rank whose
# local sort fails (test hook) -- exit 1 on every rank, OUTPUT untouched, no
# temporary file left; usage errors (exit 2); mpi-bench's report.
# $BACKENDS: the backends of the result cases (default: cpu).
# Ends with "N passed, N failed"; exits non-zero when anything failed.
set -u
NP=${1:?usage: test_mpi_cli.sh NP PATH/TO/zesort}
Z=${2:?usage: test_mpi_cli.sh NP PATH/TO/zesort}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
MPI=(bash "$HERE/run_mpi.sh" "$NP" 60)
# shellcheck source=../cli/report.sh
source "$HERE/../cli/report.sh"
cli_test_start mpi-cli

# sorted NAME TYPE IN BACKEND [--values VIN] [sort options...]: mpi-sort IN
# into out.bin (and VIN into vout.bin), checked by keyfile.py.
sorted() {
    local name=$1 type=$2 in=$3 backend=$4
    shift 4
    local vals=()
    if [ "${1:-}" = --values ]; then vals=(--values "$2" vout.bin); shift 2; fi
    if "${MPI[@]}" "$Z" mpi-sort "$in" out.bin --type "$type" --backend "$backend" "${vals[@]}" \
        "$@" >out 2>"$T/err" && "${KF[@]}" check "$type" "$in" out.bin "${vals[@]}" "$@" 2>>"$T/err"; then
        ok "$NP ranks: $name"
    else
        bad "$NP ranks: $name"
    fi
}

# every_rank_exits WANT NAME ARGS...: mpi-sort ARGS, each rank's exit status WANT.
every_rank_exits() {
    local want=$1 name=$2
    shift 2
    rm -f rc.*
    "${MPI[@]}" bash -c '"$@"; echo $? >rc.$OMPI_COMM_WORLD_RANK' _ "$Z" mpi-sort "$@" \
        >out 2>"$T/err"
    local got
    got=$(cat rc.* 2>/dev/null | sort | uniq -c | tr -s ' ')
    if [ "$got" = " $NP $want" ]; then ok "$NP ranks: $name: exit $want on every rank"
    else bad "$NP ranks: $name: exit statuses (count status) '$got', want $NP x $want"; fi
}

# untouched NAME: out.bin still holds old.bin, no temporary file left
untouched() {
    cmp -s out.bin old.bin; check $? "$NP ranks: $1: OUTPUT untouched"
    [ -z "$(ls -A | grep '^\.zesort-')" ]; check $? "$NP ranks: $1: no temporary file left"
}

echo "# results"
"${KF[@]}" gen u32 30011 1 u32.bin --dups
"${KF[@]}" iota 30011 v32.bin u32
"${KF[@]}" iota 30011 v64.bin u64
for t in i32 f32 u64 i64 f64; do "${KF[@]}" gen $t 20011 2 $t.bin --dups; done
"${KF[@]}" iota 20011 w64.bin u64
for b in ${BACKENDS:-cpu}; do
    sorted "u32 pairs ($b)" u32 u32.bin "$b" --values v32.bin
    sorted "f64 descending ($b)" f64 f64.bin "$b" --descending
done
sorted "i32 --bits 4:20" i32 i32.bin cpu --bits 4:20
sorted "f32 descending --bits 8:32" f32 f32.bin cpu --descending --bits 8:32
sorted "u64 pairs u64" u64 u64.bin cpu --values w64.bin --value-type u64
sorted "i64 --bits 3:41 descending" i64 i64.bin cpu --bits 3:41 --descending
: >empty.bin
sorted "empty file" u32 empty.bin cpu
ZESORT_MPI_TEST_CHUNK_BYTES=100 sorted "100-byte chunks (I/O, exchange)" u32 u32.bin cpu \
    --values v32.bin
cp u32.bin same.bin
"${MPI[@]}" "$Z" mpi-sort same.bin same.bin --backend cpu >out 2>"$T/err" &&
    "${KF[@]}" check u32 u32.bin same.bin; check $? "$NP ranks: INPUT = OUTPUT"

echo "# errors"
head -c 1000 u32.bin >old.bin
cp old.bin out.bin
head -c 4001 u32.bin >bad.bin
every_rank_exits 1 "size not a multiple of 4" bad.bin out.bin --backend cpu
grep -q "^zesort: 'bad.bin' has 4001 bytes, not a multiple of 4" "$T/err"
check $? "$NP ranks: size error reported"
untouched "size error"
mkfifo fifo.bin
every_rank_exits 1 "a FIFO INPUT" fifo.bin out.bin --backend cpu
grep -q "^zesort: 'fifo.bin' is not a regular file" "$T/err"; check $? "$NP ranks: FIFO refused"
every_rank_exits 1 "missing INPUT" u32.bin.notthere out.bin --backend cpu
every_rank_exits 1 "values count" u32.bin out.bin --values v64.bin vout.bin --backend cpu
untouched "values count"
ZESORT_MPI_TEST_FAIL_RANK=$((NP - 1)) every_rank_exits 1 "local sort fails on the last rank" \
    u32.bin out.bin --values v32.bin vout.bin --backend cpu
grep -q "^zesort: mpi-sort: the sort failed: .*ZESORT_MPI_TEST_FAIL_RANK=$((NP - 1))" "$T/err"
check $? "$NP ranks: failing rank's message reported"
untouched "failing local sort"
every_rank_exits 2 "unknown option" u32.bin out.bin --bogus
every_rank_exits 2 "bad --bits" u32.bin out.bin --bits 0:40
every_rank_exits 2 "missing OUTPUT" u32.bin
every_rank_exits 2 "--device local without a backend" u32.bin out.bin --device local
untouched "usage errors"

echo "# mpi-bench"
if "${MPI[@]}" "$Z" mpi-bench --n 50k --input equal --backend cpu --repeat 1 >out 2>"$T/err" &&
    grep -q "local_sort_ms  splitters_ms  exchange_ms  merge_ms" out &&
    [ "$(grep -c '^ *[0-9]' out)" -eq "$NP" ] && grep -q "^imbalance: 1.0000" out; then
    ok "$NP ranks: mpi-bench: a row per rank, all-equal keys balanced"
else
    bad "$NP ranks: mpi-bench"; sed 's/^/       out: /' out | head -8
fi
if [[ " ${BACKENDS:-cpu} " == *" opencl "* ]] && [ "$NP" -ge 2 ]; then
    # --device local: each rank of the node its own device (PoCL made to show two)
    if POCL_DEVICES="pthread pthread" "${MPI[@]}" "$Z" mpi-bench --n 10k --backend opencl \
            --device local --repeat 1 >out 2>"$T/err" &&
        [ "$(awk '/^ *[0-9]+ +[0-9]+ +[0-9]+/ {print $1 ":" $2}' out | head -2 | tr '\n' ' ')" = "0:0 1:1 " ]; then
        ok "$NP ranks: --device local: ranks 0 and 1 on devices 0 and 1"
    else
        bad "$NP ranks: --device local"; sed 's/^/       out: /' out | head -6
    fi
fi
report_summary
