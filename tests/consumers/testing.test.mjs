// estatekit/testing in Node 20, imported from the packed tarball as an app's tests import it
// (tests/consumers/testing/): createTestService's options refused by name, the in-process
// fetch (other origins, closed services, oversized bodies), separate state per service, and
// every helper's round trip, with a Client sending through `fetch: service.fetch`.
import test from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { installPacked, root } from "./lib.mjs";

const dir = `${root}tests/consumers/testing`;
installPacked(dir);
// Resolved from the consumer project, through the package's exports (./testing, "default").
const resolve = createRequire(`${dir}/package.json`).resolve;
const { createTestService, TestService } = await import(pathToFileURL(resolve("estatekit/testing")).href);
const { Client, isApiError } = await import(pathToFileURL(resolve("estatekit")).href);

const WEBHOOKS = "/api/external-integrations/webhooks";
const clientOf = (service, options = {}) =>
  new Client({ baseUrl: service.baseUrl, token: service.token, fetch: service.fetch, ...options });
const rejection = (promise) =>
  promise.then(
    () => assert.fail("expected a rejection"),
    (e) => e,
  );
/** Refused input, as every entry refuses it (docs/errors.md): an ApiError of kind invalid_input. */
const refused = (e) => isApiError(e) && e.kind === "invalid_input";
test.describe("createTestService options", () => {
  test.it("a service with no options answers on its origin with its token", async () => {
    const service = await createTestService();
    assert.ok(service instanceof TestService);
    assert.equal(service.baseUrl, "https://acme.estatekit.test");
    assert.equal(service.token, "dev-token");
    assert.deepEqual(service.tokens, ["dev-token"]);
    assert.ok(Object.isFrozen(service));
    assert.deepEqual(await clientOf(service).listWebhooks(), []);
    service.close();
  });

  test.it("takes every option", async () => {
    const service = await createTestService({
      baseUrl: "http://127.0.0.1:1",
      tokens: ["t-1", "t-2"],
      seed: 7,
      seedMessages: 3,
      seedDocuments: 2,
      rateLimit: 0,
      maxUploadMb: 2,
      deliveryBackoffMs: 10,
      deliver: async () => new Response(null, { status: 204 }),
    });
    assert.equal(service.baseUrl, "http://127.0.0.1:1");
    assert.equal(service.token, "t-1");
    assert.deepEqual(service.tokens, ["t-1", "t-2"]);
    const client = clientOf(service);
    assert.equal((await client.listDocuments()).length, 2);
    assert.equal((await client.listMessages({ candidateId: "cand-bulk" }, { fields: ["id"] })).length, 3);
    service.close();
  });

  // [options, the option named in the refusal's message]
  const REFUSED = [
    [42, /options must be an object/],
    ["dev-token", /options must be an object/],
    [[], /options must be an object/],
    [{ bogus: 1 }, /unknown option `bogus`/],
    [{ baseURL: "https://a.test" }, /unknown option `baseURL`/],
    [{ baseUrl: 42 }, /options\.baseUrl: .*expected a string/],
    [{ baseUrl: "ftp://acme.test" }, /options\.baseUrl: .*http or https origin/],
    [{ baseUrl: "https://acme.test/api" }, /options\.baseUrl: .*origin only/],
    [{ baseUrl: "acme.test" }, /options\.baseUrl: .*not an absolute URL/],
    [{ tokens: "dev-token" }, /options\.tokens: expected an array of strings/],
    [{ tokens: [1] }, /options\.tokens: .*expected a string/],
    [{ tokens: [] }, /options\.tokens: give at least one token/],
    [{ tokens: ["with space"] }, /options\.tokens\[0\]/],
    [{ tokens: ["readonly-token"] }, /options\.tokens: .*give a token that may write/],
    [{ seed: "42" }, /options\.seed: .*expected a non-negative integer/],
    [{ seed: -1 }, /options\.seed: .*expected a non-negative integer/],
    [{ seedMessages: 1.5 }, /options\.seedMessages: .*expected a non-negative integer/],
    [{ seedDocuments: "3" }, /options\.seedDocuments: .*expected a non-negative integer/],
    [{ rateLimit: -5 }, /options\.rateLimit: .*expected a non-negative integer/],
    [{ maxUploadMb: "1" }, /options\.maxUploadMb: .*expected a non-negative integer/],
    [{ deliveryBackoffMs: true }, /options\.deliveryBackoffMs: .*expected a non-negative integer/],
    [{ deliver: "https://hooks.test" }, /options\.deliver must be a function/],
    [{ deliver: {} }, /options\.deliver must be a function/],
    [{ rateLimitWindowMs: 0 }, /options\.rateLimitWindowMs: must be at least 1/],
    [{ accessTokenTtlMs: 0 }, /options\.accessTokenTtlMs: must be at least 1/],
    [{ accessTokenTtlMs: "1000" }, /options\.accessTokenTtlMs: .*expected a non-negative integer/],
    [{ rotateRefreshTokens: "yes" }, /options\.rotateRefreshTokens: .*expected a boolean/],
    [{ signInPage: "yes" }, /options\.signInPage: .*expected a boolean/],
    [{ codeTtlMs: 0 }, /options\.codeTtlMs: must be at least 1/],
    [{ oauthClients: { clientId: "a", clientSecret: "b" } }, /options\.oauthClients: expected an array/],
    [{ oauthClients: [] }, /options\.oauthClients: give at least one client/],
    [{ oauthClients: [{ clientId: "a" }] }, /options\.oauthClients: .*clientSecret/],
    [{ oauthClients: [{ clientId: "a", clientSecret: "" }] }, /options\.oauthClients\[0\]: the client secret/],
    [{ users: [] }, /options\.users: give at least one user/],
    [{ users: [{ username: "a@x.test", password: "p", extra: 1 }] }, /options\.users\[0\]: unknown key `extra`/],
    [{ users: [{ username: "a b", password: "p" }] }, /options\.users\[0\]: the user name/],
    [{ users: ["a@x.test:p"] }, /options\.users\[0\]: expected \{ username, password, token\? \}/],
    [{ secondOrigin: "ftp://other.test" }, /options\.secondOrigin: .*http or https origin/],
    [{ secondOrigin: "https://acme.estatekit.test" }, /options\.secondOrigin: .*is the service's origin/],
    [{ loopbackOnly: "yes" }, /options\.loopbackOnly: .*expected a boolean/],
  ];
  for (const [options, message] of REFUSED) {
    test.it(`refuses ${JSON.stringify(options)} (ApiError invalid_input) naming it`, async () => {
      const e = await rejection(createTestService(options));
      assert.ok(refused(e), `${e?.constructor?.name}: ${e?.message}`);
      assert.match(e.message, /^createTestService: /);
      assert.match(e.message, message);
      // In the caller's words, never serde's.
      assert.doesNotMatch(e.message, /invalid type|floating point|\bu(8|16|32|64)\b|\bsequence\b|unit value/);
    });
  }
});

test.describe("tokens (/accounts/oauth/token)", () => {
  const grant = (service, body) =>
    service.fetch(`${service.baseUrl}/accounts/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  const PASSWORD_GRANT = {
    grant_type: "password",
    username: "admin@acme.test",
    password: "dev-password",
    client_id: "dev-client",
    client_secret: "dev-secret",
    scope: "offline_access *",
  };

  test.it("issues tokens that reach dev-token's account, expire, and are counted", async () => {
    const service = await createTestService({ accessTokenTtlMs: 300 });
    const r = await grant(service, PASSWORD_GRANT);
    assert.equal(r.status, 200);
    const set = await r.json();
    assert.equal(set.token_type, "Bearer");
    assert.equal(set.expires_in, 0.3, "the lifetime exactly, in seconds");
    assert.equal(set.access_token.split(".").length, 3);
    await clientOf(service).registerWebhook({ type: "UNIT_CREATED", url: "https://hooks.test/a" });
    const issued = clientOf(service, { token: set.access_token, retry: { maxRetries: 0 } });
    assert.equal((await issued.listWebhooks()).length, 1, "the same data as dev-token");
    await new Promise((done) => setTimeout(done, 400));
    const e = await rejection(issued.listWebhooks());
    assert.equal(e.status, 401);
    assert.doesNotMatch(JSON.stringify(await service.requests()), /dev-secret|dev-password/);
    const counts = await service.oauth();
    assert.deepEqual(counts.grants, { password: 1, refresh_token: 0, authorization_code: 0 });
    assert.deepEqual(counts.refreshTokens, { "admin@acme.test": 1 });
    assert.equal(counts.accessTokenTtlMs, 300);
    service.close();
  });

  test.it("takes its own clients and users; revokeRefreshTokens makes a refresh fail", async () => {
    const service = await createTestService({
      tokens: ["t-1"],
      oauthClients: [{ clientId: "app", clientSecret: "app-secret" }],
      users: [{ username: "me@x.test", password: "pw" }],
      rotateRefreshTokens: true,
    });
    assert.equal((await grant(service, PASSWORD_GRANT)).status, 401, "the defaults are replaced");
    const set = await (
      await grant(service, { grant_type: "password", username: "me@x.test", password: "pw", client_id: "app", client_secret: "app-secret" })
    ).json();
    const refresh = { grant_type: "refresh_token", refresh_token: set.refresh_token, client_id: "app", client_secret: "app-secret" };
    const rotated = await (await grant(service, refresh)).json();
    assert.equal(typeof rotated.refresh_token, "string");
    assert.equal((await grant(service, refresh)).status, 403, "the used one is deleted");
    assert.equal(await service.revokeRefreshTokens("me@x.test"), 1);
    const r = await grant(service, { ...refresh, refresh_token: rotated.refresh_token });
    assert.equal(r.status, 403);
    assert.equal((await r.json()).error, "invalid_grant");
    await rejection(service.revokeRefreshTokens("nobody@x.test")).then((e) => assert.ok(refused(e), String(e)));
    const counts = await service.oauth();
    assert.deepEqual(counts.rejected, { password: 1, refresh_token: 2, authorization_code: 0 });
    await service.reset();
    assert.deepEqual((await service.oauth()).grants, { password: 0, refresh_token: 0, authorization_code: 0 });
    service.close();
  });
});

test.describe("service.fetch", () => {
  test.it("rejects a request to another origin with a TypeError, sending nothing", async () => {
    const service = await createTestService();
    for (const url of [`https://other.test${WEBHOOKS}`, `http://acme.estatekit.test${WEBHOOKS}`, `https://acme.estatekit.test:8443${WEBHOOKS}`]) {
      const e = await rejection(
        service.fetch(url, {
          method: "POST",
          headers: { authorization: `Bearer ${service.token}`, "content-type": "application/json" },
          body: JSON.stringify({ type: "UNIT_CREATED", url: "https://hooks.test/a" }),
        }),
      );
      assert.ok(e instanceof TypeError, String(e));
      assert.match(e.message, /not this service's origin/);
    }
    assert.deepEqual(await service.requests(), []);
    assert.deepEqual(await clientOf(service).listWebhooks(), []);
    // A client pointed elsewhere gets a network error, and nothing reaches the service.
    const elsewhere = new Client({ baseUrl: "https://other.test", token: service.token, fetch: service.fetch, retry: { maxRetries: 0 } });
    const e = await rejection(elsewhere.listWebhooks());
    assert.equal(isApiError(e), true);
    assert.equal(e.kind, "network");
    assert.equal((await service.requests()).length, 1, "only the listWebhooks above");
    service.close();
  });

  test.it("secondOrigin: answers on it too, with the same state, and names it in /_emulator/info", async () => {
    const service = await createTestService({ secondOrigin: "http://127.0.0.1:2" });
    const headers = { authorization: `Bearer ${service.token}`, "content-type": "application/json" };
    const r = await service.fetch(`http://127.0.0.1:2${WEBHOOKS}`, {
      method: "POST",
      headers,
      body: JSON.stringify({ type: "UNIT_CREATED", url: "https://hooks.test/a" }),
    });
    assert.equal(r.status, 200);
    assert.equal((await clientOf(service).listWebhooks()).length, 1);
    const info = await (await service.fetch(`${service.baseUrl}/_emulator/info`)).json();
    assert.equal(info.secondOrigin, "http://127.0.0.1:2");
    assert.equal((await service.requests())[0].host, "127.0.0.1:2");
    await rejection(service.fetch(`http://127.0.0.1:3${WEBHOOKS}`, { headers }));
    service.close();
  });

  test.it("answers a Request object, a URL and a string alike", async () => {
    const service = await createTestService();
    const headers = { authorization: `Bearer ${service.token}` };
    const answers = await Promise.all([
      service.fetch(new Request(`${service.baseUrl}${WEBHOOKS}`, { headers })),
      service.fetch(new URL(WEBHOOKS, service.baseUrl), { headers }),
      service.fetch(`${service.baseUrl}${WEBHOOKS}`, { headers }),
    ]);
    for (const r of answers) {
      assert.ok(r instanceof Response);
      assert.equal(r.status, 200);
      assert.deepEqual(await r.json(), []);
    }
    const unauthorized = await service.fetch(`${service.baseUrl}${WEBHOOKS}`);
    assert.equal(unauthorized.status, 401);
    service.close();
  });

  test.it("refuses an upload over maxUploadMb with a 413 and adds no document", async () => {
    const service = await createTestService({ maxUploadMb: 1 });
    const client = clientOf(service);
    const before = await client.listDocuments();
    const file = new Blob([new Uint8Array(2 * 1024 * 1024)], { type: "application/pdf" });
    const e = await rejection(client.uploadDocument({ file, resourcePath: "tenants/t-1", name: "big.pdf" }));
    assert.equal(isApiError(e), true);
    assert.equal(e.kind, "http");
    assert.equal(e.status, 413);
    assert.deepEqual(await client.listDocuments(), before);
    // Just under the limit is stored.
    const small = new Blob([new Uint8Array(512 * 1024)], { type: "application/pdf" });
    const record = await client.uploadDocument({ file: small, resourcePath: "tenants/t-1", name: "small.pdf" });
    assert.equal(record.size, 512 * 1024);
    assert.equal((await client.listDocuments()).length, before.length + 1);
    service.close();
  });

  test.it("close() makes fetch and every helper reject; close() twice is harmless", async () => {
    const service = await createTestService();
    const client = clientOf(service, { retry: { maxRetries: 0 } });
    await client.listWebhooks();
    service.close();
    service.close();
    const e = await rejection(service.fetch(`${service.baseUrl}${WEBHOOKS}`));
    assert.ok(e instanceof TypeError);
    assert.match(e.message, /closed/);
    // fetch rejects as fetch does (TypeError); the helpers as refused input do.
    for (const call of [() => service.requests(), () => service.seed({}), () => service.emit("UNIT_CREATED"), () => service.reset()]) {
      assert.ok(refused(await rejection(call())));
    }
    assert.throws(() => service.tokens, /closed/);
    assert.equal(service.baseUrl, "https://acme.estatekit.test", "plain fields stay readable");
    const failed = await rejection(client.listWebhooks());
    assert.equal(failed.kind, "network");
  });

  test.it("Symbol.dispose closes the service", async () => {
    // What `using service = await createTestService()` does at the end of its block (Node 20
    // has no `using`).
    const kept = await createTestService();
    kept[Symbol.dispose]();
    assert.ok((await rejection(kept.fetch(`${kept.baseUrl}${WEBHOOKS}`))) instanceof TypeError);
  });
});

test.describe("state", () => {
  test.it("two services have separate state", async () => {
    const [a, b] = await Promise.all([createTestService(), createTestService()]);
    const [ca, cb] = [clientOf(a), clientOf(b, { retry: { maxRetries: 0 } })];
    const id = await ca.registerWebhook({ type: "UNIT_CREATED", url: "https://hooks.test/a" });
    await b.addFaults({ path: WEBHOOKS, status: 500, times: 5 });
    assert.deepEqual((await ca.listWebhooks()).map((w) => w.id), [id]);
    assert.equal((await rejection(cb.listWebhooks())).status, 500);
    assert.equal((await a.faults()).length, 0);
    assert.equal((await b.faults()).length, 1);
    assert.deepEqual((await a.requests()).map((r) => r.method), ["POST", "GET"]);
    a.close();
    assert.equal((await b.requests()).length, 1, "b still answers after a is closed");
    b.close();
  });

  test.it("seed adds documents, messages and webhooks; reset goes back to the initial state", async () => {
    const service = await createTestService();
    const client = clientOf(service);
    const seeded = await service.seed({
      documents: [{ type: "CONTRACT", title: "Lease.pdf", tenantId: "t-1", content: "lease" }],
      messages: [{ candidateId: "cand-9", text: "Hello", attachments: ["id.pdf"] }],
      webhooks: [{ type: "UNIT_CREATED", url: "https://hooks.test/units" }],
    });
    assert.equal(seeded.documentIds.length, 1);
    assert.equal(seeded.messageIds.length, 1);
    assert.equal(seeded.webhookIds.length, 1);
    const [doc] = await client.listDocuments({ tenantId: "t-1" });
    assert.equal(doc.id, seeded.documentIds[0]);
    assert.equal(doc.title, "Lease.pdf");
    assert.equal(doc.size, 5);
    const [message] = await client.listMessages({ candidateId: "cand-9" });
    assert.equal(message.id, seeded.messageIds[0]);
    assert.equal(message.text, "Hello");
    assert.deepEqual(message.attachments.map((a) => a.name), ["id.pdf"]);
    assert.deepEqual((await client.listWebhooks()).map((w) => w.id), seeded.webhookIds);

    await service.reset();
    assert.deepEqual(await client.listDocuments({ tenantId: "t-1" }), []);
    assert.deepEqual(await client.listMessages({ candidateId: "cand-9" }), []);
    assert.deepEqual(await client.listWebhooks(), []);
    assert.deepEqual((await service.requests()).length, 3, "reset forgot the requests before it");
    service.close();
  });

  test.it("starts from the CLI's seed (the same 3 documents on prop-bulk); seedDocuments: 0 starts empty", async () => {
    const service = await createTestService();
    const seeded = (await clientOf(service).listDocuments()).map((d) => [d.title, d.propertyId]);
    assert.deepEqual(seeded, [["bulk-1.pdf", "prop-bulk"], ["bulk-2.pdf", "prop-bulk"], ["bulk-3.pdf", "prop-bulk"]]);
    service.close();
    const empty = await createTestService({ seedDocuments: 0 });
    assert.deepEqual(await clientOf(empty).listDocuments(), []);
    empty.close();
  });

  test.it("seed is all or none, and a bad entry is refused (ApiError invalid_input) naming it", async () => {
    const service = await createTestService({ seedDocuments: 0 });
    const e = await rejection(service.seed({ documents: [{ type: "CONTRACT" }, { type: "NOPE" }] }));
    assert.ok(refused(e));
    assert.match(e.message, /documents\[1\]\.type/);
    const e2 = await rejection(
      service.seed({ webhooks: [{ type: "UNIT_CREATED", url: "https://hooks.test/1" }, { type: "NOPE", url: "https://hooks.test/2" }] }),
    );
    assert.ok(refused(e2));
    assert.match(e2.message, /NOPE/);
    assert.deepEqual(await clientOf(service).listDocuments(), []);
    assert.deepEqual(await clientOf(service).listWebhooks(), []);
    service.close();
  });

  test.it("faults: added, listed, used up, cleared", async () => {
    const service = await createTestService();
    const client = clientOf(service, { retry: { maxRetries: 0 } });
    await service.addFaults([
      { method: "GET", path: WEBHOOKS, status: 503, times: 2 },
      { path: "/api/file-storage/*", status: 404, body: '{"message":"gone"}', contentType: "application/json" },
    ]);
    assert.deepEqual(
      (await service.faults()).map((f) => [f.method, f.path, f.times, f.status]),
      [
        ["GET", WEBHOOKS, 2, 503],
        [undefined, "/api/file-storage/*", 1, 404],
      ],
    );
    assert.equal((await rejection(client.listWebhooks())).status, 503);
    assert.equal((await service.faults())[0].times, 1);
    await service.clearFaults();
    assert.deepEqual(await service.faults(), []);
    assert.deepEqual(await client.listWebhooks(), []);
    assert.ok(refused(await rejection(service.addFaults({ path: WEBHOOKS, bogus: 1 }))));
    service.close();
  });

  test.it("a fault's headers (a plain object) reach the client: Retry-After on a 429", async () => {
    const service = await createTestService();
    await service.addFaults({ path: "/api/reporting/graphql", status: 429, headers: { "retry-after": "30" } });
    const e = await rejection(clientOf(service, { retry: { maxRetries: 0 } }).listMessages({ candidateId: "cand-1" }));
    assert.equal(e.kind, "rate_limited");
    assert.equal(e.retryAfterMs, 30_000);
    service.close();
  });

  test.it("a drop fault rejects fetch with a TypeError: a network error for the client", async () => {
    const service = await createTestService();
    await service.addFaults({ path: WEBHOOKS, drop: true });
    const e = await rejection(clientOf(service, { retry: { maxRetries: 0 } }).listWebhooks());
    assert.equal(e.kind, "network");
    service.close();
  });

  test.it("requests: recorded without the token's value, cleared", async () => {
    const service = await createTestService();
    const client = clientOf(service);
    await client.listDocuments({ tenantId: "t 1" });
    await client.uploadDocument({ file: new Blob(["abc"]), resourcePath: "tenants/t-1", name: "a.txt" });
    const records = await service.requests();
    assert.deepEqual(
      records.map((r) => [r.method, r.path, r.host, r.hasAuthorization]),
      [
        ["GET", "/api/file-storage/company/documents/metadata", "acme.estatekit.test", true],
        ["POST", "/api/file-storage/company/documents", "acme.estatekit.test", true],
      ],
    );
    assert.match(records[0].query, /tenantId=t%201/);
    assert.match(records[1].contentType, /^multipart\/form-data; boundary=/);
    assert.doesNotMatch(JSON.stringify(records), /dev-token/);
    await service.clearRequests();
    assert.deepEqual(await service.requests(), []);
    service.close();
  });

  test.it("setRateLimit and addAccount", async () => {
    const service = await createTestService();
    await service.setRateLimit(2);
    const client = clientOf(service, { retry: { maxRetries: 0 } });
    await client.listWebhooks();
    await client.listWebhooks();
    const e = await rejection(client.listWebhooks());
    assert.equal(e.kind, "rate_limited");
    await service.setRateLimit(0);
    const account = await service.addAccount("second-token");
    assert.equal(account.token, "second-token");
    assert.deepEqual(service.tokens, ["dev-token", "second-token"]);
    const second = new Client({ baseUrl: service.baseUrl, token: "second-token", fetch: service.fetch });
    await second.registerWebhook({ type: "OWNER_CREATED", url: "https://hooks.test/second" });
    assert.equal((await second.listWebhooks()).length, 1);
    assert.deepEqual(await client.listWebhooks(), [], "accounts have separate data");
    service.close();
  });
});

test.describe("webhook delivery", () => {
  test.it("emit: deliver receives the envelope; failed attempts are retried and recorded", async () => {
    const calls = [];
    const answers = [new Response("busy", { status: 500 }), new Error("receiver down"), new Response(null, { status: 204 })];
    const service = await createTestService({
      deliveryBackoffMs: 1,
      deliver: async (url, init) => {
        calls.push({ url, init });
        const answer = answers.shift();
        if (answer instanceof Error) throw answer;
        return answer;
      },
    });
    const { webhookIds } = await service.seed({
      webhooks: [
        { type: "UNIT_CREATED", url: "https://hooks.test/units" },
        { type: "UNIT_DELETED", url: "https://hooks.test/deleted" },
      ],
    });
    const emitted = await service.emit("UNIT_CREATED", { data: { unitId: "unit-1" } });
    assert.equal(emitted.webhooks, 1);
    await service.settled();
    assert.equal(calls.length, 3);

    const { url, init } = calls[0];
    assert.equal(url, "https://hooks.test/units");
    assert.equal(init.method, "POST");
    assert.match(new Headers(init.headers).get("content-type"), /^application\/json/);
    const envelope = JSON.parse(init.body);
    assert.deepEqual(Object.keys(envelope).sort(), ["createdAt", "data", "language", "operation", "subdomain", "uuid"]);
    assert.equal(envelope.uuid, emitted.uuid);
    assert.equal(envelope.operation, "UNIT_CREATED");
    assert.deepEqual(envelope.data, { unitId: "unit-1" });
    assert.ok(!Number.isNaN(Date.parse(envelope.createdAt)));
    assert.deepEqual(calls.map((c) => c.init.body), Array(3).fill(init.body), "every attempt sends the same envelope");

    // settled(): every attempt finished, retries included; no polling.
    const deliveries = await service.settled();
    assert.deepEqual(await service.deliveries(), deliveries);
    assert.deepEqual(
      deliveries.map((d) => [d.webhookId, d.eventUuid, d.attempt, d.status, d.error === null]),
      [
        [webhookIds[0], emitted.uuid, 1, 500, false],
        [webhookIds[0], emitted.uuid, 2, null, false],
        [webhookIds[0], emitted.uuid, 3, 204, true],
      ],
    );
    assert.match(deliveries[1].error, /receiver down/);
    assert.deepEqual(deliveries[2].body, envelope);
    service.close();
  });

  test.it("settled(): waits for retries; rejects after timeoutMs naming what is still in flight", async () => {
    let release;
    const held = new Promise((resolve) => (release = resolve));
    const service = await createTestService({
      deliveryBackoffMs: 1,
      deliver: async () => (await held, new Response(null, { status: 204 })),
    });
    await service.seed({ webhooks: [{ type: "OWNER_CREATED", url: "http://127.0.0.1:9/owners" }] });
    await service.emit("OWNER_CREATED");
    await assert.rejects(service.settled({ timeoutMs: 0 }), /1 deliveries still in flight after 0 ms/);
    await assert.rejects(service.settled({ timeoutMs: -1 }), { name: "ApiError", kind: "invalid_input" });
    release();
    const deliveries = await service.settled();
    assert.deepEqual(deliveries.map((d) => d.status), [204]);
    assert.deepEqual(await service.settled({ timeoutMs: 0 }), deliveries, "nothing in flight: at once");
    service.close();
  });

  test.it("loopbackOnly: a target that is not loopback is refused once, without calling deliver", async () => {
    const calls = [];
    const service = await createTestService({
      loopbackOnly: true,
      deliveryBackoffMs: 1,
      deliver: async (url) => (calls.push(url), new Response(null, { status: 204 })),
    });
    await service.seed({
      webhooks: [
        { type: "UNIT_CREATED", url: "https://hooks.test/units" },
        { type: "UNIT_CREATED", url: "http://localhost:9/units" },
      ],
    });
    const emitted = await service.emit("UNIT_CREATED");
    const deliveries = await service.settled();
    assert.equal(deliveries.length, 2);
    const byUrl = Object.fromEntries(deliveries.map((d) => [d.url, d]));
    assert.equal(byUrl["http://localhost:9/units"].status, 204);
    assert.equal(byUrl["https://hooks.test/units"].status, null);
    assert.match(byUrl["https://hooks.test/units"].error, /only delivers to loopback hosts/);
    assert.ok(deliveries.every((d) => d.eventUuid === emitted.uuid && d.attempt === 1));
    assert.deepEqual(calls, ["http://localhost:9/units"]);
    service.close();
  });

  test.it("without deliver, deliveries are recorded (status null) and emit's data defaults to an example", async () => {
    const service = await createTestService();
    await clientOf(service).registerWebhook({ type: "PROPERTY_CREATED", url: "https://hooks.test/p" });
    const emitted = await service.emit("PROPERTY_CREATED");
    const [d] = await service.settled();
    assert.equal(d.eventUuid, emitted.uuid);
    assert.equal(d.status, null);
    assert.equal(d.body.operation, "PROPERTY_CREATED");
    assert.notEqual(d.body.data, undefined);
    const e = await rejection(service.emit("NOT_AN_EVENT"));
    assert.ok(refused(e));
    service.close();
  });
});
