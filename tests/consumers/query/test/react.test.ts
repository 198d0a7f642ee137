// A portal screen with TanStack Query v5 for React 19 (StrictMode) and estatekit/query, tested in
// jsdom: every request goes to estatekit's in-process service (estatekit/testing), each test
// with a service of its own.
import { afterEach, beforeEach, expect, test } from "vitest";
import { act, createElement, useRef, useState } from "react";
import { useInfiniteQuery, useMutation, useQuery, type QueryClient, type UseQueryOptions } from "@tanstack/react-query";
import { Client, isApiError, type ApiError, type UploadProgress, type Webhook } from "estatekit";
import {
  listDocumentsInfiniteQueryOptions,
  estatekitKeys,
  listDocumentsQueryOptions,
  listWebhooksQueryOptions,
  listMessagesInfiniteQueryOptions,
  retry,
  uploadDocumentMutationOptions,
  type EstatekitKey,
} from "estatekit/query";
import { createTestService, type TestService } from "estatekit/testing";
import { render, testQueryClient, waitFor } from "./render.js";

const WEBHOOKS = "/api/external-integrations/webhooks";
let service: TestService;
let client: Client;
let queryClient: QueryClient;

beforeEach(async () => {
  service = await createTestService();
  // estatekit's own retries (2 by default) without waiting long between them.
  client = new Client({ baseUrl: service.baseUrl, token: service.token, fetch: service.fetch, retry: { baseDelayMs: 1, maxDelayMs: 1 } });
  queryClient = testQueryClient();
});
afterEach(() => {
  queryClient.clear();
  client.free();
  service.close();
});

/** How many requests the service received for `path`. */
async function requestsTo(path: string): Promise<number> {
  return (await service.requests()).filter((r) => r.path === path).length;
}

/** Clicks "load more" (fetchNextPage, as the last render gave it) while there is a next page; at most 10 times. */
async function loadToTheEnd(pager: () => { fetchNextPage(): Promise<unknown>; hasNextPage: boolean } | undefined) {
  for (let i = 0; i < 10 && pager()?.hasNextPage; i++) {
    await act(async () => {
      await pager()?.fetchNextPage();
    });
  }
}

/** The webhooks panel: the list, or the error's kind and whether it may succeed later. */
function Webhooks(props: { options: UseQueryOptions<Webhook[], ApiError, Webhook[], EstatekitKey> }) {
  const webhooks = useQuery(props.options);
  if (webhooks.isError) {
    const e = webhooks.error;
    return createElement("p", { role: "alert" }, `${e.kind} retryable=${e.retryable} attempts=${e.attempts}`);
  }
  if (!webhooks.data) return createElement("p", null, "loading");
  return createElement("ul", null, webhooks.data.map((w) => createElement("li", { key: w.id }, w.url)));
}

test("keys are stable and hierarchical, under the client's baseUrl", () => {
  const a = listDocumentsQueryOptions(client, { tenantId: "t-1" }).queryKey;
  expect(a).toEqual(["estatekit", service.baseUrl, "documents", "list", { tenantId: "t-1" }]);
  expect(listDocumentsQueryOptions(client, { tenantId: "t-1" }).queryKey).toEqual(a);
  expect(a.slice(0, 3)).toEqual(estatekitKeys(client).documents.all);
  expect(estatekitKeys(client).all).toEqual(["estatekit", service.baseUrl]);
});

test("a 503 service: with estatekit/query's retry, the call runs once (estatekit's 3 attempts)", async () => {
  await service.addFaults({ method: "GET", path: WEBHOOKS, status: 503, times: 100 });
  const view = await render(createElement(Webhooks, { options: listWebhooksQueryOptions(client) }), queryClient);
  await waitFor(() => expect(view.container.textContent).toBe("http retryable=true attempts=3"));
  expect(await requestsTo(WEBHOOKS)).toBe(3);
  await view.unmount();
});

test("a 503 service: with TanStack's default retry instead, the call runs 4 times (12 requests)", async () => {
  await service.addFaults({ method: "GET", path: WEBHOOKS, status: 503, times: 100 });
  const options = { ...listWebhooksQueryOptions(client), retry: undefined, retryDelay: 1 };
  const view = await render(createElement(Webhooks, { options }), queryClient);
  await waitFor(() => expect(view.container.textContent).toBe("http retryable=true attempts=3"));
  expect(await requestsTo(WEBHOOKS)).toBe(12);
  await view.unmount();
});

test("retry: TanStack re-runs what estatekit did not retry (retries off), never a 4xx", async () => {
  const once = new Client({ baseUrl: service.baseUrl, token: service.token, fetch: service.fetch, retry: { maxRetries: 0 } });
  await service.addFaults({ method: "GET", path: WEBHOOKS, status: 503, times: 100 });
  const options = { ...listWebhooksQueryOptions(once), retryDelay: 1 };
  const view = await render(createElement(Webhooks, { options }), queryClient);
  await waitFor(() => expect(view.container.textContent).toBe("http retryable=true attempts=1"));
  expect(await requestsTo(WEBHOOKS)).toBe(4); // the first run and 3 of TanStack's

  await service.clearFaults();
  await service.clearRequests();
  await service.addFaults({ method: "GET", path: WEBHOOKS, status: 403, times: 100 });
  const forbidden = testQueryClient();
  const second = await render(createElement(Webhooks, { options }), forbidden);
  await waitFor(() => expect(second.container.textContent).toBe("forbidden retryable=false attempts=1"));
  expect(await requestsTo(WEBHOOKS)).toBe(1);
  await second.unmount();
  forbidden.clear();
  await view.unmount();
  once.free();

  expect(retry(0, new Error("not estatekit's"))).toBe(false);
});

test("StrictMode: the effects run twice, the first request is aborted through `signal`, the list shows", async () => {
  await service.seed({ webhooks: [{ type: "UNIT_CREATED", url: "https://portal.example.test/hooks/a" }] });
  const seen: AbortSignal[] = [];
  const base = listWebhooksQueryOptions(client);
  const options = { ...base, queryFn: (context: { signal: AbortSignal }) => (seen.push(context.signal), base.queryFn(context)) };
  const view = await render(createElement(Webhooks, { options }), queryClient);
  await waitFor(() => expect(view.container.textContent).toBe("https://portal.example.test/hooks/a"));
  expect(seen.length).toBeGreaterThanOrEqual(1);
  // Every run but the last was cancelled by StrictMode's unmount, and its signal reached estatekit.
  expect(seen.slice(0, -1).every((s) => s.aborted)).toBe(true);
  expect(seen.at(-1)?.aborted).toBe(false);
  await view.unmount();
});

test("StrictMode: a client kept in a component's state (useState, never freed in an effect) serves the query", async () => {
  await service.seed({ webhooks: [{ type: "UNIT_CREATED", url: "https://portal.example.test/hooks/b" }] });
  function Panel() {
    const [own] = useState(() => new Client({ baseUrl: service.baseUrl, token: service.token, fetch: service.fetch }));
    return createElement(Webhooks, { options: listWebhooksQueryOptions(own) });
  }
  const view = await render(createElement(Panel), queryClient);
  await waitFor(() => expect(view.container.textContent).toBe("https://portal.example.test/hooks/b"));
  await view.unmount();
});

test("infinite messages: skip/take pages until a short page, then hasNextPage is false", async () => {
  const { messageIds } = await service.seed({
    messages: Array.from({ length: 7 }, (_, i) => ({ candidateId: "cand-query", text: `message ${i}` })),
  });
  let pager: { fetchNextPage(): Promise<unknown>; hasNextPage: boolean } | undefined;
  function Thread() {
    const thread = useInfiniteQuery(listMessagesInfiniteQueryOptions(client, { candidateId: "cand-query" }, { pageSize: 3, fields: ["id", "text"] }));
    pager = thread;
    const pages = thread.data?.pages ?? [];
    // The selected fields stay in the pages' type (a message item may be null, as the service says).
    const firstText: string | null | undefined = pages[0]?.[0]?.text;
    // @ts-expect-error candidateId was not selected
    void pages[0]?.[0]?.candidateId;
    void firstText;
    return createElement("p", null, `${pages.map((p) => p.length).join(",")} more=${thread.hasNextPage}`);
  }
  const view = await render(createElement(Thread), queryClient);
  await waitFor(() => expect(view.container.textContent).toBe("3 more=true"));
  await loadToTheEnd(() => pager);
  await waitFor(() => expect(view.container.textContent).toBe("3,3,1 more=false"));
  const data = queryClient.getQueryData<{ pages: { id?: string | null }[][] }>(
    listMessagesInfiniteQueryOptions(client, { candidateId: "cand-query" }, { pageSize: 3, fields: ["id", "text"] }).queryKey,
  );
  expect(data?.pages.flat().map((m) => m.id)).toEqual(messageIds);
  const graphql = (await service.requests()).filter((r) => r.path === "/api/reporting/graphql");
  expect(graphql).toHaveLength(3);
  await view.unmount();
});

test("infinite documents: a last full page is followed by one empty page, then the end", async () => {
  await service.seed({
    documents: Array.from({ length: 4 }, (_, i) => ({ type: "CONTRACT" as const, title: `doc ${i}.pdf`, tenantId: "t-9" })),
  });
  let pager: { fetchNextPage(): Promise<unknown>; hasNextPage: boolean } | undefined;
  function Table() {
    const table = useInfiniteQuery(listDocumentsInfiniteQueryOptions(client, { tenantId: "t-9" }, { pageSize: 2 }));
    pager = table;
    const pages = table.data?.pages ?? [];
    return createElement("p", null, `${pages.map((p) => p.length).join(",")} more=${table.hasNextPage}`);
  }
  const view = await render(createElement(Table), queryClient);
  await waitFor(() => expect(view.container.textContent).toBe("2 more=true"));
  await loadToTheEnd(() => pager);
  await waitFor(() => expect(view.container.textContent).toBe("2,2,0 more=false"));
  await view.unmount();
});

/** The documents table and an upload button with a progress bar and a cancel button. */
function Uploads(props: { onProgress: (p: UploadProgress) => void; start: (upload: () => void, cancel: () => void) => void }) {
  const documents = useQuery(listDocumentsQueryOptions(client, { tenantId: "t-1" }));
  const controller = useRef<AbortController | null>(null);
  const upload = useMutation(
    uploadDocumentMutationOptions(client, { onProgress: props.onProgress, signal: () => controller.current?.signal }),
  );
  props.start(
    () => {
      controller.current = new AbortController();
      upload.mutate({
        file: new Blob(["%PDF-1.7 lease"], { type: "application/pdf" }),
        resourcePath: "tenants/t-1",
        name: "Lease.pdf",
        metadata: { type: "CONTRACT", tenantId: "t-1" },
      });
    },
    () => controller.current?.abort(),
  );
  const titles = (documents.data ?? []).map((d) => d.title).join(",");
  // The mutation's error is typed ApiError (no isApiError needed): `upload.error?.kind` compiles.
  const kind: ApiError["kind"] | undefined = upload.error?.kind;
  const state = upload.error ? `${kind} retryable=${upload.error.retryable}` : upload.status;
  return createElement("p", null, `[${titles}] ${state}`);
}

test("upload: progress is reported, and the documents list is invalidated and refetched", async () => {
  const progress: UploadProgress[] = [];
  let start = () => {};
  const view = await render(
    createElement(Uploads, { onProgress: (p) => progress.push(p), start: (upload) => (start = upload) }),
    queryClient,
  );
  await waitFor(() => expect(view.container.textContent).toBe("[] idle"));
  start();
  await waitFor(() => expect(view.container.textContent).toBe("[Lease.pdf] success"));
  expect(progress.at(-1)).toEqual({ loaded: 14, total: 14 });
  await view.unmount();
});

test("upload: cancel aborts it (kind aborted, not retryable) and nothing is stored", async () => {
  await service.addFaults({ method: "POST", path: "/api/file-storage/*", delayMs: 5_000 });
  let start = () => {};
  let cancel = () => {};
  const view = await render(
    createElement(Uploads, { onProgress: () => {}, start: (upload, stop) => ((start = upload), (cancel = stop)) }),
    queryClient,
  );
  await waitFor(() => expect(view.container.textContent).toBe("[] idle"));
  start();
  await waitFor(() => expect(view.container.textContent).toBe("[] pending"));
  cancel();
  await waitFor(() => expect(view.container.textContent).toBe("[] aborted retryable=false"));
  expect(await client.listDocuments({ tenantId: "t-1" })).toEqual([]);
  await view.unmount();
});
