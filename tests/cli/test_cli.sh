#!/usr/bin/env bash
# test_cli.sh ZESORT — end-to-end tests of the `zesort` command-line tool
# against the contract in docs/design.md §5.2: exit codes, one-line errors, atomic
# outputs, sort results (checked by tests/cli/keyfile.py), info, bench, demo.
# The sort matrices of each backend are test_cli_matrix.sh's (a meson test per
# backend, run side by side with this one).
# Ends with "N passed, N failed"; exits non-zero when anything failed.
set -u

Z=${1:?usage: test_cli.sh PATH/TO/zesort}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=report.sh
source "$HERE/report.sh"
cli_test_start cli

# Environment for zesort (set for the level-zero backend only).
ZENV=()
# run ARGS...: runs zesort, sets $rc, stdout in $T/out, stderr in $T/err.
run() {
    env "${ZENV[@]}" "$Z" "$@" >"$T/out" 2>"$T/err"
    rc=$?
}

# No temporary file of ours left in directory $1.
no_temp_files() {
    ! ls -A "$1" | grep -q '^\.zesort-tmp-'
}

gen() { "${KF[@]}" gen "$@"; }
# (replaces report.sh's check: here it compares an output file with keyfile.py)
check() { "${KF[@]}" check "$@" 2>"$T/check_err"; }

# ---------------------------------------------------------------------------
echo "# help and version"
for args in "--help" "-h" "help" "sort --help" "bench --help" "info --help" "demo --help" \
    "help sort" "help bench" "help info" "help demo" "sort -h" "sort --bogus --help"; do
    # shellcheck disable=SC2086
    run $args
    if [ "$rc" -eq 0 ] && grep -q '^usage: zesort' "$T/out" && [ ! -s "$T/err" ]; then
        ok "zesort $args"
    else
        bad "zesort $args: exit $rc"
    fi
done
for flag in --type --values --algo --backend --scan --descending --bits; do
    if "$Z" sort --help | grep -q -- "$flag"; then ok "sort --help describes $flag"; else bad "sort --help lacks $flag"; fi
done
for flag in --n --algo --type --pairs --backend --repeat --csv --plot --scan --peer; do
    if "$Z" bench --help | grep -q -- "$flag"; then ok "bench --help describes $flag"; else bad "bench --help lacks $flag"; fi
done
run --version
if [ "$rc" -eq 0 ] && grep -Eq '^zesort [0-9]+\.[0-9]+' "$T/out"; then ok "--version"; else bad "--version"; fi

# ---------------------------------------------------------------------------
echo "# usage errors: exit 2 and one 'zesort: ' line"
gen u32 1000 1 keys.bin
expect "no command" 2
expect "unknown command" 2 frobnicate
expect "unknown top-level flag" 2 --frob
expect "help for unknown command" 2 help frob
expect "sort: unknown flag" 2 sort keys.bin out.bin --frob
expect "sort: unknown flag before operands" 2 sort --frob keys.bin out.bin
expect "sort: missing operands" 2 sort
expect "sort: missing OUTPUT" 2 sort keys.bin
expect "sort: extra operand" 2 sort keys.bin out.bin extra.bin
expect "sort: bad --type" 2 sort keys.bin out.bin --type u24
expect "sort: bad --algo" 2 sort keys.bin out.bin --algo cm8
expect "sort: bad --backend" 2 sort keys.bin out.bin --backend cuda
expect "sort: bad --scan" 2 sort keys.bin out.bin --scan gpu
expect "sort: --scan without value" 2 sort keys.bin out.bin --scan
expect "sort: --bits 12:8" 2 sort keys.bin out.bin --bits 12:8
expect "sort: --bits 0:40 on u32" 2 sort keys.bin out.bin --bits 0:40
expect "sort: --bits 8:8" 2 sort keys.bin out.bin --bits 8:8
expect "sort: --bits abc" 2 sort keys.bin out.bin --bits abc
expect "sort: --bits 0:32x" 2 sort keys.bin out.bin --bits 0:32x
expect "sort: --bits -1:8" 2 sort keys.bin out.bin --bits -1:8
expect "sort: --values with one operand" 2 sort keys.bin out.bin --values v.bin
expect "sort: --descending=1" 2 sort keys.bin out.bin --descending=1
expect "sort: VALUES_OUT same as OUTPUT" 2 sort keys.bin out.bin --values keys.bin out.bin
expect "sort: VALUES_OUT same as OUTPUT (./ spelling)" 2 sort keys.bin ./out.bin --values keys.bin out.bin
expect "bench: unknown flag" 2 bench --frob
expect "bench: operand" 2 bench extra
expect "bench: --n 0" 2 bench --n 0
expect "bench: --n abc" 2 bench --n abc
expect "bench: --n 1,,2" 2 bench --n 1,,2
expect "bench: bad --algo in list" 2 bench --algo cm2,cm8
expect "bench: --repeat 0" 2 bench --repeat 0
expect "bench: --repeat without value" 2 bench --repeat
expect "bench: bad --scan" 2 bench --scan gpu
expect "bench: bad --type" 2 bench --type u24
expect "info: extra operand" 2 info extra
expect "info: unknown flag" 2 info --frob
expect "demo: unknown flag" 2 demo --frob
expect "demo: bad --n" 2 demo --n 0

# ---------------------------------------------------------------------------
echo "# other errors: exit 1"
expect "sort: missing input" 1 sort no-such-file.bin out.bin
[ ! -e out.bin ] && ok "no output after missing input" || bad "output created after missing input"
printf '1234567' >odd.bin
expect "sort: 7-byte u32 file" 1 sort odd.bin out.bin
printf '123456789012' >odd12.bin
expect "sort: 12-byte u64 file" 1 sort odd12.bin out.bin --type u64
expect "sort: input is a directory" 1 sort . out.bin
expect "sort: output in missing directory" 1 sort keys.bin no/such/dir/out.bin
mkdir -p outdir
expect "sort: output is a directory" 1 sort keys.bin outdir
gen u32 999 2 values999.bin
printf '12345' >values_odd.bin
expect "sort: odd-sized values file" 1 sort keys.bin out.bin --values values_odd.bin vout.bin
expect "sort: missing values file" 1 sort keys.bin out.bin --values no-such.bin vout.bin
# A values file with another count is a data error (DESIGN.md §5.2): exit 1.
expect "sort: values count differs from keys" 1 sort keys.bin out.bin --values values999.bin vout.bin
if [ -w /dev/full ]; then
    "$Z" info >/dev/full 2>"$T/err"
    rc=$?
    [ "$rc" -eq 1 ] && one_error_line && ok "info to a full stdout: exit 1" || bad "info >/dev/full: exit $rc"
fi

# ---------------------------------------------------------------------------
echo "# atomic output"
mkdir -p atomic
printf 'precious' >atomic/out.bin
cp atomic/out.bin precious.copy
for case in "odd.bin|" "no-such.bin|" "keys.bin|--bits 12:8" "keys.bin|--frob" \
    "keys.bin|--type u64 --bits 0:65" "keys.bin|--values values999.bin atomic/vout.bin"; do
    input=${case%%|*}
    extra=${case#*|}
    # shellcheck disable=SC2086
    run sort "$input" atomic/out.bin $extra
    if [ "$rc" -ne 0 ] && cmp -s atomic/out.bin precious.copy && no_temp_files atomic && [ ! -e atomic/vout.bin ]; then
        ok "failed sort ($input $extra) leaves OUTPUT untouched, no temp file"
    else
        bad "failed sort ($input $extra): exit $rc, OUTPUT changed or temp file left"
    fi
done
# A library refusal (not supported yet) must also leave the output alone.
run sort keys.bin atomic/out.bin --type u64
if [ "$rc" -eq 0 ] || { cmp -s atomic/out.bin precious.copy && no_temp_files atomic; }; then
    ok "unsupported request leaves OUTPUT untouched"
else
    bad "unsupported request changed OUTPUT"
fi
# Replacing a file keeps its permission bits; new files follow the umask.
cp keys.bin atomic/mode.bin
chmod 640 atomic/mode.bin
run sort keys.bin atomic/mode.bin --backend cpu
mode=$(stat -c %a atomic/mode.bin)
[ "$rc" -eq 0 ] && [ "$mode" = 640 ] && ok "replaced OUTPUT keeps mode 640" || bad "replaced OUTPUT mode $mode (exit $rc)"
(umask 022 && "$Z" sort keys.bin atomic/new.bin --backend cpu)
mode=$(stat -c %a atomic/new.bin 2>/dev/null)
[ "$mode" = 644 ] && ok "new OUTPUT mode 644 under umask 022" || bad "new OUTPUT mode $mode"
no_temp_files atomic && no_temp_files . && ok "no temp files left anywhere" || bad "temp files left"

# ---------------------------------------------------------------------------
echo "# sorting"
backends=(cpu)
run info
grep -q '^backends:.*opencl' "$T/out" && backends+=(opencl)
ZE_DRIVER="$(dirname "$Z")/tests/ze_cl_driver/libze_cl_driver.so"
if [ -f "$ZE_DRIVER" ] &&
    ZE_ENABLE_ALT_DRIVERS="$ZE_DRIVER" "$Z" info 2>/dev/null | grep -q '^backends:.*level-zero'; then
    backends+=(level-zero)
fi
echo "# backends under test: ${backends[*]}"


# (the u32 matrix per backend, algorithm, scan mode and size: test_cli_matrix.sh)
ZENV=()
sort_case "auto backend, auto algo" u32 50000
sort_case "flags as --flag=value" u32 3000 --algo=cm4 --scan=host --backend=cpu

# INPUT == OUTPUT
gen u32 20000 7 same.bin
cp same.bin same.orig
run sort same.bin same.bin --backend cpu
[ "$rc" -eq 0 ] && check u32 same.orig same.bin && ok "INPUT == OUTPUT" || bad "INPUT == OUTPUT: exit $rc"
cp same.orig same2.bin
run sort same2.bin ./same2.bin
[ "$rc" -eq 0 ] && check u32 same.orig same2.bin && ok "INPUT == OUTPUT (other spelling)" || bad "INPUT == OUTPUT (other spelling)"
# An operand that looks like a flag, after "--".
cp same.orig ./-dash.bin
run sort --backend cpu -- -dash.bin -dash.out
[ "$rc" -eq 0 ] && check u32 same.orig ./-dash.out && ok "'--' ends the options" || bad "'--': exit $rc"

# Features the library may not support yet: either a correct result, or exit 2
# with "not supported yet" and no output.
maybe_case() {
    local name=$1 type=$2 n=$3
    shift 3
    rm -f sorted.bin
    gen "$type" "$n" 11 in.bin
    run sort in.bin sorted.bin --type "$type" "$@"
    if [ "$rc" -eq 0 ]; then
        if check "$type" in.bin sorted.bin "$@"; then ok "$name: sorted"; else bad "$name: wrong result: $(cat "$T/check_err")"; fi
    elif [ "$rc" -eq 2 ] && one_error_line && grep -q 'not supported yet' "$T/err" && [ ! -e sorted.bin ]; then
        ok "$name: not supported yet (exit 2)"
    else
        bad "$name: exit $rc"
    fi
}
for type in i32 f32 u64 i64 f64; do
    maybe_case "type $type" "$type" 5000
done
maybe_case "descending" u32 5000 --descending
maybe_case "descending f32" f32 5000 --descending
maybe_case "bits 8:24" u32 5000 --bits 8:24
maybe_case "bits 0:64 on u64" u64 5000 --bits 0:64
maybe_case "onesweep" u32 5000 --algo onesweep
"${KF[@]}" gen u32 5000 3 vin.bin --dups
"${KF[@]}" iota 5000 vals.bin
rm -f vout.bin sorted.bin
run sort vin.bin sorted.bin --values vals.bin vout.bin
if [ "$rc" -eq 0 ]; then
    check u32 vin.bin sorted.bin --values vals.bin vout.bin && ok "values: sorted stably" || bad "values: wrong result"
elif [ "$rc" -eq 2 ] && grep -q 'not supported yet' "$T/err" && [ ! -e vout.bin ] && [ ! -e sorted.bin ]; then
    ok "values: not supported yet (exit 2), no outputs"
else
    bad "values: exit $rc"
fi

# Interrupted sort: the temporary output (created before sorting) is removed
# and OUTPUT stays untouched. SIGTERM, because background jobs of a script
# start with SIGINT ignored (and zesort keeps an inherited "ignore"). Needs a
# sort slow enough to interrupt (PoCL).
if [ "${backends[*]}" != cpu ]; then
    mkdir -p intr
    head -c $((8 << 20)) /dev/urandom >intr/big.bin
    printf 'precious' >intr/out.bin
    "$Z" sort intr/big.bin intr/out.bin --backend opencl --algo cm2 >/dev/null 2>&1 &
    pid=$!
    for _ in $(seq 50); do
        ls -A intr | grep -q '^\.zesort-tmp-' && break
        sleep 0.1
    done
    if ls -A intr | grep -q '^\.zesort-tmp-' && kill -TERM "$pid" 2>/dev/null; then
        wait "$pid"
        rc=$?
        if [ "$rc" -ne 0 ] && no_temp_files intr && cmp -s intr/out.bin precious.copy; then
            ok "interrupted sort: temp file removed, OUTPUT untouched"
        else
            bad "interrupted sort: exit $rc, temp file left or OUTPUT changed"
        fi
    else
        wait "$pid"
        echo "# sort finished before it could be interrupted: interrupt case skipped"
    fi
fi

# ---------------------------------------------------------------------------
echo "# info"
run info
if [ "$rc" -eq 0 ]; then
    ok "info exits 0"
    grep -Eq '^backends: .*cpu' "$T/out" && ok "info: backends: lists cpu" || bad "info: backends:"
    grep -q '^version: ' "$T/out" && ok "info: version:" || bad "info: version:"
    grep -q '^spirv-flavors: .' "$T/out" && ok "info: spirv-flavors:" || bad "info: spirv-flavors:"
    grep -q '^device-cpu: .' "$T/out" && ok "info: device-cpu:" || bad "info: device-cpu:"
    grep -q '^flavor-cpu: none$' "$T/out" && ok "info: flavor-cpu: none" || bad "info: flavor-cpu:"
    for target in skl tgllp dg2; do
        grep -Eq "^aot-targets: (.*,)?$target(,|\$)" "$T/out" && ok "info: aot-targets has $target" ||
            bad "info: aot-targets lacks $target"
    done
    if grep -vEq '^[a-z0-9-]+: ' "$T/out"; then bad "info: a line is not 'key: value'"; else ok "info: every line is 'key: value'"; fi
else
    bad "info: exit $rc"
fi

# ---------------------------------------------------------------------------
echo "# bench"
header='backend,device,algo,type,pairs,n,median_ms,mkeys_per_s,scan,repeat,flavor,values,algo_ran,input,order,bits,launches'
run bench --backend cpu --n 1000,4k --repeat 2 --csv bench.csv
if [ "$rc" -eq 0 ] && [ "$(head -n 1 bench.csv)" = "$header" ]; then
    ok "bench --csv header"
else
    bad "bench --csv: exit $rc, header '$(head -n 1 bench.csv 2>/dev/null)'"
fi
# (cm2,cm4 x host,device + onesweep x device) x 2 sizes = 10 rows of 17 fields.
rows=$(tail -n +2 bench.csv 2>/dev/null | wc -l)
[ "$rows" -eq 10 ] && ok "bench --csv: 10 rows" || bad "bench --csv: $rows rows, want 10"
if tail -n +2 bench.csv | awk -F, 'NF != 17 || $6 !~ /^[0-9]+$/ || $8 !~ /^[0-9.]+$/ { bad = 1 } END { exit bad }'; then
    ok "bench --csv: rows well formed"
else
    bad "bench --csv: malformed row"
fi
# Device time of a whole sort is never 0 for n > 0 (the cpu backend times its sort).
if tail -n +2 bench.csv | awk -F, '$7 + 0 <= 0 { bad = 1 } END { exit bad }'; then
    ok "bench --csv: every median_ms > 0"
else
    bad "bench --csv: a median_ms is 0 (backend did not report its time)"
fi
run bench --backend cpu --n 2k --algo cm4 --scan device --repeat 1 --csv one.csv
[ "$rc" -eq 0 ] && [ "$(tail -n +2 one.csv | wc -l)" -eq 1 ] && grep -q ',cm4,u32,0,2048,.*,device,1,none,none,cm4,random,ascending,0:32,0$' one.csv &&
    ok "bench with one algo, one scan" || bad "bench one algo/scan: exit $rc"
if [ "${backends[*]}" != cpu ]; then
    run bench --backend opencl --n 4096 --repeat 1 --algo cm2,cm4 --scan device
    [ "$rc" -eq 0 ] && ok "bench on opencl" || bad "bench on opencl: exit $rc"
    grep -q 'cm4/cm2  scan=device' "$T/out" && ok "bench prints the cm4/cm2 ratio" || bad "bench: no cm4/cm2 ratio"
    # PoCL is a CPU device: the serial flavor, unless ZESORT_FLAVOR says otherwise
    grep -q 'kernel flavor serial' "$T/out" && ok "bench on opencl names the serial flavor" ||
        bad "bench on opencl: no 'kernel flavor serial' in $(head -n 1 "$T/out")"
    ZENV=(ZESORT_FLAVOR=portable)
    run bench --backend opencl --n 4096 --repeat 1 --algo onesweep --csv flavor.csv
    ZENV=()
    [ "$rc" -eq 0 ] && grep -q ',onesweep,u32,0,4096,.*,portable,none,onesweep,random,ascending,0:32,7$' flavor.csv &&
        ok "bench with ZESORT_FLAVOR=portable (onesweep: 7 launches)" || bad "bench ZESORT_FLAVOR=portable: exit $rc"
    # small: one launch up to its limit; above it a note, no row
    run bench --backend opencl --n 1000,5000 --repeat 1 --algo small,auto --csv small.csv
    [ "$rc" -eq 0 ] && grep -q ',small,u32,0,1000,.*,small,random,ascending,0:32,1$' small.csv &&
        grep -q ',auto,u32,0,5000,.*,onesweep,random,ascending,0:32,7$' small.csv &&
        ! grep -q ',small,u32,0,5000,' small.csv && grep -q 'above its one-launch limit' "$T/out" &&
        ok "bench --algo small: 1 launch at 1000 keys, a note at 5000" ||
        bad "bench --algo small: exit $rc: $(cat small.csv)"
    # an n the device cannot hold (8 GiB of keys) fails before any data is
    # made (issue 12.5: it used to build gigabytes of keys first)
    # (PoCL limited to 1 GiB: 256 MiB per allocation, whatever the host has)
    start=$SECONDS
    ZENV=(POCL_MEMORY_LIMIT=1)
    expect "bench: an n beyond the device fails at once" 1 bench --backend opencl --n 1k,2000m --repeat 1
    ZENV=()
    grep -q 'device' "$T/err" && [ $((SECONDS - start)) -lt 30 ] &&
        ok "bench names the device limit, in $((SECONDS - start)) s" ||
        bad "bench beyond the device: $(cat "$T/err"), $((SECONDS - start)) s"
    ZENV=(ZESORT_FLAVOR=simd)
    expect "ZESORT_FLAVOR=simd is an error" 1 sort keys.bin out-flavor.bin --backend opencl
    ZENV=()
    grep -q 'ZESORT_FLAVOR=simd' "$T/err" && ok "the error names ZESORT_FLAVOR" ||
        bad "ZESORT_FLAVOR error: $(cat "$T/err")"
fi
run bench --backend cpu --algo onesweep --n 1000 --repeat 1
if [ "$rc" -eq 0 ] || { [ "$rc" -eq 2 ] && grep -q 'not supported yet' "$T/err"; }; then
    ok "bench onesweep: runs or says not supported yet"
else
    bad "bench onesweep: exit $rc"
fi
if command -v gnuplot >/dev/null; then
    run bench --backend cpu --n 1k,4k,16k --repeat 1 --plot plot.png
    if [ "$rc" -eq 0 ] && [ "$(head -c 8 plot.png | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]; then
        ok "bench --plot writes a PNG"
    else
        bad "bench --plot: exit $rc"
    fi
else
    echo "# gnuplot not installed: --plot success case skipped"
fi
# Without gnuplot: exit 1 before benchmarking, naming the Debian package.
PATH=/nonexistent "$Z" bench --backend cpu --n 1k --repeat 1 --csv nog2.csv --plot nog2.png >"$T/out" 2>"$T/err"
rc=$?
if [ "$rc" -eq 1 ] && one_error_line && grep -q gnuplot-nox "$T/err" && [ ! -e nog2.png ] && [ ! -e nog2.csv ]; then
    ok "bench --plot without gnuplot: exit 1 naming gnuplot-nox"
else
    bad "bench --plot without gnuplot: exit $rc"
fi
no_temp_files . && ok "bench leaves no temp files" || bad "bench left temp files"

# bench --peer boost (issue 5): Boost.Compute's sort timed on the same device.
# Built only with Boost: `zesort info` says so in its 'peers' line.
if "$Z" bench --help | grep -q -- '--peer' && "$Z" info 2>/dev/null | grep -q '^peers: .*boost-compute'; then
    if [ "${backends[*]}" != cpu ]; then
        run bench --backend opencl --algo cm4 --n 4096 --repeat 1 --peer boost --csv peer.csv
        if [ "$rc" -eq 0 ] && grep -qE '^opencl,.*,boost-compute,u32,0,4096,[0-9.]+,[0-9.]+,(events|hostclock),1,n/a,none,boost-compute,random,ascending,0:32,0$' peer.csv &&
            grep -q ',cm4,u32,0,4096,' peer.csv; then
            ok "bench --peer boost: a boost-compute row next to cm4"
        else
            bad "bench --peer boost: exit $rc, csv: $(tr '\n' '|' <peer.csv 2>/dev/null)"
        fi
        grep -qE 'cm4 +scan=device / boost-compute +n=4096' "$T/out" &&
            ok "bench --peer boost prints the cm4/boost-compute ratio" || bad "bench --peer boost: no ratio"
    fi
    expect "bench: --peer boost with --pairs" 2 bench --peer boost --pairs
    expect "bench: unknown --peer" 2 bench --peer thrust
elif "$Z" info 2>/dev/null | grep -q '^peers: none'; then
    expect "bench: --peer boost without the peer built" 2 bench --peer boost
    grep -q 'built without the Boost.Compute peer' "$T/err" &&
        ok "bench --peer boost without Boost names the missing peer" || bad "bench --peer: unclear error"
fi

# ---------------------------------------------------------------------------
echo "# demo"
# (the C fallback runs one sort, its own radix sort: one row, issue 18 item 11)
run demo --backend cpu --n 64k
[ "$rc" -eq 0 ] && [ "$(grep -cE '^cpu-radix .* yes ' "$T/out")" -eq 1 ] && ok "demo on cpu: verified" ||
    bad "demo --backend cpu: exit $rc"
run demo --n 256k
[ "$rc" -eq 0 ] && { [ "$(grep -cE '^cm[24] .* yes ' "$T/out")" -eq 2 ] ||
    [ "$(grep -cE '^cpu-radix .* yes ' "$T/out")" -eq 1 ]; } && ok "demo on the best device: verified" ||
    bad "demo: exit $rc"

# ---------------------------------------------------------------------------
echo "# --bits beyond the key type"
# (every --type with --values, --descending and --bits per backend and
# algorithm: test_cli_matrix.sh)
for type in u64 i64 f64; do
    expect "sort: --bits 0:65 on $type" 2 sort keys.bin out.bin --type "$type" --bits 0:65
done
expect "sort: --bits 0:40 on f32" 2 sort keys.bin out.bin --type f32 --bits 0:40

# ---------------------------------------------------------------------------
echo "# the narrow types on the auto backend, with values, descending, bit ranges"
# (on each backend: test_cli_matrix.sh)
narrow_values_cases auto
run info
grep -q '^key-types: u32,i32,f32,u64,i64,f64,u8,i8,u16,i16,f16,bf16$' "$T/out" &&
    ok "info: key-types has the narrow types" || bad "info: key-types: $(grep key-types "$T/out")"

report_summary
