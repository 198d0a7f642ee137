// The signed-in staff's tokens (estatekit/auth: createUserTokens().fresh, toTokenSet, the
// providers) and the store contract check shared by every user of a store, against pkg/
// (`make test-node`) and the in-process emulator of estatekit/testing (its `fetch`): one refresh
// grant per refresh token in a process and across "processes" (instances on one store), the
// chain of rotated refresh tokens, the successor's retention, the signInRequired marker and when
// it is absent, a store that fails or answers out of its contract, a token endpoint that hangs,
// and no secret in any message, event or store key.
import test from "node:test";
import assert from "node:assert/strict";
import { inspect } from "node:util";

const pkg = new URL("../../pkg/", import.meta.url).href;
const auth = await import(`${pkg}auth.node.js`);
const { createUserTokens, createTokenProvider, passwordGrant, toTokenSet, isSignInRequired, authjsProvider, betterAuthProvider, isApiError } = auth;
const { createMemoryStore, checkedStore } = await import(`${pkg}store.js`);
const { createTestService } = await import(`${pkg}testing.node.js`);
const { createWebhookHandler } = await import(`${pkg}webhooks.node.js`);
const { Client } = await import(`${pkg}estatekit.node.js`);

const CLIENT = { clientId: "staff-portal", clientSecret: "s3cret-of-the-portal-Q9" };
const USER = { username: "agent@acme.test", password: "pa55-of-the-agent-Q9" };

/** An emulator with one client and one user; `counting.fetch` counts the token requests. */
async function service(options = {}) {
  const emulator = await createTestService({
    oauthClients: [CLIENT],
    users: [USER],
    rotateRefreshTokens: true,
    ...options,
  });
  let tokenRequests = 0;
  let hang = false;
  const fetch = (input, init) => {
    const request = new Request(input, init);
    if (new URL(request.url).pathname === "/accounts/oauth/token") {
      tokenRequests++;
      if (hang) {
        return new Promise((_, reject) =>
          request.signal.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError"))),
        );
      }
    }
    return emulator.fetch(request);
  };
  const oauth = { baseUrl: emulator.baseUrl, ...CLIENT, fetch };
  return {
    emulator,
    oauth,
    fetch,
    requests: () => tokenRequests,
    hang: (on) => (hang = on),
    /** A sign-in: the token set a session starts with. */
    signIn: () => passwordGrant(oauth, USER),
    refreshGrants: async () => (await emulator.oauth()).grants.refresh_token,
    rejectedRefreshGrants: async () => (await emulator.oauth()).rejected.refresh_token,
  };
}

/** `set` as a session holds it once its access token is due (within the 60 s margin). */
const due = (set) => ({ ...set, expiresAt: Date.now() + 1_000 });

/** The error a promise rejects with. */
async function failure(promise) {
  try {
    await promise;
  } catch (e) {
    return e;
  }
  assert.fail("expected a rejection");
}

/** A memory store that records every key it is asked about. */
function recordingStore(inner = createMemoryStore()) {
  const keys = new Set();
  const store = {};
  for (const name of ["get", "set", "delete", "claim", "release", "take"]) {
    store[name] = (key, ...rest) => (keys.add(key), inner[name](key, ...rest));
  }
  return { store, keys };
}

test("concurrent callers with one refresh token share one refresh grant", async (t) => {
  const s = await service();
  t.after(() => s.emulator.close());
  const s0 = await s.signIn();
  const users = createUserTokens(s.oauth);
  const sets = await Promise.all(Array.from({ length: 20 }, () => users.fresh(due(s0))));
  assert.equal(await s.refreshGrants(), 1);
  assert.equal(await s.rejectedRefreshGrants(), 0);
  assert.equal(s.requests(), 2, "the sign-in and one refresh");
  assert.equal(new Set(sets.map((set) => set.accessToken)).size, 1);
  assert.notEqual(sets[0].accessToken, s0.accessToken);
  assert.notEqual(sets[0].refreshToken, s0.refreshToken, "the emulator rotates refresh tokens");
  assert.ok(sets[0].expiresAt > Date.now() + 60_000);
});

test("two processes on one store: one refresh grant, the other gets the successor", async (t) => {
  const s = await service();
  t.after(() => s.emulator.close());
  const s0 = await s.signIn();
  const store = createMemoryStore();
  const a = createUserTokens({ ...s.oauth, store });
  const b = createUserTokens({ ...s.oauth, store });
  const sets = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).fresh(due(s0))));
  assert.equal(await s.refreshGrants(), 1);
  assert.equal(await s.rejectedRefreshGrants(), 0);
  assert.equal(s.requests(), 2, "the sign-in and one refresh");
  assert.equal(new Set(sets.map((set) => set.accessToken)).size, 1);
});

test("a rotated refresh token gets the newest set down the chain, without a grant", async (t) => {
  const s = await service();
  t.after(() => s.emulator.close());
  const s0 = await s.signIn();
  const store = createMemoryStore();
  const events = [];
  const a = createUserTokens({ ...s.oauth, store });
  const s1 = await a.fresh(s0, "unauthorized");
  const s2 = await a.fresh(s1, "unauthorized");
  const s3 = await a.fresh(s2, "unauthorized");
  assert.equal(await s.refreshGrants(), 3);
  const b = createUserTokens({ ...s.oauth, store, onEvent: (e) => events.push(e) });
  const fromS0 = await b.fresh(due(s0));
  assert.equal(fromS0.accessToken, s3.accessToken);
  assert.equal(fromS0.refreshToken, s3.refreshToken);
  assert.deepEqual(events, [{ type: "successor", hops: 3, expiresAt: s3.expiresAt }]);
  assert.equal((await b.fresh(due(s1))).accessToken, s3.accessToken);
  assert.equal((await a.fresh(due(s0))).accessToken, s3.accessToken, "the successors this process made");
  assert.equal(await s.refreshGrants(), 3);
  assert.equal(await s.rejectedRefreshGrants(), 0);
});

test("successors are kept successorRetentionMs: after it, the rotated token needs a new sign-in", async (t) => {
  const s = await service();
  t.after(() => s.emulator.close());
  const s0 = await s.signIn();
  let now = Date.now();
  const store = createMemoryStore({ now: () => now });
  const options = { ...s.oauth, store, successorRetentionMs: 60_000 };
  const s1 = await createUserTokens(options).fresh(due(s0));
  const b = createUserTokens(options);
  assert.equal((await b.fresh(due(s0))).accessToken, s1.accessToken);
  assert.equal(await s.refreshGrants(), 1);
  now += 60_001;
  const e = await failure(b.fresh(due(s0)));
  assert.ok(isSignInRequired(e), e.message);
  assert.equal(e.code, "invalid_grant");
  assert.equal(e.attempts, 1);
  assert.equal(await s.rejectedRefreshGrants(), 1);
});

test("a set that is not due comes back as it is; 'unauthorized' refreshes it anyway", async (t) => {
  const s = await service();
  t.after(() => s.emulator.close());
  const s0 = await s.signIn();
  const users = createUserTokens(s.oauth);
  assert.deepEqual(await users.fresh(s0), s0);
  // A set kept without its lifetime (an older session) comes back without one.
  const { lifetimeMs, ...withoutLifetime } = s0;
  assert.equal(lifetimeMs, 3_600_000, "a grant's set records its lifetime");
  assert.deepEqual(await users.fresh({ accessToken: s0.accessToken, refreshToken: s0.refreshToken, expiresAt: s0.expiresAt }), withoutLifetime);
  assert.equal(s.requests(), 1, "only the sign-in");
  const renewed = await users.fresh(s0, "unauthorized");
  assert.notEqual(renewed.accessToken, s0.accessToken);
  assert.equal(await s.refreshGrants(), 1);
  const e = await failure(users.fresh(s0, "later"));
  assert.equal(e.kind, "invalid_input");
  assert.match(e.message, /invalid reason/);
});

test("the margin: refreshBeforeMs, at most a quarter of the set's lifetimeMs (default options, 5 s tokens: once per lifetime)", async (t) => {
  const s = await service({ accessTokenTtlMs: 5_000 });
  t.after(() => s.emulator.close());
  const s0 = await s.signIn();
  assert.equal(s0.lifetimeMs, 5_000, "the set records the lifetime its answer gave");
  const users = createUserTokens(s.oauth); // default refreshBeforeMs (60 s)
  // Not due while more than a quarter of its lifetime is left (1.25 s of 5 s): handed back as it is.
  const early = { ...s0, expiresAt: Date.now() + 1_600 };
  assert.deepEqual(await users.fresh(early), early);
  assert.equal(await s.refreshGrants(), 0);
  // Due within the last quarter: one refresh, whose set records its lifetime too.
  const renewed = await users.fresh({ ...s0, expiresAt: Date.now() + 900 });
  assert.notEqual(renewed.accessToken, s0.accessToken);
  assert.equal(renewed.lifetimeMs, 5_000);
  assert.equal(await s.refreshGrants(), 1);
  // A session keeps it with the set (JSON, as a cookie or a row holds it): not due again.
  const kept = JSON.parse(JSON.stringify(renewed));
  assert.deepEqual(await users.fresh(kept), renewed);
  // A margin smaller than the quarter is kept: 500 ms.
  const tight = createUserTokens({ ...s.oauth, refreshBeforeMs: 500 });
  const late = { ...renewed, expiresAt: Date.now() + 800 };
  assert.deepEqual(await tight.fresh(late), late);
  assert.equal(await s.refreshGrants(), 1);
  // Without a lifetime (unknown): refreshBeforeMs as given, 60 s here, so due.
  const unknown = { accessToken: renewed.accessToken, refreshToken: renewed.refreshToken, expiresAt: Date.now() + 4_000 };
  const next = await users.fresh(unknown);
  assert.notEqual(next.accessToken, renewed.accessToken);
  assert.equal(await s.refreshGrants(), 2);
  // A lifetime that is not a positive number is refused, naming it (never quoting a token).
  for (const lifetimeMs of [0, -1, "5000", Infinity]) {
    const e = await failure(users.fresh({ ...next, lifetimeMs }));
    assert.equal(e.kind, "invalid_input");
    assert.match(e.message, /tokenSet\.lifetimeMs/);
    assert.ok(!e.message.includes(next.accessToken));
  }
  assert.equal(await s.refreshGrants(), 2);
});

test("bad token sets are invalid_input without a request: an expiresAt in seconds, no access token", async (t) => {
  const s = await service();
  t.after(() => s.emulator.close());
  const s0 = await s.signIn();
  const users = createUserTokens(s.oauth);
  const seconds = Math.floor(s0.expiresAt / 1000);
  const e = await failure(users.fresh({ ...s0, expiresAt: seconds }));
  assert.equal(e.kind, "invalid_input");
  assert.equal(e.message, `invalid tokenSet.expiresAt: ${seconds} can only be seconds: it must be milliseconds since the Unix epoch (toTokenSet(account) converts an OAuth library's expires_at)`);
  assert.equal(e.signInRequired, undefined);
  for (const bad of [null, "text", { expiresAt: s0.expiresAt }, { ...s0, accessToken: "" }, { ...s0, expiresAt: "soon" }, { ...s0, refreshToken: 42 }]) {
    const err = await failure(users.fresh(bad));
    assert.equal(err.kind, "invalid_input", String(err));
    assert.ok(!err.message.includes(s0.accessToken) && !err.message.includes(s0.refreshToken));
  }
  assert.equal(s.requests(), 1, "only the sign-in");
});

test("a set without a refresh token: signInRequired, no request", async (t) => {
  const s = await service();
  t.after(() => s.emulator.close());
  const s0 = await s.signIn();
  const users = createUserTokens(s.oauth);
  const { refreshToken, ...bare } = s0;
  assert.ok(refreshToken);
  const e = await failure(users.fresh(due(bare)));
  assert.ok(isApiError(e) && isSignInRequired(e));
  assert.equal(e.signInRequired, true);
  assert.equal(e.attempts, 0);
  assert.match(e.message, /tokenSet\.refreshToken: is missing/);
  assert.equal(s.requests(), 1, "only the sign-in");
});

test("a refresh token deleted by the 50-token cap: signInRequired after one request", async (t) => {
  const s = await service();
  t.after(() => s.emulator.close());
  const s0 = await s.signIn();
  assert.equal(await s.emulator.revokeRefreshTokens(USER.username), 1);
  const users = createUserTokens(s.oauth);
  const e = await failure(users.fresh(due(s0)));
  assert.ok(isSignInRequired(e));
  assert.equal(e.code, "invalid_grant");
  assert.equal(e.attempts, 1);
  assert.match(e.message, /the user must sign in again/);
  assert.equal(s.requests(), 2, "the sign-in and one refresh");
});

test("signInRequired is set on invalid_grant only: never on a 5xx or a network failure", async (t) => {
  const s = await service();
  t.after(() => s.emulator.close());
  const s0 = await s.signIn();
  const answers = [
    () => new Response("<html>bad gateway</html>", { status: 502, headers: { "content-type": "text/html" } }),
    () => Promise.reject(new TypeError("fetch failed")),
    // A 5xx is the service failing, even when its body says invalid_grant.
    () => Response.json({ error: "invalid_grant" }, { status: 500 }),
  ];
  for (const answer of answers) {
    const users = createUserTokens({ ...s.oauth, fetch: answer });
    const e = await failure(users.fresh(due(s0)));
    assert.ok(isApiError(e));
    assert.equal(e.signInRequired, undefined, e.message);
    assert.equal(isSignInRequired(e), false);
  }
  // RFC 6749's 400 invalid_grant is the service refusing the refresh token: the marker is set.
  const refused = () => Response.json({ error: "invalid_grant", error_description: "expired" }, { status: 400 });
  const e = await failure(createUserTokens({ ...s.oauth, fetch: refused }).fresh(due(s0)));
  assert.equal(e.kind, "http");
  assert.equal(e.status, 400);
  assert.equal(e.signInRequired, true);
});

/** A memory store whose first `failing` gets reject (the store is then left aside for 5 s). */
function flakyStore(failing = 1) {
  const inner = createMemoryStore();
  let left = failing;
  return {
    ...inner,
    get: (key) => (left-- > 0 ? Promise.reject(new Error("ECONNRESET")) : inner.get(key)),
  };
}

test("after a store failure, the new successor is still written: another process gets it, no sign-out", async (t) => {
  const s = await service();
  t.after(() => s.emulator.close());
  const s0 = await s.signIn();
  const store = flakyStore(1);
  const a = createUserTokens({ ...s.oauth, store });
  const b = createUserTokens({ ...s.oauth, store });
  const s1 = await a.fresh(due(s0));
  const fromB = await b.fresh(due(s0));
  assert.equal(fromB.accessToken, s1.accessToken);
  assert.equal(await s.refreshGrants(), 1);
  assert.equal(await s.rejectedRefreshGrants(), 0);
});

test("a refused refresh token looks in the store for a successor even after a store failure", async (t) => {
  const s = await service();
  t.after(() => s.emulator.close());
  const s0 = await s.signIn();
  const inner = createMemoryStore();
  const a = createUserTokens({ ...s.oauth, store: inner });
  const s1 = await a.fresh(due(s0));
  let failed = false;
  const store = { ...inner, get: (key) => (failed ? inner.get(key) : ((failed = true), Promise.reject(new Error("ECONNRESET")))) };
  const b = createUserTokens({ ...s.oauth, store });
  const fromB = await b.fresh(due(s0));
  assert.equal(fromB.accessToken, s1.accessToken);
  assert.equal(await s.rejectedRefreshGrants(), 1, "b tried the rotated token once, then found the successor");
});

test("a circular chain of successors in the store rejects, naming it, without signInRequired", async (t) => {
  const s = await service();
  t.after(() => s.emulator.close());
  // A store holding rt-a -> rt-b -> rt-a (found by the refresh token's hash, the end of each key).
  const { createHash } = await import("node:crypto");
  const hash = (token) => createHash("sha256").update(token).digest("hex");
  const link = (next) => JSON.stringify({ accessToken: `at-${next}`, refreshToken: next, expiresAt: Date.now() + 1_000, tokenType: "Bearer" });
  const links = new Map([[hash("rt-a"), link("rt-b")], [hash("rt-b"), link("rt-a")]]);
  const store = { ...createMemoryStore(), get: async (key) => links.get(key.slice(-64)) ?? null };
  const users = createUserTokens({ ...s.oauth, store });
  const e = await failure(users.fresh({ accessToken: "at-0", refreshToken: "rt-a", expiresAt: Date.now() + 1_000 }));
  assert.equal(e.kind, "invalid_input");
  assert.match(e.message, /options\.store: its chain of successors is too long .* or circular/);
  assert.equal(e.signInRequired, undefined);
  assert.equal(s.requests(), 0, "no grant");
});

test("a token endpoint that hangs: every waiting caller gets the timeout; the next call tries again", async (t) => {
  const s = await service();
  t.after(() => s.emulator.close());
  const s0 = await s.signIn();
  const users = createUserTokens({ ...s.oauth, timeoutMs: 200 });
  s.hang(true);
  const errors = await Promise.all(Array.from({ length: 5 }, () => failure(users.fresh(due(s0)))));
  for (const e of errors) {
    assert.equal(e.kind, "timeout");
    assert.equal(e.signInRequired, undefined);
  }
  assert.equal(s.requests(), 2, "the sign-in and one shared refresh");
  s.hang(false);
  const renewed = await users.fresh(due(s0));
  assert.notEqual(renewed.accessToken, s0.accessToken);
  assert.equal(s.requests(), 3);
});

test("a store that is unreachable: one grant in the process, and an event says so", async (t) => {
  const s = await service();
  t.after(() => s.emulator.close());
  const s0 = await s.signIn();
  const down = () => Promise.reject(new Error("ECONNREFUSED 127.0.0.1:6379"));
  const store = { get: down, set: down, delete: down, claim: down, release: down, take: down };
  const events = [];
  const users = createUserTokens({ ...s.oauth, store, onEvent: (e) => events.push(e) });
  const sets = await Promise.all(Array.from({ length: 10 }, () => users.fresh(due(s0))));
  assert.equal(new Set(sets.map((set) => set.accessToken)).size, 1);
  assert.equal(await s.refreshGrants(), 1);
  const unavailable = events.filter((e) => e.type === "storeUnavailable");
  assert.ok(unavailable.length >= 1);
  assert.match(unavailable[0].reason, /ECONNREFUSED/);
});

test("a store that never answers: its calls are bounded, one grant in the process, an event", async (t) => {
  const s = await service();
  t.after(() => s.emulator.close());
  const s0 = await s.signIn();
  const never = () => new Promise(() => {});
  const store = { get: never, set: never, delete: never, claim: never, release: never, take: never };
  const events = [];
  const users = createUserTokens({ ...s.oauth, store, onEvent: (e) => events.push(e) });
  const sets = await Promise.all(Array.from({ length: 5 }, () => users.fresh(due(s0))));
  assert.equal(new Set(sets.map((set) => set.accessToken)).size, 1);
  assert.equal(await s.refreshGrants(), 1);
  assert.ok(events.some((e) => e.type === "storeUnavailable" && /store\.get did not answer within 2000 ms/.test(e.reason)), inspect(events));
});

/** A hand-written store whose claim resolves `true` instead of an owner id; counts its calls. */
function trueClaimStore() {
  const inner = createMemoryStore();
  const calls = { get: 0, claim: 0 };
  return {
    calls,
    store: {
      ...inner,
      get: (key) => (calls.get++, inner.get(key)),
      claim: async () => (calls.claim++, true),
    },
  };
}

const CLAIM_TRUE = "store.claim resolved true; it must resolve an owner id (string) or null";

test("a store whose claim resolves true: every user of the store says so at once", async (t) => {
  const s = await service();
  t.after(() => s.emulator.close());
  const s0 = await s.signIn();

  await t.test("checkedStore names the method and what it returned", async () => {
    const { store } = trueClaimStore();
    await assert.rejects(checkedStore(store).claim("k", 10), { name: "ApiError", kind: "invalid_input", message: CLAIM_TRUE });
    const odd = checkedStore({ get: async () => 42, take: async () => "soon", set: async () => "ok" });
    await assert.rejects(odd.get("k"), { message: "store.get resolved 42; it must resolve a string, or null (or undefined) when absent" });
    await assert.rejects(odd.take("k", 1, 1), { message: "store.take resolved a string; it must resolve a non-negative finite number of milliseconds" });
    assert.equal(await odd.set("k", "v"), "ok");
    assert.equal(checkedStore(odd), odd, "checked once");
  });

  await t.test("fresh", async () => {
    const { store, calls } = trueClaimStore();
    const events = [];
    const users = createUserTokens({ ...s.oauth, store, onEvent: (e) => events.push(e) });
    const set = await users.fresh(due(s0));
    assert.notEqual(set.accessToken, s0.accessToken);
    assert.equal(calls.claim, 1, "asked once, not waited on");
    assert.ok(events.some((e) => e.type === "storeUnavailable" && e.operation === "claim" && e.reason.includes(CLAIM_TRUE)), inspect(events));
  });

  await t.test("createTokenProvider", async () => {
    const { store, calls } = trueClaimStore();
    const events = [];
    const provider = createTokenProvider({ ...s.oauth, ...USER, store, onEvent: (e) => events.push(e) });
    const token = await provider.getToken();
    assert.equal(typeof token.token, "string");
    assert.equal(calls.claim, 1, "asked once, not waited on for 70 s");
    assert.ok(calls.get <= 2, `the store was polled ${calls.get} times`);
    assert.ok(events.some((e) => e.type === "storeUnavailable" && e.operation === "claim" && e.reason.includes(CLAIM_TRUE)), inspect(events));
  });

  await t.test("the webhook receiver's dedupe", async () => {
    const { store } = trueClaimStore();
    const errors = [];
    let runs = 0;
    const receive = createWebhookHandler({ dedupe: store, on: { UNIT_UPDATED: () => runs++ }, onError: (e) => errors.push(e) });
    const response = await receive(
      new Request("http://127.0.0.1/hooks", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ uuid: "e-true", operation: "UNIT_UPDATED", subdomain: "acme", language: "en", createdAt: "2026-11-25T10:07:28.052Z", data: { id: "u1" } }),
      }),
    );
    assert.equal(response.status, 503, "not handled as if this process owned the claim");
    assert.equal(runs, 0);
    assert.equal(errors[0]?.message, CLAIM_TRUE);
  });

  await t.test("the client's rate budget", async () => {
    const events = [];
    const store = { take: async () => true };
    const client = new Client({
      baseUrl: s.emulator.baseUrl,
      token: s.emulator.token,
      fetch: s.emulator.fetch,
      rateLimit: { perMinute: 100, store },
      onEvent: (e) => events.push(e),
    });
    await client.listWebhooks();
    assert.ok(events.some((e) => e.type === "store" && e.purpose === "rate" && e.reason === "error"), inspect(events));
    await assert.rejects(checkedStore(store).take("k", 1, 1), { message: "store.take resolved true; it must resolve a non-negative finite number of milliseconds" });
    client.free();
  });
});

test("no secret in any message, event or store key", async (t) => {
  const s = await service();
  t.after(() => s.emulator.close());
  const s0 = await s.signIn();
  const { store, keys } = recordingStore();
  const events = [];
  const onEvent = (e) => events.push(e);
  const users = createUserTokens({ ...s.oauth, store, onEvent });
  const s1 = await users.fresh(due(s0));
  const s2 = await users.fresh(s1, "unauthorized");
  const again = await createUserTokens({ ...s.oauth, store, onEvent }).fresh(due(s0));
  assert.equal(again.accessToken, s2.accessToken);
  await s.emulator.revokeRefreshTokens(USER.username);
  const messages = [
    (await failure(users.fresh(due(s2)))).message,
    (await failure(users.fresh(due({ ...s2, refreshToken: undefined })))).message,
    (await failure(createUserTokens({ ...s.oauth, clientSecret: "wrong-secret-Q9" }).fresh(due(s2)))).message,
  ];
  const written = [...messages, ...keys, ...events.map((e) => JSON.stringify(e)), inspect(users), JSON.stringify(users), String(users)];
  const secrets = [CLIENT.clientSecret, USER.password, "wrong-secret-Q9"];
  for (const set of [s0, s1, s2]) secrets.push(set.accessToken, set.refreshToken);
  for (const text of written) {
    for (const secret of secrets) assert.ok(!text.includes(secret), `a secret in: ${text}`);
  }
  assert.ok([...keys].every((key) => /^user-tokens:https:\/\/acme\.estatekit\.test:staff-portal:[0-9a-f]{64}(:refreshing)?$/.test(key)), [...keys].join("\n"));
  assert.ok(events.some((e) => e.type === "grant"));
});

test("bad options reject every fresh alike, naming the field", async () => {
  for (const [options, says] of [
    [{ baseUrl: "https://acme.example.com", clientId: "c" }, /options\.clientSecret: is required/],
    [{ baseUrl: "https://acme.example.com", clientId: "c", clientSecret: "" }, /options\.clientSecret: must not be empty/],
    [{ baseUrl: "https://acme.example.com", clientId: "c", clientSecret: "x", successorRetentionMs: 0 }, /options\.successorRetentionMs/],
    [{ baseUrl: "https://acme.example.com", clientId: "c", clientSecret: "x", retention: 5 }, /options\.retention: is not a known option/],
    [{ baseUrl: "https://acme.example.com", clientId: "c", clientSecret: "x", timeoutMs: 0 }, /options\.timeoutMs: must be a positive number/],
  ]) {
    const users = createUserTokens(options);
    const e = await failure(users.fresh({ accessToken: "a", refreshToken: "r", expiresAt: 1 }));
    assert.equal(e.kind, "invalid_input");
    assert.match(e.message, says);
  }
});

test("toTokenSet: the account of NextAuth / Auth.js (seconds) and of Better Auth (a Date)", () => {
  const nextAuth = toTokenSet({ provider: "estatekit", type: "oauth", access_token: "at", refresh_token: "rt", expires_at: 1_790_000_000, token_type: "bearer" });
  assert.deepEqual(nextAuth, { accessToken: "at", refreshToken: "rt", expiresAt: 1_790_000_000_000, tokenType: "bearer" });
  const expires = new Date("2026-11-27T12:00:00.000Z");
  assert.deepEqual(toTokenSet({ accessToken: "at", refreshToken: "rt", accessTokenExpiresAt: expires }), {
    accessToken: "at",
    refreshToken: "rt",
    expiresAt: expires.getTime(),
    tokenType: "Bearer",
  });
  const before = Date.now();
  const noExpiry = toTokenSet({ access_token: "at", expires_in: 120 });
  assert.ok(noExpiry.expiresAt >= before + 120_000 && noExpiry.expiresAt <= Date.now() + 120_000);
  assert.equal(noExpiry.refreshToken, undefined);
  for (const bad of [{}, { access_token: "" }, { refresh_token: "rt" }, null]) {
    assert.throws(() => toTokenSet(bad), (e) => isApiError(e) && e.kind === "invalid_input" && /account/.test(e.message));
  }
  assert.throws(() => toTokenSet({ access_token: "at", expires_at: 1_790_000_000_000 }), /looks like milliseconds/);
});

test("toTokenSet records the lifetime: expires_in, else the time left (a sign-in callback runs just after the grant)", () => {
  assert.equal(toTokenSet({ access_token: "at", expires_in: 5 }).lifetimeMs, 5_000);
  assert.equal(toTokenSet({ access_token: "at" }).lifetimeMs, 3_600_000, "no expiry: the default hour");
  // NextAuth keeps expires_at (whole seconds) and no issue time: the time left now, at most.
  const before = Date.now();
  const expiresAtS = Math.floor(before / 1000) + 5;
  const nextAuth = toTokenSet({ access_token: "at", refresh_token: "rt", expires_at: expiresAtS });
  assert.ok(nextAuth.lifetimeMs > 0 && nextAuth.lifetimeMs <= expiresAtS * 1000 - before, String(nextAuth.lifetimeMs));
  // Better Auth's row: the same from accessTokenExpiresAt.
  const row = toTokenSet({ accessToken: "at", refreshToken: "rt", accessTokenExpiresAt: new Date(before + 10_000) });
  assert.ok(row.lifetimeMs > 0 && row.lifetimeMs <= 10_000, String(row.lifetimeMs));
  // An expiry already past: no lifetime (unknown; the set is due anyway).
  assert.equal(toTokenSet({ access_token: "at", expires_at: Math.floor(before / 1000) - 10 }).lifetimeMs, undefined);
});

test("the providers: URLs under the account, scope, PKCE and state, Basic, and the profile", async (t) => {
  const s = await service();
  t.after(() => s.emulator.close());
  const options = { baseUrl: `${s.emulator.baseUrl}/`, ...CLIENT };
  const p = authjsProvider(options);
  assert.deepEqual({ ...p, profile: undefined }, {
    id: "estatekit",
    name: "estatekit",
    type: "oauth",
    authorization: { url: `${s.emulator.baseUrl}/accounts/dialog/authorize`, params: { scope: "offline_access *" } },
    token: `${s.emulator.baseUrl}/accounts/oauth/token`,
    userinfo: `${s.emulator.baseUrl}/accounts/api/userinfo`,
    ...CLIENT,
    client: { token_endpoint_auth_method: "client_secret_basic" },
    checks: ["pkce", "state"],
    profile: undefined,
  });
  assert.deepEqual(p.profile({ id: 7, email: "a@acme.test", firstName: "Ada", lastName: "Lovelace", profilePhoto: "https://x/p.png" }), {
    id: "7",
    name: "Ada Lovelace",
    email: "a@acme.test",
    image: "https://x/p.png",
  });
  assert.deepEqual(p.profile({ id: "u1", email: "b@acme.test" }), { id: "u1", name: "b@acme.test", email: "b@acme.test", image: null });
  assert.throws(() => authjsProvider({ baseUrl: "acme", ...CLIENT }), /options\.baseUrl/);
  assert.throws(() => authjsProvider({ baseUrl: s.emulator.baseUrl, clientId: "c" }), /options\.clientSecret/);

  const b = betterAuthProvider({ ...options, fetch: (url, init) => s.emulator.fetch(url, init) });
  assert.equal(b.providerId, "estatekit");
  assert.deepEqual(b.scopes, ["offline_access", "*"]);
  assert.equal(b.pkce, true);
  assert.equal(b.userInfoUrl, p.userinfo);
  const signedIn = await s.signIn();
  const user = await b.getUserInfo({ accessToken: signedIn.accessToken });
  assert.equal(user.email, USER.username);
  assert.equal(typeof user.id, "string");
  assert.equal(user.emailVerified, false);
  assert.equal(await b.getUserInfo({ accessToken: "not-a-token" }), null);
});
