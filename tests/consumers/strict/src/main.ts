// `estatekit`: a client, its list calls awaited and iterated, `using` (Symbol.dispose).
import init, { Client, DEFAULT_PAGE_SIZE, DOCUMENT_TYPES, EVENT_TYPES, isDocumentType, isEventType } from "estatekit";
import type { ClientOptions, DocumentRecord, EventType, SelectedMessage, Webhook } from "estatekit";

export async function portal(options: ClientOptions): Promise<string[]> {
  await init();
  const client = new Client(options);
  const base: string = client.baseUrl;
  const hooks: Webhook[] = await client.listWebhooks();
  const page: DocumentRecord[] = await client.listDocuments({ take: 10 });
  const all: DocumentRecord[] = [];
  for await (const d of client.listDocuments({}, { pageSize: DEFAULT_PAGE_SIZE, limit: 500 })) all.push(d);
  const messages = await client.listMessages({ candidateId: "c1" }, { fields: ["id", "text"] });
  const first: SelectedMessage<readonly ["id", "text"]> | null | undefined = messages[0];
  const types: readonly EventType[] = EVENT_TYPES;
  const kinds = DOCUMENT_TYPES.filter((t) => isDocumentType(t));
  client[Symbol.dispose]();
  return [base, String(hooks.length + page.length + all.length), String(first?.text), String(types.length), String(kinds.length), String(isEventType("UNIT_CREATED"))];
}
