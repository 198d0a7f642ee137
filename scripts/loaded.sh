#!/usr/bin/env bash
# Usage: scripts/loaded.sh command [args...]   (e.g. scripts/loaded.sh make test-browser test-e2e)
# Runs the command with every core kept busy beside it, as a parallel build would keep them:
# LOAD busy loops (default: one per core, `nproc`), started before the command and always
# stopped after it (its end, a failure or Ctrl-C). Prints the command's time and exits with its
# status. A suite that is green here is green on a busy machine; see CONTRIBUTING.md.
set -uo pipefail
[ $# -gt 0 ] || { echo "usage: $0 command [args...]" >&2; exit 2; }
load=${LOAD:-$(nproc)}
pids=()
stop() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null; done
  pids=()
}
trap stop EXIT
trap 'stop; exit 130' INT TERM
# Each loop also ends by itself once this script is gone (killed with no chance to run its trap).
self=$$
for _ in $(seq 1 "$load"); do
  (
    trap - EXIT INT TERM
    while kill -0 "$self" 2>/dev/null; do
      for ((i = 0; i < 200000; i++)); do :; done
    done
  ) &
  pids+=($!)
done
echo "loaded: $load busy loops (pids ${pids[*]}) beside: $*" >&2
t=$SECONDS
"$@"
status=$?
echo "loaded: '$*' ended with status $status after $((SECONDS - t)) s, with $load busy loops beside it" >&2
stop
exit $status
