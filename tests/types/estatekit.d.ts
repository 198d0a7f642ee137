// The declarations of estatekit.js: what the wrapper adds to wasm-bindgen's module. Every type
// that comes from Rust (ClientOptions, Message, Webhook, ApiError, EventType, ...) is declared once,
// by wasm-bindgen, in ./estatekit_wasm.d.ts, and re-exported from there unchanged.
import type {
    ApiError as WasmApiError,
    CallOptions,
    Client as WasmClient,
    ClientOptions,
    DocumentRecord,
    DocumentType,
    EventType,
    InitInput,
    ListDocumentsQuery,
    Message,
    MessageField,
    MessageFilter,
    MessagesOptions,
    SyncInitInput,
} from "./estatekit_wasm.js";

export * from "./estatekit_wasm.js";

/**
 * What `init` and `initSync` give: the module's memory. (wasm-bindgen's own `InitOutput` also
 * lists the module's raw exports, which are internal.)
 */

/**
 * Loads and instantiates the WebAssembly module. Optional: the first method call does it. Give
 * `{ module_or_path }` (a URL, Response, bytes or WebAssembly.Module) when the .wasm file is
 * hosted elsewhere, and call it before the first method call; later calls are no-ops.
 */
export default function init(
    module_or_path?: { module_or_path: InitInput | Promise<InitInput> } | InitInput | Promise<InitInput>,
): Promise<InitOutput>;

/** Instantiates the module synchronously from bytes or a WebAssembly.Module (`{ module }`). */
export function initSync(module: { module: SyncInitInput } | SyncInitInput): InitOutput;

/** Every event type a webhook can subscribe to, in the interface's order. */
export declare const EVENT_TYPES: readonly EventType[];
/** Every document type, in the interface's order. */
export declare const DOCUMENT_TYPES: readonly DocumentType[];
/** Whether `value` is an event type (a type guard: a `<select>`'s value, a query parameter). */
export function isEventType(value: unknown): value is EventType;
/** Whether `value` is a document type (a type guard). */
export function isDocumentType(value: unknown): value is DocumentType;

/**
 * A message with exactly the fields `F` selected (each still optional and nullable, as the
 * interface says), and `user` with the fields `U` when `userFields` is given.
 */
export type SelectedMessage<
    F extends readonly MessageField[] = readonly MessageField[],
    U extends readonly string[] | undefined = undefined,
> = Pick<Message, F[number]> & (U extends readonly string[] ? { user?: { [K in U[number]]?: unknown } | null } : {});

/** Options of `messages` whose `fields` and `userFields` type the messages it gives. */
export interface SelectingMessagesOptions<F extends readonly MessageField[], U extends readonly string[] | undefined>
    extends Omit<MessagesOptions, "fields" | "userFields"> {
    /** `Message` fields to select; default: all of them except `user`. */
    fields?: F;
    /** `User` fields to select; `user` is selected only when this is given. */
    userFields?: U;
}

/** Every failure of a call: a real `Error` (with a stack) named `ApiError`. */
export type ApiError = WasmApiError;
/**
 * `e instanceof ApiError` is `isApiError(e)`: true for every estatekit error, whichever entry
 * (`estatekit`, `estatekit/auth`, `estatekit/testing`), module copy or realm made it. Not a
 * constructor: estatekit makes its errors.
 */
export declare const ApiError: {
    /** Whether `value` is an error thrown by estatekit. */
    [Symbol.hasInstance](value: unknown): value is ApiError;
};

/** Whether `e` is an error thrown by estatekit (a type guard in TypeScript). */
export function isApiError(e: unknown): e is ApiError;

/** How `documents` and `messagesAll` page through results. */
export interface PageOptions {
    /** Items asked for per request (`take`), a positive integer; default 100. A shorter page ends the iteration. */
    pageSize?: number;
    /** Stops after this many items in all (a non-negative integer); default: no limit. */
    limit?: number;
}

/** Filters of `documents`: those of `listDocuments` except `skip` and `take`, which the iterator sets. */
export type DocumentsQuery = Omit<ListDocumentsQuery, "skip" | "take">;

/** Options of `documents`: paging, and the call options every page's request gets. */
export interface DocumentsOptions extends PageOptions, CallOptions {}

/** Options of `messagesAll`: paging, and the options of `messages` except `paging`, which the iterator sets. */
export interface MessagesAllOptions extends PageOptions, Omit<MessagesOptions, "paging"> {}

/** Options of `messagesAll` whose `fields` and `userFields` type the messages it gives. */
export interface SelectingMessagesAllOptions<F extends readonly MessageField[], U extends readonly string[] | undefined>
    extends PageOptions, Omit<SelectingMessagesOptions<F, U>, "paging"> {}

/**
 * A client for one account of the service: every member of the Rust `Client` (see
 * `estatekit_wasm.d.ts`), forwarded, plus the iterators below. Nothing is loaded before the first
 * method call, which initialises the module; `baseUrl` is readable at once.
 */
export declare class Client {
    /**
     * Creates a client; nothing is sent until a method is called. Never throws: invalid options
     * make every call reject with an `ApiError` (kind `invalid_input`), and `baseUrl` throw it,
     * whether the module was loaded before or not.
     */
    constructor(options: ClientOptions);
    /**
     * The base URL the client talks to (normalised, without trailing slash). Readable at once;
     * throws the options' `ApiError` (`invalid_input`) when it is not an absolute http(s) URL.
     */
    readonly baseUrl: string;
    /**
     * Frees the WebAssembly memory of this client; its calls then reject with an `ApiError` of
     * kind `freed`. A client that lives as long as the app (module scope, a provider) is never freed.
     */
    free(): void;
    /** The same as `free()` (`using client = new Client(...)`). */
    [Symbol.dispose](): void;
    /**
     * Every document matching `query`, fetched page by page with `listDocuments` (`skip`/`take`)
     * as the loop asks for them. Returns at once; nothing is sent before the first `next()`.
     * Concurrent `next()` calls are queued, never raced. A failed page rejects that `next()`
     * with its `ApiError` and ends the iteration.
     */
    documents(query?: DocumentsQuery, options?: DocumentsOptions): AsyncGenerator<DocumentRecord, void, undefined>;
    /**
     * Every message of a conversation, fetched page by page with `messages` (`paging.skip`/`take`)
     * as the loop asks for them. Returns at once; nothing is sent before the first `next()`.
     * Concurrent `next()` calls are queued, never raced. A failed page rejects that `next()`
     * with its `ApiError` and ends the iteration.
     */
    messagesAll<
        const F extends readonly MessageField[] = readonly MessageField[],
        const U extends readonly string[] | undefined = undefined,
    >(
        filter: MessageFilter,
        options?: SelectingMessagesAllOptions<F, U>,
    ): AsyncGenerator<SelectedMessage<F, U> | null, void, undefined>;
    /**
     * Reads the messages of a conversation (GraphQL `messages`). With `fields: ["id", "text"]`
     * (a literal array, or `as const`), each message has exactly those fields.
     */
    messages<
        const F extends readonly MessageField[] = readonly MessageField[],
        const U extends readonly string[] | undefined = undefined,
    >(filter: MessageFilter, options?: SelectingMessagesOptions<F, U> | null): Promise<(SelectedMessage<F, U> | null)[]>;
}
/** The members of the Rust `Client`, which the wrapper forwards (`messages` typed above). */
export interface Client extends Omit<WasmClient, "messages"> {}
