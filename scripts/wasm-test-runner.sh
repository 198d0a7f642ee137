#!/usr/bin/env bash
# cargo's runner for the wasm32 test binaries (the Makefile's WASM_TEST_ENV): wasm-bindgen-test-runner,
# watched until the page has started its tests. Under load its file server has left one of the
# page's module requests unanswered (seen twice, in tests/fetch.rs: the page stayed at "Loading
# scripts...", the request ended after 300 s, and the runner then hung in its WebDriver poll, past
# WASM_BINDGEN_TEST_TIMEOUT). A page that has not printed `running N tests` within
# WASM_TEST_STARTUP_S seconds (default 120; a start takes seconds) is ended, with the runner, its
# driver and its browser, and the binary runs once more. No test has run then, so none runs twice;
# a test that ran and failed is never run again.
set -uo pipefail
startup_s=${WASM_TEST_STARTUP_S:-120}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for attempt in 1 2; do
  : >"$log"
  # Its own process group: ending it ends the driver and the browser it started.
  setsid wasm-bindgen-test-runner "$@" > >(tee -a "$log") 2>&1 &
  pid=$!
  started=0
  for ((tenth = 0; tenth < startup_s * 10; tenth++)); do
    if grep -qE '^running [0-9]+ tests?$|no tests to run' "$log"; then
      started=1
      break
    fi
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  if [ "$started" = 1 ] || ! kill -0 "$pid" 2>/dev/null; then
    wait "$pid"
    exit $?
  fi
  echo "wasm-test-runner: the page did not start its tests within ${startup_s} s (attempt $attempt of 2): ending it" >&2
  kill -TERM -- "-$pid" 2>/dev/null
  sleep 2
  kill -KILL -- "-$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
done
echo "wasm-test-runner: the page never started its tests" >&2
exit 1
