// A test helper of tests/node (not a test file): waits on `node:test`'s mocked clock.

/**
 * With `t.mock.timers` enabled (setTimeout and Date): moves the mocked clock on `stepMs` at a time,
 * letting the real event loop run between steps (setImmediate is not mocked), until `promise`
 * settles; resolves `{ value, ms }` (the mocked milliseconds it took) or rejects with its error. A
 * bound of mocked time holds whatever the machine's load. Gives up after `limitMs` of mocked time,
 * saying what it waited for.
 */
export async function onMockedClock(t, promise, what, { stepMs, limitMs }) {
  let settled;
  promise.then(
    (value) => (settled = { value }),
    (error) => (settled = { error }),
  );
  const started = Date.now();
  for (;;) {
    await new Promise((r) => setImmediate(r));
    if (settled) break;
    if (Date.now() - started >= limitMs) throw new Error(`${what}: not settled after ${limitMs} ms of mocked time`);
    t.mock.timers.tick(stepMs);
  }
  if ("error" in settled) throw settled.error;
  return { value: settled.value, ms: Date.now() - started };
}
