// estatekit/otel on estatekit/auth's token provider and user tokens, with OpenTelemetry's real
// SDK against the in-process emulator's token endpoint (estatekit/testing): each grant request
// a CLIENT span `estatekit token <grant type>` under the span of the call that started it (the
// first caller's when callers share it), its outcome and status, the refused grant; the store's
// and the successors' events on the caller's span; `estatekit.token.grants` by grant type and
// outcome; and no token, secret or password in anything exported.
import test from "node:test";
import assert from "node:assert/strict";
import { SpanKind, SpanStatusCode } from "@opentelemetry/api";
import { BROKEN_CONTEXTS, assertNoSecrets, counted, instrumentTokens, isTokens, recording, withBrokenContext, written } from "./otel_recording.mjs";

const pkg = new URL("../../pkg/", import.meta.url).href;
const { createTokenProvider, createUserTokens, passwordGrant } = await import(`${pkg}auth.node.js`);
const { createMemoryStore } = await import(`${pkg}store.js`);
const { createTestService } = await import(`${pkg}testing.node.js`);
const { instrument } = await import(`${pkg}otel.js`);

const CLIENT = { clientId: "otel-portal", clientSecret: "otel-client-secret-Q7x9" };
const USER = { username: "agent@acme.test", password: "otel-pa55word-Q7x9" };

/**
 * An emulator with one client and one user; its `fetch` keeps every token the token endpoint
 * issues (for the secrets check).
 * @param {import("node:test").TestContext} t
 */
async function service(t) {
  const emulator = await createTestService({ oauthClients: [CLIENT], users: [USER], rotateRefreshTokens: true });
  t.after(() => emulator.close());
  /** Every secret that went over the wire: the client's, the user's, each token issued. */
  const secrets = [CLIENT.clientSecret, USER.password];
  const fetch = async (input, init) => {
    const response = await emulator.fetch(new Request(input, init));
    if (new URL(response.url || new Request(input, init).url).pathname === "/accounts/oauth/token" && response.ok) {
      const set = await response.clone().json();
      for (const token of [set.access_token, set.refresh_token]) if (token) secrets.push(token);
    }
    return response;
  };
  const oauth = { baseUrl: emulator.baseUrl, ...CLIENT, fetch };
  return { emulator, oauth, secrets };
}

/** The grant spans, in the order they ended. */
const grantSpans = (recorded) => recorded.spans().filter((s) => s.name.startsWith("estatekit token "));

/** The app's span `name` (there is one). */
function appSpan(recorded, name) {
  const found = recorded.spans().filter((s) => s.name === name);
  assert.equal(found.length, 1, `one span ${name}`);
  return found[0];
}

/** Runs `fn` inside a new active span `name` of the app's tracer, ended when `fn` settled. */
const within = (recorded, name, fn) =>
  recorded.tracer.startActiveSpan(name, (span) => Promise.resolve().then(fn).finally(() => span.end()));

test.describe("estatekit/otel: token grants", () => {
  for (const how of BROKEN_CONTEXTS) {
    test.it(`a context manager that ${how} (the function it is given) breaks no grant: one request, the token as without telemetry`, async (t) => {
      const { oauth } = await service(t);
      const recorded = recording();
      let requests = 0;
      const counting = { ...oauth, fetch: (input, init) => (requests++, oauth.fetch(input, init)) };
      const provider = recorded.instrument(createTokenProvider({ ...counting, ...USER }));
      const got = await withBrokenContext(() => provider.getToken(), how);
      assert.equal(typeof got.token, "string");
      assert.ok(got.token.length > 0);
      assert.equal(requests, 1, "the grant request was sent once");
      // User tokens' refresh (a grant that is repeated after a request that got no answer):
      // sent once too, and the set rotated.
      const set = await passwordGrant(counting, USER); // a sign-in, not instrumented
      const user = recorded.instrument(createUserTokens(counting));
      const fresh = await withBrokenContext(() => user.fresh({ ...set, expiresAt: Date.now() + 1_000 }), how);
      assert.notEqual(fresh.refreshToken, set.refreshToken, "rotated");
      assert.equal(requests, 3, "the refresh grant was sent once");
    });
  }

  test.it("a tracer and a meter that throw break no grant, and another instrumentation of the same provider is still told", async (t) => {
    const { oauth } = await service(t);
    const down = () => {
      throw new Error("telemetry down");
    };
    const instruments = { record: down, add: down };
    const failing = {
      tracerProvider: { getTracer: () => ({ startSpan: down, startActiveSpan: down }) },
      meterProvider: { getMeter: () => ({ createHistogram: () => instruments, createCounter: () => instruments, createUpDownCounter: () => instruments }) },
    };
    const recorded = recording();
    const provider = recorded.instrument(instrument(createTokenProvider({ ...oauth, ...USER }), failing));
    const got = await provider.getToken();
    assert.equal(typeof got.token, "string");
    assert.ok(got.token.length > 0);
    assert.deepEqual(grantSpans(recorded).map((s) => s.name), ["estatekit token password"], "told after the one that threw");

    const refused = instrument(createTokenProvider({ ...oauth, username: USER.username, password: "otel-wrong-Q7x9" }), failing);
    const error = await refused.getToken().catch((e) => e);
    assert.equal(error.name, "ApiError", String(error));
    assert.equal(error.code, "invalid_grant", "the grant's own refusal, not the telemetry's failure");
  });

  test.it("a password grant, then a refresh: CLIENT spans under the caller's span, counted by grant type and outcome", async (t) => {
    const { emulator, oauth, secrets } = await service(t);
    const recorded = recording();
    const provider = createTokenProvider({ ...oauth, ...USER });
    assert.equal(recorded.instrument(provider), provider, "the same object");
    assert.ok(Object.isFrozen(provider));
    assert.deepEqual(Object.keys(provider), ["getToken", "invalidate", "close", "toJSON", "toString"], "the hook is not enumerable");

    const first = await within(recorded, "GET /listings", () => provider.getToken());
    await within(recorded, "GET /cached", () => provider.getToken());
    const second = await within(recorded, "GET /after-401", () => provider.getToken("unauthorized"));
    assert.notEqual(first.token, second.token);

    const grants = grantSpans(recorded);
    console.log(grants.map((s) => `${s.name} [${SpanKind[s.kind]}] ${JSON.stringify(s.attributes)}`).join("\n"));
    assert.deepEqual(grants.map((s) => s.name), ["estatekit token password", "estatekit token refresh_token"]);
    const url = new URL(emulator.baseUrl);
    for (const [span, grantType, parent] of [
      [grants[0], "password", "GET /listings"],
      [grants[1], "refresh_token", "GET /after-401"],
    ]) {
      assert.equal(span.kind, SpanKind.CLIENT);
      assert.deepEqual(span.attributes, {
        "http.request.method": "POST",
        "server.address": url.hostname,
        "server.port": url.port ? Number(url.port) : url.protocol === "https:" ? 443 : 80,
        "url.full": `${emulator.baseUrl}/accounts/oauth/token`,
        "estatekit.token.grant_type": grantType,
        "estatekit.token.outcome": "ok",
        "http.response.status_code": 200,
      });
      assert.equal(span.status.code, SpanStatusCode.UNSET);
      const caller = appSpan(recorded, parent);
      assert.equal(span.parentSpanContext?.spanId, caller.spanContext().spanId, `${span.name} is a child of ${parent}`);
      assert.equal(span.spanContext().traceId, caller.spanContext().traceId);
      assert.ok(span.duration[0] >= 0 && span.duration[1] >= 0, "its start is before its end");
    }
    assert.deepEqual(counted(await recorded.metrics(), "estatekit.token.grants"), [
      [{ "estatekit.token.grant_type": "password", "estatekit.token.outcome": "ok" }, 1],
      [{ "estatekit.token.grant_type": "refresh_token", "estatekit.token.outcome": "ok" }, 1],
    ]);
    assert.equal(secrets.length, 6, "two token sets issued");
    await assertNoSecrets(recorded, [...secrets, first.token, second.token], ["estatekit token password", "estatekit.token.grants"]);
  });

  test.it("concurrent callers share one grant: its span is the first caller's child", async (t) => {
    const { oauth, secrets } = await service(t);
    const recorded = recording();
    const provider = recorded.instrument(createTokenProvider({ ...oauth, ...USER }));
    const [a, b] = await Promise.all([
      within(recorded, "first caller", () => provider.getToken()),
      within(recorded, "second caller", () => provider.getToken()),
    ]);
    assert.equal(a.token, b.token);
    const grants = grantSpans(recorded);
    assert.equal(grants.length, 1);
    assert.equal(grants[0].parentSpanContext?.spanId, appSpan(recorded, "first caller").spanContext().spanId);
    await assertNoSecrets(recorded, secrets, ["estatekit token password"]);
  });

  test.it("a Client's getToken: the grant is a child of the call's operation span, each call its own (two at once)", async (t) => {
    const { emulator, oauth, secrets } = await service(t);
    const recorded = recording();
    const { Client } = await import(`${pkg}estatekit.node.js`);
    // Two clients, each with its own provider (two grants), called at once in two app spans: the
    // module runs both calls' work in one queue, where the active context is not a call's own.
    const clients = ["a", "b"].map(() => {
      const provider = recorded.instrument(createTokenProvider({ ...oauth, ...USER }));
      return recorded.instrument(new Client({ baseUrl: emulator.baseUrl, getToken: () => provider.getToken(), fetch: oauth.fetch }));
    });
    await Promise.all(clients.map((client, i) => within(recorded, `route ${i}`, () => client.listWebhooks())));
    const grants = grantSpans(recorded);
    assert.equal(grants.length, 2);
    const operations = recorded.spans().filter((s) => s.name === "estatekit listWebhooks");
    assert.equal(operations.length, 2);
    for (const [i, name] of ["route 0", "route 1"].entries()) {
      const route = appSpan(recorded, name);
      const operation = operations.find((s) => s.parentSpanContext?.spanId === route.spanContext().spanId);
      assert.ok(operation, `the operation span of ${name} is its child`);
      assert.deepEqual(
        operation.events.map((e) => [e.name, e.attributes]),
        [["estatekit.token.request", { "estatekit.token.reason": "initial" }]],
      );
      const grant = grants.find((g) => g.parentSpanContext?.spanId === operation.spanContext().spanId);
      assert.ok(grant, `call ${i}'s grant is a child of its operation span`);
    }
    await assertNoSecrets(recorded, secrets, ["estatekit token password", "estatekit.token.request"]);
  });

  test.it("an app's fetch instrumentation makes no second span of a grant request: it is sent with tracing suppressed", async (t) => {
    const { oauth, secrets } = await service(t);
    const recorded = recording();
    // What undici's or @vercel/otel's fetch instrumentation does: a CLIENT span around every
    // fetch, here around the provider's `fetch` option, with the app's tracer.
    const fetch = (input, init) => {
      const request = new Request(input, init);
      const span = recorded.tracer.startSpan(`fetch ${request.method} ${new URL(request.url).pathname}`, { kind: SpanKind.CLIENT });
      return oauth.fetch(request).finally(() => span.end());
    };
    const plain = createTokenProvider({ ...oauth, ...USER, fetch });
    await within(recorded, "plain route", () => plain.getToken());
    const fetchSpans = () => recorded.spans().filter((s) => s.name.startsWith("fetch POST"));
    assert.equal(fetchSpans().length, 1, "without instrument, the app's fetch span is there (the check can fail)");
    const provider = recorded.instrument(createTokenProvider({ ...oauth, ...USER, fetch }));
    await within(recorded, "route", () => provider.getToken());
    assert.equal(fetchSpans().length, 1, "no fetch span for the instrumented provider's grant");
    const grants = grantSpans(recorded);
    assert.equal(grants.length, 1);
    assert.equal(grants[0].parentSpanContext?.spanId, appSpan(recorded, "route").spanContext().spanId);
    await assertNoSecrets(recorded, secrets, ["estatekit token password"]);
  });

  test.it("a refused grant (invalid_grant): an ERROR span with the kind and status, counted by its outcome", async (t) => {
    const { oauth, secrets } = await service(t);
    const recorded = recording();
    const wrong = "otel-wrong-pa55word-Q7x9";
    const provider = recorded.instrument(createTokenProvider({ ...oauth, username: USER.username, password: wrong }));
    const error = await within(recorded, "sign in", () => provider.getToken()).catch((e) => e);
    assert.equal(error.name, "ApiError");
    assert.equal(error.kind, "forbidden");
    assert.equal(error.code, "invalid_grant");
    const [span] = grantSpans(recorded);
    assert.equal(span.name, "estatekit token password");
    assert.equal(span.attributes["estatekit.token.outcome"], "forbidden");
    assert.equal(span.attributes["error.type"], String(error.status), "an answer's error status, as the HTTP conventions say");
    assert.equal(span.attributes["http.response.status_code"], error.status);
    assert.equal(span.status.code, SpanStatusCode.ERROR);
    assert.equal(span.parentSpanContext?.spanId, appSpan(recorded, "sign in").spanContext().spanId);
    assert.deepEqual(counted(await recorded.metrics(), "estatekit.token.grants"), [
      [{ "estatekit.token.grant_type": "password", "estatekit.token.outcome": "forbidden" }, 1],
    ]);
    await assertNoSecrets(recorded, [...secrets, wrong], ["estatekit token password", "forbidden"]);
  });

  test.it("a grant that got no answer: its kind as outcome and error.type, no status code; one span per request", async (t) => {
    const { oauth } = await service(t);
    const recorded = recording();
    const unreachable = async () => Promise.reject(new TypeError("fetch failed"));
    const provider = recorded.instrument(createTokenProvider({ ...oauth, ...USER, fetch: unreachable }));
    const error = await provider.getToken().catch((e) => e);
    assert.equal(error.kind, "network");
    const spans = grantSpans(recorded);
    assert.ok(spans.length >= 1);
    for (const span of spans) {
      assert.equal(span.attributes["estatekit.token.outcome"], "network");
      assert.equal(span.attributes["error.type"], "network");
      assert.equal("http.response.status_code" in span.attributes, false);
      assert.equal(span.status.code, SpanStatusCode.ERROR);
    }
    assert.deepEqual(counted(await recorded.metrics(), "estatekit.token.grants"), [
      [{ "estatekit.token.grant_type": "password", "estatekit.token.outcome": "network" }, spans.length],
    ]);
  });

  test.it("user tokens: a refresh under the session's span, a successor as an event, a revoked refresh token refused", async (t) => {
    const { emulator, oauth, secrets } = await service(t);
    const recorded = recording();
    const users = createUserTokens(oauth);
    assert.equal(recorded.instrument(users), users);
    const set = await passwordGrant(oauth, USER); // a sign-in, not instrumented: no span
    assert.deepEqual(grantSpans(recorded), []);
    const due = { ...set, expiresAt: Date.now() + 1_000 };

    const fresh = await within(recorded, "session A", () => users.fresh(due));
    assert.notEqual(fresh.refreshToken, set.refreshToken, "rotated");
    // Another request of the session still holds the old set: the successor, without a grant.
    const again = await within(recorded, "session B", () => users.fresh(due));
    assert.equal(again.accessToken, fresh.accessToken);

    const [refresh] = grantSpans(recorded);
    assert.equal(grantSpans(recorded).length, 1);
    assert.equal(refresh.name, "estatekit token refresh_token");
    assert.equal(refresh.kind, SpanKind.CLIENT);
    assert.equal(refresh.attributes["estatekit.token.outcome"], "ok");
    assert.equal(refresh.parentSpanContext?.spanId, appSpan(recorded, "session A").spanContext().spanId);
    assert.deepEqual(written(appSpan(recorded, "session B")).events, [
      { name: "estatekit.token.successor", attributes: { "estatekit.token.successor.hops": 1 } },
    ]);

    // Every refresh token of the user revoked: the refresh is refused, sign-in required.
    await emulator.revokeRefreshTokens(USER.username);
    const refused = await within(recorded, "session C", () => users.fresh({ ...fresh, expiresAt: Date.now() + 1_000 })).catch((e) => e);
    assert.equal(refused.signInRequired, true);
    const last = grantSpans(recorded).at(-1);
    assert.equal(last.attributes["estatekit.token.outcome"], refused.kind);
    assert.equal(last.attributes["error.type"], String(refused.status));
    assert.equal(last.status.code, SpanStatusCode.ERROR);
    assert.equal(last.parentSpanContext?.spanId, appSpan(recorded, "session C").spanContext().spanId);
    assert.deepEqual(counted(await recorded.metrics(), "estatekit.token.grants"), [
      [{ "estatekit.token.grant_type": "refresh_token", "estatekit.token.outcome": refused.kind }, 1],
      [{ "estatekit.token.grant_type": "refresh_token", "estatekit.token.outcome": "ok" }, 1],
    ]);
    await assertNoSecrets(recorded, [...secrets, set.accessToken, set.refreshToken], ["estatekit.token.successor"]);
  });

  test.it("a store: the set another process stored is an event (shared), so are a wait for its claim and a store that fails", async (t) => {
    const { oauth, secrets } = await service(t);
    const recorded = recording();
    const shared = createMemoryStore();
    // Another process (not instrumented) gets the token set and stores it.
    await createTokenProvider({ ...oauth, ...USER, store: shared }).getToken();
    const reader = recorded.instrument(createTokenProvider({ ...oauth, ...USER, store: shared }));
    await within(recorded, "reads the store", () => reader.getToken());
    assert.deepEqual(grantSpans(recorded), [], "no grant: the stored set");
    assert.deepEqual(written(appSpan(recorded, "reads the store")).events, [{ name: "estatekit.token.shared", attributes: {} }]);

    // A process of another user holds the claim to refresh: this one waits, then (the claim
    // released) takes it and makes the grant itself.
    const other = { username: USER.username, password: USER.password };
    const claims = createMemoryStore();
    /** @type {() => void} */
    let refused;
    const claimRefused = new Promise((resolve) => (refused = resolve));
    const watched = {
      ...claims,
      get: (key) => claims.get(key),
      set: (key, value, ttl) => claims.set(key, value, ttl),
      delete: (key) => claims.delete(key),
      take: (key) => claims.take(key),
      release: (key, owner) => claims.release(key, owner),
      async claim(key, ttl) {
        const owner = await claims.claim(key, ttl);
        if (owner === null) refused();
        return owner;
      },
    };
    const waiter = recorded.instrument(createTokenProvider({ ...oauth, ...other, store: watched }));
    const key = `tokens:${oauth.baseUrl}:${CLIENT.clientId}:${USER.username}:refreshing`;
    const holder = await claims.claim(key, 60_000);
    assert.equal(typeof holder, "string");
    const waiting = within(recorded, "waits for the claim", () => waiter.getToken());
    await claimRefused;
    await claims.release(key, holder);
    await waiting;
    const waited = appSpan(recorded, "waits for the claim");
    assert.deepEqual(written(waited).events.map((e) => e.name), ["estatekit.token.store_wait"]);
    const [grant] = grantSpans(recorded);
    assert.equal(grant.name, "estatekit token password");
    assert.equal(grant.parentSpanContext?.spanId, waited.spanContext().spanId);

    // A store whose reads fail: the provider goes on without it; the event names the operation.
    const broken = { ...createMemoryStore(), get: async () => Promise.reject(new Error("store down: otel-store-reason-Q7x9")) };
    const alone = recorded.instrument(createTokenProvider({ ...oauth, ...USER, store: broken }));
    await within(recorded, "store down", () => alone.getToken());
    assert.deepEqual(written(appSpan(recorded, "store down")).events, [
      { name: "estatekit.token.store_unavailable", attributes: { "estatekit.store.operation": "get" } },
    ]);
    await assertNoSecrets(recorded, [...secrets, "otel-store-reason-Q7x9"], ["estatekit.token.shared", "estatekit.token.store_wait"]);
  });

  test.it("instrument(provider) twice with the same providers: one span per grant, not two", async (t) => {
    const { oauth } = await service(t);
    const recorded = recording();
    const provider = createTokenProvider({ ...oauth, ...USER });
    assert.equal(recorded.instrument(recorded.instrument(provider)), provider);
    await provider.getToken();
    assert.equal(grantSpans(recorded).length, 1);
  });

  test.it("the part: isTokens knows a provider and user tokens; instrumenting again with the same telemetry adds nothing", async (t) => {
    const { oauth } = await service(t);
    const recorded = recording();
    const provider = createTokenProvider({ ...oauth, ...USER });
    assert.ok(isTokens(provider));
    assert.ok(isTokens(createUserTokens(oauth)));
    assert.ok(!isTokens({ getToken: async () => "t" }), "a plain object with a getToken is not one");
    assert.equal(instrumentTokens(provider, recorded.telemetry), provider);
    assert.equal(instrumentTokens(provider, recorded.telemetry), provider);
    await provider.getToken();
    assert.equal(grantSpans(recorded).length, 1, "one span, not two");
    assert.deepEqual(counted(await recorded.metrics(), "estatekit.token.grants"), [
      [{ "estatekit.token.grant_type": "password", "estatekit.token.outcome": "ok" }, 1],
    ]);
  });

  test.it("a call outside any span: the grant's span is a root span; objects never instrumented tell nothing", async (t) => {
    const { oauth } = await service(t);
    const recorded = recording();
    const provider = recorded.instrument(createTokenProvider({ ...oauth, ...USER }));
    await provider.getToken();
    const [root] = grantSpans(recorded);
    assert.equal(root.parentSpanContext, undefined);
    // Another provider, not instrumented: nothing is recorded for it.
    await within(recorded, "plain", () => createTokenProvider({ ...oauth, ...USER }).getToken());
    assert.equal(grantSpans(recorded).length, 1);
    assert.deepEqual(written(appSpan(recorded, "plain")).events, []);
  });
});
