// estatekit/live: an account's events, appended by the webhook receiver to a log, streamed to
// signed-in pages as Server-Sent Events (the browser side: estatekit/subscribe).
import type { IoRedisClient, NodeRedisClient } from "./store.js";
import type { NodeRequest, NodeResponse } from "./webhooks.js";

export type { IoRedisClient, NodeRedisClient } from "./store.js";
export type { NodeRequest, NodeResponse } from "./webhooks.js";

/** One event in a log: its position, type, the event's text as the service sent it, when appended (ms). */
export interface LogEntry {
  /** The log's position of the event (the SSE `id:`): a Redis Stream id, or `<start>:<n>` in memory. */
  id: string;
  /** The event's `operation` as sent. */
  type: string;
  /** The delivery's body as received (UTF-8 text, a BOM dropped): untrusted text. */
  data: string;
  /** When it was appended, in milliseconds since the epoch. */
  at: number;
}

/** What `read` gives: the entries after the position, or `reset` when the log no longer holds it. */
export interface LogRead {
  /** The position after the entries read (or the log's end, when read from no position). */
  position?: string;
  /** The position to go on from, when the one asked for is no longer held (trimmed, or the log restarted). */
  reset?: string;
  /** The entries after the position, in the log's order (none with `reset`). */
  entries: LogEntry[];
}

/** Told of an account's new entries, in the log's order, as this process's reader gets them. */
export interface LogFollower {
  /** New entries of the account, in the log's order, none skipped since the last call. */
  entries(entries: LogEntry[]): void;
  /** The log lost entries after the last given (Redis came back without its data): go on from `position`. */
  reset(position: string): void;
}

/**
 * An event log: per account (the receiver's subdomain), append-only, bounded, with each event
 * appended once per `uuid`. Made by {@link createRedisEventLog} (several processes) or
 * {@link createMemoryEventLog} (one process, tests).
 */
export interface EventLog {
  /** Which log this is: {@link createMemoryEventLog}'s or {@link createRedisEventLog}'s. */
  readonly kind: "memory" | "redis";
  /**
   * Appends the event unless its `uuid` was appended before (within `dedupeTtlMs`), in one atomic
   * step: its position, or `null` for a redelivery (nothing appended).
   */
  append(account: string, event: { uuid: string; type: string; data: string }): Promise<string | null>;
  /** Up to `count` entries after `after` (`null`: none, only the log's end as `position`). */
  read(account: string, after: string | null, count?: number): Promise<LogRead>;
  /** Whether position `a` comes after position `b` (both of this log). */
  isAfter(a: string, b: string): boolean;
  /** Follows an account's new entries; resolves, once following, with the function that stops. */
  follow(account: string, follower: LogFollower): Promise<() => void>;
  /** Stops following (and the Redis log's reader connection, if it made it). */
  close(): Promise<void>;
}

/** Bounds shared by both logs: `maxLength` (default 10,000 when neither is given) and/or `maxAgeMs`. */
export interface EventLogBounds {
  /** Entries kept per account, the oldest dropped first. */
  maxLength?: number;
  /** How long an entry is kept, in milliseconds. */
  maxAgeMs?: number;
  /** How long an appended uuid is remembered (a redelivery appends nothing), in ms (default 7 days). */
  dedupeTtlMs?: number;
}

/** Options of {@link createMemoryEventLog}. */
export interface MemoryEventLogOptions extends EventLogBounds {
  /** The clock (default `Date.now`). */
  now?: () => number;
}

/** Options of {@link createRedisEventLog}. */
export interface RedisEventLogOptions extends EventLogBounds {
  /** Put in front of every key (default `"estatekit:"`): streams `<prefix>live:<account>`. */
  prefix?: string;
  /** The longest a command waits for Redis, in milliseconds (default 5000). */
  timeoutMs?: number;
  /**
   * The connection of the log's one blocking reader (XREAD BLOCK), which follows every account
   * streamed by this process: by default the client's `duplicate()`, connected by the log.
   */
  reader?: NodeRedisClient | IoRedisClient;
}

/**
 * A log in this process's memory (one process; estatekit/testing). Its positions carry the log's
 * start, so that a page resuming after a restart gets a reset, never a silent gap.
 */
export function createMemoryEventLog(options?: MemoryEventLogOptions): EventLog;

/**
 * A log on Redis Streams shared by every process (a stream per account), on the app's node-redis
 * or ioredis connection; Redis 6.2 or later (exclusive XRANGE, XTRIM MINID).
 */
export function createRedisEventLog(client: NodeRedisClient | IoRedisClient, options?: RedisEventLogOptions): EventLog;

/** What `authorize` allows a request: an account's events, of some types, until a time. */
export interface StreamAccess {
  /** The account (its subdomain) whose events this user may follow. */
  account: string;
  /** The event types this user may see (others move the position only); all when absent. */
  types?: readonly string[];
  /** When the session ends (ms since the epoch): the stream ends then. */
  expiresAt?: number;
}

/** Options of {@link createEventStream}. */
export interface EventStreamOptions {
  /** The log the receivers append to. */
  log: EventLog;
  /**
   * Who is asking, from the app's session (NextAuth, Better Auth, a cookie...): `null` or
   * `undefined` when no one is signed in (401), `false` when this user may not follow events
   * (403), else the account and types. Called once per stream, before it opens.
   */
  authorize(request: Request): StreamAccess | null | undefined | false | Promise<StreamAccess | null | undefined | false>;
  /** The accounts this route serves: another is answered 403 (default: whichever `authorize` names). */
  accounts?: readonly string[];
  /** A comment sent this often keeps proxies from closing an idle stream, in ms (default 15000). */
  heartbeatMs?: number;
  /** Bytes written and not yet read past which a stream is cut off (default 1 MiB): it resumes on reconnect. */
  maxBufferedBytes?: number;
  /** Told of `authorize` throwing and of a log that failed mid-stream. */
  onError?(error: unknown): void;
}

/** The type of the event a stream sends when the log no longer holds the page's position. */
export declare const RESET_EVENT: "estatekit.reset";

/** The stream route made by {@link createEventStream}. */
export interface EventStreamRoute {
  /** Answers a page's GET: 401/403, or the stream. */
  (request: Request): Promise<Response>;
  /** Ends every open stream (on SIGTERM: the pages reconnect to another server and resume). */
  close(): void;
  /** How many streams are open. */
  readonly open: number;
}

/**
 * A `Request -> Response` function (a GET route: Next.js route handlers on Node, Node with
 * {@link toNodeListener}, Bun, Deno) answering `text/event-stream`: the account's events after the
 * page's `Last-Event-ID` (or `?lastEventId=`), then as they come. 401/403 before any stream opens.
 */
export function createEventStream(options: EventStreamOptions): EventStreamRoute;

/** node:http's listener for a route (see estatekit/webhooks' toNodeListener); streams are written as they come. */
export function toNodeListener(handler: (request: Request) => Promise<Response>): (req: NodeRequest, res: NodeResponse) => void;
