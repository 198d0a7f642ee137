#!/usr/bin/env bash
# cargo's runner for the wasm32 test binaries (the Makefile's WASM_TEST_ENV): wasm-bindgen-test-runner,
# watched until the page has started its tests. The runner's page sometimes never starts: it stays
# before "Loading Wasm module..." because the runner's file server (tiny_http 0.12, under rouille)
# leaves a connection of the page unread: its task pool counts a thread already woken as idle,
# queues the new connection's task, and every thread stays held by the page's keep-alive
# connections (seen with `ss`: the runner's port, one connection with its request in Recv-Q and
# unread): its four first threads are all woken by a burst of four connections, and a fifth in the
# same burst waits until a keep-alive connection closes. The page's modules make the burst, so the
# tests keep them at four (the glue and its snippets: no `inline_js` in the tests, whose JavaScript
# is made at run time with `new Function`). Measured on a quiet machine (2026-12-05), starts of
# tests/documents.rs that hung: 6 in 10 with five modules, 0 in 10 with four (and 0 in 10 before
# the base URL rule's snippet came). A start that does not hang takes 1 to 3 s. A page that has not
# printed `running N tests` in time is ended, with the runner, its driver and its browser, and the
# binary runs again, up to WASM_TEST_ATTEMPTS times (default 5), the wait growing each time
# (WASM_TEST_STARTUP_S seconds, default 10, times the attempt's number: a slow start on a busy
# machine gets its time). No test has run then, so none runs twice; a test that ran and failed is
# never run again.
set -uo pipefail
startup_s=${WASM_TEST_STARTUP_S:-10}
attempts=${WASM_TEST_ATTEMPTS:-5}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for ((attempt = 1; attempt <= attempts; attempt++)); do
  : >"$log"
  # Its own process group: ending it ends the driver and the browser it started.
  setsid wasm-bindgen-test-runner "$@" > >(tee -a "$log") 2>&1 &
  pid=$!
  started=0
  wait_s=$((startup_s * attempt))
  for ((tenth = 0; tenth < wait_s * 10; tenth++)); do
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
  echo "wasm-test-runner: the page did not start its tests within ${wait_s} s (attempt $attempt of $attempts): ending it" >&2
  kill -TERM -- "-$pid" 2>/dev/null
  sleep 2
  kill -KILL -- "-$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
done
echo "wasm-test-runner: the page never started its tests" >&2
exit 1
