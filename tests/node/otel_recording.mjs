// What the estatekit/otel tests of tokens and webhooks record with: OpenTelemetry's real SDK (a
// BasicTracerProvider exporting every ended span to memory, a MeterProvider read on demand),
// AsyncLocalStorage as the context manager (as in a Node service, so that `context.with` and
// `startActiveSpan` reach async callbacks), `instrument(x)` on those providers, and the secrets
// check: every exported span (name, attributes, events, status, links) and metric point,
// written out as JSON, holds none of the given secrets.
//
// `instrument` is estatekit/otel's as built (pkg/otel.js). The parts themselves (js/otel_auth.js,
// js/otel_webhooks.js, on the telemetry of js/otel_telemetry.js: their idempotence, `isTokens`,
// `isHandler`) are tested from js/: they import nothing but OpenTelemetry's packages and find the
// objects made by pkg/ through their `Symbol.for` hooks.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { ROOT_CONTEXT, context } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { MeterProvider, MetricReader } from "@opentelemetry/sdk-metrics";

const js = new URL("../../js/", import.meta.url).href;
const { telemetry } = await import(`${js}otel_telemetry.js`);
export const { instrumentTokens, isTokens } = await import(`${js}otel_auth.js`);
export const { instrumentHandler, isHandler } = await import(`${js}otel_webhooks.js`);
const entryFile = new URL("../../pkg/otel.js", import.meta.url);
if (!existsSync(entryFile)) throw new Error("pkg/otel.js is missing: run `make pkg` first");
/** estatekit/otel's entry as built. */
const entry = await import(entryFile.href);

context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());

/**
 * The ways a context manager can fail when asked to run a function in a context (`with`): it
 * throws before calling it, it calls it and then throws, it returns without calling it, or it
 * calls it without the arguments it was given for it.
 */
export const BROKEN_CONTEXTS = /** @type {const} */ (["throws before", "throws after", "never calls", "drops the arguments of"]);

/**
 * Runs `fn` with a global context manager that gives the root context but whose `with` fails in
 * the way `how` says (and whose `bind` throws), then puts AsyncLocalStorage back.
 * @template T
 * @param {() => Promise<T>} fn
 * @param {(typeof BROKEN_CONTEXTS)[number]} [how]
 * @returns {Promise<T>}
 */
export async function withBrokenContext(fn, how = "throws before") {
  const down = () => {
    throw new Error("context manager down");
  };
  const ways = {
    "throws before": down,
    /** @param {unknown} _context @param {(...a: unknown[]) => unknown} f @param {unknown} self @param {unknown[]} args */
    "throws after": (_context, f, self, ...args) => {
      f.apply(self, args);
      throw new Error("context manager down after the call");
    },
    "never calls": () => undefined,
    /** @param {unknown} _context @param {(...a: unknown[]) => unknown} f @param {unknown} self */
    "drops the arguments of": (_context, f, self) => f.call(self),
  };
  const broken = { active: () => ROOT_CONTEXT, with: ways[how], bind: down, enable: () => broken, disable: () => broken };
  context.disable();
  assert.equal(context.setGlobalContextManager(broken), true);
  try {
    return await fn();
  } finally {
    context.disable();
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  }
}

/** A reader that collects when asked (the test's). */
class OnDemandReader extends MetricReader {
  async onForceFlush() {}
  async onShutdown() {}
}

/**
 * Fresh providers, the telemetry of estatekit/otel on them, and the app's own tracer.
 */
export function recording() {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const reader = new OnDemandReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  const parts = telemetry({ tracerProvider, meterProvider }, "0.0.0-test");
  return {
    /** The parts' telemetry on these providers (for tests of the parts themselves). */
    telemetry: parts,
    /**
     * `x` instrumented on these providers, as an app does it: `instrument(x, { tracerProvider,
     * meterProvider })`.
     * @template T
     * @param {T} x
     * @returns {T}
     */
    instrument(x) {
      return entry.instrument(x, { tracerProvider, meterProvider });
    },
    /** The app's tracer (its spans are the parents and children of estatekit's). */
    tracer: tracerProvider.getTracer("app"),
    /** Every span ended so far. */
    spans: () => exporter.getFinishedSpans(),
    /**
     * Every metric's points so far: `{ name, unit, points: [{ attributes, value }] }`.
     * @returns {Promise<{ name: string, unit: string, description: string, points: { attributes: Record<string, unknown>, value: unknown }[] }[]>}
     */
    async metrics() {
      const { resourceMetrics, errors } = await reader.collect();
      assert.deepEqual(errors, []);
      return resourceMetrics.scopeMetrics.flatMap((scope) =>
        scope.metrics.map((metric) => ({
          name: metric.descriptor.name,
          unit: metric.descriptor.unit,
          description: metric.descriptor.description,
          points: metric.dataPoints.map((point) => ({ attributes: point.attributes, value: point.value })),
        })),
      );
    },
  };
}

/**
 * The points of the counter `name`, as `[attributes, value]` sorted by their JSON.
 * @param {Awaited<ReturnType<ReturnType<typeof recording>["metrics"]>>} metrics
 * @param {string} name
 */
export function counted(metrics, name) {
  const metric = metrics.find((m) => m.name === name);
  assert.ok(metric, `no metric ${name} among ${metrics.map((m) => m.name).join(", ")}`);
  return metric.points
    .map((p) => [p.attributes, p.value])
    .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
}

/**
 * A span as the tests compare it (and as the secrets check reads it): everything exported.
 * @param {import("@opentelemetry/sdk-trace-base").ReadableSpan} span
 */
export function written(span) {
  return {
    name: span.name,
    kind: span.kind,
    traceId: span.spanContext().traceId,
    spanId: span.spanContext().spanId,
    parentSpanId: span.parentSpanContext?.spanId,
    scope: span.instrumentationScope,
    attributes: span.attributes,
    events: span.events.map((e) => ({ name: e.name, attributes: e.attributes })),
    status: span.status,
    links: span.links,
    startTime: span.startTime,
    endTime: span.endTime,
  };
}

/**
 * Asserts that no secret appears in any exported span or metric point, and that the export is
 * not empty (names of `expected` are in it: a check that reads nothing would pass on anything).
 * @param {ReturnType<typeof recording>} recorded
 * @param {string[]} secrets
 * @param {string[]} expected text the export must hold
 */
export async function assertNoSecrets(recorded, secrets, expected) {
  const text = JSON.stringify({ spans: recorded.spans().map(written), metrics: await recorded.metrics() });
  for (const e of expected) assert.ok(text.includes(e), `the export holds ${JSON.stringify(e)}`);
  assert.ok(secrets.length > 0);
  for (const secret of secrets) {
    assert.ok(typeof secret === "string" && secret.length >= 8, `a distinctive secret: ${secret?.length}`);
    assert.ok(!text.includes(secret), `a secret (${secret.slice(0, 3)}...) appears in the exported spans or metrics`);
  }
}
