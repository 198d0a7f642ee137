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
import { REDIS_SERVER, assertLocked, installLocked, root, startRedis } from "./lib.mjs";
import { sseReader } from "../node/sse.mjs";

const dir = `${root}tests/consumers/live`;
const SECRET = "live-test-secret-0123456789";
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/** Events emitted per run (both accounts), and after how many of them a server is killed. */
const EVENTS = { "node-redis": 500, ioredis: 200 };
const STREAMS_FOR_MEMORY = 200;

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
