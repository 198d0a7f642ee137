// Type tests of estatekit/store and where a store goes (the webhook receiver's dedupe, the
// client's rate limit), with @ts-expect-error lines that must fail to compile. Checked by
// `tsc --strict --noEmit` (make test-types); never run.
import { isStore, createMemoryStore, createRedisStore, type IoRedisClient, type NodeRedisClient, type Store } from "estatekit/store";
import { Client, type ClientEvent, type EnsureWebhookOptions } from "estatekit";
import { createWebhookHandler } from "estatekit/webhooks";

declare const nodeRedis: NodeRedisClient;
declare const ioredis: IoRedisClient;
declare const unknownValue: unknown;

export async function stores() {
  const memory: Store = createMemoryStore();
  createMemoryStore({ now: () => 0 });
  const a: Store = createRedisStore(nodeRedis);
  createRedisStore(ioredis, { prefix: "app:" });
  // @ts-expect-error not a Redis client
  createRedisStore({ get: () => null });
  // @ts-expect-error the prefix is a string
  createRedisStore(ioredis, { prefix: 1 });
  const owner: string | null = await a.claim("k", 1000);
  if (owner !== null) await a.release("k", owner);
  const wait: number = await memory.take("k", 10, 60_000);
  const value: string | null | undefined = await memory.get("k");
  // @ts-expect-error values are strings
  await memory.set("k", 1);
  if (isStore(unknownValue)) await unknownValue.delete("k");
  return [wait, value];
}

export function uses(store: Store) {
  createWebhookHandler({ on: {}, dedupe: store, claimTtlMs: 60_000, doneTtlMs: 86_400_000, storeTimeoutMs: 500, retryAfterMs: 2000 });
// @ts-expect-error renamed retryAfterMs (milliseconds) in 0.3.0
createWebhookHandler({ on: {}, retryAfterSeconds: 2 });
  createWebhookHandler({ on: {}, dedupe: true });
  createWebhookHandler({ on: {}, dedupe: { has: () => false, add: () => undefined } });
  // @ts-expect-error a dedupe store is a Store or { has, add }
  createWebhookHandler({ on: {}, dedupe: { claim: 1 } });

  new Client({ baseUrl: "https://acme.example.com", token: "t", rateLimit: { perMinute: 280, store } });
  new Client({ baseUrl: "https://acme.example.com", token: "t", rateLimit: { perMinute: 280, store, key: "acme" } });
  // @ts-expect-error the rate budget needs a store with take
  new Client({ baseUrl: "https://acme.example.com", token: "t", rateLimit: { perMinute: 280, store: { get: async () => null } } });

  // ensureWebhook's claim: any Store (createRedisStore, createMemoryStore), with the call's options.
  const client = new Client({ baseUrl: "https://acme.example.com", token: "t" });
  const input = { type: "UNIT_CREATED", url: "https://hooks.example.com/units" } as const;
  const id: Promise<string> = client.ensureWebhook(input, { store, timeoutMs: 30_000, signal: AbortSignal.timeout(60_000) });
  client.ensureWebhook(input, { store: createMemoryStore() });
  const options: EnsureWebhookOptions = { store, onEvent: (e) => void e.type };
  client.ensureWebhook(input, options);
  // @ts-expect-error the claim needs a store with claim and release
  client.ensureWebhook(input, { store: { take: async () => 0 } });
  // @ts-expect-error only ensureWebhook takes a store
  client.registerWebhook(input, { store });
  void id;
}

export function events(e: ClientEvent) {
  if (e.type === "store") {
    const purpose: "rate" | "webhook" = e.purpose;
    const reason: "timeout" | "error" = e.reason;
    const call: number = e.callId;
    return [purpose, reason, call];
  }
  return [];
}
