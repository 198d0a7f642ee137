// Answers reach the caller exactly as the service sent them, whatever the token (one character,
// a word, a JWT) and wherever it occurs in them (keys and values); what estatekit writes about a
// call (error messages, `details`, `data`, events) hides it. Every operation, through the client's
// `fetch` option (a stand-in service answering canned bodies), against pkg/ (`make test-node`).
import test from "node:test";
import assert from "node:assert/strict";

const { Client, isApiError } = await import(new URL("../../pkg/estatekit.node.js", import.meta.url).href);

const TOKENS = ["t", "test", "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ0ZXN0In0.c2lnbmF0dXJl"];
const BASE = "https://acme.example.com";

/** Records whose keys and values hold `token`. */
function samples(token) {
  const document = {
    id: `doc-${token}`,
    title: `${token}.pdf`,
    resourcePath: `acme/c1/tenants/${token}/doc-${token}`,
    type: "CONTRACT",
    tenantId: token,
    [`x-${token}`]: { [token]: [token, `${token}${token}`] },
  };
  const webhook = {
    id: `wh-${token}`,
    type: "UNIT_CREATED",
    partnerId: "p1",
    companyId: "c1",
    connectedByUserId: "u1",
    url: `https://${token}.example.com/hook?secret=${token}`,
    createdAt: "2026-11-25T10:00:00.000Z",
    updatedAt: "2026-11-25T10:00:00.000Z",
    deletedAt: null,
    [token]: token,
  };
  const message = {
    id: `m-${token}`,
    candidateId: "cand-1",
    sentBy: "CANDIDATE",
    text: `hello ${token}`,
    isRead: false,
    attachments: [{ id: `a-${token}`, name: token, resourcePath: token, type: "text/plain", size: 1 }],
    [token]: { nested: token },
  };
  return { document, webhook, message };
}

/** A `fetch` answering `route(method, path)` ({ status, body, headers }), recording requests. */
function service(route) {
  const seen = [];
  const fetch = async (request) => {
    const url = new URL(request.url);
    seen.push({ method: request.method, path: url.pathname, authorization: request.headers.get("authorization") });
    const { status = 200, body, headers = {} } = route(request.method, url.pathname);
    const text = body === undefined ? null : typeof body === "string" ? body : JSON.stringify(body);
    const type = typeof body === "string" ? "text/plain" : "application/json";
    return new Response(text, { status, headers: text === null ? headers : { "content-type": type, ...headers } });
  };
  return { fetch, seen };
}

for (const token of TOKENS) {
  test.describe(`token ${JSON.stringify(token.length > 8 ? `${token.slice(0, 8)}…` : token)}`, () => {
    const { document, webhook, message } = samples(token);

    test.it("messages: the messages as sent", async () => {
      const s = service(() => ({ body: { data: { messages: [message, null] } } }));
      const client = new Client({ baseUrl: BASE, token, fetch: s.fetch });
      assert.deepEqual(await client.listMessages({ candidateId: "cand-1" }), [message, null]);
      assert.equal(s.seen[0].authorization, `Bearer ${token}`);
    });

    test.it("uploadDocument: the record as sent", async () => {
      const s = service(() => ({ body: document }));
      const client = new Client({ baseUrl: BASE, token, fetch: s.fetch });
      const file = new Blob([token]);
      assert.deepEqual(await client.uploadDocument({ file, resourcePath: `tenants/${token}` }), document);
    });

    test.it("listDocuments: the list as sent (bare and wrapped)", async () => {
      for (const body of [[document, document], { items: [document] }]) {
        const s = service(() => ({ body }));
        const client = new Client({ baseUrl: BASE, token, fetch: s.fetch });
        assert.deepEqual(await client.listDocuments({ tenantId: token }), Array.isArray(body) ? body : body.items);
      }
    });

    test.it("getDocument: the record as sent", async () => {
      const s = service(() => ({ body: document }));
      const client = new Client({ baseUrl: BASE, token, fetch: s.fetch });
      assert.deepEqual(await client.getDocument(document.id), document);
    });

    test.it("deleteDocument: resolves undefined, the id sent as given", async () => {
      const s = service(() => ({ status: 204 }));
      const client = new Client({ baseUrl: BASE, token, fetch: s.fetch });
      assert.equal(await client.deleteDocument(document.id), undefined);
      assert.equal(s.seen[0].path, `/api/file-storage/company/documents/${document.id}`);
    });

    test.it("listWebhooks: the list as sent", async () => {
      const s = service(() => ({ body: [webhook, { ...webhook, id: token }] }));
      const client = new Client({ baseUrl: BASE, token, fetch: s.fetch });
      assert.deepEqual(await client.listWebhooks(), [webhook, { ...webhook, id: token }]);
    });

    test.it("registerWebhook: the id of Location as sent, else the body's", async () => {
      const input = { type: "UNIT_CREATED", url: webhook.url };
      const located = service(() => ({ headers: { location: webhook.id } }));
      const byLocation = new Client({ baseUrl: BASE, token, fetch: located.fetch });
      assert.equal(await byLocation.registerWebhook(input), webhook.id);
      const inBody = service(() => ({ body: { id: `${token}-${token}` } }));
      const byBody = new Client({ baseUrl: BASE, token, fetch: inBody.fetch });
      assert.equal(await byBody.registerWebhook(input), `${token}-${token}`);
    });

    test.it("ensureWebhook: the listed id as sent", async () => {
      const s = service(() => ({ body: [webhook] }));
      const client = new Client({ baseUrl: BASE, token, fetch: s.fetch });
      assert.equal(await client.ensureWebhook({ type: webhook.type, url: webhook.url }), webhook.id);
    });

    test.it("deleteWebhook: resolves undefined, the id sent as given", async () => {
      const s = service(() => ({ status: 204 }));
      const client = new Client({ baseUrl: BASE, token, fetch: s.fetch });
      assert.equal(await client.deleteWebhook(webhook.id), undefined);
      assert.equal(s.seen[0].path, `/api/external-integrations/webhooks/${webhook.id}`);
    });

    test.it("documents() and listMessages(): every item as sent, page by page", async () => {
      const pages = [[document, { ...document, id: token }], [document]];
      const docs = service(() => ({ body: pages.shift() ?? [] }));
      const client = new Client({ baseUrl: BASE, token, fetch: docs.fetch });
      const listed = [];
      for await (const d of client.listDocuments({ tenantId: token }, { pageSize: 2 })) listed.push(d);
      assert.deepEqual(listed, [document, { ...document, id: token }, document]);
      const threads = [[message, message], [null]];
      const msgs = service(() => ({ body: { data: { messages: threads.shift() ?? [] } } }));
      const other = new Client({ baseUrl: BASE, token, fetch: msgs.fetch });
      const read = [];
      for await (const m of other.listMessages({ candidateId: "cand-1" }, { pageSize: 2 })) read.push(m);
      assert.deepEqual(read, [message, message, null]);
    });

    test.it("errors and events hide the token the service echoes", async () => {
      const events = [];
      const s = service((method, path) =>
        path.endsWith("/graphql")
          ? { body: { errors: [{ message: `bad ${token}`, [token]: token }], data: { echo: token } } }
          : path.endsWith("/metadata")
            ? { status: 200, body: `not json ${token}` }
            : { status: 403, body: { code: token, message: `token ${token} refused`, [token]: [token] }, headers: { "x-request-id": `r-${token}` } },
      );
      const client = new Client({ baseUrl: BASE, token, fetch: s.fetch, retry: { maxRetries: 0 }, onEvent: (e) => events.push(e) });
      const failures = [];
      for (const call of [() => client.listWebhooks(), () => client.listMessages({ candidateId: "c" }), () => client.getDocument("d")]) {
        await assert.rejects(call(), (e) => {
          assert.ok(isApiError(e));
          failures.push(e);
          return true;
        });
      }
      const [status, graphql, decode] = failures;
      assert.equal(status.kind, "forbidden");
      assert.equal(graphql.kind, "graphql");
      assert.equal(decode.kind, "decode");
      const written = JSON.stringify([failures.map((e) => [e.message, e.code, e.details, e.data]), events]);
      if (token.length > 1) {
        // (A one-character token occurs in estatekit's own words: its checks are the exact values below.)
        assert.ok(!written.includes(token), written);
        console.log(`error message with the token hidden: ${status.message}`);
      }
      // The token is hidden where it stands as a token of its own (never inside another word:
      // a one-letter token leaves "token" as written); from 16 characters on, everywhere.
      const alone = new RegExp(`(?<![A-Za-z0-9_])${token.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![A-Za-z0-9_])`, "g");
      const hide = (text) => (token.length >= 16 ? text.replaceAll(token, "[redacted]") : text.replace(alone, "[redacted]"));
      if (token.length === 1) assert.equal(status.details.message, `token [redacted] refused`);
      assert.equal(status.code, "[redacted]");
      assert.deepEqual(status.details, { code: "[redacted]", message: hide(`token ${token} refused`), "[redacted]": ["[redacted]"] });
      assert.deepEqual(graphql.details, [{ message: hide(`bad ${token}`), "[redacted]": "[redacted]" }]);
      assert.deepEqual(graphql.data, { echo: "[redacted]" });
      // A text cut short within the token (an excerpt of a long body) keeps no part of it.
      const cut = service(() => ({ status: 200, body: `${"x".repeat(100)}${token}${token}` }));
      const cutting = new Client({ baseUrl: BASE, token, fetch: cut.fetch });
      const excerpt = await cutting.getDocument("d").catch((e) => e);
      assert.equal(excerpt.kind, "decode");
      if (token.length > 20) assert.ok(!excerpt.message.includes(token.slice(0, 20)), excerpt.message);
      assert.ok(decode.message.includes(hide(`not json ${token}`)), decode.message);
      const response = events.find((e) => e.type === "response" && e.requestId !== undefined);
      assert.equal(response?.requestId, "r-[redacted]");
    });
  });
}
