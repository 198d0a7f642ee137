// The browser's token, from the server's provider, behind the app's own session check (here a
// cookie the portal's sign-in would set): `{ token, expiresAt }`, never the client secret.
import { tokenProvider } from "@/lib/estatekit-auth";
import { describeError } from "@/lib/estatekit-server";

export const dynamic = "force-dynamic";

export async function GET(request: Request) {
  const signedIn = /(?:^|;\s*)portal-session=signed-in(?:;|$)/.test(request.headers.get("cookie") ?? "");
  if (!signedIn) return Response.json({ error: "sign in first" }, { status: 401 });
  try {
    const token = await tokenProvider().getToken();
    return Response.json(token, { headers: { "cache-control": "no-store" } });
  } catch (e) {
    return Response.json(describeError(e), { status: 502 });
  }
}
