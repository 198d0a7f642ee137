// `estatekit/query` alone: TanStack Query option factories (structural: no TanStack installed here).
import { estatekitKeys, listDocumentsInfiniteQueryOptions, listWebhooksQueryOptions, retry, retryDelay } from "estatekit/query";
import type { EstatekitKey, EstatekitQueryOptions } from "estatekit/query";

type Client = Parameters<typeof estatekitKeys>[0];
type Webhooks = ReturnType<typeof listWebhooksQueryOptions> extends EstatekitQueryOptions<infer T> ? T : never;

export function options(client: Client): [EstatekitQueryOptions<Webhooks>, ReturnType<typeof listDocumentsInfiniteQueryOptions>, EstatekitKey, boolean, number] {
  const infinite = listDocumentsInfiniteQueryOptions(client, {}, { pageSize: 20 });
  return [listWebhooksQueryOptions(client), infinite, estatekitKeys(client).documents.all, retry(1, new Error("x")), retryDelay(1, null)];
}
