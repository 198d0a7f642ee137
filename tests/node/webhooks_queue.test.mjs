// estatekit/webhooks' queued mode without Redis: `createWebhookHandler({ queue })` with an
// in-memory queue that keeps BullMQ's `add(name, data, { jobId })` contract (an id that exists
// adds nothing), deliveries sent by the in-process emulator; `webhookProcessor` run on the jobs
// as a BullMQ Worker runs its processor; the refusals and a queue that fails or never answers;
// and estatekit/otel on both sides, with OpenTelemetry's real SDK: the SERVER span ends when the
// job is added, the processing span (CONSUMER) is linked to it through the job's data, and the
// time a job waited is a histogram. The real BullMQ, Redis and processes:
// tests/consumers/queue.test.mjs.
import test from "node:test";
import assert from "node:assert/strict";
import { SpanKind, SpanStatusCode } from "@opentelemetry/api";
import { recording } from "./otel_recording.mjs";

const pkg = new URL("../../pkg/", import.meta.url).href;
const { createWebhookHandler, webhookProcessor } = await import(`${pkg}webhooks.node.js`);
const { createTestService } = await import(`${pkg}testing.node.js`);
const HOOK = "http://127.0.0.1/hooks/queue";

/** A queue keeping BullMQ's add contract in memory: jobs by id, data stored as JSON. */
function memoryQueue(name = "webhooks") {
  const jobs = new Map();
  return {
    jobs,
    adds: 0,
    async add(jobName, data, opts) {
      this.adds++;
      assert.equal(typeof opts?.jobId, "string");
      const found = jobs.get(opts.jobId);
      if (found) return found;
      const job = { id: opts.jobId, name: jobName, queueName: name, data: JSON.parse(JSON.stringify(data)), attemptsMade: 0, timestamp: Date.now() - 250 };
      jobs.set(opts.jobId, job);
      return job;
    },
  };
}

/** An emulator whose deliveries go to `handler`; its delivery records say what was answered. */
async function sender(t, handler) {
  const service = await createTestService({ deliveryBackoffMs: 1, deliver: (url, init) => handler(new Request(url, init)) });
  t.after(() => service.close());
  await service.seed({ webhooks: [{ type: "UNIT_CREATED", url: HOOK }, { type: "UNIT_DELETED", url: HOOK }] });
  return service;
}

const post = (body) => new Request(HOOK, { method: "POST", body: typeof body === "string" ? body : JSON.stringify(body), headers: { "content-type": "application/json" } });

test.describe("estatekit/webhooks: the queued mode", () => {
  test.it("a delivery is one job named by its type, id its uuid, answered 202; a redelivery adds nothing; the processor runs the typed handler", async (t) => {
    const queue = memoryQueue();
    const handler = createWebhookHandler({ queue });
    const service = await sender(t, handler);
    await service.emit("UNIT_CREATED", { data: { unitId: "unit-q1" } });
    await service.emit("UNIT_DELETED", { data: { unitId: "unit-q2" } });
    const records = await service.settled();
    assert.deepEqual(records.map((r) => r.status), [202, 202]);
    assert.equal(queue.jobs.size, 2);
    const [created, deleted] = [...queue.jobs.values()];
    assert.equal(created.name, "UNIT_CREATED");
    assert.equal(deleted.name, "UNIT_DELETED");
    assert.equal(created.id, created.data.event.uuid);
    assert.equal(created.data.event.data.unitId, "unit-q1");
    assert.equal(created.data.traceparent, undefined, "no trace context without estatekit/otel");
    // The same delivery again (the sender timed out and resends): the same job.
    const again = await handler(post(created.data.event));
    assert.equal(again.status, 202);
    assert.deepEqual(await again.json(), { received: true, queued: true });
    assert.equal(queue.jobs.size, 2);
    assert.equal(queue.adds, 3);

    const ran = [];
    const processor = webhookProcessor({
      on: {
        UNIT_CREATED: (event, { job, attempt }) => void ran.push(["created", event.data.unitId, job.id, attempt]),
        UNIT_DELETED: (event, { attempt }) => void ran.push(["deleted", event.data.unitId, attempt]),
      },
    });
    await processor(created);
    await processor({ ...deleted, attemptsMade: 2 });
    assert.deepEqual(ran, [["created", "unit-q1", created.id, 1], ["deleted", "unit-q2", 3]]);
  });

  test.it("an unknown type goes to onUnknown; a type without a handler completes; a handler that throws fails the job", async () => {
    const queue = memoryQueue();
    const handler = createWebhookHandler({ queue });
    const event = (operation, uuid) => ({ uuid, operation, subdomain: "acme", language: "en", createdAt: "2026-01-01T00:00:00Z", data: {} });
    for (const [op, id] of [["SOMETHING_NEW", "u-new"], ["UNIT_CREATED", "u-created"], ["UNIT_DELETED", "u-deleted"]]) {
      assert.equal((await handler(post(event(op, id)))).status, 202);
    }
    const unknown = [];
    const processor = webhookProcessor({
      on: {
        UNIT_DELETED: () => {
          throw new Error("the CRM is down");
        },
      },
      onUnknown: (e, { attempt }) => void unknown.push([e.operation, e.rawOperation, attempt]),
    });
    assert.equal(queue.jobs.get("u-new").name, "SOMETHING_NEW");
    await processor(queue.jobs.get("u-new"));
    assert.deepEqual(unknown, [[null, "SOMETHING_NEW", 1]]);
    await processor(queue.jobs.get("u-created"));
    await assert.rejects(processor(queue.jobs.get("u-deleted")), /the CRM is down/);
    await assert.rejects(processor({ id: "x", data: { nothing: true } }), /not a delivery added by createWebhookHandler/);
  });

  test.it("refusals are answered as without a queue, and add no job", async () => {
    const queue = memoryQueue();
    const refused = [];
    const handler = createWebhookHandler({ queue, subdomain: "acme", maxBytes: 2000, onError: (e) => refused.push(e.name === "WebhookRefused" ? e.reason : e.name) });
    const ok = { uuid: "u-1", operation: "UNIT_CREATED", subdomain: "acme", language: "en", createdAt: "2026-01-01T00:00:00Z", data: {} };
    assert.equal((await handler(new Request(HOOK))).status, 405);
    assert.equal((await handler(post("{"))).status, 400);
    assert.equal((await handler(post({ ...ok, subdomain: "other" }))).status, 403);
    assert.equal((await handler(post({ ...ok, pad: "x".repeat(3000) }))).status, 413);
    assert.deepEqual(refused, ["method", "invalid_event", "subdomain", "too_large"]);
    assert.equal(queue.adds, 0);
    assert.equal((await handler(post(ok))).status, 202);
    assert.equal(queue.jobs.size, 1);
  });

  test.it("a queue that fails or does not answer within storeTimeoutMs: 503 with Retry-After, onError told, never 2xx", async () => {
    const told = [];
    const onError = (e) => told.push([e.name, e.message]);
    const ok = { uuid: "u-slow", operation: "UNIT_CREATED", subdomain: "acme", language: "en", createdAt: "2026-01-01T00:00:00Z", data: {} };
    const hung = createWebhookHandler({ queue: { add: () => new Promise(() => {}) }, storeTimeoutMs: 50, retryAfterMs: 3_000, onError });
    const slow = await hung(post(ok));
    assert.equal(slow.status, 503);
    assert.equal(slow.headers.get("retry-after"), "3");
    const failing = createWebhookHandler({
      queue: {
        add: async () => {
          throw new Error("Connection is closed.");
        },
      },
      onError,
    });
    const failed = await failing(post(ok));
    assert.equal(failed.status, 503);
    assert.equal(failed.headers.get("retry-after"), "5");
    const throwing = createWebhookHandler({
      queue: {
        add: () => {
          throw new Error("Custom Id cannot contain :");
        },
      },
      onError,
    });
    assert.equal((await throwing(post(ok))).status, 503);
    assert.deepEqual(told.map(([name]) => name), ["QueueUnavailable", "QueueUnavailable", "QueueUnavailable"]);
    assert.match(told[0][1], /within storeTimeoutMs, 50 ms.*answered 503/);
  });

  test.it("one mode at a time: `on` or `onUnknown` with `queue`, `dedupe` with `queue`, a queue without add: refused with a message", () => {
    const queue = memoryQueue();
    assert.throws(() => createWebhookHandler({ queue, on: {} }), /`on` and `queue` are two modes, one at a time/);
    assert.throws(() => createWebhookHandler({ queue, onUnknown: () => {} }), /`on` and `queue` are two modes/);
    assert.throws(() => createWebhookHandler({ queue, dedupe: true }), /`dedupe` is not used with `queue`/);
    assert.throws(() => createWebhookHandler({ queue: {} }), /`queue` must have BullMQ's `add\(name, data, opts\)`/);
    assert.throws(() => createWebhookHandler({ queue: null }), /`queue` must have/);
    assert.throws(() => webhookProcessor({}), /webhookProcessor: `on` must be an object/);
    assert.throws(() => webhookProcessor({ on: {}, onUnknown: 1 }), /`onUnknown` must be a function/);
  });
});

test.describe("estatekit/otel: the queued mode", () => {
  test.it("the SERVER span ends when the job is added; the job's processing span is linked to it, with type, uuid, attempt, outcome; the wait is a histogram", async (t) => {
    const recorded = recording();
    const queue = memoryQueue("estatekit-webhooks");
    const handler = recorded.instrument(createWebhookHandler({ queue }));
    const service = await sender(t, handler);
    await service.emit("UNIT_CREATED", { data: { unitId: "unit-t1" } });
    await service.emit("UNIT_DELETED", { data: { unitId: "unit-t2" } });
    assert.deepEqual((await service.settled()).map((r) => r.status), [202, 202]);
    const server = recorded.spans().filter((s) => s.name === "estatekit webhook receive");
    assert.equal(server.length, 2);
    const [created, deleted] = [...queue.jobs.values()];
    assert.equal(server[0].kind, SpanKind.SERVER);
    assert.equal(server[0].attributes["estatekit.webhook.outcome"], "queued");
    assert.equal(server[0].attributes["http.response.status_code"], 202);
    assert.equal(server[0].attributes["estatekit.webhook.delivery_id"], created.id);
    const { traceId, spanId } = server[0].spanContext();
    assert.equal(created.data.traceparent, `00-${traceId}-${spanId}-01`);

    const inside = [];
    const processor = recorded.instrument(
      webhookProcessor({
        on: {
          UNIT_CREATED: () => void recorded.tracer.startActiveSpan("crm sync", (span) => (inside.push(span.spanContext().traceId), span.end())),
          UNIT_DELETED: () => {
            throw new RangeError("always");
          },
        },
      }),
    );
    assert.equal(recorded.instrument(processor), processor, "instrumenting again changes nothing");
    await processor({ ...created, processedOn: created.timestamp + 250 });
    await assert.rejects(processor({ ...deleted, attemptsMade: 1 }), /always/);
    const processing = recorded.spans().filter((s) => s.name === "process estatekit-webhooks");
    assert.equal(processing.length, 2);
    const [ok, failed] = processing;
    assert.equal(ok.kind, SpanKind.CONSUMER);
    assert.equal(ok.parentSpanContext?.spanId, undefined, "a root span of its own trace");
    assert.notEqual(ok.spanContext().traceId, traceId);
    assert.deepEqual(ok.links.map((l) => [l.context.traceId, l.context.spanId]), [[traceId, spanId]]);
    assert.deepEqual(
      {
        type: ok.attributes["estatekit.webhook.event_type"],
        id: ok.attributes["estatekit.webhook.delivery_id"],
        attempt: ok.attributes["estatekit.webhook.attempt"],
        outcome: ok.attributes["estatekit.webhook.outcome"],
        op: ok.attributes["messaging.operation.type"],
        queue: ok.attributes["messaging.destination.name"],
        message: ok.attributes["messaging.message.id"],
      },
      { type: "UNIT_CREATED", id: created.id, attempt: 1, outcome: "handled", op: "process", queue: "estatekit-webhooks", message: created.id },
    );
    assert.notEqual(ok.status.code, SpanStatusCode.ERROR);
    assert.deepEqual(inside, [ok.spanContext().traceId], "the handler's spans are the processing span's children");
    assert.equal(failed.attributes["estatekit.webhook.outcome"], "failed");
    assert.equal(failed.attributes["estatekit.webhook.attempt"], 2);
    assert.equal(failed.attributes["error.type"], "RangeError");
    assert.equal(failed.status.code, SpanStatusCode.ERROR);
    assert.deepEqual(failed.links.map((l) => l.context.spanId), [server[1].spanContext().spanId]);

    const wait = (await recorded.metrics()).find((m) => m.name === "estatekit.webhook.queue.wait");
    assert.ok(wait, "the histogram is recorded");
    assert.equal(wait.unit, "s");
    const [point] = wait.points;
    assert.equal(point.value.count, 2);
    assert.ok(point.value.min >= 0.25 - 1e-9, `the first job waited 250 ms (created to processedOn): ${point.value.min}`);
  });
});
