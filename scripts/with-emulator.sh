#!/usr/bin/env bash
# Usage: scripts/with-emulator.sh [emulator flags...] -- command [args...]
# Starts the built emulator on a free loopback port, exports ESTATEKIT_EMULATOR_URL (and
# ESTATEKIT_EMULATOR_SECOND_ORIGIN when --second-origin is given), runs the command, and
# stops the emulator whatever happens. Exits with the command's status.
set -euo pipefail
cd "$(dirname "$0")/.."

flags=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do flags+=("$1"); shift; done
[ "${1:-}" = "--" ] && shift
[ $# -gt 0 ] || { echo "usage: $0 [emulator flags] -- command" >&2; exit 2; }

bin=${ESTATEKIT_EMULATOR_BIN:-target/debug/estatekit-emulator}
log=$(mktemp -t estatekit-emulator.XXXXXX)
# No seeded documents unless a flag asks (the tests count their own).
"$bin" --port 0 --quiet --seed-documents 0 "${flags[@]}" >"$log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -f "$log"' EXIT

for _ in $(seq 1 300); do
  grep -q "listening on" "$log" 2>/dev/null && break
  kill -0 "$pid" 2>/dev/null || { cat "$log" >&2; echo "emulator exited early" >&2; exit 1; }
  sleep 0.1
done
url=$(sed -nE 's/.*listening on (http[^ ]+).*/\1/p' "$log" | head -n1)
[ -n "$url" ] || { cat "$log" >&2; echo "emulator did not start" >&2; exit 1; }
export ESTATEKIT_EMULATOR_URL="$url"
second=$(sed -nE 's/.*second-origin=(http[^ ]+).*/\1/p' "$log" | head -n1)
[ -z "$second" ] || export ESTATEKIT_EMULATOR_SECOND_ORIGIN="$second"
echo "emulator: $url${second:+ (second origin $second)}" >&2
set +e
"$@"
status=$?
set -e
exit $status
