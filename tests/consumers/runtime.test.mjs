// The package's JavaScript wrapper in Node against the emulator: lazy initialisation (once,
// concurrency-safe), constructor semantics before and after it, generic forwarding, the
// pagination iterators, free() and Symbol.dispose. Imports pkg/ as built (fresh module state:
// node --test runs each file in its own process, and the tests below run in order).
import test from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { root, startEmulator } from "./lib.mjs";

const pkg = `${root}pkg/`;
const { default: init, Client, isApiError, ApiError } = await import(`${pkg}estatekit.js`);
const { Client: WasmClient } = await import(`${pkg}estatekit_wasm.js`);

const DOCS = 7;
const BULK_MESSAGES = 25;
let emulator;
let instantiations = 0;
let builtBeforeInit;

async function admin(path, body) {
  const res = await fetch(`${emulator.url}/_emulator/${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  assert.ok(res.ok, `${path}: HTTP ${res.status}`);
  return res.headers.get("content-type")?.includes("json") ? res.json() : undefined;
}
/** API requests of one route since the last reset. */
async function requests(route) {
  const { routes } = await admin("counters");
  return routes[route] ?? 0;
}
const DOCS_ROUTE = "GET /api/file-storage/company/documents/metadata";
const GRAPHQL_ROUTE = "POST /api/reporting/graphql";
const client = () => new Client({ baseUrl: `${emulator.url}/`, token: "dev-token" });
async function collect(iterable) {
  const items = [];
  for await (const item of iterable) items.push(item);
  return items;
}
/** The iterator of a list call (`for await` asks for it the same way). */
const iterate = (pagePromise) => pagePromise[Symbol.asyncIterator]();
async function rejection(promise) {
  return promise.then(
    () => assert.fail("expected a rejection"),
    (e) => e,
  );
}

// A module name under which estatekit's wasm takes its imports (wasm-bindgen's glue module).
const WASM_IMPORT_MODULE = WebAssembly.Module.imports(
  new WebAssembly.Module(readFileSync(`${pkg}estatekit_wasm_bg.wasm`)),
)[0].module;

test.before(async () => {
  emulator = await startEmulator(["--seed-documents", String(DOCS), "--seed-messages", String(BULK_MESSAGES)]);
  const instantiate = WebAssembly.instantiate;
  WebAssembly.instantiate = function (...args) {
    // Only estatekit's module (Node's fetch instantiates its own HTTP parser too).
    if (args[1] && WASM_IMPORT_MODULE in args[1]) instantiations += 1;
    return instantiate.apply(this, args);
  };
});
test.after(() => emulator?.stop());
test.beforeEach(() => emulator && admin("reset", {}));

test.describe("before initialisation", () => {
  test.it("isApiError is a pure check", () => {
    assert.equal(isApiError(new Error("x")), false);
    assert.equal(isApiError({ name: "ApiError", kind: "network" }), false);
    assert.equal(isApiError(Object.assign(new Error("x"), { name: "ApiError", kind: "network" })), true);
  });

  test.it("new Client() throws a wrong base URL at once, does not throw for other invalid options, and loads nothing", () => {
    client();
    builtBeforeInit = new Client({ baseUrl: emulator.url, token: "" });
    for (const baseUrl of ["ftp://nowhere", "http://acme.example.com", undefined]) {
      assert.throws(() => new Client({ baseUrl, token: "t" }), (e) => isApiError(e) && e.kind === "invalid_input" && /baseUrl/.test(e.message));
    }
    assert.equal(instantiations, 0);
  });

  test.it("baseUrl is readable at once, normalised as the module does", () => {
    assert.equal(client().baseUrl, emulator.url);
    assert.equal(new Client({ baseUrl: "HTTPS://Acme.Example.com:443/api//", token: "t" }).baseUrl, "https://acme.example.com/api");
    assert.equal(builtBeforeInit.baseUrl, emulator.url);
    assert.equal(instantiations, 0);
  });

  test.it("concurrent first calls of several clients initialise the module once", async () => {
    const a = client();
    const b = client();
    const [hooksA, hooksB, messages] = await Promise.all([
      a.listWebhooks(),
      b.listWebhooks(),
      a.listMessages({ candidateId: "cand-1" }, { fields: ["id"] }),
    ]);
    assert.deepEqual([hooksA, hooksB], [[], []]);
    assert.ok(messages.length >= 8);
    assert.equal(instantiations, 1);
    assert.equal(a.baseUrl, emulator.url, "normalised by the wasm client once built");
  });
});

test.describe("after initialisation", () => {
  test.it("a wrong base URL throws at once, as before init, in the module's words", () => {
    assert.throws(
      () => new Client({ baseUrl: "ftp://nowhere", token: "t" }),
      (e) => isApiError(e) && e.kind === "invalid_input" && e.retryable === false && /^invalid options\.baseUrl: /.test(e.message),
    );
  });

  test.it("baseUrl stays readable when another option is invalid", async () => {
    const bad = new Client({ baseUrl: `${emulator.url}/`, token: "" });
    const e = await rejection(bad.listWebhooks());
    assert.equal(e.kind, "invalid_input");
    assert.equal(bad.baseUrl, emulator.url);
  });

  test.it("a client built with invalid options before init rejects its calls with invalid_input", async () => {
    for (let i = 0; i < 2; i++) {
      const e = await rejection(builtBeforeInit.listWebhooks());
      assert.equal(isApiError(e), true);
      assert.equal(e.kind, "invalid_input");
      assert.match(e.message, /token/);
    }
  });

  test.it("a missing messages filter rejects with invalid_input", async () => {
    const e = await rejection(client().listMessages(undefined));
    assert.equal(e.kind, "invalid_input");
  });

  test.it("init() resolves at once and does not instantiate again", async () => {
    const output = await init();
    assert.ok(output.memory instanceof WebAssembly.Memory);
    assert.equal(instantiations, 1);
  });

  test.it("forwards every method of the wasm Client", () => {
    const names = Object.getOwnPropertyNames(WasmClient.prototype).filter(
      (n) => n !== "constructor" && !n.startsWith("__"),
    );
    for (const name of names) {
      assert.ok(name in Client.prototype, `Client.prototype.${name}`);
    }
    assert.ok(names.includes("listWebhooks") && names.includes("baseUrl"));
  });
});

test.describe("listDocuments() iterated (for await)", () => {
  test.it("pages with skip/take and stops after a short page", async () => {
    const docs = await collect(client().listDocuments({ propertyId: "prop-bulk" }, { pageSize: 3 }));
    assert.deepEqual(
      docs.map((d) => d.title),
      Array.from({ length: DOCS }, (_, i) => `bulk-${i + 1}.pdf`),
    );
    assert.equal(await requests(DOCS_ROUTE), 3, "3 + 3 + 1");
  });

  test.it("asks once more when the last page was full", async () => {
    assert.equal((await collect(client().listDocuments({}, { pageSize: DOCS }))).length, DOCS);
    assert.equal(await requests(DOCS_ROUTE), 2);
  });

  test.it("stops at limit without asking for more than it needs", async () => {
    const docs = await collect(client().listDocuments(undefined, { pageSize: 2, limit: 5 }));
    assert.equal(docs.length, 5);
    assert.equal(await requests(DOCS_ROUTE), 3, "2 + 2 + 1");
    assert.deepEqual(await collect(client().listDocuments({}, { limit: 0 })), []);
    assert.equal(await requests(DOCS_ROUTE), 3);
  });

  test.it("returns the iterable synchronously and sends nothing before next()", async () => {
    const it = client().listDocuments();
    assert.equal(typeof it[Symbol.asyncIterator], "function");
    assert.equal(await requests(DOCS_ROUTE), 0);
  });

  test.it("queues concurrent next() calls", async () => {
    const it = iterate(client().listDocuments({}, { pageSize: 2 }));
    const results = await Promise.all(Array.from({ length: DOCS + 2 }, () => it.next()));
    assert.deepEqual(
      results.map((r) => (r.done ? "done" : r.value.title)),
      [...Array.from({ length: DOCS }, (_, i) => `bulk-${i + 1}.pdf`), "done", "done"],
    );
    assert.equal(await requests(DOCS_ROUTE), 4);
  });

  test.it("a failed page rejects next() with its ApiError and ends the iteration", async () => {
    await admin("faults", { method: "GET", path: "/api/file-storage/company/documents/metadata", status: 404 });
    const it = iterate(client().listDocuments({}, { pageSize: 2 }));
    const e = await rejection(it.next());
    assert.equal(isApiError(e), true);
    assert.equal(e.kind, "not_found");
    assert.deepEqual(await it.next(), { done: true, value: undefined });
  });

  test.it("passes signal to every page (aborted -> kind aborted)", async () => {
    const controller = new AbortController();
    const reason = new Error("the user left the page");
    controller.abort(reason);
    const e = await rejection(iterate(client().listDocuments({}, { signal: controller.signal })).next());
    assert.equal(e.kind, "aborted");
    assert.equal(e.cause, reason, "the abort's reason is the cause");
  });

  test.it("refuses invalid pageSize and limit at the first next(), sending nothing", async () => {
    for (const options of [{ pageSize: 0 }, { pageSize: 1.5 }, { pageSize: "5" }, { limit: -1 }]) {
      const e = await rejection(iterate(client().listDocuments({}, options)).next());
      assert.ok(isApiError(e) && e.kind === "invalid_input", String(e));
      assert.match(e.message, /must be a whole number from/);
    }
    assert.equal(await requests(DOCS_ROUTE), 0);
  });

  test.it("a take in an iterated query is refused (the page size is pageSize)", async () => {
    const e = await rejection(iterate(client().listDocuments({ take: 5 })).next());
    assert.equal(e.kind, "invalid_input");
    assert.match(e.message, /query\.take: when iterating, give the page size as options\.pageSize/);
    assert.equal(await requests(DOCS_ROUTE), 0);
  });

  test.it("starts at the query's skip", async () => {
    const docs = await collect(client().listDocuments({ propertyId: "prop-bulk", skip: 5 }, { pageSize: 2 }));
    assert.deepEqual(
      docs.map((d) => d.title),
      Array.from({ length: DOCS - 5 }, (_, i) => `bulk-${i + 6}.pdf`),
    );
  });
});

test.describe("listDocuments() awaited, and both", () => {
  test.it("await sends one request with the query as given", async () => {
    const page = await client().listDocuments({ propertyId: "prop-bulk", skip: 1, take: 3 });
    assert.deepEqual(
      page.map((d) => d.title),
      ["bulk-2.pdf", "bulk-3.pdf", "bulk-4.pdf"],
    );
    assert.equal(await requests(DOCS_ROUTE), 1);
  });

  test.it("awaiting twice shares the one request; iterating the same call pages afresh", async () => {
    const call = client().listDocuments({ propertyId: "prop-bulk" });
    const [a, b] = await Promise.all([call, call]);
    assert.equal(a, b);
    assert.equal(a.length, DOCS);
    assert.equal(await requests(DOCS_ROUTE), 1);
    const iterated = await collect(call);
    assert.deepEqual(iterated, a);
    assert.equal(await requests(DOCS_ROUTE), 2, "the awaited request, then one short page of the iteration");
  });

  test.it("pageSize and limit are iteration options: an awaited call refuses them", async () => {
    for (const options of [{ pageSize: 2 }, { limit: 2 }]) {
      const e = await rejection(client().listDocuments({}, options));
      assert.equal(e.kind, "invalid_input");
      assert.match(e.message, /an iteration option/);
    }
    assert.equal(await requests(DOCS_ROUTE), 0);
  });

  test.it("a failed awaited call rejects with the ApiError, its stack showing the caller", async function callerFrame() {
    await admin("faults", { method: "GET", path: "/api/file-storage/company/documents/metadata", status: 404 });
    let e;
    try {
      await client().listDocuments();
    } catch (error) {
      e = error;
    }
    assert.equal(e?.kind, "not_found");
    assert.equal(e.status, 404);
    assert.match(e.stack, /at async (\S+\.)?callerFrame /);
  });
});

test.describe("listMessages()", () => {
  test.it("pages messages with paging.skip/take, keeping the other options", async () => {
    const c = client();
    const all = await c.listMessages({ candidateId: "cand-bulk" }, { fields: ["id"] });
    assert.equal(all.length, BULK_MESSAGES);
    await admin("reset", {});
    const paged = await collect(c.listMessages({ candidateId: "cand-bulk" }, { pageSize: 10, fields: ["id"] }));
    assert.deepEqual(paged, all);
    assert.deepEqual(Object.keys(paged[0]), ["id"]);
    assert.equal(await requests(GRAPHQL_ROUTE), 3, "10 + 10 + 5");
  });

  test.it("stops at limit", async () => {
    const ids = (await collect(client().listMessages({ candidateId: "cand-bulk" }, { pageSize: 4, limit: 6 }))).map(
      (m) => m.id,
    );
    assert.equal(ids.length, 6);
    assert.equal(new Set(ids).size, 6);
    assert.equal(await requests(GRAPHQL_ROUTE), 2);
  });

  test.it("a missing filter rejects the first next() with invalid_input", async () => {
    const e = await rejection(iterate(client().listMessages(undefined)).next());
    assert.equal(e.kind, "invalid_input");
  });
});

test.describe("free() and Symbol.dispose", () => {
  test.it("a freed client rejects calls with kind freed, saying what to do; free() twice is harmless", async () => {
    const c = client();
    await c.listWebhooks();
    c.free();
    c.free();
    const e = await rejection(c.listWebhooks());
    assert.equal(e.kind, "freed");
    assert.equal(e.retryable, false);
    assert.ok(e instanceof ApiError);
    assert.match(e.message, /was freed .* create a new Client, or keep one for as long as the app runs/);
    assert.throws(() => c.baseUrl, /freed/);
  });

  test.it("instanceof ApiError: the module's errors, the wrapper's, and no others", async () => {
    const e = await rejection(client().listMessages(undefined));
    assert.ok(e instanceof ApiError);
    assert.ok(isApiError(e));
    assert.equal(new Error("x") instanceof ApiError, false);
    assert.equal({ name: "ApiError", kind: "network" } instanceof ApiError, false);
  });

  test.it("Symbol.dispose is free", () => {
    assert.equal(typeof Symbol.dispose, "symbol");
    assert.equal(Client.prototype[Symbol.dispose], Client.prototype.free);
  });
});

test.describe("uploads in Node", () => {
  test.it("onProgress without XMLHttpRequest: the upload goes through fetch, one final report", async () => {
    assert.equal(typeof XMLHttpRequest, "undefined");
    const reports = [];
    const file = new Blob(["a".repeat(1000)], { type: "text/plain" });
    const record = await client().uploadDocument(
      { file, resourcePath: "units/node", name: "node.txt" },
      { onProgress: (p) => reports.push(p) },
    );
    assert.equal(record.title, "node.txt");
    assert.equal(record.size, 1000);
    assert.deepEqual(reports, [{ loaded: 1000, total: 1000 }]);
  });
});
