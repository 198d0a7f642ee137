// The signed-in user's token for the browser, behind the next-auth session: `{ token, expiresAt }`
// (refreshed when due, lib/signin.ts), never the refresh token; 401 `{ signInRequired }` when the
// session must sign in again.
import { userSession } from "@/lib/signin";

export const dynamic = "force-dynamic";

export async function GET() {
  const session = await userSession();
  if (!session.signedIn) return Response.json(session, { status: 401 });
  return Response.json({ token: session.accessToken, expiresAt: session.expiresAt }, { headers: { "cache-control": "no-store" } });
}
