// One process of an app whose processes run on different runtimes (Node, Bun, Deno: the same
// file) and share estatekit/store on one Redis (node-redis). Started three at once by
// tests/consumers/runtimes.test.mjs with the same webhook delivery (ENVELOPE, a body the emulator
// sent):
// - tokens: a token provider of estatekit/auth on the shared store behind a Client makes one call
//   (one password grant across the fleet: the others take the stored token set);
// - webhooks: estatekit/webhooks' handler, `dedupe` on the shared store, is given the delivery and
//   answers it; a 503 (another process handles that uuid now) is sent again 100 ms later (a
//   sender that comes back, sooner than Retry-After asks), until another answer. The handler
//   counts its runs in Redis and holds on until every other process (FLEET_SIZE in all) was
//   answered 503 once (each adds itself to a Redis set then), so that the copies do overlap
//   whatever the order the processes start in; it gives up waiting after 60 s.
// Prints one JSON line: the statuses it answered, whether its handler ran here, and, if it did,
// whether the others were refused while it ran.
import { createClient } from "redis";
import { Client } from "estatekit";
import { createTokenProvider } from "estatekit/auth";
import { createRedisStore } from "estatekit/store";
import { createWebhookHandler } from "estatekit/webhooks";

const runtime = typeof Deno !== "undefined" ? "deno" : typeof Bun !== "undefined" ? "bun" : "node";
const env = (name) => (typeof Deno !== "undefined" ? Deno.env.get(name) : process.env[name]);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const redis = createClient({ socket: { host: "127.0.0.1", port: Number(env("REDIS_PORT")) } });
await redis.connect();
const store = createRedisStore(redis);

const baseUrl = env("ESTATEKIT_EMULATOR_URL");
const provider = createTokenProvider({ baseUrl, clientId: "dev-client", clientSecret: "dev-secret", username: "admin@acme.test", password: "dev-password", store });
const client = new Client({ baseUrl, getToken: (reason) => provider.getToken(reason) });
const webhooks = await client.listWebhooks();

const envelope = env("ENVELOPE");
/** The Redis set of the processes answered 503 for this delivery. */
const refused = `fleet:refused:${JSON.parse(envelope).uuid}`;
const others = Number(env("FLEET_SIZE")) - 1;
let handledHere = 0;
let othersRefused;
const handler = createWebhookHandler({
  dedupe: store,
  on: {
    UNIT_CREATED: async (event) => {
      await redis.incr(`fleet:handled:${event.uuid}`);
      handledHere += 1;
      const until = Date.now() + 60_000;
      othersRefused = false;
      while (!othersRefused && Date.now() < until) {
        othersRefused = (await redis.sCard(refused)) >= others;
        if (!othersRefused) await sleep(20);
      }
    },
  },
});
const statuses = [];
for (let attempt = 0; attempt < 200; attempt++) {
  const response = await handler(new Request("http://127.0.0.1/hooks/fleet", { method: "POST", headers: { "content-type": "application/json" }, body: envelope }));
  statuses.push(response.status);
  if (response.status !== 503) break;
  if (statuses.length === 1) await redis.sAdd(refused, runtime);
  await sleep(100);
}
provider.close();
client.free();
await redis.quit();
console.log(JSON.stringify({ runtime, webhooks: Array.isArray(webhooks), statuses, handledHere, othersRefused }));
