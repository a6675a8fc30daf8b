#!/usr/bin/env bash
# The ABI check against 1.1.0: abidiff of release 1.1.0's ABI (an abidw dump
# stored in tests/abi) against the libzesort.so just built. Fails on any
# change but added functions and variables: a function or variable removed,
# or changed (its type, or a public type it reaches, e.g. a field of
# zesort_options). Types that 1.1.0's public headers (tests/abi/1.1.0) and
# today's (include/) do not define are the library's own (zesort_context's
# insides, the zs_* internals) and are not compared.
#   check_abi.sh ABI_XML OLD_HEADERS_DIR NEW_HEADERS_DIR LIBZESORT_SO
# Exit: 0 compatible, 1 an ABI change (or an abidiff error), 77 (skip) when
# abidiff (Debian: abigail-tools) is not installed.
set -uo pipefail
if [ $# -ne 4 ]; then
  echo "usage: check_abi.sh ABI_XML OLD_HEADERS_DIR NEW_HEADERS_DIR LIBZESORT_SO" >&2
  exit 2
fi
abi=$1 old_headers=$2 new_headers=$3 lib=$4
if ! command -v abidiff >/dev/null; then
  echo "check_abi.sh: abidiff not found (Debian: abigail-tools): skipped"
  exit 77
fi

# The stored ABI must be versioned like the library (ZESORT_1.0): abidiff
# 2.2 matches an unversioned symbol with the versioned one of the same name
# and then compares nothing of it, so an unversioned baseline would hide
# every changed function (a changed zesort_options passed unseen).
if ! grep -q "version='ZESORT_1.0'" "$abi"; then
  echo "check_abi.sh: FAIL: $abi has no ZESORT_1.0 symbols: write it from 1.1.0" \
       "linked with the ZESORT_1.0 node of src/libzesort.map (tests/abi/meson.build)" >&2
  exit 1
fi

# --fail-no-debug-info: without the library's DWARF (-g) abidiff would
# compare the symbol tables alone and miss every type change.
args=(--fail-no-debug-info
      --headers-dir1 "$old_headers" --headers-dir2 "$new_headers")
echo "abidiff ${args[*]} $abi $lib"
abidiff "${args[@]}" "$abi" "$lib"
rc=$?
echo "abidiff: exit $rc"
if (( rc & 3 )); then
  echo "check_abi.sh: FAIL: abidiff failed (exit $rc: bit 1 error, bit 2 usage)" >&2
  exit 1
fi
if (( rc & 8 )); then
  echo "check_abi.sh: FAIL: incompatible ABI change against 1.1.0 (a removed symbol)" >&2
  exit 1
fi
if (( rc & 4 )); then
  # Some change: compatible only if it is nothing but additions. The same
  # comparison without the added functions and variables must be clean.
  abidiff --no-added-syms "${args[@]}" "$abi" "$lib" >/dev/null
  rc2=$?
  if (( rc2 != 0 )); then
    echo "check_abi.sh: FAIL: ABI change against 1.1.0 other than additions" \
         "(abidiff --no-added-syms: exit $rc2)" >&2
    exit 1
  fi
  echo "check_abi.sh: only additions since 1.1.0: compatible"
fi
echo "check_abi.sh: the ABI of $lib is compatible with 1.1.0"
exit 0
