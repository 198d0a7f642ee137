// estatekit/subscribe in real browsers (Chromium, Firefox, WebKit: tests/consumers/browsers.mjs)
// against a stream route of estatekit/live served by a Node server of this test (pkg/ as built; an
// in-memory log written by the receiver, `createWebhookHandler({ log, secret })`, to which the
// test posts deliveries). Per engine, one page:
// - two `subscribe` calls share one stream (the route counts one GET);
// - each event is given once, in the log's order, its handler by type, none forged (posted
//   without the secret: 401);
// - the server ends its streams (close(), as on SIGTERM): EventSource reconnects with
//   Last-Event-ID, nothing missed or repeated;
// - the session ends (signed out) and the stream is cut: the page's `onError` gets the
//   sign-in-required error (the package's ApiError, kind unauthorized, status 401); signed in
//   again, the stream reopens from the last position with the events posted meanwhile, nothing
//   missed or repeated.
// The same pages on a real Redis, three servers behind one port, the emulator's events and a
// server killed: tests/consumers/live.test.mjs (its browser run).
import test from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { ENGINE_NAMES, enginesToRun, pkgDir } from "./lib.mjs";
import { openPage } from "./browsers.mjs";

const { createMemoryEventLog, createEventStream, toNodeListener } = await import(`${pkgDir}/live.js`);
const { createWebhookHandler } = await import(`${pkgDir}/webhooks.node.js`);
const SECRET = "pages-test-secret-0123456789";
const ACCOUNT = "acme";

const PAGE = `<!doctype html><meta charset="utf-8"><title>live</title><script type="module">
import { subscribe } from "/pkg/subscribe.js";
// The class every entry's errors are made of (what estatekit/subscribe imports too).
import { ApiError, isApiError } from "/pkg/api_error.js";
window.got = [];
window.errors = [];
window.resets = 0;
const seen = (event, info) => window.got.push({ uuid: event.uuid, type: event.operation, id: info.id });
subscribe("/live", { on: { UNIT_CREATED: seen, UNIT_DELETED: seen }, onReset: () => window.resets++, onError: (e) => window.errors.push({
  facts: [e.name, e.kind, e.status, e.signInRequired, e.retryable, isApiError(e)],
  // The package's ApiError (its class, its toJSON), not an Error with fields assigned.
  ownClass: Object.getPrototypeOf(e) === ApiError.prototype,
  json: typeof e.toJSON === "function" ? e.toJSON() : null,
}) });
// A second subscriber on the same URL: the same stream.
window.second = 0;
subscribe("/live", { on: { UNIT_CREATED: () => window.second++ } });
window.ready = true;
</script>`;

async function app() {
  const log = createMemoryEventLog();
  let signedIn = true;
  let streams = 0;
  const route = createEventStream({ log, accounts: [ACCOUNT], authorize: () => (signedIn ? { account: ACCOUNT } : null) });
  const live = toNodeListener(async (request) => {
    streams++;
    return route(request);
  });
  const hooks = toNodeListener(createWebhookHandler({ on: {}, log, secret: SECRET, subdomain: ACCOUNT, onError: () => {} }));
  const server = createServer((req, res) => {
    const path = new URL(req.url, "http://x").pathname;
    if (path === "/") {
      res.setHeader("content-type", "text/html");
      return res.end(PAGE);
    }
    // estatekit/subscribe and what it imports (the ApiError class: pkg/api_error.js, which is
    // pkg/snippets/js/api_error.js).
    if (["/pkg/subscribe.js", "/pkg/api_error.js", "/pkg/snippets/js/api_error.js"].includes(path)) {
      res.setHeader("content-type", "text/javascript");
      return res.end(readFileSync(`${pkgDir}/${path.slice("/pkg/".length)}`));
    }
    if (path === "/live") return live(req, res);
    if (path === "/hooks") return hooks(req, res);
    res.statusCode = 404;
    res.end();
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const url = `http://127.0.0.1:${server.address().port}`;
  let n = 0;
  return {
    url,
    route,
    streams: () => streams,
    signIn: (v) => (signedIn = v),
    /** Posts `count` deliveries (alternating types); returns their uuids. */
    async post(count, secret = SECRET) {
      const uuids = [];
      for (let i = 0; i < count; i++, n++) {
        const uuid = `ev-${n}`;
        const body = JSON.stringify({ uuid, operation: n % 2 ? "UNIT_DELETED" : "UNIT_CREATED", subdomain: ACCOUNT, language: "en", createdAt: new Date().toISOString(), data: { n } });
        const answer = await fetch(`${url}/hooks${secret ? `?secret=${secret}` : ""}`, { method: "POST", body });
        assert.equal(answer.status, secret === SECRET ? 200 : 401);
        if (secret === SECRET) uuids.push(uuid);
      }
      return uuids;
    },
    close() {
      route.close();
      server.closeAllConnections();
      server.close();
    },
  };
}

for (const engine of enginesToRun()) {
  test(`estatekit/subscribe in ${ENGINE_NAMES[engine]}: one stream, each event once across a server's close and a sign-out`, { timeout: 120_000 }, async (t) => {
    const server = await app();
    t.after(() => server.close());
    const page = await openPage(engine);
    t.after(() => page.close());
    await page.goto(`${server.url}/`);
    await page.waitFor(() => window.ready === true, 20_000);
    await page.waitFor(() => window.got !== undefined, 20_000);
    // Opened: the position event came (a second subscriber did not open a second stream).
    await new Promise((r) => setTimeout(r, 300));
    const expected = await server.post(20);
    await server.post(2, "");
    await server.post(1, `${SECRET}x`);
    await page.waitFor(() => window.got.length >= 20, 20_000);
    assert.equal(server.streams(), 1, "one stream for both subscribers");

    // The server ends the streams (SIGTERM): EventSource comes back by itself.
    server.route.close();
    expected.push(...(await server.post(10)));
    await page.waitFor(() => window.got.length >= 30, 30_000);

    // Signed out, the stream cut: 401, told as the sign-in-required error; signed in again, it
    // reopens (backoff) from its position, with what was posted meanwhile.
    server.signIn(false);
    server.route.close();
    expected.push(...(await server.post(5)));
    await page.waitFor(() => window.errors.length >= 1, 30_000);
    server.signIn(true);
    await page.waitFor(() => window.got.length >= 35, 60_000);
    expected.push(...(await server.post(5)));
    await page.waitFor(() => window.got.length >= 40, 30_000);
    await new Promise((r) => setTimeout(r, 300));

    const got = await page.evaluate(() => ({ got: window.got, errors: window.errors, resets: window.resets, second: window.second }));
    assert.deepEqual(got.got.map((e) => e.uuid), expected, "each event once, in the log's order: none lost, none repeated, none forged");
    assert.deepEqual(got.errors[0].facts, ["ApiError", "unauthorized", 401, true, false, true]);
    assert.equal(got.errors[0].ownClass, true, "the sign-in-required error is the package's ApiError");
    assert.deepEqual(got.errors[0].json, {
      name: "ApiError",
      message: "estatekit/subscribe: sign in again to follow these events (the stream was answered 401)",
      kind: "unauthorized",
      status: 401,
      attempts: 0,
      retryable: false,
    });
    assert.equal(got.resets, 0);
    assert.equal(got.second, expected.filter((uuid) => Number(uuid.slice(3)) % 2 === 0).length, "the second subscriber's handler too");
    console.log(`live pages (${engine}): ${got.got.length} events, lost 0, repeated 0, ${server.streams()} stream requests (reconnections included)`);
  });
}
