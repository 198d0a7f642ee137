// estatekit/otel's shared part: the tracer, the meter and the instruments every instrumented
// object reports to (./otel.js builds one `Telemetry` per pair of providers and hands it to
// ./otel_client.js, ./otel_auth.js, ./otel_webhooks.js and ./otel_live.js). Only OpenTelemetry's API is used
// here: the app's SDK (or none, then everything is a no-op) decides what is recorded.
import { ROOT_CONTEXT, context, metrics, trace } from "@opentelemetry/api";

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
 *   queueWait: import("@opentelemetry/api").Histogram,
 *   streams: import("@opentelemetry/api").UpDownCounter,
 *   sent: import("@opentelemetry/api").Counter,
 *   delay: import("@opentelemetry/api").Histogram,
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
    queueWait: meter.createHistogram("estatekit.webhook.queue.wait", {
      description: "Time a webhook job waited in the queue, from its creation to the start of a run (webhookProcessor).",
      unit: "s",
    }),
    streams: meter.createUpDownCounter("estatekit.live.open_streams", {
      description: "Streams open on estatekit/live's stream route (createEventStream).",
      unit: "{stream}",
    }),
    sent: meter.createCounter("estatekit.live.events.sent", {
      description: "Events written to pages by estatekit/live's stream route, by event type.",
      unit: "{event}",
    }),
    delay: meter.createHistogram("estatekit.live.delay", {
      description: "Time from an event's append to the log (the receiver's) to its write on a stream, per stream.",
      unit: "s",
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
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
 * The active context; the root one where the context manager fails (telemetry never breaks what
 * it watches).
 * @returns {import("@opentelemetry/api").Context}
 */
export function active() {
  try {
    return context.active();
  } catch {
    return ROOT_CONTEXT;
  }
}

/**
 * `send(...args)` run in the context `made()` gives, called exactly once whatever the context
 * manager does: where making or entering the context fails, or `context.with` returns without
 * having called it, `send(...args)` runs as it is; where the context manager fails after `send`
 * ran, what `send` returned is kept. What `send` itself throws is thrown. Telemetry never breaks
 * (nor repeats) what it watches.
 * @template {unknown[]} A
 * @template R
 * @param {() => import("@opentelemetry/api").Context} made
 * @param {(...args: A) => R} send
 * @param {A} args
 * @returns {R}
 */
export function within(made, send, ...args) {
  /** @type {{ value: R } | { error: unknown } | undefined} */
  let outcome;
  /** @param {A} a */
  const run = (a) => {
    try {
      outcome = { value: send(...a) };
    } catch (error) {
      outcome = { error };
    }
    return outcome;
  };
  // The arguments are this call's own, never what the context manager passes on.
  const once = () => {
    if (!outcome) run(args);
  };
  try {
    context.with(made(), once);
  } catch {
    // The context manager's failure, not the caller's: see below.
  }
  const done = outcome ?? run(args);
  if ("error" in done) throw done.error;
  return done.value;
}
