// `estatekit/webhooks` alone: a receiver, its handlers typed by event type, and its own error class.
import { createWebhookHandler, isInvalidEvent, parseEvent, toNodeListener, WebhookEventError } from "estatekit/webhooks";
import type { EventOf, WebhookEvent } from "estatekit/webhooks";

export const handler: (request: Request) => Promise<Response> = createWebhookHandler({
  on: {
    UNIT_CREATED: (event: EventOf<"UNIT_CREATED">) => void event.uuid,
  },
  dedupe: true,
});
export const listener = toNodeListener(handler);

export async function check(body: string): Promise<WebhookEvent | string> {
  try {
    return await parseEvent(body);
  } catch (e) {
    if (isInvalidEvent(e)) {
      const path: string = e.path;
      const kind: "invalid_event" = e.kind;
      return `${kind} at ${path}`;
    }
    if (e instanceof WebhookEventError) return e.message;
    throw e;
  }
}
