// estatekit/live with a real Redis and real processes (tests/consumers/live: the packed tarball,
// node-redis 5 and ioredis 5 as locked). Per Redis client, a fresh redis-server on a free loopback
// port and three app servers (tests/consumers/live/server.mjs: per account a receiver writing one
// Redis event log, and a stream route) sharing it:
// - two emulators (estatekit/testing, one account each) emit events of all 28 types (every tenth
//   with a forced redelivery) to the receivers, round robin over the servers alive; the test also
//   sends forged copies without the secret or with a wrong one (answered 401);
// - four simulated pages (two per account: the stream route over fetch, as EventSource reads it,
//   reconnecting to the next server with Last-Event-ID when their stream ends) follow the events;
// - mid-run, one server is SIGKILLed (its pages move to another and resume).
// Then the same on real pages, in one run: estatekit/subscribe in Chromium, Firefox and WebKit
// (browsers.mjs), a page per engine whose two frames are staff of the two accounts (six streams),
// following three servers behind one port (live/front.mjs: a small load balancer of the test's,
// which also cuts a frame's stream and refuses it for a while), the emulator's binary (lib.mjs)
// delivering 500 events of the 28 types (every tenth twice; some webhooks registered without the
// secret or with a wrong one: refused), a server SIGKILLed, every stream cut and restored, and a
// resume from a trimmed position (the reset event); the figures (per frame, lost, repeated, the
// delay from the receiver's answer to the page) printed.
// Asserted: each page got each of its account's events exactly once, in the log's order (XRANGE),
// none of the other account's, none forged (lost 0, repeated 0); a signed-out stream 401, another
// account's 403; a resume from a position trimmed away gives the reset event; Redis restarted
// empty gives every open stream the reset event, and later events still come once. Printed, never
// asserted: the delay from the receiver's answer to the page, and the memory per open stream for
// 200 streams on one server (heap after GC).
import test from "node:test";
import assert from "node:assert/strict";
import { fork, execFileSync } from "node:child_process";
import { once } from "node:events";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { ENGINE_NAMES, REDIS_SERVER, assertLocked, enginesToRun, installLocked, root, startEmulator, startRedis } from "./lib.mjs";
import { openPage } from "./browsers.mjs";
import { startFront } from "./live/front.mjs";
import { sseReader } from "../node/sse.mjs";

const dir = `${root}tests/consumers/live`;
const SECRET = "live-test-secret-0123456789";
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/** Events emitted per run (both accounts), and after how many of them a server is killed. */
const EVENTS = { "node-redis": 500, ioredis: 200 };
const STREAMS_FOR_MEMORY = 200;
/** Events the emulator emits in the browser run (both accounts). */
const PAGE_EVENTS = 500;

/** Waits (bounded: `ms`) until `done()` holds, else fails saying what it waited for. */
async function until(done, ms, what) {
  const end = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > end) throw new Error(`gave up after ${ms} ms waiting for ${what}`);
    await sleep(50);
  }
}

/** A server process (server.mjs), ready: its URL, a message call, and its kill. */
async function startServer(env, children) {
  const child = fork(`${dir}/server.mjs`, [], { cwd: dir, env: { ...process.env, ...env }, execArgv: ["--expose-gc"], stdio: ["ignore", "inherit", "inherit", "ipc"] });
  children.add(child);
  const [ready] = await Promise.race([once(child, "message"), once(child, "exit").then(([code]) => Promise.reject(new Error(`server exited (${code})`)))]);
  const ask = async (type) => {
    child.send({ type });
    for (;;) {
      const [m] = await once(child, "message");
      if (m.type === type) return m;
    }
  };
  return { url: ready.url, child, alive: true, ask };
}

/** The admin's view of the log: an account's stream, in order (XRANGE), by uuid. */
async function redisAdmin(port) {
  const require = createRequire(`${dir}/package.json`);
  const { createClient } = require("redis");
  const client = createClient({ url: `redis://127.0.0.1:${port}` });
  client.on("error", () => {});
  await client.connect();
  return {
    async log(account) {
      const entries = await client.sendCommand(["XRANGE", `estatekit:live:${account}`, "-", "+"]);
      return entries.map(([id, fields]) => ({ id, type: fields[1], uuid: fields[5] }));
    },
    trim: (account, n) => client.sendCommand(["XTRIM", `estatekit:live:${account}`, "MAXLEN", String(n)]),
    close: () => client.close(),
  };
}

/**
 * A simulated page: the stream route over fetch, as EventSource reads it (Last-Event-ID from its
 * last frame's id), reconnecting to the next server alive when its stream ends or fails.
 */
function page(account, servers, first) {
  const state = { account, events: [], resets: 0, connections: 0, lastId: undefined, stopped: false, controller: new AbortController() };
  state.done = (async () => {
    for (let i = first; !state.stopped; i++) {
      const alive = servers.filter((s) => s.alive);
      const server = alive[i % alive.length];
      try {
        const headers = { cookie: `staff=${encodeURIComponent(account)}` };
        if (state.lastId) headers["last-event-id"] = state.lastId;
        const answer = await fetch(`${server.url}/live`, { headers, signal: state.controller.signal });
        assert.equal(answer.status, 200);
        state.connections++;
        const reader = sseReader(answer);
        for (let frame = await reader.next(); frame; frame = await reader.next()) {
          if (frame.id !== undefined) state.lastId = frame.id;
          if (frame.event === "estatekit.reset") state.resets++;
          else if (frame.event && frame.event !== "estatekit.position") {
            const event = JSON.parse(frame.data);
            state.events.push({ id: frame.id, type: frame.event, uuid: event.uuid, subdomain: event.subdomain, at: performance.now() });
          }
        }
      } catch {
        // The server went away: the next one.
      }
      if (!state.stopped) await sleep(100);
    }
  })();
  return state;
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

test.before(() => {
  execFileSync(REDIS_SERVER, ["--version"]); // setup.sh installs it: nothing is skipped
  installLocked(dir);
  assertLocked(assert, dir, { redis: "dependencies", ioredis: "dependencies" });
});
// A client left reconnecting to a Redis that is gone must not hold the file up once it reported.
test.after(() => setTimeout(() => process.exit(), 5_000).unref());

test("a Redis log: a position taken while the account's stream was empty resumes with every event after it (no reset); once entries are trimmed away, the same position resets", { timeout: 60_000 }, async (t) => {
  const redis = await startRedis();
  t.after(() => redis.stop());
  const require = createRequire(`${dir}/package.json`);
  const { createClient } = require("redis");
  const client = createClient({ url: `redis://127.0.0.1:${redis.port}` });
  client.on("error", () => {});
  await client.connect();
  t.after(() => client.close());
  const { createRedisEventLog } = await import(pathToFileURL(`${dir}/node_modules/estatekit/live.js`).href);
  const log = createRedisEventLog(client);
  const account = "quiet";
  const { position } = await log.read(account, null);
  assert.equal(position, "0-0", "an account with no stream yet");
  const appended = [];
  for (let i = 0; i < 3; i++) appended.push(await log.append(account, { type: "UNIT_CREATED", data: `{"uuid":"u${i}"}`, uuid: `u${i}` }));
  const resumed = await log.read(account, position);
  assert.equal(resumed.reset, undefined, "nothing was trimmed: no reset");
  assert.deepEqual(resumed.entries.map((e) => e.id), appended);
  await client.sendCommand(["XTRIM", `estatekit:live:${account}`, "MAXLEN", "1"]);
  const trimmed = await log.read(account, position);
  assert.deepEqual([trimmed.reset, trimmed.entries], [appended[2], []], "two entries after the position are gone: the reset, to the end");
});

for (const client of ["node-redis", "ioredis"]) {
  test(`estatekit/live on a real Redis (${client}): three servers, four pages, a server killed mid-run`, { timeout: 180_000 }, async (t) => {
    const children = new Set();
    const redis = await startRedis();
    const pages = [];
    t.after(async () => {
      for (const p of pages) {
        p.stopped = true;
        p.controller.abort();
      }
      for (const child of children) child.kill("SIGKILL");
      await redis.stop();
    });
    const pkg = (file) => import(pathToFileURL(`${dir}/node_modules/estatekit/${file}`).href);
    const { createTestService } = await pkg("testing.node.js");
    const { EVENT_TYPES } = await pkg("vocab.js");
    assert.equal(EVENT_TYPES.length, 28);

    // Two accounts: an emulator each.
    const servers = [];
    /** When the sender got the first 2xx of each uuid (performance.now()). */
    const answeredAt = new Map();
    let turn = 0;
    const deliver = async (url, init) => {
      const { pathname, search } = new URL(url);
      for (let attempt = 0; ; attempt++) {
        const alive = servers.filter((s) => s.alive);
        const server = alive[turn++ % alive.length];
        try {
          const answer = await fetch(`${server.url}${pathname}${search}`, init);
          if (answer.ok) {
            const { uuid } = JSON.parse(init.body);
            if (!answeredAt.has(uuid)) answeredAt.set(uuid, performance.now());
          }
          return answer;
        } catch (e) {
          if (attempt > 10) throw e;
        }
      }
    };
    // Two accounts (their subdomains come from their tokens).
    const services = [await createTestService({ tokens: ["live-a"], deliver, deliveryBackoffMs: 50 }), await createTestService({ tokens: ["live-b"], deliver, deliveryBackoffMs: 50 })];
    assert.notEqual(services[0].subdomain, services[1].subdomain);
    t.after(() => Promise.all(services.map((s) => s.close())));
    const accounts = services.map((s) => s.subdomain);
    for (const [i, service] of services.entries()) {
      const url = `http://127.0.0.1/hooks/${accounts[i]}?secret=${SECRET}`;
      await service.seed({ webhooks: EVENT_TYPES.map((type) => ({ type, url })) });
    }
    const env = { REDIS_PORT: String(redis.port), CLIENT: client, ACCOUNTS: accounts.join(","), SECRET };
    for (let i = 0; i < 3; i++) servers.push(await startServer(env, children));

    // Refused streams: signed out, and a staff member of an account these servers do not serve.
    assert.equal((await fetch(`${servers[0].url}/live`)).status, 401);
    assert.equal((await fetch(`${servers[0].url}/live`, { headers: { cookie: "staff=emu-other" } })).status, 403);

    // Four pages: two per account, on different servers.
    for (const [i, account] of [accounts[0], accounts[0], accounts[1], accounts[1]].entries()) pages.push(page(account, servers, i));
    await until(() => pages.every((p) => p.lastId !== undefined), 30_000, "every page's stream open");

    const total = EVENTS[client];
    const forged = [];
    for (let n = 0; n < total; n++) {
      const service = services[n % 2];
      await service.emit(/** @type {any} */ (EVENT_TYPES[n % 28]), { copies: n % 10 === 0 ? 1 : 0 });
      if (n % 25 === 0) {
        // A forged delivery: no secret, or a wrong one.
        const uuid = `forged-${n}`;
        const body = JSON.stringify({ uuid, operation: "UNIT_CREATED", subdomain: accounts[n % 2], language: "en", createdAt: new Date().toISOString(), data: {} });
        const search = n % 50 === 0 ? "" : `?secret=${SECRET.slice(0, -1)}x`;
        const alive = servers.filter((s) => s.alive);
        const answer = await fetch(`${alive[n % alive.length].url}/hooks/${accounts[n % 2]}${search}`, { method: "POST", body });
        assert.equal(answer.status, 401);
        forged.push(uuid);
      }
      if (n === Math.floor(total * 0.4)) {
        servers[0].alive = false;
        servers[0].child.kill("SIGKILL");
      }
    }
    await Promise.all(services.map((s) => s.settled({ timeoutMs: 60_000 })));
    const admin = await redisAdmin(redis.port);
    t.after(() => admin.close());
    const logs = Object.fromEntries(await Promise.all(accounts.map(async (a) => [a, await admin.log(a)])));
    assert.equal(logs[accounts[0]].length + logs[accounts[1]].length, total, "each event appended once (redeliveries appended nothing)");
    await until(() => pages.every((p) => p.events.length >= logs[p.account].length), 60_000, "every page to get its account's events");
    await sleep(200); // anything more (a duplicate) would come now

    const delays = [];
    for (const p of pages) {
      assert.deepEqual(p.events.map((e) => e.uuid), logs[p.account].map((e) => e.uuid), `${p.account}: each event once, in the log's order`);
      assert.deepEqual(p.events.map((e) => e.id), logs[p.account].map((e) => e.id));
      assert.ok(p.events.every((e) => e.subdomain === p.account), "none of the other account's");
      assert.ok(!p.events.some((e) => forged.includes(e.uuid)), "none without the secret");
      for (const e of p.events) delays.push(e.at - /** @type {number} */ (answeredAt.get(e.uuid)));
    }
    const moved = pages.filter((p) => p.connections > 1).length;
    assert.ok(moved >= 1, "the pages of the killed server reconnected elsewhere");
    delays.sort((a, b) => a - b);
    console.log(
      `live (${client}): ${total} events, per page ${pages.map((p) => p.events.length).join("/")}, lost 0, repeated 0, ` +
        `${moved} pages moved after the kill (connections ${pages.map((p) => p.connections).join("/")}); ` +
        `delay from the receiver's answer to the page: p50 ${percentile(delays, 50).toFixed(1)} ms, p99 ${percentile(delays, 99).toFixed(1)} ms, max ${delays[delays.length - 1].toFixed(1)} ms`,
    );

    // A resume from a position trimmed away: the reset event, then the stream goes on.
    const oldest = logs[accounts[0]][0].id;
    await admin.trim(accounts[0], 10);
    const resumed = sseReader(await fetch(`${servers[1].url}/live`, { headers: { cookie: `staff=${accounts[0]}`, "last-event-id": oldest } }));
    const [reset] = await resumed.ids(1);
    assert.equal(reset.event, "estatekit.reset");
    assert.equal(JSON.parse(reset.data).position, logs[accounts[0]].at(-1).id, "go on from the log's end");
    await resumed.cancel();

    // Memory per open stream: 200 streams on one server, heap after GC before and after.
    const target = servers[2];
    const before = await target.ask("memory");
    const streams = [];
    for (let i = 0; i < STREAMS_FOR_MEMORY; i++) {
      const answer = await fetch(`${target.url}/live`, { headers: { cookie: `staff=${accounts[i % 2]}` } });
      const reader = sseReader(answer);
      await reader.ids(1);
      streams.push(reader);
    }
    const after = await target.ask("memory");
    assert.equal(after.open - before.open, STREAMS_FOR_MEMORY);
    console.log(
      `live (${client}): ${STREAMS_FOR_MEMORY} open streams on one server: heap +${((after.heapUsed - before.heapUsed) / STREAMS_FOR_MEMORY / 1024).toFixed(1)} KiB ` +
        `and RSS +${((after.rss - before.rss) / STREAMS_FOR_MEMORY / 1024).toFixed(1)} KiB per stream`,
    );
    await Promise.all(streams.map((s) => s.cancel()));
    const errors = await servers[1].ask("errors");
    assert.ok(errors.errors.every((e) => e === "WebhookRefused"), JSON.stringify(errors.errors));

    // Redis goes away and comes back empty: every open stream says so (the reset event), and the
    // events after it still come, once each.
    const resets = pages.map((p) => p.resets);
    await redis.outage(500, { keep: false });
    await until(() => pages.every((p, i) => p.resets > resets[i]), 30_000, "every page told of the lost log (reset)");
    const counts = pages.map((p) => p.events.length);
    for (const service of services) await service.emit("UNIT_CREATED");
    await Promise.all(services.map((s) => s.settled({ timeoutMs: 60_000 })));
    await until(() => pages.every((p, i) => p.events.length >= counts[i] + 1), 30_000, "the events after the outage");
    await sleep(200);
    assert.deepEqual(pages.map((p, i) => p.events.length - counts[i]), [1, 1, 1, 1], "once each");
  });
}

// The same on real pages: estatekit/subscribe in Chromium, Firefox and WebKit (browsers.mjs), the
// three servers behind one port (live/front.mjs, a load balancer of this test's), the emulator's
// binary (lib.mjs) delivering the events. Per engine a page of two frames, staff of one account
// each (two receivers, two subdomains): six streams in all.
test(`estatekit/subscribe in ${enginesToRun().map((e) => ENGINE_NAMES[e]).join(", ")} on a real Redis: three servers behind one port, the emulator's ${PAGE_EVENTS} events, a server killed, connections cut, the reset after a trim`, { timeout: 240_000 }, async (t) => {
  const started = performance.now();
  const children = new Set();
  const redis = await startRedis();
  t.after(async () => {
    for (const child of children) child.kill("SIGKILL");
    await redis.stop();
  });
  const emulator = await startEmulator(["--token", "live-a", "--token", "live-b", "--delivery-backoff-ms", "50"]);
  t.after(() => emulator.stop());
  const admin = (path, body) =>
    fetch(`${emulator.url}/_emulator/${path}`, body === undefined ? {} : { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }).then(async (r) => {
      assert.ok(r.ok, `${path}: HTTP ${r.status} ${await r.clone().text()}`);
      return r.json();
    });
  const info = await admin("info");
  const tokens = ["live-a", "live-b"];
  const subdomain = Object.fromEntries(info.accounts.map((a) => [a.token, a.subdomain]));
  const accounts = { a: subdomain["live-a"], b: subdomain["live-b"] };
  assert.notEqual(accounts.a, accounts.b);
  const { EVENT_TYPES } = await import(pathToFileURL(`${dir}/node_modules/estatekit/vocab.js`).href);
  assert.equal(EVENT_TYPES.length, 28);

  const env = { REDIS_PORT: String(redis.port), CLIENT: "node-redis", ACCOUNTS: `${accounts.a},${accounts.b}`, SECRET };
  const servers = [];
  for (let i = 0; i < 3; i++) servers.push(await startServer(env, children));
  const front = await startFront({ servers, accounts, secret: SECRET, subscribeFile: `${dir}/node_modules/estatekit/subscribe.js`, types: EVENT_TYPES });
  t.after(() => front.close());

  // Each account's webhooks, through the one port: every type with the secret; a few types also to
  // the URL without it, or with a wrong one (the same events, refused).
  for (const [i, token] of tokens.entries()) {
    const hooks = `${front.url}/hooks/${Object.values(accounts)[i]}`;
    const webhooks = EVENT_TYPES.flatMap((type, k) => [
      { type, url: `${hooks}?secret=${SECRET}` },
      ...(k % 7 === 0 ? [{ type, url: hooks }] : k % 7 === 3 ? [{ type, url: `${hooks}?secret=${SECRET.slice(0, -1)}x` }] : []),
    ]);
    await admin("seed", { token, webhooks });
  }

  // The pages, opened one engine at a time (a browser that fails to start closes the others).
  const engines = enginesToRun();
  const browsers = [];
  t.after(() => Promise.all(browsers.map((b) => b.close().catch(() => {}))));
  for (const engine of engines) {
    const page = await openPage(engine);
    browsers.push(page);
    await page.goto(`${front.url}/?engine=${engine}`);
  }
  const names = engines.flatMap((e) => [`${e}-a`, `${e}-b`]);
  const frameOf = (name) => /** @type {"a" | "b"} */ (name.slice(-1));
  /** What the frames got so far (counts only, or everything). */
  const counts = async () =>
    (await Promise.all(browsers.map((b) => b.evaluate(() => ["a", "b"].map((f) => { const w = /** @type {any} */ (document.getElementById(f))?.contentWindow; return w?.ready ? [w.got.length, w.resets.length] : [-1, -1]; }))))).flat();
  const everything = async () =>
    (await Promise.all(browsers.map((b) => b.evaluate(() => ["a", "b"].map((f) => { const w = /** @type {any} */ (document.getElementById(f)).contentWindow; return { got: w.got, resets: w.resets, errors: w.errors }; }))))).flat();
  const streaming = () => names.every((n) => (front.pages.get(n)?.open.size ?? 0) === 1);
  await until(async () => (await counts()).every(([n]) => n === 0) && streaming(), 60_000, "every frame's stream open");

  // Refused streams: signed out, and staff of an account these servers do not serve.
  assert.equal((await fetch(`${front.url}/a/live`)).status, 401);
  assert.equal((await fetch(`${front.url}/a/live`, { headers: { cookie: "staff=emu-other" } })).status, 403);

  // The run: the events alternate between the accounts, each account's cycling through the 28
  // types; every tenth sent twice at once; every 25th followed by a forged delivery of the test's
  // (the account's subdomain, no secret or a wrong one). A server is SIGKILLed at 30 % (its frames'
  // EventSource reconnects through the front to another: 50 events on, the run waits for it); at 60 %
  // every frame's stream is cut and refused until each frame was refused once (EventSource gives
  // up; estatekit/subscribe reopens it from its position), 50 events sent meanwhile.
  const forged = [];
  const emit = (n) => admin("emit", { type: EVENT_TYPES[Math.floor(n / 2) % 28], token: tokens[n % 2], copies: n % 10 === 0 ? 1 : 0 });
  let moved = [];
  for (let n = 0; n < PAGE_EVENTS; n++) {
    const sent = await emit(n);
    assert.ok(sent.webhooks >= 1);
    if (n % 25 === 0) {
      const account = Object.values(accounts)[n % 2];
      const uuid = `forged-${n}`;
      const body = JSON.stringify({ uuid, operation: "UNIT_CREATED", subdomain: account, language: "en", createdAt: new Date().toISOString(), data: {} });
      const search = n % 50 === 0 ? "" : `?secret=${SECRET.slice(0, -1)}x`;
      assert.equal((await fetch(`${front.url}/hooks/${account}${search}`, { method: "POST", body })).status, 401);
      forged.push(uuid);
    }
    if (n === Math.floor(PAGE_EVENTS * 0.3)) {
      moved = names.filter((name) => [...(front.pages.get(name)?.open ?? [])].some((s) => s.server === servers[0]));
      servers[0].alive = false;
      servers[0].child.kill("SIGKILL");
    }
    if (n === Math.floor(PAGE_EVENTS * 0.3) + 50) {
      // The killed server's frames back on another (EventSource reconnects by itself, Last-Event-ID).
      await until(() => moved.every((name) => [...(front.pages.get(name)?.open ?? [])].some((s) => s.server !== servers[0])), 60_000, "the killed server's frames on another server");
    }
    if (n === Math.floor(PAGE_EVENTS * 0.6)) front.cut(["a", "b"]);
    if (n === Math.floor(PAGE_EVENTS * 0.6) + 50) {
      await until(() => names.every((name) => (front.pages.get(name)?.refused ?? 0) >= 1), 60_000, "every frame refused once while cut");
      front.restore(["a", "b"]);
    }
  }
  await admin(`settled?timeoutMs=60000`);
  const redisLog = await redisAdmin(redis.port);
  t.after(() => redisLog.close());
  const logs = { a: await redisLog.log(accounts.a), b: await redisLog.log(accounts.b) };
  assert.equal(logs.a.length + logs.b.length, PAGE_EVENTS, "each event appended once (redeliveries appended nothing)");
  await until(async () => (await counts()).every(([got], i) => got >= logs[frameOf(names[i])].length), 90_000, "every frame to get its account's events");
  const main = await everything();

  // A resume from a position the log no longer holds: account a's frames cut and refused, 20
  // events of each account sent meanwhile (b's frames get theirs), a's stream trimmed to its last
  // 5 entries; restored, a's frames get the reset event, with the position to go on from.
  const refusedBefore = new Map(names.map((n) => [n, front.pages.get(n)?.refused ?? 0]));
  front.cut(["a"]);
  for (let n = 0; n < 40; n++) await emit(n);
  await admin(`settled?timeoutMs=60000`);
  const end = (await redisLog.log(accounts.a)).at(-1).id;
  await redisLog.trim(accounts.a, 5);
  await until(() => names.filter((n) => frameOf(n) === "a").every((name) => (front.pages.get(name)?.refused ?? 0) > (refusedBefore.get(name) ?? 0)), 60_000, "a's frames refused while cut");
  front.restore(["a"]);
  await until(async () => (await counts()).every(([, resets], i) => frameOf(names[i]) === "b" || resets >= 1), 60_000, "a's frames told of the trim (reset)");
  // A last event per account: whatever came twice would have come before it.
  await emit(0);
  await emit(1);
  await admin(`settled?timeoutMs=60000`);
  const final = { a: await redisLog.log(accounts.a), b: await redisLog.log(accounts.b) };
  await until(async () => (await counts()).every(([got], i) => got >= (frameOf(names[i]) === "a" ? logs.a.length + 1 : final.b.length)), 60_000, "the last events");
  const pages = await everything();

  // The figures first (printed also when an assertion below fails), per frame: its events, the
  // expected ones it lacks (lost), those it got more than once (repeated).
  const expected = names.map((name) => (frameOf(name) === "a" ? [...logs.a, final.a.at(-1)] : final.b));
  const figures = names.map((name, i) => {
    const uuids = pages[i].got.map((e) => e.uuid);
    const unique = new Set(uuids);
    return `${name} ${uuids.length} (lost ${expected[i].filter((e) => !unique.has(e.uuid)).length}, repeated ${uuids.length - unique.size})`;
  });
  // The delay from the receiver's answer to the page, for the events answered while the frame's
  // stream was open and given on it (the others came with a catch-up after a reconnection).
  const delays = [];
  let caughtUp = 0;
  for (const [i, name] of names.entries()) {
    const streams = front.pages.get(name)?.streams ?? [];
    for (const e of main[i].got) {
      const at = front.answeredAt.get(e.uuid);
      if (at !== undefined && streams.some((s) => s.since <= at && e.at <= s.until)) delays.push(e.at - at);
      else caughtUp++;
    }
  }
  delays.sort((x, y) => x - y);
  const accepted = front.answers.filter((a) => a.withSecret && a.status >= 200 && a.status < 300);
  const refused = front.answers.filter((a) => !a.withSecret);
  const resumed = (how) => names.flatMap((n) => front.pages.get(n)?.streams ?? []).filter((s) => s.resumed === how).length;
  console.log(
    `live pages (${engines.join(", ")}; real Redis, 3 servers behind one port): ${PAGE_EVENTS} events of 28 types (+42 after), ` +
      `${accepted.length - new Set(accepted.map((a) => a.uuid)).size} deliveries accepted again (appended nothing), ` +
      `${refused.length} deliveries without the secret refused; per frame: ${figures.join(", ")}; ` +
      `across the kill (${moved.length} frames moved) and the cuts (streams per frame ${names.map((n) => front.pages.get(n)?.streams.length).join("/")}; resumed by EventSource's Last-Event-ID ${resumed("header")}, by estatekit/subscribe's ?lastEventId= ${resumed("query")}); ` +
      `delay from the receiver's answer to the page (${delays.length} events on open streams, ${caughtUp} caught up after a reconnection): ` +
      `p50 ${percentile(delays, 50)?.toFixed(1)} ms, p99 ${percentile(delays, 99)?.toFixed(1)} ms, max ${delays.at(-1)?.toFixed(1)} ms; ` +
      `${((performance.now() - started) / 1000).toFixed(1)} s`,
  );

  // Each frame: each of its account's events once, in the log's order (ids too), its handler by
  // type, none of the other account's, none without the secret; a's frames the reset, then the
  // last event.
  for (const [i, name] of names.entries()) {
    const frame = frameOf(name);
    const { got, resets, errors } = pages[i];
    assert.deepEqual(got.map((e) => e.uuid), expected[i].map((e) => e.uuid), `${name}: each event once, in the log's order`);
    assert.deepEqual(got.map((e) => e.id), expected[i].map((e) => e.id), name);
    assert.ok(got.every((e) => e.handler === e.type && e.subdomain === accounts[frame]), `${name}: its handler by type, none of the other account's`);
    assert.ok(!got.some((e) => forged.includes(e.uuid)), `${name}: none without the secret`);
    assert.deepEqual(resets, frame === "a" ? [end] : [], `${name}: the reset after the trim, and only then`);
    assert.deepEqual(errors, [], name);
  }
  assert.equal(new Set([...logs.a, ...logs.b].map((e) => e.type)).size, 28, "all 28 types");
  assert.ok(refused.length > 0 && refused.every((a) => a.status === 401), "every delivery without the secret refused (401)");
  assert.ok(moved.length >= 1, "the killed server had pages, which moved to another");
  for (const s of servers.slice(1)) {
    const { errors } = await s.ask("errors");
    assert.ok(errors.every((e) => e === "WebhookRefused"), JSON.stringify(errors));
  }
});
