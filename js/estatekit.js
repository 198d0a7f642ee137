/* @ts-self-types="./estatekit.d.ts" */
// estatekit for browsers and workers (the `default` condition of package.json): the module built
// for browsers, the .wasm file next to this one, which bundlers emit as an asset. The API is
// ./client.js's.
import wasmInit, { initSync as wasmInitSync, Client as WasmClient } from "./estatekit_wasm.js";
import { entry } from "./client.js";

const glue = { init: wasmInit, initSync: wasmInitSync, Client: WasmClient };
const api = entry(glue, () => new URL("estatekit_wasm_bg.wasm", import.meta.url));

export default api.init;
export const { initSync, Client } = api;
export { ApiError, isApiError, isEventType, isDocumentType, EVENT_TYPES, DOCUMENT_TYPES } from "./client.js";
