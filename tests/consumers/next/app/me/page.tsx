// A server component calling the service on behalf of the signed-in user (lib/signin.ts).
import { Client } from "estatekit";
import { userSession } from "@/lib/signin";
import { describeError, serviceUrl } from "@/lib/estatekit-server";

export const dynamic = "force-dynamic";

async function summary() {
  const session = await userSession();
  if (!session.signedIn) return { ok: false, ...session };
  const client = new Client({ baseUrl: serviceUrl(), token: session.accessToken, timeoutMs: 10_000 });
  try {
    const hooks = await client.listWebhooks();
    return { ok: true, email: session.email, tokenId: session.tokenId, expiresAt: session.expiresAt, ids: hooks.map((h) => h.id) };
  } catch (e) {
    return describeError(e);
  } finally {
    client.free();
  }
}

export default async function MePage() {
  const result = await summary();
  return (
    <main>
      <h1>Your webhooks (server component, your own token)</h1>
      <pre id="result">{JSON.stringify(result)}</pre>
    </main>
  );
}
