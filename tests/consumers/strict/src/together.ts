// The entries together, as one app uses them: estatekit/testing's fetch given to a Client, the
// same ApiError class from estatekit and estatekit/auth, a WebhookEventError that is no ApiError,
// estatekit/query's options on the client, estatekit/store's memory store as the webhook dedupe,
// the client instrumented by estatekit/otel (no SDK registered: OpenTelemetry's no-op providers).
// Run by strict.test.mjs (emitted into dist/).
import { ApiError, Client, isApiError } from "estatekit";
import { ApiError as AuthApiError } from "estatekit/auth";
import { listWebhooksQueryOptions } from "estatekit/query";
import { createMemoryStore } from "estatekit/store";
import { createTestService } from "estatekit/testing";
import { createWebhookHandler, parseEvent, WebhookEventError } from "estatekit/webhooks";
import { instrument } from "estatekit/otel";
// The browser entries with no run-time part here: their declarations checked with the rest.
import type * as TokenEntry from "estatekit/token";
import type * as SubscribeEntry from "estatekit/subscribe";
import type * as SubscribeQueryEntry from "estatekit/subscribe/query";
export type BrowserEntries = [typeof TokenEntry, typeof SubscribeEntry, typeof SubscribeQueryEntry];

export async function run(): Promise<{ webhooks: number; queried: number; sameClass: boolean; invalidEvent: [boolean, boolean]; notFound: number | null; handled: number; sameClient: boolean }> {
  // `using` needs TypeScript's esnext.disposable library, which an ES2022 app does not have:
  // Symbol.dispose by hand (the declarations declare it for such a `lib`).
  const service = await createTestService();
  try {
    return await exercise(service);
  } finally {
    service[Symbol.dispose]();
  }
}

async function exercise(service: Awaited<ReturnType<typeof createTestService>>): Promise<Awaited<ReturnType<typeof run>>> {
  const plain = new Client({ baseUrl: service.baseUrl, token: service.token, fetch: service.fetch });
  const client = instrument(plain);
  await client.registerWebhook({ type: "UNIT_CREATED", url: "https://example.com/hook" });
  const webhooks = (await client.listWebhooks()).length;
  const query = listWebhooksQueryOptions(client);
  const queried = (await query.queryFn({ signal: new AbortController().signal })).length;
  let invalidEvent: [boolean, boolean] = [false, false];
  try {
    await parseEvent("{}");
  } catch (e) {
    invalidEvent = [e instanceof WebhookEventError, isApiError(e)];
  }
  let notFound: number | null = null;
  try {
    await client.getDocument("no-such-document");
  } catch (e) {
    if (e instanceof AuthApiError && e.kind === "not_found") notFound = e.status;
  }
  const handler = createWebhookHandler({ on: {}, dedupe: createMemoryStore() });
  const handled = (await handler(new Request("https://example.com/hook", { method: "GET" }))).status;
  return { webhooks, queried, sameClass: (ApiError as unknown) === (AuthApiError as unknown), invalidEvent, notFound, handled, sameClient: client === plain };
}
