"use server";
// A server action: registers a webhook through estatekit on the server.
import { EVENT_TYPES, type EventType } from "estatekit";
import { describeError, withClient, type Failure } from "@/lib/estatekit-server";

export async function registerWebhookAction(type: string, url: string): Promise<{ ok: true; id: string; count: number } | Failure> {
  try {
    if (!(EVENT_TYPES as readonly string[]).includes(type)) throw new Error(`unknown event type ${type}`);
    return await withClient(async (client) => {
      const id = await client.registerWebhook({ type: type as EventType, url });
      const hooks = await client.listWebhooks();
      return { ok: true as const, id, count: hooks.length };
    });
  } catch (e) {
    return describeError(e);
  }
}
