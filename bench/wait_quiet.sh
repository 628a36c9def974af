#!/usr/bin/env bash
# Waits until the machine is quiet enough to measure: over a 5 s sample, at least
# QUIET_IDLE_PERCENT (default 90) % of all CPU time idle. Polls every 30 s for up to 10
# minutes; exits 1 (and says so) if no quiet window came. Usage: bench/wait_quiet.sh && CMD
set -euo pipefail
want=${QUIET_IDLE_PERCENT:-90}
idle_percent() {
  local a b
  read -ra a < <(grep '^cpu ' /proc/stat)
  sleep 5
  read -ra b < <(grep '^cpu ' /proc/stat)
  local total=0 k
  for k in 1 2 3 4 5 6 7 8; do total=$((total + b[k] - a[k])); done
  echo $(( 100 * (b[4] - a[4]) / (total > 0 ? total : 1) ))
}
for attempt in $(seq 1 20); do
  idle=$(idle_percent)
  if ((idle >= want)); then
    echo "quiet: ${idle} % idle ($(date -u +%H:%M:%S) UTC, attempt ${attempt})" >&2
    exit 0
  fi
  echo "busy: ${idle} % idle; top: $(ps -eo pcpu,comm --sort=-pcpu | sed -n 2p)" >&2
  sleep 25
done
echo "no quiet window in 10 minutes" >&2
exit 1
