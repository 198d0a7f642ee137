// The portal's server-side token code: a Client whose tokens come from estatekit/auth's provider
// (one sign-in, refreshed before expiry), and the route that hands the browser its token behind
// the portal's session check. Tested through estatekit/testing (../test/tokens.test.ts).
import { Client } from "estatekit";
import { createTokenProvider, type TokenProvider } from "estatekit/auth";

export interface ServiceAccount {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  username: string;
  password: string;
  /** The service's `fetch` (tests hand estatekit/testing's). */
  fetch?: (input: Request, init?: RequestInit) => Promise<Response>;
}

/** The server's client and the provider behind it. */
export function serverClient(account: ServiceAccount): { client: Client; provider: TokenProvider } {
  const { baseUrl, fetch } = account;
  const provider = createTokenProvider(account);
  const client = new Client({ baseUrl, getToken: provider.getToken, fetch });
  return { client, provider };
}

/** GET /api/estate-token: `{ token, expiresAt }` for a signed-in portal user, else 401. */
export async function tokenRoute(request: Request, provider: TokenProvider): Promise<Response> {
  if (!/(?:^|;\s*)portal-session=signed-in(?:;|$)/.test(request.headers.get("cookie") ?? "")) {
    return Response.json({ error: "sign in first" }, { status: 401 });
  }
  return Response.json(await provider.getToken(), { headers: { "cache-control": "no-store" } });
}
