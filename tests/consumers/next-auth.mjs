// Staff signed in with next-auth 4 in the Next.js consumer (tests/consumers/next/: lib/signin.ts,
// app/me, app/api/me, app/api/auth/[...nextauth]), run by next.test.mjs on its first build (no
// build of its own): two servers of that build behind a round-robin proxy written here, sharing a real
// Redis (estatekit/store's createRedisStore on node-redis), against the native emulator with
// `--sign-in-page`, 5-second access tokens and rotating refresh tokens. Headless Chromium signs
// in through the emulator's form; a server component and a route handler call the service with
// the user's token, and so does a client page whose Client gets it from /api/me/token. Then, for about four expiries, rounds of 20 concurrent requests of that
// session (the route handler and the server component, half each), the session endpoint polled
// as SessionProvider does (its answer rewrites the session cookie), with the token endpoint
// delayed by an emulator fault, in two runs that differ only in ESTATEKIT_REFRESH (read when the
// servers start):
// - "fresh" (estatekit/auth's createUserTokens with its default refresh margin, successor
//   retention shorter than the run): no sign-out, no failed call, no refused refresh token, one
//   refresh grant per token generation (each one's access token used) and about one per expiry:
//   at most 1.5 (bounds below);
// - "guide" (the Auth.js guide's hand-written `jwt` refresh): besides the rounds one after the
//   other, a round is sent just after each expiry of the token the rounds used. A refresh by the
//   session poll cannot land before TOKEN_DELAY_MS after that expiry, so that round's requests
//   (sent within a few ms, well inside the delay) all hold the expired token's refresh token,
//   and their refreshes overlap: at most one of their grants can pass; the other requests are
//   told to sign in again. Refused refresh grants and sign-outs follow, for certain.
// Both runs' counts are printed side by side.
import test from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { createServer, request } from "node:http";
import { once } from "node:events";
import { setTimeout as sleep } from "node:timers/promises";
import { launchChromium } from "../../scripts/local.mjs";
import { Jar, REDIS_SERVER, registerWebhook, startEmulator, startRedis } from "./lib.mjs";
import { preResult, startApp } from "./next-app.mjs";

/** The emulator's access-token lifetime (s). */
const TTL_S = 5;
/** Requests of a round, sent at once with the same session cookie. */
const CONCURRENT = 20;
/** How long the rounds go on after the sign-in: a little over four expiries. */
const RUN_MS = 4 * TTL_S * 1000 + 1_500;
/** The pause between the end of a round and the start of the next. */
const ROUND_PAUSE_MS = 250;
/** SessionProvider's refetchInterval in the test: the session endpoint is polled this long after its last answer. */
const POLL_MS = 1_000;
/** The token endpoint's delay (the emulator's fault), longer than the spread of a round's requests. */
const TOKEN_DELAY_MS = 1_500;
/**
 * fresh: a set is due this long before it expires. The default options (refreshBeforeMs 60 s) on
 * TTL_S tokens: at most a quarter of the lifetime the set records (docs/auth.md, the refresh
 * margin). The sign-in's set records the time left when its `jwt` callback ran, a little less.
 */
const REFRESH_BEFORE_MS = (TTL_S * 1000) / 4;
/**
 * fresh: how long the successor of a rotated refresh token is kept. Shorter than the run, and
 * longer than the session cookie can lag behind a refresh (a poll's interval and its own time,
 * the delayed refresh included), which is what it must cover.
 */
const RETENTION_MS = 15_000;
const USER = { email: "admin@acme.test", password: "dev-password" };
const SECRET = "next-auth-secret-of-the-consumer-test-0123456789";

/** Every process and server this file starts, ended by the suite's `after` if a test could not. */
const running = new Set();
const track = (thing) => (running.add(thing), thing);

/**
 * The round-robin proxy in front of the portal's servers (set later with `route`): each request
 * goes to the next server, its answer comes back as it is (every Set-Cookie kept).
 */
async function startProxy() {
  let targets = [];
  let next = 0;
  const hop = new Set(["connection", "keep-alive", "transfer-encoding"]);
  const server = createServer((req, res) => {
    const target = new URL(targets[next++ % targets.length]);
    const upstream = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      const headers = Object.fromEntries(Object.entries(answer.headers).filter(([k]) => !hop.has(k)));
      res.writeHead(answer.statusCode, headers);
      answer.pipe(res);
    });
    upstream.on("error", (e) => {
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
      res.end(`proxy: ${e.message}`);
    });
    req.pipe(upstream);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    route: (urls) => void (targets = urls),
    stop: async () => {
      const closed = new Promise((resolve) => server.close(resolve));
      server.closeAllConnections();
      await closed;
    },
  };
}

/**
 * Signs in through the proxy in headless Chromium: next-auth's sign-in page, its button, the
 * emulator's form (the user's e-mail and password), back to /me (the server component calling
 * the service with the user's token). Returns what /me showed and the session's cookies.
 */
async function signIn(proxy, emulator) {
  const browser = await launchChromium();
  try {
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      return await signInOn(page, context, proxy, emulator);
    } catch (e) {
      const text = await page.evaluate(() => document.body?.innerText ?? "").catch(() => "");
      throw new Error(`signing in in Chromium: ${e.message}\n  at ${page.url()}: ${text.slice(0, 600)}`);
    }
  } finally {
    await browser.close();
  }
}

/** The sign-in steps of `signIn` on its page. */
async function signInOn(page, context, proxy, emulator) {
  await page.goto(`${proxy.url}/api/auth/signin?callbackUrl=${encodeURIComponent(`${proxy.url}/me`)}`);
  await Promise.all([page.waitForURL((u) => u.href.startsWith(emulator.url)), page.click('form[action*="/api/auth/signin/"] button')]);
  await page.fill("#email", USER.email);
  await page.fill("#password", USER.password);
  await Promise.all([page.waitForURL((u) => u.href.startsWith(`${proxy.url}/me`), { timeout: 30_000 }), page.press("#password", "Enter")]);
  const me = JSON.parse(preResult(await page.content()) ?? "null");
  const session = await page.evaluate(() => fetch("/api/auth/session").then((r) => r.json()));
  // A client page's Client, its token from /api/me/token (the handoff, behind the session).
  await page.goto(`${proxy.url}/me/token`);
  await page.waitForFunction(() => document.body.dataset.result, null, { timeout: 30_000 });
  const browser = JSON.parse(await page.evaluate(() => document.body.dataset.result));
  const cookies = await context.cookies(proxy.url);
  return { me, session, browser, cookies };
}

/** One request of the session: `ok` (the service's answer), `signOut` (sign in again) or `failed`. */
async function call(base, path, cookie, hookId) {
  const sentAt = Date.now();
  try {
    const res = await fetch(`${base}${path}`, { headers: { cookie }, redirect: "manual", signal: AbortSignal.timeout(30_000) });
    const text = await res.text();
    const body = JSON.parse(path === "/me" ? preResult(text) ?? "null" : text);
    if (body?.ok === true && body.ids?.includes(hookId)) return { outcome: "ok", sentAt, tokenId: body.tokenId, expiresAt: body.expiresAt };
    if (body?.signInRequired === true || body?.signedIn === false) return { outcome: "signOut", sentAt };
    return { outcome: "failed", sentAt, why: `${path}: HTTP ${res.status} ${JSON.stringify(body)}` };
  } catch (e) {
    return { outcome: "failed", sentAt, why: `${path}: ${e.message}` };
  }
}

/** One run of the portal in `mode`; returns what it counted. Everything it starts is stopped, also on failure. */
async function run(mode, variant) {
  const emulator = track(await startEmulator(["--sign-in-page", "--access-token-ttl", String(TTL_S), "--rotate-refresh-tokens"]));
  let redis;
  let proxy;
  const apps = [];
  try {
    redis = track(await startRedis());
    proxy = track(await startProxy());
    const hookId = await registerWebhook(emulator.url, { type: "UNIT_CREATED", url: "http://127.0.0.1:9/next-auth" });
    const env = {
      NEXTAUTH_URL: proxy.url,
      NEXTAUTH_SECRET: SECRET,
      ESTATEKIT_REFRESH: mode,
      ESTATEKIT_REDIS_URL: `redis://127.0.0.1:${redis.port}`,
      ESTATEKIT_SUCCESSOR_RETENTION_MS: String(RETENTION_MS),
      // No ESTATEKIT_REFRESH_BEFORE_MS: createUserTokens's default margin.
    };
    const started = await Promise.allSettled([0, 1].map(() => startApp(variant, emulator.url, env)));
    for (const s of started) if (s.status === "fulfilled") apps.push(track(s.value));
    for (const s of started) if (s.status === "rejected") throw s.reason;
    proxy.route(apps.map((a) => a.url));
    const logs = () => apps.map((a, i) => `server ${i}:\n    ${a.log()}`).join("\n  ");

    const signInStarted = Date.now();
    const signedIn = await signIn(proxy, emulator);
    const signInEnded = Date.now();
    const jar = new Jar();
    for (const c of signedIn.cookies) jar.set(c.name, c.value);
    const route = await call(proxy.url, "/api/me", jar.header(), hookId);

    // The token endpoint answers TOKEN_DELAY_MS late from now on (the sign-in is done).
    const fault = await fetch(`${emulator.url}/_emulator/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ method: "POST", path: "/accounts/oauth/token", delayMs: TOKEN_DELAY_MS, times: 100_000 }),
    });
    assert.equal(fault.status, 200, await fault.text());

    const results = [];
    const polls = { count: 0, signOuts: 0, failed: [] };
    const rounds = [];
    const deadline = signInEnded + RUN_MS;
    // A round: CONCURRENT requests sent at once with the jar's cookie (the same session).
    const sendRound = async (kind) => {
      const cookie = jar.header();
      const startedAt = Date.now();
      const round = await Promise.all(Array.from({ length: CONCURRENT }, (_, i) => call(proxy.url, i % 2 ? "/me" : "/api/me", cookie, hookId)));
      rounds.push({ kind, startedAt, endedAt: Date.now() });
      results.push(...round);
      learn(round);
    };
    // Besides the rounds one after the other, one round sent just after each expiry of a token
    // the rounds used: the jar then still holds that token's cookie, since a refresh by the
    // session poll cannot land before TOKEN_DELAY_MS after the expiry.
    let knownExpiry = 0;
    const expiryRounds = [];
    const learn = (round) => {
      const latest = Math.max(0, ...round.filter((r) => r.expiresAt).map((r) => r.expiresAt));
      if (latest <= knownExpiry) return;
      knownExpiry = latest;
      if (latest + 50 >= deadline) return;
      expiryRounds.push(sleep(latest + 50 - Date.now()).then(() => sendRound("at expiry")));
    };
    const polling = (async () => {
      while (Date.now() < deadline) {
        try {
          const res = await fetch(`${proxy.url}/api/auth/session`, { headers: { cookie: jar.header() }, signal: AbortSignal.timeout(30_000) });
          jar.take(res);
          const session = await res.json();
          polls.count++;
          if (!session?.user || session.error) polls.signOuts++;
        } catch (e) {
          polls.failed.push(e.message);
        }
        await sleep(POLL_MS);
      }
    })();
    while (Date.now() < deadline) {
      await sendRound("next");
      await sleep(ROUND_PAUSE_MS);
    }
    await polling;
    await Promise.all(expiryRounds);
    // A last round once no poll or round is under way: every refresh's token is used by a call.
    await sendRound("last");
    await fetch(`${emulator.url}/_emulator/faults`, { method: "DELETE" });
    const oauth = await (await fetch(`${emulator.url}/_emulator/oauth`)).json();

    const count = (outcome) => results.filter((r) => r.outcome === outcome).length;
    const lastSent = Math.max(...results.map((r) => r.sentAt));
    rounds.sort((x, y) => x.startedAt - y.startedAt);
    const gaps = rounds.slice(1).map((r, i) => r.startedAt - rounds[i].startedAt);
    return {
      mode,
      hookId,
      signedIn,
      route,
      logs,
      oauth,
      rounds: rounds.length,
      atExpiry: rounds.filter((r) => r.kind === "at expiry").length,
      calls: results.length,
      ok: count("ok"),
      failed: count("failed"),
      failures: results.filter((r) => r.outcome === "failed").map((r) => r.why),
      signOuts: count("signOut") + polls.signOuts,
      polls,
      tokensUsed: new Set([signedIn.me, route, ...results].filter((r) => r?.tokenId).map((r) => r.tokenId)).size,
      // From the sign-in's grant (its token's expiry, to the second, less TTL_S) to the last
      // request sent.
      spanMs: lastSent - (signedIn.me?.expiresAt ? signedIn.me.expiresAt - TTL_S * 1000 : signInStarted),
      maxGapMs: Math.max(0, ...gaps, rounds[0] ? rounds[0].startedAt - signInEnded : 0),
    };
  } finally {
    for (const a of apps) await a.stop();
    await proxy?.stop();
    await redis?.stop();
    await emulator.stop();
    for (const thing of [emulator, redis, proxy, ...apps]) running.delete(thing);
  }
}

/** A run's counts, as the table prints them. */
function counts(r) {
  const expiries = r.spanMs / (TTL_S * 1000);
  const per = (n) => (n / expiries).toFixed(2);
  return {
    "refresh grants": `${r.oauth.grants.refresh_token} (${per(r.oauth.grants.refresh_token)} per expiry)`,
    "refresh grants per expiry": per(r.oauth.grants.refresh_token),
    "rejected refresh grants": `${r.oauth.rejected.refresh_token} (${per(r.oauth.rejected.refresh_token)} per expiry)`,
    "sign-outs": `${r.signOuts} (${per(r.signOuts)} per expiry)`,
    "failed calls": `${r.failed} of ${r.calls} (${per(r.failed)} per expiry)`,
    expiries: expiries.toFixed(1),
    rounds: `${r.rounds} (${r.atExpiry} just after an expiry)`,
    "session polls": String(r.polls.count),
    "access tokens used": String(r.tokensUsed),
  };
}

/**
 * The tests of the staff sign-in, on the app as `variant` built it (next.test.mjs calls this in
 * the describe of its first build); `skip` is a reason to skip them (Chromium not asked for).
 */
export function describeSignedInStaff(variant, skip) {
  test.describe("staff signed in with next-auth 4, their tokens refreshed by two servers sharing Redis", { skip }, () => {
    const runs = {};
    test.before(() => {
      execFileSync(REDIS_SERVER, ["--version"]); // setup.sh installs it: nothing is skipped
    });
    test.after(async () => {
      for (const thing of running) await thing.stop();
    });

    test.it('with createUserTokens ("fresh", default options): a sign-in in Chromium, then 0 sign-outs, 0 failed calls, 0 refused refresh tokens, at most 1.5 refresh grants per expiry', { timeout: 180_000 }, async (t) => {
      const r = (runs.fresh = await run("fresh", variant));
      t.diagnostic(JSON.stringify(counts(r)));
      console.log(`[next-auth fresh] ${JSON.stringify(counts(r))}`);
      assert.equal(r.signedIn.me?.ok, true, `/me after the sign-in: ${JSON.stringify(r.signedIn.me)}\n  ${r.logs()}`);
      assert.equal(r.signedIn.me.email, USER.email);
      assert.deepEqual(r.signedIn.me.ids, [r.hookId], "the server component listed the user's account's webhooks");
      assert.equal(r.signedIn.session.user?.email, USER.email);
      assert.deepEqual(Object.keys(r.signedIn.session).sort(), ["expires", "user"], "the browser's session holds no token");
      assert.equal(r.route.outcome, "ok", r.route.why);
      assert.equal(r.signedIn.browser.ok, true, JSON.stringify(r.signedIn.browser));
      assert.deepEqual(r.signedIn.browser.ids, [r.hookId]);
      assert.deepEqual(r.signedIn.browser.asked, ["initial"], "the browser's Client asked the portal for the user's token once");
      assert.deepEqual(r.failures, [], `failed calls\n  ${r.logs()}`);
      assert.deepEqual(r.polls.failed, []);
      assert.equal(r.signOuts, 0);
      assert.equal(r.oauth.rejected.refresh_token, 0, "no refresh token was refused");
      assert.equal(r.oauth.grants.authorization_code, 1, "one sign-in");
      // Every refresh's access token was used, none was got twice: one grant per generation.
      assert.equal(r.tokensUsed, r.oauth.grants.refresh_token + 1);
      // At most one refresh per set that came due: a set lives TTL_S (the first one's expiry, and
      // so the span's start, rounded down to the second by next-auth) and is due
      // REFRESH_BEFORE_MS earlier, so refreshes are at least TTL_S - REFRESH_BEFORE_MS - 1 s apart.
      const most = Math.floor((r.spanMs + 1000) / (TTL_S * 1000 - REFRESH_BEFORE_MS - 1000));
      // At least one per token lifetime, the longest pause between rounds and a refresh's delay:
      // every call passed, each with a token younger than TTL_S, and a token is replaced at the
      // latest by the first round after its expiry.
      const least = Math.floor(r.spanMs / (TTL_S * 1000 + r.maxGapMs + TOKEN_DELAY_MS));
      assert.ok(r.oauth.grants.refresh_token >= least, `${r.oauth.grants.refresh_token} refreshes, at least ${least}`);
      assert.ok(r.oauth.grants.refresh_token <= most, `${r.oauth.grants.refresh_token} refreshes, at most ${most}`);
      // The issue's bound, with the default options: at most 1.5 refresh grants per expiry.
      const expiries = r.spanMs / (TTL_S * 1000);
      assert.ok(r.oauth.grants.refresh_token <= 1.5 * expiries, `${r.oauth.grants.refresh_token} refresh grants in ${expiries.toFixed(1)} expiries`);
    });

    test.it('with the guide\'s hand-written jwt refresh ("guide"): the race, refused refresh tokens and sign-outs', { timeout: 180_000 }, async (t) => {
      const r = (runs.guide = await run("guide", variant));
      t.diagnostic(JSON.stringify(counts(r)));
      console.log(`[next-auth guide] ${JSON.stringify(counts(r))}`);
      assert.equal(r.signedIn.me?.ok, true, `/me after the sign-in: ${JSON.stringify(r.signedIn.me)}\n  ${r.logs()}`);
      assert.equal(r.route.outcome, "ok", r.route.why);
      assert.ok(r.oauth.rejected.refresh_token > 0, "refresh tokens were refused");
      assert.ok(r.signOuts > 0, "the user was signed out");
    });

    test.it("prints both runs side by side", () => {
      assert.ok(runs.fresh && runs.guide, "both runs ran");
      const fresh = counts(runs.fresh);
      const guide = counts(runs.guide);
      const rows = Object.keys(fresh).map((k) => [k, fresh[k], guide[k]]);
      const widths = [0, 1, 2].map((i) => Math.max(...rows.map((row) => row[i].length), ["", "createUserTokens (fresh)", "the guide's jwt callback"][i].length));
      const line = (cells) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(" | ")} |`;
      const table = [line(["", "createUserTokens (fresh)", "the guide's jwt callback"]), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n");
      console.log(`[next-auth] ${CONCURRENT} concurrent requests per round, ${TTL_S} s access tokens, token endpoint delayed ${TOKEN_DELAY_MS} ms, two servers, Redis:\n${table}`);
    });
  });
}
