// estatekit/otel on estatekit/webhooks' handler, with OpenTelemetry's real SDK: deliveries sent
// by the in-process emulator (estatekit/testing's `deliver` calls the instrumented handler), each
// a SERVER span `estatekit webhook receive` with the event type, the delivery's id, the dedupe
// outcome and the status answered, inside which the app's own spans nest; new then duplicate, a
// handler that throws then its retry, another instance's delivery in progress, the refusals;
// `estatekit.webhook.deliveries` by outcome and type; and nothing of the body in anything
// exported.
import test from "node:test";
import assert from "node:assert/strict";
import { SpanKind, SpanStatusCode } from "@opentelemetry/api";
import { BROKEN_CONTEXTS, assertNoSecrets, counted, instrumentHandler, isHandler, recording, withBrokenContext, written } from "./otel_recording.mjs";

const pkg = new URL("../../pkg/", import.meta.url).href;
const { createWebhookHandler, toNodeListener } = await import(`${pkg}webhooks.node.js`);
const { createMemoryStore } = await import(`${pkg}store.js`);
const { createTestService } = await import(`${pkg}testing.node.js`);

/** What the events carry that must never be exported. */
const BODY_SECRET = "otel-body-secret-Q7x9";
const HANDLER_SECRET = "otel-handler-error-Q7x9";
const HOOK = "http://127.0.0.1/hooks/otel-Q7x9";

/** The delivery spans, in the order they ended. */
const deliverySpans = (recorded) => recorded.spans().filter((s) => s.name === "estatekit webhook receive");

/**
 * An emulator whose deliveries go to `handler` (the bodies sent are kept for the secrets check).
 * @param {import("node:test").TestContext} t
 * @param {(request: Request) => Promise<Response>} handler
 */
async function sender(t, handler) {
  const bodies = [];
  const service = await createTestService({
    deliveryBackoffMs: 1,
    deliver: (url, init) => (bodies.push(String(init.body)), handler(new Request(url, init))),
  });
  t.after(() => service.close());
  await service.seed({ webhooks: [{ type: "UNIT_CREATED", url: HOOK }, { type: "UNIT_DELETED", url: HOOK }] });
  return { service, bodies };
}

test.describe("estatekit/otel: webhook deliveries", () => {
  for (const how of BROKEN_CONTEXTS) {
    test.it(`a context manager that ${how} (the function it is given) breaks no delivery: handled once, answered 200`, async (t) => {
      const recorded = recording();
      const handled = [];
      const handler = recorded.instrument(createWebhookHandler({ dedupe: true, on: { UNIT_CREATED: (event) => void handled.push(event.uuid) } }));
      const { service } = await sender(t, handler);
      const records = await withBrokenContext(async () => {
        await service.emit("UNIT_CREATED", { data: { unitId: "unit-broken" } });
        return service.settled();
      }, how);
      assert.deepEqual(records.map((r) => r.status), [200]);
      assert.equal(handled.length, 1);
    });
  }

  test.it("a delivery sent twice: new, then duplicate; the app's span nests in the first", async (t) => {
    const recorded = recording();
    const handled = [];
    const handler = createWebhookHandler({
      dedupe: true,
      on: {
        UNIT_CREATED: (event) =>
          recorded.tracer.startActiveSpan("app: unit created", async (span) => {
            await Promise.resolve(); // an await of the app's: the context stays
            handled.push(event.uuid);
            recorded.tracer.startSpan("app: nested").end();
            span.end();
          }),
      },
    });
    const instrumented = recorded.instrument(handler);
    assert.notEqual(instrumented, handler, "a handler comes back wrapped");
    const { service, bodies } = await sender(t, instrumented);
    const emitted = await service.emit("UNIT_CREATED", { data: { unitId: "unit-1", note: BODY_SECRET }, copies: 1 });
    const records = await service.settled();
    assert.deepEqual(records.map((r) => r.status), [200, 200]);
    assert.deepEqual(handled, [emitted.uuid], "handled once");

    const spans = deliverySpans(recorded);
    console.log(spans.map((s) => `${s.name} [${SpanKind[s.kind]}] ${JSON.stringify(s.attributes)}`).join("\n"));
    assert.equal(spans.length, 2);
    const byOutcome = Object.fromEntries(spans.map((s) => [s.attributes["estatekit.webhook.outcome"], s]));
    assert.deepEqual(Object.keys(byOutcome).sort(), ["duplicate", "new"]);
    for (const span of spans) {
      assert.equal(span.kind, SpanKind.SERVER);
      assert.equal(span.status.code, SpanStatusCode.UNSET);
      assert.equal(span.attributes["estatekit.webhook.event_type"], "UNIT_CREATED");
      assert.equal(span.attributes["estatekit.webhook.delivery_id"], emitted.uuid);
      assert.equal(span.attributes["http.request.method"], "POST");
      assert.equal(span.attributes["http.response.status_code"], 200);
      assert.equal(span.attributes["error.type"], undefined);
    }
    const app = recorded.spans().find((s) => s.name === "app: unit created");
    assert.equal(app.parentSpanContext?.spanId, byOutcome.new.spanContext().spanId, "the app's span is the new delivery's child");
    assert.equal(app.spanContext().traceId, byOutcome.new.spanContext().traceId);
    const nested = recorded.spans().find((s) => s.name === "app: nested");
    assert.equal(nested.parentSpanContext?.spanId, app.spanContext().spanId);

    assert.deepEqual(counted(await recorded.metrics(), "estatekit.webhook.deliveries"), [
      [{ "estatekit.webhook.outcome": "duplicate", "estatekit.webhook.event_type": "UNIT_CREATED" }, 1],
      [{ "estatekit.webhook.outcome": "new", "estatekit.webhook.event_type": "UNIT_CREATED" }, 1],
    ]);
    assert.equal(bodies.length, 2);
    await assertNoSecrets(recorded, [BODY_SECRET, ...bodies], ["estatekit webhook receive", emitted.uuid]);
  });

  test.it("a handler that throws: handler_failed (500, ERROR), then the sender's retry: new", async (t) => {
    const recorded = recording();
    let throws = true;
    const errors = [];
    const handler = recorded.instrument(
      createWebhookHandler({
        dedupe: true,
        on: {
          UNIT_DELETED: () => {
            if (throws) {
              throws = false;
              throw new Error(`the database refused it: ${HANDLER_SECRET}`);
            }
          },
        },
        onError: (error) => errors.push(error),
      }),
    );
    const { service, bodies } = await sender(t, handler);
    const emitted = await service.emit("UNIT_DELETED", { data: { note: BODY_SECRET } });
    const records = await service.settled();
    assert.deepEqual(records.map((r) => r.status), [500, 200]);
    assert.equal(errors.length, 1);
    const spans = deliverySpans(recorded);
    assert.deepEqual(
      spans.map((s) => [s.attributes["estatekit.webhook.outcome"], s.attributes["http.response.status_code"], s.attributes["error.type"], s.status.code]),
      [
        ["handler_failed", 500, "handler_failed", SpanStatusCode.ERROR],
        ["new", 200, undefined, SpanStatusCode.UNSET],
      ],
    );
    assert.ok(spans.every((s) => s.attributes["estatekit.webhook.delivery_id"] === emitted.uuid));
    assert.deepEqual(written(spans[0]).events, [], "no exception recorded: its message is the app's");
    assert.deepEqual(counted(await recorded.metrics(), "estatekit.webhook.deliveries"), [
      [{ "estatekit.webhook.outcome": "handler_failed", "estatekit.webhook.event_type": "UNIT_DELETED", "error.type": "handler_failed" }, 1],
      [{ "estatekit.webhook.outcome": "new", "estatekit.webhook.event_type": "UNIT_DELETED" }, 1],
    ]);
    await assertNoSecrets(recorded, [BODY_SECRET, HANDLER_SECRET, ...bodies], ["handler_failed"]);
  });

  test.it("another instance handles the delivery (a shared store): in_progress (503), then duplicate", async () => {
    const recorded = recording();
    const store = createMemoryStore();
    /** @type {() => void} */
    let entered;
    const inHandler = new Promise((resolve) => (entered = resolve));
    /** @type {() => void} */
    let release;
    const gate = new Promise((resolve) => (release = resolve));
    const on = { UNIT_UPDATED: async () => (entered(), await gate) };
    const a = recorded.instrument(createWebhookHandler({ dedupe: store, on }));
    const b = recorded.instrument(createWebhookHandler({ dedupe: store, on }));
    const body = JSON.stringify({ uuid: "d-1", operation: "UNIT_UPDATED", subdomain: "acme", language: "en", createdAt: "2026-11-27T10:00:00.000Z", data: { note: BODY_SECRET } });
    const delivery = () => new Request(HOOK, { method: "POST", headers: { "content-type": "application/json" }, body });
    const first = a(delivery());
    await inHandler;
    assert.equal((await b(delivery())).status, 503);
    release();
    assert.equal((await first).status, 200);
    assert.equal((await b(delivery())).status, 200);
    assert.deepEqual(
      deliverySpans(recorded).map((s) => [s.attributes["estatekit.webhook.outcome"], s.attributes["http.response.status_code"], s.status.code]),
      [
        ["in_progress", 503, SpanStatusCode.UNSET],
        ["new", 200, SpanStatusCode.UNSET],
        ["duplicate", 200, SpanStatusCode.UNSET],
      ],
    );
    await assertNoSecrets(recorded, [BODY_SECRET, body], ["in_progress"]);
  });

  test.it("a method outside the HTTP conventions' list: http.request.method _OTHER, the sent one as method_original", async () => {
    const recorded = recording();
    const handler = recorded.instrument(createWebhookHandler({ on: {}, onError: () => {} }));
    assert.equal((await handler(new Request(HOOK, { method: "X-SENDER-CHOSEN" }))).status, 405);
    assert.equal((await handler(new Request(HOOK, { method: "DELETE" }))).status, 405);
    assert.deepEqual(
      deliverySpans(recorded).map((s) => [s.attributes["http.request.method"], s.attributes["http.request.method_original"]]),
      [
        ["_OTHER", "X-SENDER-CHOSEN"],
        ["DELETE", undefined],
      ],
    );
  });

  test.it("refusals: refused with the reason as error.type; a delivery inside the app's own span is its child", async () => {
    const recorded = recording();
    const told = [];
    const handler = recorded.instrument(createWebhookHandler({ subdomain: "acme", on: {}, onError: (e) => told.push(e.reason) }));
    const post = (body) => new Request(HOOK, { method: "POST", headers: { "content-type": "application/json" }, body });
    const other = JSON.stringify({ uuid: "d-2", operation: "UNIT_UPDATED", subdomain: "not-acme", language: "en", createdAt: "2026-11-27T10:00:00.000Z", data: { note: BODY_SECRET } });
    const invalid = `{ "uuid": "d-3", "note": "${BODY_SECRET}" `;
    const unknownType = JSON.stringify({ uuid: "d-4", operation: "SOMETHING_NEW", subdomain: "acme", language: "en", createdAt: "2026-11-27T10:00:00.000Z", data: {} });
    assert.equal((await handler(new Request(HOOK, { method: "GET" }))).status, 405);
    assert.equal((await handler(post(invalid))).status, 400);
    const route = await recorded.tracer.startActiveSpan("POST /api/hooks", async (span) => {
      try {
        return await handler(post(other));
      } finally {
        span.end();
      }
    });
    assert.equal(route.status, 403);
    assert.equal((await handler(post(unknownType))).status, 200);
    assert.deepEqual(told, ["method", "invalid_event", "subdomain"]);
    const spans = deliverySpans(recorded);
    assert.deepEqual(
      spans.map((s) => [s.attributes["estatekit.webhook.outcome"], s.attributes["error.type"], s.attributes["http.response.status_code"], s.attributes["estatekit.webhook.event_type"], s.status.code]),
      [
        ["refused", "method", 405, undefined, SpanStatusCode.UNSET],
        ["refused", "invalid_event", 400, undefined, SpanStatusCode.UNSET],
        ["refused", "subdomain", 403, "UNIT_UPDATED", SpanStatusCode.UNSET],
        ["new", undefined, 200, "_OTHER", SpanStatusCode.UNSET], // a type outside the 28: its name is not copied from the unsigned body
      ],
    );
    assert.equal(spans[0].attributes["http.request.method"], "GET");
    const parent = recorded.spans().find((s) => s.name === "POST /api/hooks");
    assert.equal(spans[2].parentSpanContext?.spanId, parent.spanContext().spanId);
    assert.equal(spans[0].parentSpanContext, undefined, "outside any span: a root span");
    assert.deepEqual(counted(await recorded.metrics(), "estatekit.webhook.deliveries"), [
      [{ "estatekit.webhook.outcome": "new", "estatekit.webhook.event_type": "_OTHER" }, 1],
      [{ "estatekit.webhook.outcome": "refused", "error.type": "invalid_event" }, 1],
      [{ "estatekit.webhook.outcome": "refused", "error.type": "method" }, 1],
      [{ "estatekit.webhook.outcome": "refused", "estatekit.webhook.event_type": "UNIT_UPDATED", "error.type": "subdomain" }, 1],
    ]);
    await assertNoSecrets(recorded, [BODY_SECRET, other, invalid, HOOK.split("/").at(-1)], ["refused", "subdomain"]);
  });

  test.it("the wrapper keeps the handler's properties; toNodeListener takes it", async () => {
    const recorded = recording();
    const handler = createWebhookHandler({ on: {}, onError: () => {} });
    handler.route = "/api/hooks";
    Object.defineProperty(handler, "hidden", { value: 7, enumerable: false });
    const wrapped = recorded.instrument(handler);
    assert.equal(typeof wrapped, "function");
    assert.equal(wrapped.name, handler.name);
    assert.equal(wrapped.length, handler.length);
    assert.equal(wrapped.route, "/api/hooks");
    assert.equal(wrapped.hidden, 7);
    assert.deepEqual(Object.keys(wrapped), Object.keys(handler));
    // toNodeListener over the wrapped handler.
    const listener = toNodeListener(wrapped);
    const answered = await new Promise((resolve) => {
      const res = {
        statusCode: 0,
        headersSent: false,
        setHeader() {},
        end: () => resolve(res.statusCode),
      };
      const req = Object.assign((async function* () {})(), { method: "GET", url: "/hooks", headers: { host: "127.0.0.1" } });
      listener(req, res);
    });
    assert.equal(answered, 405);
    assert.deepEqual(deliverySpans(recorded).map((s) => s.attributes["error.type"]), ["method"]);
  });

  test.it("the part: isHandler knows a handler; instrumenting again with the same telemetry adds nothing, with another nests", async () => {
    const recorded = recording();
    const handler = createWebhookHandler({ on: {}, onError: () => {} });
    assert.ok(isHandler(handler));
    assert.ok(!isHandler(async () => new Response()), "a plain function is not one");
    const wrapped = instrumentHandler(handler, recorded.telemetry);
    assert.ok(isHandler(wrapped));
    assert.equal(instrumentHandler(wrapped, recorded.telemetry), wrapped);
    // Another telemetry: a second span around the first.
    const other = recording();
    const twice = instrumentHandler(wrapped, other.telemetry);
    assert.notEqual(twice, wrapped);
    assert.equal((await twice(new Request(HOOK, { method: "GET" }))).status, 405);
    assert.equal(deliverySpans(recorded).length, 1);
    assert.equal(deliverySpans(other).length, 1);
    assert.equal(deliverySpans(recorded)[0].parentSpanContext?.spanId, deliverySpans(other)[0].spanContext().spanId, "the inner span is the outer's child");
  });
});
