// ensureWebhook(input, { store }) in one Node process, against pkg/ (`make test-node`): clients
// on one createMemoryStore stand for processes sharing a store, and a fake service (`fetch`) answers
// the list and the registration after a short delay, so that their calls overlap. The same with
// 4 real processes and a real Redis: tests/consumers/ensure-webhook.test.mjs.
import test from "node:test";
import assert from "node:assert/strict";

const pkg = new URL("../../pkg/", import.meta.url).href;
const { createMemoryStore } = await import(`${pkg}store.js`);
const { Client, isApiError } = await import(`${pkg}estatekit.node.js`);

const BASE = "https://acme.example.com";
const TOKEN = "secret-token-7f3a";
const INPUT = { type: "UNIT_CREATED", url: "https://hooks.example.com/units" };
const KEY = "webhook:https://acme.example.com:UNIT_CREATED:https://hooks.example.com/units";
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A service of webhooks: the list and the registration, each answered after `delayMs`. */
function service(delayMs = 20) {
  const hooks = [];
  const requests = [];
  let next = 1;
  const fetch = async (request) => {
    requests.push(`${request.method} ${new URL(request.url).pathname}`);
    await sleep(delayMs);
    if (request.method === "GET") {
      return new Response(JSON.stringify(hooks), { status: 200, headers: { "content-type": "application/json" } });
    }
    const { type, url } = await request.json();
    const id = `hook-${next++}`;
    hooks.push({ id, type, url });
    return new Response(null, { status: 200, headers: { location: id } });
  };
  return { fetch, hooks, requests, registrations: () => requests.filter((r) => r.startsWith("POST")).length };
}

const client = (fetch, options = {}) => new Client({ baseUrl: BASE, token: TOKEN, fetch, ...options });

test.describe("ensureWebhook with a store", () => {
  test.it("four clients sharing a store register one webhook, and all get its id", async () => {
    const svc = service();
    const store = createMemoryStore();
    for (let round = 0; round < 5; round++) {
      const input = { type: "UNIT_CREATED", url: `https://hooks.example.com/units/${round}` };
      const ids = await Promise.all([0, 1, 2, 3].map(() => client(svc.fetch).ensureWebhook(input, { store })));
      assert.equal(svc.hooks.filter((h) => h.url === input.url).length, 1, `round ${round}: one registered`);
      assert.equal(new Set(ids).size, 1, `round ${round}: one id for all`);
      assert.equal(await store.get(`webhook:https://acme.example.com:UNIT_CREATED:${input.url}`), null, "released");
    }
    assert.equal(svc.registrations(), 5);
  });

  test.it("without a store, clients calling at once may all register (what the store prevents)", async () => {
    const svc = service();
    await Promise.all([0, 1, 2, 3].map(() => client(svc.fetch).ensureWebhook(INPUT)));
    assert.equal(svc.registrations(), 4, "each listed before any registered");
  });

  test.it("claims a key of the origin, the type and the url (never the token), for longer than the call's timeout, and releases it", async () => {
    const svc = service(0);
    const calls = [];
    const inner = createMemoryStore();
    const store = {
      claim: async (key, ttlMs) => (calls.push(["claim", key, ttlMs]), inner.claim(key, ttlMs)),
      release: async (key, owner) => (calls.push(["release", key, typeof owner]), inner.release(key, owner)),
    };
    await client(svc.fetch).ensureWebhook(INPUT, { store, timeoutMs: 10_000 });
    assert.deepEqual(calls.map(([m, k]) => [m, k]), [["claim", KEY], ["release", KEY]]);
    const ttl = calls[0][2];
    assert.ok(ttl > 10_000 && ttl <= 15_000, `ttl ${ttl}`);
    assert.equal(calls[1][2], "string");
    assert.ok(!JSON.stringify(calls).includes(TOKEN));
    // No timeout of the call's own: its holder works at most 60 s, the claim lasts 65 s.
    calls.length = 0;
    await client(svc.fetch, { timeoutMs: 0 }).ensureWebhook(INPUT, { store });
    assert.equal(calls[0][2], 65_000);
    assert.deepEqual(svc.requests, ["GET /api/external-integrations/webhooks", "POST /api/external-integrations/webhooks", "GET /api/external-integrations/webhooks"]);
  });

  test.it("a store that rejects, throws, answers nonsense or never answers: rejects, registers nothing, says so", async () => {
    const cases = [
      [() => Promise.reject(new Error("ECONNREFUSED 127.0.0.1:6379")), "error", /store\.claim failed: ECONNREFUSED/],
      [() => {
        throw new Error("broken");
      }, "error", /store\.claim failed: broken/], // (checkedStore makes the throw a rejection)
      [async () => true, "error", /store\.claim resolved true/],
      [() => new Promise(() => {}), "timeout", /store\.claim did not answer within 2000 ms/],
    ];
    for (const [claim, reason, message] of cases) {
      const svc = service(0);
      const events = [];
      const store = { claim, release: async () => {} };
      const error = await client(svc.fetch)
        .ensureWebhook(INPUT, { store, onEvent: (e) => events.push(e) })
        .catch((e) => e);
      assert.ok(isApiError(error), String(error));
      assert.equal(error.kind, "network");
      assert.equal(error.retryable, true);
      assert.match(error.message, message);
      assert.match(error.message, /ensureWebhook registered nothing/);
      assert.equal(error.attempts, 0);
      assert.deepEqual(svc.requests, [], "nothing sent: no list, no registration");
      const told = events.filter((e) => e.type === "store");
      assert.deepEqual(told.map((e) => [e.purpose, e.reason, e.operation]), [["webhook", reason, "ensureWebhook"]]);
      assert.ok(!JSON.stringify(events).includes(TOKEN) && !error.message.includes(TOKEN));
    }
  });

  test.it("a claim that the store takes after the call stopped waiting is released", async () => {
    const svc = service(0);
    const released = [];
    const store = {
      claim: () => new Promise((resolve) => setTimeout(() => resolve("late-owner"), 2_300)),
      release: async (key, owner) => void released.push([key, owner]),
    };
    const error = await client(svc.fetch).ensureWebhook(INPUT, { store }).catch((e) => e);
    assert.equal(error.kind, "network");
    for (let i = 0; i < 100 && released.length === 0; i++) await sleep(50); // bounded: 5 s
    assert.deepEqual(released, [[KEY, "late-owner"]]);
    assert.deepEqual(svc.requests, []);
  });

  test.it("a store that fails at the release: the id all the same, the failure told", async () => {
    const svc = service(0);
    const events = [];
    const store = { claim: async () => "owner-1", release: async () => Promise.reject(new Error("gone")) };
    const id = await client(svc.fetch).ensureWebhook(INPUT, { store, onEvent: (e) => events.push(e) });
    assert.equal(id, "hook-1");
    assert.deepEqual(events.filter((e) => e.type === "store").map((e) => [e.purpose, e.reason]), [["webhook", "error"]]);
  });

  test.it("a claim held by another: waits, within the call's timeout and signal, and never registers", async () => {
    const svc = service(0);
    let asked = 0;
    const store = { claim: async () => (asked++, null), release: async () => {} };
    const timedOut = await client(svc.fetch).ensureWebhook(INPUT, { store, timeoutMs: 300 }).catch((e) => e);
    assert.ok(isApiError(timedOut));
    assert.equal(timedOut.kind, "timeout");
    assert.ok(asked >= 2, `asked ${asked} times`);
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("shutting down")), 100);
    const aborted = await client(svc.fetch).ensureWebhook(INPUT, { store, signal: controller.signal, timeoutMs: 0 }).catch((e) => e);
    assert.equal(aborted.kind, "aborted");
    assert.equal(aborted.cause?.message, "shutting down");
    assert.deepEqual(svc.requests, []);
  });

  test.it("takes the claim once its holder releases it, then finds the holder's webhook", async () => {
    const svc = service(0);
    const store = createMemoryStore();
    const owner = await store.claim(KEY, 60_000);
    const waiting = client(svc.fetch).ensureWebhook(INPUT, { store });
    await sleep(100);
    assert.deepEqual(svc.requests, [], "waits while the claim is held");
    svc.hooks.push({ id: "theirs", ...INPUT });
    await store.release(KEY, owner);
    assert.equal(await waiting, "theirs");
    assert.equal(svc.registrations(), 0);
  });

  test.it("refuses a store without claim and release, and still refuses unknown options", async () => {
    const svc = service(0);
    for (const [options, field] of [[{ store: { claim: async () => null } }, /options\.store/], [{ stor: createMemoryStore() }, /options\.stor\b/]]) {
      const error = await client(svc.fetch).ensureWebhook(INPUT, options).catch((e) => e);
      assert.ok(isApiError(error), String(error));
      assert.equal(error.kind, "invalid_input");
      assert.match(error.message, field);
    }
    assert.equal(await client(svc.fetch).ensureWebhook(INPUT, { store: undefined }), "hook-1");
  });
});
