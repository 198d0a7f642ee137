// The browser's token, both sides, against pkg/ (`make test-node`) and the in-process emulator of
// estatekit/testing: estatekit/auth's createTokenRoute (the signed-in staff member's own token
// from the app's session, same origin only, never cached, a rotated set written back, 401 when no
// one is signed in, never a token provider's token) and estatekit/token's createSessionToken (the
// route's answer for the Client, its 401 as the sign-in-required ApiError, clear() reaching the
// other tabs through BroadcastChannel).
import test from "node:test";
import assert from "node:assert/strict";

const pkg = new URL("../../pkg/", import.meta.url).href;
const { createUserTokens, createTokenProvider, createTokenRoute, passwordGrant } = await import(`${pkg}auth.node.js`);
const { createTestService } = await import(`${pkg}testing.node.js`);
const { toNodeListener } = await import(`${pkg}webhooks.node.js`);
const { Client, isApiError } = await import(`${pkg}estatekit.node.js`);
const { createSessionToken, isSignInRequired } = await import(`${pkg}token.js`);

const CLIENT = { clientId: "staff-portal", clientSecret: "s3cret-of-the-portal-Q9" };
const USER = { username: "agent@acme.test", password: "pa55-of-the-agent-Q9" };
const APP = "http://portal.test";

/** The emulator, the user tokens, and a session map (cookie `sid` -> token set) of one staff member. */
async function portal(options = {}) {
  const emulator = await createTestService({ oauthClients: [CLIENT], users: [USER], rotateRefreshTokens: true, ...options });
  const oauth = { baseUrl: emulator.baseUrl, ...CLIENT, fetch: emulator.fetch };
  const userTokens = createUserTokens(oauth);
  const sessions = new Map();
  const sid = (request) => /(?:^|;\s*)sid=([^;]+)/.exec(request.headers.get("cookie") ?? "")?.[1];
  const writes = [];
  const route = createTokenRoute({
    userTokens,
    session: {
      get: (request) => sessions.get(sid(request)),
      set: (request, tokenSet) => {
        sessions.set(sid(request), tokenSet);
        writes.push(tokenSet);
        return { "set-cookie": `sid=${sid(request)}; Path=/; HttpOnly; SameSite=Lax` };
      },
    },
  });
  const signIn = async (id = "s1") => sessions.set(id, await passwordGrant(oauth, USER));
  return { emulator, route, sessions, writes, signIn };
}

/** A request of the route as a browser sends it. */
const request = (headers = {}, method = "POST") =>
  new Request(`${APP}/api/estate-token`, { method, headers: { cookie: "sid=s1", ...headers } });

/** Status, headers of interest and body of an answer (what the run prints). */
async function shown(response) {
  const headers = {};
  for (const name of ["cache-control", "vary", "content-type", "access-control-allow-origin", "access-control-allow-credentials", "set-cookie", "allow"]) {
    const value = response.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  const body = await response.json();
  return { status: response.status, headers, body };
}

/** The answer as printed: the token hidden (its length only). */
const printable = (answer) =>
  JSON.stringify({ ...answer, body: answer.body.token ? { ...answer.body, token: `<${answer.body.token.length} characters>` } : answer.body });

test.describe("createTokenRoute", () => {
  test.it("answers the signed-in staff member's own token, signed out 401, a cross-site request 403 (printed)", async () => {
    const { emulator, route, signIn } = await portal();
    await signIn();
    const signedIn = await shown(await route(request({ "sec-fetch-site": "same-origin" })));
    const signedOut = await shown(await route(request({ "sec-fetch-site": "same-origin", cookie: "" })));
    const crossSite = await shown(await route(request({ "sec-fetch-site": "cross-site", origin: "https://evil.example" })));
    for (const [name, answer] of [["signed in", signedIn], ["signed out", signedOut], ["cross-site", crossSite]]) {
      console.log(`token route, ${name}: ${printable(answer)}`);
      assert.equal(answer.headers["cache-control"], "no-store");
      assert.equal(answer.headers.vary, "Cookie");
      assert.equal(answer.headers["access-control-allow-origin"], undefined, "no CORS header");
      assert.equal(answer.headers["access-control-allow-credentials"], undefined, "no CORS header");
    }
    assert.equal(signedIn.status, 200);
    assert.deepEqual(Object.keys(signedIn.body).sort(), ["expiresAt", "token"], "the token and its expiry, nothing else (no refresh token)");
    assert.ok(signedIn.body.expiresAt > Date.now());
    assert.deepEqual(signedOut, { ...signedOut, status: 401, body: { error: "sign_in_required", message: "no one is signed in" } });
    assert.equal(crossSite.status, 403);
    assert.equal(crossSite.body.error, "cross_origin");
    // The token is the user's own: the service names the agent for it.
    const client = new Client({ baseUrl: emulator.baseUrl, token: signedIn.body.token, fetch: emulator.fetch });
    assert.ok(Array.isArray(await client.listWebhooks()));
    const me = await emulator.fetch(new Request(`${emulator.baseUrl}/accounts/api/userinfo`, { headers: { authorization: `Bearer ${signedIn.body.token}` } }));
    assert.equal((await me.json()).email, USER.username);
    client.free();
  });

  test.it("answers only its own origin: Sec-Fetch-Site same-origin, or a POST whose Origin is its own", async () => {
    const { route, signIn } = await portal();
    await signIn();
    const status = async (headers, method) => (await route(request(headers, method))).status;
    assert.equal(await status({ "sec-fetch-site": "same-origin" }, "GET"), 200);
    assert.equal(await status({ "sec-fetch-site": "same-origin" }, "POST"), 200);
    assert.equal(await status({ "sec-fetch-site": "same-site" }), 403, "a sibling subdomain");
    assert.equal(await status({ "sec-fetch-site": "none" }), 403, "typed in the address bar");
    assert.equal(await status({ "sec-fetch-site": "cross-site", origin: APP }), 403, "Sec-Fetch-Site wins over a forged Origin");
    // No Sec-Fetch-Site (an older browser): a POST with its own Origin only.
    assert.equal(await status({ origin: APP }, "POST"), 200);
    assert.equal(await status({ origin: "https://evil.example" }, "POST"), 403);
    assert.equal(await status({ origin: "null" }, "POST"), 403);
    assert.equal(await status({}, "POST"), 403, "no Origin");
    assert.equal(await status({ origin: APP }, "GET"), 403, "a GET without Sec-Fetch-Site");
    const preflight = await route(request({ origin: "https://evil.example", "access-control-request-method": "POST" }, "OPTIONS"));
    assert.equal(preflight.status, 405);
    assert.equal(preflight.headers.get("allow"), "GET, POST");
    assert.equal(preflight.headers.get("access-control-allow-origin"), null);
  });

  test.it("checks Origin against options.origin when given (a proxy in front)", async () => {
    const { emulator } = await portal();
    const userTokens = createUserTokens({ baseUrl: emulator.baseUrl, ...CLIENT, fetch: emulator.fetch });
    const route = createTokenRoute({ userTokens, origin: "https://portal.example.com", session: { get: () => null, set() {} } });
    const at = (origin) => route(new Request("http://10.0.0.7:3000/api/estate-token", { method: "POST", headers: { origin } }));
    assert.equal((await at("https://portal.example.com")).status, 401, "past the origin check: no one signed in");
    assert.equal((await at("http://10.0.0.7:3000")).status, 403);
    assert.throws(() => createTokenRoute({ userTokens, origin: "https://portal.example.com/", session: { get() {}, set() {} } }), /invalid options\.origin/);
  });

  test.it("writes a refreshed (rotated) set back to the session, with the session's headers", async () => {
    const { route, sessions, writes, signIn } = await portal();
    await signIn();
    const held = sessions.get("s1");
    sessions.set("s1", { ...held, expiresAt: Date.now() + 1_000 }); // due
    const response = await route(request({ "sec-fetch-site": "same-origin" }));
    const { token, expiresAt } = await response.json();
    assert.equal(response.status, 200);
    assert.equal(writes.length, 1);
    assert.equal(writes[0].accessToken, token);
    assert.equal(writes[0].expiresAt, expiresAt);
    assert.notEqual(writes[0].refreshToken, held.refreshToken, "rotated");
    assert.equal(sessions.get("s1"), writes[0]);
    assert.equal(response.headers.get("set-cookie"), "sid=s1; Path=/; HttpOnly; SameSite=Lax");
    // Not due: given back as held, nothing written.
    await route(request({ "sec-fetch-site": "same-origin" }));
    assert.equal(writes.length, 1);
  });

  test.it("401 when the sign-in has ended, 503 when the session cannot be read", async () => {
    const { emulator, route, sessions, signIn } = await portal();
    await signIn();
    sessions.set("s1", { accessToken: "x", expiresAt: Date.now() - 1, refreshToken: "refused-refresh-token" });
    const ended = await route(request({ "sec-fetch-site": "same-origin" }));
    assert.equal(ended.status, 401);
    assert.equal((await ended.json()).error, "sign_in_required");
    const userTokens = createUserTokens({ baseUrl: emulator.baseUrl, ...CLIENT, fetch: emulator.fetch });
    const broken = createTokenRoute({ userTokens, session: { get: () => Promise.reject(new Error("db down")), set() {} } });
    const answer = await broken(request({ "sec-fetch-site": "same-origin" }));
    assert.equal(answer.status, 503);
    assert.ok(!(await answer.text()).includes("db down"));
  });

  test.it("cannot be made from a token provider (the service account's token), nor from anything but createUserTokens", async () => {
    const { emulator } = await portal();
    const provider = createTokenProvider({ baseUrl: emulator.baseUrl, ...CLIENT, ...USER, fetch: emulator.fetch });
    const session = { get: () => null, set() {} };
    assert.throws(
      () => createTokenRoute({ userTokens: provider, session }),
      (e) => isApiError(e) && e.kind === "invalid_input" && /token provider \(createTokenProvider\).*must never reach a browser/.test(e.message),
    );
    assert.throws(() => createTokenRoute({ userTokens: { fresh: async (set) => set }, session }), /must be the user tokens of createUserTokens/);
    assert.throws(() => createTokenRoute({ userTokens: { ...provider, fresh: provider.getToken }, session }), /token provider/);
    const userTokens = createUserTokens({ baseUrl: emulator.baseUrl, ...CLIENT, fetch: emulator.fetch });
    assert.throws(() => createTokenRoute({ userTokens }), /invalid options\.session/);
    assert.throws(() => createTokenRoute({ userTokens, session: { get() {} } }), /invalid options\.session/);
    assert.throws(() => createTokenRoute(undefined), /invalid options\.userTokens/);
  });

  test.it("serves node:http through toNodeListener", async () => {
    const { createServer } = await import("node:http");
    const { route, sessions, signIn } = await portal();
    await signIn();
    const server = createServer(toNodeListener(route));
    await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${server.address().port}/api/estate-token`;
      const ok = await fetch(url, { method: "POST", headers: { cookie: "sid=s1", "sec-fetch-site": "same-origin" } });
      assert.equal(ok.status, 200);
      assert.equal((await ok.json()).token, sessions.get("s1").accessToken);
      assert.equal(ok.headers.get("cache-control"), "no-store");
      const own = await fetch(url, { method: "POST", headers: { cookie: "sid=s1", origin: new URL(url).origin } });
      assert.equal(own.status, 200, "Origin checked against the listener's own (http://host)");
      const cross = await fetch(url, { method: "POST", headers: { cookie: "sid=s1", origin: "https://evil.example" } });
      assert.equal(cross.status, 403);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

/** A page's fetch that sends what a browser adds (its Cookie, Sec-Fetch-Site) to the route. */
const browserFetch = (route, cookie) => async (input, init) =>
  route(new Request(new URL(input, APP), { ...init, headers: { ...init?.headers, cookie: cookie(), "sec-fetch-site": "same-origin" } }));

test.describe("createSessionToken", () => {
  test.it("hands the Client { token, expiresAt }: the Client calls the service with the staff member's token", async () => {
    const { emulator, route, signIn } = await portal();
    await signIn();
    let asked = 0;
    const tokens = createSessionToken({
      url: "/api/estate-token",
      fetch: (input, init) => (asked++, browserFetch(route, () => "sid=s1")(input, init)),
    });
    const client = new Client({ baseUrl: emulator.baseUrl, getToken: tokens.getToken, fetch: emulator.fetch });
    await Promise.all([client.listWebhooks(), client.listWebhooks(), client.listWebhooks()]);
    assert.equal(asked, 1, "asked once for many calls");
    const answer = await tokens.getToken();
    assert.deepEqual(Object.keys(answer).sort(), ["expiresAt", "token"]);
    client.free();
  });

  test.it("the route's 401 is the sign-in-required ApiError, a 503 a plain failure the Client reports", async () => {
    const { emulator, route } = await portal();
    const tokens = createSessionToken({ url: "/api/estate-token", fetch: browserFetch(route, () => "sid=nobody") });
    const e = await tokens.getToken().then(() => assert.fail("resolved"), (e) => e);
    assert.ok(isApiError(e));
    assert.equal(e.kind, "unauthorized");
    assert.equal(e.status, 401);
    assert.equal(e.retryable, false);
    assert.equal(e.signInRequired, true);
    assert.ok(isSignInRequired(e));
    assert.match(e.message, /sign-in required.*\/api\/estate-token answered 401: no one is signed in/);
    // Through the Client: the call's error is (or is caused by) it.
    const client = new Client({ baseUrl: emulator.baseUrl, getToken: tokens.getToken, fetch: emulator.fetch });
    const call = await client.listWebhooks().then(() => assert.fail("resolved"), (e) => e);
    assert.ok(isSignInRequired(call), `${call.kind}: ${call.message}`);
    client.free();
    const down = createSessionToken({ url: "/t", fetch: async () => new Response('{"error":"token_unavailable","message":"try again"}', { status: 503 }) });
    const failed = await down.getToken().then(() => assert.fail("resolved"), (e) => e);
    assert.ok(!isSignInRequired(failed));
    assert.match(failed.message, /token route \/t answered HTTP 503: try again/);
    const garbled = createSessionToken({ url: "/t", fetch: async () => new Response("<html>", { status: 200 }) });
    assert.match((await garbled.getToken().catch((e) => e)).message, /not \{ token, expiresAt \}/);
  });

  test.it("clear() reaches the other tabs (BroadcastChannel) and drops a token still on its way", async () => {
    const { route, signIn } = await portal();
    await signIn();
    const channel = `estatekit-token-test-${process.pid}`;
    let release;
    const held = new Promise((resolve) => (release = resolve));
    const tabA = createSessionToken({ url: "/api/estate-token", channel, fetch: async (input, init) => (await held, browserFetch(route, () => "sid=s1")(input, init)) });
    const tabB = createSessionToken({ url: "/api/estate-token", channel, fetch: browserFetch(route, () => "sid=s1") });
    // A third tab of the page, as a plain BroadcastChannel (it keeps this process alive while it
    // waits: the entry's channels never do): it sees the message tabA sends.
    const tabC = new BroadcastChannel(channel);
    const seen = new Promise((resolve) => (tabC.onmessage = (event) => resolve(event.data)));
    const cleared = [];
    tabA.onClear(() => cleared.push("a"));
    const heard = new Promise((resolve) => tabB.onClear(() => resolve(cleared.push("b"))));
    const onItsWay = tabA.getToken();
    tabA.clear();
    release();
    const e = await onItsWay.then(() => assert.fail("resolved"), (e) => e);
    assert.ok(isSignInRequired(e), "a token asked for before the sign-out is not handed out after it");
    assert.deepEqual(await seen, { type: "clear" }, "nothing but the sign-out is sent (no token)");
    await heard;
    tabC.close();
    assert.deepEqual(cleared.sort(), ["a", "b"]);
    // A later sign-in is served again.
    assert.equal(typeof (await tabA.getToken()).token, "string");
  });

  test.it("refuses options it cannot use", () => {
    assert.throws(() => createSessionToken({}), (e) => isApiError(e) && e.kind === "invalid_input" && /options\.url/.test(e.message));
    assert.throws(() => createSessionToken({ url: "/t", fetch: 1 }), /options\.fetch/);
    assert.throws(() => createSessionToken({ url: "https://other.example/token" }), /own origin/);
    assert.throws(() => createSessionToken("//other.example/token"), /own origin/);
    assert.equal(typeof createSessionToken("/api/estate-token").getToken, "function");
  });
});
