// estatekit/webhooks, against pkg/ (`make test-node`): every delivery the receiver refuses
// (method, size, body, subdomain) is told to `onError` as a WebhookRefused with its reason and
// the status answered, never with the body; `onError`'s own throw changes nothing for the
// sender; without `onError`, the message is logged. And a `{ has, add }` dedupe store that never
// answers is bounded by `storeTimeoutMs`.
import test from "node:test";
import assert from "node:assert/strict";

const pkg = new URL("../../pkg/", import.meta.url).href;
const { createWebhookHandler, isInvalidEvent } = await import(`${pkg}webhooks.node.js`);

const URL_ = "http://127.0.0.1/hooks/6f1c2e9a7b4d";
const event = (subdomain = "emu-3f0af23c", uuid = "u-1") =>
  JSON.stringify({ uuid, operation: "UNIT_UPDATED", subdomain, language: "en", createdAt: "2026-11-27T10:00:00.000Z", data: { id: 7 } });
const post = (body, headers = {}) => new Request(URL_, { method: "POST", headers: { "content-type": "application/json", ...headers }, body });

/** A handler whose onError calls are recorded. */
function receiver(options = {}) {
  const told = [];
  const handled = [];
  const handler = createWebhookHandler({
    on: { UNIT_UPDATED: (e) => void handled.push(e.uuid) },
    onError: (error, ev) => told.push({ error, event: ev }),
    ...options,
  });
  return { handler, told, handled };
}

test.describe("refused deliveries are told to onError", () => {
  test.it("another subdomain: 403, reason subdomain, both subdomains named, the event given", async () => {
    const { handler, told, handled } = receiver({ subdomain: "acme" });
    const res = await handler(post(event("emu-3f0af23c")));
    assert.equal(res.status, 403);
    assert.equal(told.length, 1);
    const { error, event: ev } = told[0];
    console.log(`onError sees: ${error.name} (${error.reason}, ${error.status}): ${error.message}`);
    assert.ok(error instanceof Error);
    assert.equal(error.name, "WebhookRefused");
    assert.equal(error.reason, "subdomain");
    assert.equal(error.status, 403);
    assert.match(error.message, /refused \(HTTP 403\): the event is for subdomain "emu-3f0af23c" and this handler's `subdomain` is "acme"/);
    assert.equal(ev.uuid, "u-1");
    assert.deepEqual(handled, []);
  });

  test.it("a method other than POST: 405, reason method", async () => {
    const { handler, told } = receiver();
    const res = await handler(new Request(URL_, { method: "GET" }));
    assert.equal(res.status, 405);
    assert.deepEqual(told.map(({ error, event: ev }) => [error.name, error.reason, error.status, ev]), [["WebhookRefused", "method", 405, undefined]]);
    assert.match(told[0].error.message, /the method is "GET"; deliveries are POST/);
  });

  test.it("a body over maxBytes, declared or streamed: 413, reason too_large, the body never quoted", async () => {
    const { handler, told } = receiver({ maxBytes: 100 });
    const big = event("emu-3f0af23c", "x".repeat(200));
    assert.equal((await handler(post(big, { "content-length": String(big.length) }))).status, 413);
    const stream = new ReadableStream({
      start(c) {
        c.enqueue(new TextEncoder().encode(big));
        c.close();
      },
    });
    const streamed = new Request(URL_, { method: "POST", body: stream, duplex: "half" });
    assert.equal((await handler(streamed)).status, 413);
    assert.deepEqual(told.map(({ error }) => [error.reason, error.status]), [["too_large", 413], ["too_large", 413]]);
    assert.match(told[0].error.message, /Content-Length \(\d+ bytes\) is over maxBytes \(100\)/);
    assert.match(told[1].error.message, /over maxBytes \(100 bytes\)/);
    for (const { error } of told) assert.ok(!error.message.includes("xxxx"), error.message);
  });

  test.it("an invalid body: 400, reason invalid_event, the WebhookEventError as cause, the body never quoted", async () => {
    const { handler, told } = receiver();
    const secretish = "password=hunter2-do-not-log";
    for (const body of [`{ not json ${secretish}`, JSON.stringify({ uuid: "u", note: secretish }), new Uint8Array([0xff, 0xfe])]) {
      assert.equal((await handler(post(body))).status, 400);
    }
    assert.equal(told.length, 3);
    for (const { error, event: ev } of told) {
      assert.equal(error.name, "WebhookRefused");
      assert.equal(error.reason, "invalid_event");
      assert.equal(error.status, 400);
      assert.ok(isInvalidEvent(error.cause));
      assert.equal(ev, undefined);
      assert.ok(!error.message.includes(secretish), error.message);
      assert.match(error.message, /not a valid event \(invalid webhook event/);
    }
  });

  test.it("what onError throws changes nothing for the sender; a valid delivery tells it nothing", async () => {
    const handler = createWebhookHandler({
      subdomain: "acme",
      on: {},
      onError: () => {
        throw new Error("logger down");
      },
    });
    assert.equal((await handler(post(event("other")))).status, 403);
    const { handler: ok, told } = receiver({ subdomain: "acme" });
    assert.equal((await ok(post(event("acme")))).status, 200);
    assert.deepEqual(told, []);
  });

  test.it("without onError, the refusal's message is logged (console.error)", async (t) => {
    const logged = t.mock.method(console, "error", () => {});
    const handler = createWebhookHandler({ subdomain: "acme", on: {} });
    assert.equal((await handler(post(event("emu-3f0af23c")))).status, 403);
    assert.equal(logged.mock.callCount(), 1);
    assert.match(String(logged.mock.calls[0].arguments[0]), /^estatekit\/webhooks: a delivery was refused \(HTTP 403\)/);
  });
});

test.describe("a { has, add } dedupe store is bounded by storeTimeoutMs", () => {
  test.it("has never answers: 503 with Retry-After, a StoreTimeout told, the handler not run", async () => {
    const { handler, told, handled } = receiver({ dedupe: { has: () => new Promise(() => {}), add: () => {} }, storeTimeoutMs: 50 });
    const res = await handler(post(event()));
    assert.equal(res.status, 503);
    assert.ok(res.headers.get("retry-after"));
    assert.deepEqual(told.map(({ error }) => error.name), ["StoreTimeout"]);
    assert.deepEqual(handled, []);
  });

  test.it("add never answers: 200 (handled), a StoreTimeout told", async () => {
    const { handler, told, handled } = receiver({ dedupe: { has: () => false, add: () => new Promise(() => {}) }, storeTimeoutMs: 50 });
    const res = await handler(post(event()));
    assert.equal(res.status, 200);
    assert.deepEqual(handled, ["u-1"]);
    assert.deepEqual(told.map(({ error }) => error.name), ["StoreTimeout"]);
    assert.match(told[0].error.message, /handled \(answered 200\)/);
  });
});
