// The receiving process of tests/consumers/queue.test.mjs, as docs/webhooks.md's queued mode
// shows it: a BullMQ Queue on the app's Redis, `createWebhookHandler({ queue })` served by
// node:http. Two queues: `webhooks` (the test's deliveries) and `webhooks-failing` (a handler that
// always throws: its jobs end in the failed set), on /hooks and /hooks/failing. It tells the test
// its URL through IPC.
import { createServer } from "node:http";
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { createWebhookHandler, toNodeListener } from "estatekit/webhooks";

const connection = new Redis({ host: "127.0.0.1", port: Number(process.env.REDIS_PORT), maxRetriesPerRequest: null, retryStrategy: () => 100 });
connection.on("error", () => {});
/** Kept (not removed on completion) for a day: a redelivery of a handled uuid is the same job. */
const defaultJobOptions = { attempts: 3, backoff: { type: "exponential", delay: 200 }, removeOnComplete: { age: 24 * 3600 }, removeOnFail: { age: 7 * 24 * 3600 } };
const queue = new Queue("webhooks", { connection, defaultJobOptions });
const failing = new Queue("webhooks-failing", { connection, defaultJobOptions: { ...defaultJobOptions, attempts: 2, backoff: { type: "fixed", delay: 100 } } });
queue.on("error", () => {});
failing.on("error", () => {});
const errors = [];
const onError = (e) => errors.push(e.name);
const options = { storeTimeoutMs: 1_000, retryAfterMs: 1_000, onError };
const main = toNodeListener(createWebhookHandler({ queue, ...options }));
const other = toNodeListener(createWebhookHandler({ queue: failing, ...options }));
const server = createServer((req, res) => (req.url === "/hooks/failing" ? other : main)(req, res));
server.listen(0, "127.0.0.1", () => process.send({ type: "ready", url: `http://127.0.0.1:${server.address().port}` }));
process.on("message", async (m) => {
  if (m.type === "errors") process.send({ type: "errors", errors });
  if (m.type === "stop") {
    server.close();
    await Promise.allSettled([queue.close(), failing.close()]);
    connection.disconnect();
    process.exit(0);
  }
});
