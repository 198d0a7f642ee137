// `estatekit/store` alone: the stores a rate budget or webhook dedupe shares.
import { checkedStore, isStore, createMemoryStore, createRedisStore } from "estatekit/store";
import type { NodeRedisClient, Store } from "estatekit/store";

export function stores(redis: NodeRedisClient): Store[] {
  const memory: Store = checkedStore(createMemoryStore());
  const shared: Store = createRedisStore(redis, { prefix: "app:" });
  return [memory, shared].filter(isStore);
}
