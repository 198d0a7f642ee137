/* @ts-self-types="./estatekit.d.ts" */
// estatekit for servers (the `node` condition of package.json: Node, Deno, Bun, the server side of
// Next.js with Turbopack or webpack, Vite SSR, vitest): the module's bytes are embedded in
// ./estatekit_wasm_embedded.js, so no bundler can move or rewrite its location. The API is
// ./client.js's, the same as the browser entry's.
import { entry } from "./client.js";
import bytes from "./estatekit_wasm_embedded.js";

const api = entry(bytes);

export default api.init;
export const { initSync, Client } = api;
export { isApiError, EVENT_TYPES, DOCUMENT_TYPES } from "./client.js";
