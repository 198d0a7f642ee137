// Type tests of estatekit/query (the TanStack Query option factories) and of `ApiError` as a
// value (`instanceof`): what compiles, and @ts-expect-error lines that must not. Checked by
// `tsc --strict --noEmit` (make test-types); never run. TanStack's own types are not imported:
// the consumer project tests/consumers/query checks the factories against them.
import { ApiError, Client, isApiError, type DocumentRecord, type Message, type SelectedMessage, type Webhook } from "estatekit";
import { ApiError as AuthApiError } from "estatekit/auth";
import { createMemoryStore } from "estatekit/store";
import {
  deleteDocumentMutationOptions,
  listDocumentsInfiniteQueryOptions,
  ensureWebhookMutationOptions,
  estatekitKeys,
  getDocumentQueryOptions,
  listDocumentsQueryOptions,
  listWebhooksQueryOptions,
  listMessagesInfiniteQueryOptions,
  listMessagesQueryOptions,
  registerWebhookMutationOptions,
  retry,
  retryDelay,
  uploadDocumentMutationOptions,
  deleteWebhookMutationOptions,
  type EstatekitKey,
} from "estatekit/query";

/** true when A and B are the same type (not merely assignable). */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function expect<T extends true>(): void {}

declare const client: Client;
declare const signal: AbortSignal;

// Queries: the key starts with "estatekit"; queryFn takes TanStack's context and gives the data.
const webhooks = listWebhooksQueryOptions(client);
const key: EstatekitKey = webhooks.queryKey;
const first: "estatekit" = key[0];
const listed: Promise<Webhook[]> = webhooks.queryFn({ signal });
const documents: Promise<DocumentRecord[]> = listDocumentsQueryOptions(client, { tenantId: "t" }).queryFn({ signal });
const one: Promise<DocumentRecord> = getDocumentQueryOptions(client, "doc-1").queryFn({ signal });
const thread: Promise<(Message | null)[]> = listMessagesQueryOptions(client, { candidateId: "c" }).queryFn({ signal });
// @ts-expect-error queryFn needs TanStack's context (its signal)
webhooks.queryFn();
// @ts-expect-error a document id is a string
getDocumentQueryOptions(client, 7);
// @ts-expect-error unknown query filter
listDocumentsQueryOptions(client, { tenant: "t" });

// Infinite queries: skip as the page parameter, undefined after the last page.
const pages = listDocumentsInfiniteQueryOptions(client, { tenantId: "t" }, { pageSize: 20 });
const start: number = pages.initialPageParam;
const next: number | undefined = pages.getNextPageParam([], [[]], 0);
const page: Promise<DocumentRecord[]> = pages.queryFn({ signal, pageParam: 40 });
const messagePages = listMessagesInfiniteQueryOptions(client, { candidateId: "c" }, { pageSize: 3, fields: ["id"] });
const messagePage: Promise<(Message | null)[]> = messagePages.queryFn({ signal, pageParam: 0 });
// The messages' factories keep `fields` in the result's type, as listMessages does.
const selected: Promise<(SelectedMessage<["id", "text"]> | null)[]> = listMessagesQueryOptions(client, { candidateId: "c" }, { fields: ["id", "text"] }).queryFn({ signal });
const selectedPage = listMessagesInfiniteQueryOptions(client, { candidateId: "c" }, { fields: ["id"] }).queryFn({ signal, pageParam: 0 });
expect<Equal<Awaited<typeof selectedPage>, (SelectedMessage<["id"]> | null)[]>>();
selectedPage.then((p) => {
  // @ts-expect-error `text` was not selected
  return p[0]?.text;
});
// @ts-expect-error an empty filter
listMessagesQueryOptions(client, {});
// @ts-expect-error the pages set `paging` themselves
listMessagesInfiniteQueryOptions(client, { candidateId: "c" }, { paging: { skip: 0 } });
// @ts-expect-error documents' pages set skip/take themselves
listDocumentsInfiniteQueryOptions(client, { skip: 10 });
// @ts-expect-error the page parameter is a number (skip)
pages.queryFn({ signal, pageParam: "next" });

// Mutations: the variables and results of the calls; the keys they invalidate.
const upload = uploadDocumentMutationOptions(client, {
  onProgress: (p) => p.loaded / p.total,
  signal: () => undefined,
});
const uploaded: Promise<DocumentRecord> = upload.mutationFn({ file: new Blob([]), resourcePath: "r" });
const invalidates: readonly EstatekitKey[] = upload.meta.invalidates;
// A mutation's errors are ApiErrors (what TanStack infers `mutation.error` from).
expect<Equal<Parameters<NonNullable<typeof upload.onError>>[0], ApiError>>();
uploadDocumentMutationOptions(client, { signal });
// @ts-expect-error signal: an AbortSignal or a function giving one
uploadDocumentMutationOptions(client, { signal: "stop" });
const deleted: Promise<void> = deleteDocumentMutationOptions(client).mutationFn("doc-1");
// @ts-expect-error a document id, not a record
deleteDocumentMutationOptions(client).mutationFn({ id: "doc-1" });
const registered: Promise<string> = registerWebhookMutationOptions(client).mutationFn({ type: "UNIT_CREATED", url: "https://x.test/h" });
const ensured: Promise<string> = ensureWebhookMutationOptions(client).mutationFn({ type: "UNIT_CREATED", url: "https://x.test/h" });
// The query options take what their call takes: `ensureWebhook`'s `store` (servers) too.
ensureWebhookMutationOptions(client, { store: createMemoryStore(), timeoutMs: 5000, signal });
// @ts-expect-error a store has `claim` and `release`
ensureWebhookMutationOptions(client, { store: { claim: async () => null } });
// @ts-expect-error not an event type
registerWebhookMutationOptions(client).mutationFn({ type: "UNIT_RENAMED", url: "https://x.test/h" });
const removed: Promise<void> = deleteWebhookMutationOptions(client).mutationFn("wh-1");
const all: EstatekitKey = estatekitKeys(client).documents.all;

// retry/retryDelay: TanStack's (failureCount, error) shapes.
const again: boolean = retry(1, new Error("x"));
const wait: number = retryDelay(1, undefined);
// @ts-expect-error failureCount first
retry(new Error("x"), 1);

// ApiError as a value: `instanceof` narrows, from either entry; it is not a constructor.
declare const caught: unknown;
if (caught instanceof ApiError) {
  const retryable: boolean = caught.retryable;
  const attempts: number = caught.attempts;
}
if (caught instanceof AuthApiError) {
  const kind: ApiError["kind"] = caught.kind;
}
// @ts-expect-error estatekit makes its errors
new ApiError();
// @ts-expect-error `retryable` is only known after narrowing
caught.retryable;
if (isApiError(caught)) {
  // @ts-expect-error retryable is a boolean
  const wrong: string = caught.retryable;
}

export {
  first, listed, documents, one, thread, start, next, page, messagePage, uploaded, invalidates, deleted, selected,
  registered, ensured, removed, all, again, wait,
};
