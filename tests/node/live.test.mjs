// estatekit/live in one process, without Redis: the in-memory event log (append once per uuid,
// bounds, a reset when a position is no longer held, positions of another run refused), the
// stream route (401/403 before any stream, another account refused, id-only frames for types the
// user may not see, resume after Last-Event-ID or ?lastEventId= with no gap and no duplicate, the
// reset event, a slow reader cut off, close() and the session's end), the receiver writing the
// log (inline and queued modes, the secret, a log that fails or never answers: 503), and
// toNodeListener streaming an answer and ending it when the client goes. The real Redis and real
// processes: tests/consumers/live.test.mjs.
import test from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { once } from "node:events";
import { sseReader } from "./sse.mjs";

const pkg = new URL("../../pkg/", import.meta.url).href;
const { createMemoryEventLog, createEventStream, toNodeListener, RESET_EVENT } = await import(`${pkg}live.js`);
const { createWebhookHandler } = await import(`${pkg}webhooks.node.js`);
const { createTestService } = await import(`${pkg}testing.node.js`);
const testing = await import(`${pkg}testing.node.js`);

const SECRET = "s3cret-s3cret-s3cret";
const ACCOUNT = "acme";

/** A route of `log` for staff of `acme` (header `user: staff`), `user: other` of account beta. */
function routeOf(log, more = {}) {
  return createEventStream({
    log,
    accounts: [ACCOUNT],
    authorize: (request) => {
      const user = request.headers.get("user");
      if (user === "staff") return { account: ACCOUNT };
      if (user === "viewer") return { account: ACCOUNT, types: ["UNIT_CREATED"] };
      if (user === "other") return { account: "beta" };
      if (user === "banned") return false;
      return null;
    },
    ...more,
  });
}

const get = (query = "", headers = { user: "staff" }) => new Request(`http://127.0.0.1/live${query}`, { headers });
const append = (log, n, type = "UNIT_CREATED", account = ACCOUNT) => log.append(account, { uuid: `u${n}`, type, data: JSON.stringify({ n }) });

test.describe("estatekit/live: the in-memory log", () => {
  test.it("appends once per uuid; reads after a position; a trimmed position and one of another run give a reset", async () => {
    const log = createMemoryEventLog({ maxLength: 3 });
    const start = (await log.read(ACCOUNT, null)).position;
    const first = await append(log, 1);
    assert.equal(await append(log, 1), null, "a redelivery appends nothing");
    await append(log, 2);
    await append(log, 3);
    const read = await log.read(ACCOUNT, start);
    assert.deepEqual(read.entries.map((e) => e.data), ['{"n":1}', '{"n":2}', '{"n":3}']);
    assert.deepEqual((await log.read(ACCOUNT, first)).entries.map((e) => e.data), ['{"n":2}', '{"n":3}']);
    await append(log, 4);
    assert.equal((await log.read(ACCOUNT, first)).entries.length, 3, "the entry at the position itself may go: the next is held");
    await append(log, 5);
    const trimmed = await log.read(ACCOUNT, first);
    assert.equal(trimmed.entries.length, 0);
    assert.equal(trimmed.reset, (await log.read(ACCOUNT, null)).position, "reset to the end: the page reloads");
    const restarted = createMemoryEventLog();
    assert.ok((await restarted.read(ACCOUNT, first)).reset !== undefined, "a position of another run (a restart) is not taken for one of this run");
    assert.ok((await restarted.read("beta", start)).reset !== undefined);
  });

  test.it("bounded by age: entries older than maxAgeMs are dropped", async () => {
    let now = 1_000_000;
    const log = createMemoryEventLog({ maxAgeMs: 1000, now: () => now });
    const start = (await log.read(ACCOUNT, null)).position;
    await append(log, 1);
    now += 500;
    await append(log, 2);
    now += 600;
    const read = await log.read(ACCOUNT, start);
    assert.ok(read.reset !== undefined, "the first entry aged out: the position before it is no longer held");
    assert.equal((await log.read(ACCOUNT, read.reset)).entries.length, 0);
  });

  test.it("refuses a bound that is not a positive whole number", () => {
    assert.throws(() => createMemoryEventLog({ maxLength: 0 }), { name: "ApiError", kind: "invalid_input", message: "createMemoryEventLog: `maxLength` must be a positive whole number" });
  });
});

test.describe("estatekit/live: the stream route", () => {
  test.it("401 signed out, 403 refused or another account, before any stream opens", async () => {
    const route = routeOf(createMemoryEventLog());
    for (const [headers, status] of [[{}, 401], [{ user: "banned" }, 403], [{ user: "other" }, 403]]) {
      const answer = await route(get("", headers));
      assert.equal(answer.status, status);
      assert.equal(answer.headers.get("content-type"), "application/json");
    }
    assert.equal(route.open, 0);
    assert.equal((await route(new Request("http://127.0.0.1/live", { method: "POST", headers: { user: "staff" } }))).status, 405);
  });

  test.it("opened with no position: its position first, then new events as sent; types the user may not see move the position only", async () => {
    const log = createMemoryEventLog();
    await append(log, 0);
    const route = routeOf(log);
    const staff = sseReader(await route(get()));
    const viewer = sseReader(await route(get("", { user: "viewer" })));
    const [opened] = await staff.ids(1);
    assert.equal(opened.event, "estatekit.position");
    assert.equal((await viewer.ids(1))[0].event, "estatekit.position");
    await append(log, 1, "UNIT_CREATED");
    await append(log, 2, "UNIT_DELETED");
    await log.append(ACCOUNT, { uuid: "u3", type: "UNIT_CREATED", data: '{\n  "n": 3\n}' });
    const seen = await staff.ids(3);
    assert.deepEqual(seen.map((f) => [f.event, f.data]), [["UNIT_CREATED", '{"n":1}'], ["UNIT_DELETED", '{"n":2}'], ["UNIT_CREATED", '{\n  "n": 3\n}']]);
    const hidden = await viewer.ids(3);
    assert.deepEqual(hidden.map((f) => f.event), ["UNIT_CREATED", undefined, "UNIT_CREATED"]);
    assert.deepEqual(hidden.map((f) => f.id), seen.map((f) => f.id), "the same positions, the hidden one as an id-only frame");
    assert.equal(hidden[1].data, undefined);
    route.close();
    assert.equal(await staff.next(), undefined, "close() ends the streams");
    assert.equal(route.open, 0);
  });

  test.it("resumes exactly after Last-Event-ID or ?lastEventId=: no gap, no duplicate, while events keep coming", async () => {
    const log = createMemoryEventLog();
    const route = routeOf(log);
    const ids = [];
    for (let n = 0; n < 50; n++) ids.push(await append(log, n));
    const byHeader = sseReader(await route(get("", { user: "staff", "last-event-id": ids[19] })));
    const byQuery = sseReader(await route(get(`?lastEventId=${encodeURIComponent(ids[39])}`)));
    // More come while the first catch-up runs.
    const more = (async () => {
      for (let n = 50; n < 80; n++) ids.push(await append(log, n));
    })();
    await more;
    const a = await byHeader.ids(60);
    assert.deepEqual(a.map((f) => JSON.parse(f.data).n), Array.from({ length: 60 }, (_, i) => i + 20));
    const b = await byQuery.ids(40);
    assert.deepEqual(b.map((f) => JSON.parse(f.data).n), Array.from({ length: 40 }, (_, i) => i + 40));
    route.close();
  });

  test.it("a position the log no longer holds gets the reset event, with the position to go on from", async () => {
    const log = createMemoryEventLog({ maxLength: 5 });
    const route = routeOf(log);
    const first = await append(log, 0);
    for (let n = 1; n < 10; n++) await append(log, n);
    const stream = sseReader(await route(get("", { user: "staff", "last-event-id": first })));
    const [reset] = await stream.ids(1);
    assert.equal(reset.event, RESET_EVENT);
    assert.equal(JSON.parse(reset.data).position, reset.id);
    await append(log, 10);
    const [next] = await stream.ids(1);
    assert.equal(JSON.parse(next.data).n, 10, "then the stream goes on from there");
    route.close();
  });

  test.it("a reader that does not keep up is cut off, never buffered without bound", async () => {
    const log = createMemoryEventLog();
    const route = routeOf(log, { maxBufferedBytes: 4096 });
    const answer = await route(get());
    for (let n = 0; n < 200; n++) await log.append(ACCOUNT, { uuid: `big${n}`, type: "UNIT_CREATED", data: JSON.stringify({ n, pad: "x".repeat(100) }) });
    assert.equal(route.open, 0, "cut off once more than maxBufferedBytes waited");
    const stream = sseReader(answer);
    while (await stream.next());
    assert.ok(stream.state.failed, "the stream fails (the connection is cut): the page reconnects and resumes");
  });

  test.it("the stream ends when the session does (expiresAt)", async (t) => {
    t.mock.timers.enable({ apis: ["setTimeout", "setInterval", "Date"], now: 1_000_000 });
    const log = createMemoryEventLog();
    const route = createEventStream({ log, authorize: () => ({ account: ACCOUNT, expiresAt: Date.now() + 60_000 }) });
    const stream = sseReader(await route(get()));
    await stream.ids(1);
    t.mock.timers.tick(60_000);
    assert.equal(route.open, 0);
    while (await stream.next());
    assert.equal((await createEventStream({ log, authorize: () => ({ account: ACCOUNT, expiresAt: Date.now() - 1 }) })(get())).status, 401);
  });

  test.it("toNodeListener streams the answer as it comes and ends the stream when the client goes", async (t) => {
    const log = createMemoryEventLog();
    const route = routeOf(log);
    const server = createServer(toNodeListener(route));
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    t.after(() => {
      server.closeAllConnections();
      server.close();
    });
    const controller = new AbortController();
    const answer = await fetch(`http://127.0.0.1:${server.address().port}/live`, { headers: { user: "staff" }, signal: controller.signal });
    assert.equal(answer.status, 200);
    assert.match(answer.headers.get("content-type"), /^text\/event-stream/);
    const stream = sseReader(answer);
    await stream.ids(1);
    await append(log, 1);
    assert.equal(JSON.parse((await stream.ids(1))[0].data).n, 1, "written before the answer ends");
    assert.equal(route.open, 1);
    controller.abort();
    await stream.cancel();
    while (route.open) await new Promise((r) => setTimeout(r, 10));
    assert.equal(route.open, 0, "the client gone ends the stream");
  });
});

/** The bodies each emulator sent, by uuid. */
const sent = new WeakMap();

/** An emulator (estatekit/testing) whose deliveries go to `handler`, with webhooks at `url`. */
async function sender(t, handler, url) {
  const bodies = new Map();
  const deliver = (to, init) => {
    bodies.set(JSON.parse(init.body).uuid, init.body);
    return handler(new Request(to, init));
  };
  const service = await createTestService({ deliveryBackoffMs: 1, deliver });
  sent.set(service, bodies);
  t.after(() => service.close());
  await service.seed({ webhooks: [{ type: "UNIT_CREATED", url }, { type: "LISTING_CREATED", url }] });
  return service;
}

test.describe("estatekit/webhooks writes the log", () => {
  for (const mode of ["inline", "queued"]) {
    test.it(`${mode}: each accepted event appended once, its text as sent; a redelivery appends nothing; no secret, no entry`, async (t) => {
      const log = createMemoryEventLog();
      const jobs = new Map();
      const queue = { add: async (name, data, { jobId }) => void jobs.set(jobId, data) };
      const errors = [];
      let handler;
      const service = await sender(t, (request) => handler(request), `http://127.0.0.1/hooks?secret=${SECRET}`);
      const options = { log, secret: SECRET, subdomain: service.subdomain, onError: (e) => errors.push(e) };
      handler = createWebhookHandler(mode === "queued" ? { ...options, queue } : { ...options, on: {} });
      const start = (await log.read(service.subdomain, null)).position;
      const a = await service.emit("UNIT_CREATED", { copies: 2 });
      await service.emit("LISTING_CREATED");
      const records = await service.settled();
      assert.ok(records.every((r) => r.status === (mode === "queued" ? 202 : 200)), JSON.stringify(records.map((r) => r.status)));
      const { entries } = await log.read(service.subdomain, start);
      assert.deepEqual(entries.map((e) => e.type), ["UNIT_CREATED", "LISTING_CREATED"]);
      assert.equal(JSON.parse(entries[0].data).uuid, a.uuid);
      assert.equal(entries[0].data, sent.get(service).get(a.uuid), "the text as the service sent it");
      if (mode === "queued") assert.equal(jobs.size, 2);
      // A delivery without the secret (or with a wrong one): 401, unread, nothing appended.
      const body = entries[0].data.replace(a.uuid, "forged-uuid");
      for (const url of ["http://127.0.0.1/hooks", `http://127.0.0.1/hooks?secret=${SECRET}x`, "http://127.0.0.1/hooks?secret="]) {
        const forged = await handler(new Request(url, { method: "POST", body, headers: { "content-type": "application/json" } }));
        assert.equal(forged.status, 401);
      }
      assert.equal((await log.read(service.subdomain, start)).entries.length, 2);
      assert.deepEqual(errors.map((e) => [e.name, e.reason, e.status]), Array(3).fill(["WebhookRefused", "secret", 401]));
      assert.ok(errors.every((e) => !e.message.includes(SECRET)), "the secret is never in a message");
    });
  }

  test.it("a log that fails or never answers: 503 with Retry-After, and the sender's retry appends it once", async (t) => {
    const log = createMemoryEventLog();
    let failing = 2;
    const flaky = { ...log, append: (account, event) => (failing-- > 0 ? Promise.reject(new Error("down")) : log.append(account, event)) };
    const errors = [];
    let handler;
    const service = await sender(t, (request) => handler(request), `http://127.0.0.1/hooks?secret=${SECRET}`);
    handler = createWebhookHandler({ on: {}, log: flaky, secret: SECRET, subdomain: service.subdomain, onError: (e) => errors.push(e) });
    const start = (await log.read(service.subdomain, null)).position;
    await service.emit("UNIT_CREATED");
    const records = await service.settled();
    assert.deepEqual(records.map((r) => r.status), [503, 503, 200]);
    assert.equal((await log.read(service.subdomain, start)).entries.length, 1);
    assert.deepEqual(errors.map((e) => e.name), ["LogUnavailable", "LogUnavailable"]);

    const hanging = { ...log, append: () => new Promise(() => {}) };
    const slow = createWebhookHandler({ on: {}, log: hanging, secret: SECRET, subdomain: service.subdomain, storeTimeoutMs: 50, retryAfterMs: 2000, onError: () => {} });
    const body = JSON.stringify({ uuid: "late", operation: "UNIT_CREATED", subdomain: service.subdomain, language: "en", createdAt: "2026-11-25T10:07:28.052Z", data: {} });
    const answer = await slow(new Request(`http://127.0.0.1/hooks?secret=${SECRET}`, { method: "POST", body }));
    assert.equal(answer.status, 503);
    assert.equal(answer.headers.get("retry-after"), "2");
  });

  test.it("`log` needs `subdomain` and `secret`; a short secret is refused", () => {
    const log = createMemoryEventLog();
    assert.throws(() => createWebhookHandler({ on: {}, log, secret: SECRET }), /`log` needs `subdomain`/);
    assert.throws(() => createWebhookHandler({ on: {}, log, subdomain: ACCOUNT }), /`log` needs `secret`/);
    assert.throws(() => createWebhookHandler({ on: {}, secret: "short" }), /at least 16 characters/);
    assert.equal(typeof testing.createMemoryEventLog, "function", "estatekit/testing has the in-memory log");
  });
});

test.describe("estatekit/subscribe: a 401", () => {
  test.it("is the package's sign-in-required ApiError (kind unauthorized, status 401), not a plain Error; closed by onError, no reopening", async (t) => {
    const { ApiError, isApiError } = await import(`${pkg}estatekit.node.js`);
    const { isSignInRequired } = await import(`${pkg}token.js`);
    const { subscribe } = await import(`${pkg}subscribe.js`);
    // The stream route of a signed-out user.
    const server = createServer((req, res) => {
      res.writeHead(401, { "content-type": "application/json" });
      res.end('{"error":"sign_in_required"}');
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    t.after(() => server.close());
    // A stand-in for the browser's EventSource: it gives up at once (as on a 401).
    const sources = [];
    const saved = globalThis.EventSource;
    globalThis.EventSource = class {
      constructor(url) {
        this.url = String(url);
        this.readyState = 0;
        sources.push(this);
      }
      addEventListener() {}
      close() {
        this.readyState = 2;
      }
    };
    t.after(() => (globalThis.EventSource = saved));
    // The reopening is a timer of 0.5 s or more: none once the handler closed the subscription.
    const waits = [];
    const savedTimeout = globalThis.setTimeout;
    globalThis.setTimeout = (fn, ms, ...rest) => {
      if (typeof ms === "number" && ms >= 500) waits.push(ms);
      return savedTimeout(fn, ms, ...rest);
    };
    t.after(() => (globalThis.setTimeout = savedTimeout));
    const errors = [];
    const got = new Promise((resolve) => {
      const live = subscribe(`http://127.0.0.1:${server.address().port}/live`, {
        onError: (error) => {
          errors.push(error);
          live.close();
          resolve();
        },
      });
    });
    assert.equal(sources.length, 1);
    sources[0].readyState = 2;
    sources[0].onerror();
    await got;
    assert.deepEqual(waits, [], "closed in onError: the stream is not reopened");
    assert.equal(sources.length, 1);
    const [error] = errors;
    assert.ok(isApiError(error), "isApiError holds");
    assert.ok(error instanceof ApiError);
    assert.equal(Object.getPrototypeOf(error), ApiError.prototype, "the package's ApiError class, not an Error with fields assigned");
    assert.ok(isSignInRequired(error), "estatekit/token's isSignInRequired holds");
    assert.equal(error.signInRequired, true);
    assert.deepEqual(error.toJSON(), {
      name: "ApiError",
      message: "estatekit/subscribe: sign in again to follow these events (the stream was answered 401)",
      kind: "unauthorized",
      status: 401,
      attempts: 0,
      retryable: false,
    });
  });
});
