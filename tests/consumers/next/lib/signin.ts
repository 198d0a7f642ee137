// Staff sign in with their own account of the service (next-auth 4, the JWT session: the tokens
// live in the encrypted session cookie). The refresh of the user's access token is chosen when
// the server starts (ESTATEKIT_REFRESH, read at request time, never at build):
// - "fresh": estatekit/auth's createUserTokens: one refresh grant per refresh token for every
//   concurrent request of the session, in this process and, through the Redis store
//   (ESTATEKIT_REDIS_URL), in the other servers; a request holding a refresh token that was
//   already rotated gets its successor from the store;
// - "guide": the `jwt` callback of the Auth.js refresh-token-rotation guide, written by hand,
//   which every request whose token expired runs on its own.
// Route handlers and server components read the session with `userSession()`, which runs the
// same `jwt` callback; they cannot rewrite the session cookie (only /api/auth/session, which a
// page's SessionProvider polls, can), so the session's successor must stay in the store until
// the next poll: ESTATEKIT_SUCCESSOR_RETENTION_MS.
import { createHash } from "node:crypto";
import { type AuthOptions, getServerSession, type Session } from "next-auth";
import type { JWT } from "next-auth/jwt";
import { authjsProvider, createUserTokens, isSignInRequired, type TokenSet, toTokenSet, type UserTokens } from "estatekit/auth";
import { createRedisStore } from "estatekit/store";
import { createClient } from "redis";
import { serviceUrl } from "./estatekit-server";

/** The OAuth client of the portal (the emulator's defaults; a real portal's come from its secrets). */
const clientId = () => process.env.ESTATEKIT_CLIENT_ID ?? "dev-client";
const clientSecret = () => process.env.ESTATEKIT_CLIENT_SECRET ?? "dev-secret";

/** How the session's access token is refreshed. */
export type RefreshMode = "fresh" | "guide";

export function refreshMode(): RefreshMode {
  const mode = process.env.ESTATEKIT_REFRESH ?? "fresh";
  if (mode !== "fresh" && mode !== "guide") throw new Error(`ESTATEKIT_REFRESH must be fresh or guide, not ${mode}`);
  return mode;
}

/** What the session cookie holds besides next-auth's own claims. */
interface PortalJwt extends JWT {
  tokens?: TokenSet;
  /** The guide's fields (seconds, as the guide keeps them). */
  access_token?: string;
  refresh_token?: string;
  expires_at?: number;
  error?: "RefreshTokenError";
}

const shared = globalThis as typeof globalThis & { estatekitUserTokens?: Promise<UserTokens> };

/** The process's user tokens, on the Redis store shared by every server of the portal. */
export function userTokens(): Promise<UserTokens> {
  shared.estatekitUserTokens ??= (async () => {
    const url = process.env.ESTATEKIT_REDIS_URL;
    let store;
    if (url) {
      const redis = createClient({ url, socket: { reconnectStrategy: () => 100 } });
      redis.on("error", () => {});
      await redis.connect();
      store = createRedisStore(redis, { prefix: "portal:" });
    }
    const retention = process.env.ESTATEKIT_SUCCESSOR_RETENTION_MS;
    const before = process.env.ESTATEKIT_REFRESH_BEFORE_MS;
    return createUserTokens({
      baseUrl: serviceUrl(),
      clientId: clientId(),
      clientSecret: clientSecret(),
      store,
      ...(retention ? { successorRetentionMs: Number(retention) } : {}),
      ...(before ? { refreshBeforeMs: Number(before) } : {}),
    });
  })();
  shared.estatekitUserTokens.catch(() => delete shared.estatekitUserTokens);
  return shared.estatekitUserTokens;
}

/** The `jwt` callback with `fresh`: the set to use now; RefreshTokenError only when the service refused the refresh token. */
async function freshJwt({ token, account }: { token: PortalJwt; account?: Parameters<typeof toTokenSet>[0] | null }): Promise<PortalJwt> {
  if (account) return { ...token, tokens: toTokenSet(account), error: undefined };
  if (!token.tokens) return token;
  try {
    const tokens = await (await userTokens()).fresh(token.tokens);
    return { ...token, tokens, error: undefined };
  } catch (e) {
    if (isSignInRequired(e)) return { ...token, error: "RefreshTokenError" };
    // Anything else (the network, a timeout, the store): keep the session; this call fails.
    return token;
  }
}

/** The `jwt` callback of the Auth.js guide "Refresh token rotation", as it is written there. */
async function guideJwt({ token, account }: { token: PortalJwt; account?: { access_token?: string; refresh_token?: string; expires_at?: number } | null }): Promise<PortalJwt> {
  if (account) {
    // First-time login, save the `access_token`, its expiry and the `refresh_token`
    return { ...token, access_token: account.access_token, expires_at: account.expires_at, refresh_token: account.refresh_token };
  } else if (Date.now() < (token.expires_at ?? 0) * 1000) {
    // Subsequent logins, but the `access_token` is still valid
    return token;
  } else {
    // Subsequent logins, but the `access_token` has expired, try to refresh it
    if (!token.refresh_token) throw new TypeError("Missing refresh_token");
    try {
      const response = await fetch(`${serviceUrl()}/accounts/oauth/token`, {
        method: "POST",
        body: new URLSearchParams({
          client_id: clientId(),
          client_secret: clientSecret(),
          grant_type: "refresh_token",
          refresh_token: token.refresh_token,
        }),
      });
      const tokensOrError = await response.json();
      if (!response.ok) throw tokensOrError;
      const newTokens = tokensOrError as { access_token: string; expires_in: number; refresh_token?: string };
      return {
        ...token,
        access_token: newTokens.access_token,
        expires_at: Math.floor(Date.now() / 1000 + newTokens.expires_in),
        // Some providers only issue refresh tokens once, so preserve if we did not get a new one
        refresh_token: newTokens.refresh_token ? newTokens.refresh_token : token.refresh_token,
      };
    } catch {
      // The guide logs the error here ("Error refreshing access_token"); the test counts it.
      token.error = "RefreshTokenError";
      return token;
    }
  }
}

/** next-auth's options, made at request time (the service's address is read then). */
export function authOptions(): AuthOptions {
  const mode = refreshMode();
  return {
    secret: process.env.NEXTAUTH_SECRET,
    session: { strategy: "jwt" },
    providers: [authjsProvider({ baseUrl: serviceUrl(), clientId: clientId(), clientSecret: clientSecret() })],
    callbacks: {
      jwt: (params) => (mode === "fresh" ? freshJwt(params as never) : guideJwt(params as never)) as Promise<JWT>,
      // What the browser sees (/api/auth/session): who is signed in, and whether the session
      // must sign in again; never the tokens.
      session: ({ session, token }) => ({ ...session, error: (token as PortalJwt).error }) as Session,
    },
  };
}

/** The signed-in user and the access token to call the service with, as a route or a server component sees them. */
export type UserSession =
  | { signedIn: false; signInRequired: boolean }
  | { signedIn: true; accessToken: string; expiresAt: number; email: string | null | undefined; tokenId: string };

/** Reads the request's session (running the `jwt` callback, so refreshing when due). */
export async function userSession(): Promise<UserSession> {
  const options = authOptions();
  // The server's own session callback also hands over the access token; the browser's does not.
  const session = (await getServerSession({
    ...options,
    callbacks: {
      ...options.callbacks,
      session: ({ session, token }) => {
        const t = token as PortalJwt;
        const expiresAt = t.tokens?.expiresAt ?? (t.expires_at ?? 0) * 1000;
        return { ...session, error: t.error, accessToken: t.tokens?.accessToken ?? t.access_token, expiresAt } as Session;
      },
    },
  })) as (Session & { error?: string; accessToken?: string; expiresAt: number }) | null;
  if (!session) return { signedIn: false, signInRequired: false };
  if (session.error === "RefreshTokenError" || !session.accessToken) return { signedIn: false, signInRequired: true };
  // Which access token this is, for the test to count them (a hash: never the token itself).
  const tokenId = createHash("sha256").update(session.accessToken).digest("hex").slice(0, 16);
  return { signedIn: true, accessToken: session.accessToken, expiresAt: session.expiresAt, email: session.user?.email, tokenId };
}
