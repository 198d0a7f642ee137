// One rule for refused input (docs/errors.md, "Refused input"), against pkg/ (`make test-node`):
// every entry, given one wrong input where it throws at once and one where it rejects a call,
// refuses with the one documented shape: an ApiError of kind invalid_input (the main entry's
// class, never a TypeError) whose message names the field; what returns no promise throws, what
// returns a promise rejects and never throws.
import test from "node:test";
import assert from "node:assert/strict";

const pkg = new URL("../../pkg/", import.meta.url).href;
const { Client, ApiError, isApiError } = await import(`${pkg}estatekit.node.js`);
const auth = await import(`${pkg}auth.node.js`);
const { createMemoryStore, createRedisStore } = await import(`${pkg}store.js`);
const query = await import(`${pkg}query.js`);
const { createTestService } = await import(`${pkg}testing.node.js`);
const { createWebhookHandler, webhookProcessor } = await import(`${pkg}webhooks.node.js`);
const { instrument } = await import(`${pkg}otel.js`);

const BASE = "https://acme.example.com";
const OAUTH = { baseUrl: BASE, clientId: "dev-client", clientSecret: "s3cret-client-XYZ" };
const client = new Client({ baseUrl: BASE, token: "t", fetch: () => Promise.reject(new Error("nothing is sent")) });

/** The one documented shape, naming `field`. */
function assertRefused(e, field, where) {
  assert.ok(isApiError(e), `${where}: ${e?.constructor?.name}: ${e?.message}`);
  assert.ok(e instanceof ApiError, `${where}: the main entry's ApiError`);
  assert.ok(!(e instanceof TypeError), where);
  assert.equal(e.kind, "invalid_input", where);
  assert.ok(e.message.includes(field), `${where}: "${e.message}" names ${field}`);
}

/** [entry, what is called, the field the refusal names, the call]: each throws at once. */
const THROWN = [
  ["estatekit", "new Client", "options.baseUrl", () => new Client({ baseUrl: "http://acme.example.com", token: "t" })],
  ["estatekit", "ApiError.fromJSON", "json", () => ApiError.fromJSON({ message: "no kind" })],
  ["estatekit/auth", "createTokenProvider", "options.baseUrl", () => auth.createTokenProvider({ ...OAUTH, baseUrl: "ftp://x", refreshToken: "r" })],
  ["estatekit/auth", "authjsProvider", "options.clientSecret", () => auth.authjsProvider({ ...OAUTH, clientSecret: "" })],
  ["estatekit/auth", "toTokenSet", "account", () => auth.toTokenSet(null)],
  ["estatekit/store", "createRedisStore", "createRedisStore", () => createRedisStore({})],
  ["estatekit/query", "listWebhooksQueryOptions", "client", () => query.listWebhooksQueryOptions(undefined)],
  ["estatekit/webhooks", "createWebhookHandler", "`on`", () => createWebhookHandler({ on: 5 })],
  ["estatekit/webhooks", "createWebhookHandler (queued)", "`queue`", () => createWebhookHandler({ queue: {} })],
  ["estatekit/webhooks", "webhookProcessor", "`on`", () => webhookProcessor({})],
  ["estatekit/otel", "instrument", "instrument", () => instrument({})],
];

/** The same for calls that return a promise: each rejects, never throws. */
const REJECTED = [
  ["estatekit", "client.getDocument", "documentId", () => client.getDocument("")],
  ["estatekit/auth", "passwordGrant", "credentials.password", () => auth.passwordGrant(OAUTH, { username: "u" })],
  ["estatekit/auth", "createTokenProvider().getToken", "options.password", () => auth.createTokenProvider({ ...OAUTH, username: "u" }).getToken()],
  ["estatekit/store", "createMemoryStore().claim", "key", () => createMemoryStore().claim("", 10)],
  ["estatekit/testing", "createTestService", "bogus", () => createTestService({ bogus: 1 })],
];

const ENTRIES = ["estatekit", "estatekit/auth", "estatekit/otel", "estatekit/query", "estatekit/store", "estatekit/testing", "estatekit/webhooks"];

test("the tables cover every entry", () => {
  assert.deepEqual([...new Set([...THROWN, ...REJECTED].map(([entry]) => entry))].sort(), ENTRIES);
});

test("what returns no promise throws the refusal at once, in every entry", () => {
  const entries = new Set();
  for (const [entry, what, field, call] of THROWN) {
    let thrown;
    try {
      call();
    } catch (e) {
      thrown = e;
    }
    assert.ok(thrown !== undefined, `${entry} ${what}: throws`);
    assertRefused(thrown, field, `${entry} ${what}`);
    entries.add(entry);
  }
  // Every entry but estatekit/testing, whose functions all return promises.
  assert.deepEqual([...entries].sort(), ENTRIES.filter((e) => e !== "estatekit/testing"));
});

test("what returns a promise rejects with the refusal and never throws, in every entry", async () => {
  for (const [entry, what, field, call] of REJECTED) {
    let returned;
    assert.doesNotThrow(() => (returned = call()), `${entry} ${what}`);
    assert.ok(returned instanceof Promise, `${entry} ${what}: a promise`);
    assertRefused(await returned.then(() => undefined, (e) => e), field, `${entry} ${what}`);
  }
  // A test service's helpers refuse alike (its `fetch` rejects as fetch does: not input).
  const service = await createTestService();
  try {
    assertRefused(await service.settled({ timeoutMs: -1 }).then(() => undefined, (e) => e), "timeoutMs", "service.settled");
    assertRefused(await service.seed({ documents: [{ type: "NOPE" }] }).then(() => undefined, (e) => e), "documents[0].type", "service.seed");
  } finally {
    service.close();
  }
});
