/* @ts-self-types="./live.d.ts" */
// estatekit/live: the service's events pushed to signed-in pages. The receiver
// (estatekit/webhooks' createWebhookHandler({ log, secret })) appends each accepted event to an
// account's log (./live_log.js); createEventStream (./live_stream.js) answers pages with it as
// Server-Sent Events; toNodeListener serves either under node:http. Plain JavaScript, no module.
// Its declarations are ./live.d.ts; the browser side is estatekit/subscribe.
export { createMemoryEventLog, createRedisEventLog } from "./live_log.js";
export { createEventStream, RESET_EVENT } from "./live_stream.js";
export { toNodeListener } from "./node_listener.js";
