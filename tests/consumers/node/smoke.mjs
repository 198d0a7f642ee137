// Node 20 imports estatekit as server-side rendering does. Importing must not throw and must
// not touch the WebAssembly module. With ESTATEKIT_EMULATOR_URL set, a call must work through
// Node's global fetch (the module initialises itself from the bytes the server entry embeds).
// Usage: node tests/consumers/node/smoke.mjs (after installing the packed tarball here).
import assert from "node:assert/strict";
import { Client, DOCUMENT_TYPES, EVENT_TYPES, isApiError } from "estatekit";

assert.equal(typeof globalThis.window, "undefined");
assert.ok(EVENT_TYPES.includes("UNIT_CREATED") && DOCUMENT_TYPES.includes("PRE-MOVE_IN"));
assert.equal(isApiError(new Error("plain")), false);
assert.equal(isApiError(Object.assign(new Error("x"), { name: "ApiError", kind: "network" })), true);

// Unset or empty: no emulator (new Client refuses an empty base URL at once).
const url = process.env.ESTATEKIT_EMULATOR_URL || undefined;
const client = new Client({ baseUrl: url ?? "https://acme.example.com", token: "dev-token" });
console.log("node smoke: imported estatekit, constructed a Client before initialisation");

if (url) {
  const hooks = await client.listWebhooks({ timeoutMs: 10_000 });
  assert.ok(Array.isArray(hooks));
  assert.equal(client.baseUrl, url);
  console.log(`node smoke: listWebhooks answered ${hooks.length} webhook(s) through Node's fetch`);
}
client.free();
