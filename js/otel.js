/* @ts-self-types="./otel.d.ts" */
// estatekit/otel: OpenTelemetry traces and metrics for a `Client`, estatekit/auth's token
// provider and user tokens, and estatekit/webhooks' handler, in one line:
// `instrument(x, options?)` returns `x` instrumented, with the same type. Its only imports are
// OpenTelemetry's API packages (@opentelemetry/api, @opentelemetry/core), optional peers of the
// package: nothing of them loads unless this entry is imported, and the main entry never imports
// it. What is reported goes to the global tracer and meter providers unless others are given (no
// SDK registered: everything is a no-op). Its parts: ./otel_telemetry.js (the tracer, the meter
// and the instruments), ./otel_client.js (a Client), ./otel_auth.js (token provider, user tokens),
// ./otel_webhooks.js (a webhook handler). Declarations: ./otel.d.ts.
import { telemetry } from "./otel_telemetry.js";
import { instrumentClient, isClient } from "./otel_client.js";
import { instrumentTokens, isTokens } from "./otel_auth.js";
import { instrumentHandler, isHandler } from "./otel_webhooks.js";

/** estatekit's version: the instrumentation scope's (tests/node/otel.test.mjs checks it). */
export const VERSION = "0.2.0";

/** @typedef {import("./otel.js").InstrumentOptions} InstrumentOptions */

/**
 * `target` instrumented: a `Client` (the same object, its methods wrapped as own properties), a
 * token provider or user tokens (estatekit/auth), or a webhook handler (estatekit/webhooks).
 * @template T
 * @param {T} target
 * @param {InstrumentOptions} [options]
 * @returns {T}
 */
export function instrument(target, options) {
  if (options != null && typeof options !== "object") {
    throw new TypeError("estatekit/otel: instrument(target, options): options must be an object ({ tracerProvider?, meterProvider?, propagate? })");
  }
  const reported = telemetry(options ?? {}, VERSION);
  if (isClient(target)) return instrumentClient(target, reported);
  if (isTokens(target)) return /** @type {T} */ (instrumentTokens(/** @type {object} */ (target), reported));
  if (isHandler(target)) {
    const handler = /** @type {(request: Request) => Promise<Response>} */ (/** @type {unknown} */ (target));
    return /** @type {T} */ (/** @type {unknown} */ (instrumentHandler(handler, reported)));
  }
  throw new TypeError(
    "estatekit/otel: instrument() takes a Client (estatekit), a token provider or user tokens (estatekit/auth), or a webhook handler (estatekit/webhooks)",
  );
}
