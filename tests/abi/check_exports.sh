#!/usr/bin/env bash
# The exports of libzesort.so against the public headers: every function that
# zesort.h, zesort_ze.h and zesort_cl.h declare is exported, and nothing else.
# src/libzesort.map names each function (no zesort_* pattern), so a new
# function missing from its version node would otherwise be silently local:
# the project's own tests link the static library and would not notice.
#   check_exports.sh LIBZESORT_SO INCLUDE_DIR BUILD_INCLUDE_DIR CC [CC ARGS...]
set -euo pipefail
if [ $# -lt 4 ]; then
  echo "usage: check_exports.sh LIBZESORT_SO INCLUDE_DIR BUILD_INCLUDE_DIR CC [CC ARGS...]" >&2
  exit 2
fi
lib=$1 inc=$2 build_inc=$3
shift 3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '#include "zesort.h"\n#include "zesort_ze.h"\n#include "zesort_cl.h"\n' |
  "$@" -E -P -I "$inc" -I "$build_inc" -x c - |
  grep -oE '\bzesort_[a-z0-9_]+[[:space:]]*\(' | sed -E 's/[[:space:]]*\($//' | sort -u >"$tmp/declared"
# nm: name@@VERSION for each function; the version nodes are absolute (A)
nm -D --defined-only "$lib" | awk '$2 != "A" {sub(/@.*/, "", $NF); print $NF}' | sort -u >"$tmp/exported"
missing=$(comm -23 "$tmp/declared" "$tmp/exported")
extra=$(comm -13 "$tmp/declared" "$tmp/exported")
status=0
if [ -n "$missing" ]; then
  echo "check_exports.sh: FAIL: declared in the public headers but not exported" \
       "(add them to their version node in src/libzesort.map): $(echo $missing)" >&2
  status=1
fi
if [ -n "$extra" ]; then
  echo "check_exports.sh: FAIL: exported but declared in no public header: $(echo $extra)" >&2
  status=1
fi
[ $status -ne 0 ] || echo "check_exports.sh: $(wc -l <"$tmp/exported") functions, each declared and exported"
exit $status
