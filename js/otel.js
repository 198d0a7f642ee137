/* @ts-self-types="./otel.d.ts" */
// estatekit/otel: OpenTelemetry traces and metrics for a `Client`, estatekit/auth's token
// provider and user tokens, estatekit/webhooks' handler and estatekit/live's stream route, in one line:
// `instrument(x, options?)` returns `x` instrumented, with the same type (a handler: a new
// function that wraps it). Its only imports are OpenTelemetry's API packages
// (@opentelemetry/api, @opentelemetry/core), optional peers of the package: nothing of them
// loads unless this entry is imported, and the main entry never imports it. What is reported
// goes to the global tracer and meter providers unless others are given (no SDK registered:
// everything is a no-op). Its parts: ./otel_telemetry.js (the tracer, the meter
// and the instruments), ./otel_client.js (a Client), ./otel_auth.js (token provider, user tokens),
// ./otel_webhooks.js (a webhook handler), ./otel_live.js (a stream route). Declarations: ./otel.d.ts.
import { metrics, trace } from "@opentelemetry/api";
import { telemetry } from "./otel_telemetry.js";
import { apiError } from "./api_error.js";
import { instrumentClient, isClient } from "./otel_client.js";
import { instrumentTokens, isTokens } from "./otel_auth.js";
import { instrumentHandler, instrumentProcessor, isHandler, isProcessor } from "./otel_webhooks.js";
import { instrumentStream, isStream } from "./otel_live.js";

/** estatekit's version: the instrumentation scope's (tests/node/otel.test.mjs checks it). */
export const VERSION = "0.2.0";

/**
 * One `Telemetry` per tracer provider, meter provider and `propagate`: instrumenting an object
 * again with the same options finds the same telemetry, which the parts recognise (nothing is
 * reported twice).
 * @type {WeakMap<object, WeakMap<object, Map<boolean, import("./otel_telemetry.js").Telemetry>>>}
 */
const reporting = new WeakMap();

/**
 * The telemetry of `options`, made once.
 * @param {InstrumentOptions} options
 */
function telemetryOf(options) {
  // Without a provider, the global one now (registering one later gives new telemetry).
  const tracerKey = options.tracerProvider ?? trace.getTracerProvider();
  const meterKey = options.meterProvider ?? metrics.getMeterProvider();
  let byMeter = reporting.get(tracerKey);
  if (!byMeter) reporting.set(tracerKey, (byMeter = new WeakMap()));
  let byPropagate = byMeter.get(meterKey);
  if (!byPropagate) byMeter.set(meterKey, (byPropagate = new Map()));
  const propagate = options.propagate === true;
  let found = byPropagate.get(propagate);
  if (!found) byPropagate.set(propagate, (found = telemetry(options, VERSION)));
  return found;
}

/** @typedef {import("./otel.js").InstrumentOptions} InstrumentOptions */

/**
 * `target` instrumented: a `Client` (the same object, its methods wrapped as own properties), a
 * token provider or user tokens (estatekit/auth), a webhook handler (estatekit/webhooks), or a
 * stream route (estatekit/live: the same function, reporting).
 * @template T
 * @param {T} target
 * @param {InstrumentOptions} [options]
 * @returns {T}
 */
export function instrument(target, options) {
  if (options != null && typeof options !== "object") {
    throw apiError("invalid_input", "estatekit/otel: instrument(target, options): options must be an object ({ tracerProvider?, meterProvider?, propagate? })");
  }
  const reported = telemetryOf(options ?? {});
  if (isClient(target)) return instrumentClient(target, reported);
  if (isTokens(target)) return /** @type {T} */ (instrumentTokens(/** @type {object} */ (target), reported));
  if (isHandler(target)) {
    const handler = /** @type {(request: Request) => Promise<Response>} */ (/** @type {unknown} */ (target));
    return /** @type {T} */ (/** @type {unknown} */ (instrumentHandler(handler, reported)));
  }
  if (isProcessor(target)) {
    const processor = /** @type {(job: import("./webhooks_receiver.js").WebhookJob, token?: string) => Promise<void>} */ (/** @type {unknown} */ (target));
    return /** @type {T} */ (/** @type {unknown} */ (instrumentProcessor(processor, reported)));
  }
  if (isStream(target)) return /** @type {T} */ (/** @type {unknown} */ (instrumentStream(/** @type {Function} */ (/** @type {unknown} */ (target)), reported)));
  throw apiError("invalid_input",
    "estatekit/otel: instrument() takes a Client (estatekit), a token provider or user tokens (estatekit/auth), a webhook handler or a webhook processor (estatekit/webhooks), a stream route (estatekit/live)",
  );
}
