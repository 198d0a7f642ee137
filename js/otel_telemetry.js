// estatekit/otel's shared part: the tracer, the meter and the instruments every instrumented
// object reports to (./otel.js builds one `Telemetry` per pair of providers and hands it to
// ./otel_client.js, ./otel_auth.js and ./otel_webhooks.js). Only OpenTelemetry's API is used
// here: the app's SDK (or none, then everything is a no-op) decides what is recorded.
import { context, metrics, trace } from "@opentelemetry/api";

/** The instrumentation scope's name: what a backend shows as the spans' and metrics' source. */
export const SCOPE = "estatekit";

/**
 * `http.client.request.duration`'s bucket boundaries, in seconds: the HTTP semantic
 * conventions' advice for the histogram.
 */
export const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

/**
 * What every instrumented object reports to.
 * @typedef {{
 *   tracer: import("@opentelemetry/api").Tracer,
 *   propagate: boolean,
 *   duration: import("@opentelemetry/api").Histogram,
 *   retries: import("@opentelemetry/api").Counter,
 *   grants: import("@opentelemetry/api").Counter,
 *   rateLimitWaits: import("@opentelemetry/api").Counter,
 *   deliveries: import("@opentelemetry/api").Counter,
 * }} Telemetry
 */

/**
 * The tracer, the meter's instruments and the options of one `instrument` call.
 * @param {{ tracerProvider?: import("@opentelemetry/api").TracerProvider, meterProvider?: import("@opentelemetry/api").MeterProvider, propagate?: boolean }} options
 * @param {string} version estatekit's version (the scope's version)
 * @returns {Telemetry}
 */
export function telemetry(options, version) {
  const tracer = (options.tracerProvider ?? trace.getTracerProvider()).getTracer(SCOPE, version);
  const meter = (options.meterProvider ?? metrics.getMeterProvider()).getMeter(SCOPE, version);
  return {
    tracer,
    propagate: options.propagate === true,
    duration: meter.createHistogram("http.client.request.duration", {
      description: "Duration of HTTP client requests.",
      unit: "s",
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    }),
    retries: meter.createCounter("estatekit.client.retries", {
      description: "Requests repeated by estatekit's client after a failed attempt.",
      unit: "{retry}",
    }),
    grants: meter.createCounter("estatekit.token.grants", {
      description: "OAuth token grants made by estatekit/auth, by grant type and outcome.",
      unit: "{grant}",
    }),
    rateLimitWaits: meter.createCounter("estatekit.client.rate_limit.waits", {
      description: "Waits for room in the client-side rate budget (rateLimit) before a request.",
      unit: "{wait}",
    }),
    deliveries: meter.createCounter("estatekit.webhook.deliveries", {
      description: "Webhook deliveries received by estatekit/webhooks' handler, by outcome.",
      unit: "{delivery}",
    }),
  };
}

/**
 * `server.address` and `server.port` of a request to `url` (an IPv6 host without its brackets,
 * the scheme's default port when none is written), as the HTTP conventions give them.
 * @param {URL} url
 * @returns {{ "server.address": string, "server.port": number }}
 */
export function serverAttributes(url) {
  return {
    "server.address": url.hostname.replace(/^\[(.*)\]$/, "$1"),
    "server.port": Number(url.port) || (url.protocol === "https:" ? 443 : 80),
  };
}

/**
 * `send(...args)` run in the context `made()` gives, called once and at once whatever fails:
 * where making the context or entering it fails before `send` ran (a broken context manager),
 * `send(...args)` runs as it is. Telemetry never breaks what it watches.
 * @template {unknown[]} A
 * @template R
 * @param {() => import("@opentelemetry/api").Context} made
 * @param {(...args: A) => R} send
 * @param {A} args
 * @returns {R}
 */
export function within(made, send, ...args) {
  let sent = false;
  /** @param {A} a */
  const once = (...a) => ((sent = true), send(...a));
  try {
    return context.with(made(), once, undefined, ...args);
  } catch (e) {
    if (sent) throw e;
    return send(...args);
  }
}
