// Input errors say what is wrong in JavaScript terms, never in serde's ("unit value",
// "sequence", "map", "unit variant", "struct", "u32", "f64") nor serde-wasm-bindgen's (`JsValue(..)`,
// a TypeError's text): every field of every input interface
// of pkg/estatekit_wasm.d.ts (read with the TypeScript compiler, so a field added in Rust is
// covered) is given wrong values of each JavaScript kind, through the operation that takes it,
// against pkg/ (`make test-node`). The client sends through a stand-in `fetch`.
import test from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import ts from "typescript";

const pkg = new URL("../../pkg/", import.meta.url);
const { Client, isApiError } = await import(new URL("estatekit.node.js", pkg).href);
const { createMemoryStore } = await import(new URL("store.js", pkg).href);

/** The property names of each interface of the glue's declarations. */
function interfaces() {
  const file = new URL("estatekit_wasm.d.ts", pkg);
  const source = ts.createSourceFile("d.ts", readFileSync(file, "utf8"), ts.ScriptTarget.ES2022);
  const found = new Map();
  for (const node of source.statements) {
    if (ts.isInterfaceDeclaration(node)) {
      found.set(
        node.name.text,
        node.members.filter(ts.isPropertySignature).map((m) => m.name.getText(source)),
      );
    }
  }
  return found;
}

const BASE = "https://acme.example.com";
const ok = () => Promise.resolve(new Response("[]", { status: 200, headers: { "content-type": "application/json" } }));
const options = { baseUrl: BASE, token: "t", fetch: ok, retry: { maxRetries: 0 } };
const client = new Client(options);
const filter = { candidateId: "c" };
const file = new Blob(["x"]);
const upload = { file, resourcePath: "r" };
const webhook = { type: "UNIT_CREATED", url: "https://hooks.example.com/a" };

/** Each input interface, a valid value of it, and the call that reads it. */
const INPUTS = {
  // async: a wrong baseUrl is thrown by `new Client` itself, caught here as the others are.
  ClientOptions: [options, async (v) => new Client(v).listWebhooks()],
  RetryOptions: [{}, (v) => new Client({ ...options, retry: v }).listWebhooks()],
  // With a store: `key` names the budget in the store, and is read (and refused) only with one.
  RateLimitOptions: [{ perMinute: 60, store: createMemoryStore() }, (v) => new Client({ ...options, rateLimit: v }).listWebhooks()],
  MessageFilter: [filter, (v) => client.listMessages(v)],
  MessagesOptions: [{}, (v) => client.listMessages(filter, v)],
  GraphPaging: [{}, (v) => client.listMessages(filter, { paging: v })],
  GraphSorting: [{ fieldName: "id" }, (v) => client.listMessages(filter, { sort: v })],
  ListDocumentsQuery: [{}, (v) => client.listDocuments(v)],
  CallOptions: [{}, (v) => client.listWebhooks(v)],
  UploadDocumentInput: [upload, (v) => client.uploadDocument(v)],
  DocumentMetadata: [{}, (v) => client.uploadDocument({ ...upload, metadata: v })],
  UploadOptions: [{}, (v) => client.uploadDocument(upload, v)],
  RegisterWebhookInput: [webhook, (v) => client.registerWebhook(v)],
};
/** Wrong values of every JavaScript kind (and a missing one). */
const WRONG = [undefined, null, [], [1], {}, { a: 1 }, true, 5, -1, 1.5, "x", ""];
const SERDE = /unit value|unit variant|\bsequence\b|\bmap\b|\bstruct\b|\b[ui](8|16|32|64)\b|\bf(32|64)\b|floating point|invalid type|invalid value|unknown variant|TypeError|JsValue/;

test.it("every input field's errors are in JavaScript terms", async () => {
  const declared = interfaces();
  const messages = [];
  const rejecting = new Set();
  for (const [name, [valid, call]] of Object.entries(INPUTS)) {
    const fields = declared.get(name);
    assert.ok(fields?.length, `${name} is declared in estatekit_wasm.d.ts`);
    for (const field of fields) {
      for (const wrong of WRONG) {
        const value = { ...valid, [field]: wrong };
        if (wrong === undefined) delete value[field];
        const error = await call(value).then(
          () => undefined,
          (e) => e,
        );
        if (error === undefined) continue;
        assert.ok(isApiError(error), `${name}.${field} = ${JSON.stringify(wrong)}: ${error}`);
        if (error.kind !== "invalid_input") continue;
        messages.push(`${name}.${field} = ${JSON.stringify(wrong)}: ${error.message}`);
        rejecting.add(`${name}.${field}`);
      }
    }
  }
  const serde = messages.filter((m) => SERDE.test(m.slice(m.indexOf(": ") + 2)));
  assert.deepEqual(serde, [], `messages in serde's words:\n${serde.join("\n")}`);
  // Every field refuses at least one wrong kind (callbacks and signals included).
  const all = Object.keys(INPUTS).flatMap((name) => declared.get(name).map((f) => `${name}.${f}`));
  assert.deepEqual(all.filter((f) => !rejecting.has(f)), []);
  assert.ok(messages.length > 200, `${messages.length} messages checked`);
});

test.it("retry.limit (0.2.0, now maxRetries) is refused as an unknown key, not ignored", async () => {
  const e = await new Client({ ...options, retry: { limit: 2 } }).listWebhooks().catch((error) => error);
  assert.equal(e.kind, "invalid_input");
  assert.match(e.message, /options\.retry\.limit/);
  assert.ok(await new Client({ ...options, retry: { maxRetries: 2 } }).listWebhooks());
});

test.it("an unset baseUrl (an environment variable missing) is missing, and says which option", async () => {
  // Refused by `new Client` itself, at once (docs/errors.md, "Refused input").
  for (const unset of [undefined, null]) {
    assert.throws(
      () => new Client({ baseUrl: unset, token: "t" }),
      (e) => e.kind === "invalid_input" && e.message === "invalid options.baseUrl: is missing, expected a string",
    );
  }
  assert.throws(() => new Client({ token: "t" }), (e) => e.message === "invalid options.baseUrl: is required");
  const array = await client.listDocuments({ types: "CONTRACT" }).catch((error) => error);
  assert.equal(array.message, "invalid query.types: is not an array");
  const object = await client.listMessages(filter, { paging: "x" }).catch((error) => error);
  assert.equal(object.message, 'invalid options.paging: is the string "x", expected an object');
  const count = await client.listMessages(filter, { paging: { take: -1 } }).catch((error) => error);
  assert.equal(count.message, "invalid options.paging.take: is the number `-1`, expected a non-negative integer");
});
