// One process of an app that runs as several (tests/consumers/redis.test.mjs forks three): its
// own Redis connection (node-redis or ioredis, REDIS_CLIENT), estatekit/store's createRedisStore on it,
// a webhook receiver (node:http) whose dedupe is that store, and, when asked, a burst of client
// calls whose rate limit is the store's shared budget. It talks to the test through IPC.
import { createHash } from "node:crypto";
import { createServer } from "node:http";
import { Client } from "estatekit";
import { createTokenProvider } from "estatekit/auth";
import { createRedisStore } from "estatekit/store";
import { createWebhookHandler, toNodeListener } from "estatekit/webhooks";

const { REDIS_PORT, REDIS_CLIENT, EMULATOR_URL } = process.env;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * The handler's side effect, idempotent per uuid as docs/webhooks.md shows: in one script (atomic
 * in Redis), the uuid's key is set if absent, and only then is the effect (here a counter the
 * test reads) applied. A run again of the same uuid, or a client resending the script after a
 * lost reply, finds the key and changes nothing.
 */
const EFFECT = `if redis.call("SET", KEYS[1], "1", "NX") then return redis.call("INCR", KEYS[2]) end return 0`;

/** The app's own connection, reconnecting every 100 ms while Redis is away. */
async function connect() {
  if (REDIS_CLIENT === "ioredis") {
    const { Redis } = await import("ioredis");
    // maxRetriesPerRequest: null keeps commands queued until Redis is back (estatekit bounds its
    // own calls), and ioredis resends a command whose reply was lost.
    const redis = new Redis({ host: "127.0.0.1", port: Number(REDIS_PORT), retryStrategy: () => 100, maxRetriesPerRequest: null });
    redis.on("error", () => {});
    return { store: createRedisStore(redis), effect: (uuid) => redis.eval(EFFECT, 2, `test:applied:${uuid}`, "test:effects"), close: async () => redis.disconnect() };
  }
  const { createClient } = await import("redis");
  const redis = createClient({ socket: { host: "127.0.0.1", port: Number(REDIS_PORT), reconnectStrategy: () => 100 } });
  redis.on("error", () => {});
  await redis.connect();
  // node-redis rejects a command whose reply was lost, and queues those sent while it reconnects.
  const effect = (uuid) => redis.sendCommand(["EVAL", EFFECT, "2", `test:applied:${uuid}`, "test:effects"]);
  return { store: createRedisStore(redis), effect, close: async () => redis.destroy() };
}

const redis = await connect();
/**
 * What this process saw. `completed`: per uuid, the handler runs that completed (resolved),
 * counted by the handler itself as its last step; `failed`: runs that threw (their side effect's
 * reply was lost or refused); `late`: uuids whose done-mark the receiver reports as not
 * acknowledged while the claim lasted (DoneMarkLate: beyond what dedupe promises).
 */
const stats = { started: 0, completed: {}, failed: 0, storeErrors: 0, storeTimeouts: 0, late: [] };
/** The handler's own errors (onError is told of them too; they are counted as `failed`). */
const thrown = new WeakSet();

const handler = createWebhookHandler({
  dedupe: redis.store,
  // Longer than the slowest handler plus an outage; short enough that a claim left by a failed
  // release (Redis away) expires within the test.
  claimTtlMs: 10_000,
  storeTimeoutMs: 1_000,
  retryAfterMs: 1000,
  on: {
    UNIT_UPDATED: async (event) => {
      stats.started++;
      await sleep(200 + Math.random() * 100); // slow enough that copies overlap
      try {
        await redis.effect(event.uuid);
      } catch (e) {
        stats.failed++;
        if (e !== null && typeof e === "object") thrown.add(e);
        throw e;
      }
      // Nothing is awaited from here on: the run has completed.
      stats.completed[event.uuid] = (stats.completed[event.uuid] ?? 0) + 1;
    },
  },
  onError: (error, event) => {
    if (thrown.has(error)) return;
    if (error?.name === "StoreTimeout") stats.storeTimeouts++;
    else if (error?.name === "DoneMarkLate") stats.late.push(event?.uuid);
    else stats.storeErrors++;
  },
});
const server = createServer(toNodeListener(handler));
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));

/** `calls` concurrent listWebhooks with the shared budget; the statuses and events seen. */
async function burst({ calls, perMinute, token }) {
  const statuses = {};
  const storeEvents = [];
  const client = new Client({
    baseUrl: EMULATOR_URL,
    token,
    timeoutMs: 150_000,
    rateLimit: { perMinute, store: redis.store },
    onEvent(e) {
      if (e.type === "response") statuses[e.status] = (statuses[e.status] ?? 0) + 1;
      if (e.type === "store") storeEvents.push(`${e.purpose}/${e.reason}`);
    },
  });
  const started = Date.now();
  const results = await Promise.allSettled(
    Array.from({ length: calls }, async () => {
      await client.listWebhooks();
      return Date.now() - started;
    }),
  );
  return {
    statuses,
    storeEvents,
    done: results.filter((r) => r.status === "fulfilled").length,
    errors: results.filter((r) => r.status === "rejected").map((r) => `${r.reason?.kind}: ${r.reason?.message}`),
    waitedMs: results.map((r) => r.value ?? 0),
  };
}

/**
 * A token provider on the shared store (the emulator's default client and user) behind a Client:
 * rounds of `concurrency` concurrent calls for `seconds`. Gives the counts, and each access token
 * seen as a short hash (never the token itself), to compare across processes.
 */
async function tokens({ seconds, concurrency }) {
  const events = [];
  const provider = createTokenProvider({
    baseUrl: EMULATOR_URL,
    clientId: "dev-client",
    clientSecret: "dev-secret",
    username: "admin@acme.test",
    password: "dev-password",
    store: redis.store,
    onEvent: (e) => events.push(e),
  });
  const seen = new Set();
  const statuses = {};
  const client = new Client({
    baseUrl: EMULATOR_URL,
    getToken: async (reason) => {
      const token = await provider.getToken(reason);
      seen.add(createHash("sha256").update(token.token).digest("hex").slice(0, 12));
      return token;
    },
    onEvent(e) {
      if (e.type === "response") statuses[e.status] = (statuses[e.status] ?? 0) + 1;
    },
  });
  let ok = 0;
  const errors = [];
  const until = Date.now() + seconds * 1000;
  while (Date.now() < until) {
    const results = await Promise.allSettled(Array.from({ length: concurrency }, () => client.listWebhooks()));
    ok += results.filter((r) => r.status === "fulfilled").length;
    for (const r of results) if (r.status === "rejected") errors.push(`${r.reason?.kind}: ${r.reason?.message}`);
    await sleep(200);
  }
  provider.close();
  return {
    ok,
    errors,
    statuses,
    tokens: [...seen],
    events: events.map((e) => (e.type === "storeUnavailable" ? `storeUnavailable:${e.operation}` : e.type === "grant" ? `grant:${e.grant}:${e.ok}` : e.type)),
  };
}

/**
 * One getToken of a token provider on the shared store, at `baseUrl` (the test's token endpoint)
 * with `timeoutMs`: the token's short hash, when it came (Date.now(), one clock for every process
 * of the machine) and the provider's events. The test kills the process that holds the claim
 * while its grant hangs; the others' getToken must take over once that claim expires.
 */
async function token({ baseUrl, timeoutMs }) {
  const events = [];
  const provider = createTokenProvider({
    baseUrl,
    clientId: "dev-client",
    clientSecret: "dev-secret",
    username: "admin@acme.test",
    password: "dev-password",
    store: redis.store,
    timeoutMs,
    onEvent: (e) => events.push(e.type === "grant" ? `grant:${e.grant}:${e.ok}` : e.type === "storeUnavailable" ? `storeUnavailable:${e.operation}` : e.type),
  });
  try {
    const t = await provider.getToken();
    return { tokenId: createHash("sha256").update(t.token).digest("hex").slice(0, 12), at: Date.now(), events };
  } catch (e) {
    return { error: `${e?.kind}: ${e?.message}`, at: Date.now(), events };
  } finally {
    provider.close();
  }
}

process.on("message", async (message) => {
  if (message.type === "token") process.send({ type: "token", result: await token(message) });
  if (message.type === "tokens") process.send({ type: "tokens", result: await tokens(message) });
  if (message.type === "stats") process.send({ type: "stats", stats });
  if (message.type === "burst") process.send({ type: "burst", result: await burst(message) });
  if (message.type === "stop") {
    server.close();
    server.closeAllConnections();
    await Promise.race([redis.close().catch(() => {}), sleep(1_000)]);
    process.exit(0);
  }
});
process.send({ type: "ready", url: `http://127.0.0.1:${server.address().port}` });
