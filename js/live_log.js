// estatekit/live's event logs: where `createWebhookHandler({ log })` appends each accepted event
// of an account, and what `createEventStream` reads and follows. Plain JavaScript, no module.
// - createMemoryEventLog: one process (and estatekit/testing); positions are `<start>:<n>`, the
//   log's start (a random word drawn when it was made) and the entry's number, so that a position
//   of another run (a restart) is told apart, never taken for one of this run;
// - createRedisEventLog: several processes, a Redis Stream per account on the app's node-redis or
//   ioredis connection; the append and its dedupe by uuid are one Lua script; reading a position
//   and checking that the log still holds it are one script too; one blocking XREAD per log (on a
//   connection of its own) follows every account that has a follower in this process.
// Both are bounded: `maxLength` entries per account, and/or `maxAgeMs`.
import { apiError } from "./api_error.js";
import { redisSender, redisKind } from "./redis_send.js";

/** @typedef {import("./live.js").EventLog} EventLog */
/** @typedef {import("./live.js").LogEntry} LogEntry */
/** @typedef {import("./live.js").LogRead} LogRead */
/** @typedef {import("./live.js").LogFollower} LogFollower */
/** @typedef {import("./live.js").MemoryEventLogOptions} MemoryEventLogOptions */
/** @typedef {import("./live.js").RedisEventLogOptions} RedisEventLogOptions */

/** How long a uuid appended is remembered (a redelivery within it appends nothing): 7 days. */
const DEDUPE_TTL_MS = 7 * 24 * 3600_000;
/** The bound when the app gives none: the last 10,000 entries per account. */
const MAX_LENGTH = 10_000;

/**
 * A positive whole number option, or its default.
 * @param {string} who
 * @param {string} name
 * @param {unknown} value
 * @param {number | undefined} fallback
 * @returns {number | undefined}
 */
function positiveOption(who, name, value, fallback) {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 1) {
    throw apiError("invalid_input", `${who}: \`${name}\` must be a positive whole number`);
  }
  return value;
}

/**
 * @param {string} who
 * @param {unknown} account
 * @returns {string}
 */
function checkAccount(who, account) {
  if (typeof account !== "string" || account === "" || /[\s:]/.test(account)) {
    throw apiError("invalid_input", `${who}: the account must be a subdomain (a non-empty string without spaces or colons)`);
  }
  return account;
}

/**
 * The bounds of a log: `maxLength` (default 10,000 when neither is given) and `maxAgeMs`.
 * @param {string} who
 * @param {{ maxLength?: number, maxAgeMs?: number, dedupeTtlMs?: number }} options
 */
function boundsOf(who, options) {
  const maxAgeMs = positiveOption(who, "maxAgeMs", options.maxAgeMs, undefined);
  const maxLength = positiveOption(who, "maxLength", options.maxLength, maxAgeMs === undefined ? MAX_LENGTH : undefined);
  const dedupeTtlMs = /** @type {number} */ (positiveOption(who, "dedupeTtlMs", options.dedupeTtlMs, DEDUPE_TTL_MS));
  return { maxLength, maxAgeMs, dedupeTtlMs };
}

/**
 * Checks what `append` is given.
 * @param {string} who
 * @param {{ uuid?: unknown, type?: unknown, data?: unknown }} event
 */
function checkAppended(who, event) {
  if (typeof event?.uuid !== "string" || typeof event.type !== "string" || typeof event.data !== "string") {
    throw apiError("invalid_input", `${who}: append takes { uuid, type, data } strings (data: the event's text as received)`);
  }
}

/**
 * A log in this process's memory: for one process, tests and estatekit/testing.
 * @param {MemoryEventLogOptions} [options]
 * @returns {EventLog}
 */
export function createMemoryEventLog(options = {}) {
  const who = "createMemoryEventLog";
  const { maxLength, maxAgeMs, dedupeTtlMs } = boundsOf(who, options);
  const now = options.now ?? Date.now;
  // The log's start, carried by every position: a position of another run is not this run's.
  const start = globalThis.crypto.randomUUID().slice(0, 8);
  /** @type {Map<string, { entries: LogEntry[], next: number, seen: Map<string, number>, followers: Set<LogFollower> }>} */
  const accounts = new Map();
  const accountOf = (/** @type {string} */ name) => {
    let account = accounts.get(name);
    if (!account) accounts.set(name, (account = { entries: [], next: 1, seen: new Map(), followers: new Set() }));
    return account;
  };
  const idOf = (/** @type {number} */ n) => `${start}:${n}`;
  /** Drops what is over the bounds (oldest first), and uuids remembered longer than dedupeTtlMs. */
  const trim = (/** @type {ReturnType<typeof accountOf>} */ account, /** @type {number} */ t) => {
    const { entries, seen } = account;
    let drop = maxLength === undefined ? 0 : Math.max(0, entries.length - maxLength);
    if (maxAgeMs !== undefined) while (drop < entries.length && /** @type {LogEntry} */ (entries[drop]).at <= t - maxAgeMs) drop++;
    if (drop) entries.splice(0, drop);
    for (const [uuid, expires] of seen) {
      if (expires > t) break; // in order of insertion, so of expiry
      seen.delete(uuid);
    }
  };
  return {
    kind: "memory",
    async append(name, event) {
      checkAppended(who, event);
      const account = accountOf(checkAccount(who, name));
      const t = now();
      trim(account, t);
      if (account.seen.has(event.uuid)) return null;
      account.seen.set(event.uuid, t + dedupeTtlMs);
      /** @type {LogEntry} */
      const entry = { id: idOf(account.next++), type: event.type, data: event.data, at: t };
      account.entries.push(entry);
      trim(account, t);
      for (const follower of account.followers) follower.entries([entry]);
      return entry.id;
    },
    async read(name, after, count = 100) {
      const account = accountOf(checkAccount(who, name));
      trim(account, now());
      const last = account.next - 1;
      if (after == null) return { position: idOf(last), entries: [] };
      const [from, nText] = String(after).split(":");
      const n = Number(nText);
      const first = account.entries[0] ? Number(String(account.entries[0].id).split(":")[1]) : account.next;
      // Held: this run's position, not past the end, and no entry after it trimmed.
      if (from !== start || !Number.isSafeInteger(n) || n < 0 || n > last || n + 1 < first) return { reset: idOf(last), entries: [] };
      const entries = account.entries.slice(n + 1 - first, n + 1 - first + count);
      return { position: entries.length ? /** @type {LogEntry} */ (entries[entries.length - 1]).id : String(after), entries };
    },
    isAfter(a, b) {
      const [as, an] = a.split(":");
      const [bs, bn] = b.split(":");
      return as !== bs || Number(an) > Number(bn);
    },
    async follow(name, follower) {
      const account = accountOf(checkAccount(who, name));
      account.followers.add(follower);
      return () => void account.followers.delete(follower);
    },
    async close() {
      for (const account of accounts.values()) account.followers.clear();
    },
  };
}

/**
 * Append + dedupe, one step: KEYS[1] the account's stream, KEYS[2] the uuid's mark; ARGV: type,
 * data, uuid, the mark's ttl (ms), the trim (`MAXLEN` n, or 0), the age bound (ms, or 0). A uuid
 * marked already appends nothing (nil); else the new entry's id.
 */
const APPEND = `if not redis.call("SET", KEYS[2], "1", "NX", "PX", ARGV[4]) then return false end
local id = redis.call("XADD", KEYS[1], "*", "type", ARGV[1], "data", ARGV[2], "uuid", ARGV[3])
if tonumber(ARGV[5]) > 0 then redis.call("XTRIM", KEYS[1], "MAXLEN", ARGV[5]) end
if tonumber(ARGV[6]) > 0 then
  local ms = tonumber(string.match(id, "^(%d+)-"))
  redis.call("XTRIM", KEYS[1], "MINID", tostring(ms - tonumber(ARGV[6]) + 1))
end
return id`;

/**
 * Read after a position, with what tells whether the log still holds it, one step: KEYS[1] the
 * stream; ARGV[1] the position (exclusive), ARGV[2] the count. Gives { first entry id or "",
 * last generated id, entries, 1 when no entry was ever removed (0 else) }. Redis 7.0's XINFO
 * STREAM: trimming moves `first-entry` (and not `max-deleted-entry-id`, which counts XDEL only);
 * `entries-added` over `length` counts what was removed.
 */
const READ = `if redis.call("EXISTS", KEYS[1]) == 0 then return { "", "0-0", {}, 1 } end
local info = redis.call("XINFO", "STREAM", KEYS[1])
local first, last, added, length = "", "0-0", 0, 0
for i = 1, #info, 2 do
  if info[i] == "first-entry" and info[i + 1] then first = info[i + 1][1] end
  if info[i] == "last-generated-id" then last = info[i + 1] end
  if info[i] == "entries-added" then added = info[i + 1] end
  if info[i] == "length" then length = info[i + 1] end
end
local entries = {}
if ARGV[1] ~= "" then entries = redis.call("XRANGE", KEYS[1], "(" .. ARGV[1], "+", "COUNT", ARGV[2]) end
return { first, last, entries, added == length and 1 or 0 }`;

/**
 * A stream id as [ms, seq], or undefined when it is not one.
 * @param {unknown} id
 * @returns {[number, number] | undefined}
 */
function streamId(id) {
  const m = typeof id === "string" ? /^(\d{1,16})-(\d{1,16})$/.exec(id) : null;
  if (!m) return undefined;
  const ms = Number(m[1]);
  const seq = Number(m[2]);
  return Number.isSafeInteger(ms) && Number.isSafeInteger(seq) ? [ms, seq] : undefined;
}

/**
 * -1, 0 or 1 as `a` is before, at or after `b` (both stream ids).
 * @param {[number, number]} a
 * @param {[number, number]} b
 */
const compareIds = (a, b) => (a[0] !== b[0] ? Math.sign(a[0] - b[0]) : Math.sign(a[1] - b[1]));

/**
 * An XRANGE / XREAD entry (`[id, [field, value, ...]]`) as a LogEntry.
 * @param {unknown} raw
 * @returns {LogEntry}
 */
function entryOf(raw) {
  const [id, fields] = /** @type {[unknown, unknown[]]} */ (raw);
  /** @type {Record<string, string>} */
  const f = {};
  for (let i = 0; i + 1 < fields.length; i += 2) f[String(fields[i])] = String(fields[i + 1]);
  const at = streamId(id)?.[0] ?? 0;
  return { id: String(id), type: f.type ?? "", data: f.data ?? "", at };
}

/**
 * A log on Redis Streams, shared by every process of the app: a stream per account
 * (`<prefix>live:<account>`), a uuid mark per appended event (`<prefix>live:<account>:uuid:<uuid>`,
 * kept `dedupeTtlMs`). Its follower is one blocking XREAD on a connection of its own (`reader`,
 * or the client's `duplicate()`), started with the first follower.
 * @param {import("./store.js").NodeRedisClient | import("./store.js").IoRedisClient} client
 * @param {RedisEventLogOptions} [options]
 * @returns {EventLog}
 */
export function createRedisEventLog(client, options = {}) {
  const who = "createRedisEventLog";
  const { prefix = "estatekit:", timeoutMs = 5_000 } = options;
  if (typeof prefix !== "string") throw apiError("invalid_input", `${who}: \`prefix\` must be a string`);
  const { maxLength, maxAgeMs, dedupeTtlMs } = boundsOf(who, options);
  positiveOption(who, "timeoutMs", timeoutMs, undefined);
  const send = redisSender(client, timeoutMs, who);
  const key = (/** @type {string} */ account) => `${prefix}live:${checkAccount(who, account)}`;
  const follower = createRedisFollower(client, options.reader, key, send);
  return {
    kind: "redis",
    async append(account, event) {
      checkAppended(who, event);
      const k = key(account);
      const args = [event.type, event.data, event.uuid, String(dedupeTtlMs), String(maxLength ?? 0), String(maxAgeMs ?? 0)];
      const id = await send(["EVAL", APPEND, "2", k, `${k}:uuid:${event.uuid}`, ...args]);
      return id == null ? null : String(id);
    },
    async read(account, after, count = 100) {
      const reply = /** @type {[unknown, unknown, unknown[], unknown]} */ (await send(["EVAL", READ, "1", key(account), after == null ? "" : String(after), String(count)]));
      const [firstRaw, lastRaw, raw, whole] = reply;
      const last = String(lastRaw);
      if (after == null) return { position: last, entries: [] };
      const at = streamId(after);
      const first = streamId(firstRaw);
      const end = streamId(last) ?? [0, 0];
      // Held: not past the last id generated (a Redis that came back empty is past it), and the
      // entry at the position still there (or the stream empty with the position its end), or
      // the position taken before the stream had an entry ("0-0") and none removed since.
      const before = at && at[0] === 0 && at[1] === 0 && Number(whole) === 1;
      const held = at && compareIds(at, end) <= 0 && (before || (first ? compareIds(at, first) >= 0 : compareIds(at, end) === 0));
      if (!held) return { reset: last, entries: [] };
      const entries = (raw ?? []).map(entryOf);
      return { position: entries.length ? /** @type {LogEntry} */ (entries[entries.length - 1]).id : String(after), entries };
    },
    isAfter(a, b) {
      const x = streamId(a);
      const y = streamId(b);
      return !x || !y || compareIds(x, y) > 0;
    },
    follow: follower.follow,
    close: follower.close,
  };
}

/**
 * The blocking reader of a Redis log: `XREAD BLOCK` over the streams of every account followed in
 * this process, from the last id it gave each (so nothing between two reads is missed), handing
 * each batch to that account's followers in order. A new account is read from its last id at the
 * time it was first followed (asked on the main connection, before `follow` resolves). When Redis
 * fails, the read is tried again every 500 ms; once it answers again, an account whose stream is
 * now behind what was given (Redis came back without its data) tells its followers to reset.
 * @param {object} client
 * @param {unknown} reader
 * @param {(account: string) => string} key
 * @param {(args: string[]) => Promise<unknown>} send
 */
function createRedisFollower(client, reader, key, send) {
  /** @type {Map<string, { account: string, last: string, followers: Set<LogFollower> }>} */
  const followed = new Map();
  /** @type {Promise<(args: string[]) => Promise<unknown>> | undefined} */
  let connection;
  /** @type {{ close(): unknown } | undefined} */
  let owned;
  let running = false;
  let closed = false;
  let failed = false;
  /** The reader's CLIENT ID, to unblock it when the accounts followed change. */
  let readerId = "";
  const BLOCK_MS = 2_000;

  /** The reader's own connection: `reader`, or the client's duplicate (connected here). */
  async function connect() {
    if (reader) return redisSender(reader, BLOCK_MS + 5_000, "createRedisEventLog");
    const c = /** @type {{ duplicate?: () => any }} */ (client);
    if (typeof c.duplicate !== "function") {
      throw apiError("invalid_input", "createRedisEventLog: give `reader`, a second connection for the blocking reader (the client has no duplicate())");
    }
    const dup = c.duplicate();
    dup.on?.("error", () => {});
    if (redisKind(dup) === "node-redis") await dup.connect();
    owned = { close: () => (redisKind(dup) === "node-redis" ? dup.disconnect?.() ?? dup.quit?.() : dup.disconnect?.()) };
    return redisSender(dup, BLOCK_MS + 5_000, "createRedisEventLog");
  }

  async function loop() {
    const read = await /** @type {Promise<(args: string[]) => Promise<unknown>>} */ (connection);
    while (!closed && followed.size) {
      try {
        readerId = String(await read(["CLIENT", "ID"]));
        if (failed) await checkAfterOutage();
        const keys = [...followed.keys()];
        const ids = keys.map((k) => /** @type {{ last: string }} */ (followed.get(k)).last);
        const reply = /** @type {[unknown, unknown[]][] | null} */ (await read(["XREAD", "COUNT", "500", "BLOCK", String(BLOCK_MS), "STREAMS", ...keys, ...ids]));
        for (const [k, raw] of reply ?? []) give(String(k), raw.map(entryOf));
      } catch {
        if (closed) break;
        failed = true;
        await new Promise((r) => setTimeout(r, 500));
      }
    }
    running = false;
  }

  /**
   * Hands entries to the followers of the stream `k`, past the last given (a stream that
   * restarted is told as a reset by `checkAfterOutage`, not here).
   * @param {string} k
   * @param {LogEntry[]} entries
   */
  function give(k, entries) {
    const f = followed.get(k);
    if (!f || !entries.length) return;
    f.last = /** @type {LogEntry} */ (entries[entries.length - 1]).id;
    for (const follower of f.followers) follower.entries(entries);
  }

  /** After Redis failed: a stream now behind what was given lost entries: its followers reset. */
  async function checkAfterOutage() {
    for (const [k, f] of followed) {
      const reply = /** @type {[unknown, unknown, unknown[]]} */ (await send(["EVAL", READ, "1", k, "", "1"]));
      const now = String(reply[1]);
      const a = streamId(now);
      const b = streamId(f.last);
      if (a && b && compareIds(a, b) < 0) {
        f.last = now;
        for (const follower of f.followers) follower.reset(now);
      }
    }
    failed = false;
  }

  return {
    /**
     * @param {string} account
     * @param {LogFollower} follower
     */
    async follow(account, follower) {
      if (closed) throw apiError("invalid_input", "createRedisEventLog: the log was closed");
      const k = key(account);
      let f = followed.get(k);
      if (!f) {
        const reply = /** @type {[unknown, unknown, unknown[]]} */ (await send(["EVAL", READ, "1", k, "", "1"]));
        f = followed.get(k);
        if (!f) {
          followed.set(k, (f = { account, last: String(reply[1]), followers: new Set() }));
          // The reader blocked on the accounts before this one: unblocked to take it in.
          if (readerId) send(["CLIENT", "UNBLOCK", readerId]).catch(() => {});
        }
      }
      f.followers.add(follower);
      connection ??= connect();
      if (!running) {
        running = true;
        connection.then(loop, () => {
          running = false;
          connection = undefined;
        });
      }
      const entry = f;
      return () => {
        entry.followers.delete(follower);
        if (!entry.followers.size && followed.get(k) === entry) followed.delete(k);
      };
    },
    async close() {
      closed = true;
      for (const f of followed.values()) f.followers.clear();
      followed.clear();
      if (readerId) await send(["CLIENT", "UNBLOCK", readerId]).catch(() => {});
      await owned?.close();
    },
  };
}
