/* @ts-self-types="./query.d.ts" */
// estatekit/query: option factories for TanStack Query (any adapter: React, Vue, Svelte, Solid,
// Angular). Each returns a plain object (`queryKey` + `queryFn`, infinite options, mutation
// options) that the adapters' `useQuery`, `useInfiniteQuery`, `useMutation` (or `queryOptions`,
// `queryClient.fetchQuery`, ...) take as is. No import of TanStack, nor of the WebAssembly module:
// the factories only call the methods of the `Client` they are given. Declarations: ./query.d.ts.
// The factories themselves and the keys of `estatekitKeys` (the block between the GENERATED
// markers, at the end) are generated from the operation table (vocab/src/operations.rs,
// vocab/src/query.rs) by `make generate`; what is above them is written by hand.

import { apiError, isApiError } from "./api_error.js";
import { DEFAULT_PAGE_SIZE, checkedCount } from "./paging.js";

/** The first element of every key: `invalidateQueries({ queryKey: ["estatekit"] })` reaches all. */
const ROOT = "estatekit";
/** How many times `retry` lets TanStack re-run a call that estatekit did not retry itself. */
const RETRIES = 3;

/**
 * The call options that say how to send, not what to ask for: never part of a key.
 * @template {{ signal?: unknown, timeoutMs?: unknown, onEvent?: unknown, onProgress?: unknown }} T
 * @param {T | undefined} options
 */
function keyed(options) {
  if (!options) return {};
  const { signal, timeoutMs, onEvent, onProgress, ...rest } = options;
  return rest;
}

/**
 * The keys of one client's queries, hierarchical: `all` > resource > operation > parameters.
 * @param {{ readonly baseUrl: string }} client
 */
export function estatekitKeys(client) {
  // Every factory reads its client here first: anything else is refused at once, as every entry
  // refuses input (docs/errors.md, "Refused input").
  const baseUrl = client !== null && typeof client === "object" ? client.baseUrl : undefined;
  if (typeof baseUrl !== "string") throw apiError("invalid_input", "invalid client: must be a Client of estatekit");
  const all = /** @type {const} */ ([ROOT, baseUrl]);
  // Each resource's keys (`resourceKeys`, generated: the GENERATED block at the end) after `all`.
  return { all, ...resourceKeys(all) };
}

/**
 * Whether TanStack Query should run a failed call again: only an estatekit error whose
 * `retryable` is true (network, timeout, 429, 5xx) and that estatekit did not already retry
 * itself (`attempts` at most 1), at most 3 times. Errors that are not estatekit's are not retried.
 * @param {number} failureCount
 * @param {unknown} error
 * @returns {boolean}
 */
export function retry(failureCount, error) {
  if (!isApiError(error)) return false;
  const { retryable, attempts } = /** @type {{ retryable?: unknown, attempts?: unknown }} */ (error);
  return retryable === true && typeof attempts === "number" && attempts <= 1 && failureCount < RETRIES;
}

/**
 * How long TanStack Query waits before `retry`'s next run: the service's `retryAfterMs` when it
 * gave one, else 1 s, 2 s, 4 s... up to 30 s (TanStack's own default).
 * @param {number} failureCount
 * @param {unknown} error
 * @returns {number}
 */
export function retryDelay(failureCount, error) {
  const after = /** @type {{ retryAfterMs?: unknown } | null} */ (error)?.retryAfterMs;
  if (typeof after === "number" && after >= 0) return after;
  return Math.min(1000 * 2 ** failureCount, 30_000);
}

/**
 * @param {unknown} pageSize
 * @returns {number}
 */
function checkedPageSize(pageSize) {
  return checkedCount("options.pageSize", pageSize, 1) ?? DEFAULT_PAGE_SIZE;
}

/**
 * The infinite-query paging shared by messages and documents: `skip` is the page parameter,
 * `pageSize` the `take`; a page shorter than `pageSize` is the last.
 * @param {number} pageSize
 */
function paging(pageSize) {
  return {
    initialPageParam: 0,
    /**
     * @param {readonly unknown[]} lastPage
     * @param {readonly unknown[][]} _allPages
     * @param {number} lastPageParam
     */
    getNextPageParam: (lastPage, _allPages, lastPageParam) =>
      lastPage.length < pageSize ? undefined : lastPageParam + lastPage.length,
    retry,
    retryDelay,
  };
}

/**
 * `onSuccess` that invalidates `keys` through the QueryClient TanStack passes (v5.80 and later).
 * @param {readonly (readonly unknown[])[]} keys
 */
function invalidating(keys) {
  /**
   * @param {unknown} _data @param {unknown} _variables @param {unknown} _onMutateResult
   * @param {{ client?: { invalidateQueries(filters: { queryKey: readonly unknown[] }): Promise<void> } }} [context]
   */
  return async (_data, _variables, _onMutateResult, context) => {
    const queryClient = context?.client;
    if (queryClient) await Promise.all(keys.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
  };
}

/**
 * @param {readonly (readonly unknown[])[]} invalidates
 * @param {readonly unknown[]} mutationKey
 */
function mutation(mutationKey, invalidates) {
  return { mutationKey, meta: { invalidates }, onSuccess: invalidating(invalidates) };
}

// BEGIN GENERATED (operation table)
// Generated by `cargo run -q -p estatekit-vocab --bin query-js` from vocab/src/operations.rs (the operation table) and vocab/src/query.rs (each operation's factories and their keys): do not edit; `make generate` writes it and `make test` fails when it is stale.

/**
 * The keys of each resource under `all` (a client's `["estatekit", baseUrl]`): the resource's
 * `all`, and the key of each of its queries. `estatekitKeys(client)` gives them after `all`.
 * @param {readonly ["estatekit", string]} all
 */
function resourceKeys(all) {
  return {
    messages: {
      all: /** @type {const} */ ([...all, "messages"]),
      /** @param {unknown} filter @param {import("./estatekit.js").MessagesOptions} [options] */
      list: (filter, options) => /** @type {const} */ ([...all, "messages", "list", { filter, ...keyed(options) }]),
      /** @param {unknown} filter @param {import("./query.js").ListMessagesInfiniteOptions} [options] */
      infinite: (filter, options) =>
        /** @type {const} */ ([...all, "messages", "infinite", { filter, ...keyed(options) }]),
    },
    documents: {
      all: /** @type {const} */ ([...all, "documents"]),
      /** @param {unknown} [query] */
      list: (query) => /** @type {const} */ ([...all, "documents", "list", query ?? {}]),
      /** @param {unknown} [query] @param {number} [pageSize] */
      infinite: (query, pageSize) =>
        /** @type {const} */ ([...all, "documents", "infinite", { ...(query ?? {}), pageSize }]),
      /** @param {string} documentId */
      detail: (documentId) => /** @type {const} */ ([...all, "documents", "detail", documentId]),
    },
    webhooks: {
      all: /** @type {const} */ ([...all, "webhooks"]),
      list: () => /** @type {const} */ ([...all, "webhooks", "list"]),
    },
  };
}

/**
 * `listMessages` as a query.
 * @param {import("./estatekit.js").Client} client
 * @param {import("./estatekit.js").MessageFilter} filter
 * @param {import("./estatekit.js").MessagesOptions} [options]
 */
export function listMessagesQueryOptions(client, filter, options) {
  return {
    queryKey: estatekitKeys(client).messages.list(filter, options),
    /** @param {{ signal: AbortSignal }} context */
    queryFn: ({ signal }) => Promise.resolve(client.listMessages(filter, { ...options, signal })),
    retry,
    retryDelay,
  };
}

/**
 * `listDocuments` as a query.
 * @param {import("./estatekit.js").Client} client
 * @param {import("./estatekit.js").ListDocumentsQuery} [query]
 * @param {import("./estatekit.js").CallOptions} [options]
 */
export function listDocumentsQueryOptions(client, query, options) {
  return {
    queryKey: estatekitKeys(client).documents.list(query),
    /** @param {{ signal: AbortSignal }} context */
    queryFn: ({ signal }) => Promise.resolve(client.listDocuments(query, { ...options, signal })),
    retry,
    retryDelay,
  };
}

/**
 * `getDocument` as a query.
 * @param {import("./estatekit.js").Client} client
 * @param {string} documentId
 * @param {import("./estatekit.js").CallOptions} [options]
 */
export function getDocumentQueryOptions(client, documentId, options) {
  return {
    queryKey: estatekitKeys(client).documents.detail(documentId),
    /** @param {{ signal: AbortSignal }} context */
    queryFn: ({ signal }) => client.getDocument(documentId, { ...options, signal }),
    retry,
    retryDelay,
  };
}

/**
 * `listWebhooks` as a query.
 * @param {import("./estatekit.js").Client} client
 * @param {import("./estatekit.js").CallOptions} [options]
 */
export function listWebhooksQueryOptions(client, options) {
  return {
    queryKey: estatekitKeys(client).webhooks.list(),
    /** @param {{ signal: AbortSignal }} context */
    queryFn: ({ signal }) => client.listWebhooks({ ...options, signal }),
    retry,
    retryDelay,
  };
}

/**
 * `listMessages` page by page, for `useInfiniteQuery` ("load more").
 * @param {import("./estatekit.js").Client} client
 * @param {import("./estatekit.js").MessageFilter} filter
 * @param {import("./query.js").ListMessagesInfiniteOptions} [options]
 */
export function listMessagesInfiniteQueryOptions(client, filter, options) {
  const { pageSize: given, ...messagesOptions } = options ?? {};
  const pageSize = checkedPageSize(given);
  return {
    queryKey: estatekitKeys(client).messages.infinite(filter, { ...messagesOptions, pageSize }),
    /** @param {{ signal: AbortSignal, pageParam: number }} context */
    queryFn: ({ signal, pageParam }) =>
      Promise.resolve(client.listMessages(filter, { ...messagesOptions, paging: { skip: pageParam, take: pageSize }, signal })),
    ...paging(pageSize),
  };
}

/**
 * `listDocuments` page by page, for `useInfiniteQuery`.
 * @param {import("./estatekit.js").Client} client
 * @param {import("./estatekit.js").ListDocumentsQuery} [query]
 * @param {import("./query.js").ListDocumentsInfiniteOptions} [options]
 */
export function listDocumentsInfiniteQueryOptions(client, query, options) {
  const { pageSize: given, ...callOptions } = options ?? {};
  const pageSize = checkedPageSize(given);
  return {
    queryKey: estatekitKeys(client).documents.infinite(query, pageSize),
    /** @param {{ signal: AbortSignal, pageParam: number }} context */
    queryFn: ({ signal, pageParam }) =>
      Promise.resolve(client.listDocuments({ ...query, skip: pageParam, take: pageSize }, { ...callOptions, signal })),
    ...paging(pageSize),
  };
}

/**
 * `uploadDocument` as a mutation: progress goes to `onProgress`, and `signal` (an AbortSignal, or
 * a function giving the current upload's signal) cancels it. Invalidates the document lists.
 * @param {import("./estatekit.js").Client} client
 * @param {import("./query.js").UploadMutationSettings} [settings]
 */
export function uploadDocumentMutationOptions(client, settings) {
  const { signal, ...uploadOptions } = settings ?? {};
  const keys = estatekitKeys(client);
  return {
    ...mutation([...keys.documents.all, "upload"], [keys.documents.all]),
    /** @param {import("./estatekit.js").UploadDocumentInput} input */
    mutationFn: (input) =>
      client.uploadDocument(input, { ...uploadOptions, signal: typeof signal === "function" ? signal() : signal }),
  };
}

/**
 * `deleteDocument` as a mutation (variables: the document id). Invalidates the documents.
 * @param {import("./estatekit.js").Client} client
 * @param {import("./estatekit.js").CallOptions} [options]
 */
export function deleteDocumentMutationOptions(client, options) {
  const keys = estatekitKeys(client);
  return {
    ...mutation([...keys.documents.all, "delete"], [keys.documents.all]),
    /** @param {string} documentId */
    mutationFn: (documentId) => client.deleteDocument(documentId, options),
  };
}

/**
 * `registerWebhook` as a mutation (resolves with the new id). Invalidates the webhooks.
 * @param {import("./estatekit.js").Client} client
 * @param {import("./estatekit.js").CallOptions} [options]
 */
export function registerWebhookMutationOptions(client, options) {
  const keys = estatekitKeys(client);
  return {
    ...mutation([...keys.webhooks.all, "register"], [keys.webhooks.all]),
    /** @param {import("./estatekit.js").RegisterWebhookInput} input */
    mutationFn: (input) => client.registerWebhook(input, options),
  };
}

/**
 * `ensureWebhook` as a mutation (resolves with the id; its options take a `store` too, on servers). Invalidates the webhooks.
 * @param {import("./estatekit.js").Client} client
 * @param {import("./estatekit.js").EnsureWebhookOptions} [options]
 */
export function ensureWebhookMutationOptions(client, options) {
  const keys = estatekitKeys(client);
  return {
    ...mutation([...keys.webhooks.all, "ensure"], [keys.webhooks.all]),
    /** @param {import("./estatekit.js").RegisterWebhookInput} input */
    mutationFn: (input) => client.ensureWebhook(input, options),
  };
}

/**
 * `deleteWebhook` as a mutation (variables: the webhook id). Invalidates the webhooks.
 * @param {import("./estatekit.js").Client} client
 * @param {import("./estatekit.js").CallOptions} [options]
 */
export function deleteWebhookMutationOptions(client, options) {
  const keys = estatekitKeys(client);
  return {
    ...mutation([...keys.webhooks.all, "delete"], [keys.webhooks.all]),
    /** @param {string} webhookId */
    mutationFn: (webhookId) => client.deleteWebhook(webhookId, options),
  };
}
// END GENERATED (operation table)
