// The app under test: what an admin portal does with estatekit, written against `estatekit`
// only. Its tests (../test/) run it against `estatekit/testing`, with no server and no network.
import { isApiError, type Client, type DocumentRecord, type Message } from "estatekit";

/** Uploads a tenant's lease (a CONTRACT filed under the tenant) and lists the tenant's documents. */
export async function uploadLease(client: Client, tenantId: string, file: Blob): Promise<DocumentRecord[]> {
  await client.uploadDocument({
    file,
    resourcePath: `tenants/${tenantId}`,
    name: "Lease.pdf",
    metadata: { type: "CONTRACT", tenantId },
  });
  return client.listDocuments({ tenantId });
}

/** Subscribes `url` to UNIT_CREATED once: registers a webhook only if none is registered yet. */
export async function subscribeToUnitEvents(client: Client, url: string): Promise<string> {
  const existing = (await client.listWebhooks()).find((w) => w.type === "UNIT_CREATED" && w.url === url);
  return existing?.id ?? client.registerWebhook({ type: "UNIT_CREATED", url });
}

/** The messages of a candidate's conversation that the candidate sent and nobody has read. */
export async function unreadMessages(client: Client, candidateId: string): Promise<Message[]> {
  const unread: Message[] = [];
  for await (const m of client.listMessages({ candidateId }, { fields: ["id", "text", "sentBy", "isRead"] })) {
    if (m && m.sentBy === "CANDIDATE" && m.isRead === false) unread.push(m);
  }
  return unread;
}

/** How the portal shows a failed call: a short text for the service's errors, anything else rethrown. */
export function describeError(e: unknown): string {
  if (!isApiError(e)) throw e;
  return e.kind === "rate_limited" ? "Too many requests, try again shortly" : `Failed: ${e.kind}`;
}
