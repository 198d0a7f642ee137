/* @ts-self-types="./webhooks.d.ts" */
// estatekit/webhooks for browsers and workers (the `default` condition): the receiver's module is
// the .wasm file next to this one, or, where that gives no module, the server entry's embedded
// copy of the same module, imported lazily (see ./loader.js). The API is ./webhooks_receiver.js's.
import { entry } from "./webhooks_receiver.js";

export const { parseEvent, createWebhookHandler, toNodeListener } = entry(
  () => new URL("estatekit_webhooks_wasm_bg.wasm", import.meta.url),
  () => import("./estatekit_webhooks_wasm_embedded.js")
);
export { isInvalidEvent, WebhookEventError, webhookProcessor } from "./webhooks_receiver.js";
