// A route handler calling the service on behalf of the signed-in user, with the user's access
// token from the session (refreshed when due: lib/signin.ts). 401 `{ signInRequired }` when the
// session must sign in again.
import { Client } from "estatekit";
import { userSession } from "@/lib/signin";
import { describeError, serviceUrl } from "@/lib/estatekit-server";

export const dynamic = "force-dynamic";

export async function GET() {
  const session = await userSession();
  if (!session.signedIn) return Response.json(session, { status: 401 });
  const client = new Client({ baseUrl: serviceUrl(), token: session.accessToken, timeoutMs: 10_000 });
  try {
    const hooks = await client.listWebhooks();
    return Response.json({ ok: true, email: session.email, tokenId: session.tokenId, expiresAt: session.expiresAt, ids: hooks.map((h) => h.id) }, { headers: { "cache-control": "no-store" } });
  } catch (e) {
    return Response.json(describeError(e), { status: 502 });
  } finally {
    client.free();
  }
}
