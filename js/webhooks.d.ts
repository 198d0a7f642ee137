// estatekit/webhooks: receiving the service's webhook deliveries. The event types are derived
// from the Rust types (crate estatekit-events, tsify) and declared in the module's glue.
import type { KnownEvent, UnknownTypeEvent, WebhookEvent } from "./estatekit_webhooks_wasm.js";
import type { Store } from "./store.js";
import type { EventLog } from "./live.js";

export type { EventLog } from "./live.js";

export type {
  CandidateParsedData,
  ContractFile,
  ContractFlowSignedData,
  ContractFlowStartedData,
  ContractFlowType,
  ContractMetadata,
  EmploymentType,
  Envelope,
  EventAddress,
  EventCandidate,
  EventListing,
  EventLocation,
  EventProperty,
  EventUnit,
  HasPets,
  HouseholdPersons,
  IncomeRange,
  Integration,
  InvitedViewingData,
  KnownEvent,
  ListingCandidateAppliedData,
  Opaque,
  StringOrNumber,
  UnknownTypeEvent,
  WebhookEvent,
} from "./estatekit_webhooks_wasm.js";

/** One of the 28 event types: the `operation` of a known event. */
export type EventType = KnownEvent["operation"];

/** The event of type `T`, with its `data` typed (or `unknown` for the 23 types without a shape). */
export type EventOf<T extends EventType> = Extract<KnownEvent, { operation: T }>;

/**
 * The error of a delivery that is not a valid event: not UTF-8, not JSON, not an object, a
 * member of the envelope missing or of the wrong type, `createdAt` not an ISO 8601 timestamp,
 * or `data` of a known type not of its shape. Its message names the JSON path of the first
 * violation (also in `path`, `.` for the envelope itself) and never repeats the whole body.
 */
export interface WebhookEventError extends Error {
  readonly name: "WebhookEventError";
  kind: "invalid_event";
  /** The JSON path of the first violation: `data.listing.unit.name`, `createdAt`, or `.`. */
  path: string;
}

/**
 * The class of {@link WebhookEventError}: its own, not an `ApiError` (no call failed;
 * `isApiError` is false for it). `instanceof` holds across module copies and realms.
 */
export declare const WebhookEventError: {
  new (message: string, path?: string): WebhookEventError;
  readonly prototype: WebhookEventError;
  [Symbol.hasInstance](value: unknown): value is WebhookEventError;
};

/**
 * Checks a delivery and gives it typed: the body as received (a string or bytes, UTF-8, a BOM
 * allowed) or already parsed. The envelope is checked (`uuid`, `operation`, `subdomain`,
 * `language` strings, `createdAt` an ISO 8601 timestamp, `data` present), and for the five types
 * with a known shape, `data` too. The result is the parsed object itself: members the types do
 * not declare are kept, every value is as sent. An `operation` outside the 28 types gives an
 * {@link UnknownTypeEvent} (a copy with `operation: null` and the type in `rawOperation`).
 * Duplicate keys: the last wins (JSON.parse). Rejects with a {@link WebhookEventError}, or, if the
 * module cannot be loaded, an `Error` named `ApiError` of kind `network`.
 */
export function parseEvent(body: string | Uint8Array | ArrayBuffer | object): Promise<WebhookEvent>;

/** Whether `e` is the error of an invalid delivery. */
export function isInvalidEvent(e: unknown): e is WebhookEventError;

/** A handler per event type; each receives its type's event. A misspelt type is a type error. */
export type WebhookHandlers = {
  [T in EventType]?: (event: EventOf<T>, request: Request) => unknown;
};

/** Where `dedupe` remembers the `uuid`s of handled deliveries (a `Set`, Redis, a table...). */
export interface DedupeStore {
  has(uuid: string): boolean | Promise<boolean>;
  add(uuid: string): unknown;
}

/** Options of {@link createWebhookHandler}. */
export interface WebhookHandlerOptions {
  /** The handlers, by event type. A delivery of a type without one is acknowledged (200). */
  on: WebhookHandlers;
  /** The handler of unknown-type events (types added by the service after this package). */
  onUnknown?: (event: UnknownTypeEvent, request: Request) => unknown;
  /** Your account's subdomain: a delivery for another is answered 403. */
  subdomain?: string;
  /**
   * An event log of estatekit/live (`createRedisEventLog`, `createMemoryEventLog`): each accepted
   * event is appended to the log of `subdomain`'s account (once per `uuid`: a redelivery appends
   * nothing) before the delivery is answered 2xx, for `createEventStream` to push to signed-in
   * pages. A log that fails or does not answer within `storeTimeoutMs` gets the delivery answered
   * 503 with `Retry-After` (`onError` gets a `LogUnavailable`). Needs `subdomain` and `secret`.
   */
  log?: EventLog;
  /**
   * The app's secret (at least 16 characters, random), which deliveries carry in the URL you
   * register (`https://app.example/webhooks?secret=...`, e.g. with `ensureWebhook`): a delivery
   * without it is answered 401 unread (compared in constant time). Deliveries are not signed: with
   * `log`, this is what keeps anyone else from pushing events onto the pages.
   */
  secret?: string;
  /**
   * Answer a repeated delivery (same `uuid`) 200 without calling the handler again:
   * - `true`: an in-memory set of the last 10,000 uuids (one process);
   * - a {@link Store} (estatekit/store's `createRedisStore(...)`, shared by every process): a uuid's
   *   handler completes (resolves) once across all of them; one that throws is run again by the
   *   retry, so its side effects must be idempotent. A copy that arrives while another process
   *   handles that uuid is answered 503 with `Retry-After`, so the sender comes back; once handled,
   *   copies get 200 without a call. If the store fails or does not answer within
   *   `storeTimeoutMs`, the delivery is answered 503 (not lost) and `onError` is told. Once only
   *   holds while the store keeps its data and acknowledges the done-mark before the claim ends
   *   (`claimTtlMs`; else `onError` gets a `DoneMarkLate`);
   * - your own `{ has, add }` (a check, then a write: two copies at once can both pass).
   *
   * A delivery whose handler threw is not remembered (and its claim is released), so its retry
   * runs the handler. A copy that arrives while the first is being handled in this process waits
   * for it.
   */
  dedupe?: boolean | Store | DedupeStore;
  /**
   * With a shared `dedupe` store: how long a process holds a uuid's claim while its handler runs,
   * in milliseconds (default 300000, 5 minutes). Make it longer than your slowest handler plus a
   * store outage: a claim that ends before the done-mark is written lets a copy run the handler
   * again (`onError` gets a `DoneMarkLate`).
   */
  claimTtlMs?: number;
  /** With a shared `dedupe` store: how long a handled uuid is remembered, in milliseconds (default 7 days). */
  doneTtlMs?: number;
  /** With a shared `dedupe` store: the longest wait for each store call, in milliseconds (default 2000). */
  storeTimeoutMs?: number;
  /**
   * How long a 503 answered because of a shared `dedupe` store asks the sender to wait, in
   * milliseconds (default 5000); its `Retry-After` header is in whole seconds, rounded up.
   */
  retryAfterMs?: number;
  /** The largest body accepted, in bytes (default 1 MiB); a larger one is answered 413 unread. */
  maxBytes?: number;
  /**
   * Told of a handler (or dedupe store) that threw, of a store that did not answer in time (an
   * `Error` named `StoreTimeout`), of a done-mark not acknowledged while the claim lasted
   * (named `DoneMarkLate`), and of every delivery the handler refused (a
   * {@link WebhookRefused}: wrong method, body over `maxBytes`, not a valid event, another
   * subdomain; with the event for the last); by default `console.error` (of the message only,
   * for those three). What it throws is ignored.
   */
  onError?: (error: unknown, event: WebhookEvent | undefined) => void;
}

/**
 * What `onError` is told of a delivery the handler refused, so that none is dropped in silence.
 * Its message says why (e.g. `estatekit/webhooks: a delivery was refused (HTTP 403): the event is
 * for subdomain "emu-3f0af23c" and this handler's \`subdomain\` is "acme" ...`) and never quotes
 * the body; an invalid event's {@link WebhookEventError} is its `cause`.
 */
export interface WebhookRefused extends Error {
  readonly name: "WebhookRefused";
  /**
   * Why: `method` (not POST: 405), `too_large` (over `maxBytes`: 413), `invalid_event` (not a
   * valid event: 400, not retried by a sender), `subdomain` (another account's: 403), `secret`
   * (the URL does not carry the handler's `secret`: 401).
   */
  reason: "method" | "too_large" | "invalid_event" | "subdomain" | "secret";
  /** The status the delivery was answered with. */
  status: 405 | 413 | 400 | 403 | 401;
}

/**
 * A `Request -> Response` function that receives deliveries: a Next.js App Router route handler
 * as it is (`export const POST = createWebhookHandler(...)`), a Hono, Deno or Workers handler,
 * a `fetch` for `estatekit/testing`'s `deliver`. It answers 200 once the handler resolved (or
 * for a duplicate, with `dedupe`), 400 to a body that is not a valid event (so the sender does
 * not retry it), 413 to a body over `maxBytes`, 403 to another subdomain, 405 to anything but
 * POST, 500 when the handler threw (so the sender retries), and 503 with `Retry-After` when a
 * shared `dedupe` store is unavailable or another process is handling the same `uuid`. With
 * `queue` (see {@link QueuedWebhookHandlerOptions}), each checked delivery is added as one job and
 * answered 202 once stored, or 503 with `Retry-After` when the queue did not acknowledge it.
 */
export function createWebhookHandler(options: WebhookHandlerOptions | QueuedWebhookHandlerOptions): (request: Request) => Promise<Response>;

/** What {@link toNodeListener} reads of node:http's `IncomingMessage` (or Express's `req`). */
export interface NodeRequest extends AsyncIterable<Uint8Array | string> {
  method?: string;
  url?: string;
  headers: Record<string, string | string[] | undefined>;
  readableEnded?: boolean;
  /** Set by a body parser (Express): used when the stream was already read. */
  body?: unknown;
  destroy?(): unknown;
}

/** What {@link toNodeListener} writes of node:http's `ServerResponse` (or Express's `res`). */
export interface NodeResponse {
  statusCode: number;
  readonly headersSent: boolean;
  setHeader(name: string, value: string): unknown;
  end(chunk?: Uint8Array): unknown;
  once?(event: "finish" | "close", listener: () => void): unknown;
  /** Writes a chunk of a streamed answer (`text/event-stream`: estatekit/live's streams). */
  write?(chunk: Uint8Array): unknown;
  /** Sends the status and headers before the first chunk of a streamed answer. */
  flushHeaders?(): unknown;
  /** Cuts the connection (a streamed answer that failed). */
  destroy?(): unknown;
}

/**
 * A node:http / Express listener for a `Request -> Response` handler:
 * `http.createServer(toNodeListener(createWebhookHandler({ on })))`, `app.post(path,
 * toNodeListener(handler))`. An answer of type `text/event-stream` (estatekit/live's
 * `createEventStream`) is written as it comes, and its stream cancelled when the client goes;
 * the request's `signal` is aborted then.
 */
export function toNodeListener(handler: (request: Request) => Promise<Response>): (req: NodeRequest, res: NodeResponse) => void;

/**
 * What `createWebhookHandler({ queue })` needs of a queue: BullMQ's `Queue.add(name, data, opts)`,
 * resolving once the job is stored (any queue keeping this contract works). Called with the
 * event's type as `name`, `{ event, traceparent? }` as `data` and `{ jobId: event.uuid }`: adding
 * an id that exists already must add nothing (BullMQ ignores it while the job is kept).
 */
export interface WebhookQueue {
  add(name: string, data: WebhookJobData, opts: { jobId: string }): unknown;
}

/** The data of a job added by `createWebhookHandler({ queue })`. */
export interface WebhookJobData {
  /** The event as `parseEvent` gave it (as JSON: what BullMQ stores). */
  event: WebhookEvent;
  /** The delivery's trace context (W3C `traceparent`), with estatekit/otel. */
  traceparent?: string;
}

/** Options of {@link createWebhookHandler} in the queued mode: the work runs off the request. */
export interface QueuedWebhookHandlerOptions {
  /**
   * Where each checked delivery goes as one job (a BullMQ `Queue`), whose id is the event's
   * `uuid`: a redelivery of the same uuid is the same job. The delivery is answered 202 once the
   * queue acknowledged the job, or 503 with `Retry-After` when it failed or did not answer within
   * `storeTimeoutMs` (`onError` gets a `QueueUnavailable`): never 2xx for a job not stored.
   * Run the handlers in BullMQ Workers with {@link webhookProcessor}. Not with `on` nor `dedupe`.
   */
  queue: WebhookQueue;
  /** Your account's subdomain: a delivery for another is answered 403. */
  subdomain?: string;
  /**
   * An event log of estatekit/live (`createRedisEventLog`, `createMemoryEventLog`): each accepted
   * event is appended to the log of `subdomain`'s account (once per `uuid`: a redelivery appends
   * nothing) before the delivery is answered 2xx, for `createEventStream` to push to signed-in
   * pages. A log that fails or does not answer within `storeTimeoutMs` gets the delivery answered
   * 503 with `Retry-After` (`onError` gets a `LogUnavailable`). Needs `subdomain` and `secret`.
   */
  log?: EventLog;
  /**
   * The app's secret (at least 16 characters, random), which deliveries carry in the URL you
   * register (`https://app.example/webhooks?secret=...`, e.g. with `ensureWebhook`): a delivery
   * without it is answered 401 unread (compared in constant time). Deliveries are not signed: with
   * `log`, this is what keeps anyone else from pushing events onto the pages.
   */
  secret?: string;
  /** The longest wait for the queue's acknowledgement, in milliseconds (default 2000). */
  storeTimeoutMs?: number;
  /** The wait a 503 answered because the queue is unavailable asks for, in milliseconds (default 5000; `Retry-After` is in whole seconds, rounded up). */
  retryAfterMs?: number;
  /** The largest body accepted, in bytes (default 1 MiB); a larger one is answered 413 unread. */
  maxBytes?: number;
  /** Told of refused deliveries and of a queue that did not acknowledge (`QueueUnavailable`). */
  onError?: (error: unknown, event: WebhookEvent | undefined) => void;
  on?: never;
  onUnknown?: never;
  dedupe?: never;
}


/** What a handler of {@link webhookProcessor} gets besides the event. */
export interface WebhookJobContext<J = WebhookJobLike> {
  /** The BullMQ job. */
  job: J;
  /** Which run this is: 1 for the first, 2 for the first retry... (`job.attemptsMade + 1`). */
  attempt: number;
}

/** What {@link webhookProcessor} reads of a BullMQ `Job`. */
export interface WebhookJobLike {
  id?: string;
  name?: string;
  data: unknown;
  attemptsMade?: number;
  timestamp?: number;
  processedOn?: number;
}

/** A handler per event type, for {@link webhookProcessor}: as {@link WebhookHandlers}, with the job. */
export type WebhookJobHandlers<J = WebhookJobLike> = {
  [T in EventType]?: (event: EventOf<T>, context: WebhookJobContext<J>) => unknown;
};

/**
 * A BullMQ Worker's processor for the jobs of `createWebhookHandler({ queue })`:
 * `new Worker(name, webhookProcessor({ on }), { connection, concurrency })`. Each job's event goes
 * to its type's handler (`onUnknown` for a type outside the 28; none: the job completes). A
 * handler that throws fails the job: BullMQ retries it per the job's `attempts` and `backoff`,
 * then keeps it in its failed set with the error. At least once: a worker killed mid-job has the
 * job run again by another once its lock lapses, so handlers must be idempotent (key: the event's
 * `uuid`).
 */
export function webhookProcessor<J extends WebhookJobLike = WebhookJobLike>(options: {
  on: WebhookJobHandlers<J>;
  onUnknown?: (event: UnknownTypeEvent, context: WebhookJobContext<J>) => unknown;
}): (job: J, token?: string) => Promise<void>;
