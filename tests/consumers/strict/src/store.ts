// `estatekit/store` alone: the stores a rate budget or webhook dedupe shares.
import { checkedStore, isStore, memoryStore, redisStore } from "estatekit/store";
import type { NodeRedisClient, Store } from "estatekit/store";

export function stores(redis: NodeRedisClient): Store[] {
  const memory: Store = checkedStore(memoryStore());
  const shared: Store = redisStore(redis, { prefix: "app:" });
  return [memory, shared].filter(isStore);
}
