#!/usr/bin/env bash
# run_mpi.sh NP SECONDS PROGRAM ARGS... — PROGRAM on NP ranks of Open MPI on
# this machine, over loopback TCP (the network path, not shared memory),
# oversubscribed (NP may exceed the cores), killed after SECONDS: a rank
# that hangs fails the test with exit 124 instead of stalling the suite.
set -euo pipefail
np=$1 secs=$2
shift 2
# Open MPI refuses root unless told twice; harmless for other users.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Loopback only (no other address is ever a target), no shared-memory
# transport, no warnings about the missing high-speed network.
export OMPI_MCA_btl=self,tcp OMPI_MCA_btl_tcp_if_include=lo OMPI_MCA_oob_tcp_if_include=lo
export OMPI_MCA_btl_base_warn_component_unused=0 OMPI_MCA_pml=ob1
# Plugins stay loaded to the end, so that LeakSanitizer can name the
# frames of Open MPI's own end-of-process allocations (tests/lsan.supp).
export OMPI_MCA_mca_base_component_disable_dlclose=1 PMIX_MCA_mca_base_component_disable_dlclose=1
[ -z "${ASAN_OPTIONS:-}" ] || export ASAN_OPTIONS="$ASAN_OPTIONS:fast_unwind_on_malloc=0"
# Oversubscribed ranks must yield the core while they wait.
export OMPI_MCA_mpi_yield_when_idle=1
# Open MPI's own mpirun (the build links Open MPI), whichever MPI the
# mpirun alternative names.
mpirun=$(command -v mpirun.openmpi || command -v mpirun)
run() { timeout -k 5 "$secs" "$mpirun" --oversubscribe -np "$np" "$@"; }
[ -n "${ASAN_OPTIONS:-}" ] || { run "$@"; exit; }
# Under AddressSanitizer, LeakSanitizer's own stop-the-world tracer now and
# then crashes at a rank's exit ("Tracer caught signal 11", no leak report:
# google/sanitizers#1353), after the rank's work is done. Only that signature
# earns one rerun; the output of the run that counts is replayed.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for attempt in 1 2; do
  rc=0
  run "$@" >"$tmp/out" 2>"$tmp/err" <&0 || rc=$?
  if [ "$rc" -ne 0 ] && [ "$attempt" -eq 1 ] && grep -q "Tracer caught signal" "$tmp/err" &&
     grep -q "LeakSanitizer has encountered a fatal error" "$tmp/err"; then
    echo "run_mpi.sh: LeakSanitizer's tracer crashed at exit; running again once" >&2
    continue
  fi
  break
done
cat "$tmp/out"
cat "$tmp/err" >&2
exit "$rc"
