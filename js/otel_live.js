// estatekit/otel's part for estatekit/live: a stream route made by `createEventStream`,
// instrumented in place (the same function: its `close()` and `open` are the route's own). The
// route tells, through its internal hook (see ./live_stream.js, OBSERVE), each stream it opens
// from then on: opened, each event written to the page (its log entry), closed. Reported:
// - `estatekit.live.open_streams` (UpDownCounter, `{stream}`): +1 when a stream opens, -1 when
//   it ends (the page gone, the session over, `close()`, a slow reader cut off);
// - `estatekit.live.events.sent` (Counter, `{event}`): the events a stream wrote (those the user
//   may see; the position-only frames of others are not counted), by
//   `estatekit.webhook.event_type` (a type not of the service's form counts as `_OTHER`);
// - `estatekit.live.delay` (Histogram, `s`): per stream and event written, from the entry's
//   append (`at`: the memory log's clock at the append, the Redis Stream id's milliseconds, i.e.
//   Redis's clock) to its write; `estatekit.live.catch_up` true for an event read back after a
//   reconnection (its delay includes the time the page was away). Never below 0 (clocks apart).
// Nothing of an event's body. Only OpenTelemetry's API is used (through the telemetry's instruments).

/** The route's hook's key (./live_stream.js). */
const OBSERVE = Symbol.for("estatekit.live.observe");

/**
 * The telemetries each route reports to already (instrumenting it again with one changes nothing).
 * @type {WeakMap<Function, object[]>}
 */
const reporting = new WeakMap();

/**
 * Whether `x` is a stream route made by estatekit/live's `createEventStream` (any copy of the package).
 * @param {unknown} x
 * @returns {boolean}
 */
export function isStream(x) {
  return typeof x === "function" && typeof (/** @type {Record<symbol, unknown>} */ (/** @type {unknown} */ (x)))[OBSERVE] === "function";
}

/**
 * The route, reporting to `telemetry` from now on (see the module's comment).
 * @template {Function} R
 * @param {R} route
 * @param {import("./otel_telemetry.js").Telemetry} telemetry
 * @returns {R}
 */
export function instrumentStream(route, telemetry) {
  const already = reporting.get(route) ?? [];
  if (already.includes(telemetry)) return route;
  reporting.set(route, [...already, telemetry]);
  const { streams, sent, delay } = telemetry;
  const observe = /** @type {(observer: object) => void} */ ((/** @type {Record<symbol, unknown>} */ (/** @type {unknown} */ (route)))[OBSERVE]);
  observe({
    opened: () => streams.add(1),
    closed: () => streams.add(-1),
    /** @param {{ type: string, at: number }} entry @param {boolean} live */
    sent(entry, live) {
      // The type as written to the log: bounded to the service's form, so no free text is copied.
      const type = /^[A-Z][A-Z0-9_]{0,63}$/.test(entry.type) ? entry.type : "_OTHER";
      sent.add(1, { "estatekit.webhook.event_type": type });
      if (entry.at > 0) delay.record(Math.max(0, Date.now() - entry.at) / 1000, { "estatekit.webhook.event_type": type, "estatekit.live.catch_up": !live });
    },
  });
  return route;
}
