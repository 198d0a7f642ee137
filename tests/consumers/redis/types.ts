// The app's own Redis clients, as their packages declare them, fit createRedisStore (checked by
// redis.test.mjs with tsc --strict against the installed declarations; never run).
import { createClient } from "redis";
import { Redis } from "ioredis";
import { createRedisStore, type Store } from "estatekit/store";
import { Client } from "estatekit";
import { createWebhookHandler } from "estatekit/webhooks";

const nodeRedis: Store = createRedisStore(createClient());
const ioredis: Store = createRedisStore(new Redis(), { prefix: "app:" });
// @ts-expect-error a cluster client is not a connection createRedisStore can use (docs/scaling.md)
createRedisStore({ sendCommand: (slotKey: string, readonly: boolean, args: string[]) => Promise.resolve([slotKey, readonly, args]) });

export const handler = createWebhookHandler({ dedupe: nodeRedis, claimTtlMs: 60_000, on: {} });
export const client = new Client({ baseUrl: "https://acme.example.com", token: "t", rateLimit: { perMinute: 280, store: ioredis } });
