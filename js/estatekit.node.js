/* @ts-self-types="./estatekit.d.ts" */
// estatekit for servers (the `node` condition of package.json: Node, Deno, Bun, the server side of
// Next.js with Turbopack or webpack, Vite SSR, vitest): the module built with the `dom-emulation`
// feature (uploads from test environments that emulate a DOM in Node, see web/src/form.rs), its
// bytes embedded in ./estatekit_wasm_embedded.js, so no bundler can move or rewrite its location.
// The API is ./client.js's, the same as the browser entry's.
import wasmInit, { initSync as wasmInitSync, Client as WasmClient } from "./estatekit_wasm_node.js";
import { entry } from "./client.js";
import bytes from "./estatekit_wasm_embedded.js";
import { clientWithCheckedStore } from "./checked_client.js";

const glue = { init: wasmInit, initSync: wasmInitSync, Client: clientWithCheckedStore(WasmClient) };
const api = entry(glue, bytes);

export default api.init;
export const { initSync, Client } = api;
export { ApiError, isApiError, isEventType, isDocumentType, EVENT_TYPES, DOCUMENT_TYPES, DEFAULT_PAGE_SIZE } from "./client.js";
