// estatekit/store in one Node process, against pkg/ (`make test-node`): createMemoryStore's semantics;
// the webhook receiver with a shared store (two receivers on one store stand for two instances),
// including a store that fails or hangs; the client's rate budget through a store, including a
// store that fails or hangs. The same with a real Redis and real processes: tests/consumers/redis.test.mjs.
import test from "node:test";
import assert from "node:assert/strict";
import { onMockedClock as onMockedClockOf } from "./mocked_clock.mjs";

const pkg = new URL("../../pkg/", import.meta.url).href;
const { createMemoryStore, createRedisStore, isStore } = await import(`${pkg}store.js`);
const { createWebhookHandler } = await import(`${pkg}webhooks.node.js`);
const { Client, isApiError } = await import(`${pkg}estatekit.node.js`);

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Waits (bounded: `limitMs`) until `done()` holds, else fails saying what it waited for. */
async function waitFor(done, what, limitMs = 30_000) {
  const until = Date.now() + limitMs;
  while (!done()) {
    if (Date.now() > until) assert.fail(`gave up after ${limitMs} ms waiting for ${what}`);
    await sleep(50);
  }
}

/** `onMockedClock` (./mocked_clock.mjs) with this file's steps and limit. */
const onMockedClock = (t, promise, what, options) =>
  onMockedClockOf(t, promise, what, { stepMs: 10, limitMs: 60_000, ...options });
const BASE = "https://acme.example.com";
const TOKEN = "secret-token-7f3a";

test.describe("createMemoryStore", () => {
  test.it("claims, releases only for the owner, expires", async () => {
    let now = 1_000;
    const store = createMemoryStore({ now: () => now });
    assert.ok(isStore(store));
    const owner = await store.claim("k", 100);
    assert.equal(typeof owner, "string");
    assert.equal(await store.claim("k", 100), null, "held");
    await store.release("k", "someone else");
    assert.equal(await store.claim("k", 100), null, "still held: not the owner's release");
    await store.release("k", owner);
    const second = await store.claim("k", 100);
    assert.ok(second && second !== owner, "a new owner id");
    now += 100;
    assert.ok(await store.claim("k", 100), "expired claims can be taken");
    await store.set("v", "1", 50);
    assert.equal(await store.get("v"), "1");
    now += 50;
    assert.equal(await store.get("v"), null);
    await store.set("kept", "x");
    now += 1e9;
    assert.equal(await store.get("kept"), "x");
    await store.delete("kept");
    assert.equal(await store.get("kept"), null);
  });

  test.it("takes from a fixed window and says how long until it has room", async () => {
    let now = 0;
    const store = createMemoryStore({ now: () => now });
    assert.deepEqual([await store.take("r", 2, 1000), await store.take("r", 2, 1000), await store.take("r", 2, 1000)], [0, 0, 1000]);
    now = 400;
    assert.equal(await store.take("r", 2, 1000), 600);
    now = 1000;
    assert.equal(await store.take("r", 2, 1000), 0, "a new window");
    await assert.rejects(store.take("r", 0, 1000), { name: "ApiError", kind: "invalid_input" });
    await assert.rejects(store.claim("", 10), { name: "ApiError", kind: "invalid_input" });
  });

  test.it("createRedisStore refuses what is not a node-redis or ioredis client", () => {
    assert.throws(() => createRedisStore({}), /node-redis client .* or an ioredis client/);
    assert.equal(isStore({ get() {} }), false);
    assert.throws(() => createRedisStore({ call() {} }, { timeoutMs: 0 }), /timeoutMs/);
  });

  test.it("createRedisStore bounds every call (timeoutMs): a command node-redis keeps in its offline queue is taken out of it, not sent later", async (t) => {
    // node-redis while Redis is away: a command waits in its offline queue until the client has
    // reconnected (here: never), unless its signal takes it out.
    const queued = new Set();
    const sent = [];
    const nodeRedis = {
      sendCommand(args, options) {
        const signal = options?.abortSignal;
        return new Promise((_, reject) => {
          const entry = { args };
          queued.add(entry);
          signal?.addEventListener("abort", () => {
            queued.delete(entry);
            reject(new Error("The command was aborted"));
          });
        });
      },
      reconnect() {
        for (const entry of queued) sent.push(entry.args[0]);
      },
    };
    const store = createRedisStore(nodeRedis, { timeoutMs: 300 });
    const error = await store.get("k").catch((e) => e);
    assert.match(error.message, /Redis did not answer GET within 300 ms \(createRedisStore's timeoutMs\)/);
    assert.equal(queued.size, 0, "taken out of the offline queue");
    nodeRedis.reconnect();
    assert.deepEqual(sent, [], "nothing sent once Redis is back");
    // ioredis has no per-command signal: the call is bounded all the same (on a mocked clock).
    t.mock.timers.enable({ apis: ["setTimeout", "Date"], now: Date.now() });
    const io = createRedisStore({ call: () => new Promise(() => {}) }, { timeoutMs: 500 });
    const late = onMockedClock(t, io.claim("c", 1_000), "an ioredis claim that never answers", { stepMs: 50 });
    await assert.rejects(late, /Redis did not answer SET within 500 ms/);
    t.mock.timers.reset();
  });
});

/** A delivery of `uuid` as the service sends it. */
const delivery = (uuid) =>
  new Request("http://127.0.0.1/hooks", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ uuid, operation: "UNIT_UPDATED", subdomain: "acme", language: "en", createdAt: "2026-11-25T10:07:28.052Z", data: { id: "u1" } }),
  });

test.describe("createWebhookHandler({ dedupe: store }): once per uuid across instances", () => {
  test.it("retryAfterSeconds (0.2.0) is refused, naming retryAfterMs", () => {
    assert.throws(() => createWebhookHandler({ on: {}, retryAfterSeconds: 5 }), {
      name: "ApiError",
      kind: "invalid_input",
      message: "createWebhookHandler: `retryAfterSeconds` is now `retryAfterMs`, in milliseconds",
    });
  });

  test.it("a copy while another instance handles it gets 503 + Retry-After; once done, 200 without a call", async () => {
    const store = createMemoryStore();
    const calls = [];
    let release;
    const gate = new Promise((r) => (release = r));
    const on = { UNIT_UPDATED: async (e) => (calls.push(e.uuid), await gate) };
    const a = createWebhookHandler({ dedupe: store, on });
    const b = createWebhookHandler({ dedupe: store, on, retryAfterMs: 2500 });
    const first = a(delivery("e1"));
    await sleep(20);
    const copy = await b(delivery("e1"));
    assert.equal(copy.status, 503);
    assert.equal(copy.headers.get("retry-after"), "3", "2500 ms, rounded up to whole seconds");
    release();
    assert.equal((await first).status, 200);
    const later = await b(delivery("e1"));
    assert.equal(later.status, 200);
    assert.deepEqual(await later.json(), { received: true, duplicate: true });
    assert.deepEqual(calls, ["e1"]);
    assert.equal(await store.get("webhook:e1:claim"), null, "the claim was released");
    assert.equal(await store.get("webhook:e1:done"), "1");
  });

  test.it("a handler that throws releases the claim (500): the retry, on any instance, runs it", async () => {
    const store = createMemoryStore();
    let fail = true;
    let runs = 0;
    const on = {
      UNIT_UPDATED: () => {
        runs++;
        if (fail) throw new Error("database down");
      },
    };
    const errors = [];
    const a = createWebhookHandler({ dedupe: store, on, onError: (e) => errors.push(e.message) });
    const b = createWebhookHandler({ dedupe: store, on });
    assert.equal((await a(delivery("e2"))).status, 500);
    fail = false;
    assert.equal((await b(delivery("e2"))).status, 200);
    assert.equal((await a(delivery("e2"))).status, 200);
    assert.equal(runs, 2);
    assert.deepEqual(errors, ["database down"]);
  });

  test.it("re-checks the done-mark after taking the claim", async () => {
    const inner = createMemoryStore();
    let runs = 0;
    // Another instance finishes between this one's first look and its claim.
    const store = {
      ...inner,
      async claim(key, ttl) {
        await inner.set("webhook:e3:done", "1");
        return inner.claim(key, ttl);
      },
    };
    const handler = createWebhookHandler({ dedupe: store, on: { UNIT_UPDATED: () => runs++ } });
    const res = await handler(delivery("e3"));
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { received: true, duplicate: true });
    assert.equal(runs, 0);
    assert.equal(await inner.get("webhook:e3:claim"), null, "released");
  });

  test.it("a store that rejects or hangs: 503 within storeTimeoutMs, onError told, the handler not run", async (t) => {
    let runs = 0;
    const on = { UNIT_UPDATED: () => runs++ };
    const errors = [];
    const onError = (e) => errors.push(e);
    const down = { ...createMemoryStore(), get: async () => Promise.reject(new Error("ECONNREFUSED 127.0.0.1:6379")) };
    const rejected = await createWebhookHandler({ dedupe: down, on, onError })(delivery("e4"));
    assert.equal(rejected.status, 503);
    assert.ok(rejected.headers.get("retry-after"));
    assert.match(errors[0].message, /ECONNREFUSED/);

    const hanging = { ...createMemoryStore(), get: () => new Promise(() => {}) };
    // On a mocked clock: answered once storeTimeoutMs (100 ms) passed, not before and not much
    // later (was: < 2000 wall-clock ms).
    t.mock.timers.enable({ apis: ["setTimeout", "Date"], now: Date.now() });
    const { value: slow, ms } = await onMockedClock(t, createWebhookHandler({ dedupe: hanging, on, onError, storeTimeoutMs: 100 })(delivery("e4")), "a delivery with a store that never answers");
    t.mock.timers.reset();
    assert.equal(slow.status, 503);
    assert.ok(ms >= 100 && ms <= 110, `${ms} mocked ms`);
    assert.equal(errors[1].name, "StoreTimeout");
    assert.match(errors[1].message, /did not answer within 100 ms/);
    assert.equal(runs, 0);
  });

  test.it("a claim that answers after its timeout is released, so the retry is not kept out", async () => {
    const inner = createMemoryStore();
    const late = { ...inner, claim: async (key, ttl) => (await sleep(150), inner.claim(key, ttl)) };
    const handler = createWebhookHandler({ dedupe: late, on: {}, onError: () => {}, storeTimeoutMs: 50 });
    assert.equal((await handler(delivery("e5"))).status, 503);
    await sleep(250);
    assert.equal(await inner.get("webhook:e5:claim"), null);
  });

  test.it("a done-mark that cannot be written: 200, the claim kept, the mark written again a second later", async () => {
    const inner = createMemoryStore();
    let failures = 1;
    const flaky = { ...inner, set: async (...args) => (failures-- > 0 ? Promise.reject(new Error("READONLY")) : inner.set(...args)) };
    let runs = 0;
    const errors = [];
    const handler = createWebhookHandler({ dedupe: flaky, on: { UNIT_UPDATED: () => runs++ }, onError: (e) => errors.push(e.name) });
    assert.equal((await handler(delivery("e6"))).status, 200);
    assert.equal(typeof (await inner.get("webhook:e6:claim")), "string", "kept while the mark is missing");
    assert.equal((await createWebhookHandler({ dedupe: flaky, on: { UNIT_UPDATED: () => runs++ } })(delivery("e6"))).status, 503);
    await sleep(1_300);
    assert.equal(await inner.get("webhook:e6:done"), "1");
    assert.equal(await inner.get("webhook:e6:claim"), null);
    assert.equal(runs, 1);
    assert.deepEqual(errors, ["Error"], "the failed write only: the mark came while the claim lasted");
  });

  test.it("a handler slower than claimTtlMs: onError gets DoneMarkLate, and a copy after the claim ended runs it again", async () => {
    const store = createMemoryStore();
    const errors = [];
    let runs = 0;
    const on = {
      UNIT_UPDATED: async () => {
        if (++runs === 1) await sleep(300);
      },
    };
    const a = createWebhookHandler({ dedupe: store, on, claimTtlMs: 100, onError: (e, event) => errors.push([e.name, event.uuid, e.message]) });
    const b = createWebhookHandler({ dedupe: store, on, claimTtlMs: 100 });
    const slow = a(delivery("e7"));
    await sleep(150); // the claim (100 ms) ended, no done-mark yet: the copy takes it
    assert.equal((await b(delivery("e7"))).status, 200);
    assert.equal((await slow).status, 200, "the handler completed");
    assert.equal(runs, 2, "at least once, beyond the limit");
    assert.equal(errors.length, 1);
    assert.deepEqual(errors[0].slice(0, 2), ["DoneMarkLate", "e7"]);
    assert.match(errors[0][2], /within claimTtlMs \(100 ms\) of the claim; a copy of this delivery may run the handler again/);
  });

  test.it("a done-mark the store refuses for as long as the claim lasts: DoneMarkLate once, then no more tries", async () => {
    const inner = createMemoryStore();
    let writes = 0;
    const down = { ...inner, set: async () => (writes++, Promise.reject(new Error("READONLY"))) };
    const errors = [];
    const handler = createWebhookHandler({ dedupe: down, on: { UNIT_UPDATED: () => {} }, claimTtlMs: 2_500, onError: (e) => errors.push(e.name) });
    assert.equal((await handler(delivery("e8"))).status, 200);
    await waitFor(() => errors.includes("DoneMarkLate"), "DoneMarkLate (the claim of 2.5 s to end)");
    const tries = writes;
    assert.ok(tries >= 1, `${tries} writes`);
    assert.deepEqual(errors, [...Array(tries).fill("Error"), "DoneMarkLate"]);
    await sleep(1_500);
    assert.equal(writes, tries, "no write after the claim ended");
  });

  test.it("refuses bad options", () => {
    assert.throws(() => createWebhookHandler({ on: {}, dedupe: createMemoryStore(), claimTtlMs: 0 }), /claimTtlMs/);
    assert.throws(() => createWebhookHandler({ on: {}, storeTimeoutMs: 1.5 }), /storeTimeoutMs/);
  });
});

/** A stand-in service: answers every request 200 with an empty webhook list. */
const service = () => {
  const requests = [];
  const fetch = async (request) => {
    requests.push(request);
    return new Response("[]", { status: 200, headers: { "content-type": "application/json" } });
  };
  return { fetch, requests };
};

test.describe("rateLimit: { perMinute, store }", () => {
  test.it("each attempt takes from the shared budget under a key of the origin, never of the token", async () => {
    const { fetch } = service();
    const takes = [];
    const store = { take: async (...args) => (takes.push(args), 0) };
    const client = new Client({ baseUrl: BASE, token: TOKEN, fetch, rateLimit: { perMinute: 5, store } });
    await client.listWebhooks();
    await client.listWebhooks();
    assert.deepEqual(takes, [
      ["rate:https://acme.example.com", 5, 60_000],
      ["rate:https://acme.example.com", 5, 60_000],
    ]);
    const keyed = new Client({ baseUrl: BASE, token: TOKEN, fetch, rateLimit: { perMinute: 5, store, key: "acme-api" } });
    await keyed.listWebhooks();
    assert.equal(takes[2][0], "acme-api");
    assert.ok(takes.every(([key]) => !key.includes(TOKEN)));
  });

  test.it("waits what the store says, and a wait past the call's timeout is a timeout", async () => {
    const { fetch, requests } = service();
    let waits = [80];
    const store = { take: async () => waits.shift() ?? 0 };
    const client = new Client({ baseUrl: BASE, token: TOKEN, fetch, rateLimit: { perMinute: 5, store } });
    const started = Date.now();
    await client.listWebhooks();
    assert.ok(Date.now() - started >= 75, `waited ${Date.now() - started} ms`);
    assert.equal(requests.length, 1);
    waits = [60_000];
    const error = await client.listWebhooks({ timeoutMs: 200 }).catch((e) => e);
    assert.ok(isApiError(error));
    assert.equal(error.kind, "timeout");
  });

  test.it("an attempt takes one from the budget once, also when this process's window then delays it", async () => {
    // The service says its window is spent for 1 s: the local window holds the next attempt.
    const fetch = async () =>
      new Response("[]", { status: 200, headers: { "content-type": "application/json", "x-ratelimit-remaining": "0", "x-ratelimit-reset": "1" } });
    let takes = 0;
    const store = { take: async () => (takes++, 0) };
    const client = new Client({ baseUrl: BASE, token: TOKEN, fetch, rateLimit: { perMinute: 100, store } });
    await client.listWebhooks();
    const started = Date.now();
    await client.listWebhooks();
    assert.ok(Date.now() - started >= 900, "held by the service's window");
    assert.equal(takes, 2, "one take per attempt");
  });

  test.it("a store that rejects or hangs: the call goes on with this process's window, and says so", async (t) => {
    for (const [take, reason] of [
      [async () => Promise.reject(new Error("ECONNREFUSED")), "error"],
      [() => new Promise(() => {}), "timeout"],
      [async () => "soon", "error"],
    ]) {
      const { fetch, requests } = service();
      const events = [];
      let asked = 0;
      const store = { take: (...args) => (asked++, take(...args)) };
      const client = new Client({ baseUrl: BASE, token: TOKEN, fetch, rateLimit: { perMinute: 5, store }, onEvent: (e) => events.push(e) });
      // On a mocked clock: a store that never answers is given up after its bound, 1 s (was: <
      // 2500 wall-clock ms); one that rejects, at once.
      t.mock.timers.enable({ apis: ["setTimeout", "Date"], now: Date.now() });
      const { ms } = await onMockedClock(t, client.listWebhooks(), `listWebhooks with a store whose take ${reason === "timeout" ? "never answers" : "fails"}`, { stepMs: 50 });
      t.mock.timers.reset();
      if (reason === "timeout") assert.ok(ms >= 1_000 && ms <= 1_050, `bounded: ${ms} mocked ms`);
      else assert.equal(ms, 0, "no wait");
      assert.equal(requests.length, 1);
      const store_ = events.filter((e) => e.type === "store");
      assert.equal(store_.length, 1, reason);
      assert.equal(store_[0].purpose, "rate");
      assert.equal(store_[0].reason, reason);
      assert.equal(store_[0].operation, "listWebhooks");
      assert.equal(store_[0].callId, events[0].callId);
      assert.ok(!JSON.stringify(events).includes(TOKEN));
      // Left aside for a while after a failure: the next call does not ask it.
      await client.listWebhooks();
      assert.equal(asked, 1);
    }
  });

  test.it("refuses a store without take, and an empty key", async () => {
    for (const rateLimit of [{ perMinute: 5, store: {} }, { perMinute: 5, store: { take: async () => 0 }, key: "" }, { perMinute: 5, store: { take: async () => 0 }, key: 7 }]) {
      // Thrown by the constructor once the module is loaded, else by the first call.
      const error = await (async () => new Client({ baseUrl: BASE, token: TOKEN, rateLimit }).listWebhooks())().catch((e) => e);
      assert.ok(isApiError(error), String(error));
      assert.equal(error.kind, "invalid_input");
      assert.match(error.message, /rateLimit\.(store|key)/);
    }
  });
});
