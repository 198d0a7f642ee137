/* tslint:disable */
/* eslint-disable */

/** What `rateLimit.store` needs of a store: estatekit/store's `Store` (e.g. `createRedisStore(redis)`) has it. */
export interface RateStore {
    /** Takes one from `perWindow` per `windowMs` under `key`: 0 when taken, else the milliseconds until there is room. */
    take(key: string, perWindow: number, windowMs: number): Promise<number>;
}

/** Client-side rate limit. */
export interface RateLimitOptions {
    /** Requests allowed per minute (the service allows 300). */
    perMinute: number;
    /**
     * A budget shared by several processes (estatekit/store's `createRedisStore(...)`): each attempt
     * first takes one from `perMinute` per minute under `key`. A store that fails or takes over
     * 1 s is left aside for 5 s, with this process's own window instead (event `store`).
     * Servers only (the `node` export condition: Node, Bun, Deno); a browser refuses it.
     */
    store?: RateStore;
    /** The budget's key in the store (default `rate:` and the base URL's origin; never the token). */
    key?: string;
}

/** What `ensureWebhook`'s `store` needs of a store: estatekit/store's `Store` (e.g. `createRedisStore(redis)`) has it. */
export interface WebhookClaimStore {
    /** Takes `key` if absent, for `ttlMs`: a new owner id when taken, null when another holds it. */
    claim(key: string, ttlMs: number): Promise<string | null>;
    /** Releases the claim `owner` holds (compare-and-delete). */
    release(key: string, owner: string): Promise<void>;
}

/**
 * The options of `ensureWebhook`: a call's options (its `timeoutMs` includes the wait for the
 * store's claim), and `store` (servers).
 */
export interface EnsureWebhookOptions extends CallOptions {
    /**
     * A store shared by every process that may call `ensureWebhook` for the same webhook
     * (estatekit/store's `createRedisStore(...)`): the call claims `webhook:<origin>:<type>:<url>`
     * (never the token), lists, registers when the list has none, and releases the claim;
     * other calls wait for the claim (within their timeout and signal) and list again. So N
     * processes register one webhook per (type, url). A store that fails or takes over 2 s
     * when asked for the claim rejects the call (kind `network`, nothing registered, event
     * `store` with purpose `webhook`): never a silent duplicate. Without it, two processes may
     * both register. Servers only (the `node` export condition: Node, Bun, Deno); a browser
     * refuses it.
     */
    store?: WebhookClaimStore;
}

/** What a shared store was asked for: the rate budget, or `ensureWebhook`'s claim (a token provider reports its store in its own `TokenEvent`s). */
export type StorePurpose = "rate" | "webhook";

/** How a shared store failed: no answer in time, or a rejection (or an unexpected answer). */
export type StoreFailure = "timeout" | "error";


/**
 * A `Message` field selectable with `MessagesOptions.fields` (`user` goes through `userFields`,
 * because the fields of `User` are not documented).
 */
export type MessageField = "id" | "candidateId" | "sentBy" | "userId" | "text" | "replyToMessageId" | "isRead" | "attachments";

/**
 * A document type (DOCUMENT_TYPES of the interface). `PRE-MOVE_IN` is a literal value.
 */
export type DocumentType = "DOCUMENT" | "RENTAL_APPLICATION" | "CONTRACT" | "MOVE_IN" | "MOVE_OUT" | "PRE-MOVE_IN" | "SELLING";

/**
 * A file attached to a message (all fields nullable).
 */
export interface MessageAttachment {
    /**
     * Attachment id.
     */
    id?: string | null;
    /**
     * File name.
     */
    name?: string | null;
    /**
     * Where the file is stored.
     */
    resourcePath?: string | null;
    /**
     * Media type.
     */
    type?: string | null;
    /**
     * Size in bytes.
     */
    size?: number | null;
}

/**
 * A message (all fields nullable; only selected fields are present).
 */
export interface Message {
    /**
     * Message id.
     */
    id?: string | null;
    /**
     * The candidate the message belongs to.
     */
    candidateId?: string | null;
    /**
     * `ADMIN` or `CANDIDATE`; values added later by the service are passed through.
     */
    sentBy?: MessageSentBy | (string & {}) | null;
    /**
     * The sending user.
     */
    userId?: string | null;
    /**
     * The message body.
     */
    text?: string | null;
    /**
     * The sending user (selected with `userFields`; its fields are not documented).
     */
    user?: Record<string, unknown> | null;
    /**
     * The message this one replies to.
     */
    replyToMessageId?: string | null;
    /**
     * Read flag.
     */
    isRead?: boolean | null;
    /**
     * Attached files.
     */
    attachments?: (MessageAttachment | null)[] | null;
}

/**
 * A registered webhook (section 2.5), as the service returns it. `id`, `type` and `url` are
 * required; every other field the service sends is kept in the object the caller receives.
 */
export interface Webhook {
    /**
     * Webhook id.
     */
    id: string;
    /**
     * An `EventType`; values added later by the service are passed through.
     */
    type: EventType | (string & {});
    /**
     * The address that receives notifications.
     */
    url: string;
    /**
     * Partner id.
     */
    partnerId?: string | null;
    /**
     * Company id.
     */
    companyId?: string | null;
    /**
     * The user who registered the webhook.
     */
    connectedByUserId?: string | null;
    /**
     * ISO 8601 creation time.
     */
    createdAt?: string | null;
    /**
     * ISO 8601 time of the last change.
     */
    updatedAt?: string | null;
    /**
     * ISO 8601 deletion time; null while not deleted.
     */
    deletedAt?: string | null;
}

/**
 * A stored document's metadata, as the service returns it. Only `id` is required; the
 * documented fields are checked for type (`candidateId`, `mimeType`, `createdAt` and
 * `updatedAt`, which the interface leaves open, are declared, not checked), and every other
 * field the service sends is kept in the object the caller receives.
 */
export interface DocumentRecord {
    /**
     * Document id.
     */
    id: string;
    /**
     * `<subdomain>/<companyId>/<given resourcePath>/<id>`.
     */
    resourcePath?: string | null;
    /**
     * File name (the upload's `name`).
     */
    title?: string | null;
    /**
     * Owning company.
     */
    companyId?: string | null;
    /**
     * A `DocumentType`; values added later by the service are passed through.
     */
    type?: DocumentType | (string & {}) | null;
    /**
     * Linked tenant.
     */
    tenantId?: string | null;
    /**
     * Linked unit.
     */
    unitId?: string | null;
    /**
     * Linked property.
     */
    propertyId?: string | null;
    /**
     * Linked property group.
     */
    propertyGroupId?: string | null;
    /**
     * Linked candidate.
     */
    candidateId?: string | null;
    /**
     * Size in bytes.
     */
    size?: number | null;
    /**
     * The file's media type (e.g. `application/pdf`; after a `format` conversion, the new one).
     */
    mimeType?: string | null;
    /**
     * When it was uploaded (ISO 8601).
     */
    createdAt?: string | null;
    /**
     * When its record last changed (ISO 8601).
     */
    updatedAt?: string | null;
}

/**
 * An access token with its expiry: what `getToken` may resolve with (and what a token
 * provider's `getToken` gives, e.g. for a server route that hands a browser its token).
 */
export interface AccessToken {
    /**
     * The bearer access token.
     */
    token: string;
    /**
     * When it expires, in milliseconds since the Unix epoch (`Date.now()`'s clock).
     */
    expiresAt: number;
}

/**
 * An event type a webhook can subscribe to (section 6 of the interface, 28 types grouped
 * Listing, Candidates, Scheduling, Contracting, Owner, Property, Unit).
 */
export type EventType = "LISTING_CREATED" | "LISTING_UPDATED" | "LISTING_ARCHIVED" | "LISTING_ACTIVATED" | "LISTING_DEACTIVATED" | "LISTING_PUBLISHED_TO_CHANNEL" | "LISTING_UNPUBLISHED_FROM_CHANNEL" | "CANDIDATE_PARSED" | "LISTING_CANDIDATE_APPLIED" | "LISTING_CANDIDATE_SCHEDULE_INVITED_VIEWING" | "LISTING_CANDIDATE_SCHEDULE_NEW_TIMESLOTS_REQUESTED" | "LISTING_CANDIDATE_SCHEDULE_TIMESLOT_BOOKED_ADMIN" | "LISTING_CANDIDATE_SCHEDULE_TIMESLOT_BOOKED_CANDIDATE" | "LISTING_CANDIDATE_SCHEDULE_TIMESLOT_BOOKING_REMOVED_ADMIN" | "LISTING_CANDIDATE_SCHEDULE_TIMESLOT_BOOKING_REMOVED_CANDIDATE" | "LISTING_CONTRACT_FLOW_STARTED" | "LISTING_CONTRACT_FLOW_WITHDRAWN" | "LISTING_CONTRACT_FLOW_PARTIALLY_SIGNED" | "LISTING_CONTRACT_FLOW_SIGNED" | "OWNER_CREATED" | "OWNER_UPDATED" | "OWNER_DELETED" | "PROPERTY_CREATED" | "PROPERTY_UPDATED" | "PROPERTY_DELETED" | "UNIT_CREATED" | "UNIT_UPDATED" | "UNIT_DELETED";

/**
 * Bytes of an upload sent so far.
 */
export interface UploadProgress {
    /**
     * Bytes sent.
     */
    loaded: number;
    /**
     * Bytes in all.
     */
    total: number;
}

/**
 * Filters of `listDocuments`.
 */
export interface ListDocumentsQuery {
    /**
     * Only documents linked to this unit.
     */
    unitId?: string;
    /**
     * Only documents linked to this property.
     */
    propertyId?: string;
    /**
     * Only documents linked to this property group.
     */
    propertyGroupId?: string;
    /**
     * Only documents linked to this candidate.
     */
    candidateId?: string;
    /**
     * Only documents linked to this tenant.
     */
    tenantId?: string;
    /**
     * Only documents of these types.
     */
    types?: readonly DocumentType[];
    /**
     * Title filter.
     */
    title?: string;
    /**
     * Number of records to skip.
     */
    skip?: number;
    /**
     * Number of records to return.
     */
    take?: number;
}

/**
 * HTTP methods the interface uses.
 */
export type HttpMethod = "GET" | "POST" | "DELETE";

/**
 * Image format an upload can be converted to.
 */
export type ImageFormat = "JPEG" | "PNG";

/**
 * Input of `registerWebhook` and `ensureWebhook`; also the JSON body sent to register one.
 */
export interface RegisterWebhookInput {
    /**
     * The event to be notified of.
     */
    type: EventType;
    /**
     * Absolute http(s) URL that receives the notifications.
     */
    url: string;
}

/**
 * Input of `uploadDocument`.
 */
export interface UploadDocumentInput {
    /**
     * The content; sent by the browser, never copied into WebAssembly memory.
     */
    file: Blob;
    /**
     * Virtual folder, e.g. `tenants/<tenant_id>` or `properties/<property_id>`.
     */
    resourcePath: string;
    /**
     * Links the document to other objects.
     */
    metadata?: DocumentMetadata;
    /**
     * Forces another file name (it comes back as `title`).
     */
    name?: string;
    /**
     * Converts an image to this format.
     */
    format?: ImageFormat;
}

/**
 * Metadata sent with an upload: links the document to other objects.
 */
export interface DocumentMetadata {
    /**
     * Type of document; the service's default is `DOCUMENT`.
     */
    type?: DocumentType;
    /**
     * Links the document to a tenant.
     */
    tenantId?: string;
    /**
     * Links the document to a unit.
     */
    unitId?: string;
    /**
     * Links the document to a property.
     */
    propertyId?: string;
    /**
     * Links the document to a property group.
     */
    propertyGroupId?: string;
}

/**
 * Options of `new Client(...)`. Give `token` or `getToken`, not both.
 */
export interface ClientOptions {
    /**
     * The account's base URL, e.g. `https://acme.example.com` (https, except for loopback hosts).
     */
    baseUrl: string;
    /**
     * A bearer access token.
     */
    token?: string;
    /**
     * Returns a fresh access token, or `{ token, expiresAt }`: called at first use, after a
     * 401, and (when it gave `expiresAt`) again shortly before the token expires.
     */
    getToken?: (reason: TokenReason) => string | AccessToken | Promise<string | AccessToken>;
    /**
     * Timeout of every call except uploads, in milliseconds (default 30000; 0 = none).
     */
    timeoutMs?: number;
    /**
     * Automatic retries of safe requests (reads, deletes, the messages query).
     */
    retry?: RetryOptions;
    /**
     * Opt-in client-side rate limiting: requests queue instead of hitting 429.
     */
    rateLimit?: RateLimitOptions;
    /**
     * Called before each automatic retry, e.g. for logging.
     */
    onRetry?: (event: RetryEvent) => void;
    /**
     * Told about every attempt of every call (for logs and metrics); what it throws is ignored.
     */
    onEvent?: (event: ClientEvent) => void;
    /**
     * Sends every request instead of the global `fetch` (tests, proxies, instrumentation); it
     * gets a `Request` (with the token and the call's abort signal) and must resolve to a
     * `Response`. With it, an upload's `onProgress` gets one report, at the end.
     */
    fetch?: (input: Request, init?: RequestInit) => Promise<Response>;
}

/**
 * Options of `uploadDocument`. Uploads have no timeout unless `timeoutMs` is given.
 */
export interface UploadOptions {
    /**
     * Aborts the upload; it then rejects with kind `aborted`.
     */
    signal?: AbortSignal;
    /**
     * Timeout of this upload in milliseconds (default: none).
     */
    timeoutMs?: number;
    /**
     * Called as bytes go out; the last call has `loaded === total`.
     */
    onProgress?: (progress: UploadProgress) => void;
    /**
     * Told about this call's events, besides the client's `onEvent`.
     */
    onEvent?: (event: ClientEvent) => void;
}

/**
 * Options of the messages query: the fields selected, paging and sorting, and the call's options.
 */
export interface MessagesOptions {
    /**
     * `Message` fields to select; default: all of them except `user`.
     */
    fields?: readonly MessageField[];
    /**
     * `User` fields to select; `user` is selected only when this is given.
     */
    userFields?: readonly string[];
    /**
     * Paging.
     */
    paging?: GraphPaging;
    /**
     * Sorting.
     */
    sort?: GraphSorting;
    /**
     * Aborts the call; it then rejects with kind `aborted`.
     */
    signal?: AbortSignal;
    /**
     * Timeout of this call in milliseconds (0 = none); it then rejects with kind `timeout`.
     */
    timeoutMs?: number;
    /**
     * Told about this call's events, besides the client's `onEvent`.
     */
    onEvent?: (event: ClientEvent) => void;
}

/**
 * Paging of the messages query (`GraphPaging`).
 */
export interface GraphPaging {
    /**
     * Number of messages to skip.
     */
    skip?: number;
    /**
     * Number of messages to return.
     */
    take?: number;
}

/**
 * Retry policy: full-jitter exponential backoff, honouring `Retry-After` and `X-RateLimit-Reset`.
 */
export interface RetryOptions {
    /**
     * Retries after the first attempt (default 2; 0 disables retries).
     */
    maxRetries?: number;
    /**
     * Backoff base in milliseconds (default 300).
     */
    baseDelayMs?: number;
    /**
     * Longest single wait in milliseconds (default 20000).
     */
    maxDelayMs?: number;
}

/**
 * Sort direction of `GraphSorting`.
 */
export type SortDirection = "ASC" | "DESC";

/**
 * Sorting of the messages query (`GraphSorting`).
 */
export interface GraphSorting {
    /**
     * A `Message` field name, e.g. `id`.
     */
    fieldName: string;
    /**
     * `ASC` or `DESC`.
     */
    direction?: SortDirection;
}

/**
 * The client method a call was made through (`ClientEvent.operation`).
 */
export type Operation = "listMessages" | "uploadDocument" | "listDocuments" | "getDocument" | "deleteDocument" | "listWebhooks" | "registerWebhook" | "ensureWebhook" | "deleteWebhook";

/**
 * The last argument of every method.
 */
export interface CallOptions {
    /**
     * Aborts the call; it then rejects with kind `aborted`.
     */
    signal?: AbortSignal;
    /**
     * Timeout of this call in milliseconds (0 = none); it then rejects with kind `timeout`.
     */
    timeoutMs?: number;
    /**
     * Told about this call's events, besides the client's `onEvent`.
     */
    onEvent?: (event: ClientEvent) => void;
}

/**
 * The service's rate-limit figures, when its `X-RateLimit-*` headers are readable.
 */
export interface RateLimitInfo {
    /**
     * Requests allowed per window (`X-RateLimit-Limit`).
     */
    perWindow: number;
    /**
     * Requests left in this window (`X-RateLimit-Remaining`).
     */
    remaining: number;
    /**
     * Milliseconds until the window resets (`X-RateLimit-Reset`, which gives seconds).
     */
    resetMs: number;
}

/**
 * What `onEvent` is told, for every attempt of every call; `callId` ties a call's events
 * together. Events carry no body, no header but `X-Request-Id` and `X-RateLimit-*`, and never
 * the token.
 */
export type ClientEvent = { type: "request"; operation: Operation; method: HttpMethod; path: string; attempt: number; callId: number } | { type: "response"; operation: Operation; method: HttpMethod; path: string; attempt: number; callId: number; status: number; durationMs: number; requestId?: string; rateLimit?: RateLimitInfo } | { type: "retry"; operation: Operation; attempt: number; callId: number; delayMs: number; kind: ApiErrorKind; status?: number } | { type: "error"; operation: Operation; callId: number; kind: ApiErrorKind; status?: number; attempts: number; durationMs: number } | { type: "store"; operation: Operation; callId: number; purpose: StorePurpose; reason: StoreFailure } | { type: "token"; operation: Operation; callId: number; reason: TokenReason } | { type: "rateWait"; operation: Operation; callId: number; delayMs: number } | { type: "done"; operation: Operation; callId: number; attempts: number; durationMs: number };

/**
 * What `onRetry` is told before a retry.
 */
export interface RetryEvent {
    /**
     * What the call is doing, e.g. `list webhooks`.
     */
    operation: string;
    /**
     * The attempt that failed (1 for the first).
     */
    attempt: number;
    /**
     * How long the client waits before the next attempt.
     */
    delayMs: number;
    /**
     * Why: the failed attempt's error kind.
     */
    kind: ApiErrorKind;
    /**
     * HTTP status of the failed attempt, when there was one.
     */
    status?: number;
}

/**
 * What went wrong, in `ApiError.kind`.
 */
export type ApiErrorKind = "invalid_input" | "unauthorized" | "forbidden" | "not_found" | "rate_limited" | "http" | "graphql" | "network" | "timeout" | "aborted" | "decode" | "freed" | "caller_error" | "token_source";

/**
 * Which conversation to read: give at least one of `candidateId`, `contactId`, `listingId`.
 */
export interface MessageFilter {
    /**
     * Messages of this candidate.
     */
    candidateId?: string;
    /**
     * Messages of this contact.
     */
    contactId?: string;
    /**
     * Messages about this listing.
     */
    listingId?: string;
    /**
     * Undocumented filter the vendor's examples use; not enough on its own.
     */
    externalContactId?: string;
}

/**
 * Who sent a message (GraphQL enum `MESSAGE_SENT_BY`).
 */
export type MessageSentBy = "ADMIN" | "CANDIDATE";

/**
 * Why `getToken` is asked for a token.
 */
export type TokenReason = "initial" | "unauthorized" | "expiring";

// Generated by `cargo run -q -p estatekit-core --bin error-model` from core/src/error.rs (the kinds, ERROR_FIELDS and the retryable rule): do not edit; `make generate` writes it and `make test` fails when it is stale.

/** What every `ApiError` has, whatever its kind. */
export interface ApiErrorBase extends Error {
    readonly name: "ApiError";
    /** What went wrong: narrows the error to the fields its kind always has. */
    kind: ApiErrorKind;
    /** The HTTP status, on the kinds that come with an answer (0 for a redirect, which is never followed and whose status a browser hides). */
    status?: number;
    /** The service's error `code`, when an answer's body had one. */
    code?: string;
    /** The answer's `X-Request-Id` (for a support ticket), when an answer came with one. */
    requestId?: string;
    /** How long the service asked to wait before trying again (the `Retry-After` of a 429 or a 503), in milliseconds. */
    retryAfterMs?: number;
    /** How many requests the call made. */
    attempts: number;
    /** Whether a later identical call may succeed and is safe to make: a read or a delete is retryable after a network failure, a timeout or an HTTP 408, 429, 500, 502, 503 or 504, an upload or a registration only after an HTTP 429 or 503 (the service did not act) or a network failure that proves nothing was sent (a refused connection or an unknown host, as Node reports them); estatekit itself sends the request again after each of these but a timeout (which ends the call). When `attempts` is over 1, estatekit already retried it. */
    retryable: boolean;
    /** The parsed error body (or a text excerpt); for `graphql`, the GraphQL `errors`. */
    details?: unknown;
    /** Partial GraphQL `data` that came with `errors`. */
    data?: unknown;
    /** What failed underneath, as it was thrown: a failed `fetch`'s `TypeError`, an abort's reason, what a callback threw. */
    cause?: unknown;
    /** The error as plain data (`JSON.stringify` writes it); `ApiError.fromJSON` makes an `ApiError` of it again. */
    toJSON(): ApiErrorJSON;
}

/** The kinds of an `ApiError` that always come with an answer of the service (`status` set). */
export type AnsweredKind = "unauthorized" | "forbidden" | "not_found" | "rate_limited" | "http" | "graphql" | "decode";

/** An `ApiError` of a kind that comes with an answer: `status` is always there. */
export interface AnsweredApiError<K extends AnsweredKind = AnsweredKind> extends ApiErrorBase {
    kind: K;
    /** The answer's HTTP status (0 for a redirect, which is never followed and whose status a browser hides). */
    status: number;
}

/** HTTP 429: `retryAfterMs` when the service said how long to wait. */
export interface RateLimitedApiError extends AnsweredApiError<"rate_limited"> {}

/** The GraphQL answer carried `errors` (in `details`), maybe with partial `data`. */
export interface GraphqlApiError extends AnsweredApiError<"graphql"> {
    /** The GraphQL `errors` array, as sent (the token hidden). */
    details: unknown;
}

/** An `ApiError` of a kind that comes without an answer: no `status`. */
export interface UnansweredApiError<K extends Exclude<ApiErrorKind, AnsweredKind> = Exclude<ApiErrorKind, AnsweredKind>> extends ApiErrorBase {
    kind: K;
    status?: undefined;
}

/**
 * Every failure of a call: a real `Error` (with a stack) of the class `ApiError`, discriminated
 * by `kind` (`if (e.kind === "not_found") e.status` is a `number`).
 */
export type ApiError =
| AnsweredApiError<"unauthorized" | "forbidden" | "not_found" | "http" | "decode">
| RateLimitedApiError
| GraphqlApiError
| UnansweredApiError;

/** One cause of an `ApiError` as `toJSON` gives it: an error's `name`, `message`, `code` and its own `cause` (anything else: its text as `message`). */
export interface ApiErrorCauseJSON {
    name?: string;
    message: string;
    /** A platform's code, e.g. `ECONNREFUSED`, `ENOTFOUND`, `UND_ERR_CONNECT_TIMEOUT`. */
    code?: string | number;
    cause?: ApiErrorCauseJSON;
}

/** What `ApiError#toJSON` gives: plain data, `cause` as its chain of causes. */
export interface ApiErrorJSON {
    name: "ApiError";
    message: string;
    kind: ApiErrorKind;
    status?: number;
    code?: string;
    requestId?: string;
    retryAfterMs?: number;
    attempts: number;
    retryable: boolean;
    details?: unknown;
    data?: unknown;
    cause?: ApiErrorCauseJSON;
}

/** What `new ApiError(...)` takes: `kind`, and `status` for a kind that comes with an answer. */
export type ApiErrorInit<K extends ApiErrorKind = ApiErrorKind> = {
    kind: K;
    /** Default: `estatekit: <kind>`. */
    message?: string;
    code?: string;
    requestId?: string;
    retryAfterMs?: number;
    /** Default 0. */
    attempts?: number;
    /** Default: what the client would report for a read with this `kind` and `status`. */
    retryable?: boolean;
    details?: unknown;
    data?: unknown;
    cause?: unknown;
} & (K extends AnsweredKind ? { status: number } : { status?: undefined });



/**
 * A client for one account of the service.
 */
export class Client {
    free(): void;
    [Symbol.dispose](): void;
    /**
     * Deletes a document.
     */
    deleteDocument(documentId: string, options?: CallOptions | null): Promise<void>;
    /**
     * Deletes a webhook.
     */
    deleteWebhook(webhookId: string, options?: CallOptions | null): Promise<void>;
    /**
     * Returns the id of a webhook with this type and URL, registering one only if none exists.
     * With `options.store` (servers), one registration among every process sharing the store.
     */
    ensureWebhook(input: RegisterWebhookInput, options?: EnsureWebhookOptions | null): Promise<string>;
    /**
     * Reads one document's metadata.
     */
    getDocument(documentId: string, options?: CallOptions | null): Promise<DocumentRecord>;
    /**
     * Lists documents' metadata, filtered.
     */
    listDocuments(query?: ListDocumentsQuery | null, options?: CallOptions | null): Promise<DocumentRecord[]>;
    /**
     * Lists the messages of a conversation (GraphQL `messages`): one page, as `paging` says.
     */
    listMessages(filter: MessageFilter, options?: MessagesOptions | null): Promise<(Message | null)[]>;
    /**
     * Lists the registered webhooks.
     */
    listWebhooks(options?: CallOptions | null): Promise<Webhook[]>;
    /**
     * Creates a client for one account; nothing is sent until a method is called. (The
     * package's `Client` never throws: invalid options make every call reject with an
     * `ApiError` of kind `invalid_input`.)
     */
    constructor(options: ClientOptions);
    /**
     * Registers a webhook; resolves with its id. Sent again only after a 429 or a 503 (the
     * service did not act).
     */
    registerWebhook(input: RegisterWebhookInput, options?: CallOptions | null): Promise<string>;
    /**
     * Uploads a file (sent by the browser's `FormData`) with its metadata.
     */
    uploadDocument(input: UploadDocumentInput, options?: UploadOptions | null): Promise<DocumentRecord>;
    /**
     * The base URL the client talks to (normalised, without trailing slash).
     */
    readonly baseUrl: string;
}

export type InitInput = RequestInfo | URL | Response | BufferSource | WebAssembly.Module;


export type SyncInitInput = BufferSource | WebAssembly.Module;

/**
 * Instantiates the given `module`, which can either be bytes or
 * a precompiled `WebAssembly.Module`.
 *
 * @param {{ module: SyncInitInput }} module - Passing `SyncInitInput` directly is deprecated.
 *
 * @returns {InitOutput}
 */
export function initSync(module: { module: SyncInitInput } | SyncInitInput): InitOutput;

/**
 * If `module_or_path` is {RequestInfo} or {URL}, makes a request and
 * for everything else, calls `WebAssembly.instantiate` directly.
 *
 * @param {{ module_or_path: InitInput | Promise<InitInput> }} module_or_path - Passing `InitInput` directly is deprecated.
 *
 * @returns {Promise<InitOutput>}
 */
export default function __wbg_init (module_or_path?: { module_or_path: InitInput | Promise<InitInput> } | InitInput | Promise<InitInput>): Promise<InitOutput>;
