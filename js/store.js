/* @ts-self-types="./store.d.ts" */
// estatekit/store: what several processes of one app share (a token provider's token set, the
// webhook receiver's dedupe marks, the client's rate budget), behind one small interface. Plain
// JavaScript, no module: each method is one Map operation (createMemoryStore) or one Redis command
// (createRedisStore), and the atomic parts are Redis's own (SET NX PX, two Lua scripts).
// Its declarations are ./store.d.ts. Refused input (a wrong argument, a store's wrong answer) is
// an ApiError of kind invalid_input (./api_error.js), as in every entry (docs/errors.md).
import { apiError } from "./api_error.js";
import { redisSender } from "./redis_send.js";

/** @typedef {import("./store.js").Store} Store */
/** @typedef {import("./store.js").MemoryStoreOptions} MemoryStoreOptions */
/** @typedef {import("./store.js").RedisStoreOptions} RedisStoreOptions */
/** @typedef {import("./store.js").NodeRedisClient} NodeRedisClient */
/** @typedef {import("./store.js").IoRedisClient} IoRedisClient */

const METHODS = /** @type {const} */ (["get", "set", "delete", "claim", "release", "take"]);

/**
 * Whether `x` has every method of a {@link Store}.
 * @param {unknown} x
 * @returns {x is Store}
 */
export function isStore(x) {
  return typeof x === "object" && x !== null && METHODS.every((m) => typeof (/** @type {Record<string, unknown>} */ (x))[m] === "function");
}

/**
 * What `get`, `claim` and `take` must resolve with (`set`, `delete` and `release` may resolve
 * anything): a check, and the words of the error when it fails.
 * @type {Record<string, [(value: unknown) => boolean, string]>}
 */
const ANSWERS = {
  get: [(v) => v == null || typeof v === "string", "a string, or null (or undefined) when absent"],
  claim: [(v) => v === null || typeof v === "string", "an owner id (string) or null"],
  take: [(v) => typeof v === "number" && Number.isFinite(v) && v >= 0, "a non-negative finite number of milliseconds"],
};

/**
 * How an answer is named in an error: numbers, booleans, null and undefined as they are; a
 * string or an object only by its kind (a store's value may be a token set).
 * @param {unknown} value
 */
function named(value) {
  if (value === null || ["undefined", "boolean", "number", "bigint"].includes(typeof value)) return String(value);
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/** Stores that went through {@link checkedStore}. */
const CHECKED = new WeakSet();

/**
 * `store` with the answer of each method checked against the {@link Store} contract: a wrong one
 * rejects at once with an ApiError of kind invalid_input naming the method and what it resolved (e.g. "store.claim
 * resolved true; it must resolve an owner id (string) or null"), instead of being taken for
 * something else. Every user of a store in estatekit (token providers, `fresh`, the webhook
 * receiver's dedupe, the client's rate budget) goes through it. Methods the store lacks stay
 * absent (the user of the store says which it needs); anything that is not an object is returned
 * as it is, for its user to refuse by the option's name.
 * @template T
 * @param {T} store
 * @returns {T}
 */
export function checkedStore(store) {
  if (typeof store !== "object" || store === null || CHECKED.has(store)) return store;
  const given = /** @type {Record<string, unknown>} */ (store);
  /** @type {Record<string, (...args: unknown[]) => Promise<unknown>>} */
  const checked = {};
  for (const name of METHODS) {
    const method = given[name];
    if (typeof method !== "function") continue;
    const rule = ANSWERS[name];
    checked[name] = async (...args) => {
      const value = await method.apply(store, args);
      if (rule && !rule[0](value)) {
        throw apiError("invalid_input", `store.${name} resolved ${named(value)}; it must resolve ${rule[1]}`);
      }
      return value;
    };
  }
  CHECKED.add(checked);
  return /** @type {T} */ (/** @type {unknown} */ (checked));
}

/** A new owner id for a claim: random, unguessable. */
const ownerId = () => globalThis.crypto.randomUUID();

/**
 * A positive whole number of milliseconds, or an ApiError (invalid_input) naming the argument.
 * @param {string} name
 * @param {unknown} ms
 * @returns {number}
 */
function positiveMs(name, ms) {
  if (typeof ms !== "number" || !Number.isSafeInteger(ms) || ms < 1) {
    throw apiError("invalid_input", `estatekit/store: \`${name}\` must be a positive whole number of milliseconds`);
  }
  return ms;
}

/**
 * @param {unknown} key
 * @returns {string}
 */
function checkKey(key) {
  if (typeof key !== "string" || key === "") throw apiError("invalid_input", "estatekit/store: `key` must be a non-empty string");
  return key;
}

/**
 * A store in this process's memory, with expiry: the default everywhere, for one process.
 * @param {MemoryStoreOptions} [options]
 * @returns {Store}
 */
export function createMemoryStore(options = {}) {
  const now = options.now ?? Date.now;
  /** @type {Map<string, { value: string, expires: number }>} */
  const values = new Map();
  /** @type {Map<string, { count: number, expires: number }>} */
  const budgets = new Map();
  let writes = 0;
  /** The live entry under `key`, an expired one removed. */
  const live = (/** @type {string} */ key) => {
    const entry = values.get(key);
    if (entry && entry.expires <= now()) {
      values.delete(key);
      return undefined;
    }
    return entry;
  };
  /** Every 1,000 writes, expired entries are dropped (reads drop them one by one too). */
  const sweep = () => {
    if (++writes % 1000) return;
    const t = now();
    for (const [k, e] of values) if (e.expires <= t) values.delete(k);
    for (const [k, b] of budgets) if (b.expires <= t) budgets.delete(k);
  };
  return {
    async get(key) {
      return live(checkKey(key))?.value ?? null;
    },
    async set(key, value, ttlMs) {
      checkKey(key);
      if (typeof value !== "string") throw apiError("invalid_input", "estatekit/store: `value` must be a string");
      const expires = ttlMs === undefined ? Infinity : now() + positiveMs("ttlMs", ttlMs);
      values.set(key, { value, expires });
      sweep();
    },
    async delete(key) {
      values.delete(checkKey(key));
    },
    async claim(key, ttlMs) {
      checkKey(key);
      const expires = now() + positiveMs("ttlMs", ttlMs);
      if (live(key)) return null;
      const owner = ownerId();
      values.set(key, { value: owner, expires });
      sweep();
      return owner;
    },
    async release(key, owner) {
      if (live(checkKey(key))?.value === owner) values.delete(key);
    },
    async take(key, perWindow, windowMs) {
      checkKey(key);
      positiveMs("windowMs", windowMs);
      if (!Number.isSafeInteger(perWindow) || perWindow < 1) throw apiError("invalid_input", "estatekit/store: `perWindow` must be a positive whole number");
      const t = now();
      let budget = budgets.get(key);
      if (!budget || budget.expires <= t) {
        budget = { count: 0, expires: t + windowMs };
        budgets.set(key, budget);
        sweep();
      }
      if (budget.count < perWindow) {
        budget.count += 1;
        return 0;
      }
      return Math.max(1, budget.expires - t);
    },
  };
}

/**
 * How long a createRedisStore call waits for Redis by default: longer than every bound estatekit's own
 * users of a store put on a call (1-2 s), so that they decide first; still an end.
 */
const DEFAULT_REDIS_TIMEOUT_MS = 5_000;

/** Compare-and-delete: removes KEYS[1] only if it holds ARGV[1] (the claim's owner). */
const RELEASE = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`;

/**
 * A fixed window: the first take of a window starts its expiry; within ARGV[1] takes it answers
 * 0, past them the milliseconds left (at least 1).
 */
const TAKE = `local n = redis.call("INCR", KEYS[1])
if n == 1 then redis.call("PEXPIRE", KEYS[1], ARGV[2]) end
if n <= tonumber(ARGV[1]) then return 0 end
local t = redis.call("PTTL", KEYS[1])
if t < 0 then redis.call("PEXPIRE", KEYS[1], ARGV[2]) return tonumber(ARGV[2]) end
if t < 1 then return 1 end
return t`;

/**
 * A store on the app's own Redis connection: a node-redis v4/v5 client (`createClient()` of the
 * `redis` package, connected) or an ioredis client, told apart by their methods. Every command
 * is sent raw (`sendCommand([...])`, `call(...)`), each key with `prefix` in front.
 * @param {NodeRedisClient | IoRedisClient} client
 * @param {RedisStoreOptions} [options]
 * @returns {Store}
 */
export function createRedisStore(client, options = {}) {
  const { prefix = "estatekit:", timeoutMs = DEFAULT_REDIS_TIMEOUT_MS } = options;
  if (typeof prefix !== "string") throw apiError("invalid_input", "createRedisStore: `prefix` must be a string");
  positiveMs("timeoutMs", timeoutMs);
  // Every command raw, bounded by timeoutMs (./redis_send.js).
  const send = redisSender(client, timeoutMs, "createRedisStore");
  const k = (/** @type {unknown} */ key) => prefix + checkKey(key);
  /** An integer reply (node-redis and ioredis give numbers; a string is read too). */
  const int = (/** @type {unknown} */ reply) => Number(reply);
  return {
    async get(key) {
      const value = await send(["GET", k(key)]);
      return value == null ? null : String(value);
    },
    async set(key, value, ttlMs) {
      if (typeof value !== "string") throw apiError("invalid_input", "estatekit/store: `value` must be a string");
      const args = ["SET", k(key), value];
      if (ttlMs !== undefined) args.push("PX", String(positiveMs("ttlMs", ttlMs)));
      await send(args);
    },
    async delete(key) {
      await send(["DEL", k(key)]);
    },
    async claim(key, ttlMs) {
      const owner = ownerId();
      const reply = await send(["SET", k(key), owner, "NX", "PX", String(positiveMs("ttlMs", ttlMs))]);
      return reply == null ? null : owner;
    },
    async release(key, owner) {
      if (typeof owner !== "string") throw apiError("invalid_input", "estatekit/store: `owner` must be the string claim() gave");
      await send(["EVAL", RELEASE, "1", k(key), owner]);
    },
    async take(key, perWindow, windowMs) {
      if (!Number.isSafeInteger(perWindow) || perWindow < 1) throw apiError("invalid_input", "estatekit/store: `perWindow` must be a positive whole number");
      const reply = await send(["EVAL", TAKE, "1", k(key), String(perWindow), String(positiveMs("windowMs", windowMs))]);
      const wait = int(reply);
      if (!Number.isFinite(wait) || wait < 0) throw new Error(`estatekit/store: unexpected reply to the take script (${typeof reply})`);
      return wait;
    },
  };
}
