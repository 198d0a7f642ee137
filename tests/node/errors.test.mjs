// ApiError in Node, against pkg/ (`make test-node`): a class a caller can act on and trace.
// `requestId` of a refused call, `cause` of a network failure and of a caller's `fetch` that
// throws a program error (one attempt, never retried), `retryable` false where a registration's
// outcome is unknown, the class constructible for test doubles, its JSON round trip, and the
// webhook receiver's error as a class of its own.
import test from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:net";
import { createServer as createHttpServer } from "node:http";

const pkg = new URL("../../pkg/", import.meta.url);
const { Client, ApiError, isApiError } = await import(new URL("estatekit.node.js", pkg).href);
const { ApiError: AuthApiError } = await import(new URL("auth.node.js", pkg).href);
const { parseEvent, WebhookEventError, isInvalidEvent } = await import(new URL("webhooks.node.js", pkg).href);

const BASE = "https://acme.example.com";
const TOKEN = "tok-0123456789abcdef";
const json = (status, body, headers = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });

/** A loopback port nothing listens on (bound, then closed). */
async function closedPort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

test.describe("ApiError in Node", () => {
  test.it("a refused call carries the answer's X-Request-Id, the same as its response event", async () => {
    const events = [];
    const client = new Client({
      baseUrl: BASE,
      token: TOKEN,
      onEvent: (e) => events.push(e),
      fetch: async () => json(404, { code: "not_found", message: "no such webhook" }, { "x-request-id": "req-42" }),
    });
    const e = await client.deleteWebhook("wh-1").catch((error) => error);
    assert.ok(e instanceof ApiError && isApiError(e));
    assert.equal(e.kind, "not_found");
    assert.equal(e.status, 404);
    assert.equal(e.requestId, "req-42");
    assert.equal(events.find((event) => event.type === "response")?.requestId, "req-42");
    // Ticket-ready JSON: the message is kept, and it comes back as an ApiError.
    const copy = ApiError.fromJSON(JSON.parse(JSON.stringify(e)));
    assert.ok(copy instanceof ApiError);
    assert.deepEqual([copy.kind, copy.status, copy.requestId, copy.message], [e.kind, e.status, e.requestId, e.message]);
  });

  test.it("a network failure names the host and keeps the TypeError of fetch as its cause", async () => {
    const port = await closedPort();
    const client = new Client({ baseUrl: `http://127.0.0.1:${port}`, token: TOKEN, retry: { maxRetries: 0 } });
    const e = await client.listWebhooks().catch((error) => error);
    assert.equal(e.kind, "network");
    assert.equal(e.retryable, true);
    assert.equal(e.requestId, undefined, "no answer, no request id");
    assert.match(e.message, new RegExp(`^list webhooks failed: network error reaching 127\\.0\\.0\\.1:${port} \\(`));
    assert.ok(e.cause instanceof TypeError, String(e.cause));
    // undici's own cause: the system error, whole.
    assert.ok(e.cause.cause, "undici's cause is kept");
    // The message carries the platform's reason, found down the cause chain.
    assert.equal(e.message, `list webhooks failed: network error reaching 127.0.0.1:${port} (fetch failed: connect ECONNREFUSED 127.0.0.1:${port})`);
    console.log(`refused connection: ${e.message}`);
    // toJSON keeps the chain of causes (name, message, code): a log line is enough for a ticket.
    const json = JSON.parse(JSON.stringify(e));
    console.log(`its toJSON(): ${JSON.stringify(e)}`);
    assert.equal(json.cause.name, "TypeError");
    assert.equal(json.cause.message, "fetch failed");
    assert.equal(json.cause.cause.code, "ECONNREFUSED");
    assert.match(json.cause.cause.message, /ECONNREFUSED/);
    const back = ApiError.fromJSON(json);
    assert.deepEqual(back.cause, json.cause);
  });

  test.it("a failure's reason: the deepest cause's message (else its code), whatever the depth; toJSON follows five causes", async () => {
    const chain = (...links) => links.reduceRight((cause, [name, message, code]) => Object.assign(new Error(message, cause ? { cause } : undefined), { name, ...(code ? { code } : {}) }), undefined);
    const cases = [
      [chain(["TypeError", "fetch failed"], ["Error", "getaddrinfo ENOTFOUND nowhere.test", "ENOTFOUND"]), "fetch failed: getaddrinfo ENOTFOUND nowhere.test"],
      [chain(["TypeError", "fetch failed"], ["Error", "", "ECONNRESET"]), "fetch failed: ECONNRESET"],
      [chain(["TypeError", "fetch failed"], ["Error", "certificate has expired", "CERT_HAS_EXPIRED"]), "fetch failed: certificate has expired"],
      [chain(["TypeError", "fetch failed"], ["Error", "outer"], ["Error", "connect ECONNREFUSED ::1:1", "ECONNREFUSED"]), "fetch failed: connect ECONNREFUSED ::1:1"],
      [new TypeError("Failed to fetch"), "Failed to fetch"],
    ];
    for (const [thrown, reason] of cases) {
      const client = new Client({ baseUrl: BASE, token: TOKEN, retry: { maxRetries: 0 }, fetch: () => Promise.reject(thrown) });
      const e = await client.listWebhooks().catch((error) => error);
      assert.equal(e.kind, "network");
      assert.equal(e.message, `list webhooks failed: network error reaching ${new URL(BASE).host} (${reason})`);
    }
    const deep = chain(...Array.from({ length: 8 }, (_, i) => ["Error", `level ${i}`, `E${i}`]));
    const json = new ApiError({ kind: "network", message: "x", cause: deep }).toJSON();
    let depth = 0;
    for (let c = json.cause; c; c = c.cause) {
      assert.deepEqual([c.name, c.message, c.code], ["Error", `level ${depth}`, `E${depth}`]);
      depth += 1;
    }
    assert.equal(depth, 5);
    // A cycle stops at the depth too; a thrown string is its text.
    const cyclic = new Error("a");
    cyclic.cause = cyclic;
    assert.doesNotThrow(() => JSON.stringify(new ApiError({ kind: "network", cause: cyclic })));
    assert.deepEqual(new ApiError({ kind: "aborted", cause: "stop" }).toJSON().cause, { message: "stop" });
  });

  test.it("a caller's fetch that throws a RangeError: one attempt, caller_error, the RangeError as cause", async () => {
    let calls = 0;
    const bug = new RangeError("Invalid array length");
    const client = new Client({
      baseUrl: BASE,
      token: TOKEN,
      retry: { maxRetries: 3, baseDelayMs: 1 },
      fetch: () => {
        calls += 1;
        throw bug;
      },
    });
    const e = await client.listWebhooks().catch((error) => error);
    assert.equal(e.kind, "caller_error");
    assert.equal(e.attempts, 1);
    assert.equal(calls, 1, "not retried");
    assert.equal(e.retryable, false);
    assert.equal(e.cause, bug);
    assert.match(e.message, /the `fetch` option threw RangeError: Invalid array length: a bug in that function/);
    // A TypeError from a fetch stays a network failure, retried.
    calls = 0;
    const proxy = new Client({
      baseUrl: BASE,
      token: TOKEN,
      retry: { maxRetries: 1, baseDelayMs: 1 },
      fetch: () => {
        calls += 1;
        return Promise.reject(new TypeError("fetch failed"));
      },
    });
    const n = await proxy.listWebhooks().catch((error) => error);
    assert.equal(n.kind, "network");
    assert.equal(calls, 2);
  });

  test.it("a registration without an answer is not retryable and says what to do", async () => {
    const client = new Client({ baseUrl: BASE, token: TOKEN, fetch: () => Promise.reject(new TypeError("socket hang up")) });
    const e = await client.registerWebhook({ type: "UNIT_CREATED", url: "https://hooks.example.com/u" }).catch((error) => error);
    assert.equal(e.kind, "network");
    assert.equal(e.retryable, false);
    assert.match(e.message, /the webhook may have been registered: call ensureWebhook/);
    assert.equal(e.cause?.message, "socket hang up");
  });

  test.it("a failing getToken is an ApiError of its real kind, its cause kept: token_source, the kind it threw, network", async () => {
    // The page's token route, down: it answers 502.
    const route = createHttpServer((req, res) => res.writeHead(502).end("bad gateway"));
    await new Promise((resolve) => route.listen(0, "127.0.0.1", resolve));
    const routeUrl = `http://127.0.0.1:${route.address().port}/token`;
    try {
      const fromRoute = async () => {
        const r = await fetch(routeUrl);
        if (!r.ok) throw new Error(`token route answered HTTP ${r.status}`);
        return r.json();
      };
      const client = new Client({ baseUrl: BASE, getToken: fromRoute, fetch: () => assert.fail("nothing is sent") });
      const e = await client.listWebhooks().catch((error) => error);
      assert.ok(isApiError(e));
      assert.deepEqual([e.kind, e.retryable, e.attempts, e.status], ["token_source", false, 0, undefined]);
      assert.equal(e.message, "list webhooks failed: getToken failed: token route answered HTTP 502");
      assert.equal(e.cause?.message, "token route answered HTTP 502");
      console.log(`getToken, a 502 of its route: ${e.kind}: ${e.message}`);
    } finally {
      await new Promise((resolve) => route.close(resolve));
    }

    // An ApiError it threw keeps its kind, status, code and requestId; retryable by the one rule.
    const thrown = new ApiError({ kind: "http", status: 502, code: "bad_gateway", requestId: "req-7", message: "the token route answered HTTP 502" });
    const rethrown = await new Client({ baseUrl: BASE, getToken: () => Promise.reject(thrown) }).listWebhooks().catch((error) => error);
    assert.deepEqual([rethrown.kind, rethrown.status, rethrown.code, rethrown.requestId, rethrown.retryable], ["http", 502, "bad_gateway", "req-7", true]);
    assert.equal(rethrown.cause, thrown);
    const upload = await new Client({ baseUrl: BASE, getToken: () => Promise.reject(thrown) })
      .uploadDocument({ file: new Blob(["x"]), resourcePath: "tenants/t-1" })
      .catch((error) => error);
    assert.equal(upload.retryable, false, "by the one rule: an upload after a 502 is not retryable");
    const signIn = new ApiError({ kind: "unauthorized", status: 401, message: "sign in again" });
    const e401 = await new Client({ baseUrl: BASE, getToken: () => { throw signIn; } }).listWebhooks().catch((error) => error);
    assert.deepEqual([e401.kind, e401.status, e401.message], ["unauthorized", 401, "list webhooks failed: getToken failed: sign in again"]);
    console.log(`getToken, a thrown ApiError: ${e401.kind}: ${e401.message}`);

    // A network failure (the token route unreachable): network, retryable, nothing sent.
    const port = await closedPort();
    const unreachable = () => fetch(`http://127.0.0.1:${port}/token`).then((r) => r.json());
    const n = await new Client({ baseUrl: BASE, getToken: unreachable }).listWebhooks().catch((error) => error);
    assert.deepEqual([n.kind, n.retryable, n.attempts], ["network", true, 0]);
    assert.equal(n.message, `list webhooks failed: getToken failed: fetch failed: connect ECONNREFUSED 127.0.0.1:${port}`);
    assert.ok(n.cause instanceof TypeError);
    console.log(`getToken, a network failure: ${n.kind}: ${n.message}`);
    // A value that is no token stays what the caller wrote wrong.
    const bad = await new Client({ baseUrl: BASE, getToken: () => 42 }).listWebhooks().catch((error) => error);
    assert.equal(bad.kind, "invalid_input");
  });

  test.it("an upload to a refused port: nothing was sent, no 'may have been uploaded', retryable, and sent again", async () => {
    const port = await closedPort();
    const events = [];
    const client = new Client({ baseUrl: `http://127.0.0.1:${port}`, token: TOKEN, retry: { maxRetries: 1, baseDelayMs: 1 }, onEvent: (e) => events.push(e.type) });
    const e = await client.uploadDocument({ file: new Blob(["%PDF-1.4"]), resourcePath: "tenants/t-1" }).catch((error) => error);
    assert.deepEqual([e.kind, e.retryable, e.attempts], ["network", true, 2]);
    assert.equal(e.message, `upload document failed: network error reaching 127.0.0.1:${port} (fetch failed: connect ECONNREFUSED 127.0.0.1:${port}): nothing was sent`);
    assert.doesNotMatch(e.message, /may have been uploaded/);
    assert.equal(events.filter((t) => t === "request").length, 2, "sent again: the first was proved never sent");
    console.log(`upload to a refused port: ${e.kind}: ${e.message}`);
    // node-fetch's FetchError carries the code on itself: the same proof.
    const refused = Object.assign(new Error("request to x failed, reason: connect ECONNREFUSED"), { name: "FetchError", code: "ECONNREFUSED" });
    const viaOption = await new Client({ baseUrl: BASE, token: TOKEN, retry: { maxRetries: 0 }, fetch: () => Promise.reject(refused) })
      .registerWebhook({ type: "UNIT_CREATED", url: "https://hooks.example.com/u" })
      .catch((error) => error);
    assert.deepEqual([viaOption.kind, viaOption.retryable], ["network", true]);
    // A reset connection proves nothing: the registration may have acted.
    const reset = Object.assign(new TypeError("fetch failed"), { cause: Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" }) });
    const maybe = await new Client({ baseUrl: BASE, token: TOKEN, fetch: () => Promise.reject(reset) })
      .registerWebhook({ type: "UNIT_CREATED", url: "https://hooks.example.com/u" })
      .catch((error) => error);
    assert.deepEqual([maybe.kind, maybe.retryable], ["network", false]);
    assert.match(maybe.message, /the webhook may have been registered/);
  });

  test.it("a 404 of a base URL with its own path names that path; a base URL ending in /api is told to drop it", async () => {
    const notFound = () => json(404, { code: "not_found", message: "no route for GET /api/api/external-integrations/webhooks" });
    const e = await new Client({ baseUrl: `${BASE}/api`, token: TOKEN, fetch: notFound }).listWebhooks().catch((error) => error);
    assert.equal(e.kind, "not_found");
    assert.equal(
      e.message,
      "list webhooks failed: not found (HTTP 404) [not_found: no route for GET /api/api/external-integrations/webhooks]: " +
        "the base URL has a path of its own, `/api`, put before each path of the interface (`/api/api/...`): give the base URL without it",
    );
    console.log(`a base URL ending in /api: ${e.message}`);
    const other = await new Client({ baseUrl: `${BASE}/v2`, token: TOKEN, fetch: notFound }).listWebhooks().catch((error) => error);
    assert.match(other.message, /the base URL has a path of its own, `\/v2`, put before each path of the interface \(`\/v2\/api\/\.\.\.`\)$/);
    const plain = await new Client({ baseUrl: BASE, token: TOKEN, fetch: notFound }).listWebhooks().catch((error) => error);
    assert.doesNotMatch(plain.message, /base URL/);
  });

  test.it("new ApiError(...) for test doubles; one class for every entry; instanceof across copies", () => {
    const e = new ApiError({ kind: "not_found", status: 404, message: "no such document" });
    assert.ok(e instanceof Error && e instanceof ApiError && isApiError(e));
    assert.equal(e.name, "ApiError");
    assert.equal(e.retryable, false);
    assert.equal(e.attempts, 0);
    assert.equal(new ApiError({ kind: "http", status: 503 }).retryable, true);
    assert.equal(new ApiError({ kind: "network", cause: bugOf() }).cause.name, "SyntaxError");
    assert.equal(ApiError, AuthApiError, "estatekit and estatekit/auth export the same class");
    assert.equal(ApiError, globalThis[Symbol.for("estatekit.ApiError")], "one class per realm");
    assert.equal({ name: "ApiError", kind: "network" } instanceof ApiError, false);
    assert.deepEqual(Object.keys(JSON.parse(JSON.stringify(e))).sort(), ["attempts", "kind", "message", "name", "retryable", "status"]);
    assert.throws(() => ApiError.fromJSON({ message: "no kind" }), (e) => e instanceof ApiError && e.kind === "invalid_input" && /ApiError\.fromJSON/.test(e.message));
  });

  test.it("estatekit/webhooks refuses with a WebhookEventError, which is not an ApiError", async () => {
    const e = await parseEvent("{").catch((error) => error);
    assert.ok(e instanceof WebhookEventError && isInvalidEvent(e));
    assert.equal(e.name, "WebhookEventError");
    assert.equal(e.kind, "invalid_event");
    assert.equal(isApiError(e), false);
    assert.equal(e instanceof ApiError, false);
  });
});

function bugOf() {
  try {
    JSON.parse("{");
  } catch (e) {
    return e;
  }
}
