/* @ts-self-types="./estatekit.d.ts" */
// estatekit for browsers and workers (the `default` condition of package.json): the module built
// for browsers, the .wasm file next to this one, which most bundlers emit as an asset. Where that
// file gives no module (a bundler that emits no asset, a dev server's pre-bundling, no
// import.meta.url), the same module's embedded copy, ./estatekit_wasm_fallback.js, imported
// lazily: its own chunk, never loaded when the file is (see ./loader.js). The API is
// ./client.js's.
import wasmInit, { initSync as wasmInitSync, Client as WasmClient } from "./estatekit_wasm.js";
import { entry } from "./client.js";

const glue = { init: wasmInit, initSync: wasmInitSync, Client: WasmClient };
const api = entry(
  glue,
  () => new URL("estatekit_wasm_bg.wasm", import.meta.url),
  () => import("./estatekit_wasm_fallback.js")
);

export default api.init;
export const { initSync, Client } = api;
export { ApiError, isApiError, isEventType, isDocumentType, EVENT_TYPES, DOCUMENT_TYPES, DEFAULT_PAGE_SIZE } from "./client.js";
