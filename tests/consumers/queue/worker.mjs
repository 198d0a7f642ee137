// A worker process of tests/consumers/queue.test.mjs, as docs/webhooks.md's queued mode shows
// it: a BullMQ Worker whose processor is `webhookProcessor({ on })`, concurrency 5. The handler
// takes 300 ms (HANDLER_MS; UNIT_UPDATED's waits until the test opens a gate) and records, in Redis, each run's start (with this worker's name) and
// its completion, per uuid: the test counts jobs lost and run twice from there. A second Worker
// runs `webhooks-failing`, whose handler always throws.
import { Worker } from "bullmq";
import { Redis } from "ioredis";
import { webhookProcessor } from "estatekit/webhooks";

const { REDIS_PORT, WORKER_NAME, HANDLER_MS = "300" } = process.env;
const connection = new Redis({ host: "127.0.0.1", port: Number(REDIS_PORT), maxRetriesPerRequest: null, retryStrategy: () => 100 });
connection.on("error", () => {});
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const work = async (event) => {
  await connection.rpush(`test:started:${event.uuid}`, WORKER_NAME);
  await sleep(Number(HANDLER_MS)); // syncing a CRM, rendering a PDF...
  await connection.hincrby("test:completed", event.uuid, 1);
};
/** UNIT_UPDATED's handler runs until the test opens the gate (a key in Redis). */
const gated = async (event) => {
  await connection.rpush(`test:started:${event.uuid}`, WORKER_NAME);
  while (!(await connection.get("test:gate"))) await sleep(50);
  await connection.hincrby("test:completed", event.uuid, 1);
};
const on = { UNIT_CREATED: work, UNIT_UPDATED: gated, UNIT_DELETED: work };
// A killed worker's jobs are taken again once their lock lapsed (lockDuration) and a stalled
// check saw it (stalledInterval): short here, so that the test does not wait 30 s.
const options = { connection, concurrency: 5, lockDuration: 2_000, stalledInterval: 1_000 };
const worker = new Worker("webhooks", webhookProcessor({ on, onUnknown: work }), options);
const failing = new Worker(
  "webhooks-failing",
  webhookProcessor({
    on: {
      UNIT_CREATED: (event, { attempt }) => {
        throw new Error(`the CRM refused ${event.uuid} (attempt ${attempt})`);
      },
    },
  }),
  options,
);
worker.on("error", () => {});
failing.on("error", () => {});
await worker.waitUntilReady();
await failing.waitUntilReady();
process.send({ type: "ready" });
process.on("message", async (m) => {
  if (m.type === "stop") {
    await Promise.allSettled([worker.close(), failing.close()]);
    connection.disconnect();
    process.exit(0);
  }
});
