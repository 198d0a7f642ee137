// estatekit/auth against a stand-in token endpoint (the provider's `fetch` option), against pkg/
// (`make test-node`): every grant, the provider's cache, single flight, refresh before expiry,
// the fallbacks, the store protocol, and the bad inputs and faults of the token endpoint. No
// secret appears in any error message, event or printed form of the provider.
import test from "node:test";
import assert from "node:assert/strict";
import { inspect } from "node:util";
import { onMockedClock as onMockedClockOf } from "./mocked_clock.mjs";

const pkg = new URL("../../pkg/", import.meta.url);
const { createTokenProvider, passwordGrant, refreshGrant, authorizationCodeGrant } = await import(
  new URL("auth.node.js", pkg).href
);
const { Client, isApiError } = await import(new URL("estatekit.node.js", pkg).href);

const BASE = "https://acme.example.com";
const SECRETS = {
  clientSecret: "s3cret-client-XYZ",
  password: "pa55word-XYZ",
  refreshToken: "rt-initial-XYZ",
};
const OPTIONS = { baseUrl: BASE, clientId: "dev-client", clientSecret: SECRETS.clientSecret };

/**
 * A stand-in token endpoint. `answer(body, n)` gives `{ status, body, headers, delayMs, hang }` for
 * the n-th grant (body: the parsed JSON request); by default a token set whose access token is
 * `at-<n>` and refresh token `rt-<n>`, living `expiresIn` seconds. Records every request.
 */
function endpoint({ expiresIn = 3600, answer } = {}) {
  const requests = [];
  const issued = [];
  const fetch = async (request) => {
    const body = JSON.parse(await request.text());
    requests.push({
      method: request.method,
      url: request.url,
      type: request.headers.get("content-type"),
      authorization: request.headers.get("authorization"),
      body,
    });
    const n = requests.length;
    const custom = answer?.(body, n);
    if (custom?.hang) {
      return new Promise((_, reject) =>
        request.signal.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError"))),
      );
    }
    if (custom?.delayMs) await new Promise((r) => setTimeout(r, custom.delayMs));
    if (custom && "status" in custom) {
      const text = typeof custom.body === "string" ? custom.body : JSON.stringify(custom.body ?? {});
      const type = typeof custom.body === "string" ? "text/html" : "application/json";
      return new Response(text, { status: custom.status, headers: { "content-type": type, ...custom.headers } });
    }
    const set = { access_token: `at-${n}`, expires_in: expiresIn, token_type: "Bearer" };
    if (body.grant_type !== "refresh_token") set.refresh_token = `rt-${n}`;
    issued.push(set.access_token);
    return Response.json(set);
  };
  return { fetch, requests, issued, grants: (type) => requests.filter((r) => r.body.grant_type === type).length };
}

/** A store in memory, as `estatekit/store`'s createMemoryStore behaves (claims expire). */
function testStore() {
  const values = new Map();
  const live = (key) => {
    const entry = values.get(key);
    if (entry && entry.expires <= Date.now()) values.delete(key);
    return values.get(key);
  };
  let owners = 0;
  return {
    values,
    async get(key) {
      return live(key)?.value ?? null;
    },
    async set(key, value, ttlMs) {
      values.set(key, { value, expires: ttlMs ? Date.now() + ttlMs : Infinity });
    },
    async delete(key) {
      values.delete(key);
    },
    async claim(key, ttlMs) {
      if (live(key)) return null;
      const owner = `owner-${++owners}`;
      values.set(key, { value: owner, expires: Date.now() + ttlMs });
      return owner;
    },
    async release(key, owner) {
      if (live(key)?.value === owner) values.delete(key);
    },
    async take() {
      return 0;
    },
  };
}

/** Asserts that no secret (nor any issued token) occurs in `text`. */
function assertNoSecret(text, extra = []) {
  for (const secret of [...Object.values(SECRETS), ...extra]) {
    assert.ok(!String(text).includes(secret), `a secret leaked: ${text}`);
  }
}

/** The error a promise rejects with. */
async function failure(promise) {
  try {
    await promise;
  } catch (e) {
    return e;
  }
  assert.fail("expected a rejection");
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** `onMockedClock` (./mocked_clock.mjs) with this file's steps and limit. */
const onMockedClock = (t, promise, what, options) =>
  onMockedClockOf(t, promise, what, { stepMs: 50, limitMs: 120_000, ...options });

test("the password grant: one JSON request with the documented body, 100 concurrent getToken share it", async () => {
  const service = endpoint();
  const events = [];
  const provider = createTokenProvider({
    ...OPTIONS,
    username: "admin@acme.test",
    password: SECRETS.password,
    fetch: service.fetch,
    onEvent: (e) => events.push(e),
  });
  const before = Date.now();
  const tokens = await Promise.all(Array.from({ length: 100 }, () => provider.getToken()));
  assert.equal(service.requests.length, 1);
  const [request] = service.requests;
  assert.equal(request.method, "POST");
  assert.equal(request.url, `${BASE}/accounts/oauth/token`);
  assert.equal(request.type, "application/json");
  assert.equal(request.authorization, null);
  assert.deepEqual(request.body, {
    grant_type: "password",
    client_id: "dev-client",
    client_secret: SECRETS.clientSecret,
    username: "admin@acme.test",
    password: SECRETS.password,
    scope: "offline_access *",
  });
  assert.ok(tokens.every((t) => t.token === "at-1"));
  assert.ok(tokens[0].expiresAt >= before + 3_600_000 && tokens[0].expiresAt <= Date.now() + 3_600_000);
  // Cached: no second grant.
  assert.equal((await provider.getToken()).token, "at-1");
  assert.equal(service.requests.length, 1);
  assert.deepEqual(
    events.map(({ durationMs, ...e }) => e),
    [{ type: "grant", grant: "password", ok: true, status: 200 }],
  );
  assertNoSecret(JSON.stringify(events), ["at-1", "rt-1"]);
});

test("refreshes before expiry with the refresh token, keeping it when the answer has none", async () => {
  const service = endpoint({ expiresIn: 1 });
  const provider = createTokenProvider({ ...OPTIONS, username: "u@acme.test", password: SECRETS.password, fetch: service.fetch });
  assert.equal((await provider.getToken()).token, "at-1");
  // Lifetime 1 s: refreshed a quarter of it (250 ms) before expiry.
  await sleep(800);
  assert.equal((await provider.getToken()).token, "at-2");
  await sleep(800);
  assert.equal((await provider.getToken()).token, "at-3");
  assert.deepEqual(
    service.requests.map((r) => [r.body.grant_type, r.body.refresh_token]),
    [
      ["password", undefined],
      ["refresh_token", "rt-1"],
      ["refresh_token", "rt-1"],
    ],
  );
});

test("getToken('unauthorized') refreshes a token that looked valid; invalidate() too", async () => {
  const service = endpoint();
  const provider = createTokenProvider({ ...OPTIONS, refreshToken: SECRETS.refreshToken, fetch: service.fetch });
  assert.equal((await provider.getToken("initial")).token, "at-1");
  assert.equal((await provider.getToken("unauthorized")).token, "at-2");
  provider.invalidate();
  assert.equal((await provider.getToken()).token, "at-3");
  assert.equal(service.grants("password"), 0);
  assert.equal(service.grants("refresh_token"), 3);
  assert.equal(service.requests[0].body.refresh_token, SECRETS.refreshToken);
});

test("a wrong password is a typed error with the service's words, sent once", async () => {
  const service = endpoint({
    answer: () => ({ status: 403, body: { error: "invalid_grant", error_description: "Wrong email or password." } }),
  });
  const provider = createTokenProvider({ ...OPTIONS, username: "u@acme.test", password: SECRETS.password, fetch: service.fetch });
  const e = await failure(provider.getToken());
  assert.ok(isApiError(e));
  assert.equal(e.kind, "forbidden");
  assert.equal(e.status, 403);
  assert.equal(e.code, "invalid_grant");
  assert.match(e.message, /^password grant failed: .*invalid_grant: Wrong email or password\./);
  assert.equal(service.requests.length, 1);
  assertNoSecret(e.message);
  assertNoSecret(JSON.stringify(e));
  // Not cached: the next call asks again.
  await failure(provider.getToken());
  assert.equal(service.requests.length, 2);
});

test("a wrong client secret is unauthorized (invalid_client), its echo hidden", async () => {
  const service = endpoint({
    answer: (body) => ({
      status: 401,
      body: { error: "invalid_client", error_description: `unknown client secret ${body.client_secret}` },
    }),
  });
  const e = await failure(
    passwordGrant({ ...OPTIONS, fetch: service.fetch }, { username: "u@acme.test", password: SECRETS.password }),
  );
  assert.equal(e.kind, "unauthorized");
  assert.equal(e.code, "invalid_client");
  assert.match(e.message, /unknown client secret \[redacted\]/);
  assertNoSecret(e.message);
  assertNoSecret(JSON.stringify(e.details));
});

test("a token answer without access_token, or with a non-numeric expires_in, is a decode error, never cached", async () => {
  for (const [body, says] of [
    [{ token_type: "Bearer", expires_in: 3600 }, /missing field `access_token`/],
    [{ access_token: "at-x", expires_in: "soon" }, /at expires_in: invalid value: string "soon", expected a positive number of seconds/],
    [{ access_token: 42, expires_in: 60 }, /at access_token: must be a string/],
  ]) {
    const service = endpoint({ answer: (_, n) => (n === 1 ? { status: 200, body } : undefined) });
    const provider = createTokenProvider({ ...OPTIONS, username: "u@acme.test", password: SECRETS.password, fetch: service.fetch });
    const e = await failure(provider.getToken());
    assert.equal(e.kind, "decode");
    assert.match(e.message, says);
    assert.equal((await provider.getToken()).token, "at-2");
  }
});

test("an HTML 502 from a proxy: http error with an excerpt; a password grant is not repeated, a refresh is", async () => {
  const html = "<html><body><h1>502 Bad Gateway</h1></body></html>";
  let service = endpoint({ answer: () => ({ status: 502, body: html }) });
  let e = await failure(
    passwordGrant({ ...OPTIONS, fetch: service.fetch }, { username: "u@acme.test", password: SECRETS.password }),
  );
  assert.equal(e.kind, "http");
  assert.equal(e.status, 502);
  assert.match(String(e.details), /502 Bad Gateway/);
  assert.equal(service.requests.length, 1);

  service = endpoint({ answer: (_, n) => (n < 3 ? { status: 502, body: html } : undefined) });
  const set = await refreshGrant({ ...OPTIONS, fetch: service.fetch }, SECRETS.refreshToken);
  assert.equal(service.requests.length, 3);
  assert.equal(set.accessToken, "at-3");
  assert.equal(set.refreshToken, SECRETS.refreshToken);

  service = endpoint({ answer: () => ({ status: 503, body: html, headers: { "retry-after": "0" } }) });
  e = await failure(refreshGrant({ ...OPTIONS, fetch: service.fetch }, SECRETS.refreshToken));
  assert.equal(e.status, 503);
  assert.equal(service.requests.length, 3, "a refresh is repeated at most twice");
});

test("a refresh token deleted by the 50-token cap: the password grant, exactly once", async () => {
  const rejected = { status: 403, body: { error: "invalid_grant", error_description: "refresh token not found" } };
  const service = endpoint({ answer: (body) => (body.refresh_token === SECRETS.refreshToken ? rejected : undefined) });
  const events = [];
  const provider = createTokenProvider({
    ...OPTIONS,
    username: "u@acme.test",
    password: SECRETS.password,
    refreshToken: SECRETS.refreshToken,
    fetch: service.fetch,
    onEvent: (e) => events.push(e),
  });
  const tokens = await Promise.all(Array.from({ length: 20 }, () => provider.getToken()));
  assert.ok(tokens.every((t) => t.token === "at-2"));
  assert.deepEqual(
    service.requests.map((r) => r.body.grant_type),
    ["refresh_token", "password"],
  );
  // The new refresh token is used next.
  assert.equal((await provider.getToken("unauthorized")).token, "at-3");
  assert.equal(service.requests[2].body.refresh_token, "rt-2");
  assert.deepEqual(
    events.map((e) => [e.grant, e.ok, e.status]),
    [
      ["refresh_token", false, 403],
      ["password", true, 200],
      ["refresh_token", true, 200],
    ],
  );
});

test("a rejected refresh token without a password says a new sign-in is needed", async () => {
  const service = endpoint({
    answer: () => ({ status: 400, body: { error: "invalid_grant", error_description: `token ${SECRETS.refreshToken} expired` } }),
  });
  const provider = createTokenProvider({ ...OPTIONS, refreshToken: SECRETS.refreshToken, fetch: service.fetch });
  const e = await failure(provider.getToken());
  assert.equal(e.code, "invalid_grant");
  assert.match(e.message, /the refresh token was rejected: a new sign-in is needed/);
  assert.match(e.message, /token \[redacted\] expired/);
  assertNoSecret(e.message);
  assertNoSecret(JSON.stringify(e.details));
  assert.equal(service.requests.length, 1);
});

test("a token endpoint that hangs: the grant times out, every waiting caller gets the error, the next call tries again", async () => {
  const service = endpoint({ answer: (_, n) => (n === 1 ? { hang: true } : undefined) });
  const provider = createTokenProvider({
    ...OPTIONS,
    username: "u@acme.test",
    password: SECRETS.password,
    timeoutMs: 300,
    fetch: service.fetch,
  });
  const results = await Promise.allSettled(Array.from({ length: 5 }, () => provider.getToken()));
  assert.ok(results.every((r) => r.status === "rejected" && r.reason.kind === "timeout"), inspect(results));
  assert.match(results[0].reason.message, /password grant timed out after 300 ms/);
  assert.equal(service.requests.length, 1);
  assert.equal((await provider.getToken()).token, "at-2");
});

test("expiresAt comes from expires_in, never from the JWT", async () => {
  const payload = Buffer.from(JSON.stringify({ exp: Math.floor(Date.now() / 1000) + 86_400 })).toString("base64url");
  const jwt = `eyJhbGciOiJSUzI1NiJ9.${payload}.c2lnbmF0dXJl`;
  const service = endpoint({ answer: () => ({ status: 200, body: { access_token: jwt, expires_in: 120, refresh_token: "r" } }) });
  const before = Date.now();
  const set = await passwordGrant({ ...OPTIONS, fetch: service.fetch }, { username: "u@acme.test", password: SECRETS.password });
  assert.equal(set.accessToken, jwt);
  assert.ok(set.expiresAt >= before + 120_000 && set.expiresAt <= Date.now() + 120_000, String(set.expiresAt - before));
  assert.deepEqual(Object.keys(set).sort(), ["accessToken", "expiresAt", "lifetimeMs", "refreshToken", "tokenType"]);
  assert.equal(set.lifetimeMs, 120_000, "the lifetime expires_in gave, recorded with the set");
});

test("the authorization-code grant sends the code and the redirect URI; a code is never repeated", async () => {
  let service = endpoint();
  const set = await authorizationCodeGrant(
    { ...OPTIONS, fetch: service.fetch },
    { code: "c0de-XYZ", redirectUri: "https://portal.example.com/api/auth/callback" },
  );
  assert.equal(set.accessToken, "at-1");
  assert.equal(set.refreshToken, "rt-1");
  assert.equal(set.tokenType, "Bearer");
  assert.deepEqual(service.requests[0].body, {
    grant_type: "authorization_code",
    client_id: "dev-client",
    client_secret: SECRETS.clientSecret,
    code: "c0de-XYZ",
    redirect_uri: "https://portal.example.com/api/auth/callback",
  });
  service = endpoint({ answer: () => ({ status: 503, body: { error: "temporarily_unavailable" } }) });
  const e = await failure(
    authorizationCodeGrant({ ...OPTIONS, fetch: service.fetch }, { code: "c0de-XYZ", redirectUri: "https://p.example.com/cb" }),
  );
  assert.equal(e.status, 503);
  assert.equal(service.requests.length, 1);
});

test("bad options reject every getToken alike, naming the field, never a value", async () => {
  const cases = [
    [{ ...OPTIONS, clientSecret: undefined, username: "u", password: SECRETS.password }, "invalid options.clientSecret: is required"],
    [{ ...OPTIONS, username: "u" }, "invalid options.password: is required with username"],
    [{ ...OPTIONS }, "invalid options: give username and password, or a refreshToken, or a store that holds a token set"],
    [{ ...OPTIONS, password: 12345678, username: "u" }, "invalid options.password: must be a string"],
    [{ ...OPTIONS, refreshToken: "r", store: { get() {} } }, "invalid options.store: must be a Store"],
    [{ ...OPTIONS, refreshToken: "r", refreshBefore: 5 }, "invalid options.refreshBefore: is not a known option"],
  ];
  for (const [options, says] of cases) {
    const provider = createTokenProvider(options);
    for (let i = 0; i < 2; i++) {
      const e = await failure(provider.getToken());
      assert.equal(e.kind, "invalid_input", says);
      assert.ok(e.message.startsWith(says), `${e.message} / ${says}`);
      assert.ok(!e.message.includes("12345678"));
    }
  }
  const e = await failure(passwordGrant({ ...OPTIONS, fetch: endpoint().fetch }, { username: "u" }));
  assert.equal(e.message, "invalid credentials.password: is required");
  // A wrong base URL is refused where it is given (tests/node/base_url.test.mjs for every entry).
  assert.throws(
    () => createTokenProvider({ ...OPTIONS, baseUrl: "http://acme.example.com", refreshToken: "r" }),
    (e) => e.kind === "invalid_input" && e.message.startsWith("invalid options.baseUrl: must use https"),
  );
});

test("a closed provider rejects; printing a provider shows no secret", async () => {
  const service = endpoint();
  const provider = createTokenProvider({ ...OPTIONS, username: "u@acme.test", password: SECRETS.password, fetch: service.fetch });
  await provider.getToken();
  for (const printed of [inspect(provider), JSON.stringify(provider), String(provider), `${provider}`]) {
    assertNoSecret(printed, ["at-1", "rt-1"]);
    assert.match(printed, /dev-client/);
  }
  provider.close();
  const e = await failure(provider.getToken());
  assert.equal(e.kind, "invalid_input");
  assert.match(e.message, /this token provider was closed/);
});

test("a store shared by providers: one grant for all, and a restart reuses the stored refresh token", async () => {
  const service = endpoint({ expiresIn: 3600 });
  const store = testStore();
  const make = (events) =>
    createTokenProvider({
      ...OPTIONS,
      username: "admin@acme.test",
      password: SECRETS.password,
      store,
      fetch: service.fetch,
      onEvent: (e) => events?.push(e),
    });
  const events = [];
  const providers = [make(), make(events), make()];
  const tokens = await Promise.all(providers.flatMap((p) => Array.from({ length: 30 }, () => p.getToken())));
  assert.ok(tokens.every((t) => t.token === "at-1"));
  assert.equal(service.requests.length, 1);
  const [key] = [...store.values.keys()].filter((k) => !k.endsWith(":refreshing"));
  assert.equal(key, `tokens:${BASE}:dev-client:admin@acme.test`);
  assertNoSecret(key);
  // A restart (a new provider on the same store) whose token is refused: a refresh, no password grant.
  const restarted = make();
  assert.equal((await restarted.getToken()).token, "at-1");
  assert.equal((await restarted.getToken("unauthorized")).token, "at-2");
  assert.deepEqual(
    service.requests.map((r) => [r.body.grant_type, r.body.refresh_token]),
    [
      ["password", undefined],
      ["refresh_token", "rt-1"],
    ],
  );
  // The others read the new set from the store instead of granting again.
  providers[0].invalidate();
  assert.equal((await providers[0].getToken()).token, "at-2");
  assert.equal(service.requests.length, 2);
  assert.ok(events.some((e) => e.type === "shared"));
});

test("the margin: refreshBeforeMs (default 60 s) at most a quarter of the token's lifetime: 5 s tokens are refreshed once per lifetime", async (t) => {
  t.mock.timers.enable({ apis: ["Date"], now: Date.now() });
  const service = endpoint({ expiresIn: 5 });
  const provider = createTokenProvider({ ...OPTIONS, username: "u@acme.test", password: SECRETS.password, fetch: service.fetch });
  assert.equal((await provider.getToken()).token, "at-1");
  // Due 1.25 s (a quarter of 5 s) before expiry: cached until then.
  t.mock.timers.tick(3_700);
  assert.equal((await provider.getToken()).token, "at-1");
  t.mock.timers.tick(100);
  assert.equal((await provider.getToken()).token, "at-2");
  // Over 20 s of calls every 100 ms: one grant per 3.75 s of the token's 5 s.
  for (let i = 0; i < 200; i++) {
    t.mock.timers.tick(100);
    await provider.getToken();
  }
  const grants = service.requests.length;
  assert.ok(grants >= 2 + 5 && grants <= 2 + 6, `${grants} grants in 23.8 s of 5 s tokens`);
  // A margin under the quarter is kept: 500 ms.
  const tight = endpoint({ expiresIn: 5 });
  const p = createTokenProvider({ ...OPTIONS, username: "u@acme.test", password: SECRETS.password, fetch: tight.fetch, refreshBeforeMs: 500 });
  await p.getToken();
  t.mock.timers.tick(4_400);
  await p.getToken();
  assert.equal(tight.requests.length, 1);
  t.mock.timers.tick(200);
  await p.getToken();
  assert.equal(tight.requests.length, 2);
});

test("the store's claim outlasts the holder's whole grant, its retries included", async () => {
  const service = endpoint();
  const store = testStore();
  const claims = [];
  const recording = { ...store, claim: (key, ttlMs) => (claims.push(ttlMs), store.claim(key, ttlMs)) };
  const provider = createTokenProvider({ ...OPTIONS, username: "u@acme.test", password: SECRETS.password, store: recording, fetch: service.fetch, timeoutMs: 1_000 });
  assert.equal((await provider.getToken()).token, "at-1");
  // 3 attempts of timeoutMs, 2 waits of at most 5 s between them, 4 store calls of at most 2 s, 5 s.
  assert.deepEqual(claims, [3 * 1_000 + 2 * 5_000 + 4 * 2_000 + 5_000]);
});

test("a provider waits for another's refresh, and takes over when that claim expires", async () => {
  const service = endpoint({ answer: (_, n) => (n === 1 ? { delayMs: 400 } : undefined) });
  const store = testStore();
  const make = () =>
    createTokenProvider({ ...OPTIONS, username: "u@acme.test", password: SECRETS.password, store, fetch: service.fetch, timeoutMs: 2000 });
  const [a, b] = [make(), make()];
  const [ta, tb] = await Promise.all([a.getToken(), sleep(50).then(() => b.getToken())]);
  assert.equal(ta.token, "at-1");
  assert.equal(tb.token, "at-1");
  assert.equal(service.requests.length, 1);

  // A claim left by a process that died: the others proceed once it expires.
  const orphan = testStore();
  await orphan.claim(`tokens:${BASE}:dev-client:u@acme.test:refreshing`, 700);
  const started = Date.now();
  const c = createTokenProvider({
    ...OPTIONS,
    username: "u@acme.test",
    password: SECRETS.password,
    store: orphan,
    fetch: service.fetch,
    timeoutMs: 1000,
  });
  assert.equal((await c.getToken()).token, "at-2");
  assert.ok(Date.now() - started >= 600, `waited ${Date.now() - started} ms`);
});

test("a store that fails or hangs: the provider goes on by itself, and says so", async (t) => {
  const service = endpoint();
  const events = [];
  const failing = {
    ...testStore(),
    get: async () => {
      throw new Error(`connection refused (pw ${SECRETS.password})`);
    },
  };
  const provider = createTokenProvider({
    ...OPTIONS,
    username: "u@acme.test",
    password: SECRETS.password,
    store: failing,
    fetch: service.fetch,
    onEvent: (e) => events.push(e),
  });
  assert.equal((await provider.getToken()).token, "at-1");
  const unavailable = events.filter((e) => e.type === "storeUnavailable");
  assert.equal(unavailable.length, 1);
  assert.equal(unavailable[0].operation, "get");
  assert.match(unavailable[0].reason, /store\.get failed: connection refused \(pw \[redacted\]\)/);
  assertNoSecret(JSON.stringify(events), ["at-1", "rt-1"]);

  let hangingGets = 0;
  const hanging = { ...testStore(), get: () => (hangingGets++, new Promise(() => {})) };
  const slow = createTokenProvider({
    ...OPTIONS,
    username: "u@acme.test",
    password: SECRETS.password,
    store: hanging,
    fetch: service.fetch,
    onEvent: (e) => events.push(e),
  });
  // On a mocked clock (setTimeout and Date): the store's get is given up after its 2000 ms, not
  // sooner, and the grant follows at once (was: 1900 <= wall-clock ms < 5000).
  t.mock.timers.enable({ apis: ["setTimeout", "Date"], now: Date.now() });
  const { value: first, ms: waited } = await onMockedClock(t, slow.getToken(), "getToken with a store that never answers", { stepMs: 100 });
  assert.equal(first.token, "at-2");
  assert.ok(waited >= 2000 && waited <= 2100, `waited ${waited} mocked ms`);
  assert.equal(hangingGets, 1, "one get, given up");
  assert.match(events.at(-2)?.reason ?? events.at(-1)?.reason, /did not answer within 2000 ms/);
  // While the store is left aside and the token valid: no store call, no grant, no mocked time
  // (was: < 500 wall-clock ms).
  const grants = service.requests.length;
  const { value: again, ms: againMs } = await onMockedClock(t, slow.getToken(), "getToken with the store left aside");
  assert.equal(again.token, "at-2");
  assert.equal(againMs, 0);
  assert.equal(hangingGets, 1, "the store was not asked again");
  assert.equal(service.requests.length, grants, "no grant");
  t.mock.timers.reset();
  // A stored value that is not a token set is reported and replaced.
  const store = testStore();
  await store.set(`tokens:${BASE}:dev-client:u@acme.test`, "{not json");
  const healed = createTokenProvider({
    ...OPTIONS,
    username: "u@acme.test",
    password: SECRETS.password,
    store,
    fetch: service.fetch,
    onEvent: (e) => events.push(e),
  });
  assert.equal((await healed.getToken()).token, "at-3");
  assert.ok(events.some((e) => e.type === "storeUnavailable" && /not valid \(not JSON\)/.test(e.reason)));
  assert.match(await store.get(`tokens:${BASE}:dev-client:u@acme.test`), /"accessToken":"at-3"/);
});

test("a Client with getToken: provider.getToken asks again shortly before expiresAt, with no 401", async () => {
  const service = endpoint({ expiresIn: 1 });
  const provider = createTokenProvider({ ...OPTIONS, username: "u@acme.test", password: SECRETS.password, fetch: service.fetch });
  const seen = [];
  const reasons = [];
  const api = async (request) => {
    seen.push(request.headers.get("authorization"));
    return Response.json([]);
  };
  const client = new Client({
    baseUrl: BASE,
    fetch: api,
    getToken: (reason) => {
      reasons.push(reason);
      return provider.getToken(reason);
    },
  });
  await client.listWebhooks();
  await sleep(850);
  await client.listWebhooks();
  await client.listWebhooks();
  assert.deepEqual(seen, ["Bearer at-1", "Bearer at-2", "Bearer at-2"]);
  assert.deepEqual(reasons, ["initial", "expiring"]);
  client.free();
});

test("a Client's getToken may give { token, expiresAt }; a bad one is refused by name", async () => {
  const api = async () => Response.json([]);
  let n = 0;
  const client = new Client({
    baseUrl: BASE,
    fetch: api,
    getToken: () => ({ token: `tok-${++n}`, expiresAt: "tomorrow" }),
  });
  const e = await failure(client.listWebhooks());
  assert.equal(e.kind, "invalid_input");
  assert.equal(e.message, "invalid options.getToken: must return a token or { token, expiresAt }");
  const other = new Client({ baseUrl: BASE, fetch: api, getToken: () => ({ expiresAt: Date.now() + 1000 }) });
  const e2 = await failure(other.listWebhooks());
  assert.equal(e2.message, "invalid options.getToken: must return a token or { token, expiresAt }");
  // An expiry already past by this clock (skew) is ignored: the token is used until a 401.
  const reasons = [];
  const skewed = new Client({
    baseUrl: BASE,
    fetch: api,
    getToken: (reason) => {
      reasons.push(reason);
      return { token: "tok", expiresAt: Date.now() - 60_000 };
    },
  });
  await skewed.listWebhooks();
  await skewed.listWebhooks();
  assert.deepEqual(reasons, ["initial"]);
});

test("estatekit/auth's browser entry refuses to load, saying why", async () => {
  const e = await failure(import(new URL("auth.js", pkg).href));
  assert.match(e.message, /^estatekit\/auth is for servers .*client secret, which must never ship to a browser/);
});
