// estatekit/query's keys, against pkg/ (`make test-node`): `estatekitKeys(client)` is generated
// from the factories (vocab/src/query.rs, the GENERATED block of js/query.js), and its keys stay
// these arrays, which the persisted caches and `invalidateQueries` calls of applications hold:
// a change here is a breaking change of estatekit/query.
import test from "node:test";
import assert from "node:assert/strict";

const query = await import(new URL("../../pkg/query.js", import.meta.url).href);
const BASE = "https://acme.example.com";
const client = { baseUrl: BASE };
const all = ["estatekit", BASE];

test("estatekitKeys gives every resource's keys, in this order", () => {
  const keys = query.estatekitKeys(client);
  assert.deepEqual(Object.keys(keys), ["all", "messages", "documents", "webhooks"]);
  assert.deepEqual(Object.keys(keys.messages), ["all", "list", "infinite"]);
  assert.deepEqual(Object.keys(keys.documents), ["all", "list", "infinite", "detail"]);
  assert.deepEqual(Object.keys(keys.webhooks), ["all", "list"]);
  assert.deepEqual(keys.all, all);
});

test("the keys are the arrays they were, the options that say how to send left out", () => {
  const keys = query.estatekitKeys(client);
  const sending = { signal: AbortSignal.timeout(60_000), timeoutMs: 5, onEvent() {}, onProgress() {} };
  const filter = { candidateId: "c-1" };
  assert.deepEqual(keys.messages.all, [...all, "messages"]);
  assert.deepEqual(keys.messages.list(filter, { fields: ["id"], ...sending }), [
    ...all, "messages", "list", { filter, fields: ["id"] },
  ]);
  assert.deepEqual(keys.messages.infinite(filter, { pageSize: 3, ...sending }), [
    ...all, "messages", "infinite", { filter, pageSize: 3 },
  ]);
  assert.deepEqual(keys.documents.all, [...all, "documents"]);
  assert.deepEqual(keys.documents.list(), [...all, "documents", "list", {}]);
  assert.deepEqual(keys.documents.list({ tenantId: "t-1" }), [...all, "documents", "list", { tenantId: "t-1" }]);
  assert.deepEqual(keys.documents.infinite(undefined, 5), [...all, "documents", "infinite", { pageSize: 5 }]);
  assert.deepEqual(keys.documents.infinite({ tenantId: "t-1" }), [
    ...all, "documents", "infinite", { tenantId: "t-1", pageSize: undefined },
  ]);
  assert.deepEqual(keys.documents.detail("doc-1"), [...all, "documents", "detail", "doc-1"]);
  assert.deepEqual(keys.webhooks.all, [...all, "webhooks"]);
  assert.deepEqual(keys.webhooks.list(), [...all, "webhooks", "list"]);
});

test("the factories use the keys, and the mutations invalidate their resource", () => {
  const keys = query.estatekitKeys(client);
  assert.deepEqual(query.getDocumentQueryOptions(client, "doc-1").queryKey, keys.documents.detail("doc-1"));
  assert.deepEqual(query.listWebhooksQueryOptions(client).queryKey, keys.webhooks.list());
  assert.deepEqual(query.listDocumentsQueryOptions(client, { tenantId: "t-1" }).queryKey, keys.documents.list({ tenantId: "t-1" }));
  assert.deepEqual(query.listDocumentsInfiniteQueryOptions(client, undefined, { pageSize: 2 }).queryKey, keys.documents.infinite(undefined, 2));
  for (const [factory, resource, verb] of [
    ["uploadDocumentMutationOptions", "documents", "upload"],
    ["deleteDocumentMutationOptions", "documents", "delete"],
    ["registerWebhookMutationOptions", "webhooks", "register"],
    ["ensureWebhookMutationOptions", "webhooks", "ensure"],
    ["deleteWebhookMutationOptions", "webhooks", "delete"],
  ]) {
    const options = query[factory](client);
    assert.deepEqual(options.mutationKey, [...all, resource, verb], factory);
    assert.deepEqual(options.meta.invalidates, [[...all, resource]], factory);
  }
});

test("estatekitKeys still refuses what is not a client", () => {
  for (const given of [undefined, null, {}, { baseUrl: 1 }, "https://acme.example.com"]) {
    assert.throws(() => query.estatekitKeys(given), (e) => e.kind === "invalid_input" && /invalid client/.test(e.message));
  }
});
