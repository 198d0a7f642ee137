/* @ts-self-types="./estatekit.d.ts" */
// estatekit for Cloudflare Workers (the `workerd` condition of package.json, which wrangler
// resolves), whose runtime compiles no WebAssembly from bytes or URLs: the server entry's module
// (features dom-emulation, auth and server: a Worker is a server, holding its OAuth client secret
// in a binding) imported as a compiled module, as wrangler and workerd import a .wasm file.
// estatekit/auth's `workerd` entry (./auth.workerd.js) uses this same module instance. The API is
// ./client.js's.
import wasmInit, { initSync as wasmInitSync, Client as WasmClient } from "./estatekit_wasm_node.js";
import { entry } from "./client.js";
import { clientWithCheckedStore } from "./checked_client.js";
// @ts-ignore: a .wasm import is the runtime's (a WebAssembly.Module), not TypeScript's.
import compiled from "./estatekit_wasm_node_bg.wasm";

const glue = { init: wasmInit, initSync: wasmInitSync, Client: clientWithCheckedStore(WasmClient) };
const api = entry(glue, () => compiled);

export default api.init;
export const { initSync, Client } = api;
export { ApiError, isApiError, isEventType, isDocumentType, EVENT_TYPES, DOCUMENT_TYPES, DEFAULT_PAGE_SIZE } from "./client.js";
