// Server-side helpers shared by the route handlers, the server component and the server action:
// a Client for the service whose address is read at request time (ESTATEKIT_BASE_URL, set
// when `next start` runs; "dev-token" is a token the emulator accepts), freed after each use.
import { Client, isApiError } from "estatekit";

/** What a page or route answers when a call fails. */
export interface Failure {
  ok: false;
  apiError: boolean;
  kind: string | undefined;
  message: string;
}

export function describeError(e: unknown): Failure {
  if (isApiError(e)) return { ok: false, apiError: true, kind: e.kind, message: e.message };
  return { ok: false, apiError: false, kind: undefined, message: String((e as Error)?.message ?? e) };
}

/** The service's address, read from the environment at request time (never inlined at build). */
export function serviceUrl(): string {
  const url = process.env.ESTATEKIT_BASE_URL;
  if (!url) throw new Error("ESTATEKIT_BASE_URL is not set");
  return url;
}

/** Runs `use` with a fresh Client and frees it afterwards. */
export async function withClient<T>(use: (client: Client) => Promise<T>, token = process.env.ESTATEKIT_TOKEN ?? "dev-token"): Promise<T> {
  const client = new Client({ baseUrl: serviceUrl(), token, timeoutMs: 10_000 });
  try {
    return await use(client);
  } finally {
    client.free();
  }
}

/** Lists the webhooks: `{ ok, count, ids }`, or a Failure. */
export async function webhookSummary(): Promise<{ ok: true; count: number; ids: string[] } | Failure> {
  try {
    const hooks = await withClient((client) => client.listWebhooks());
    return { ok: true, count: hooks.length, ids: hooks.map((h) => h.id) };
  } catch (e) {
    return describeError(e);
  }
}
