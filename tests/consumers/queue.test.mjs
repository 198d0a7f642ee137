// estatekit/webhooks' queued mode with a real BullMQ on a real Redis and real processes
// (tests/consumers/queue: the packed tarball, bullmq, ioredis and Bun as locked): one receiver
// process (`createWebhookHandler({ queue })` on node:http) and three worker processes
// (`webhookProcessor`, concurrency 5, handlers that take 300 ms; two in Node, one in Bun), on a
// redis-server of their own on a free loopback port. What docs/webhooks.md promises is asserted,
// not how fast:
// - 300 deliveries, each sent twice (the second copy while the first may still be in flight), one
//   worker SIGKILLed on the way: every delivery answered 2xx only once its job was stored (each
//   answered uuid is a job in Redis), 300 jobs, none lost (each uuid's handler completed), and
//   only jobs the killed worker had started run twice (at most its concurrency, 5);
// - Redis hung (SIGSTOP) for a few seconds: each delivery answered 503 with Retry-After (none
//   2xx), then, Redis back, sent again until 2xx and handled: none lost;
// - answers not waiting for handlers: deliveries whose handlers are held (until the test opens a
//   gate) are all answered 2xx, none of them handled yet;
// - a handler that always throws: its job ends in BullMQ's failed set with the error, after its
//   attempts.
// The answer times (p50, p99) while the workers are busy are printed: a figure, not asserted.
import test from "node:test";
import assert from "node:assert/strict";
import { fork } from "node:child_process";
import { once } from "node:events";
import { createRequire } from "node:module";
import { randomUUID } from "node:crypto";
import { assertLocked, bunBinary, installLocked, root, startRedis } from "./lib.mjs";

const dir = `${root}tests/consumers/queue`;
const DELIVERIES = 300;
const WORKERS = 3;
const CONCURRENCY = 5;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Every process this file starts: the suite's `after` ends those still running. */
const started = new Set();
function track(child) {
  started.add(child);
  child.once("exit", () => started.delete(child));
  return child;
}
test.after(() => {
  for (const child of started) child.kill("SIGKILL");
});

/** `promise`, or a failure saying what it waited for once `ms` passed (a hang detector). */
async function within(promise, ms, what) {
  let timer;
  const late = new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`gave up after ${ms} ms waiting for ${what}`)), ms)));
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Waits (bounded) until `done()` holds. */
async function until(done, ms, what) {
  const end = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > end) throw new Error(`gave up after ${ms} ms waiting for ${what}`);
    await sleep(100);
  }
}

/** Forks `file` of the project (in Node, or in `execPath`: Bun) and waits for its `ready` message. */
async function start(file, env, execPath = process.execPath) {
  const child = track(fork(`${dir}/${file}`, [], { cwd: dir, execPath, env: { ...process.env, ...env }, stdio: ["ignore", "inherit", "inherit", "ipc"] }));
  const [message] = await within(
    Promise.race([once(child, "message"), once(child, "exit").then(([code]) => Promise.reject(new Error(`${file} exited (${code}) before it was ready`)))]),
    30_000,
    `${file} to start`,
  );
  const ask = async (type) => {
    const answer = new Promise((resolve) => child.on("message", (m) => m.type === type && resolve(m)));
    child.send({ type });
    return within(answer, 10_000, `${file}'s answer to ${type}`);
  };
  return {
    child,
    url: message.url,
    ask,
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, "exit");
      child.kill("SIGKILL");
      await exited;
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, "exit");
      child.send({ type: "stop" });
      const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** A valid delivery body of `operation`. */
const delivery = (uuid, operation = "UNIT_CREATED") =>
  JSON.stringify({ uuid, operation, subdomain: "acme", language: "en", createdAt: "2026-11-29T00:00:00Z", data: { unitId: `unit-${uuid}` } });

/** Sends one copy; resolves to its status, Retry-After and answer time (ms). */
async function send(url, body) {
  const t0 = performance.now();
  const response = await within(fetch(url, { method: "POST", body, headers: { "content-type": "application/json" } }), 15_000, "a delivery's answer");
  await response.arrayBuffer();
  return { status: response.status, retryAfter: response.headers.get("retry-after"), ms: performance.now() - t0 };
}

/** The p-th percentile of `values`. */
const percentile = (values, p) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)];

test("the queued mode with BullMQ on a real Redis: acknowledged before 2xx, none lost, a SIGKILLed worker's jobs run again, 503 while Redis hangs, the failed set", { timeout: 110_000 }, async (t) => {
  installLocked(dir);
  assertLocked(assert, dir, { bullmq: "dependencies", bun: "dependencies", ioredis: "dependencies" });
  const redis = await startRedis({ onChild: track });
  let redisChild;
  for (const child of started) if (child.spawnfile?.includes("redis")) redisChild = child;
  t.after(() => redis.stop());
  const env = { REDIS_PORT: String(redis.port) };
  const require = createRequire(`${dir}/package.json`);
  const { Queue } = require("bullmq");
  const { Redis } = require("ioredis");
  const admin = new Redis({ host: "127.0.0.1", port: redis.port, maxRetriesPerRequest: null });
  admin.on("error", () => {});
  const queue = new Queue("webhooks", { connection: admin });
  const failingQueue = new Queue("webhooks-failing", { connection: admin });
  t.after(async () => {
    await Promise.allSettled([queue.close(), failingQueue.close()]);
    admin.disconnect();
  });

  const receiver = await start("receiver.mjs", env);
  // w0 and w1 in Node, w2 in Bun (the project's locked Bun): w0 is the one killed.
  const workers = await Promise.all(
    Array.from({ length: WORKERS }, (_, i) => start("worker.mjs", { ...env, WORKER_NAME: `w${i}` }, i === 2 ? bunBinary(dir) : process.execPath)),
  );
  t.after(() => Promise.all([receiver, ...workers].map((p) => p.stop())));
  const hooks = `${receiver.url}/hooks`;

  // 300 deliveries, each sent twice, 20 at a time; a copy answered 503 is sent again after its
  // Retry-After, as a sender does. Worker w0 is killed once 100 deliveries were answered.
  const uuids = Array.from({ length: DELIVERIES }, () => randomUUID());
  const times = [];
  const statuses = new Map();
  let answered = 0;
  let killed;
  const sendUntil2xx = async (uuid) => {
    for (;;) {
      const got = await send(hooks, delivery(uuid));
      times.push(got.ms);
      statuses.set(got.status, (statuses.get(got.status) ?? 0) + 1);
      if (got.status >= 200 && got.status < 300) {
        // Answered 2xx: the job is in Redis now, not later.
        assert.ok(await queue.getJob(uuid), `a 2xx for ${uuid} whose job is not stored`);
        return;
      }
      assert.equal(got.status, 503);
      await sleep(Number(got.retryAfter) * 1000);
    }
  };
  let next = 0;
  await Promise.all(
    Array.from({ length: 20 }, async () => {
      while (next < uuids.length) {
        const uuid = uuids[next++];
        await Promise.all([sendUntil2xx(uuid), sleep(5).then(() => sendUntil2xx(uuid))]);
        if (++answered === 100) killed = workers[0].kill();
      }
    }),
  );
  await killed;
  await until(async () => (await admin.hlen("test:completed")) === DELIVERIES, 60_000, "every delivery's handler to complete");
  const counts = await queue.getJobCounts("completed", "failed", "active", "waiting", "delayed");
  const completed = await admin.hgetall("test:completed");
  const ranOn = new Set();
  const runTwice = [];
  for (const uuid of uuids) {
    const starts = await admin.lrange(`test:started:${uuid}`, 0, -1);
    for (const name of starts) ranOn.add(name);
    if (starts.length > 1) runTwice.push([uuid, starts]);
  }
  const lost = uuids.filter((u) => !completed[u]);
  console.log(
    `queued mode, ${DELIVERIES} deliveries x2, ${WORKERS} workers x concurrency ${CONCURRENCY}, 300 ms handlers, w0 SIGKILLed after 100: ` +
      `answers ${JSON.stringify(Object.fromEntries(statuses))}, answer time p50 ${percentile(times, 50).toFixed(1)} ms, p99 ${percentile(times, 99).toFixed(1)} ms, max ${Math.max(...times).toFixed(1)} ms (n=${times.length}); ` +
      `jobs ${JSON.stringify(counts)}, lost ${lost.length}, run twice ${runTwice.length}`,
  );
  assert.deepEqual(lost, []);
  assert.ok(ranOn.has("w2"), "the Bun worker ran jobs");
  assert.equal(counts.completed, DELIVERIES);
  assert.equal(counts.failed, 0);
  assert.equal(Object.keys(completed).length, DELIVERIES);
  // At most the killed worker's in-flight jobs run twice: each first run on w0 (killed mid-job).
  assert.ok(runTwice.length <= CONCURRENCY, `${runTwice.length} jobs run twice`);
  for (const [uuid, starts] of runTwice) {
    assert.equal(starts[0], "w0", `${uuid} ran twice though its first run was not on the killed worker: ${starts}`);
    assert.equal(starts.length, 2);
  }

  // Redis hung for a few seconds: every delivery answered (503 with Retry-After), none 2xx.
  const hung = Array.from({ length: 10 }, () => randomUUID());
  redisChild.kill("SIGSTOP");
  let resumed = false;
  try {
    const during = await Promise.all(hung.map((uuid) => send(hooks, delivery(uuid))));
    assert.deepEqual(during.map((d) => [d.status, d.retryAfter]), hung.map(() => [503, "1"]));
    await sleep(2_000);
  } finally {
    redisChild.kill("SIGCONT");
    resumed = true;
  }
  assert.ok(resumed);
  for (const uuid of hung) await sendUntil2xx(uuid);
  await until(async () => (await admin.hlen("test:completed")) === DELIVERIES + hung.length, 30_000, "the deliveries sent while Redis hung to be handled");
  assert.deepEqual((await receiver.ask("errors")).errors.filter((e) => e !== "QueueUnavailable"), []);

  // Answers do not wait for handlers: UNIT_UPDATED's handlers are held until the gate opens, and
  // every delivery is answered 2xx meanwhile, none of them handled yet.
  const held = Array.from({ length: 10 }, () => randomUUID());
  const answers = await Promise.all(held.map((uuid) => send(hooks, delivery(uuid, "UNIT_UPDATED"))));
  assert.deepEqual(answers.map((a) => a.status), held.map(() => 202));
  await until(async () => (await admin.exists(...held.map((u) => `test:started:${u}`))) > 0, 30_000, "a held handler to start");
  assert.deepEqual(await admin.hmget("test:completed", ...held), held.map(() => null), "no held handler completed before the gate opened");
  await admin.set("test:gate", "1");
  await until(async () => (await admin.hlen("test:completed")) === DELIVERIES + hung.length + held.length, 30_000, "the held handlers to complete");

  // A handler that always throws: the job ends in the failed set with its error after 2 attempts.
  const doomed = randomUUID();
  assert.equal((await send(`${receiver.url}/hooks/failing`, delivery(doomed))).status, 202);
  await until(async () => (await failingQueue.getJobCounts("failed")).failed === 1, 30_000, "the failing job to reach the failed set");
  const [failed] = await failingQueue.getFailed();
  console.log(`failed set: ${JSON.stringify({ id: failed.id, name: failed.name, attemptsMade: failed.attemptsMade, failedReason: failed.failedReason })}`);
  assert.equal(failed.id, doomed);
  assert.equal(failed.name, "UNIT_CREATED");
  assert.equal(failed.attemptsMade, 2);
  assert.equal(failed.failedReason, `the CRM refused ${doomed} (attempt 2)`);
});
