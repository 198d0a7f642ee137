// The instrumented sampler of the `listWebhooksOtel` scenario: estatekit/otel from the pkg/
// snapshot and the OpenTelemetry SDK as an app sets it up, with exporters that drop what they are
// given, so that the row measures what instrumenting costs the calls (spans started, ended and
// batched; histogram and counters recorded), not an exporter's network. bench/run.mjs bundles this
// file (esbuild) into target/bench/otel/otel.js; `estatekit/otel` is the snapshot's otel.js and
// the package's main entry stays the page's own /pkg/estatekit.js (one module, one Client class).
import { BasicTracerProvider, BatchSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { MeterProvider, PeriodicExportingMetricReader } from "@opentelemetry/sdk-metrics";
import { ROOT_CONTEXT, SpanKind, context, trace } from "@opentelemetry/api";
import { suppressTracing } from "@opentelemetry/core";
import { instrument } from "estatekit/otel";

/** An exporter (of spans or of metrics) that drops what it is given and counts it. */
class DroppingExporter {
  exported = 0;
  export(items, done) {
    this.exported += Array.isArray(items) ? items.length : 1;
    done({ code: 0 });
  }
  forceFlush() {
    return Promise.resolve();
  }
  shutdown() {
    return Promise.resolve();
  }
}

/** The SDK's providers with exporters that drop: the same for the client and the floor. */
function providers() {
  const spans = new DroppingExporter();
  const points = new DroppingExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(spans)] });
  const meterProvider = new MeterProvider({
    readers: [new PeriodicExportingMetricReader({ exporter: points, exportIntervalMillis: 60_000 })],
  });
  return { spans, points, tracerProvider, meterProvider };
}

/**
 * The floor of any instrumentation of a call (the SDK's own cost, no estatekit): `send()` (a raw
 * fetch) wrapped by hand in what the conventions ask of one call with the same providers: an
 * INTERNAL span, a CLIENT span under it with the request's attributes, the request run in its
 * context with tracing suppressed, its status set, and a point of
 * `http.client.request.duration`. Returns `traced(send)` and the span exporter.
 */
export function sdkFloor(origin, path) {
  const { spans, tracerProvider, meterProvider } = providers();
  const tracer = tracerProvider.getTracer("estatekit-bench-floor");
  const duration = meterProvider.getMeter("estatekit-bench-floor").createHistogram("http.client.request.duration", { unit: "s" });
  const url = new URL(origin);
  const attributes = { "http.request.method": "GET", "server.address": url.hostname, "server.port": Number(url.port), "url.template": path };
  const traced = async (send) => {
    const call = tracer.startSpan("estatekit listWebhooks", { kind: SpanKind.INTERNAL }, ROOT_CONTEXT);
    const started = performance.now();
    const span = tracer.startSpan(`GET ${path}`, { kind: SpanKind.CLIENT, attributes: { ...attributes, "url.full": origin + path } }, trace.setSpan(ROOT_CONTEXT, call));
    const value = await context.with(suppressTracing(trace.setSpan(ROOT_CONTEXT, span)), send);
    span.setAttribute("http.response.status_code", 200);
    span.end();
    duration.record((performance.now() - started) / 1000, { ...attributes, "http.response.status_code": 200 });
    call.setAttribute("estatekit.attempts", 1);
    call.end();
    return value;
  };
  return { traced, spans, tracerProvider };
}

/**
 * A Client of `Client` (the page's class) with `options`, instrumented with a
 * BasicTracerProvider (a BatchSpanProcessor, its exporter dropping the spans) and a MeterProvider
 * (a reader exporting every 60 s to an exporter that drops the points). Returns the client and
 * the exporters (their counts show the spans did flow).
 */
export function instrumentedClient(Client, options) {
  const { spans, points, tracerProvider, meterProvider } = providers();
  const client = instrument(new Client(options), { tracerProvider, meterProvider });
  return { client, spans, points, tracerProvider };
}
