// `retryable` is one rule (issue 54, 2), core/src/error.rs's `retryable`: `new ApiError({ kind,
// status })` derives, for every kind and status, what the Rust rule says for a read; and the
// client resends exactly what the rule calls retryable (a read after GraphQL 429, REST 408, 429,
// 500, 503, and not after 404; a registration after 429 and 503 only), so an error's `retryable`
// and the attempts behind it never disagree. Against pkg/ (`make test-node`).
import test from "node:test";
import assert from "node:assert/strict";
import { workspaceBin } from "../../scripts/local.mjs";

const pkg = new URL("../../pkg/", import.meta.url);
const { Client, ApiError } = await import(new URL("estatekit.node.js", pkg).href);

const BASE = "https://acme.example.com";
const RETRY = { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 1 };
const json = (status, body) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

test("new ApiError({ kind, status }) derives the Rust rule's retryable for every kind and status", () => {
  const table = workspaceBin("error-model", ["--table"])
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line));
  assert.ok(table.length > 13 * 1, "the table lists every kind");
  const disagree = table.filter(([kind, status, retryable]) => new ApiError({ kind, status: status ?? undefined }).retryable !== retryable);
  assert.deepEqual(disagree.slice(0, 5), [], `${disagree.length} (kind, status) pairs disagree with core's retryable`);
});

/** A client whose every request is answered by `answer`, counting the requests. */
function counted(answer) {
  const sent = { count: 0 };
  const client = new Client({
    baseUrl: BASE,
    token: "tok-0123456789abcdef",
    retry: RETRY,
    fetch: async () => {
      sent.count += 1;
      return answer();
    },
  });
  return { client, sent };
}

for (const [name, call, status, body] of [
  ["GraphQL 429", (c) => c.listMessages({ candidateId: "cand-1" }), 429, { errors: [{ message: "slow down" }] }],
  ["REST 408", (c) => c.listWebhooks(), 408, { code: "timeout" }],
  ["REST 429", (c) => c.listWebhooks(), 429, { code: "rate_limited" }],
  ["REST 500", (c) => c.listWebhooks(), 500, { code: "server_error" }],
  ["REST 503", (c) => c.listWebhooks(), 503, { code: "unavailable" }],
  ["REST 404", (c) => c.getDocument("doc-1"), 404, { code: "not_found" }],
]) {
  test(`a read answered ${name}: retryable exactly when the client resent it`, async () => {
    const { client, sent } = counted(() => json(status, body));
    const e = await call(client).catch((error) => error);
    assert.ok(e instanceof ApiError, String(e));
    assert.equal(e.status, status);
    const expected = new ApiError({ kind: e.kind, status }).retryable;
    assert.equal(e.retryable, expected, `${name}: the client's retryable is the constructor's`);
    assert.equal(sent.count, e.retryable ? RETRY.maxRetries + 1 : 1, `${name}: resent exactly when retryable`);
    assert.equal(e.attempts, sent.count);
  });
}

for (const [status, retryable] of [
  [429, true],
  [503, true],
  [500, false],
  [502, false],
  [408, false],
]) {
  test(`a registration answered ${status}: ${retryable ? "resent (the service did not act)" : "sent once, not retryable"}`, async () => {
    const { client, sent } = counted(() => json(status, { code: "x" }));
    const e = await client.registerWebhook({ type: "UNIT_CREATED", url: "https://hooks.example.com/u" }).catch((error) => error);
    assert.ok(e instanceof ApiError, String(e));
    assert.equal(e.retryable, retryable);
    assert.equal(sent.count, retryable ? RETRY.maxRetries + 1 : 1);
  });
}

test("a registration without an answer is sent once and not retryable; a read is resent", async () => {
  const failing = () => {
    throw new TypeError("fetch failed");
  };
  const write = counted(failing);
  const e = await write.client.registerWebhook({ type: "UNIT_CREATED", url: "https://hooks.example.com/u" }).catch((error) => error);
  assert.equal(e.kind, "network");
  assert.equal(e.retryable, false);
  assert.equal(write.sent.count, 1);
  const read = counted(failing);
  const r = await read.client.listWebhooks().catch((error) => error);
  assert.equal(r.kind, "network");
  assert.equal(r.retryable, true);
  assert.equal(read.sent.count, RETRY.maxRetries + 1);
});
