#!/usr/bin/env node
// Memory soak of estatekit/otel in Node (issue 46): 20,000 listWebhooks calls through a Client
// instrumented with the OpenTelemetry SDK as a Node service sets it up (AsyncLocalStorage context
// manager; BasicTracerProvider with a BatchSpanProcessor, its exporter dropping the spans in
// batches; MeterProvider with a periodic reader, its exporter dropping the points) against the
// emulator (pkg/ and the debug emulator, or ESTATEKIT_EMULATOR_BIN), each call inside a span of its
// own as in a request handler. The heap is measured after a full GC (node --expose-gc) after a
// warm-up, halfway and at the end; the figures are printed, never asserted. `make otel-soak`.
// Environment: SOAK_CALLS (default 20000), SOAK_CONCURRENCY (calls in flight, default 4).
import { context, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { BasicTracerProvider, BatchSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { MeterProvider, PeriodicExportingMetricReader } from "@opentelemetry/sdk-metrics";
import { existsSync } from "node:fs";
import { root, startEmulator } from "../scripts/local.mjs";

const CALLS = Number(process.env.SOAK_CALLS ?? 20_000);
const CONCURRENCY = Number(process.env.SOAK_CONCURRENCY ?? 4);
const WARMUP = Math.min(500, Math.floor(CALLS / 10));
const WEBHOOKS = 10;

if (typeof globalThis.gc !== "function") {
  console.error("otel-soak: run with node --expose-gc (make otel-soak does)");
  process.exit(2);
}
if (!existsSync(`${root}pkg/otel.js`)) {
  console.error("otel-soak: pkg/otel.js is missing: run make pkg");
  process.exit(2);
}
const { Client } = await import(`${root}pkg/estatekit.node.js`);
const { instrument } = await import(`${root}pkg/otel.js`);

/** An exporter (of spans or of metric points) that drops what it is given and counts it. */
class DroppingExporter {
  batches = 0;
  items = 0;
  export(items, done) {
    this.batches += 1;
    this.items += Array.isArray(items) ? items.length : items.scopeMetrics.reduce((n, s) => n + s.metrics.length, 0);
    done({ code: 0 });
  }
  forceFlush() {
    return Promise.resolve();
  }
  shutdown() {
    return Promise.resolve();
  }
}

const MiB = 1024 * 1024;
const mib = (bytes) => `${(bytes / MiB).toFixed(2)} MiB`;

/** The heap after two full collections (the second catches what the first's finalizers freed). */
async function heap() {
  for (let i = 0; i < 2; i++) {
    globalThis.gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
  const { heapUsed, external, arrayBuffers, rss } = process.memoryUsage();
  return { heapUsed, external, arrayBuffers, rss };
}

const emulator = await startEmulator(["--rate-limit", "0"]);
const spans = new DroppingExporter();
const points = new DroppingExporter();
const contextManager = new AsyncLocalStorageContextManager().enable();
context.setGlobalContextManager(contextManager);
const tracerProvider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(spans)] });
const meterProvider = new MeterProvider({
  readers: [new PeriodicExportingMetricReader({ exporter: points, exportIntervalMillis: 1_000 })],
});
const client = instrument(new Client({ baseUrl: emulator.url, token: "dev-token" }), { tracerProvider, meterProvider });
const handler = tracerProvider.getTracer("otel-soak");

try {
  for (let i = 0; i < WEBHOOKS; i++) await client.registerWebhook({ type: "UNIT_CREATED", url: `http://127.0.0.1:9/soak-${i}` });
  let done = 0;
  /** `count` calls, CONCURRENCY at a time, each in a span of its own ("a request handler"). */
  const calls = async (count) => {
    let next = 0;
    const worker = async () => {
      while (next < count) {
        next += 1;
        await handler.startActiveSpan("handle request", async (span) => {
          try {
            const hooks = await client.listWebhooks();
            if (hooks.length !== WEBHOOKS) throw new Error(`listed ${hooks.length} webhooks, not ${WEBHOOKS}`);
          } finally {
            span.end();
          }
        });
        done += 1;
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  };
  const started = Date.now();
  await calls(WARMUP);
  await tracerProvider.forceFlush();
  const samples = [{ at: "start", calls: done, ...(await heap()) }];
  // Four more samples, every quarter of the calls: a leak grows at every one of them, while a
  // heap that only breathes (the JIT's data, the batch processor's queue) goes up and down.
  for (const [at, part] of [["1/4", 0.25], ["middle", 0.5], ["3/4", 0.75], ["end", 1]]) {
    await calls(Math.floor(CALLS * part) - done);
    await tracerProvider.forceFlush();
    if (at === "end") await meterProvider.forceFlush();
    samples.push({ at, calls: done, ...(await heap()) });
  }

  console.log(`otel-soak: ${done} instrumented listWebhooks calls (${CONCURRENCY} in flight, each in a span of its own) against ${emulator.url}, ${((Date.now() - started) / 1000).toFixed(1)} s`);
  console.log(`spans exported: ${spans.items} in ${spans.batches} batches (BatchSpanProcessor); metric exports: ${points.batches} (${points.items} metrics in all)`);
  console.log("");
  console.log("| at | calls | heap used (after GC) | external | array buffers | rss |");
  console.log("|---|---:|---:|---:|---:|---:|");
  for (const s of samples) console.log(`| ${s.at} | ${s.calls} | ${mib(s.heapUsed)} | ${mib(s.external)} | ${mib(s.arrayBuffers)} | ${mib(s.rss)} |`);
  const perCall = (a, b) => `${(((b.heapUsed - a.heapUsed) / (b.calls - a.calls)) || 0).toFixed(1)} B`;
  const byAt = (at) => /** @type {(typeof samples)[number]} */ (samples.find((x) => x.at === at));
  const [start, quarter, end] = [byAt("start"), byAt("1/4"), byAt("end")];
  console.log(`heap used: start -> 1/4 ${mib(quarter.heapUsed - start.heapUsed)} (warming up: ${perCall(start, quarter)} a call), 1/4 -> end ${mib(end.heapUsed - quarter.heapUsed)} (${perCall(quarter, end)} a call)`);
} finally {
  await tracerProvider.shutdown();
  await meterProvider.shutdown();
  contextManager.disable();
  await emulator.stop();
}
