// estatekit/live's stream route: `createEventStream({ log, authorize })`, a `Request -> Response`
// function answering `text/event-stream` with an account's events as the receiver appended them.
// Each stream: authorized first (401 / 403 before anything is streamed), then the events after
// the page's position (Last-Event-ID, or `?lastEventId=`) read from the log, then the log's new
// events as they come (the log's one follower per process fans them out). Frames:
// - an event the user may see: `id: <position>`, `event: <type>`, `data:` the event's text as
//   the service sent it (one `data:` line per line of it);
// - an event the user may not see: `id: <position>` alone (EventSource moves its position and
//   fires nothing);
// - `event: estatekit.reset` when the log no longer holds the position (trimmed, or a log that
//   restarted): `id:` and `data: {"position": ...}` the position to go on from;
// - `event: estatekit.position` first, when the page gave no position: where the stream starts;
// - a comment every `heartbeatMs` (proxies keep an idle stream open).
// A reader that does not keep up (more than `maxBufferedBytes` written and not read) is cut off:
// it reconnects and resumes from its last event. `close()` ends every stream (SIGTERM).
// estatekit/otel observes a route through its internal hook `route[OBSERVE](observer)` (see
// OBSERVE): each stream opened from then on tells the observer it opened, each event it writes
// (with its log entry, whose `at` is the append time) and that it closed.
import { apiError } from "./api_error.js";

/** @typedef {import("./live.js").EventLog} EventLog */
/** @typedef {import("./live.js").LogEntry} LogEntry */
/** @typedef {import("./live.js").EventStreamOptions} EventStreamOptions */
/** @typedef {import("./live.js").StreamAccess} StreamAccess */

/** The type of the reset event (not one of the service's types: those are upper case). */
export const RESET_EVENT = "estatekit.reset";
/** The type of the first event of a stream opened with no position: where it starts. */
const POSITION_EVENT = "estatekit.position";
/**
 * The key of the internal hook by which estatekit/otel observes a route (`Symbol.for`: any copy
 * of the package): `route[OBSERVE]({ opened(), sent(entry, live), closed() })`. What the
 * observer throws is ignored (telemetry never breaks a stream).
 */
const OBSERVE = Symbol.for("estatekit.live.observe");
/** @typedef {{ opened(): void, sent(entry: LogEntry, live: boolean): void, closed(): void }} StreamObserver */
const encoder = new TextEncoder();
const HEARTBEAT_MS = 15_000;
const MAX_BUFFERED_BYTES = 1024 * 1024;
/** Entries read from the log per step while a stream catches up. */
const BATCH = 200;

/**
 * @param {number} status
 * @param {string} error
 */
const refusal = (status, error) => new Response(JSON.stringify({ error }), { status, headers: { "content-type": "application/json" } });

/**
 * The SSE frame of one entry: the event if `visible`, else its position alone.
 * @param {LogEntry} entry
 * @param {boolean} visible
 */
function frameOf(entry, visible) {
  if (!visible) return `id: ${entry.id}\n\n`;
  return `id: ${entry.id}\nevent: ${entry.type}\n${entry.data.split(/\r\n|\r|\n/).map((line) => `data: ${line}\n`).join("")}\n`;
}

/**
 * The position the page asks to resume after: its `Last-Event-ID` header (EventSource's own
 * reconnection), else the `lastEventId` query parameter (a page that reopens by itself).
 * @param {Request} request
 * @returns {string | undefined}
 */
function positionOf(request) {
  const header = request.headers.get("last-event-id");
  if (header) return header;
  return new URL(request.url).searchParams.get("lastEventId") ?? undefined;
}

/**
 * Checks the options of createEventStream.
 * @param {EventStreamOptions} options
 */
function checkOptions(options) {
  const who = "createEventStream";
  const { log, authorize } = options ?? {};
  if (!log || typeof log.read !== "function" || typeof log.follow !== "function") {
    throw apiError("invalid_input", `${who}: \`log\` must be an event log (createRedisEventLog or createMemoryEventLog)`);
  }
  if (typeof authorize !== "function") throw apiError("invalid_input", `${who}: \`authorize(request)\` must be a function`);
  for (const name of /** @type {const} */ (["heartbeatMs", "maxBufferedBytes"])) {
    const v = options[name];
    if (v !== undefined && (!Number.isSafeInteger(v) || v < 1)) throw apiError("invalid_input", `${who}: \`${name}\` must be a positive whole number`);
  }
}

/**
 * Asks `authorize`, and gives the access or the answer refusing it: 401 (no user), 403 (this user
 * may not, or an account the route does not serve), 500 (authorize threw).
 * @param {EventStreamOptions} options
 * @param {Request} request
 * @returns {Promise<StreamAccess | Response>}
 */
async function accessOf(options, request) {
  /** @type {StreamAccess | null | false | undefined} */
  let access;
  try {
    access = await options.authorize(request);
  } catch (e) {
    options.onError?.(e);
    return refusal(500, "the stream could not be authorized");
  }
  if (access == null) return refusal(401, "sign in to follow this account's events");
  if (access === false || typeof access.account !== "string") return refusal(403, "this user may not follow these events");
  if (options.accounts && !options.accounts.includes(access.account)) return refusal(403, "this user may not follow these events");
  if (access.expiresAt !== undefined && !(access.expiresAt > Date.now())) return refusal(401, "the session has ended");
  return access;
}

/**
 * A `Request -> Response` function answering an account's events as Server-Sent Events. See
 * ./live.d.ts.
 * @param {EventStreamOptions} options
 * @returns {import("./live.js").EventStreamRoute}
 */
export function createEventStream(options) {
  checkOptions(options);
  /** @type {Set<() => void>} */
  const open = new Set();
  /** @type {Set<StreamObserver>} */
  const observers = new Set();
  /** @param {Request} request */
  const route = async function stream(request) {
    if (request.method !== "GET") return new Response(null, { status: 405, headers: { allow: "GET" } });
    const access = await accessOf(options, request);
    if (access instanceof Response) return access;
    const body = openStream(options, access, positionOf(request), open, observers);
    return new Response(body, {
      status: 200,
      headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache, no-transform", "x-accel-buffering": "no" },
    });
  };
  return /** @type {import("./live.js").EventStreamRoute} */ (
    Object.defineProperties(route, {
      close: { value: () => [...open].forEach((end) => end()) },
      open: { get: () => open.size },
      [OBSERVE]: { value: (/** @type {StreamObserver} */ observer) => void observers.add(observer) },
    })
  );
}

/**
 * One stream's body: catches up from `after`, then follows the log. Its end (the client gone,
 * the session over, `close()`, a slow reader) stops following and the timers.
 * @param {EventStreamOptions} options
 * @param {StreamAccess} access
 * @param {string | undefined} after
 * @param {Set<() => void>} open
 * @param {Set<StreamObserver>} observers
 * @returns {ReadableStream<Uint8Array>}
 */
function openStream(options, access, after, open, observers) {
  const { log, heartbeatMs = HEARTBEAT_MS, maxBufferedBytes = MAX_BUFFERED_BYTES } = options;
  const types = access.types ? new Set(access.types) : undefined;
  // The observers when the stream opens are told of all of it (opened, sent, closed), none other.
  const watching = [...observers];
  /** @type {(name: keyof StreamObserver, entry?: LogEntry, live?: boolean) => void} */
  const tell = (name, entry, live) => {
    for (const observer of watching) {
      try {
        observer[name](/** @type {LogEntry} */ (entry), /** @type {boolean} */ (live));
      } catch {
        // Telemetry never breaks a stream.
      }
    }
  };
  /** @type {ReadableStreamDefaultController<Uint8Array>} */
  let controller;
  let ended = false;
  /** @type {(() => void)[]} */
  const cleanups = [];
  const end = (/** @type {unknown} */ error) => {
    if (ended) return;
    ended = true;
    open.delete(finish);
    tell("closed");
    for (const cleanup of cleanups) cleanup();
    try {
      if (error) controller.error(error);
      else controller.close();
    } catch {
      // Already cancelled by the client.
    }
  };
  const finish = () => end(undefined);
  /** Writes `text`; a reader more than maxBufferedBytes behind is cut off (it resumes on reconnect). */
  const write = (/** @type {string} */ text) => {
    if (ended) return;
    controller.enqueue(encoder.encode(text));
    if ((controller.desiredSize ?? 0) < 0) end(new Error("estatekit/live: the reader did not keep up; disconnected"));
  };
  const follower = followerOf(log, access.account, types, write, end, tell);
  return new ReadableStream(
    {
      start(c) {
        controller = c;
        open.add(finish);
        tell("opened");
        // Reconnection spread over 1-3 s, so that pages of a server that stopped do not all come back at once.
        write(`retry: ${1000 + Math.floor(Math.random() * 2000)}\n\n`);
        const beat = setInterval(() => write(": heartbeat\n\n"), heartbeatMs);
        cleanups.push(() => clearInterval(beat));
        if (access.expiresAt !== undefined) {
          const session = setTimeout(finish, Math.min(access.expiresAt - Date.now(), 2 ** 31 - 1));
          cleanups.push(() => clearTimeout(session));
        }
        follower.start(after, cleanups).catch((e) => {
          options.onError?.(e);
          end(e);
        });
      },
      cancel() {
        end(undefined);
      },
    },
    /** @type {QueuingStrategy<Uint8Array>} */ (new ByteLengthQueuingStrategy({ highWaterMark: maxBufferedBytes })),
  );
}

/**
 * What moves one stream's position: the catch-up from the log, then the log's new entries (those
 * that come during the catch-up kept, bounded, and given after it, past its position).
 * @param {EventLog} log
 * @param {string} account
 * @param {Set<string> | undefined} types
 * @param {(text: string) => void} write
 * @param {(error?: unknown) => void} end
 * @param {(name: "sent", entry: LogEntry, live: boolean) => void} tell
 */
function followerOf(log, account, types, write, end, tell) {
  let position = "";
  let live = false;
  /** @type {LogEntry[]} */
  let pending = [];
  /** @type {string | undefined} a reset told by the log during the catch-up */
  let pendingReset;
  const MAX_PENDING = 10_000;
  /** Writes the entries past the position; `followed`: given by the log's follower (not read by the catch-up). */
  const send = (/** @type {LogEntry[]} */ entries, followed = true) => {
    for (const entry of entries) {
      if (position && !log.isAfter(entry.id, position)) continue; // given by the catch-up already
      const visible = !types || types.has(entry.type);
      write(frameOf(entry, visible));
      position = entry.id;
      if (visible) tell("sent", entry, followed);
    }
  };
  const reset = (/** @type {string} */ to) => {
    write(`id: ${to}\nevent: ${RESET_EVENT}\ndata: ${JSON.stringify({ position: to })}\n\n`);
    position = to;
  };
  return {
    /** @param {string | undefined} after @param {(() => void)[]} cleanups */
    async start(after, cleanups) {
      const stop = await log.follow(account, {
        entries(entries) {
          if (live) send(entries);
          else if (pending.push(...entries) > MAX_PENDING) end(new Error("estatekit/live: too many events during the catch-up"));
        },
        reset(to) {
          if (live) reset(to);
          else {
            pending = [];
            pendingReset = to;
          }
        },
      });
      cleanups.push(stop);
      if (after === undefined) {
        const now = await log.read(account, null);
        position = now.position ?? now.reset ?? "";
        // A page that opens with no position learns where it starts (an event EventSource fires,
        // unlike an id-only frame), so that its own reopening resumes from there.
        write(`id: ${position}\nevent: ${POSITION_EVENT}\ndata: ${JSON.stringify({ position })}\n\n`);
      } else {
        position = after;
        for (;;) {
          const got = await log.read(account, position, BATCH);
          if (got.reset !== undefined) {
            reset(got.reset);
            break;
          }
          send(got.entries, false);
          if (got.entries.length < BATCH) break;
        }
      }
      live = true;
      if (pendingReset !== undefined) reset(pendingReset);
      const held = pending;
      pending = [];
      send(held);
    },
  };
}
