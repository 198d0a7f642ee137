// ensureWebhook(input, { store }) with a real Redis and four real Node processes of one app
// (tests/consumers/redis: the packed tarball, node-redis 5 and ioredis 5 as locked; two processes
// on each client, all on one redis-server of their own on a free loopback port), against the
// native emulator. 20 rounds: in each, the four call ensureWebhook for a new (type, url) at the
// same instant; the emulator's list must then hold exactly one webhook of it, and the four must
// have its id. Then Redis killed: every call rejects (kind network, nothing registered), and once
// Redis is back, one registration again. docs/scaling.md says what is promised.
import test from "node:test";
import assert from "node:assert/strict";
import { execFileSync, fork } from "node:child_process";
import { once } from "node:events";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { REDIS_SERVER, installLocked, root, startEmulator, startRedis, tarball } from "./lib.mjs";

const dir = `${root}tests/consumers/redis`;
const PROCESSES = 4;
const ROUNDS = 20;
const TYPES = ["UNIT_CREATED", "UNIT_UPDATED", "LISTING_CANDIDATE_APPLIED", "CANDIDATE_PARSED"];

/** The consumer project of redis.test.mjs, installed (npm ci) unless it holds this very tarball. */
function install() {
  const { size, mtimeMs } = statSync(tarball());
  const mark = `${dir}/node_modules/.estatekit-tarball`;
  const stamp = `${size} ${mtimeMs}`;
  if (existsSync(mark) && readFileSync(mark, "utf8") === stamp) return;
  installLocked(dir);
  writeFileSync(mark, stamp);
}

/** Every process this file starts: ended by the suite's `after`, also after a timeout. */
const started = new Set();

/** Forks one process of the app (redis/ensure-worker.mjs) and waits until it is connected. */
async function startWorker(env) {
  const child = fork(`${dir}/ensure-worker.mjs`, [], { cwd: dir, env: { ...process.env, ...env }, stdio: ["ignore", "inherit", "inherit", "ipc"] });
  started.add(child);
  child.once("exit", () => started.delete(child));
  await Promise.race([
    once(child, "message"),
    once(child, "exit").then(([code]) => Promise.reject(new Error(`worker exited (${code}) before it was ready`))),
  ]);
  return {
    /** ensureWebhook(input, { store }) at the instant `at`: `{ id }` or `{ error }`, bounded. */
    ensure(input, at) {
      const answer = new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no answer to ensureWebhook(${JSON.stringify(input)}) in 60 s`)), 60_000);
        child.once("message", (m) => {
          clearTimeout(timer);
          resolve(m);
        });
      });
      child.send({ type: "ensure", input, at });
      return answer;
    },
    /** Resolves once this process's Redis connection answers PING again (bounded: 30 s). */
    reconnected() {
      const answer = new Promise((resolve) => child.once("message", resolve));
      child.send({ type: "reconnected" });
      return answer;
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

/** The emulator's webhooks of (type, url), listed over HTTP. */
async function registered(emulatorUrl, { type, url }) {
  const res = await fetch(`${emulatorUrl}/api/external-integrations/webhooks`, {
    headers: { authorization: "Bearer dev-token" },
    signal: AbortSignal.timeout(10_000),
  });
  assert.equal(res.status, 200);
  return (await res.json()).filter((w) => w.type === type && w.url === url);
}

test.describe("ensureWebhook with a store: four Node processes sharing a real Redis", () => {
  let emulator;
  let redis;
  let workers = [];
  test.before(async () => {
    execFileSync(REDIS_SERVER, ["--version"]); // setup.sh installs it: nothing is skipped
    install();
    emulator = await startEmulator();
    redis = await startRedis({ onChild: (child) => (started.add(child), child.once("exit", () => started.delete(child)), child) });
    workers = await Promise.all(
      Array.from({ length: PROCESSES }, (_, i) =>
        startWorker({ REDIS_PORT: String(redis.port), REDIS_CLIENT: i % 2 ? "ioredis" : "redis", EMULATOR_URL: emulator.url }),
      ),
    );
  });
  test.after(async () => {
    await Promise.all(workers.map((w) => w.stop()));
    await redis?.stop();
    await emulator?.stop();
    for (const child of started) child.kill("SIGKILL");
  });

  test.it(`${PROCESSES} processes x ${ROUNDS} rounds: exactly one webhook per (type, url), its id to all`, { timeout: 300_000 }, async () => {
    const perRound = [];
    const failures = [];
    for (let round = 0; round < ROUNDS; round++) {
      const input = { type: TYPES[round % TYPES.length], url: `http://127.0.0.1:9/hooks/round-${round}` };
      const at = Date.now() + 100;
      const answers = await Promise.all(workers.map((w) => w.ensure(input, at)));
      failures.push(...answers.filter((a) => a.error).map((a) => `round ${round}: ${a.error}`));
      const hooks = await registered(emulator.url, input);
      perRound.push(hooks.length);
      assert.equal(hooks.length, 1, `round ${round}: ${hooks.length} webhooks of ${JSON.stringify(input)}`);
      assert.deepEqual(answers.map((a) => a.id), Array(PROCESSES).fill(hooks[0].id), `round ${round}: every process got its id`);
    }
    console.log(
      `ensureWebhook, ${PROCESSES} processes x ${ROUNDS} rounds (2 node-redis, 2 ioredis, one Redis): webhooks per (type, url): ` +
        `${perRound.join(" ")}; calls: ${PROCESSES * ROUNDS - failures.length} resolved, ${failures.length} rejected`,
    );
    assert.deepEqual(failures, []);
  });

  test.it("Redis away: every call rejects (network, nothing registered); back: one registration", { timeout: 120_000 }, async () => {
    const input = { type: "UNIT_DELETED", url: "http://127.0.0.1:9/hooks/outage" };
    let during;
    await redis.outage(500, {
      keep: true,
      whileDown: async () => {
        during = await Promise.all(workers.map((w) => w.ensure(input, Date.now())));
      },
    });
    for (const answer of during) {
      assert.match(answer.error ?? "", /^network: ensure webhook failed: .*the store .*ensureWebhook registered nothing/, JSON.stringify(answer));
      assert.deepEqual(answer.storeEvents, ["webhook/timeout"]);
    }
    assert.equal((await registered(emulator.url, input)).length, 0, "nothing registered while Redis was away");
    // Each app's client reconnects on its own schedule: the promise is about calls made once the
    // store answers again, so wait for every process's connection to answer PING first.
    const back = await Promise.all(workers.map((w) => w.reconnected()));
    assert.deepEqual(back.map((b) => b.ok), Array(PROCESSES).fill(true), "every process reconnected to Redis within 30 s");
    const at = Date.now() + 100;
    const after = await Promise.all(workers.map((w) => w.ensure(input, at)));
    const hooks = await registered(emulator.url, input);
    assert.equal(hooks.length, 1);
    assert.deepEqual(after.map((a) => a.id), Array(PROCESSES).fill(hooks[0].id), JSON.stringify(after));
    console.log(`ensureWebhook with Redis away: ${during.length} calls rejected, 0 registered; Redis back: ${after.filter((a) => a.id).length} resolved, ${hooks.length} registered`);
  });
});
