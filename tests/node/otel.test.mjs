// estatekit/otel on a Client, against pkg/ (`make test-node`), with OpenTelemetry's real SDK
// (BasicTracerProvider with an in-memory exporter, MeterProvider with an in-memory metric
// exporter, AsyncLocalStorage contexts) and the emulator (estatekit/testing's, served on a free
// loopback port by `serve` below, which also records the headers each request arrived with): a
// call, a retried call (503 then 200; a dropped connection then 200), refused calls (404, 401), a
// GraphQL error, an aborted call, a call inside an app's span, a wait for the rate budget and a
// store's failure, propagation off by default and on when asked, an app's own fetch span
// suppressed, the same spans over OTLP/HTTP to a local receiver, and the secrets check over
// everything exported. (estatekit/auth's and estatekit/webhooks' parts have their own tests.)
import test from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { readFileSync } from "node:fs";
import { SpanKind, SpanStatusCode, context, metrics, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader } from "@opentelemetry/sdk-metrics";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";

import { BROKEN_CONTEXTS, withBrokenContext } from "./otel_recording.mjs";

const pkg = new URL("../../pkg/", import.meta.url).href;
const { Client, isApiError } = await import(`${pkg}estatekit.node.js`);
const { instrument, VERSION } = await import(`${pkg}otel.js`);
const { createTestService } = await import(`${pkg}testing.node.js`);

// AsyncLocalStorage is the global context manager (set by ./otel_recording.mjs, as for the tests of
// tokens and webhooks).

// Distinctive secrets: no exported span, event, status or metric point may hold them.
const TOKEN = "tok-otel-7Hq2xZ9pLw4M";
const WRONG_TOKEN = "tok-wrong-Vb8Kd3nQy6R";
const SECRETS = [TOKEN, WRONG_TOKEN];

const WEBHOOKS = "/api/external-integrations/webhooks";
const GRAPHQL = "/api/reporting/graphql";

/**
 * The emulator on a free loopback port (listen(0)): each request is handed to the in-process
 * service's `fetch`, and recorded with its headers (`received`). `hold(match)` keeps the next
 * matching request unanswered and resolves when it arrives (for aborts); a request the service
 * drops (a `drop` fault) gets its socket closed.
 */
async function serve() {
  const service = await createTestService({ tokens: [TOKEN], seedDocuments: 5 });
  const received = [];
  let held;
  const server = http.createServer(async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    received.push({ method: req.method, url: req.url, headers: req.headers });
    if (held && held.match(req)) {
      const { arrived } = held;
      held = undefined;
      arrived();
      return; // never answered: the client aborts
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === "string" && !["host", "connection", "content-length"].includes(name)) headers.set(name, value);
    }
    const body = chunks.length ? Buffer.concat(chunks) : undefined;
    let answer;
    try {
      answer = await service.fetch(`${service.baseUrl}${req.url}`, { method: req.method, headers, body });
    } catch {
      req.socket.destroy();
      return;
    }
    res.writeHead(answer.status, Object.fromEntries(answer.headers));
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise((resolve, reject) => server.listen(0, "127.0.0.1", resolve).on("error", reject));
  const port = server.address().port;
  return {
    service,
    port,
    baseUrl: `http://127.0.0.1:${port}`,
    received,
    hold: (match) => new Promise((arrived) => (held = { match, arrived })),
    close: () => {
      server.closeAllConnections();
      server.close();
      service.close();
    },
  };
}

const emulator = await serve();
test.after(() => emulator.close());

/** A tracer provider and a meter provider of the SDK, recording in memory. */
function sdk() {
  const spans = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
  const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const reader = new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 3_600_000 });
  const meterProvider = new MeterProvider({ readers: [reader] });
  return {
    tracerProvider,
    meterProvider,
    spans: () => spans.getFinishedSpans(),
    reset: () => spans.reset(),
    /** Every metric exported so far (a flush exports the cumulative points). */
    async metrics() {
      await meterProvider.forceFlush();
      const all = metricExporter.getMetrics();
      const last = all.at(-1);
      return last ? last.scopeMetrics.flatMap((s) => s.metrics) : [];
    },
  };
}

/** Everything exported by every scenario, for the secrets check at the end. */
const exported = [];
const telemetry = sdk();
test.after(async () => {
  await telemetry.tracerProvider.shutdown();
  await telemetry.meterProvider.shutdown();
});

/** An instrumented client of the emulator (the module loads at its first call). */
function client(options = {}, instrumentation = {}) {
  const { tracerProvider, meterProvider } = telemetry;
  const c = new Client({ baseUrl: emulator.baseUrl, token: TOKEN, retry: { baseDelayMs: 1, maxDelayMs: 1 }, ...options });
  return instrument(c, { tracerProvider, meterProvider, ...instrumentation });
}

/** The spans finished since the last call, kept for the secrets check. */
function take() {
  const spans = telemetry.spans();
  exported.push(...spans);
  telemetry.reset();
  return spans;
}

const id = (span) => span.spanContext().spanId;
const parentOf = (span) => span.parentSpanContext?.spanId;
const byName = (spans, name) => spans.filter((s) => s.name === name);
const one = (spans, name) => {
  const found = byName(spans, name);
  assert.equal(found.length, 1, `one span ${name}: ${spans.map((s) => s.name).join(", ")}`);
  return found[0];
};

/** The spans as a tree, one line each, indented by parent. */
function tree(spans) {
  const ids = new Set(spans.map(id));
  const lines = [];
  const kinds = { [SpanKind.INTERNAL]: "INTERNAL", [SpanKind.CLIENT]: "CLIENT", [SpanKind.SERVER]: "SERVER" };
  const print = (span, depth) => {
    const a = span.attributes;
    const facts = [
      kinds[span.kind],
      a["http.response.status_code"] !== undefined && `status ${a["http.response.status_code"]}`,
      a["http.request.resend_count"] !== undefined && `resend_count ${a["http.request.resend_count"]}`,
      a["error.type"] !== undefined && `error.type ${a["error.type"]}`,
      a["url.full"] !== undefined && a["url.full"],
    ].filter(Boolean);
    lines.push(`${"  ".repeat(depth)}${span.name} [${facts.join(", ")}]`);
    for (const child of spans.filter((s) => parentOf(s) === id(span))) print(child, depth + 1);
  };
  for (const root of spans.filter((s) => !ids.has(parentOf(s)))) print(root, 0);
  return lines.join("\n");
}

test("propagate: true sends W3C traceparent naming the CLIENT span (a client instrumented before the module loaded)", async () => {
  // The first call of this process: the client is built when the module loads, after instrument().
  const c = client({}, { propagate: true });
  await c.listWebhooks();
  const spans = take();
  const request = one(spans, `GET ${WEBHOOKS}`);
  const sent = emulator.received.at(-1);
  const { traceId, spanId } = request.spanContext();
  assert.equal(sent.headers.traceparent, `00-${traceId}-${spanId}-01`);
});

test("a call: its operation span, the CLIENT span under it, and no traceparent by default", async () => {
  const c = client();
  await c.listWebhooks();
  const spans = take();
  const operation = one(spans, "estatekit listWebhooks");
  const request = one(spans, `GET ${WEBHOOKS}`);
  assert.equal(operation.kind, SpanKind.INTERNAL);
  assert.equal(operation.parentSpanContext, undefined, "a root span: no app span was active");
  assert.equal(request.kind, SpanKind.CLIENT);
  assert.equal(parentOf(request), id(operation));
  assert.equal(request.spanContext().traceId, operation.spanContext().traceId);
  assert.deepEqual(
    { ...request.attributes, [`http.response.header.x-request-id`]: undefined },
    {
      "http.request.method": "GET",
      "server.address": "127.0.0.1",
      "server.port": emulator.port,
      "url.template": WEBHOOKS,
      "url.full": `${emulator.baseUrl}${WEBHOOKS}`,
      "http.response.status_code": 200,
      "http.response.header.x-request-id": undefined,
    },
  );
  assert.match(request.attributes["http.response.header.x-request-id"][0], /^req-\d+$/);
  assert.equal(request.status.code, SpanStatusCode.UNSET);
  assert.equal(operation.status.code, SpanStatusCode.UNSET);
  assert.equal(operation.attributes["estatekit.attempts"], 1);
  assert.equal(operation.instrumentationScope.name, "estatekit");
  assert.equal(operation.instrumentationScope.version, VERSION);
  assert.ok(operation.startTime[0] * 1e3 + operation.startTime[1] / 1e6 <= request.startTime[0] * 1e3 + request.startTime[1] / 1e6);
  const last = emulator.received.at(-1);
  assert.equal(last.url, WEBHOOKS);
  assert.equal(last.headers.traceparent, undefined);
  assert.equal(last.headers.tracestate, undefined);
});

test("instrument() returns the same client, its methods own non-enumerable properties; again, nothing changes", async () => {
  const plain = new Client({ baseUrl: emulator.baseUrl, token: TOKEN });
  const keys = Object.keys(plain);
  const c = instrument(plain, { tracerProvider: telemetry.tracerProvider, meterProvider: telemetry.meterProvider });
  assert.equal(c, plain);
  assert.deepEqual(Object.keys(c), keys);
  const own = Object.getOwnPropertyDescriptor(c, "listWebhooks");
  assert.equal(typeof own.value, "function");
  assert.equal(own.enumerable, false);
  assert.equal(own.value.name, "listWebhooks");
  assert.equal(instrument(c), c);
  assert.equal(c.listWebhooks, own.value, "instrumented once");
  assert.ok(c instanceof Client);
  assert.equal(JSON.parse(readFileSync(new URL("package.json", pkg), "utf8")).version, VERSION);
  assert.throws(() => instrument({}), { name: "ApiError", kind: "invalid_input" });
  const frozen = Object.freeze(new Client({ baseUrl: emulator.baseUrl, token: TOKEN }));
  assert.throws(() => instrument(frozen), /frozen \(or sealed\): instrument it before freezing it/);
  assert.throws(() => instrument(frozen), /frozen/, "refused again: nothing was marked");
  assert.ok(Array.isArray(await frozen.listWebhooks()), "the frozen client still works, uninstrumented");
  assert.throws(() => instrument(c, "yes"), { name: "ApiError", kind: "invalid_input" });
  // Arguments the call refuses are refused in the same words, instrumented or not.
  const refusal = async (client, call) => call(client).then(() => "resolved", (e) => `${e.kind}: ${e.message}`);
  const untouched = new Client({ baseUrl: emulator.baseUrl, token: TOKEN });
  for (const call of [(x) => x.listWebhooks("nope"), (x) => x.getDocument(42), (x) => x.listWebhooks({ onEvent: 1 }), (x) => x.listWebhooks({ tiemoutMs: 1 })]) {
    const expected = await refusal(untouched, call);
    assert.match(expected, /^invalid_input: /);
    assert.equal(await refusal(c, call), expected);
  }
  // Refused before the call told any event (its arguments or options): a span each, from the
  // method call to the refusal, with the kind and no request.
  assert.deepEqual(
    take().map((s) => [s.name, s.attributes["error.type"], s.attributes["estatekit.attempts"], s.status.code]),
    [
      ["estatekit listWebhooks", "invalid_input", 0, SpanStatusCode.ERROR],
      ["estatekit getDocument", "invalid_input", 0, SpanStatusCode.ERROR],
      ["estatekit listWebhooks", "invalid_input", 0, SpanStatusCode.ERROR],
      ["estatekit listWebhooks", "invalid_input", 0, SpanStatusCode.ERROR],
    ],
  );
  // Refused after: a span with no request.
  await assert.rejects(c.listMessages({}), (e) => isApiError(e) && e.kind === "invalid_input");
  const [refused, ...more] = take();
  assert.deepEqual(more, []);
  assert.equal(refused.name, "estatekit listMessages");
  assert.equal(refused.attributes["error.type"], "invalid_input");
  // The caller's own onEvent still hears every event.
  const heard = [];
  await c.listWebhooks({ onEvent: (e) => heard.push(e.type) });
  assert.deepEqual(heard, ["request", "response", "done"]);
  assert.equal(take().length, 2);
});

test("the caller's options are read as they are, instrumented or not: getters on private fields, non-enumerable and inherited properties, a frozen onEvent", async () => {
  const plain = new Client({ baseUrl: emulator.baseUrl, token: TOKEN });
  const c = client();
  const outcome = (call) => {
    try {
      return call().then((v) => ["resolved", Array.isArray(v)], (e) => ["rejected", e.kind ?? e.message]);
    } catch (e) {
      return ["threw", String(e)];
    }
  };
  class Options {
    #timeout = 5_000;
    get timeoutMs() {
      return this.#timeout;
    }
  }
  const aborted = AbortSignal.abort();
  const heard = [];
  const cases = {
    "a getter reading a private field": () => new Options(),
    "a non-enumerable own signal (aborted)": () => Object.defineProperty({}, "signal", { value: aborted, enumerable: false }),
    "a frozen object with its own onEvent": () => Object.freeze({ onEvent: (e) => heard.push(e.type) }),
    "an onEvent inherited from a frozen prototype": () => Object.create(Object.freeze({ onEvent: (e) => heard.push(e.type) })),
    "an onEvent getter on the prototype": () => Object.create({ get onEvent() { return (e) => heard.push(e.type); } }),
    "a getter that throws": () => ({
      get timeoutMs() {
        throw new Error("no timeout today");
      },
    }),
  };
  for (const [what, options] of Object.entries(cases)) {
    heard.length = 0;
    const expected = await outcome(() => plain.listWebhooks(options()));
    const heardPlain = [...heard];
    heard.length = 0;
    assert.deepEqual(await outcome(() => c.listWebhooks(options())), expected, what);
    assert.deepEqual(heard, heardPlain, `${what}: the caller's onEvent heard the same`);
  }
  assert.deepEqual(await outcome(() => c.listWebhooks(cases["a non-enumerable own signal (aborted)"]())), ["rejected", "aborted"]);
  // The getter's own error, as the module rejects with it uninstrumented (not thrown at the call).
  assert.deepEqual(await outcome(() => c.listWebhooks(cases["a getter that throws"]())), ["rejected", "no timeout today"]);
  const spans = take().filter((s) => s.kind === SpanKind.INTERNAL);
  assert.equal(spans.length, Object.keys(cases).length + 2, "a span per call");
});

test("a retried call: two CLIENT spans under one parent, the second with http.request.resend_count 1", async () => {
  await emulator.service.addFaults({ method: "GET", path: WEBHOOKS, status: 503 });
  const c = client();
  await c.listWebhooks();
  const spans = take();
  console.log(`span tree of a retried call (503, then 200):\n${tree(spans)}`);
  const operation = one(spans, "estatekit listWebhooks");
  const requests = byName(spans, `GET ${WEBHOOKS}`).sort((a, b) => (a.attributes["http.request.resend_count"] ?? 0) - (b.attributes["http.request.resend_count"] ?? 0));
  assert.equal(requests.length, 2);
  for (const r of requests) assert.equal(parentOf(r), id(operation));
  const [first, second] = requests;
  assert.equal(first.attributes["http.response.status_code"], 503);
  assert.equal(first.attributes["error.type"], "503");
  assert.equal(first.attributes["http.request.resend_count"], undefined);
  assert.equal(first.status.code, SpanStatusCode.ERROR);
  assert.equal(second.attributes["http.response.status_code"], 200);
  assert.equal(second.attributes["http.request.resend_count"], 1);
  assert.equal(second.attributes["error.type"], undefined);
  assert.equal(operation.status.code, SpanStatusCode.UNSET);
  assert.equal(operation.attributes["estatekit.attempts"], 2);
});

test("an attempt that got no answer (a dropped connection) ends at the retry, error.type network", async () => {
  await emulator.service.addFaults({ method: "GET", path: WEBHOOKS, drop: true });
  await client().listWebhooks();
  const spans = take();
  const operation = one(spans, "estatekit listWebhooks");
  const [dropped, answered] = byName(spans, `GET ${WEBHOOKS}`).sort((a, b) => (a.attributes["http.request.resend_count"] ?? 0) - (b.attributes["http.request.resend_count"] ?? 0));
  assert.equal(parentOf(dropped), id(operation));
  assert.equal(dropped.attributes["error.type"], "network");
  assert.equal(dropped.attributes["http.response.status_code"], undefined);
  assert.equal(dropped.status.code, SpanStatusCode.ERROR);
  assert.equal(answered.attributes["http.request.resend_count"], 1);
  assert.equal(answered.attributes["http.response.status_code"], 200);
});

test("refused calls: a 404 and a 401 (wrong token): the CLIENT span's error.type is the status, the operation's the kind", async () => {
  await assert.rejects(client().getDocument("no such document"), (e) => isApiError(e) && e.kind === "not_found");
  let spans = take();
  let operation = one(spans, "estatekit getDocument");
  const template = "/api/file-storage/company/documents/{documentId}/metadata";
  const request = one(spans, `GET ${template}`);
  assert.equal(request.attributes["url.template"], template);
  assert.equal(request.attributes["url.full"], `${emulator.baseUrl}/api/file-storage/company/documents/no%20such%20document/metadata`);
  assert.equal(request.attributes["http.response.status_code"], 404);
  assert.equal(request.attributes["error.type"], "404");
  assert.equal(operation.attributes["error.type"], "not_found");
  assert.equal(operation.status.code, SpanStatusCode.ERROR);

  await assert.rejects(client({ token: WRONG_TOKEN }).deleteWebhook("hook-1"), (e) => isApiError(e) && e.kind === "unauthorized");
  spans = take();
  operation = one(spans, "estatekit deleteWebhook");
  const refused = one(spans, `DELETE ${WEBHOOKS}/{webhookId}`);
  assert.equal(refused.attributes["error.type"], "401");
  assert.equal(operation.attributes["error.type"], "unauthorized");
});

test("a GraphQL error: the CLIENT span answered 200 (no error), graphql.operation.*, the operation's error.type graphql", async () => {
  await emulator.service.addFaults({
    method: "POST",
    path: GRAPHQL,
    status: 200,
    contentType: "application/json",
    body: JSON.stringify({ data: null, errors: [{ message: "Cannot query field" }] }),
  });
  await assert.rejects(client().listMessages({ candidateId: "c-1" }), (e) => isApiError(e) && e.kind === "graphql");
  const spans = take();
  const operation = one(spans, "estatekit listMessages");
  const request = one(spans, `POST ${GRAPHQL}`);
  assert.equal(request.attributes["graphql.operation.type"], "query");
  assert.equal(request.attributes["graphql.operation.name"], "Messages");
  assert.equal(request.attributes["http.response.status_code"], 200);
  assert.equal(request.attributes["error.type"], undefined);
  assert.equal(operation.attributes["error.type"], "graphql");
  assert.equal(operation.status.code, SpanStatusCode.ERROR);
});

test("an iterated list call: one operation span per page (each its own call), all under the span active at the method call", async () => {
  const tracer = telemetry.tracerProvider.getTracer("app");
  const c = client();
  await tracer.startActiveSpan("page through", async (span) => {
    const ids = [];
    for await (const doc of c.listDocuments(undefined, { pageSize: 2, limit: 5 })) ids.push(doc.id);
    assert.ok(ids.length > 0);
    span.end();
  });
  const spans = take();
  const app = one(spans, "page through");
  const pages = byName(spans, "estatekit listDocuments");
  assert.ok(pages.length >= 2, `${pages.length} pages`);
  for (const page of pages) {
    assert.equal(parentOf(page), id(app));
    const request = spans.find((s) => parentOf(s) === id(page));
    assert.equal(request.name, "GET /api/file-storage/company/documents/metadata");
    assert.match(request.attributes["url.full"], /\/metadata\?skip=\d+&take=\d+$/);
  }
});

test("an aborted call: its spans end with the abort recorded", async () => {
  const controller = new AbortController();
  const arrived = emulator.hold((req) => req.url === WEBHOOKS);
  const call = client().listWebhooks({ signal: controller.signal });
  await arrived;
  controller.abort();
  await assert.rejects(call, (e) => isApiError(e) && e.kind === "aborted");
  const spans = take();
  const operation = one(spans, "estatekit listWebhooks");
  const request = one(spans, `GET ${WEBHOOKS}`);
  assert.equal(parentOf(request), id(operation));
  assert.equal(request.attributes["error.type"], "aborted");
  assert.equal(request.status.code, SpanStatusCode.ERROR);
  assert.equal(operation.attributes["error.type"], "aborted");
  assert.equal(operation.status.code, SpanStatusCode.ERROR);
});

test("a call inside an app's span is its child", async () => {
  const tracer = telemetry.tracerProvider.getTracer("app");
  const c = client();
  await tracer.startActiveSpan("GET /api/units", { kind: SpanKind.SERVER }, async (span) => {
    await c.listWebhooks();
    span.end();
  });
  const spans = take();
  const route = one(spans, "GET /api/units");
  const operation = one(spans, "estatekit listWebhooks");
  assert.equal(parentOf(operation), id(route));
  assert.equal(operation.spanContext().traceId, route.spanContext().traceId);
  assert.equal(parentOf(one(spans, `GET ${WEBHOOKS}`)), id(operation));
});

test("an app's own fetch instrumentation makes no second span of the request: it runs with tracing suppressed", async (t) => {
  const tracer = telemetry.tracerProvider.getTracer("app-fetch-instrumentation");
  const original = globalThis.fetch;
  const seen = [];
  // What undici's or Next.js's fetch instrumentation does: a span around every fetch.
  globalThis.fetch = function (input, init) {
    const span = tracer.startSpan("app fetch", { kind: SpanKind.CLIENT });
    seen.push(span.isRecording());
    span.end();
    return original.call(this, input, init);
  };
  t.after(() => (globalThis.fetch = original));
  // Control: outside the client, the app's span records.
  await (await fetch(`${emulator.baseUrl}/_emulator/info`)).arrayBuffer();
  assert.deepEqual(seen, [true]);
  // An uninstrumented client: the app's span records (what instrumenting removes).
  await new Client({ baseUrl: emulator.baseUrl, token: TOKEN }).listWebhooks();
  assert.deepEqual(seen, [true, true]);
  take();
  await client().listWebhooks();
  assert.deepEqual(seen, [true, true, false]);
  const spans = take();
  assert.deepEqual(byName(spans, "app fetch"), []);
  one(spans, `GET ${WEBHOOKS}`);
});

test("a wait for the rate budget and a failed store are the operation span's events; the wait is counted", async () => {
  // perMinute 1: the second call waits about a minute; it is aborted when told of its wait.
  const c = client({ rateLimit: { perMinute: 1 } });
  await c.listWebhooks();
  const controller = new AbortController();
  const waits = [];
  await assert.rejects(
    c.listWebhooks({
      signal: controller.signal,
      timeoutMs: 0,
      onEvent: (e) => {
        if (e.type === "rateWait") {
          waits.push(e.delayMs);
          controller.abort();
        }
      },
    }),
    (e) => isApiError(e) && e.kind === "aborted",
  );
  assert.equal(waits.length, 1);
  assert.ok(waits[0] > 0 && waits[0] <= 60_000, `${waits[0]}`);
  let spans = take();
  const waited = byName(spans, "estatekit listWebhooks").find((s) => s.events.length);
  assert.deepEqual(
    waited.events.map((e) => [e.name, e.attributes]),
    [["estatekit.rate_limit.wait", { "estatekit.rate_limit.delay_ms": waits[0] }]],
  );
  assert.equal(waited.attributes["error.type"], "aborted");
  assert.equal(spans.filter((s) => parentOf(s) === id(waited)).length, 0, "nothing was sent");

  // A shared store that fails: the call goes on without it, the span tells.
  const store = { take: () => Promise.reject(new Error("store down")) };
  await client({ rateLimit: { perMinute: 100, store } }).listWebhooks();
  spans = take();
  const operation = one(spans, "estatekit listWebhooks");
  assert.deepEqual(
    operation.events.map((e) => [e.name, e.attributes]),
    [["estatekit.store.failure", { "estatekit.store.purpose": "rate", "estatekit.store.reason": "error" }]],
  );
});

test("metrics: http.client.request.duration per request (seconds), retries and rate-budget waits counted", async () => {
  const all = await telemetry.metrics();
  const metric = (name) => all.find((m) => m.descriptor.name === name);
  const duration = metric("http.client.request.duration");
  assert.equal(duration.descriptor.unit, "s");
  assert.deepEqual(duration.dataPoints[0].value.buckets.boundaries.slice(0, 3), [0.005, 0.01, 0.025]);
  const point = (attributes) => duration.dataPoints.find((p) => Object.entries(attributes).every(([k, v]) => p.attributes[k] === v));
  const ok = point({ "url.template": WEBHOOKS, "http.response.status_code": 200 });
  assert.deepEqual(Object.keys(ok.attributes).sort(), ["http.request.method", "http.response.status_code", "server.address", "server.port", "url.template"]);
  assert.ok(ok.value.count >= 5);
  assert.ok(ok.value.sum > 0 && ok.value.max < 60, "seconds");
  assert.equal(point({ "http.response.status_code": 503 }).attributes["error.type"], "503");
  assert.equal(point({ "error.type": "network" }).attributes["http.response.status_code"], undefined);
  assert.ok(point({ "error.type": "aborted" }));
  assert.ok(point({ "http.response.status_code": 404, "url.template": "/api/file-storage/company/documents/{documentId}/metadata" }));
  const retries = metric("estatekit.client.retries");
  const retried = (type) => retries.dataPoints.find((p) => p.attributes["error.type"] === type);
  assert.equal(retried("503").value, 1);
  assert.equal(retried("503").attributes["estatekit.operation"], "listWebhooks");
  assert.equal(retried("network").value, 1);
  const waits = metric("estatekit.client.rate_limit.waits");
  assert.equal(waits.dataPoints.reduce((n, p) => n + p.value, 0), 1);
  console.log(
    `metrics exported:\n${all
      .flatMap((m) => m.dataPoints.map((p) => `${m.descriptor.name} ${JSON.stringify(p.attributes)} ${typeof p.value === "number" ? p.value : `count ${p.value.count}`}`))
      .join("\n")}`,
  );
  exported.push(...all.flatMap((m) => m.dataPoints.map((p) => ({ metric: m.descriptor.name, attributes: p.attributes }))));
});

test("the global providers by default", async (t) => {
  const global = sdk();
  assert.ok(trace.setGlobalTracerProvider(global.tracerProvider));
  assert.ok(metrics.setGlobalMeterProvider(global.meterProvider));
  t.after(() => {
    trace.disable();
    metrics.disable();
  });
  await instrument(new Client({ baseUrl: emulator.baseUrl, token: TOKEN })).listWebhooks();
  const spans = global.spans();
  exported.push(...spans);
  assert.deepEqual(spans.map((s) => s.name).sort(), [`GET ${WEBHOOKS}`, "estatekit listWebhooks"]);
  assert.ok((await global.metrics()).some((m) => m.descriptor.name === "http.client.request.duration"));
});

test("the same spans over OTLP/HTTP to a local receiver", async (t) => {
  const bodies = [];
  const receiver = http.createServer(async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    bodies.push({ path: req.url, type: req.headers["content-type"], text: Buffer.concat(chunks).toString("utf8") });
    res.writeHead(200, { "content-type": "application/json" }).end("{}");
  });
  await new Promise((resolve, reject) => receiver.listen(0, "127.0.0.1", resolve).on("error", reject));
  const provider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(new OTLPTraceExporter({ url: `http://127.0.0.1:${receiver.address().port}/v1/traces` }))],
  });
  t.after(async () => {
    await provider.shutdown();
    receiver.closeAllConnections();
    receiver.close();
  });
  await emulator.service.addFaults({ method: "GET", path: WEBHOOKS, status: 503 });
  const c = instrument(new Client({ baseUrl: emulator.baseUrl, token: TOKEN, retry: { baseDelayMs: 1, maxDelayMs: 1 } }), { tracerProvider: provider });
  await c.listWebhooks();
  await provider.forceFlush();
  assert.ok(bodies.length > 0);
  assert.ok(bodies.every((b) => b.path === "/v1/traces" && b.type === "application/json"));
  const spans = bodies.flatMap((b) => JSON.parse(b.text).resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans.map((span) => ({ ...span, scope: s.scope.name })))));
  const attributes = (span) => Object.fromEntries(span.attributes.map((a) => [a.key, Object.values(a.value)[0]]));
  const operation = spans.find((s) => s.name === "estatekit listWebhooks");
  const requests = spans.filter((s) => s.name === `GET ${WEBHOOKS}`);
  assert.equal(operation.kind, 1, "SPAN_KIND_INTERNAL");
  assert.equal(operation.scope, "estatekit");
  assert.equal(requests.length, 2);
  for (const r of requests) {
    assert.equal(r.kind, 3, "SPAN_KIND_CLIENT");
    assert.equal(r.parentSpanId, operation.spanId);
    assert.equal(r.traceId, operation.traceId);
    assert.equal(attributes(r)["url.template"], WEBHOOKS);
    assert.equal(attributes(r)["url.full"], `${emulator.baseUrl}${WEBHOOKS}`);
  }
  assert.deepEqual(requests.map((r) => Number(attributes(r)["http.response.status_code"])).sort(), [200, 503]);
  assert.deepEqual(requests.map((r) => attributes(r)["http.request.resend_count"]).filter(Boolean).map(Number), [1]);
  console.log(`OTLP receiver decoded:\n${spans.map((s) => `${s.name} span ${s.spanId} parent ${s.parentSpanId || "-"} ${JSON.stringify(attributes(s))}`).join("\n")}`);
  exported.push(...bodies.map((b) => b.text));
});

test("url.full never shows a credential: a query parameter named like one is written REDACTED", async () => {
  const { fullUrl } = await import(`${pkg}otel_client.js`);
  assert.equal(fullUrl("https://acme.example.com", "/api/x?unitId=u%201&skip=0"), "https://acme.example.com/api/x?unitId=u%201&skip=0");
  assert.equal(
    fullUrl("https://acme.example.com", `/api/x?access_token=${TOKEN}&sig=abc&client%5Fsecret=s&Password=p&skip=1`),
    "https://acme.example.com/api/x?access_token=REDACTED&sig=REDACTED&client%5Fsecret=REDACTED&Password=REDACTED&skip=1",
  );
});

test("the secrets check: no exported span (name, attributes, events, status) nor metric point holds the token", () => {
  const serialized = JSON.stringify(
    exported.map((s) =>
      typeof s === "string" || !s.spanContext
        ? s
        : { name: s.name, attributes: s.attributes, events: s.events, status: s.status, links: s.links, resource: s.resource.attributes },
    ),
  );
  assert.ok(exported.length > 30, `${exported.length} items checked`);
  assert.ok(serialized.includes("estatekit listWebhooks"), "the check reads what was exported");
  for (const secret of SECRETS) assert.equal(serialized.includes(secret), false, "a token was exported");
  assert.equal(/bearer/i.test(serialized), false);
  // Every request carried the token, in its Authorization header only.
  assert.ok(emulator.received.length > 10);
  for (const r of emulator.received) assert.equal(r.url.includes(TOKEN), false);
});

for (const how of BROKEN_CONTEXTS) {
  test(`a context manager that ${how} (the function it is given) breaks no call: each request sent once, getToken asked once`, async () => {
    let asked = 0;
    const c = instrument(new Client({ baseUrl: emulator.baseUrl, getToken: async () => (asked++, TOKEN) }));
    const before = emulator.received.length;
    const got = await withBrokenContext(() => c.listWebhooks(), how);
    assert.equal(emulator.received.length - before, 1, "one request");
    assert.equal(asked, 1, "getToken asked once");
    const refused = await withBrokenContext(() => c.getDocument("doc-missing-otel").catch((e) => e), how);
    assert.ok(isApiError(refused), String(refused));
    assert.equal(refused.status, 404);
    assert.equal(emulator.received.length - before, 2, "one request");
    assert.deepEqual(got, await new Client({ baseUrl: emulator.baseUrl, token: TOKEN }).listWebhooks());
    take();
  });
}

test("telemetry never breaks a call: a tracer, a meter and a context manager that throw", async () => {
  const down = () => {
    throw new Error("telemetry down");
  };
  const tracerProvider = { getTracer: () => ({ startSpan: down, startActiveSpan: down }) };
  const instruments = { record: down, add: down };
  const meterProvider = { getMeter: () => ({ createHistogram: () => instruments, createCounter: () => instruments, createUpDownCounter: () => instruments }) };
  const failing = instrument(new Client({ baseUrl: emulator.baseUrl, token: TOKEN }), { tracerProvider, meterProvider });
  const plain = new Client({ baseUrl: emulator.baseUrl, token: TOKEN });
  assert.deepEqual(await failing.listWebhooks(), await plain.listWebhooks());
  const refused = await failing.getDocument("doc-missing-otel").catch((e) => e);
  assert.ok(isApiError(refused), String(refused));
  assert.equal(refused.status, 404);

  // A context manager whose every method throws: the calls go on as without telemetry.
  const broken = { active: down, with: down, bind: down, enable: () => broken, disable: () => broken };
  context.disable();
  assert.equal(context.setGlobalContextManager(broken), true);
  try {
    const c = client();
    assert.deepEqual(await c.listWebhooks(), await plain.listWebhooks());
    const error = await c.getDocument("doc-missing-otel").catch((e) => e);
    assert.ok(isApiError(error), String(error));
    assert.equal(error.status, 404);
  } finally {
    context.disable();
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  }
  take();
});
