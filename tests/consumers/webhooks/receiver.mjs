// The consumer's receiver, as an app writes it: estatekit/webhooks resolved from this project's
// node_modules (the packed tarball), served by node:http through toNodeListener.
import { createServer } from "node:http";
import { createWebhookHandler, parseEvent, toNodeListener, WebhookEventError, isInvalidEvent } from "estatekit/webhooks";

export { createWebhookHandler, parseEvent, toNodeListener, WebhookEventError, isInvalidEvent };

/** Starts `handler` on a free loopback port; returns `{ url, close() }`. */
export async function serve(handler) {
  const server = createServer(toNodeListener(handler));
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = /** @type {import("node:net").AddressInfo} */ (server.address());
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
