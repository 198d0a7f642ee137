/* @ts-self-types="./webhooks.d.ts" */
// estatekit/webhooks for Cloudflare Workers-style runtimes (the `workerd` condition), which compile
// no WebAssembly from bytes or URLs: the receiver's module is imported as a compiled module, as
// workerd and wrangler import a .wasm file. The API is ./webhooks_receiver.js's.
import { entry } from "./webhooks_receiver.js";
// @ts-ignore: a .wasm import is the runtime's (a WebAssembly.Module), not TypeScript's.
import compiled from "./estatekit_webhooks_wasm_bg.wasm";

export const { parseEvent, createWebhookHandler, toNodeListener } = entry(() => compiled);
export { isInvalidEvent, WebhookEventError, webhookProcessor } from "./webhooks_receiver.js";
