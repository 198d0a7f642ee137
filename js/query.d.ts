// The declarations of query.js (`estatekit/query`): option factories for TanStack Query v5, as
// plain objects that every adapter takes (`useQuery`, `useInfiniteQuery`, `useMutation`,
// `queryOptions`, `infiniteQueryOptions`, `mutationOptions`, `queryClient.fetchQuery`...). The
// shapes are written out structurally: nothing here imports TanStack. The factories' declarations
// and the `EstatekitKeys` interface (the block between the GENERATED markers, at the end) are
// generated from the operation table (vocab/src/operations.rs, vocab/src/query.rs) by
// `make generate`; the rest is written by hand.
import type {
    ApiError,
    CallOptions,
    Client,
    DocumentRecord,
    EnsureWebhookOptions,
    ListDocumentsQuery,
    MessageField,
    MessageFilter,
    MessagesOptions,
    RegisterWebhookInput,
    SelectedMessage,
    SelectingMessagesOptions,
    UploadDocumentInput,
    UploadOptions,
    Webhook,
} from "./estatekit.js";

/** What a `queryFn` uses of TanStack's `QueryFunctionContext`. */
export interface QueryFnContext {
    /** Aborted by TanStack when the query is cancelled or no longer observed. */
    readonly signal: AbortSignal;
}

/** What an infinite query's `queryFn` uses of TanStack's context: the page's `skip`. */
export interface PageFnContext extends QueryFnContext {
    /** How many items come before this page (`skip`). */
    readonly pageParam: number;
}

/** A key of estatekit's queries: `["estatekit", baseUrl, resource, operation, parameters?]`. */
export type EstatekitKey = readonly ["estatekit", string, ...unknown[]];

/** A query's options: key, `queryFn` (passing TanStack's `signal` on), `retry`, `retryDelay`. */
export interface EstatekitQueryOptions<T> {
    /** Stable and hierarchical: `estatekitKeys(client)` gives its prefixes. */
    queryKey: EstatekitKey;
    /** Runs the call with TanStack's `signal`. */
    queryFn: (context: QueryFnContext) => Promise<T>;
    /** The `retry` of this module. */
    retry: (failureCount: number, error: ApiError) => boolean;
    /** The `retryDelay` of this module. */
    retryDelay: (failureCount: number, error: ApiError) => number;
}

/** An infinite query's options: `skip`/`take` paging, a short page is the last. */
export interface EstatekitInfiniteQueryOptions<T> {
    /** Stable and hierarchical, with the page size. */
    queryKey: EstatekitKey;
    /** Fetches the page at `pageParam` (`skip`) with TanStack's `signal`. */
    queryFn: (context: PageFnContext) => Promise<T[]>;
    /** The first page's `skip`: 0. */
    initialPageParam: number;
    /** The next page's `skip`, or `undefined` after a page shorter than the page size. */
    getNextPageParam: (lastPage: T[], allPages: T[][], lastPageParam: number) => number | undefined;
    /** The `retry` of this module. */
    retry: (failureCount: number, error: ApiError) => boolean;
    /** The `retryDelay` of this module. */
    retryDelay: (failureCount: number, error: ApiError) => number;
}

/** The part of TanStack's `MutationFunctionContext` that the mutations use. */
export interface MutationContext {
    /** The QueryClient that runs the mutation (TanStack Query 5.80 and later pass it). */
    readonly client?: {
        /** Marks the queries under `queryKey` stale (and refetches the observed ones). */
        invalidateQueries(filters: { queryKey: readonly unknown[] }): Promise<void>;
    };
}

/**
 * A mutation's options; on success it invalidates `meta.invalidates`. Its errors are `ApiError`s:
 * `useMutation(uploadDocumentMutationOptions(client))` infers them (through `onError`'s type), so
 * `upload.error?.kind` type-checks; for every query and mutation of a project at once, register
 * `defaultError: ApiError` with TanStack's `Register` (docs/react.md).
 */
export interface EstatekitMutationOptions<TData, TVariables> {
    /** `[...estatekitKeys(client).<resource>.all, operation]`. */
    mutationKey: EstatekitKey;
    /** The call. */
    mutationFn: (variables: TVariables) => Promise<TData>;
    /** The query keys this mutation makes stale (its `onSuccess` invalidates them). */
    meta: { invalidates: readonly EstatekitKey[] };
    /** Invalidates `meta.invalidates` through the QueryClient TanStack passes. */
    onSuccess: (data: TData, variables: TVariables, onMutateResult: unknown, context?: MutationContext) => Promise<void>;
    /**
     * Not set by the factories: declared with the mutation's error type, `ApiError`, so that
     * TanStack infers it (`mutation.error` is an `ApiError | null`); add your own when spreading.
     */
    onError?: (error: ApiError, variables: TVariables, onMutateResult: unknown, context?: MutationContext) => unknown;
}

/** The keys of `client`'s queries (`client.baseUrl` is part of each). */
export function estatekitKeys(client: Client): EstatekitKeys;

/**
 * A `retry` for TanStack Query (the factories set it; also usable as
 * `defaultOptions.queries.retry`): true only for an `ApiError` that is `retryable` and that
 * estatekit did not retry itself (`attempts` at most 1), for at most 3 runs. Never for a 4xx,
 * a decode error, an aborted call or an error that is not estatekit's.
 */
export function retry(failureCount: number, error: unknown): boolean;

/** A `retryDelay` for TanStack Query: the service's `retryAfterMs`, else 1 s, 2 s, 4 s... (at most 30 s). */
export function retryDelay(failureCount: number, error: unknown): number;

/** Page size of the infinite queries: `take`, a positive integer; default 50. */
export interface InfinitePageOptions {
    /** Items per page (`take`); a shorter page is the last. Default 50. */
    pageSize?: number;
}

/**
 * Options of `listMessagesInfiniteQueryOptions`: the page size and the messages query's options but
 * `paging`, which the pages set; `fields` and `userFields` type the pages' messages.
 */
export interface ListMessagesInfiniteOptions<
    F extends readonly MessageField[] = readonly MessageField[],
    U extends readonly string[] | undefined = undefined,
> extends InfinitePageOptions,
        Omit<SelectingMessagesOptions<F, U>, "paging" | "signal"> {}

/** Options of `listDocumentsInfiniteQueryOptions`: the page size and the call options but `signal`. */
export interface ListDocumentsInfiniteOptions extends InfinitePageOptions, Omit<CallOptions, "signal"> {}

/** Settings of the upload mutation: `onProgress`, `timeoutMs`, `onEvent`, and what cancels it. */
export interface UploadMutationSettings extends Omit<UploadOptions, "signal"> {
    /**
     * Cancels the upload (it then fails with kind `aborted`): an `AbortSignal`, or a function
     * called at each upload that gives the signal of that upload (e.g. of an `AbortController`
     * made when the upload starts).
     */
    signal?: AbortSignal | (() => AbortSignal | undefined);
}

// BEGIN GENERATED (operation table)
// Generated by `cargo run -q -p estatekit-vocab --bin query-js` from vocab/src/operations.rs (the operation table) and vocab/src/query.rs (each operation's factories and their keys): do not edit; `make generate` writes it and `make test` fails when it is stale.

/** The keys of one client's queries, from the widest to the narrowest. */
export interface EstatekitKeys {
    /** Every query of this client (`["estatekit", baseUrl]`). */
    readonly all: EstatekitKey;
    /** Messages. */
    readonly messages: {
        /** Every messages query (lists and pages). */
        readonly all: EstatekitKey;
        /** The key of `listMessagesQueryOptions(client, filter, options)`. */
        list(filter: MessageFilter, options?: MessagesOptions): EstatekitKey;
        /** The key of `listMessagesInfiniteQueryOptions(client, filter, options)`. */
        infinite(filter: MessageFilter, options?: ListMessagesInfiniteOptions): EstatekitKey;
    };
    /** Documents. */
    readonly documents: {
        /** Every documents query (lists, pages and single documents). */
        readonly all: EstatekitKey;
        /** The key of `listDocumentsQueryOptions(client, query)`. */
        list(query?: ListDocumentsQuery): EstatekitKey;
        /** The key of `listDocumentsInfiniteQueryOptions(client, query, { pageSize })`. */
        infinite(query?: ListDocumentsQuery, pageSize?: number): EstatekitKey;
        /** The key of `getDocumentQueryOptions(client, documentId)`. */
        detail(documentId: string): EstatekitKey;
    };
    /** Webhooks. */
    readonly webhooks: {
        /** Every webhooks query. */
        readonly all: EstatekitKey;
        /** The key of `listWebhooksQueryOptions(client)`. */
        list(): EstatekitKey;
    };
}

/** `listMessages` as a query (one request, `paging` as given). An item is `null` where the service's answer has one (the interface declares the list's items nullable, GraphQL `[Message]`; the answer is given as sent). */
export function listMessagesQueryOptions<
    const F extends readonly MessageField[] = readonly MessageField[],
    const U extends readonly string[] | undefined = undefined,
>(
    client: Client,
    filter: MessageFilter,
    options?: SelectingMessagesOptions<F, U>,
): EstatekitQueryOptions<(SelectedMessage<F, U> | null)[]>;

/** `listDocuments` as a query. */
export function listDocumentsQueryOptions(
    client: Client,
    query?: ListDocumentsQuery,
    options?: CallOptions,
): EstatekitQueryOptions<DocumentRecord[]>;

/** `getDocument` as a query. */
export function getDocumentQueryOptions(
    client: Client,
    documentId: string,
    options?: CallOptions,
): EstatekitQueryOptions<DocumentRecord>;

/** `listWebhooks` as a query. */
export function listWebhooksQueryOptions(client: Client, options?: CallOptions): EstatekitQueryOptions<Webhook[]>;

/** `listMessages` page by page (`paging.skip`/`take`), for `useInfiniteQuery`. An item is `null` where the service's answer has one (the interface declares the list's items nullable, GraphQL `[Message]`; the answer is given as sent). */
export function listMessagesInfiniteQueryOptions<
    const F extends readonly MessageField[] = readonly MessageField[],
    const U extends readonly string[] | undefined = undefined,
>(
    client: Client,
    filter: MessageFilter,
    options?: ListMessagesInfiniteOptions<F, U>,
): EstatekitInfiniteQueryOptions<SelectedMessage<F, U> | null>;

/** `listDocuments` page by page (`skip`/`take`), for `useInfiniteQuery`. */
export function listDocumentsInfiniteQueryOptions(
    client: Client,
    query?: Omit<ListDocumentsQuery, "skip" | "take">,
    options?: ListDocumentsInfiniteOptions,
): EstatekitInfiniteQueryOptions<DocumentRecord>;

/** `uploadDocument` as a mutation; invalidates every documents query. */
export function uploadDocumentMutationOptions(
    client: Client,
    settings?: UploadMutationSettings,
): EstatekitMutationOptions<DocumentRecord, UploadDocumentInput>;

/** `deleteDocument` as a mutation (variables: the document id); invalidates every documents query. */
export function deleteDocumentMutationOptions(
    client: Client,
    options?: CallOptions,
): EstatekitMutationOptions<void, string>;

/** `registerWebhook` as a mutation (resolves with the new id); invalidates every webhooks query. */
export function registerWebhookMutationOptions(
    client: Client,
    options?: CallOptions,
): EstatekitMutationOptions<string, RegisterWebhookInput>;

/** `ensureWebhook` as a mutation (resolves with the id; its options take a `store` too, on servers); invalidates every webhooks query. */
export function ensureWebhookMutationOptions(
    client: Client,
    options?: EnsureWebhookOptions,
): EstatekitMutationOptions<string, RegisterWebhookInput>;

/** `deleteWebhook` as a mutation (variables: the webhook id); invalidates every webhooks query. */
export function deleteWebhookMutationOptions(
    client: Client,
    options?: CallOptions,
): EstatekitMutationOptions<void, string>;
// END GENERATED (operation table)
