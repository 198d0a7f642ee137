// A server component calling the service with the token provider directly.
import { Client } from "estatekit";
import { tokenProvider } from "@/lib/estatekit-auth";
import { describeError, serviceUrl } from "@/lib/estatekit-server";

export const dynamic = "force-dynamic";

async function summary() {
  const client = new Client({ baseUrl: serviceUrl(), getToken: tokenProvider().getToken, timeoutMs: 10_000 });
  try {
    const hooks = await client.listWebhooks();
    return { ok: true, count: hooks.length, ids: hooks.map((h) => h.id) };
  } catch (e) {
    return describeError(e);
  } finally {
    client.free();
  }
}

export default async function ProviderPage() {
  const result = await summary();
  return (
    <main>
      <h1>Webhooks (server component, token provider)</h1>
      <pre id="result">{JSON.stringify(result)}</pre>
    </main>
  );
}
