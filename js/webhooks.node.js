/* @ts-self-types="./webhooks.d.ts" */
// estatekit/webhooks for servers (the `node` condition: Node, Deno, Bun, Next.js route handlers):
// the receiver's module bytes are embedded in ./estatekit_webhooks_wasm_embedded.js. The API is
// ./webhooks_receiver.js's, the same as the browser entry's.
import { entry } from "./webhooks_receiver.js";
import bytes from "./estatekit_webhooks_wasm_embedded.js";

export const { parseEvent, createWebhookHandler, toNodeListener } = entry(bytes);
export { isInvalidEvent, WebhookEventError, webhookProcessor } from "./webhooks_receiver.js";
