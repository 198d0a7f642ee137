// A Cloudflare Worker receiving deliveries, as an app writes it: `estatekit/webhooks` resolved
// with the conditions wrangler uses (workerd, worker, browser), its .wasm imported as a module.
// tests/consumers/webhooks.test.mjs bundles it with esbuild and runs it in workerd.
import { createWebhookHandler } from "estatekit/webhooks";

/** What the handlers saw, for the test to read back (GET /seen). */
const seen = [];

const handler = createWebhookHandler({
  subdomain: "acme",
  dedupe: true,
  on: {
    UNIT_UPDATED: (event) => {
      seen.push(`${event.operation} ${event.uuid}`);
    },
  },
});

export default {
  /** @param {Request} request */
  async fetch(request) {
    if (new URL(request.url).pathname === "/seen") return Response.json(seen);
    return handler(request);
  },
};
