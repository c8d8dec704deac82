#!/usr/bin/env bash
# Runs the whole test suite (the README's `npm test`) while every core is kept busy by a CPU hog
# that this script starts and stops itself. A test that fails here is a bug in the test or the code.
# Usage: scripts/stress-tests.sh [runs]   (default 1; prints each run's duration)
set -uo pipefail
cd "$(dirname "$0")/.."
runs="${1:-1}"
hogs=()
stop_hogs() { [ ${#hogs[@]} -gt 0 ] && kill "${hogs[@]}" 2>/dev/null; hogs=(); }
trap stop_hogs EXIT INT TERM
for _ in $(seq 1 "$(nproc)"); do
  node -e 'for (;;) {}' &
  hogs+=($!)
done
echo "stress: $(nproc) CPU hogs running (pids ${hogs[*]})"
status=0
for run in $(seq 1 "$runs"); do
  start=$(date +%s)
  npm test
  code=$?
  echo "stress run ${run}/${runs}: $(($(date +%s) - start)) s, exit ${code}"
  [ "$code" -ne 0 ] && status=1
done
stop_hogs
exit "$status"
