// One app server of tests/consumers/live.test.mjs, as docs/live.md shows it: per account a
// receiver (`createWebhookHandler({ on, log, secret, subdomain })` on /hooks/<account>) and one
// stream route (`createEventStream`, GET /live) whose `authorize` reads the session cookie
// (`staff=<account>`), all on one Redis event log shared by every server. SIGTERM ends its streams
// (pages reconnect to another server). It tells the test its URL through IPC; with
// `--expose-gc`, `memory` answers the heap after a collection (for the memory per stream).
import { createServer } from "node:http";
import { createClient } from "redis";
import { Redis } from "ioredis";
import { createWebhookHandler } from "estatekit/webhooks";
import { createEventStream, createRedisEventLog, toNodeListener } from "estatekit/live";

const { REDIS_PORT, CLIENT, ACCOUNTS, SECRET, MAX_LENGTH } = process.env;
const url = `redis://127.0.0.1:${REDIS_PORT}`;
const client =
  CLIENT === "ioredis"
    ? new Redis({ host: "127.0.0.1", port: Number(REDIS_PORT), maxRetriesPerRequest: 1, retryStrategy: () => 100 })
    : createClient({ url, socket: { reconnectStrategy: () => 100 } });
client.on("error", () => {});
if (CLIENT !== "ioredis") await client.connect();
const log = createRedisEventLog(client, { maxLength: Number(MAX_LENGTH ?? 10_000), timeoutMs: 2_000 });
const accounts = ACCOUNTS.split(",");
const errors = [];
const receivers = new Map(
  accounts.map((account) => [
    account,
    toNodeListener(createWebhookHandler({ on: {}, log, secret: SECRET, subdomain: account, storeTimeoutMs: 2_000, retryAfterMs: 1_000, onError: (e) => errors.push(e.name) })),
  ]),
);
const route = createEventStream({
  log,
  accounts,
  heartbeatMs: 5_000,
  authorize(request) {
    const staff = /(?:^|;\s*)staff=([^;]+)/.exec(request.headers.get("cookie") ?? "")?.[1];
    return staff ? { account: decodeURIComponent(staff) } : null;
  },
  onError: (e) => errors.push(String(e?.message ?? e)),
});
const stream = toNodeListener(route);
const server = createServer((req, res) => {
  const path = new URL(req.url ?? "/", "http://x").pathname;
  if (path === "/live") return stream(req, res);
  const hook = /^\/hooks\/([^/]+)$/.exec(path);
  if (hook && receivers.has(hook[1])) return /** @type {Function} */ (receivers.get(hook[1]))(req, res);
  res.statusCode = 404;
  res.end();
});
server.listen(0, "127.0.0.1", () => process.send({ type: "ready", url: `http://127.0.0.1:${server.address().port}` }));
process.on("SIGTERM", () => {
  route.close();
  server.close(() => process.exit(0));
  server.closeIdleConnections?.();
});
process.on("message", async (m) => {
  if (m.type === "errors") process.send({ type: "errors", errors });
  if (m.type === "memory") {
    for (let i = 0; i < 3; i++) globalThis.gc?.();
    process.send({ type: "memory", open: route.open, heapUsed: process.memoryUsage().heapUsed, rss: process.memoryUsage().rss });
  }
});
