// A call's events, told in one crossing from the module (web/src/call_events.rs imports `tellEvent`
// through wasm-bindgen, which copies this file beside its glue, in snippets/js/). The module hands
// plain values (the event's type, its operation, its call, then its own values in the order of
// its fields); an `onEvent` listener gets the event object (`ClientEvent`, declared by the module
// from its Rust definition, built here once for the call's listeners), and an observer (a listener
// carrying a function under `Symbol.for("estatekit.observe")`, estatekit/otel's) the plain values
// and a function that makes the object (for a listener of its own), so that none is made for it.

/** Where an observer (estatekit/otel) keeps the function that takes an event's plain values. */
export const OBSERVE = Symbol.for("estatekit.observe");

/**
 * The fields of each event type after `type`, `operation` and `callId`, in the order the module
 * gives their values (the order of the fields of `ClientEvent`'s variant); a field whose value is
 * undefined is left out, as the module's optional fields are.
 * @type {Record<string, readonly string[]>}
 */
const FIELDS = {
  request: ["method", "path", "attempt"],
  response: ["method", "path", "attempt", "status", "durationMs", "requestId", "rateLimit"],
  retry: ["attempt", "delayMs", "kind", "status"],
  error: ["kind", "status", "attempts", "durationMs"],
  store: ["purpose", "reason"],
  token: ["reason"],
  rateWait: ["delayMs"],
  done: ["attempts", "durationMs"],
};

/**
 * The event object of `type` (`ClientEvent`): its keys in the module's order (`type`, then the
 * variant's fields as declared, `operation` and `callId` among them where the declaration puts
 * them).
 * @param {string} type
 * @param {string} operation
 * @param {number} callId
 * @param {unknown[]} values the variant's own values, in the order of {@link FIELDS} (for
 *   `response`, `rateLimit` as three values: `perWindow`, `remaining`, `resetMs`)
 * @returns {Record<string, unknown>}
 */
export function eventOf(type, operation, callId, values) {
  if (type === "response") {
    // The rate-limit figures come as three values (all given, or none).
    const [perWindow, remaining, resetMs] = values.slice(6);
    values = [...values.slice(0, 6), perWindow === undefined ? undefined : { perWindow, remaining, resetMs }];
  }
  /** @type {Record<string, unknown>} */
  const event = { type, operation };
  const fields = FIELDS[type] ?? [];
  // `callId` follows the fields that come before it in the declaration (`request`, `response`:
  // method, path, attempt; `retry`: attempt); else it follows `operation`.
  const before = type === "request" || type === "response" ? 3 : type === "retry" ? 1 : 0;
  for (let i = 0; i < fields.length; i++) {
    if (i === before) event.callId = callId;
    if (values[i] !== undefined) event[fields[i]] = values[i];
  }
  if (before >= fields.length) event.callId = callId;
  return event;
}

/**
 * Tells one event to a call's listeners (the client's `onEvent`, the call's own), each of which
 * may be undefined; what a listener returns or throws is ignored. An observer is called as
 * `observe(type, operation, callId, values, event)`, `event()` making the event object once.
 * @param {unknown} first
 * @param {unknown} second
 * @param {string} type
 * @param {string} operation
 * @param {number} callId
 * @param {...unknown} values the event's own values (see {@link FIELDS})
 */
export function tellEvent(first, second, type, operation, callId, ...values) {
  /** @type {Record<string, unknown> | undefined} */
  let made;
  const event = () => (made ??= eventOf(type, operation, callId, values));
  for (const listener of [first, second]) {
    if (typeof listener !== "function") continue;
    try {
      const observe = listener[OBSERVE];
      if (typeof observe === "function") observe(type, operation, callId, values, event);
      else listener(event());
    } catch {
      // A listener that throws is ignored.
    }
  }
}
