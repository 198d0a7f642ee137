// The declarations of estatekit.js: what the wrapper adds to wasm-bindgen's module. Every type
// that comes from Rust (ClientOptions, Message, Webhook, ApiError, EventType, ...) is declared once,
// by wasm-bindgen, in ./estatekit_wasm.d.ts, and re-exported from there unchanged, but for two
// narrowed below so that tsc refuses what the client refuses (ClientOptions, MessageFilter).
import type {
    ApiError as ApiErrorUnion,
    ApiErrorInit,
    ApiErrorKind,
    CallOptions,
    Client as WasmClient,
    ClientOptions as ClientOptionsFields,
    DocumentRecord,
    DocumentType,
    EventType,
    InitInput,
    ListDocumentsQuery,
    Message,
    MessageField,
    MessageFilter as MessageFilterFields,
    MessagesOptions,
    SyncInitInput,
} from "./estatekit_wasm.js";

export * from "./estatekit_wasm.js";
/** Every option of `new Client(...)`, as the module reads them (`ClientOptions` narrows the token's two). */
export type { ClientOptionsFields, MessageFilterFields };

/**
 * Options of `new Client(...)`: `baseUrl`, and the token as `token` or `getToken`, exactly one of
 * them (`tsc` refuses both, and neither; so does the client when it runs).
 */
export type ClientOptions = ClientOptionsFields &
    (
        | { token: string; getToken?: undefined }
        | { getToken: NonNullable<ClientOptionsFields["getToken"]>; token?: undefined }
    );

/**
 * Which conversation to read: at least one of `candidateId`, `contactId`, `listingId` (`tsc`
 * refuses an empty filter `{}`, and one with `externalContactId` only; so does the client when it
 * runs, before sending anything).
 */
export type MessageFilter = MessageFilterFields &
    ({ candidateId: string } | { contactId: string } | { listingId: string });

declare global {
    interface SymbolConstructor {
        /** `Symbol.dispose` (ES2026 explicit resource management; declared for older `lib` settings). */
        readonly dispose: unique symbol;
    }
}

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

/** Options of `listMessages` whose `fields` and `userFields` type the messages it gives. */
export interface SelectingMessagesOptions<F extends readonly MessageField[], U extends readonly string[] | undefined>
    extends Omit<MessagesOptions, "fields" | "userFields"> {
    /** `Message` fields to select; default: all of them except `user`. */
    fields?: F;
    /** `User` fields to select; `user` is selected only when this is given. */
    userFields?: U;
}

/** Every failure of a call: see `ApiErrorUnion`'s kinds in `estatekit_wasm.d.ts`. */
export type ApiError = ApiErrorUnion;

/** The `ApiError` of kind `K`, with the fields that kind always has. */
export type ApiErrorOf<K extends ApiErrorKind> = ApiError extends infer E
    ? E extends { kind: infer EK }
        ? K extends EK
            ? E & { kind: K }
            : never
        : never
    : never;

/** The `ApiError` class: constructible (test doubles), `instanceof` across module copies and realms. */
export interface ApiErrorConstructor {
    /** Makes an `ApiError`, e.g. `new ApiError({ kind: "not_found", status: 404, message: "no such document" })`. */
    new <K extends ApiErrorKind>(init: ApiErrorInit<K>): ApiErrorOf<K>;
    readonly prototype: ApiError;
    /** An `ApiError` again from its `toJSON()` (after JSON, a server action or `postMessage`). */
    fromJSON(json: unknown): ApiError;
    /** `e instanceof ApiError`: true for every estatekit error, whichever entry, module copy or realm made it. */
    [Symbol.hasInstance](value: unknown): value is ApiError;
}
/** Every failure of estatekit: a real class (`class ApiError extends Error`). */
export declare const ApiError: ApiErrorConstructor;

/** Whether `e` is an error thrown by estatekit (a type guard in TypeScript). */
export function isApiError(e: unknown): e is ApiError;

/** Items a list call asks for per request when iterated, unless `pageSize` says otherwise: 50. */
export declare const DEFAULT_PAGE_SIZE: 50;

/** How an iterated list call pages (`for await`): iteration options only, refused by `await`. */
export interface PageOptions {
    /** Items asked for per request (`take`), a whole number from 1; default 50. A shorter page ends the iteration. */
    pageSize?: number;
    /** Stops after this many items in all (a whole number from 0); default: no limit. */
    limit?: number;
}

/** Options of `listDocuments`: the call options, and the paging of an iteration. */
export interface ListDocumentsOptions extends PageOptions, CallOptions {}

/** Options of `listMessages`: its options, and the paging of an iteration. */
export interface ListMessagesOptions<F extends readonly MessageField[] = readonly MessageField[], U extends readonly string[] | undefined = undefined>
    extends PageOptions, SelectingMessagesOptions<F, U> {}

/**
 * What a list call returns: a `Promise` (a subclass: accepted wherever a `Promise` of the items
 * is expected) that is also async-iterable. Awaited, the one request with the query as given (sent on the first
 * `then`, shared by later ones). Iterated (`for await`), every item of every page, `pageSize` a
 * request from the query's `skip` until a short page or `limit`; each iteration pages afresh
 * and shares nothing with the awaited request. Nothing is sent before one of the two.
 * Concurrent `next()` calls are queued; a failed page rejects that `next()` and ends the iteration.
 */
export interface PagePromise<T> extends Promise<T[]>, AsyncIterable<T> {
    [Symbol.asyncIterator](): AsyncIterator<T, void, undefined>;
}

/**
 * A client for one account of the service: every member of the Rust `Client` (see
 * `estatekit_wasm.d.ts`), forwarded, plus the iterators below. Nothing is loaded before the first
 * method call, which initialises the module; `baseUrl` is readable at once.
 */
export declare class Client {
    /**
     * Creates a client; nothing is sent until a method is called. Throws an `ApiError` (kind
     * `invalid_input`) at once for a missing or wrong `baseUrl` (https; plain http only for
     * localhost, 127.0.0.0/8 and [::1]); any other invalid option makes every call reject with
     * one, whether the module was loaded before or not.
     */
    constructor(options: ClientOptions);
    /**
     * The base URL the client talks to (normalised, without trailing slash). Readable at once.
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
     * Lists documents' metadata, filtered. `await` gives one request with `query` as given;
     * `for await` gives every matching document (see `PagePromise`); a `take` in an iterated
     * query is refused (give `pageSize`).
     */
    listDocuments(query?: ListDocumentsQuery | null, options?: ListDocumentsOptions | null): PagePromise<DocumentRecord>;
    /**
     * Lists the messages of a conversation (GraphQL `messages`). `await` gives one request with
     * `paging` as given; `for await` every message from `paging.skip` (see `PagePromise`; a
     * `paging.take` is refused when iterating). With `fields: ["id", "text"]` (a literal array,
     * or `as const`), each message has exactly those fields. An item is `null` where the
     * service's answer has one: the interface declares the list's items nullable (GraphQL
     * `[Message]`), as it declares every field of a `Message`, and the answer is given as sent;
     * keep the messages with `.filter((m) => m !== null)`.
     */
    listMessages<
        const F extends readonly MessageField[] = readonly MessageField[],
        const U extends readonly string[] | undefined = undefined,
    >(filter: MessageFilter, options?: ListMessagesOptions<F, U> | null): PagePromise<SelectedMessage<F, U> | null>;
}
/** The members of the Rust `Client`, which the wrapper forwards (the list calls typed above). */
export interface Client extends Omit<WasmClient, "listMessages" | "listDocuments"> {}
