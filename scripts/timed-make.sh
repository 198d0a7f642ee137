#!/usr/bin/env bash
# Usage: MAKE=make scripts/timed-make.sh target...
# Runs each make target in turn (as `make test` lists them) and prints where the minutes went: a
# line per target as it ends, and a summary of all of them at the end, also when one fails (the
# run stops there, with its status).
set -uo pipefail
make=${MAKE:-make}  # may carry variables: "make X=1"
lines=()
started=$SECONDS

summary() {
  echo "make: where the minutes went"
  for line in "${lines[@]}"; do echo "  $line"; done
  printf '  %-26s %6d s\n' "total" $((SECONDS - started))
}

for target in "$@"; do
  t=$SECONDS
  $make --no-print-directory "$target"
  status=$?
  if [ $status -ne 0 ]; then
    lines+=("$(printf '%-26s %6d s  FAILED (status %d)' "$target" $((SECONDS - t)) $status)")
    summary
    exit $status
  fi
  lines+=("$(printf '%-26s %6d s' "$target" $((SECONDS - t)))")
  echo "make: $target took $((SECONDS - t)) s"
done
summary
