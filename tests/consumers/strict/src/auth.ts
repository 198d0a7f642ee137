// `estatekit/auth` alone: a token provider for a server's client, and its errors.
import { ApiError, createTokenProvider, isApiError, isSignInRequired } from "estatekit/auth";
import type { TokenProvider } from "estatekit/auth";

export function provider(options: Parameters<typeof createTokenProvider>[0]): TokenProvider {
  return createTokenProvider(options);
}

export function signInAgain(e: unknown): boolean {
  if (isSignInRequired(e)) return true;
  if (e instanceof ApiError && e.kind === "unauthorized") {
    const s: number = e.status;
    return s === 401;
  }
  return isApiError(e) && e.kind === "forbidden";
}
