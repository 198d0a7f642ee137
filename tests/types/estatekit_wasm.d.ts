/* tslint:disable */
/* eslint-disable */
/** An event type a webhook can subscribe to (section 6 of the interface). */
export type EventType =
| "LISTING_CREATED"
| "LISTING_UPDATED"
| "LISTING_ARCHIVED"
| "LISTING_ACTIVATED"
| "LISTING_DEACTIVATED"
| "LISTING_PUBLISHED_TO_CHANNEL"
| "LISTING_UNPUBLISHED_FROM_CHANNEL"
| "CANDIDATE_PARSED"
| "LISTING_CANDIDATE_APPLIED"
| "LISTING_CANDIDATE_SCHEDULE_INVITED_VIEWING"
| "LISTING_CANDIDATE_SCHEDULE_NEW_TIMESLOTS_REQUESTED"
| "LISTING_CANDIDATE_SCHEDULE_TIMESLOT_BOOKED_ADMIN"
| "LISTING_CANDIDATE_SCHEDULE_TIMESLOT_BOOKED_CANDIDATE"
| "LISTING_CANDIDATE_SCHEDULE_TIMESLOT_BOOKING_REMOVED_ADMIN"
| "LISTING_CANDIDATE_SCHEDULE_TIMESLOT_BOOKING_REMOVED_CANDIDATE"
| "LISTING_CONTRACT_FLOW_STARTED"
| "LISTING_CONTRACT_FLOW_WITHDRAWN"
| "LISTING_CONTRACT_FLOW_PARTIALLY_SIGNED"
| "LISTING_CONTRACT_FLOW_SIGNED"
| "OWNER_CREATED"
| "OWNER_UPDATED"
| "OWNER_DELETED"
| "PROPERTY_CREATED"
| "PROPERTY_UPDATED"
| "PROPERTY_DELETED"
| "UNIT_CREATED"
| "UNIT_UPDATED"
| "UNIT_DELETED";

/** A document type (DOCUMENT_TYPES of the interface). `PRE-MOVE_IN` is a literal value. */
export type DocumentType =
| "DOCUMENT"
| "RENTAL_APPLICATION"
| "CONTRACT"
| "MOVE_IN"
| "MOVE_OUT"
| "PRE-MOVE_IN"
| "SELLING";

/** Who sent a message (GraphQL enum `MESSAGE_SENT_BY`). */
export type MessageSentBy = "ADMIN" | "CANDIDATE";

/** Image format an upload can be converted to. */
export type ImageFormat = "JPEG" | "PNG";

/** A `Message` field selectable with `MessagesOptions.fields` (`user` goes through `userFields`). */
export type MessageField =
| "id"
| "candidateId"
| "sentBy"
| "userId"
| "text"
| "replyToMessageId"
| "isRead"
| "attachments";

/** Sort direction of `GraphSorting`. */
export type SortDirection = "ASC" | "DESC";

/** What went wrong, in `ApiError.kind`. */
export type ApiErrorKind =
| "invalid_input"
| "unauthorized"
| "forbidden"
| "not_found"
| "rate_limited"
| "http"
| "graphql"
| "network"
| "timeout"
| "aborted"
| "decode";

/** Why `getToken` is asked for a token. */
export type TokenReason = "initial" | "unauthorized";

/** Options of `new Client(...)`. Give `token` or `getToken`, not both. */
export interface ClientOptions {
    /** The account's base URL, e.g. `https://acme.example.com` (https, except for loopback hosts). */
    baseUrl: string;
    /** A bearer access token. */
    token?: string;
    /** Returns a fresh access token; called once at first use and again after a 401. */
    getToken?: (reason: TokenReason) => string | Promise<string>;
    /** Timeout of every call except uploads, in milliseconds (default 30000; 0 = none). */
    timeoutMs?: number;
    /** Automatic retries of safe requests (reads, deletes, the messages query). */
    retry?: RetryOptions;
    /** Opt-in client-side rate limiting: requests queue instead of hitting 429. */
    rateLimit?: RateLimitOptions;
    /** Called before each automatic retry, e.g. for logging. */
    onRetry?: (event: RetryEvent) => void;
}

/** Retry policy: full-jitter exponential backoff, honouring `Retry-After` and `X-RateLimit-Reset`. */
export interface RetryOptions {
    /** Retries after the first attempt (default 2; 0 disables retries). */
    limit?: number;
    /** Backoff base in milliseconds (default 300). */
    baseDelayMs?: number;
    /** Longest single wait in milliseconds (default 20000). */
    maxDelayMs?: number;
}

/** Client-side rate limit. */
export interface RateLimitOptions {
    /** Requests allowed per minute (the service allows 300). */
    perMinute: number;
}

/** What `onRetry` is told before a retry. */
export interface RetryEvent {
    /** What the call is doing, e.g. `list webhooks`. */
    operation: string;
    /** The attempt that failed (1 for the first). */
    attempt: number;
    /** How long the client waits before the next attempt. */
    delayMs: number;
    /** Why: the failed attempt's error kind. */
    kind: ApiErrorKind;
    /** HTTP status of the failed attempt, when there was one. */
    status?: number;
}

/** The last argument of every method. */
export interface CallOptions {
    /** Aborts the call; it then rejects with kind `aborted`. */
    signal?: AbortSignal;
    /** Timeout of this call in milliseconds (0 = none); it then rejects with kind `timeout`. */
    timeoutMs?: number;
}

/** Which conversation to read: give at least one of `candidateId`, `contactId`, `listingId`. */
export interface MessageFilter {
    candidateId?: string;
    contactId?: string;
    listingId?: string;
    /** Undocumented filter the vendor's examples use; not enough on its own. */
    externalContactId?: string;
}

/** Paging of the messages query (`GraphPaging`). */
export interface GraphPaging {
    skip?: number;
    take?: number;
}

/** Sorting of the messages query (`GraphSorting`). */
export interface GraphSorting {
    fieldName: string;
    direction?: SortDirection;
}

/** Options of `messages`. */
export interface MessagesOptions extends CallOptions {
    /** `Message` fields to select; default: all of them except `user`. */
    fields?: MessageField[];
    /** `User` fields to select; `user` is selected only when this is given. */
    userFields?: string[];
    paging?: GraphPaging;
    sort?: GraphSorting;
}

/** The sending user of a message (its fields are not documented). */
export interface User {
    id?: string | null;
    [field: string]: unknown;
}

/** A file attached to a message. */
export interface MessageAttachment {
    id?: string | null;
    name?: string | null;
    resourcePath?: string | null;
    type?: string | null;
    /** Size in bytes. */
    size?: number | null;
}

/** A message (all fields nullable; only selected fields are present). */
export interface Message {
    id?: string | null;
    candidateId?: string | null;
    /** `ADMIN` or `CANDIDATE`; values added later by the service are passed through. */
    sentBy?: MessageSentBy | (string & {}) | null;
    userId?: string | null;
    text?: string | null;
    user?: User | null;
    replyToMessageId?: string | null;
    isRead?: boolean | null;
    attachments?: (MessageAttachment | null)[] | null;
}

/** Metadata sent with an upload: links the document to other objects. */
export interface DocumentMetadata {
    /** Default `DOCUMENT`. */
    type?: DocumentType;
    tenantId?: string;
    unitId?: string;
    propertyId?: string;
    propertyGroupId?: string;
}

/** Input of `uploadDocument`. */
export interface UploadDocumentInput {
    /** The content; sent by the browser, never copied into WebAssembly memory. */
    file: Blob;
    /** Virtual folder, e.g. `tenants/<tenant_id>` or `properties/<property_id>`. */
    resourcePath: string;
    metadata?: DocumentMetadata;
    /** Forces another file name (it comes back as `title`). */
    name?: string;
    /** Converts an image to this format. */
    format?: ImageFormat;
}

/** Bytes of an upload sent so far. */
export interface UploadProgress {
    loaded: number;
    total: number;
}

/** Options of `uploadDocument`. Uploads have no timeout unless `timeoutMs` is given. */
export interface UploadOptions extends CallOptions {
    /** Called as bytes go out; the last call has `loaded === total`. */
    onProgress?: (progress: UploadProgress) => void;
}

/** Filters of `listDocuments`. */
export interface ListDocumentsQuery {
    unitId?: string;
    propertyId?: string;
    propertyGroupId?: string;
    candidateId?: string;
    tenantId?: string;
    types?: DocumentType[];
    /** Title filter. */
    title?: string;
    skip?: number;
    take?: number;
}

/** A stored document's metadata. Every field the service sends is kept. */
export interface DocumentRecord {
    id: string;
    /** `<subdomain>/<companyId>/<given resourcePath>/<id>`. */
    resourcePath?: string | null;
    title?: string | null;
    companyId?: string | null;
    /** A `DocumentType`; values added later by the service are passed through. */
    type?: DocumentType | (string & {}) | null;
    tenantId?: string | null;
    unitId?: string | null;
    propertyId?: string | null;
    propertyGroupId?: string | null;
    [field: string]: unknown;
}

/** Input of `registerWebhook`. */
export interface RegisterWebhookInput {
    type: EventType;
    /** Absolute http(s) URL that receives the notifications. */
    url: string;
}

/** A registered webhook (section 2.5). Every field the service sends is kept. */
export interface Webhook {
    id: string;
    /** An `EventType`; values added later by the service are passed through. */
    type: EventType | (string & {});
    url: string;
    partnerId?: string;
    companyId?: string;
    connectedByUserId?: string;
    createdAt?: string;
    updatedAt?: string;
    deletedAt?: string | null;
    [field: string]: unknown;
}

/** Every failure of a call: a real `Error` with a stack. */
export interface ApiError extends Error {
    name: "ApiError";
    kind: ApiErrorKind;
    /** HTTP status, when the service answered. */
    status?: number;
    /** The service's error `code`, when its body had one. */
    code?: string;
    /** The parsed error body, the GraphQL `errors`, or a text excerpt. */
    details?: unknown;
    /** Partial GraphQL `data` that came with `errors`. */
    data?: unknown;
    /** How long the service asked to wait before trying again (kind `rate_limited`). */
    retryAfterMs?: number;
    /** How many requests the call made. */
    attempts: number;
}



/**
 * A client for one account of the service.
 */
export class Client {
    free(): void;
    [Symbol.dispose](): void;
    /**
     * Deletes a document.
     */
    deleteDocument(documentId: string, options?: CallOptions): Promise<void>;
    /**
     * Deletes a webhook.
     */
    deleteWebhook(id: string, options?: CallOptions): Promise<void>;
    /**
     * Returns the id of a webhook with this type and URL, registering one only if none exists.
     */
    ensureWebhook(input: RegisterWebhookInput, options?: CallOptions): Promise<string>;
    /**
     * Reads one document's metadata.
     */
    getDocument(documentId: string, options?: CallOptions): Promise<DocumentRecord>;
    /**
     * Lists documents' metadata, filtered.
     */
    listDocuments(query?: ListDocumentsQuery, options?: CallOptions): Promise<DocumentRecord[]>;
    /**
     * Lists the registered webhooks.
     */
    listWebhooks(options?: CallOptions): Promise<Webhook[]>;
    /**
     * Reads the messages of a conversation (GraphQL `messages`).
     */
    messages(filter: MessageFilter, options?: MessagesOptions): Promise<Message[]>;
    /**
     * Creates a client for one account; nothing is sent until a method is called. Invalid
     * options throw an `ApiError` (kind `invalid_input`) once the module is initialised;
     * before that, the first method call rejects with it.
     */
    constructor(options: ClientOptions);
    /**
     * Registers a webhook; resolves with its id. Never retried automatically.
     */
    registerWebhook(input: RegisterWebhookInput, options?: CallOptions): Promise<string>;
    /**
     * Uploads a file (sent by the browser's `FormData`) with its metadata.
     */
    uploadDocument(input: UploadDocumentInput, options?: UploadOptions): Promise<DocumentRecord>;
    /**
     * The base URL the client talks to (normalised, without trailing slash).
     */
    readonly baseUrl: string;
}

/**
 * Whether `e` is an error thrown by estatekit (a type guard in TypeScript).
 */
export function isApiError(e: unknown): e is ApiError;

export type InitInput = RequestInfo | URL | Response | BufferSource | WebAssembly.Module;

export interface InitOutput {
    readonly memory: WebAssembly.Memory;
    readonly __wbg_client_free: (a: number, b: number) => void;
    readonly client_baseUrl: (a: number) => [number, number];
    readonly client_deleteDocument: (a: number, b: any, c: any) => any;
    readonly client_deleteWebhook: (a: number, b: any, c: any) => any;
    readonly client_ensureWebhook: (a: number, b: any, c: any) => any;
    readonly client_getDocument: (a: number, b: any, c: any) => any;
    readonly client_listDocuments: (a: number, b: any, c: any) => any;
    readonly client_listWebhooks: (a: number, b: any) => any;
    readonly client_messages: (a: number, b: any, c: any) => any;
    readonly client_new: (a: any) => [number, number, number];
    readonly client_registerWebhook: (a: number, b: any, c: any) => any;
    readonly client_uploadDocument: (a: number, b: any, c: any) => any;
    readonly isApiError: (a: any) => number;
    readonly wasm_bindgen__convert__closures_____invoke__h5e84aab8614c9381: (a: number, b: number, c: any) => [number, number];
    readonly wasm_bindgen__convert__closures_____invoke__hb7bae8d1ceda1975: (a: number, b: number, c: any, d: any) => void;
    readonly wasm_bindgen__convert__closures_____invoke__h95eccca9dbd4b36a: (a: number, b: number, c: any) => void;
    readonly wasm_bindgen__convert__closures_____invoke__h7011a1878b96c74f: (a: number, b: number) => void;
    readonly __wbindgen_malloc: (a: number, b: number) => number;
    readonly __wbindgen_realloc: (a: number, b: number, c: number, d: number) => number;
    readonly __wbindgen_free: (a: number, b: number, c: number) => void;
    readonly __wbindgen_exn_store: (a: number) => void;
    readonly __externref_table_alloc: () => number;
    readonly __wbindgen_externrefs: WebAssembly.Table;
    readonly __wbindgen_destroy_closure: (a: number, b: number) => void;
    readonly __externref_table_dealloc: (a: number) => void;
    readonly __wbindgen_start: () => void;
}

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
