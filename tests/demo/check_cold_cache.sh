#!/usr/bin/env bash
# check_cold_cache.sh ZESORT — the first demo a new user runs tells the same
# 2-bit vs 4-bit story as bench: with an empty PoCL kernel cache, `zesort demo`
# and `zesort bench --algo cm2,cm4` must both measure cm4 faster than cm2
# (bench measures 1.25-1.7x here). Before the demo warmed up with the timed
# launch shapes, a cold cache made it print cm4 vs cm2: 0.58x.
# Skips (77) when the best device is not PoCL's: the cache is PoCL's.
set -euo pipefail
zesort=$1
fail() { echo "FAIL: $*" >&2; exit 1; }
cache=$(mktemp -d /tmp/zesort-pocl-cache.XXXXXX)
trap 'rm -rf "$cache"' EXIT

out=$(POCL_CACHE_DIR="$cache" "$zesort" demo) || fail "zesort demo exited $?"
echo "$out"
grep -q "Portable Computing Language" <<<"$out" || { echo "SKIP: the demo's device is not PoCL"; exit 77; }
ratio=$(sed -n 's/^cm4 .* vs cm2 .*: \([0-9.]*\)x$/\1/p' <<<"$out")
[ -n "$ratio" ] || fail "no cm4 vs cm2 ratio in the demo's output"
awk -v r="$ratio" 'BEGIN { exit !(r > 1.0) }' || fail "cold-cache demo: cm4 vs cm2 ${ratio}x, bench measures > 1x"

rm -rf "$cache"/*
POCL_CACHE_DIR="$cache" "$zesort" bench --backend opencl --n 2m --algo cm2,cm4 --repeat 3 \
    --csv "$cache/bench.csv" >/dev/null || fail "zesort bench exited $?"
bench_ratio=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
                       { m[$col["algo"]] = $col["mkeys_per_s"] }
                       END { if (m["cm2"] > 0) printf "%.2f", m["cm4"] / m["cm2"] }' "$cache/bench.csv")
echo "cold-cache bench: cm4 vs cm2 ${bench_ratio}x; cold-cache demo: ${ratio}x"
awk -v r="$bench_ratio" 'BEGIN { exit !(r > 1.0) }' || fail "cold-cache bench: cm4 vs cm2 ${bench_ratio}x"
