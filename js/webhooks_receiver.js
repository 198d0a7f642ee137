// estatekit/webhooks's API, shared by its entries (./webhooks.js for browsers and workers,
// ./webhooks.node.js for servers, ./webhooks.workerd.js for Workers-style runtimes: see
// ./loader.js): the receiving side of
// the service's webhooks. A thin wrapper around
// wasm-bindgen's glue of its own small module (./estatekit_webhooks_wasm.js, as emitted; the main
// entry's module is not loaded):
// - `parseEvent` decodes the body (UTF-8, fatal; a BOM is dropped), lets JSON.parse parse it, and
//   has the module check the envelope and the known `data` shapes (Rust types, estatekit-events),
//   which hands back the caller's own object: every member kept, every value as sent;
// - `createWebhookHandler` answers a delivery (`Request` -> `Response`) with the statuses a sender
//   understands, reading at most `maxBytes` of the body; `toNodeListener` adapts it to node:http.
//   With `queue` (a BullMQ Queue, or anything with its `add(name, data, opts)`), a checked
//   delivery is added as one job whose id is its `uuid` and answered 202 once the queue
//   acknowledged it; `webhookProcessor` is a BullMQ Worker's processor that runs the handlers.
//   BullMQ itself is never imported here: the caller's Queue and Worker are.
// Its declarations are ./webhooks.d.ts (the event types come from Rust, through the glue's).
import wasmInit, { checkEvent } from "./estatekit_webhooks_wasm.js";
import { loadOnce } from "./loader.js";
import { WebhookEventError, isInvalidEvent } from "./webhook_event_error.js";

export { WebhookEventError, isInvalidEvent };
import { checkedStore } from "./store.js";
import { apiError } from "./api_error.js";
import { toNodeListener } from "./node_listener.js";

/** @typedef {import("./webhooks.js").WebhookEvent} WebhookEvent */
/** @typedef {import("./webhooks.js").WebhookHandlerOptions} WebhookHandlerOptions */
/** @typedef {import("./webhooks.js").DedupeStore} DedupeStore */

/**
 * Loads the module once (see `entry`, which every entry calls first); a failed attempt is retried
 * by the next call.
 * @type {() => Promise<void>}
 */
let load;

/**
 * The error of an invalid delivery (the module makes those of the envelope's members with the
 * same class).
 * @param {string} reason
 */
const invalid = (reason) => new WebhookEventError(`invalid webhook event: ${reason}`, ".");

const utf8 = new TextDecoder("utf-8", { fatal: true }); // drops a leading BOM (ignoreBOM: false)

/**
 * A body's text (UTF-8, fatal; a BOM dropped), or the invalid event's error.
 * @param {Uint8Array | ArrayBuffer} bytes
 */
function decodeBody(bytes) {
  try {
    return utf8.decode(bytes);
  } catch {
    throw invalid("the body is not valid UTF-8");
  }
}

/**
 * Checks a delivery and gives it typed. See ./webhooks.d.ts.
 * @param {string | Uint8Array | ArrayBuffer | object} body
 * @returns {Promise<WebhookEvent>}
 */
async function parseEvent(body) {
  let value = body;
  if (typeof body === "string" || body instanceof Uint8Array || body instanceof ArrayBuffer) {
    let text;
    if (typeof body === "string") {
      text = body.charCodeAt(0) === 0xfeff ? body.slice(1) : body;
    } else {
      text = decodeBody(body);
    }
    try {
      value = JSON.parse(text);
    } catch {
      throw invalid("the body is not JSON"); // SyntaxError's message quotes the body: not repeated
    }
  }
  await load();
  return /** @type {WebhookEvent} */ (checkEvent(value));
}

const TOO_LARGE = Symbol("too large");

/**
 * The body's bytes, read chunk by chunk; throws TOO_LARGE (and cancels the rest) past `max`.
 * @param {Request} request
 * @param {number} max
 * @returns {Promise<Uint8Array>}
 */
async function readBody(request, max) {
  if (!request.body) {
    // No stream (WebKit gives none for a Request built in the page): read whole, then measured.
    const bytes = new Uint8Array(await request.arrayBuffer());
    if (bytes.byteLength > max) throw TOO_LARGE;
    return bytes;
  }
  const reader = request.body.getReader();
  /** @type {Uint8Array[]} */
  const chunks = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      reader.cancel().catch(() => {});
      throw TOO_LARGE;
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return /** @type {Uint8Array} */ (chunks[0]);
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}

/**
 * @param {number} status
 * @param {Record<string, unknown>} body
 * @param {Record<string, string>} [headers]
 */
const answer = (status, body, headers) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });

/** How many uuids `dedupe: true` remembers (the oldest are forgotten first). */
const DEDUPE_SIZE = 10_000;

/** @returns {DedupeStore} */
function createMemoryStore() {
  /** @type {Set<string>} */
  const seen = new Set();
  return {
    has: (uuid) => seen.has(uuid),
    add(uuid) {
      if (seen.size >= DEDUPE_SIZE) seen.delete(/** @type {string} */ (seen.values().next().value));
      seen.add(uuid);
    },
  };
}

/** Defaults of a shared dedupe store (`dedupe: store`). */
const CLAIM_TTL_MS = 5 * 60_000;
const DONE_TTL_MS = 7 * 24 * 3600_000;
const STORE_TIMEOUT_MS = 2_000;
const RETRY_AFTER_MS = 5000;

/** What a bounded store call gives when the store took longer than its timeout. */
const SLOW = Symbol("slow");

/**
 * `promise`, or SLOW once `ms` passed first.
 * @template T
 * @param {Promise<T>} promise
 * @param {number} ms
 * @returns {Promise<T | typeof SLOW>}
 */
function bounded(promise, ms) {
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  const slow = new Promise((resolve) => (timer = setTimeout(() => resolve(SLOW), ms)));
  return /** @type {Promise<T | typeof SLOW>} */ (Promise.race([promise, slow])).finally(() => clearTimeout(timer));
}

/** The error told to `onError` when the dedupe store did not answer in time. */
class StoreTimeout extends Error {
  /** @param {string} call @param {number} ms @param {string} [outcome] */
  constructor(call, ms, outcome = "the delivery was answered 503") {
    super(`estatekit/webhooks: the dedupe store's ${call} did not answer within ${ms} ms; ${outcome}`);
    this.name = "StoreTimeout";
  }
}

/**
 * The error told to `onError` when a handler completed but its uuid's done-mark was not written
 * (acknowledged by the store) within `claimTtlMs` of the claim: from then on another instance may
 * take the claim and run the handler again.
 */
class DoneMarkLate extends Error {
  /** @param {number} ms */
  constructor(ms) {
    super(
      `estatekit/webhooks: the handler completed, but the dedupe store did not acknowledge its done-mark within claimTtlMs (${ms} ms) of the claim; ` +
        "a copy of this delivery may run the handler again (at least once: keep the handler idempotent)",
    );
    this.name = "DoneMarkLate";
  }
}

/**
 * The error told to `onError` of a delivery the handler refused (405, 413, 400, 403): `reason`
 * says why, `status` what the sender was answered. Its message never quotes the body (an invalid
 * event's error, which names only a JSON path and what was expected there, is its `cause`).
 */
class WebhookRefused extends Error {
  /**
   * @param {"method" | "too_large" | "invalid_event" | "subdomain" | "secret"} reason
   * @param {number} status
   * @param {string} why
   * @param {unknown} [cause]
   */
  constructor(reason, status, why, cause) {
    super(`estatekit/webhooks: a delivery was refused (HTTP ${status}): ${why}`, cause === undefined ? undefined : { cause });
    this.name = "WebhookRefused";
    this.reason = reason;
    this.status = status;
  }
}

/**
 * The error told to `onError` when the queue did not acknowledge a delivery's job (it threw, or
 * did not answer within `storeTimeoutMs`): the delivery was answered 503 with Retry-After, so the
 * sender comes back (the same uuid is the same job: a job added late is not added twice).
 */
class QueueUnavailable extends Error {
  /** @param {string} why @param {unknown} [cause] */
  constructor(why, cause) {
    super(`estatekit/webhooks: the queue did not acknowledge the delivery's job (${why}); the delivery was answered 503`, cause === undefined ? undefined : { cause });
    this.name = "QueueUnavailable";
  }
}

/**
 * The error told to `onError` when the event log (`log`) did not take a delivery's event (it
 * threw, or did not answer within `storeTimeoutMs`): the delivery was answered 503 with
 * Retry-After, so the sender comes back (the same uuid is appended once).
 */
class LogUnavailable extends Error {
  /** @param {string} why @param {unknown} [cause] */
  constructor(why, cause) {
    super(`estatekit/webhooks: the event log did not take the delivery's event (${why}); the delivery was answered 503`, cause === undefined ? undefined : { cause });
    this.name = "LogUnavailable";
  }
}

/**
 * A subdomain as a message quotes it: at most 100 characters of it, as JSON.
 * @param {unknown} value
 */
const quoted = (value) => JSON.stringify(typeof value === "string" && value.length > 100 ? `${value.slice(0, 100)}...` : value);

/**
 * The key of the internal hook by which estatekit/otel observes a handler made by
 * `createWebhookHandler` (not declared; `Symbol.for`, so that it holds across copies of the
 * package): `handler[OBSERVE](request, observer)` answers the delivery as `handler(request)`
 * does, and tells `observer` how it ended.
 */
const OBSERVE = Symbol.for("estatekit.webhooks.observe");

/**
 * The key of the internal hook by which estatekit/otel observes a processor made by
 * `webhookProcessor` (`Symbol.for`, like OBSERVE): `processor[PROCESS](job, token, observer)`
 * runs the job as `processor(job, token)` does, and tells `observer` how it ended (`Processed`).
 */
const PROCESS = Symbol.for("estatekit.webhooks.process");

/**
 * How one job ended, as the processor's hook tells it: `outcome` `handled` (the handler resolved,
 * or there is none for the type) or `failed` (it threw: BullMQ retries it or keeps it failed),
 * the event's type and uuid, the attempt (1 for the first run) and the trace context the
 * receiver put in the job's data (`traceparent`), if any.
 * @typedef {{
 *   outcome: "handled" | "failed",
 *   type?: string,
 *   known?: boolean,
 *   id?: string,
 *   attempt: number,
 *   traceparent?: string,
 * }} Processed
 */

/**
 * How one delivery ended, as the hook's observer is told (once, when the answer is decided):
 * nothing of the body but the event's type and id.
 * - `outcome`: `new` (handled now, or acknowledged: no handler for its type), `duplicate`
 *   (answered 200 without a call, with `dedupe`), `in_progress` (another instance handles it:
 *   503), `handler_failed` (the handler threw: 500), `store_unavailable` (the dedupe store failed
 *   or was slow: 503 or 500), `queued` (with `queue`: the job was added, 202),
 *   `queue_unavailable` (the queue failed or was slow: 503), `log_unavailable` (the event log
 *   failed or was slow: 503), `refused` (405, 413, 400, 403, 401: `refusal` says why), `error` (the
 *   event could not be read: 500);
 * - `type`: the event's type as sent (`known`: one of the 28), `id`: its `uuid`, once the body
 *   was read as an event.
 * @typedef {{
 *   outcome: "new" | "duplicate" | "in_progress" | "handler_failed" | "store_unavailable" | "queued" | "queue_unavailable" | "log_unavailable" | "refused" | "error",
 *   type?: string,
 *   known?: boolean,
 *   id?: string,
 *   refusal?: "method" | "too_large" | "invalid_event" | "subdomain" | "secret",
 * }} Delivery
 */

/**
 * Notes the event's type and id in `told`.
 * @param {Delivery} told
 * @param {WebhookEvent} event
 */
function noteEvent(told, event) {
  const raw = /** @type {{ rawOperation?: unknown }} */ (event).rawOperation;
  told.known = event.operation !== null;
  told.type = event.operation ?? (typeof raw === "string" ? raw : undefined);
  told.id = event.uuid;
}

/**
 * A positive whole number option, or its default.
 * @param {string} name
 * @param {number | undefined} value
 * @param {number} fallback
 */
function positive(name, value, fallback) {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1) throw apiError("invalid_input", `createWebhookHandler: \`${name}\` must be a positive whole number`);
  return value;
}

/**
 * What a handler made by `createWebhookHandler` works with, read once from its options by
 * `receiverOf`: every step of a delivery below takes it first.
 * @typedef {{
 *   handlers: Record<string, ((event: any, request: Request) => unknown) | undefined>,
 *   onUnknown: ((event: any, request: Request) => unknown) | undefined,
 *   subdomain: string | undefined,
 *   maxBytes: number,
 *   queue: WebhookQueue | undefined,
 *   shared: import("./store.js").Store | undefined,
 *   store: DedupeStore | undefined,
 *   claimTtlMs: number,
 *   doneTtlMs: number,
 *   storeTimeoutMs: number,
 *   retryAfter: string,
 *   report: (error: unknown, event: WebhookEvent | undefined) => void,
 *   inFlight: Map<string, Promise<unknown>>,
 *   log: import("./live.js").EventLog | undefined,
 *   secret: Promise<Uint8Array> | undefined,
 * }} Receiver
 */

/**
 * Refuses options that mix the two modes (./webhooks.d.ts): `on` (WebhookHandlerOptions) or
 * `queue` (QueuedWebhookHandlerOptions).
 * @param {Partial<WebhookHandlerOptions> & { queue?: unknown }} given
 */
function checkMode({ on, onUnknown, dedupe, queue }) {
  if (queue === undefined) {
    if (on === null || typeof on !== "object") throw apiError("invalid_input", "createWebhookHandler: `on` must be an object of handlers");
    return;
  }
  if (on !== undefined || onUnknown !== undefined) {
    throw apiError("invalid_input", 
      "createWebhookHandler: `on` and `queue` are two modes, one at a time: `on` runs the handlers before the delivery is answered, " +
        "`queue` adds a job and answers at once (run the handlers in a BullMQ Worker with webhookProcessor({ on }))",
    );
  }
  if (dedupe !== undefined) {
    throw apiError("invalid_input", "createWebhookHandler: `dedupe` is not used with `queue`: a job's id is the delivery's uuid, so a redelivery is the same job");
  }
  if (queue === null || typeof queue !== "object" || typeof (/** @type {{ add?: unknown }} */ (queue)).add !== "function") {
    throw apiError("invalid_input", "createWebhookHandler: `queue` must have BullMQ's `add(name, data, opts)` (a BullMQ Queue)");
  }
}

/**
 * `onError`'s default: `console.error` of the message of the receiver's own errors, of the whole
 * error otherwise (a handler's).
 * @param {unknown} error
 */
const logError = (error) =>
  error instanceof WebhookRefused || error instanceof StoreTimeout || error instanceof DoneMarkLate || error instanceof QueueUnavailable || error instanceof LogUnavailable
    ? console.error(error.message)
    : console.error("estatekit/webhooks: the handler threw", error);

/**
 * The options checked and read into a {@link Receiver}.
 * @param {WebhookHandlerOptions} options
 * @returns {Receiver}
 */
function receiverOf(options) {
  const given = /** @type {Partial<WebhookHandlerOptions> & { queue?: unknown }} */ (options ?? {});
  checkMode(given);
  const { on, onUnknown, subdomain, dedupe, maxBytes = 1024 * 1024, onError, queue } = given;
  const { log, secret } = logOptions(given);
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 1) throw apiError("invalid_input", "createWebhookHandler: `maxBytes` must be a positive integer");
  const claimTtlMs = positive("claimTtlMs", options.claimTtlMs, CLAIM_TTL_MS);
  const doneTtlMs = positive("doneTtlMs", options.doneTtlMs, DONE_TTL_MS);
  const storeTimeoutMs = positive("storeTimeoutMs", options.storeTimeoutMs, STORE_TIMEOUT_MS);
  // Renamed in 0.3.0 (durations are milliseconds): refused rather than ignored.
  if ("retryAfterSeconds" in options) throw apiError("invalid_input", "createWebhookHandler: `retryAfterSeconds` is now `retryAfterMs`, in milliseconds");
  // `Retry-After` is whole seconds: the milliseconds given, rounded up.
  const retryAfter = String(Math.ceil(positive("retryAfterMs", options.retryAfterMs, RETRY_AFTER_MS) / 1000));
  /** A shared store (estatekit/store's `Store`): claims across processes. */
  // Its answers are checked (./store.js): a claim resolving `true` is an error, not an owner.
  const shared = typeof dedupe === "object" && dedupe !== null && "claim" in dedupe && typeof dedupe.claim === "function" ? checkedStore(dedupe) : undefined;
  /** @type {DedupeStore | undefined} */
  const store = shared ? undefined : dedupe === true ? createMemoryStore() : dedupe ? /** @type {DedupeStore} */ (dedupe) : undefined;
  return {
    handlers: on ?? {},
    onUnknown,
    subdomain,
    maxBytes,
    queue: /** @type {WebhookQueue | undefined} */ (queue),
    shared,
    store,
    claimTtlMs,
    doneTtlMs,
    storeTimeoutMs,
    retryAfter,
    report: onError ?? logError,
    // With `dedupe`, the deliveries being handled, by uuid: a copy that arrives meanwhile (the
    // sender gave up waiting and retried) waits for the first, then is answered as a duplicate
    // if it succeeded, or handled itself if it failed.
    inFlight: new Map(),
    log,
    secret: secret === undefined ? undefined : digest(secret),
  };
}

/**
 * The options of the event log (estatekit/live): `log` needs the account (`subdomain`) and the
 * app's `secret`, which every delivery must carry (the registered URL's \`secret\` parameter).
 * @param {Partial<WebhookHandlerOptions> & { queue?: unknown }} given
 * @returns {{ log: import("./live.js").EventLog | undefined, secret: string | undefined }}
 */
function logOptions(given) {
  const { log, secret, subdomain } = given;
  if (secret !== undefined && (typeof secret !== "string" || secret.length < 16)) {
    throw apiError("invalid_input", "createWebhookHandler: `secret` must be a string of at least 16 characters (a random one, put in the URL you register)");
  }
  if (log === undefined) return { log, secret };
  if (log === null || typeof log !== "object" || typeof log.append !== "function") {
    throw apiError("invalid_input", "createWebhookHandler: `log` must be an event log of estatekit/live (createRedisEventLog or createMemoryEventLog)");
  }
  if (typeof subdomain !== "string") throw apiError("invalid_input", "createWebhookHandler: `log` needs `subdomain`, the account whose log it is");
  if (secret === undefined) {
    throw apiError("invalid_input", "createWebhookHandler: `log` needs `secret`: only deliveries to the URL carrying it (`?secret=...`) reach the log");
  }
  return { log, secret };
}

const encoded = new TextEncoder();

/**
 * The SHA-256 of `text`: secrets are compared by their digests, in constant time.
 * @param {string} text
 */
const digest = async (text) => new Uint8Array(await globalThis.crypto.subtle.digest("SHA-256", encoded.encode(text)));

/**
 * The 401 of a delivery whose URL does not carry the receiver's `secret` (compared in constant
 * time, by digests of the same length), if it is one. Checked before the body is read.
 * @param {Receiver} receiver
 * @param {Request} request
 * @param {Delivery} told
 * @returns {Promise<Response | undefined>}
 */
async function refuseUnsigned(receiver, request, told) {
  if (!receiver.secret) return undefined;
  const given = new URL(request.url).searchParams.get("secret") ?? "";
  const [expected, got] = await Promise.all([receiver.secret, digest(given)]);
  let diff = 0;
  for (let i = 0; i < expected.length; i++) diff |= /** @type {number} */ (expected[i]) ^ /** @type {number} */ (got[i]);
  if (diff === 0 && given !== "") return undefined;
  request.body?.cancel().catch(() => {});
  const why = "the URL does not carry this handler's `secret` (register the URL with its `?secret=` parameter)";
  return refused(receiver, told, new WebhookRefused("secret", 401, why), answer(401, { error: "the delivery does not carry the secret" }));
}

/**
 * Appends the event to its account's log (with `log`), once per uuid: a redelivery appends
 * nothing. A log that failed or did not answer within `storeTimeoutMs` gets the delivery
 * answered 503 with Retry-After (the sender comes back; the same uuid is appended once).
 * @param {Receiver} receiver
 * @param {WebhookEvent} event
 * @param {string} text the body as received
 * @param {Delivery} told
 * @returns {Promise<Response | undefined>}
 */
async function appendToLog(receiver, event, text, told) {
  const { log, subdomain, storeTimeoutMs } = receiver;
  if (!log || subdomain === undefined) return undefined;
  const type = told.type ?? "unknown";
  try {
    const appended = await bounded(Promise.resolve().then(() => log.append(subdomain, { uuid: event.uuid, type, data: text })), storeTimeoutMs);
    if (appended !== SLOW) return undefined;
    receiver.report(new LogUnavailable(`no answer within storeTimeoutMs, ${storeTimeoutMs} ms`), event);
  } catch (e) {
    receiver.report(new LogUnavailable("its append failed", e), event);
  }
  told.outcome = "log_unavailable";
  return answer(503, { error: "the event log is unavailable" }, { "retry-after": receiver.retryAfter });
}

/**
 * A `Request -> Response` function that receives deliveries. See ./webhooks.d.ts. A delivery
 * goes through `deliver`: `refuseUnread` (method, declared size), `readDelivery` (body, event),
 * `refuseForeign` (subdomain), then `enqueue` (queue mode), `handle` (no dedupe),
 * `handleOnceHere` (dedupe in this process) or `handleOnce` (a shared store).
 * @param {WebhookHandlerOptions} options
 * @returns {(request: Request) => Promise<Response>}
 */
function createWebhookHandler(options) {
  const receiver = receiverOf(options);
  /** @param {Request} request */
  const receive = async function receive(request) {
    return deliver(receiver, request, undefined, undefined);
  };
  /** @type {(request: Request, observer?: (delivery: Delivery) => void, traceparent?: () => string | undefined) => Promise<Response>} */
  const observed = (request, observer, traceparent) => deliver(receiver, request, observer, traceparent);
  return Object.defineProperty(receive, OBSERVE, { value: observed });
}

/**
 * Tells `onError` of a refused delivery (what it throws is not the sender's concern) and gives
 * the answer.
 * @param {Receiver} receiver
 * @param {Delivery} told
 * @param {WebhookRefused} refusal
 * @param {Response} response
 * @param {WebhookEvent} [event]
 */
function refused(receiver, told, refusal, response, event) {
  told.outcome = "refused";
  told.refusal = refusal.reason;
  try {
    receiver.report(refusal, event);
  } catch {
    // onError's own failure changes nothing for the sender.
  }
  return response;
}

/**
 * Answers one delivery (what `receive` does), telling `observer` how it ended (see `Delivery`):
 * the hook of estatekit/otel, which gives one per delivery.
 * @param {Receiver} receiver
 * @param {Request} request
 * @param {((delivery: Delivery) => void) | undefined} observer
 * @param {(() => string | undefined) | undefined} traceparent with `queue`: the delivery's
 *   trace context (W3C `traceparent`), put in the job's data
 * @returns {Promise<Response>}
 */
async function deliver(receiver, request, observer, traceparent) {
  /** @type {Delivery} */
  const told = { outcome: "error" };
  try {
    return await answerDelivery(receiver, request, told, traceparent);
  } finally {
    try {
      observer?.(told);
    } catch {
      // An observer's failure is not the sender's.
    }
  }
}

/**
 * The steps of one delivery, in order; the first that answers ends it.
 * @param {Receiver} receiver
 * @param {Request} request
 * @param {Delivery} told
 * @param {(() => string | undefined) | undefined} traceparent
 * @returns {Promise<Response>}
 */
async function answerDelivery(receiver, request, told, traceparent) {
  const early = refuseUnread(receiver, request, told) ?? (await refuseUnsigned(receiver, request, told));
  if (early) return early;
  const read = await readDelivery(receiver, request, told);
  if (read instanceof Response) return read;
  const { event, text } = read;
  const foreign = refuseForeign(receiver, event, told);
  if (foreign) return foreign;
  const unlogged = await appendToLog(receiver, event, text, told);
  if (unlogged) return unlogged;
  const { queue, store, shared } = receiver;
  if (queue) return enqueue(receiver, queue, event, told, traceparent);
  if (shared) return handleOnce(receiver, shared, event, request, told);
  if (store) return handleOnceHere(receiver, store, event, request, told);
  return handle(receiver, event, request, told);
}

/**
 * The refusals decided before the body is read: a method other than POST (405), a declared
 * Content-Length over `maxBytes` (413, the body cancelled unread).
 * @param {Receiver} receiver
 * @param {Request} request
 * @param {Delivery} told
 * @returns {Response | undefined}
 */
function refuseUnread(receiver, request, told) {
  if (request.method !== "POST") {
    const why = `the method is ${quoted(request.method)}; deliveries are POST`;
    return refused(receiver, told, new WebhookRefused("method", 405, why), answer(405, { error: "only POST is accepted" }, { allow: "POST" }));
  }
  const { maxBytes } = receiver;
  const declared = Number(request.headers.get("content-length") ?? NaN);
  if (declared > maxBytes) {
    request.body?.cancel().catch(() => {});
    return tooLarge(receiver, told, `its Content-Length (${declared} bytes) is over maxBytes (${maxBytes}); the body was not read`);
  }
  return undefined;
}

/**
 * The 413 of a body over `maxBytes`.
 * @param {Receiver} receiver
 * @param {Delivery} told
 * @param {string} why
 */
const tooLarge = (receiver, told, why) =>
  refused(receiver, told, new WebhookRefused("too_large", 413, why), answer(413, { error: `the body is larger than ${receiver.maxBytes} bytes` }));

/**
 * The body read (at most `maxBytes`) and checked as an event, or the answer when it is not one:
 * 413 (too large), 400 (not a valid event), 500 (it could not be read, e.g. the module failed to
 * load: retried). The event's type and id are noted in `told`.
 * @param {Receiver} receiver
 * @param {Request} request
 * @param {Delivery} told
 * @returns {Promise<{ event: WebhookEvent, text: string } | Response>}
 */
async function readDelivery(receiver, request, told) {
  const { maxBytes } = receiver;
  /** @type {WebhookEvent} */
  let event;
  let text = "";
  try {
    const bytes = await readBody(request, maxBytes);
    // With `log`, the body's text as received is what the log keeps (and pages get).
    if (receiver.log) text = decodeBody(bytes);
    event = await parseEvent(receiver.log ? text : bytes);
  } catch (e) {
    if (e === TOO_LARGE) return tooLarge(receiver, told, `the body is over maxBytes (${maxBytes} bytes); it was not read further`);
    if (isInvalidEvent(e)) {
      const why = `not a valid event (${e.message}, at ${e.path})`;
      return refused(receiver, told, new WebhookRefused("invalid_event", 400, why, e), answer(400, { error: e.message, path: e.path }));
    }
    receiver.report(e, undefined);
    return answer(500, { error: "the event could not be read" }); // e.g. the module failed to load: retry
  }
  noteEvent(told, event);
  return { event, text };
}

/**
 * The 403 of an event for another subdomain than the receiver's `subdomain`, if it is one.
 * @param {Receiver} receiver
 * @param {WebhookEvent} event
 * @param {Delivery} told
 * @returns {Response | undefined}
 */
function refuseForeign(receiver, event, told) {
  const { subdomain } = receiver;
  if (subdomain === undefined || event.subdomain === subdomain) return undefined;
  const why =
    `the event is for subdomain ${quoted(event.subdomain)} and this handler's \`subdomain\` is ${quoted(subdomain)} ` +
    "(set it to your account's subdomain; the emulator prints its own at start-up)";
  return refused(receiver, told, new WebhookRefused("subdomain", 403, why), answer(403, { error: "the event is for another subdomain" }), event);
}

/**
 * `dedupe: true` or a `{ has, add }` store: a copy of a delivery being handled in this process
 * waits for it; a uuid the store has is answered 200 as a duplicate without a call; a store that
 * fails is answered 500, one slower than `storeTimeoutMs` 503 with Retry-After.
 * @param {Receiver} receiver
 * @param {DedupeStore} store
 * @param {WebhookEvent} event
 * @param {Request} request
 * @param {Delivery} told
 * @returns {Promise<Response>}
 */
async function handleOnceHere(receiver, store, event, request, told) {
  const { uuid } = event;
  const { storeTimeoutMs, report, retryAfter } = receiver;
  return inFlightOnce(receiver, uuid, async () => {
    try {
      const seen = await bounded(Promise.resolve(store.has(uuid)), storeTimeoutMs);
      if (seen === SLOW) {
        report(new StoreTimeout("has", storeTimeoutMs), event);
        told.outcome = "store_unavailable";
        return answer(503, { error: "the dedupe store is unavailable" }, { "retry-after": retryAfter });
      }
      if (seen) {
        told.outcome = "duplicate";
        return answer(200, { received: true, duplicate: true });
      }
    } catch (e) {
      report(e, event);
      told.outcome = "store_unavailable";
      return answer(500, { error: "the dedupe store failed" });
    }
    return handle(receiver, event, request, told);
  });
}

/**
 * Runs `run` for `uuid` once the copy of it being handled in this process (if any) is done;
 * registered before anything is awaited, so that one copy at a time gets past this point.
 * @param {Receiver} receiver
 * @param {string} uuid
 * @param {() => Promise<Response>} run
 * @returns {Promise<Response>}
 */
async function inFlightOnce(receiver, uuid, run) {
  const { inFlight } = receiver;
  for (let first = inFlight.get(uuid); first; first = inFlight.get(uuid)) await first.catch(() => {});
  const claim = run();
  inFlight.set(uuid, claim);
  try {
    return await claim;
  } finally {
    inFlight.delete(uuid);
  }
}

/**
 * With a shared store: `handleOnce` waits for a copy being handled in this process first.
 * @param {Receiver} receiver
 * @param {import("./store.js").Store} shared
 * @param {WebhookEvent} event
 * @param {Request} request
 * @param {Delivery} told
 * @returns {Promise<Response>}
 */
function handleOnce(receiver, shared, event, request, told) {
  return inFlightOnce(receiver, event.uuid, () => once(receiver, shared, event, request, told));
}

/**
 * A store call bounded by `storeTimeoutMs`: its value, or undefined when it failed or was slow
 * (both reported). A claim that was slow but taken after all is released, so that the sender's
 * retry is not kept out.
 * @template T
 * @param {Receiver} receiver
 * @param {import("./store.js").Store} shared
 * @param {WebhookEvent} event
 * @param {string} name
 * @param {() => Promise<T>} call
 * @returns {Promise<{ value: T } | undefined>}
 */
async function askStore(receiver, shared, event, name, call) {
  const { storeTimeoutMs, report } = receiver;
  try {
    const pending = call();
    const value = await bounded(pending, storeTimeoutMs);
    if (value !== SLOW) return { value };
    report(new StoreTimeout(name, storeTimeoutMs), event);
    if (name === "claim") {
      pending
        .then((owner) => {
          if (typeof owner === "string") return shared.release(claimKey(event), owner);
        })
        .catch(() => {});
    }
  } catch (e) {
    report(e, event);
  }
  return undefined;
}

/** @param {WebhookEvent} event */
const claimKey = (event) => `webhook:${event.uuid}:claim`;
/** @param {WebhookEvent} event */
const doneKey = (event) => `webhook:${event.uuid}:done`;

/**
 * Runs the handler across every process sharing `shared` so that a uuid's handler completes
 * (resolves) once: a done-mark (`webhook:<uuid>:done`, kept `doneTtlMs`) answers copies 200; a
 * claim (`webhook:<uuid>:claim`, `claimTtlMs`) lets one process at a time run it, and a copy
 * arriving meanwhile is answered 503 with Retry-After. A handler that throws is run again by the
 * retry (at least once). Every store call is bounded by `storeTimeoutMs`; a store that fails or
 * is slow before the handler ran gets the delivery answered 503 (retried by the sender, not
 * lost). Once only holds if the done-mark is acknowledged before the claim ends (else
 * DoneMarkLate is reported) and the store keeps its data.
 * @param {Receiver} receiver
 * @param {import("./store.js").Store} shared
 * @param {WebhookEvent} event
 * @param {Request} request
 * @param {Delivery} told
 * @returns {Promise<Response>}
 */
async function once(receiver, shared, event, request, told) {
  const UNAVAILABLE = "the dedupe store is unavailable";
  const busy = (/** @type {string} */ error) => {
    told.outcome = error === UNAVAILABLE ? "store_unavailable" : "in_progress";
    return answer(503, { error }, { "retry-after": receiver.retryAfter });
  };
  const duplicate = () => {
    told.outcome = "duplicate";
    return answer(200, { received: true, duplicate: true });
  };
  const isDone = () => askStore(receiver, shared, event, "get", () => shared.get(doneKey(event)));
  const before = await isDone();
  if (!before) return busy(UNAVAILABLE);
  if (before.value != null) return duplicate();
  // The claim lasts claimTtlMs from when the store set it, which is after this instant: a mark
  // acknowledged before `deadline` was written while the claim was held.
  const deadline = Date.now() + receiver.claimTtlMs;
  const claimed = await askStore(receiver, shared, event, "claim", () => shared.claim(claimKey(event), receiver.claimTtlMs));
  if (!claimed) return busy(UNAVAILABLE);
  const owner = claimed.value;
  if (owner == null) return busy("this delivery is being handled by another instance");
  const release = () => askStore(receiver, shared, event, "release", () => shared.release(claimKey(event), owner));
  // Another process may have finished it between the first look and the claim.
  const after = await isDone();
  if (after?.value != null || !after) {
    await release();
    return after ? duplicate() : busy(UNAVAILABLE);
  }
  const handled = await handle(receiver, event, request, told);
  if (handled.ok) await markDone(receiver, shared, event, deadline, release);
  else await release(); // the handler threw: its retry runs it again
  return handled;
}

/**
 * Marks a handled uuid done, then releases its claim. If the mark cannot be written, the claim
 * is kept (a copy arriving meanwhile gets 503) and the mark is tried again every second while it
 * lasts. A mark not acknowledged before the claim's end (`deadline`: a handler slower than
 * claimTtlMs, or a store away that long) no longer keeps copies out: onError is told
 * (DoneMarkLate).
 * @param {Receiver} receiver
 * @param {import("./store.js").Store} shared
 * @param {WebhookEvent} event
 * @param {number} deadline
 * @param {() => Promise<unknown>} release
 */
async function markDone(receiver, shared, event, deadline, release) {
  let late = false;
  const mark = async () => {
    const written = await askStore(receiver, shared, event, "set", () => shared.set(doneKey(event), "1", receiver.doneTtlMs));
    if (!late && (written ? Date.now() > deadline : Date.now() + 1_000 >= deadline)) {
      late = true;
      receiver.report(new DoneMarkLate(receiver.claimTtlMs), event);
    }
    return written;
  };
  if (await mark()) await release();
  else if (!late) {
    const again = async () => {
      if (await mark()) await release();
      else if (!late) setTimeout(again, 1_000);
    };
    setTimeout(again, 1_000);
  }
}

/**
 * Adds the delivery as one job (name: its type; data: the event and the trace context; id: its
 * uuid, so that a redelivery is the same job) and answers 202 once the queue acknowledged it,
 * or 503 with Retry-After when it failed or did not answer within `storeTimeoutMs` (the job may
 * still be added: the sender's retry, the same uuid, is then the same job).
 * @param {Receiver} receiver
 * @param {WebhookQueue} queue
 * @param {WebhookEvent} event
 * @param {Delivery} told
 * @param {(() => string | undefined) | undefined} traceparent
 * @returns {Promise<Response>}
 */
async function enqueue(receiver, queue, event, told, traceparent) {
  const { storeTimeoutMs } = receiver;
  /** @type {{ event: WebhookEvent, traceparent?: string }} */
  const data = { event };
  try {
    const carried = traceparent?.();
    if (typeof carried === "string") data.traceparent = carried;
  } catch {
    // Telemetry never changes how a delivery is answered.
  }
  /** @param {QueueUnavailable} error */
  const unavailable = (error) => {
    receiver.report(error, event);
    told.outcome = "queue_unavailable";
    return answer(503, { error: "the queue is unavailable" }, { "retry-after": receiver.retryAfter });
  };
  try {
    const added = await bounded(
      Promise.resolve().then(() => queue.add(told.type ?? "unknown", data, { jobId: event.uuid })),
      storeTimeoutMs,
    );
    if (added === SLOW) return unavailable(new QueueUnavailable(`no answer within storeTimeoutMs, ${storeTimeoutMs} ms`));
  } catch (e) {
    return unavailable(new QueueUnavailable("its add() failed", e));
  }
  told.outcome = "queued";
  return answer(202, { received: true, queued: true });
}

/**
 * Runs the event's handler: 200 once it resolved (remembered by `dedupe`), 500 if it threw
 * (not remembered, so that the sender's retry runs it again).
 * @param {Receiver} receiver
 * @param {WebhookEvent} event
 * @param {Request} request
 * @param {Delivery} told
 * @returns {Promise<Response>}
 */
async function handle(receiver, event, request, told) {
  const { store, storeTimeoutMs, report } = receiver;
  /** @type {((event: any, request: Request) => unknown) | undefined} */
  const handler = event.operation === null ? receiver.onUnknown : receiver.handlers[event.operation];
  try {
    await handler?.(event, request);
  } catch (e) {
    report(e, event);
    told.outcome = "handler_failed";
    return answer(500, { error: "the handler failed" });
  }
  told.outcome = "new";
  try {
    if (store && (await bounded(Promise.resolve(store.add(event.uuid)), storeTimeoutMs)) === SLOW) {
      // Handled: a copy of it may run the handler again.
      report(new StoreTimeout("add", storeTimeoutMs, "the delivery was handled (answered 200), and a copy of it may run the handler again"), event);
    }
  } catch (e) {
    report(e, event); // handled; a retry of it would run the handler again
  }
  return answer(200, { received: true });
}

/** @typedef {{ add(name: string, data: unknown, opts: { jobId: string }): unknown }} WebhookQueue */

/**
 * What the processor reads of a BullMQ Job.
 * @typedef {{ id?: string, name?: string, data: unknown, attemptsMade?: number, timestamp?: number, processedOn?: number }} WebhookJob
 */

/**
 * A BullMQ Worker's processor function for the jobs `createWebhookHandler({ queue })` adds: the
 * event's handler by type (`on`, `onUnknown`), called with the event and `{ job, attempt }`. A
 * handler that throws fails the job (BullMQ retries it per its `attempts` and `backoff`). See
 * ./webhooks.d.ts.
 * @param {{ on: Record<string, ((event: any, job: { job: WebhookJob, attempt: number }) => unknown) | undefined>, onUnknown?: (event: any, job: { job: WebhookJob, attempt: number }) => unknown }} options
 * @returns {(job: WebhookJob, token?: string) => Promise<void>}
 */
export function webhookProcessor(options) {
  const { on, onUnknown } = options ?? {};
  if (on === null || typeof on !== "object") throw apiError("invalid_input", "webhookProcessor: `on` must be an object of handlers");
  if (onUnknown !== undefined && typeof onUnknown !== "function") throw apiError("invalid_input", "webhookProcessor: `onUnknown` must be a function");
  /** @param {WebhookJob} job @param {string | undefined} _token @param {((processed: Processed) => void) | undefined} observer */
  const run = async (job, _token, observer) => {
    const attempt = (Number.isSafeInteger(job?.attemptsMade) ? /** @type {number} */ (job.attemptsMade) : 0) + 1;
    /** @type {Processed} */
    const told = { outcome: "failed", attempt };
    try {
      const data = /** @type {{ event?: unknown, traceparent?: unknown }} */ (job?.data ?? {});
      if (typeof data.traceparent === "string") told.traceparent = data.traceparent;
      const event = /** @type {WebhookEvent} */ (data.event);
      if (event === null || typeof event !== "object" || typeof event.uuid !== "string") {
        throw apiError("invalid_input", "webhookProcessor: the job's data is not a delivery added by createWebhookHandler({ queue })");
      }
      noteEvent(/** @type {Delivery} */ (/** @type {unknown} */ (told)), event);
      const handler = event.operation === null ? onUnknown : on[event.operation];
      await handler?.(event, { job, attempt });
      told.outcome = "handled";
    } finally {
      try {
        observer?.(told);
      } catch {
        // An observer's failure is not the job's.
      }
    }
  };
  /** @param {WebhookJob} job @param {string} [token] */
  const processor = async function process(job, token) {
    return run(job, token, undefined);
  };
  return Object.defineProperty(processor, PROCESS, { value: run });
}

/**
 * estatekit/webhooks's API, with its module loaded from `from` when a delivery is first parsed
 * (one module per realm: the first entry that loads it decides where from). `fallback`: the
 * browser entry's embedded copy, for when the file gives no module (see ./loader.js).
 * @param {() => import("./loader.js").Source} from
 * @param {import("./loader.js").Where["fallback"]} [fallback]
 */
export function entry(from, fallback) {
  load ??= loadOnce(wasmInit, { entry: "estatekit/webhooks", file: "estatekit_webhooks_wasm_bg.wasm", source: from, fallback });
  return { parseEvent, createWebhookHandler, toNodeListener };
}
