// estatekit/store: what several processes of one app share, and its in-memory and Redis stores.

/**
 * What several processes share: token sets, webhook dedupe marks, the rate budget, the claim of
 * `ensureWebhook(input, { store })`. Values are strings. Every method may reject (store
 * unreachable); callers bound each call with a timeout.
 */
export interface Store {
  /** The value under `key`; null (or undefined) when absent or expired. */
  get(key: string): Promise<string | null | undefined>;
  /** Sets `key` to `value`, expiring after `ttlMs` when given (else kept). */
  set(key: string, value: string, ttlMs?: number): Promise<void>;
  /** Removes `key`. */
  delete(key: string): Promise<void>;
  /**
   * Takes `key` if absent (set-if-absent with expiry, like `SET key owner NX PX ttlMs`):
   * resolves with a new owner id when taken, null when another holds it.
   */
  claim(key: string, ttlMs: number): Promise<string | null>;
  /** Releases a claim, only if `owner` still holds it (compare-and-delete, a Lua script on Redis). */
  release(key: string, owner: string): Promise<void>;
  /**
   * Takes one from a budget of `perWindow` per `windowMs` under `key`, atomically: resolves 0 when
   * taken, else the milliseconds until the window has room.
   */
  take(key: string, perWindow: number, windowMs: number): Promise<number>;
}

/** Options of {@link createMemoryStore}. */
export interface MemoryStoreOptions {
  /** The clock, in milliseconds (default `Date.now`): for tests. */
  now?: () => number;
}

/**
 * A store in this process's memory, with expiry honoured: the default everywhere. It shares
 * nothing between processes; use {@link createRedisStore} for that.
 */
export function createMemoryStore(options?: MemoryStoreOptions): Store;

/** A node-redis v4/v5 client (`createClient()` of the `redis` package), as {@link createRedisStore} uses it. */
export interface NodeRedisClient {
  /**
   * Sends one raw command, e.g. `["SET", "k", "v", "NX", "PX", "1000"]`; the signal (v5's
   * `abortSignal`, v4's `signal`) takes it out of the client's offline queue once it fires.
   */
  sendCommand(args: string[], options?: { abortSignal?: AbortSignal; signal?: AbortSignal }): Promise<unknown>;
}

/** An ioredis client (`new Redis(...)`), as {@link createRedisStore} uses it. */
export interface IoRedisClient {
  /** Sends one raw command, e.g. `call("SET", "k", "v", "NX", "PX", "1000")`. */
  call(command: string, ...args: string[]): Promise<unknown>;
}

/** Options of {@link createRedisStore}. */
export interface RedisStoreOptions {
  /** Put in front of every key (default `"estatekit:"`). */
  prefix?: string;
  /**
   * The longest a call waits for Redis, in milliseconds (default 5000): then it rejects, and with
   * node-redis a command still in the client's offline queue (Redis away) is dropped from it, not
   * sent once Redis is back.
   */
  timeoutMs?: number;
}

/**
 * A store on your own Redis connection, shared by every process that uses the same Redis:
 * a node-redis v4/v5 client (connected) or an ioredis client, told apart by their methods.
 * Every method is one command (`GET`, `SET ... PX`, `DEL`, `SET ... NX PX`, and `EVAL` of a
 * compare-and-delete or a fixed-window take); keys get `prefix` in front. estatekit depends on
 * neither client: pass the one your app has.
 */
export function createRedisStore(client: NodeRedisClient | IoRedisClient, options?: RedisStoreOptions): Store;

/** Whether `x` has every method of a {@link Store}. */
export function isStore(x: unknown): x is Store;

/**
 * `store` with each method's answer checked against the {@link Store} contract (`get`: a string
 * or null/undefined; `claim`: an owner id string or null; `take`: a non-negative finite number):
 * a wrong answer rejects at once with an `ApiError` of kind `invalid_input` that names the method and what it resolved,
 * e.g. `store.claim resolved true; it must resolve an owner id (string) or null`. estatekit
 * checks every store it is given this way; use it to test a store you write.
 */
export function checkedStore<T extends object>(store: T): T;
