// One process of an app that runs as several (tests/consumers/ensure-webhook.test.mjs forks
// four): its own Redis connection (node-redis or ioredis, REDIS_CLIENT), estatekit/store's
// createRedisStore on it, and a Client that calls ensureWebhook(input, { store }) when asked, at the
// instant the test names (so that the processes call it together). It talks through IPC.
import { Client } from "estatekit";
import { createRedisStore } from "estatekit/store";

const { REDIS_PORT, REDIS_CLIENT, EMULATOR_URL } = process.env;

/** The app's own connection, reconnecting every 100 ms while Redis is away. */
async function connect() {
  if (REDIS_CLIENT === "ioredis") {
    const { Redis } = await import("ioredis");
    const redis = new Redis({ host: "127.0.0.1", port: Number(REDIS_PORT), retryStrategy: () => 100, maxRetriesPerRequest: null });
    redis.on("error", () => {});
    return { store: createRedisStore(redis), ping: () => redis.ping(), close: async () => redis.disconnect() };
  }
  const { createClient } = await import("redis");
  const redis = createClient({ socket: { host: "127.0.0.1", port: Number(REDIS_PORT), reconnectStrategy: () => 100 } });
  redis.on("error", () => {});
  await redis.connect();
  return { store: createRedisStore(redis), ping: () => redis.ping(), close: async () => redis.destroy() };
}

const redis = await connect();
const storeEvents = [];
const client = new Client({
  baseUrl: EMULATOR_URL,
  token: "dev-token",
  timeoutMs: 30_000,
  onEvent: (e) => {
    if (e.type === "store") storeEvents.push(`${e.purpose}/${e.reason}`);
  },
});

process.on("message", async (m) => {
  if (m.type === "ensure") {
    await new Promise((r) => setTimeout(r, Math.max(0, m.at - Date.now())));
    const started = Date.now();
    try {
      const id = await client.ensureWebhook(m.input, { store: redis.store });
      process.send({ type: "ensured", id, ms: Date.now() - started, storeEvents: storeEvents.splice(0) });
    } catch (e) {
      process.send({ type: "ensured", error: `${e?.kind}: ${e?.message}`, ms: Date.now() - started, storeEvents: storeEvents.splice(0) });
    }
  } else if (m.type === "reconnected") {
    // Answers once this process's own connection answers PING again (the app's client reconnects
    // on its own schedule after an outage; a call made before that is refused, as it should be).
    const deadline = Date.now() + 30_000;
    for (;;) {
      const ok = await Promise.race([redis.ping().then(() => true, () => false), new Promise((r) => setTimeout(r, 1_000, false))]);
      if (ok || Date.now() > deadline) {
        process.send({ type: "reconnected", ok });
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  } else if (m.type === "stop") {
    await redis.close();
    process.exit(0);
  }
});
process.send({ type: "ready" });
