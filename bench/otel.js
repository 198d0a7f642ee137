// The instrumented sampler of the `listWebhooksOtel` scenario: estatekit/otel from the pkg/
// snapshot and the OpenTelemetry SDK as an app sets it up, with exporters that drop what they are
// given, so that the row measures what instrumenting costs the calls (spans started, ended and
// batched; histogram and counters recorded), not an exporter's network. bench/run.mjs bundles this
// file (esbuild) into target/bench/otel/otel.js; `estatekit/otel` is the snapshot's otel.js and
// the package's main entry stays the page's own /pkg/estatekit.js (one module, one Client class).
import { BasicTracerProvider, BatchSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { MeterProvider, PeriodicExportingMetricReader } from "@opentelemetry/sdk-metrics";
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

/**
 * A Client of `Client` (the page's class) with `options`, instrumented with a
 * BasicTracerProvider (a BatchSpanProcessor, its exporter dropping the spans) and a MeterProvider
 * (a reader exporting every 60 s to an exporter that drops the points). Returns the client and
 * the exporters (their counts show the spans did flow).
 */
export function instrumentedClient(Client, options) {
  const spans = new DroppingExporter();
  const points = new DroppingExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(spans)] });
  const meterProvider = new MeterProvider({
    readers: [new PeriodicExportingMetricReader({ exporter: points, exportIntervalMillis: 60_000 })],
  });
  const client = instrument(new Client(options), { tracerProvider, meterProvider });
  return { client, spans, points, tracerProvider };
}
